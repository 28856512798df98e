//! A real client: `scripts/pygomo_game.py` drives `pbrain-sente` through full games with the
//! pygomo-lib package from PyPI. Runs when `.venv/bin/python` exists and can import `pygomo`
//! (`.ci/run` sets that up); otherwise it says why it is skipped and passes.

use std::path::Path;
use std::process::Command;

#[test]
fn pygomo_plays_full_games() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".venv/bin/python");
    if !python.exists() {
        eprintln!(
            "SKIPPED pygomo_plays_full_games: {} not found (run .ci/run to create it)",
            python.display()
        );
        return;
    }
    let import = Command::new(&python).args(["-c", "import pygomo"]).output();
    match import {
        Ok(o) if o.status.success() => {}
        Ok(o) => {
            eprintln!(
                "SKIPPED pygomo_plays_full_games: pygomo is not importable ({})",
                String::from_utf8_lossy(&o.stderr).trim()
            );
            return;
        }
        Err(e) => {
            eprintln!(
                "SKIPPED pygomo_plays_full_games: cannot run {}: {e}",
                python.display()
            );
            return;
        }
    }
    let out = Command::new(&python)
        .arg(root.join("scripts/pygomo_game.py"))
        .arg(env!("CARGO_BIN_EXE_pbrain-sente"))
        .env_remove("RUST_LOG")
        .output()
        .expect("running scripts/pygomo_game.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}");
    assert!(
        out.status.success(),
        "pygomo_game.py failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
}
