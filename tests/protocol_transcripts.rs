//! Golden transcripts: runs `sente` and `pbrain-sente` on every `protocol-tests/gomocup/*.in` and
//! compares stdout with the `.out` beside it. The format is described in
//! `protocol-tests/README.md`.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// Arguments used unless a transcript says `#! args ...`: deterministic play.
const DEFAULT_ARGS: &[&str] = &["--nodes", "3000", "--seed", "1"];
/// A transcript that takes longer than this has hung.
const TIMEOUT: Duration = Duration::from_secs(60);

struct Transcript {
    name: String,
    input: Vec<u8>,
    args: Vec<String>,
    binaries: Vec<&'static str>,
    expected: Vec<String>,
}

fn load(path: &Path) -> Transcript {
    let raw = fs::read(path).unwrap();
    let mut input = Vec::new();
    let mut args: Vec<String> = DEFAULT_ARGS.iter().map(|s| s.to_string()).collect();
    let mut binaries = vec!["sente", "pbrain-sente"];
    // Keep the bytes of every other line exactly (CRLF transcripts test CRLF).
    for line in raw.split_inclusive(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line);
        if let Some(directive) = text.trim_end().strip_prefix("#!") {
            let directive = directive.trim();
            if let Some(rest) = directive.strip_prefix("args") {
                args = rest.split_whitespace().map(String::from).collect();
            } else if let Some(rest) = directive.strip_prefix("only") {
                binaries.retain(|b| rest.split_whitespace().any(|r| r == *b));
            } else {
                panic!("{}: unknown directive '{directive}'", path.display());
            }
            continue;
        }
        input.extend_from_slice(line);
    }
    let out_path = path.with_extension("out");
    let expected = fs::read_to_string(&out_path)
        .unwrap_or_else(|e| panic!("{}: {e}", out_path.display()))
        .lines()
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect();
    Transcript {
        name: path.file_name().unwrap().to_string_lossy().into_owned(),
        input,
        args,
        binaries,
        expected,
    }
}

fn binary(name: &str) -> PathBuf {
    match name {
        "sente" => PathBuf::from(env!("CARGO_BIN_EXE_sente")),
        "pbrain-sente" => PathBuf::from(env!("CARGO_BIN_EXE_pbrain-sente")),
        _ => unreachable!(),
    }
}

/// Runs `bin` on the transcript's input; returns stdout lines without MESSAGE/DEBUG lines.
fn run(bin: &Path, t: &Transcript) -> Result<Vec<String>, String> {
    let mut child = Command::new(bin)
        .args(&t.args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("spawning {}: {e}", bin.display()))?;
    let mut stdin = child.stdin.take().unwrap();
    let input = t.input.clone();
    // Write from a thread: a big input must not deadlock against a full stdout pipe.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut out = String::new();
        let _ = stdout.read_to_string(&mut out);
        let _ = tx.send(out);
    });
    let err_reader = thread::spawn(move || {
        let mut err = String::new();
        let _ = stderr.read_to_string(&mut err);
        err
    });
    let out = match rx.recv_timeout(TIMEOUT) {
        Ok(out) => out,
        Err(_) => {
            let _ = child.kill();
            return Err(format!("timed out after {TIMEOUT:?}"));
        }
    };
    let status = child.wait().map_err(|e| e.to_string())?;
    let _ = writer.join();
    let err = err_reader.join().unwrap_or_default();
    if !status.success() {
        return Err(format!("exit status {status}; stderr:\n{err}"));
    }
    Ok(out
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.starts_with("MESSAGE") && !l.starts_with("DEBUG"))
        .map(String::from)
        .collect())
}

fn is_move(s: &str) -> bool {
    match s.split_once(',') {
        Some((x, y)) => {
            !x.is_empty()
                && !y.is_empty()
                && x.bytes().all(|b| b.is_ascii_digit())
                && y.bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

/// Whether an actual line matches an expected one (literal, or one of the masks).
fn matches(expected: &str, actual: &str) -> bool {
    let expected = expected.replace("{VERSION}", env!("CARGO_PKG_VERSION"));
    match expected.as_str() {
        "<move>" => is_move(actual),
        "<moves3>" => {
            let ms: Vec<&str> = actual.split(' ').collect();
            ms.len() == 3
                && ms.iter().all(|m| is_move(m))
                && ms[0] != ms[1]
                && ms[1] != ms[2]
                && ms[0] != ms[2]
        }
        "<move-or-swap>" => actual == "SWAP" || is_move(actual),
        _ => expected == actual,
    }
}

fn compare(expected: &[String], actual: &[String]) -> Option<String> {
    let n = expected.len().max(actual.len());
    for i in 0..n {
        let e = expected.get(i).map(String::as_str);
        let a = actual.get(i).map(String::as_str);
        let ok = match (e, a) {
            (Some(e), Some(a)) => matches(e, a),
            _ => false,
        };
        if !ok {
            return Some(format!(
                "line {}: expected {:?}, got {:?}\n  full output: {:#?}",
                i + 1,
                e,
                a,
                actual
            ));
        }
    }
    None
}

#[test]
fn gomocup_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests/gomocup");
    let mut inputs: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no transcripts in {}", dir.display());
    let mut failures = Vec::new();
    let mut runs = 0;
    for path in &inputs {
        let t = load(path);
        for bin in &t.binaries {
            runs += 1;
            match run(&binary(bin), &t) {
                Ok(actual) => {
                    if let Some(diff) = compare(&t.expected, &actual) {
                        failures.push(format!("{} with {bin}: {diff}", t.name));
                    }
                }
                Err(e) => failures.push(format!("{} with {bin}: {e}", t.name)),
            }
        }
    }
    eprintln!("{runs} transcript runs over {} files", inputs.len());
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

#[test]
fn masks() {
    assert!(matches("<move>", "7,12"));
    assert!(!matches("<move>", "7,12 1,1"));
    assert!(!matches("<move>", "-1,2"));
    assert!(matches("<moves3>", "7,7 8,7 7,9"));
    assert!(!matches("<moves3>", "7,7 7,7 7,9"));
    assert!(matches("<move-or-swap>", "SWAP"));
    assert!(matches("<move-or-swap>", "3,4"));
    assert!(matches(
        "v{VERSION}",
        &format!("v{}", env!("CARGO_PKG_VERSION"))
    ));
}
