//! `scripts/anchor_report.py`, the score of an anchor match from c-gomoku-cli's SGF: a game the
//! manager scored with no move played after the opening (an engine that failed to start it) is
//! left out and named, pairs of one opening with swapped colours are told apart (split, won
//! both, lost both), and the engine's reply times give the mean share of the turn and the
//! replies over it.

mod python_script;

use std::path::PathBuf;
use std::process::Output;

fn run(args: &[&str]) -> Output {
    python_script::run_script("anchor_report.py", args)
}

/// Five games as c-gomoku-cli writes them: opening A won by black both times (a split),
/// opening B lost by `eng` with both colours, and a game its opponent failed to start.
const SGF: &str = "\
(;FF[4]GM[4]GN[1]EV[eng x anchor]RO[1.1]RU[0]SZ[15]PB[eng]PW[anchor]RE[B+1]TE[Black win by five connection]
;B[hh]C[opening move];W[hi]C[opening move];B[ii]C[opening move]
;W[gg]C[400ms];B[jj]C[500ms];W[kk]C[100ms];B[gh]C[300ms])

(;FF[4]GM[4]GN[2]EV[anchor x eng]RO[1.2]RU[0]SZ[15]PB[anchor]PW[eng]RE[B+1]TE[Black win by five connection]
;B[hh]C[opening move];W[hi]C[opening move];B[ii]C[opening move]
;W[gg]C[200ms];B[jj]C[450ms];W[kk]C[600ms];B[gh]C[10ms])

(;FF[4]GM[4]GN[3]EV[eng x anchor]RO[1.3]RU[0]SZ[15]PB[eng]PW[anchor]RE[W+1]TE[White win by five connection]
;B[aa]C[opening move];W[ab]C[opening move];B[ac]C[opening move]
;W[gg]C[300ms];B[jj]C[200ms];W[kk]C[100ms])

(;FF[4]GM[4]GN[4]EV[anchor x eng]RO[1.4]RU[0]SZ[15]PB[anchor]PW[eng]RE[B+1]TE[Black win by five connection]
;B[aa]C[opening move];W[ab]C[opening move];B[ac]C[opening move]
;W[gg]C[0ms];B[jj]C[100ms])

(;FF[4]GM[4]GN[5]EV[eng x anchor]RO[1.5]RU[0]SZ[15]PB[eng]PW[anchor]RE[B+1]TE[Black win by time forfeit]
;B[cc]C[opening move];W[cd]C[opening move];B[ce]C[opening move])
";

fn fixture(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-anchor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("games.sgf"), SGF).unwrap();
    dir
}

#[test]
fn an_unplayed_game_is_left_out_and_pairs_and_replies_are_counted() {
    let dir = fixture("text");
    let out = run(&["--engine", "eng", "--turn-ms", "500", dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Games 1-4 count: eng won game 1 (black) and lost 2, 3 and 4.
    assert!(
        stdout.starts_with("eng: 1-3-0 over 4 played games, 25.0%"),
        "{stdout}"
    );
    assert!(stdout.contains("as black: 1-1-0"), "{stdout}");
    assert!(stdout.contains("as white: 0-2-0"), "{stdout}");
    assert!(
        stdout.contains("pairs: 1 split, 0 won both, 1 lost both"),
        "{stdout}"
    );
    assert!(stdout.contains("left out: game 5"), "{stdout}");
    // eng's replies: 500, 300 | 200, 600 | 200 | 0 -> mean 300 ms, one over 500.
    assert!(
        stdout.contains("replies: 6, mean 300.0 ms = 60.0% of 500 ms, max 600 ms, 1 over the turn"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_gives_the_same_figures_and_the_other_side_sees_the_mirror() {
    let dir = fixture("json");
    let out = run(&["--engine", "anchor", "--json", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 4);
    assert_eq!(
        (v["wins"].as_u64(), v["losses"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(v["pairs"]["won"], 1);
    assert_eq!(v["pairs"]["split"], 1);
    assert_eq!(v["left_out"][0]["number"], "5");
    assert!(v["elo"]["elo"].as_f64().unwrap() > 0.0);
    assert!(v["replies"]["mean_share"].is_null(), "no turn given");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_file_or_an_absent_engine_is_an_error() {
    let dir = fixture("err");
    let out = run(&["--engine", "nobody", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no game of `nobody`"));
    let out = run(&["--engine", "eng", "/nonexistent/games.sgf"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
