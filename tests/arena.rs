//! `sente match` over real engine processes: our own levels at tiny node limits through the built
//! binary, and deliberately broken engines (tests/engines/*.sh) that answer garbage, answer late,
//! refuse or exit mid-game. Every run has a watchdog, so a runner that hangs fails the test
//! instead of hanging CI.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-arena-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a manifest `name.toml` into `dir`.
fn manifest(dir: &Path, name: &str, command: &str, args: &[&str], protocol: &str, games: &str) {
    let args: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    let text = format!(
        "name = \"{name}\"\ncommand = {command:?}\nargs = [{}]\nprotocol = \"{protocol}\"\ngames = [{games}]\n",
        args.join(", ")
    );
    std::fs::write(dir.join(format!("{name}.toml")), text).unwrap();
}

fn script(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines")
        .join(name)
        .display()
        .to_string()
}

/// A sente engine at a tiny node limit, speaking Gomocup.
fn sente_gomocup(dir: &Path, name: &str, level: &str) {
    manifest(
        dir,
        name,
        SENTE,
        &[
            "--protocol",
            "gomocup",
            "--level",
            level,
            "--nodes",
            "300",
            "--seed",
            "{seed}",
        ],
        "gomocup",
        "\"gomoku\", \"renju\"",
    );
}

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
}

/// `sente match --game go --size SIZE --engines-dir DIR` and `args` ([`sente_match`]).
fn go_match(dir: &Path, size: &str, args: &[&str], limit: Duration) -> Run {
    let dir = dir.to_str().unwrap();
    let head = ["--game", "go", "--size", size, "--engines-dir", dir];
    sente_match(&[&head[..], args].concat(), limit)
}

/// Runs `sente match` with `args`, killing it (and failing) after `limit`.
fn sente_match(args: &[&str], limit: Duration) -> Run {
    let t0 = Instant::now();
    let mut child = Command::new(SENTE)
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("sente match {args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        ok: status.success(),
        stdout: reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

/// The longest think the report gives `engine`, in ms.
/// The report's first line, after the cutechess-style `Score of` lines printed game by game.
fn header(stdout: &str) -> &str {
    stdout
        .lines()
        .find(|l| !l.starts_with("Score of "))
        .unwrap_or("")
}

fn longest_think(stdout: &str, engine: &str) -> u64 {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("longest think: "))
        .unwrap_or_else(|| panic!("no longest think in\n{stdout}"));
    line.split(", ")
        .find_map(|e| {
            e.strip_prefix(engine)?
                .strip_prefix(' ')?
                .strip_suffix(" ms")
        })
        .and_then(|ms| ms.parse().ok())
        .unwrap_or_else(|| panic!("no think of {engine} in {line:?}"))
}

/// The row of the results table for `pairing`: (games, W, L, D).
fn row(stdout: &str, pairing: &str) -> (u32, u32, u32, u32) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(pairing))
        .unwrap_or_else(|| panic!("no row {pairing:?} in\n{stdout}"));
    let nums: Vec<u32> = line[pairing.len()..]
        .split_whitespace()
        .take(4)
        .map(|t| t.parse().unwrap())
        .collect();
    (nums[0], nums[1], nums[2], nums[3])
}

