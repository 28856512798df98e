//! Golden transcripts: runs `sente` and `pbrain-sente` on every `protocol-tests/gomocup/*.in` and
//! compares stdout with the `.out` beside it, and runs `sente` on every `protocol-tests/gtp/*.tst`
//! (GNU Go regression style: numbered commands checked against `#? [regex]`). The formats are
//! described in `protocol-tests/README.md`.

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
    /// `#! pv`: keep the last progress line (a `MESSAGE` with a pv) before each reply.
    pv: bool,
}

/// Expands every `{repeat N "S"}` in a transcript into N copies of S (S holds no `"`): how a
/// transcript sends a line longer than any file should hold.
fn expand(raw: &[u8]) -> Vec<u8> {
    const OPEN: &[u8] = b"{repeat ";
    let mut out = Vec::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.windows(OPEN.len()).position(|w| w == OPEN) {
        out.extend_from_slice(&rest[..at]);
        let tail = &rest[at + OPEN.len()..];
        let close = tail
            .iter()
            .position(|&b| b == b'}')
            .expect("an unclosed {repeat");
        let inner = String::from_utf8_lossy(&tail[..close]).into_owned();
        let (count, text) = inner
            .split_once(' ')
            .and_then(|(n, t)| Some((n.parse::<usize>().ok()?, t)))
            .unwrap_or_else(|| panic!("bad {{repeat {inner}}}"));
        let text = text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .unwrap_or_else(|| panic!("bad {{repeat {inner}}}: the text goes in quotes"));
        out.extend(text.repeat(count).into_bytes());
        rest = &tail[close + 1..];
    }
    out.extend_from_slice(rest);
    out
}

