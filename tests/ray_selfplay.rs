//! `scripts/ray_selfplay.py` on a local Ray instance (2 CPUs): self-play cut into batches of
//! Ray tasks writes the same data file, byte for byte, as one `sente selfplay` process (one
//! header, every job once, in job order), and a second run on the same output resumes
//! without playing a game again. Needs `ray` in `.venv`: `#[ignore]`d like tests/ray_match.rs,
//! run by `.ci/run` (`--ignored needs_ray`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

/// The venv's python, which must import ray (asked for explicitly, its absence fails).
fn python_with_ray() -> PathBuf {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    match Command::new(&python).args(["-c", "import ray"]).output() {
        Ok(o) if o.status.success() => python,
        Ok(o) => panic!(
            "ray is not importable ({}); .ci/run installs it in .venv",
            String::from_utf8_lossy(&o.stderr).trim()
        ),
        Err(e) => panic!("cannot run {}: {e}", python.display()),
    }
}

const ARGS: [&str; 10] = [
    "--rule", "renju", "--size", "11", "--games", "7", "--nodes", "400", "--seed", "5",
];

fn driver(python: &Path, out: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = Command::new(python)
        .arg(root.join("scripts/ray_selfplay.py"))
        .args(["--cpus", "2", "--sente", SENTE, "--batch-games", "2"])
        .arg("--out")
        .arg(out)
        .arg("--")
        .args(ARGS)
        .env("RAY_DISABLE_USAGE_STATS", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "ray_selfplay.py failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    stdout
}

#[test]
#[ignore = "needs ray in .venv; .ci/run installs and runs it (cargo test --release -- --ignored needs_ray)"]
fn needs_ray_selfplay_writes_the_single_process_file() {
    let python = python_with_ray();
    let dir = std::env::temp_dir().join(format!("sente-ray-selfplay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.txt");
    let o = Command::new(SENTE)
        .arg("selfplay")
        .args(ARGS)
        .arg("--out")
        .arg(&whole)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let expected = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(expected.lines().count(), 8, "{expected}");

    let ray = dir.join("ray.txt");
    let stdout = driver(&python, &ray);
    assert!(stdout.contains("games 7/7"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&ray).unwrap(), expected);

    // A finished run given again plays nothing and writes the same file.
    let stdout = driver(&python, &ray);
    assert!(stdout.contains("4 batches already"), "{stdout}");
    assert!(stdout.contains("0 played"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&ray).unwrap(), expected);
    let _ = std::fs::remove_dir_all(&dir);
}