#[test]
fn gomoku_levels_play_over_gomocup_and_write_sgf_and_pgn() {
    let dir = scratch("levels");
    sente_gomocup(&dir, "strong", "strong");
    sente_gomocup(&dir, "classic", "classic");
    let out = dir.join("out");
    let run = sente_match(
        &[
            "--engines-dir",
            dir.to_str().unwrap(),
            "--engines",
            "strong",
            "classic",
            "--games",
            "4",
            "--size",
            "9",
            "--tc",
            "0/10",
            "--concurrency",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
        Duration::from_secs(120),
    );
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    let (games, w, l, d) = row(&run.stdout, "strong vs classic");
    assert_eq!((games, w + l + d), (4, 4));
    // After each game, cutechess-cli's line with the pairing's score so far.
    let scores: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("Score of strong vs classic: "))
        .collect();
    assert_eq!(scores.len(), 4, "{}", run.stdout);
    assert!(
        scores[3].ends_with(&format!(
            "- {l} - {d}  [{:.3}] 4",
            (w as f64 + d as f64 / 2.0) / 4.0
        )) && scores[3].contains(&format!(": {w} - ")),
        "{}",
        run.stdout
    );
    // The node budget ruled, the clock was the backstop: the first line says so.
    assert!(
        run.stdout
            .contains("per move strong 300 nodes, classic 300 nodes; clock 10 s/move max"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("endings: "), "{}", run.stdout);
    assert!(!run.stdout.contains("crash") && !run.stdout.contains("garbage"));
    for i in 1..=4 {
        let sgf = std::fs::read_to_string(out.join(format!("game-{i:04}.sgf"))).unwrap();
        assert!(sgf.starts_with("(;FF[4]GM[4]"), "{sgf}");
        assert!(sgf.contains("SZ[9]") && sgf.contains(" ms]"), "{sgf}");
        assert!(sgf.contains("C[opening]"));
    }
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Result \"").count(), 4);
    assert_eq!(pgn.matches("[White \"strong\"]").count(), 2);
    // Each game's movetext holds its moves, in renju notation, as many as PlyCount says, and
    // the first is the SGF's first (SGF `fe` on 9x9 is f4: row 1 at the bottom).
    let first_sgf = std::fs::read_to_string(out.join("game-0001.sgf")).unwrap();
    let at = first_sgf.find(";B[").unwrap() + 3;
    let sgf_point = &first_sgf.as_bytes()[at..at + 2];
    let first_name = format!(
        "{}{}",
        sgf_point[0] as char,
        9 - (sgf_point[1] - b'a') as usize
    );
    for (n, game) in pgn.split("[Event ").skip(1).enumerate() {
        let plies: usize = game
            .split("[PlyCount \"")
            .nth(1)
            .and_then(|t| t.split('"').next())
            .and_then(|t| t.parse().ok())
            .unwrap();
        let movetext = game.split("\n\n").nth(1).unwrap();
        let words: Vec<&str> = movetext
            .split_whitespace()
            .filter(|w| !w.ends_with('.'))
            .collect();
        let (result, moves) = words.split_last().unwrap();
        assert!(["1-0", "0-1", "1/2-1/2"].contains(result), "{movetext}");
        assert_eq!(moves.len(), plies, "{movetext}");
        if n == 0 {
            assert_eq!(moves[0], first_name, "{movetext}\n{first_sgf}");
        }
    }
}

#[test]
fn renju_referee_and_process_against_internal() {
    let dir = scratch("renju");
    sente_gomocup(&dir, "classic", "classic");
    let run = sente_match(
        &[
            "--game",
            "renju",
            "--engines-dir",
            dir.to_str().unwrap(),
            "--engines",
            "classic",
            "internal:strong",
            "--nodes",
            "300",
            "--games",
            "2",
            "--tc",
            "0/10",
        ],
        Duration::from_secs(120),
    );
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert!(
        header(&run.stdout).starts_with("renju 15x15"),
        "{}",
        run.stdout
    );
    assert_eq!(row(&run.stdout, "classic vs internal:strong").0, 2);
    // `--nodes` does not reach the process, but its manifest sets a limit of its own: no
    // warning (the broken engine's tests show the warning for one without).
    assert!(
        !run.stderr.contains("limits only internal"),
        "{}",
        run.stderr
    );
}

