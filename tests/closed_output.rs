//! A manager that closes the engine's stdout (it quit, or a shell pipe like `| head -1`) ends
//! the engine quietly: exit status 0 and no error on stderr, for both protocols. A manager that
//! closes the engine's stdin during a long search (it died) ends the search at once, and the
//! engine exits.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `binary` with `args`, reads nothing but the first reply line, closes the pipe, then
/// sends `more`; returns the exit success and stderr.
fn close_after_first_line(binary: &str, args: &[&str], first: &str, more: &str) -> (bool, String) {
    let mut child = Command::new(binary)
        .args(args)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    stdin.write_all(first.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut byte = [0u8; 1];
    // One byte is enough to know it answered; then the reading end goes away.
    std::io::Read::read_exact(&mut stdout, &mut byte).unwrap();
    drop(stdout);
    // The engine may already be gone when the rest is written: that is fine.
    let _ = stdin.write_all(more.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().expect("the engine exits");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn gomocup_engine_stops_quietly_when_its_output_closes() {
    let (ok, stderr) = close_after_first_line(
        env!("CARGO_BIN_EXE_pbrain-sente"),
        &[],
        "ABOUT\n",
        "START 15\nABOUT\nABOUT\nBEGIN\nABOUT\n",
    );
    assert!(ok, "exit status; stderr: {stderr}");
    assert!(!stderr.contains("Error"), "stderr: {stderr}");
}

#[test]
fn gtp_engine_stops_quietly_when_its_output_closes() {
    let (ok, stderr) = close_after_first_line(
        env!("CARGO_BIN_EXE_sente"),
        &["--protocol", "gtp"],
        "name\n",
        "version\nboardsize 9\nclear_board\nlist_commands\ngenmove b\n",
    );
    assert!(ok, "exit status; stderr: {stderr}");
    assert!(!stderr.contains("Error"), "stderr: {stderr}");
}

/// Starts `binary args`, sends `input`, waits `search` for the search it asks for to be under
/// way, closes stdin, and returns whether the engine exited within `bound` (it is killed
/// otherwise), with its stdout.
fn exits_after_stdin_closes(binary: &str, args: &[&str], input: &str) -> (bool, String) {
    let search = std::time::Duration::from_millis(500);
    let bound = std::time::Duration::from_secs(3);
    let mut child = Command::new(binary)
        .args(args)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(search);
    drop(stdin);
    let closed = std::time::Instant::now();
    let exited = loop {
        if child.try_wait().unwrap().is_some() {
            break true;
        }
        if closed.elapsed() > bound {
            let _ = child.kill();
            break false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let out = child.wait_with_output().unwrap();
    (exited, String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn gomocup_search_stops_when_stdin_closes() {
    // 20 s for the move (and, with the cap on clocks, still more than the bound).
    let (exited, out) = exits_after_stdin_closes(
        env!("CARGO_BIN_EXE_pbrain-sente"),
        &[],
        "START 15\nINFO timeout_turn 20000\nBOARD\n7,7,2\n8,8,1\n8,7,2\nDONE\n",
    );
    assert!(
        exited,
        "still searching 3 s after stdin closed; stdout: {out}"
    );
    // The best move found so far is written, for whoever may still read it.
    let replies: Vec<&str> = out.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(replies.len(), 2, "{out}");
    assert!(replies[1].contains(','), "{out}");
}

#[test]
fn gtp_genmove_stops_when_stdin_closes() {
    // 60 s of byo-yomi for the one move; the move found so far is answered.
    let (exited, out) = exits_after_stdin_closes(
        env!("CARGO_BIN_EXE_sente"),
        &["--protocol", "gtp"],
        "boardsize 9\ntime_settings 0 60 1\ngenmove b\n",
    );
    assert!(
        exited,
        "still searching 3 s after stdin closed; stdout: {out}"
    );
    assert!(out.ends_with("\n\n") && out.contains("= "), "{out}");
}
