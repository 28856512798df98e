//! A manager that closes the engine's stdout (it quit, or a shell pipe like `| head -1`) ends
//! the engine quietly: exit status 0 and no error on stderr, for both protocols.

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