fn load(path: &Path) -> Transcript {
    let raw = expand(&fs::read(path).unwrap());
    let mut input = Vec::new();
    let mut args: Vec<String> = DEFAULT_ARGS.iter().map(|s| s.to_string()).collect();
    let mut binaries = vec!["sente", "pbrain-sente"];
    let mut pv = false;
    // Keep the bytes of every other line exactly (CRLF transcripts test CRLF).
    for line in raw.split_inclusive(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line);
        if let Some(directive) = text.trim_end().strip_prefix("#!") {
            let directive = directive.trim();
            if let Some(rest) = directive.strip_prefix("args") {
                args = rest.split_whitespace().map(String::from).collect();
            } else if let Some(rest) = directive.strip_prefix("only") {
                binaries.retain(|b| rest.split_whitespace().any(|r| r == *b));
            } else if directive == "pv" {
                pv = true;
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
        pv,
    }
}

fn binary(name: &str) -> PathBuf {
    match name {
        "sente" => PathBuf::from(env!("CARGO_BIN_EXE_sente")),
        "pbrain-sente" => PathBuf::from(env!("CARGO_BIN_EXE_pbrain-sente")),
        _ => unreachable!(),
    }
}

/// Runs `bin` on the transcript's input; returns stdout lines without MESSAGE/DEBUG lines
/// (under `#! pv`, but for the last progress line before each other line).
fn run(bin: &Path, t: &Transcript) -> Result<Vec<String>, String> {
    let out = run_raw(bin, &t.args, &t.input, None)?;
    Ok(kept_lines(&out, t.pv))
}

/// The lines of `out` a transcript compares: MESSAGE and DEBUG lines dropped, except, with
/// `pv`, the last progress line (one holding `| pv `) of each run of them that ends in a
/// reply, whose search it reports.
fn kept_lines(out: &str, pv: bool) -> Vec<String> {
    let mut kept = Vec::new();
    let mut progress: Option<&str> = None;
    for line in out.lines().map(|l| l.trim_end_matches('\r')) {
        if line.starts_with("MESSAGE") || line.starts_with("DEBUG") {
            if pv && line.starts_with("MESSAGE") && line.contains(" | pv ") {
                progress = Some(line);
            }
            continue;
        }
        kept.extend(progress.take().map(String::from));
        kept.push(line.to_string());
    }
    kept
}

/// Whether `actual` matches `expected` where each `{*}` of `expected` stands for any text.
fn wildcard(expected: &str, actual: &str) -> bool {
    let mut parts = expected.split("{*}");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Runs `bin args` in `cwd` with `input` on stdin; returns everything it wrote to stdout.
fn run_raw(
    bin: &Path,
    args: &[String],
    input: &[u8],
    cwd: Option<&Path>,
) -> Result<String, String> {
    let mut command = Command::new(bin);
    if let Some(dir) = cwd {
        command.current_dir(dir);
    }
    let mut child = command
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("spawning {}: {e}", bin.display()))?;
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
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
    Ok(out)
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
    // ABOUT's version: the package version and the embedded weights' checksums.
    let expected = expected.replace(
        "{VERSION}",
        &sente::eval::gomoku::learned::version_with_weights(),
    );
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
        "<moves2>" => {
            let ms: Vec<&str> = actual.split(' ').collect();
            ms.len() == 2 && ms.iter().all(|m| is_move(m)) && ms[0] != ms[1]
        }
        "<move-or-swap>" => actual == "SWAP" || is_move(actual),
        e if e.contains("{*}") => wildcard(e, actual),
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
    assert!(matches("<moves2>", "7,7 8,7"));
    assert!(!matches("<moves2>", "7,7 7,7"));
    assert!(!matches("<moves2>", "7,7"));
    assert!(matches("<move-or-swap>", "SWAP"));
    assert!(matches("<move-or-swap>", "3,4"));
    assert!(matches(
        "MESSAGE {*} | pv h2",
        "MESSAGE depth 1-1 | time 0 | pv h2"
    ));
    assert!(!matches(
        "MESSAGE {*} | pv h2",
        "MESSAGE depth 1-1 | pv h14"
    ));
    assert!(!matches(
        "MESSAGE {*} | pv h2",
        "MESSAGE depth 1-1 | pv h2 h3"
    ));
    assert!(matches("a{*}b{*}c", "aXbYc"));
    assert!(!matches("a{*}b{*}c", "aXcYb"));
    assert!(!matches("ab{*}b", "ab"), "the parts may not overlap");
    let out = "OK\nMESSAGE depth 1-1 | pv h8\nMESSAGE hi\nMESSAGE depth 2-2 | pv h7 h6\n7,8\n";
    assert_eq!(kept_lines(out, false), ["OK", "7,8"]);
    assert_eq!(
        kept_lines(out, true),
        ["OK", "MESSAGE depth 2-2 | pv h7 h6", "7,8"]
    );
    assert!(matches(
        "v{VERSION}",
        &format!("v{}", sente::eval::gomoku::learned::version_with_weights())
    ));
}

// ---------------------------------------------------------------------------------------------
// GTP: GNU Go regression-style `.tst` files

/// Arguments for GTP transcripts unless a file says `#! args ...`: deterministic play.
const GTP_ARGS: &[&str] = &["--protocol", "gtp", "--nodes", "200", "--seed", "1"];

/// What a `.tst` command expects.
#[derive(Debug)]
enum Expect {
    /// An unnumbered command: it must succeed; its result is not checked.
    Success,
    /// `#? [regex]`: success with a result matching the regex.
    Match(regex::Regex),
    /// `#? ?[regex]`: failure with a message matching the regex.
    Failure(regex::Regex),
}

#[derive(Debug)]
struct TstCommand {
    line_no: usize,
    text: String,
    id: Option<String>,
    expect: Expect,
}

fn anchored(pattern: &str, path: &Path, line_no: usize) -> regex::Regex {
    regex::Regex::new(&format!("^(?s:{pattern})$"))
        .unwrap_or_else(|e| panic!("{}:{line_no}: bad regex: {e}", path.display()))
}

/// Reads a `.tst` file: the engine input (the file as is: GTP ignores its comments), the
/// arguments, and the commands with what each expects.
fn load_tst(path: &Path) -> (Vec<u8>, Vec<String>, Vec<TstCommand>) {
    let text = String::from_utf8(expand(&fs::read(path).unwrap())).unwrap();
    let mut args: Vec<String> = GTP_ARGS.iter().map(|s| s.to_string()).collect();
    let mut commands: Vec<TstCommand> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("#!") {
            let rest = rest.trim();
            let extra = rest
                .strip_prefix("args")
                .unwrap_or_else(|| panic!("{}:{line_no}: unknown directive", path.display()));
            args.extend(extra.split_whitespace().map(String::from));
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("#?") {
            let rest = rest.trim();
            let (fail, pattern) = match rest.strip_prefix('?') {
                Some(p) => (true, p),
                None => (false, rest),
            };
            let pattern = pattern
                .strip_prefix('[')
                .and_then(|p| p.strip_suffix(']'))
                .unwrap_or_else(|| panic!("{}:{line_no}: expected #? [regex]", path.display()));
            let re = anchored(pattern, path, line_no);
            let last = commands
                .last_mut()
                .unwrap_or_else(|| panic!("{}:{line_no}: #? before any command", path.display()));
            assert!(
                last.id.is_some(),
                "{}:{line_no}: #? after an unnumbered command",
                path.display()
            );
            last.expect = if fail {
                Expect::Failure(re)
            } else {
                Expect::Match(re)
            };
            continue;
        }
        let command = line.split('#').next().unwrap_or("").trim();
        if command.is_empty() {
            continue;
        }
        let first = command.split_whitespace().next().unwrap_or("");
        let id = first
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| first.to_string());
        commands.push(TstCommand {
            line_no,
            text: command.chars().take(80).collect(),
            id,
            expect: Expect::Success,
        });
    }
    (text.into_bytes(), args, commands)
}

