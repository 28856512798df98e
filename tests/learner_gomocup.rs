//! The `learner` level over the Gomocup protocol: it learns from a game the manager abandons
//! after beating it (the winning move is never sent), remembers across games of one process
//! (c-gomoku-cli) and across processes through `INFO folder` (Piskvork), and shrugs off a
//! corrupt memory file.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A position with black (the learner, field 1) to move where the rule map prefers making two
/// fours at 10,6 to blocking white's four at 5,9 (see `players::learner` tests).
const OWN: [(u32, u32); 8] = [
    (10, 3),
    (10, 4),
    (10, 5),
    (7, 6),
    (8, 6),
    (9, 6),
    (11, 7),
    (12, 8),
];
const OPP: [(u32, u32); 8] = [
    (3, 9),
    (4, 9),
    (6, 9),
    (7, 9),
    (0, 0),
    (0, 12),
    (12, 0),
    (2, 12),
];

fn board_block() -> String {
    let mut s = String::from("BOARD\n");
    for (&(ox, oy), &(px, py)) in OWN.iter().zip(OPP.iter()) {
        s.push_str(&format!("{ox},{oy},1\n{px},{py},2\n"));
    }
    s.push_str("DONE\n");
    s
}

/// Runs the engine on `input` with `args`; returns (stdout replies without MESSAGE, stderr).
fn run(args: &[&str], input: &str) -> (Vec<String>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-sente"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("engine starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().expect("engine ends");
    assert!(out.status.success());
    let replies = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with("MESSAGE"))
        .map(String::from)
        .collect();
    (replies, String::from_utf8_lossy(&out.stderr).into_owned())
}

fn game(folder: Option<&Path>) -> String {
    let mut s = String::from("START 13\n");
    if let Some(f) = folder {
        s.push_str(&format!("INFO folder {}\n", f.display()));
    }
    s.push_str(&board_block());
    s
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sente-it-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

const LEARNER: &[&str] = &["--level", "learner", "--seed", "1"];

#[test]
fn learns_within_a_process_and_across_processes() {
    let dir = temp_dir("learn");
    // Game 1: tempted (10,6); the manager then starts game 2 without sending white's 5,9.
    let input = format!(
        "{}{}INFO time_left 1000\nEND\n",
        game(Some(&dir)),
        game(Some(&dir))
    );
    let (replies, _) = run(LEARNER, &input);
    assert_eq!(replies, ["OK", "10,6", "OK", "5,9"]);
    let file = dir.join("sente").join("learner.kernels");
    assert!(file.exists(), "the lesson was saved in the folder");
    // A new process with the same folder blocks at once.
    let (replies, _) = run(LEARNER, &format!("{}END\n", game(Some(&dir))));
    assert_eq!(replies, ["OK", "5,9"]);
    // Without the folder it knows nothing.
    let (replies, _) = run(LEARNER, &format!("{}END\n", game(None)));
    assert_eq!(replies, ["OK", "10,6"]);
    // --memory outranks the folder: an empty memory file elsewhere knows nothing either.
    let mem = dir.join("other.kernels");
    let args = [LEARNER, &["--memory", mem.to_str().unwrap()]].concat();
    let (replies, _) = run(&args, &format!("{}END\n", game(Some(&dir))));
    assert_eq!(replies, ["OK", "10,6"]);
    // A smaller kernel cannot hold the mark five columns away. The option may come before the
    // level that uses it (INFO lines arrive in any order).
    let input = format!(
        "START 13\nINFO kernel 9\nINFO level learner\nINFO folder {}\n{}END\n",
        dir.display(),
        board_block()
    );
    let (replies, _) = run(&["--seed", "1"], &input);
    assert_eq!(replies, ["OK", "10,6"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_corrupt_memory_file_is_reported_and_ignored() {
    let dir = temp_dir("corrupt");
    let sub = dir.join("sente");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(
        sub.join("learner.kernels"),
        b"sente-kernels 1\nkernels 2\n13 13 6",
    )
    .unwrap();
    let (replies, err) = run(LEARNER, &format!("{}END\n", game(Some(&dir))));
    assert_eq!(replies, ["OK", "10,6"]);
    assert!(err.contains("ignored"), "stderr: {err}");
    assert!(sub.join("learner.kernels.bad").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_kernel_option_is_an_error_on_the_next_move_request() {
    let input = format!("START 13\nINFO kernel 4\n{}END\n", board_block());
    let (replies, _) = run(LEARNER, &input);
    assert_eq!(replies.len(), 2);
    assert!(replies[1].starts_with("ERROR INFO kernel 4"), "{replies:?}");
}
