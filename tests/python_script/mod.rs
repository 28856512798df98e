//! Running the project's Python scripts (`scripts/*.py`) from integration tests: with the
//! project's venv python where `.ci/run` made one, else the system's python3.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The interpreter the tests run scripts with.
pub fn python() -> PathBuf {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    if venv.exists() {
        venv
    } else {
        PathBuf::from("python3")
    }
}

/// The path of `scripts/<name>`.
pub fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(name)
}

/// Runs `scripts/<name>` with `args` and waits for it.
pub fn run_script(name: &str, args: &[&str]) -> Output {
    Command::new(python())
        .arg(script(name))
        .args(args)
        .output()
        .expect("python3 runs")
}
