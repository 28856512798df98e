//! A real client: `scripts/pygomo_game.py` drives `pbrain-sente` through full games with the
//! pygomo-lib package from PyPI. Runs when `.venv/bin/python` exists and can import `pygomo`
//! (`.ci/run` sets that up): it is `#[ignore]`d, so a plain `cargo test` lists it as ignored,
//! and `.ci/run` runs it (`--ignored needs_pygomo`) when the client is installed, and always
//! under CI, where a missing client fails it.

use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "needs pygomo-lib in .venv; .ci/run installs and runs it (cargo test --release -- --ignored needs_pygomo)"]
fn needs_pygomo_plays_full_games() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".venv/bin/python");
    // Asked for explicitly, a missing client is a failure, not a pass.
    assert!(
        python.exists(),
        "{} not found (run .ci/run to create it)",
        python.display()
    );
    let import = Command::new(&python).args(["-c", "import pygomo"]).output();
    match import {
        Ok(o) if o.status.success() => {}
        Ok(o) => panic!(
            "pygomo is not importable ({})",
            String::from_utf8_lossy(&o.stderr).trim()
        ),
        Err(e) => panic!("cannot run {}: {e}", python.display()),
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
