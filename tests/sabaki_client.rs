//! A real GUI client: `scripts/sabaki/session.js` drives `sente` through `@sabaki/gtp` (the GTP
//! library of the Sabaki GUI) the way Sabaki does: attach, pipelined sync, undo sync, genmove,
//! lz-analyze / kata-analyze interrupted by the next command, lz-genmove_analyze, quit. Runs when
//! `node` exists and `scripts/sabaki/node_modules` holds the library (`.ci/run` installs it with
//! `npm ci`): the tests are `#[ignore]`d, so a plain `cargo test` lists them as ignored, and
//! `.ci/run` runs them (`--ignored needs_sabaki`) when the library is installed, and always
//! under CI, where a missing library fails them. The session runs twice: on one search thread
//! and on two (`--threads 2`, one tree grown by both).

use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "needs node and npm ci in scripts/sabaki; .ci/run runs it (cargo test --release -- --ignored needs_sabaki)"]
fn needs_sabaki_session() {
    run_session(&[]);
}

#[test]
#[ignore = "needs node and npm ci in scripts/sabaki; .ci/run runs it (cargo test --release -- --ignored needs_sabaki)"]
fn needs_sabaki_session_on_two_threads() {
    run_session(&["--threads", "2"]);
}

/// Runs the script against `sente` with the test's arguments plus `extra`. Asked for
/// explicitly, a missing tool is a failure, not a pass.
fn run_session(extra: &[&str]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/sabaki");
    assert!(
        Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "node is not installed"
    );
    assert!(
        dir.join("node_modules/@sabaki/gtp").exists(),
        "{} has no node_modules/@sabaki/gtp (run .ci/run, which runs npm ci there)",
        dir.display()
    );
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
