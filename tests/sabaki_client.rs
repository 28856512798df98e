//! A real GUI client: `scripts/sabaki/session.js` drives `sente` through `@sabaki/gtp` (the GTP
//! library of the Sabaki GUI) the way Sabaki does: attach, pipelined sync, undo sync, genmove,
//! lz-analyze / kata-analyze interrupted by the next command, lz-genmove_analyze, quit. Runs when
//! `node` exists and `scripts/sabaki/node_modules` holds the library (`.ci/run` installs it with
//! `npm ci`); otherwise it says why it is skipped and passes. The session runs twice: on one
//! search thread and on two (`--threads 2`, one tree grown by both).

use std::path::Path;
use std::process::Command;

#[test]
fn sabaki_session() {
    run_session("sabaki_session", &[]);
}

#[test]
fn sabaki_session_on_two_threads() {
    run_session("sabaki_session_on_two_threads", &["--threads", "2"]);
}

/// Runs the script against `sente` with the test's arguments plus `extra`.
fn run_session(name: &str, extra: &[&str]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/sabaki");
    match Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => {}
        _ => {
            eprintln!("SKIPPED {name}: node is not installed");
            return;
        }
    }
    if !dir.join("node_modules/@sabaki/gtp").exists() {
        eprintln!(
            "SKIPPED {name}: {} has no node_modules/@sabaki/gtp (run .ci/run, which runs npm ci there)",
            dir.display()
        );
        return;
    }
    let out = Command::new("node")
        .current_dir(&dir)
        .arg("session.js")
        .arg(env!("CARGO_BIN_EXE_sente"))
        // Auto-detection (no --protocol): Sabaki's first line, `name`, must select GTP.
        .args(["--nodes", "400", "--seed", "1"])
        .args(extra)
        .env_remove("RUST_LOG")
        .output()
        .expect("running scripts/sabaki/session.js");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}");
    assert!(
        out.status.success(),
        "session.js failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
}