/// Splits GTP output into responses: (ok, id, body with the `=id ` / `?id ` prefix removed).
fn responses(out: &str) -> Result<Vec<(bool, Option<String>, String)>, String> {
    let mut v = Vec::new();
    let mut rest = out;
    while !rest.is_empty() {
        let end = rest
            .find("\n\n")
            .ok_or_else(|| format!("a response without its empty line: {rest:?}"))?;
        let resp = &rest[..end];
        rest = &rest[end + 2..];
        let ok = match resp.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => {
                return Err(format!(
                    "a response that starts with neither = nor ?: {resp:?}"
                ))
            }
        };
        let head = &resp[1..];
        let digits = head.bytes().take_while(|b| b.is_ascii_digit()).count();
        let id = (digits > 0).then(|| head[..digits].to_string());
        let body = head[digits..].strip_prefix(' ').unwrap_or(&head[digits..]);
        let body = body.strip_prefix('\n').unwrap_or(body);
        v.push((ok, id, body.to_string()));
    }
    Ok(v)
}

fn check_tst(path: &Path) -> Vec<String> {
    let (input, args, commands) = load_tst(path);
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let out = match run_raw(&binary("sente"), &args, &input, path.parent()) {
        Ok(out) => out,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let got = match responses(&out) {
        Ok(r) => r,
        Err(e) => return vec![format!("{name}: {e}\nfull output:\n{out}")],
    };
    let mut failures = Vec::new();
    if got.len() != commands.len() {
        failures.push(format!(
            "{name}: {} commands but {} responses\nfull output:\n{out}",
            commands.len(),
            got.len()
        ));
    }
    for (c, (ok, id, body)) in commands.iter().zip(&got) {
        let at = format!("{name}:{} `{}`", c.line_no, c.text);
        if id != &c.id {
            failures.push(format!("{at}: response id {id:?}, expected {:?}", c.id));
        }
        let problem = match &c.expect {
            Expect::Success if !ok => Some(format!("failed: ?{body}")),
            Expect::Match(_) if !ok => Some(format!("failed: ?{body}")),
            Expect::Match(re) if !re.is_match(body) => {
                Some(format!("got {body:?}, expected [{}]", re.as_str()))
            }
            Expect::Failure(_) if *ok => {
                Some(format!("succeeded with {body:?}, expected a failure"))
            }
            Expect::Failure(re) if !re.is_match(body) => {
                Some(format!("error {body:?}, expected [{}]", re.as_str()))
            }
            _ => None,
        };
        if let Some(p) = problem {
            failures.push(format!("{at}: {p}"));
        }
    }
    failures
}

#[test]
fn gtp_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests/gtp");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tst"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .tst files in {}", dir.display());
    let failures: Vec<String> = files.iter().flat_map(|f| check_tst(f)).collect();
    eprintln!("{} GTP transcripts", files.len());
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn gtp_response_splitting() {
    let r = responses("=1 sente\n\n?2 illegal move\n\n=\n\n=3\n   A B\n 1 . .\n\n").unwrap();
    assert_eq!(r[0], (true, Some("1".into()), "sente".into()));
    assert_eq!(r[1], (false, Some("2".into()), "illegal move".into()));
    assert_eq!(r[2], (true, None, String::new()));
    assert_eq!(r[3], (true, Some("3".into()), "   A B\n 1 . .".into()));
    assert!(responses("= x\n").is_err());
    assert!(responses("x\n\n").is_err());
}
