//! `loadsgf` of files no game record looks like, through the built binary: a FIFO (opening it
//! would wait for a writer), a file past the size limit, and main lines deeper than the node
//! limit (a 200,000-node line once overflowed the stack and killed the process). Each is
//! refused with its reason, the position stays, and the engine answers the next command. The
//! files are made here, in a scratch directory, rather than kept in the repository.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-loadsgf-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A Go record whose main line holds `nodes` move nodes (passes, alternating colours).
fn deep_record(nodes: usize) -> String {
    let mut s = String::from("(;GM[1]FF[4]SZ[9]");
    for i in 0..nodes {
        s.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
    }
    s.push(')');
    s
}

/// Sends `script` to `sente --protocol gtp` and returns its stdout. An engine still running
/// after `limit` fails the test (a hang is a fault like any other).
fn gtp(script: &str, limit: Duration) -> String {
    let mut child = Command::new(SENTE)
        .args(["--protocol", "gtp", "--nodes", "50", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || done.send(child.wait_with_output()));
    let out = finished
        .recv_timeout(limit)
        .unwrap_or_else(|_| panic!("sente still running after {limit:?}"))
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{:?}, output:\n{stdout}", out.status);
    stdout
}

/// The responses of `out`, one string per response (`=1 ...` / `?1 ...`, lines joined by \n).
fn responses(out: &str) -> Vec<String> {
    out.split("\n\n")
        .filter(|r| !r.trim().is_empty())
        .map(|r| r.trim_end().to_string())
        .collect()
}

#[test]
fn hostile_files_are_refused_with_a_reason_and_change_nothing() {
    let dir = scratch("hostile");
    let deep = dir.join("deep.sgf");
    std::fs::write(&deep, deep_record(200_000)).unwrap();
    let just_over = dir.join("just-over.sgf");
    std::fs::write(&just_over, deep_record(10_000)).unwrap();
    let at_limit = dir.join("at-limit.sgf");
    // The root node and 9,999 move nodes: 10,000 on the line.
    std::fs::write(&at_limit, deep_record(9_999)).unwrap();
    let big = dir.join("big.sgf");
    let mut text = deep_record(2);
    text.insert_str(text.len() - 1, &format!("C[{}]", "x".repeat(5 << 20)));
    std::fs::write(&big, text).unwrap();
    let fifo = dir.join("fifo.sgf");
    let made = Command::new("mkfifo").arg(&fifo).status();
    let have_fifo = matches!(made, Ok(s) if s.success());
    if !have_fifo {
        eprintln!("mkfifo failed ({made:?}); the FIFO case is left out");
    }
    let p = |f: &PathBuf| f.display().to_string();
    let mut script = String::from("boardsize 9\nplay b E5\n");
    script += &format!("1 loadsgf {}\n", p(&deep));
    script += &format!("2 loadsgf {}\n", p(&just_over));
    script += &format!("3 loadsgf {}\n", p(&big));
    script += &format!("4 loadsgf {}\n", p(&dir));
    if have_fifo {
        script += &format!("5 loadsgf {}\n", p(&fifo));
    }
    script += "6 showboard\n";
    script += &format!("7 loadsgf {}\n", p(&at_limit));
    script += "8 showboard\n9 quit\n";
    let out = gtp(&script, Duration::from_secs(120));
    let r = responses(&out);
    let find = |id: &str| {
        r.iter()
            .find(|x| {
                x[1..]
                    .strip_prefix(id)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\n']))
            })
            .unwrap_or_else(|| panic!("no response {id} in\n{out}"))
            .clone()
    };
    let deep_why = "?1 cannot load file: more than 10000 nodes on one line of play";
    assert_eq!(find("1"), deep_why);
    assert_eq!(find("2"), deep_why.replace("?1", "?2"));
    assert_eq!(find("3"), "?3 cannot load file: larger than 4 MiB");
    assert_eq!(find("4"), "?4 cannot load file: not a regular file");
    if have_fifo {
        assert_eq!(find("5"), "?5 cannot load file: not a regular file");
    }
    // The position is the one before the refusals: E5 alone on 9x9.
    let board = find("6");
    assert!(board.contains(" 5 . . . . X . . . . 5"), "{board}");
    // (Stones stand between spaces; the captures line names "BLACK (X)".)
    assert_eq!(board.matches(" X ").count(), 1, "{board}");
    // A line at the limit loads (and its passes leave the board empty).
    assert_eq!(find("7"), "=7");
    assert_eq!(find("8").matches(" X ").count(), 0, "{}", find("8"));
    assert_eq!(find("9"), "=9");
    std::fs::remove_dir_all(&dir).unwrap();
}