#[test]
fn no_double_three_is_named_to_gomocup_engines_and_refereed() {
    // Black to move must block white's four at 8,7, which would make two open threes: a black
    // that knows the rule plays elsewhere and loses to the five; one that was told only
    // `INFO rule 0` blocks and is forfeited for a forbidden move.
    let dir = scratch("no-double-three");
    sente_gomocup(&dir, "classic", "classic");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "6,7 4,11 7,7 5,10 8,5 6,9 8,6 7,8 3,12 0,0\n").unwrap();
    let run = sente_match(
        &[
            "--rule",
            "no-double-three",
            "--engines-dir",
            dir.to_str().unwrap(),
            "--engines",
            "classic",
            "internal:classic",
            "--openings",
            openings.to_str().unwrap(),
            "--nodes",
            "300",
            "--games",
            "2",
            "--tc",
            "0/10",
        ],
        Duration::from_secs(120),
    );
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert!(
        header(&run.stdout).starts_with("gomoku 15x15 no-double-three"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("black won 0, white won 2"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("endings: line 2\n"), "{}", run.stdout);
}

/// The broken engine `tests/engines/<script>` in `mode` against `opponent` (in-process),
/// with a 200 ms tolerance; `extra` adds arguments.
fn against_broken(
    protocol: &str,
    mode: &str,
    game: &str,
    opponent: &str,
    games: &str,
    tc: &str,
    extra: &[&str],
) -> Run {
    let dir = scratch(&format!("{protocol}-{mode}"));
    let script = script(&format!("broken-{protocol}.sh"));
    manifest(
        &dir,
        "broken",
        "sh",
        &[&script, mode],
        protocol,
        &format!("{game:?}"),
    );
    let mut args = vec![
        "--game",
        game,
        "--engines-dir",
        dir.to_str().unwrap(),
        "--engines",
        "broken",
        opponent,
        "--games",
        games,
        "--tc",
        tc,
        "--tolerance",
        "200",
        "--verbose",
    ];
    args.extend_from_slice(extra);
    sente_match(&args, Duration::from_secs(60))
}

/// Broken Gomocup engine `mode` against our classic level on 9x9.
fn against_broken_gomocup(mode: &str, games: &str, tc: &str) -> Run {
    let extra = ["--nodes", "200", "--size", "9"];
    against_broken(
        "gomocup",
        mode,
        "gomoku",
        "internal:classic",
        games,
        tc,
        &extra,
    )
}

#[test]
fn a_gomocup_engine_answering_garbage_loses_every_game() {
    let run = against_broken_gomocup("garbage", "2", "0/5");
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(row(&run.stdout, "broken vs internal:classic"), (2, 0, 2, 0));
    assert!(run.stdout.contains("endings: garbage 2"), "{}", run.stdout);
    assert!(run.stdout.contains("\"banana\""), "{}", run.stdout);
    // `--nodes` does not reach the process: the runner says so, naming it.
    assert!(
        run.stderr
            .contains("--nodes limits only internal: engines; broken play on the clock"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_late_gomocup_engine_loses_on_time_and_is_killed() {
    let run = against_broken_gomocup("late", "2", "0/0.2");
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(row(&run.stdout, "broken vs internal:classic"), (2, 0, 2, 0));
    assert!(run.stdout.contains("endings: time 2"), "{}", run.stdout);
    // The engine sleeps 600 s: that the match ended within the watchdog's 60 s shows it was
    // killed. Its losing think is reported, and it lasted at least to the deadline (0.2 s +
    // 0.2 s tolerance), never less.
    assert!(
        longest_think(&run.stdout, "broken") >= 400,
        "{}",
        run.stdout
    );
}

#[test]
fn a_gomocup_engine_that_exits_mid_game_loses_and_is_restarted() {
    let run = against_broken_gomocup("exits", "4", "0/5");
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(row(&run.stdout, "broken vs internal:classic"), (4, 0, 4, 0));
    assert!(run.stdout.contains("endings: crash 4"), "{}", run.stdout);
    // Restarted each time: it plays its move in every game before dying.
    let crashes = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("game ") && l.contains("crash (exited while thinking)"))
        .count();
    assert_eq!(crashes, 4, "{}", run.stdout);
}

#[test]
fn a_gomocup_engine_refusing_the_board_loses_with_its_reason() {
    let run = against_broken_gomocup("refuse", "2", "0/5");
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(row(&run.stdout, "broken vs internal:classic"), (2, 0, 2, 0));
    assert!(
        run.stdout.contains("ERROR unsupported size"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_gomocup_engine_is_restarted_after_a_refusal_so_stray_lines_do_not_reach_the_next_game() {
    let run = against_broken_gomocup("stray", "2", "0/5");
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(row(&run.stdout, "broken vs internal:classic"), (2, 0, 2, 0));
    let refusals = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("  game ") && l.contains("refusal (ERROR busy)"))
        .count();
    assert_eq!(refusals, 2, "{}", run.stdout);
    assert!(!run.stdout.contains("ERROR stray"), "{}", run.stdout);
}

#[test]
fn settle_ms_keeps_quiet_after_an_engines_move() {
    let dir = scratch("gomocup-settle");
    manifest(
        &dir,
        "hasty",
        "sh",
        &[&script("broken-gomocup.sh"), "hasty"],
        "gomocup",
        "\"gomoku\"",
    );
    let path = dir.join("hasty.toml");
    let text = std::fs::read_to_string(&path).unwrap() + "settle_ms = 300\n";
    std::fs::write(&path, text).unwrap();
    let run = sente_match(
        &[
            "--engines-dir",
            dir.to_str().unwrap(),
            "--engines",
            "hasty",
            "internal:classic",
            "--games",
            "2",
            "--tc",
            "0/5",
            "--nodes",
            "200",
            "--size",
            "9",
            "--verbose",
        ],
        Duration::from_secs(60),
    );
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("too soon"), "{}", run.stdout);
    assert!(!run.stdout.contains("refused"), "{}", run.stdout);
}

/// Broken GTP engine `mode` against our perfect tic-tac-toe level.
fn against_broken_gtp(mode: &str, tc: &str) -> Run {
    against_broken("gtp", mode, "ttt", "internal:perfect", "2", tc, &[])
}

#[test]
fn broken_gtp_engines_lose_without_hanging_the_runner() {
    for (mode, tc, ending) in [
        ("garbage", "0/5", "garbage 2"),
        ("late", "0/1", "time 2"),
        ("exits", "0/5", "crash 2"),
        ("wrongid", "0/5", "garbage 2"),
        ("noblank", "0/1", "time 2"),
        ("stubborn", "0/5", "illegal move 2"),
    ] {
        let run = against_broken_gtp(mode, tc);
        assert!(run.ok, "{mode}: {}\n{}", run.stdout, run.stderr);
        // What GTP engines are told is said plainly.
        let told = format!(
            "GTP engines (broken) are told: time_settings 0 {} 1",
            &tc[2..]
        );
        assert!(run.stderr.contains(&told), "{mode}: {}", run.stderr);
        assert_eq!(
            row(&run.stdout, "broken vs internal:perfect"),
            (2, 0, 2, 0),
            "{mode}: {}",
            run.stdout
        );
        assert!(
            run.stdout.contains(&format!("endings: {ending}")),
            "{mode}: {}",
            run.stdout
        );
        // The late engines sleep 600 s, past the watchdog: the match ending shows they were
        // killed at the deadline (1 s + 0.2 s tolerance), which their reported think reaches.
        if ending.starts_with("time") {
            assert!(
                longest_think(&run.stdout, "broken") >= 1200,
                "{mode}: {}",
                run.stdout
            );
        }
    }
}

#[test]
fn missing_executables_are_skipped_with_a_message() {
    let dir = scratch("missing");
    sente_gomocup(&dir, "classic", "classic");
    std::fs::write(
        dir.join("ghost.toml"),
        "name = \"ghost\"\ncommand = \"/nonexistent/ghost\"\nprotocol = \"gomocup\"\ngames = [\"gomoku\"]\ninstall_hint = \"apt-get install ghost\"\n",
    )
    .unwrap();
    let dir_s = dir.to_str().unwrap();
    let run = sente_match(
        &["--engines-dir", dir_s, "--engines", "classic", "ghost"],
        Duration::from_secs(30),
    );
    assert!(!run.ok);
    assert!(
        run.stderr.contains(
            "engine ghost: /nonexistent/ghost not found (apt-get install ghost); skipped"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("fewer than two engines"),
        "{}",
        run.stderr
    );
    // With two others left, the match goes on without it.
    let run = sente_match(
        &[
            "--engines-dir",
            dir_s,
            "--engines",
            "classic",
            "ghost",
            "internal:classic",
            "--nodes",
            "200",
            "--size",
            "9",
            "--games",
            "2",
            "--tc",
            "0/10",
        ],
        Duration::from_secs(60),
    );
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(row(&run.stdout, "classic vs internal:classic").0, 2);
}

#[test]
fn bad_requests_are_clear_errors() {
    for (args, want) in [
        (
            vec!["--engines", "sente-strong", "sente-mcts"],
            "does not play gomoku",
        ),
        (
            vec!["--engines", "nonesuch", "sente-strong"],
            "no engine named \"nonesuch\"",
        ),
        (
            vec!["--engines", "internal:a", "internal:b", "--tc", "0"],
            "sets no limit",
        ),
        // GTP counts whole seconds: 0.3 s per move cannot be told to a GTP engine.
        (
            vec![
                "--game",
                "go",
                "--engines",
                "sente-mcts",
                "internal:heuristic",
                "--tc",
                "0/0.3",
            ],
            "so a move time of 0.3 s cannot be told to them; use whole seconds (GTP engines here: sente-mcts)",
        ),
        (
            vec![
                "--engines",
                "internal:strong",
                "internal:classic",
                "internal:strong",
                "--sprt",
                "0",
                "10",
            ],
            "exactly two engines",
        ),
    ] {
        let run = sente_match(&args, Duration::from_secs(30));
        assert!(!run.ok, "{args:?}");
        assert!(run.stderr.contains(want), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn an_error_is_one_line_even_with_backtraces_turned_on() {
    let out = Command::new(SENTE)
        .args([
            "match",
            "--engines",
            "internal:a",
            "internal:b",
            "--tc",
            "0",
        ])
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("Error: --tc: ") && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn the_default_time_control_fits_gtp_engines_and_a_given_one_is_kept() {
    let plan = |extra: &[&str]| {
        let mut args = vec!["match", "--game", "go", "--size", "9"];
        args.extend_from_slice(&["--engines", "sente-mcts", "sente-heuristic", "--plan"]);
        args.extend_from_slice(extra);
        Command::new(SENTE)
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    // No --tc: GTP engines get whole seconds (0/1), told as such.
    let out = plan(&[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("are told: time_settings 0 1 1"), "{err}");
    // A --tc they cannot be told is still refused, not replaced.
    let out = plan(&["--tc", "0/0.5"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("--tc: GTP engines"),
        "{err}"
    );
}

/// The seeds `sente match --seed <seed>` sends a GTP engine that has `set_random_seed`
/// (tests/engines/seed-gtp.sh in `mode`, which resigns at once) over four Go games.
fn match_seeds(mode: &str, seed: &str) -> Vec<String> {
    let dir = scratch(&format!("seed-{mode}-{seed}"));
    let log = dir.join("commands.log");
    manifest(
        &dir,
        "seedlog",
        "sh",
        &[&script("seed-gtp.sh"), mode, log.to_str().unwrap()],
        "gtp",
        "\"go\"",
    );
    let run = go_match(
        &dir,
        "9",
        &[
            "--engines",
            "seedlog",
            "internal:heuristic",
            "--games",
            "4",
            "--tc",
            "0/10",
            "--seed",
            seed,
        ],
        Duration::from_secs(60),
    );
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.matches("clear_board").count(), 4, "{text}");
    text.lines()
        .filter(|l| l.starts_with("set_random_seed"))
        .map(String::from)
        .collect()
}

#[test]
fn match_reseeds_gtp_engines_that_have_set_random_seed_each_game() {
    // GNU Go is deterministic for a seed: without a new one per game it replays its games.
    let first = match_seeds("lists", "5");
    assert_eq!(first.len(), 4, "{first:?}");
    let distinct: std::collections::HashSet<_> = first.iter().collect();
    assert_eq!(distinct.len(), 4, "{first:?}");
    // From the match seed and the game number: the same again, another match seed others.
    assert_eq!(match_seeds("lists", "5"), first);
    let other = match_seeds("lists", "6");
    assert!(other.iter().all(|s| !first.contains(s)), "{other:?}");
    // An engine without the command is not sent it and its games are played.
    assert!(match_seeds("silent", "5").is_empty());
}

#[test]
fn a_go_handicap_is_placed_by_the_referee_told_over_gtp_and_recorded() {
    let dir = scratch("handicap");
    manifest(
        &dir,
        "sente-gtp",
        SENTE,
        &[
            "--protocol",
            "gtp",
            "--level",
            "mcts",
            "--nodes",
            "200",
            "--seed",
            "{seed}",
        ],
        "gtp",
        "\"go\"",
    );
    let out = dir.join("out");
    let run = go_match(
        &dir,
        "9",
        &[
            "--komi",
            "0.5",
            "--handicap",
            "2",
            "--engines",
            "sente-gtp",
            "internal:heuristic",
            "--nodes",
            "200",
            "--games",
            "2",
            "--tc",
            "0/10",
            "--out",
            out.to_str().unwrap(),
        ],
        Duration::from_secs(120),
    );
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("komi 0.5 handicap 2"), "{}", run.stdout);
    // Both games were played to an end on the board: nobody refused the set-up or a move.
    assert!(!run.stdout.contains("refus"), "{}", run.stdout);
    for game in ["game-0001.sgf", "game-0002.sgf"] {
        let sgf = std::fs::read_to_string(out.join(game)).unwrap();
        // 9x9's two stones are G7 and C3; white moves first.
        assert!(sgf.contains("KM[0.5]HA[2]AB[gc][cg]"), "{sgf}");
        assert!(sgf.contains("\n;W["), "{sgf}");
        let first = sgf.find("\n;").unwrap();
        assert!(sgf[first..].starts_with("\n;W["), "{sgf}");
    }
    // A handicap only Go takes, and only where the board has its points.
    for (game, size, h) in [("gomoku", "15", "2"), ("go", "7", "5"), ("go", "9", "1")] {
        let run = sente_match(
            &[
                "--game",
                game,
                "--size",
                size,
                "--handicap",
                h,
                "--engines",
                "internal:heuristic",
                "internal:heuristic",
            ],
            Duration::from_secs(30),
        );
        assert!(
            !run.ok && run.stderr.contains("--handicap"),
            "{}",
            run.stderr
        );
    }
}

const GNUGO: &str = "/usr/games/gnugo";

#[test]
#[ignore = "needs GNU Go; .ci/run runs it (cargo test --release -- --ignored needs_gnugo)"]
fn needs_gnugo_go_over_gtp_is_refereed_and_scored() {
    // Asked for explicitly, a missing GNU Go is a failure, not a pass.
    assert!(
        Path::new(GNUGO).is_file(),
        "{GNUGO} not installed (apt-get install -y gnugo)"
    );
    let dir = scratch("go");
    manifest(
        &dir,
        "gnugo",
        GNUGO,
        &[
            "--mode",
            "gtp",
            "--level",
            "0",
            "--chinese-rules",
            "--capture-all-dead",
            "--positional-superko",
        ],
        "gtp",
        "\"go\"",
    );
    manifest(
        &dir,
        "stubborn",
        "sh",
        &[&script("broken-gtp.sh"), "stubborn"],
        "gtp",
        "\"go\"",
    );
    let out = dir.join("out");
    let run = go_match(
        &dir,
        "7",
        &[
            "--komi",
            "9",
            "--engines",
            "gnugo",
            "stubborn",
            "--games",
            "2",
            "--tc",
            "0/10",
            "--verbose",
            "--out",
            out.to_str().unwrap(),
        ],
        Duration::from_secs(120),
    );
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        row(&run.stdout, "gnugo vs stubborn"),
        (2, 2, 0, 0),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("illegal move (A1: point is occupied)"),
        "{}",
        run.stdout
    );
    let sgf = std::fs::read_to_string(out.join("game-0001.sgf")).unwrap();
    assert!(
        sgf.starts_with("(;FF[4]GM[1]") && sgf.contains("SZ[7]") && sgf.contains("KM[9]"),
        "{sgf}"
    );
    // What the referee counted, not a rule set it did not apply.
    assert!(sgf.contains("RU[Tromp-Taylor]"), "{sgf}");

    // GNU Go against itself plays to two passes and is counted by area.
    let run = go_match(
        &dir,
        "7",
        &[
            "--engines",
            "gnugo",
            dir.join("gnugo.toml").to_str().unwrap(),
            "--games",
            "2",
            "--tc",
            "0/10",
        ],
        Duration::from_secs(300),
    );
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("endings: score 2"), "{}", run.stdout);
}

#[test]
fn the_shipped_ttt_manifests_play_over_gomocup() {
    let run = sente_match(
        &[
            "--game",
            "ttt",
            "--engines",
            "sente-ttt-perfect",
            "sente-ttt-dumber",
            "sente-ttt-minimax",
            "--games",
            "4",
            "--tc",
            "0/5",
        ],
        Duration::from_secs(120),
    );
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    let (games, _, perfect_losses, _) = row(&run.stdout, "sente-ttt-perfect vs sente-ttt-dumber");
    assert_eq!((games, perfect_losses), (4, 0), "{}", run.stdout);
    assert_eq!(
        row(&run.stdout, "sente-ttt-perfect vs sente-ttt-minimax"),
        (4, 0, 0, 4)
    );
    assert!(run.stdout.contains("engine (all games)"));
}

#[test]
fn an_openings_file_in_the_old_row_order_is_refused_by_name() {
    // The first line of openings/freestyle-40.pos as it was written before the notation line,
    // rows counted from the top: match must refuse it before playing, saying what it wants.
    let dir = scratch("old-rows");
    let file = dir.join("old.pos");
    std::fs::write(&file, "f7g9h10\nh6g8g10f7\n").unwrap();
    let run = sente_match(
        &[
            "--engines",
            "internal:classic",
            "internal:strong",
            "--nodes",
            "100",
            "--games",
            "2",
            "--openings",
            file.to_str().unwrap(),
        ],
        Duration::from_secs(60),
    );
    assert!(!run.ok, "{}", run.stdout);
    assert!(
        run.stderr.contains("old.pos: line 1: \"f7g9h10\""),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("# notation: renju (a1 at the lower left)"),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("Score of"), "{}", run.stdout);
    // Declared, the same line is read as renju notation and played.
    std::fs::write(&file, "# notation: renju\nf9g7h6\n").unwrap();
    let run = sente_match(
        &[
            "--engines",
            "internal:classic",
            "internal:strong",
            "--nodes",
            "100",
            "--tc",
            "0/5",
            "--games",
            "2",
            "--openings",
            file.to_str().unwrap(),
            "--out",
            dir.join("games").to_str().unwrap(),
        ],
        Duration::from_secs(120),
    );
    assert!(run.ok, "{}", run.stderr);
    // f9 is x 5, y 6 (row 9 from the bottom of 15): SGF `fg`.
    let sgf = std::fs::read_to_string(dir.join("games/game-0001.sgf")).unwrap();
    assert!(sgf.contains(";B[fg]C[opening]"), "{sgf}");
}

#[test]
fn balanced_openings_are_written_and_read_back_by_match() {
    let dir = scratch("balanced");
    let out = Command::new(SENTE)
        .args([
            "openings",
            "--count",
            "3",
            "--balance",
            "2000",
            "--seed",
            "4",
        ])
        .args(["--scores"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let (declaration, openings) = text.split_once('\n').unwrap();
    assert_eq!(declaration, "# notation: renju (a1 at the lower left)");
    assert_eq!(openings.lines().count(), 3, "{text}");
    for line in openings.lines() {
        let (moves, score) = line.split_once(" # black ").expect("a score comment");
        assert!(moves.chars().all(|c| c.is_ascii_alphanumeric()), "{line}");
        let score: i32 = score.parse().unwrap();
        assert!(score.abs() <= 100, "{line}");
    }
    let file = dir.join("openings.txt");
    std::fs::write(&file, &text).unwrap();
    let run = sente_match(
        &[
            "--engines",
            "internal:classic",
            "internal:strong",
            "--nodes",
            "300",
            "--tc",
            "0/5",
            "--games",
            "6",
            "--openings",
            file.to_str().unwrap(),
            "--out",
            dir.join("games").to_str().unwrap(),
        ],
        Duration::from_secs(120),
    );
    assert!(run.ok, "{}", run.stderr);
    assert!(run.stdout.contains("3 openings"), "{}", run.stdout);
    // Game 1 starts from the first opening: renju `j6` (row 6 from the bottom) is x 9, y 9,
    // SGF `jj` (SGF rows count from the top).
    let first = openings.lines().next().unwrap().split(' ').next().unwrap();
    let (letter, rest) = first.split_at(1);
    let number: usize = rest
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap();
    let sgf_point = format!("{letter}{}", (b'a' + (15 - number) as u8) as char);
    let sgf = std::fs::read_to_string(dir.join("games/game-0001.sgf")).unwrap();
    assert!(
        sgf.contains(&format!(";B[{sgf_point}]C[opening]")),
        "{first} {sgf}"
    );
    // The same run generating its own balanced openings also plays.
    let run = sente_match(
        &[
            "--engines",
            "internal:classic",
            "internal:strong",
            "--nodes",
            "300",
            "--tc",
            "0/5",
            "--games",
            "2",
            "--balance",
            "2000",
        ],
        Duration::from_secs(120),
    );
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(row(&run.stdout, "internal:classic vs internal:strong").0, 2);
}
