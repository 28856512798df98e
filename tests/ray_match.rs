//! `scripts/ray_match.py` on a local Ray instance (2 CPUs): a node-limited match played in
//! batches of Ray tasks merges to exactly the games, table, Elo and SPRT state of the same
//! match in one `sente match` process, also when a worker is killed in the middle of a batch.
//! And `scripts/ray_selfplay.py`: self-play cut into Ray tasks writes the same data file, byte
//! for byte, as one `sente selfplay` process, and a second run resumes without playing; the
//! same for `sente go-data` (`--command go-data`).
//! Needs `ray` in `.venv`: the tests are `#[ignore]`d, and `.ci/run` installs Ray and runs
//! them (`--ignored needs_ray`) when it imports, and always under CI, where its absence fails.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sente::arena::record::ResultFile;

/// One local Ray instance at a time: two would share the machine's 2 cores.
static RAY: Mutex<()> = Mutex::new(());

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

/// The venv's python, which must import ray: asked for explicitly, a missing Ray is a
/// failure, not a pass.
fn python_with_ray() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".venv/bin/python");
    match Command::new(&python).args(["-c", "import ray"]).output() {
        Ok(o) if o.status.success() => python,
        Ok(o) => panic!(
            "ray is not importable ({}); .ci/run installs it in .venv",
            String::from_utf8_lossy(&o.stderr).trim()
        ),
        Err(e) => panic!("cannot run {}: {e}", python.display()),
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-ray-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The match, in one process, written to `dir`.
fn whole_run(args: &[&str], dir: &Path) -> ResultFile {
    let out = Command::new(SENTE)
        .arg("match")
        .args(args)
        .arg("--out")
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    read(dir)
}

fn read(dir: &Path) -> ResultFile {
    let text = std::fs::read_to_string(dir.join("result.json")).unwrap();
    ResultFile::parse(&text).unwrap()
}

fn driver(python: &Path, run_id: &str, batch: usize, args: &[&str], out: &Path) -> Child {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    Command::new(python)
        .arg(root.join("scripts/ray_match.py"))
        .args(["--cpus", "2", "--sente", SENTE, "--run-id", run_id])
        .args(["--batch-games", &batch.to_string()])
        .arg("--engines-dir")
        .arg(root.join("engines"))
        .arg("--out")
        .arg(out)
        .arg("--")
        .args(args)
        .env("RAY_DISABLE_USAGE_STATS", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for the driver, killing it past `limit`; its stdout.
fn finish(child: Child, limit: Duration) -> String {
    let pid = child.id();
    let started = Instant::now();
    let waiter = std::thread::spawn(move || child.wait_with_output());
    while !waiter.is_finished() {
        if started.elapsed() > limit {
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            let _ = waiter.join();
            panic!("ray_match.py took over {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = waiter.join().unwrap().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "ray_match.py failed:\n{stdout}\n{stderr}"
    );
    stdout
}

/// Games without timings (no two runs share those), and the report without its header and
/// think times.
fn same_result(whole: &Path, ray: &Path) {
    let strip = |f: &ResultFile| {
        f.games
            .iter()
            .map(|g| {
                let mut g = g.clone();
                g.wall_ms = 0;
                g.moves.iter_mut().for_each(|m| m.2 = m.2.map(|_| 0));
                g
            })
            .collect::<Vec<_>>()
    };
    let (a, b) = (read(whole), read(ray));
    assert_eq!(a.settings, b.settings);
    assert!(!a.games.is_empty());
    assert_eq!(strip(&a), strip(&b));
    let body = |dir: &Path| {
        std::fs::read_to_string(dir.join("results.txt"))
            .unwrap()
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with("longest think"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(body(whole), body(ray));
}

#[test]
#[ignore = "needs ray in .venv; .ci/run installs and runs it (cargo test --release -- --ignored needs_ray)"]
fn needs_ray_match_stops_at_the_sprt_decision_with_the_single_process_result() {
    let _one = RAY.lock().unwrap_or_else(|e| e.into_inner());
    let python = python_with_ray();
    let dir = scratch("sprt");
    // Perfect play against random-ish play decides H1 after a few dozen of the 120 games.
    let args = [
        "--game",
        "ttt",
        "--engines",
        "internal:perfect",
        "internal:dumber",
        "--games",
        "120",
        "--sprt",
        "0",
        "50",
        "--tc",
        "0/30",
    ];
    let whole = whole_run(&args, &dir.join("whole"));
    assert!(whole.games.len() < 60, "{}", whole.games.len());
    let child = driver(&python, "sprt", 4, &args, &dir.join("ray"));
    let stdout = finish(child, Duration::from_secs(100));
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert!(stdout.contains("LLR"), "{stdout}");
    same_result(&dir.join("whole"), &dir.join("ray/merged"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The pid of a `sente` process of batch `batch` of run `run_id`, and its parent's.
fn find_batch(run_id: &str, batch: usize) -> Option<(i32, i32)> {
    let marker = format!("sente-{run_id}-batch{batch}-");
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if !String::from_utf8_lossy(&cmdline).contains(&marker) {
            continue;
        }
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let ppid = status
            .lines()
            .find_map(|l| l.strip_prefix("PPid:"))
            .and_then(|v| v.trim().parse().ok())?;
        return Some((pid, ppid));
    }
    None
}

#[test]
#[ignore = "needs ray in .venv; .ci/run installs and runs it (cargo test --release -- --ignored needs_ray)"]
fn needs_ray_match_survives_a_worker_killed_mid_batch() {
    let _one = RAY.lock().unwrap_or_else(|e| e.into_inner());
    let python = python_with_ray();
    let dir = scratch("fault");
    let args = [
        "--engines",
        "internal:classic",
        "internal:strong",
        "--size",
        "9",
        "--nodes",
        "10000",
        "--games",
        "12",
        "--tc",
        "0/60",
    ];
    whole_run(&args, &dir.join("whole"));
    let run_id = format!("fault{}", std::process::id());
    let child = driver(&python, &run_id, 4, &args, &dir.join("ray"));
    // Kill the Ray worker running batch 2 while its sente plays (it dies with the worker).
    let started = Instant::now();
    let killed = loop {
        if let Some((pid, worker)) = find_batch(&run_id, 2) {
            unsafe { libc::kill(worker, libc::SIGKILL) };
            break Some(pid);
        }
        if started.elapsed() > Duration::from_secs(90) {
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stdout = finish(child, Duration::from_secs(120));
    let sente = killed.expect("batch 2's sente process never showed up");
    // The killed batch left its scratch directory without a result: it died mid-batch.
    let mut cut = 0;
    for e in std::fs::read_dir(std::env::temp_dir()).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with(&format!("sente-{run_id}-batch2-")) {
            assert!(
                !e.path().join("result.json").exists(),
                "batch 2 had finished"
            );
            cut += 1;
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
    assert_eq!(cut, 1, "sente {sente}: one cut batch 2 expected");
    assert!(stdout.contains("games 12/12"), "{stdout}");
    same_result(&dir.join("whole"), &dir.join("ray/merged"));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// scripts/ray_selfplay.py

const SELFPLAY: [&str; 10] = [
    "--rule", "renju", "--size", "11", "--games", "7", "--nodes", "400", "--seed", "5",
];

/// Runs scripts/ray_selfplay.py for `command` (selfplay or go-data) in batches of two jobs.
fn data_driver(python: &Path, command: &str, args: &[&str], out: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = Command::new(python)
        .arg(root.join("scripts/ray_selfplay.py"))
        .args(["--cpus", "2", "--sente", SENTE, "--batch-games", "2"])
        .args(["--command", command])
        .arg("--out")
        .arg(out)
        .arg("--")
        .args(args)
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

/// One `sente COMMAND ARGS` process, then the Ray driver in batches of two jobs: the same file,
/// byte for byte, with `games` games; a second run of the driver plays nothing.
fn the_driver_writes_the_single_process_file(command: &str, args: &[&str], games: usize) {
    let _one = RAY.lock().unwrap_or_else(|e| e.into_inner());
    let python = python_with_ray();
    let dir = std::env::temp_dir().join(format!("sente-ray-{command}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.txt");
    let o = Command::new(SENTE)
        .arg(command)
        .args(args)
        .arg("--out")
        .arg(&whole)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let expected = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(expected.lines().count(), games + 1, "{expected}");

    let ray = dir.join("ray.txt");
    let stdout = data_driver(&python, command, args, &ray);
    assert!(
        stdout.contains(&format!("games {games}/{games}")),
        "{stdout}"
    );
    assert_eq!(std::fs::read_to_string(&ray).unwrap(), expected);

    // A finished run given again plays nothing and writes the same file.
    let stdout = data_driver(&python, command, args, &ray);
    let batches = games.div_ceil(2);
    assert!(
        stdout.contains(&format!("{batches} batches already")),
        "{stdout}"
    );
    assert!(stdout.contains("0 played"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&ray).unwrap(), expected);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs ray in .venv; .ci/run installs and runs it (cargo test --release -- --ignored needs_ray)"]
fn needs_ray_selfplay_writes_the_single_process_file() {
    the_driver_writes_the_single_process_file("selfplay", &SELFPLAY, 7);
}

const GO_DATA: [&str; 10] = [
    "--size", "9", "--games", "3", "--level", "0", "--seed", "4", "--random", "2-3",
];

#[test]
#[ignore = "needs ray in .venv and GNU Go; .ci/run installs both and runs it (cargo test --release -- --ignored needs_ray)"]
fn needs_ray_go_data_writes_the_single_process_file() {
    assert!(
        Path::new("/usr/games/gnugo").exists(),
        "GNU Go is missing: apt-get install -y gnugo"
    );
    the_driver_writes_the_single_process_file("go-data", &GO_DATA, 3);
}
