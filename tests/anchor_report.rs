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

/// The engines' search lines for games 1 and 2 of [`SGF`] as c-gomoku-cli's `-msg` writes
/// them: per ply the last line with an evaluation counts, from the mover's view.
const MESSAGES: &str = "\
------------------------------
Game ID: 1
Engines: eng x anchor
4) anchor: Depth 3-5 | Eval 50 | Time 1ms | gg
5) eng: depth 1-2 | eval 10 | nodes 5 | pv jj
5) eng: depth 2-4 | eval 120 | nodes 90 | pv jj
6) anchor: Depth 9-12 | Eval -M5 | Time 3ms | kk
7) eng: depth 3-3 | eval +M1 | nodes 2 | pv gh
------------------------------
Game ID: 2
Engines: anchor x eng
4) eng: depth 5-9 | eval -30 | nodes 500 | pv gg
5) anchor: OptiTime 352ms | MaxTime 470ms
5) anchor: Depth 7-9 | Eval 200 | Time 2ms | jj
6) eng: depth 6-9 | eval -M4 | nodes 700 | pv kk
";

#[test]
fn trajectories_give_each_sides_evaluation_from_blacks_view_by_colour_and_result() {
    let dir = fixture("trajectory");
    std::fs::write(dir.join("messages.txt"), MESSAGES).unwrap();
    let out = run(&[
        "--engine",
        "eng",
        "--json",
        "--trajectory",
        "4",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let groups = v["trajectory"].as_array().unwrap();
    let group = |colour: &str, result: &str| {
        groups
            .iter()
            .find(|g| g["colour"] == colour && g["result"] == result)
            .unwrap_or_else(|| panic!("no group {colour} {result} in {groups:?}"))
    };
    // Game 1: eng black and won. Its first move's last line said 120; the anchor (white) said
    // 50 for itself, -50 for black; then mates both ways seen from black: +3000.
    let won = group("B", "won");
    assert_eq!(won["games"], 1);
    assert_eq!(won["rows"][0]["engine"], 120);
    assert_eq!(won["rows"][0]["opponent"], -50);
    assert_eq!(won["rows"][1]["engine"], 3000);
    assert_eq!(won["rows"][1]["opponent"], 3000);
    // Games 2 and 4: eng white and lost; only game 2 has lines (a line without an
    // evaluation is skipped). eng's -30 is black's +30, its loss in 4 black's +3000.
    let lost = group("W", "lost");
    assert_eq!(lost["games"], 2);
    assert_eq!(lost["rows"][0]["engine"], 30);
    assert_eq!(lost["rows"][0]["engine_games"], 1);
    assert_eq!(lost["rows"][0]["opponent"], 200);
    assert_eq!(lost["rows"][1]["engine"], 3000);
    assert_eq!(lost["rows"][1]["opponent_games"], 0);
    // Game 3: eng black and lost, no lines: counted, no rows.
    assert_eq!(group("B", "lost")["rows"].as_array().unwrap().len(), 0);

    let out = run(&[
        "--engine",
        "eng",
        "--trajectory",
        "2",
        dir.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("as black, won (1 games)") && stdout.contains("120 (1)"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn trajectories_need_the_messages_file_and_at_least_one_move() {
    let dir = fixture("nomsg");
    let trajectory = |moves: &str| {
        run(&[
            "--engine",
            "eng",
            "--trajectory",
            moves,
            dir.to_str().unwrap(),
        ])
    };
    let out = trajectory("4");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("messages.txt"));
    std::fs::write(dir.join("messages.txt"), MESSAGES).unwrap();
    let out = trajectory("0");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
