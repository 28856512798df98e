//! Every command example of the README and of `docs/` at least parses, and a `sente match`
//! example passes the checks the match makes before its first game (`--plan`: engines found,
//! time control tellable to every engine, SPRT arguments), so an example cannot fail the way
//! `sente match --game go ... --gauntlet` once did (`--tc: GTP engines are told their time in
//! whole seconds`). An example is a line of a fenced code block that starts with `sente `,
//! `target/release/sente ` or `cargo run --release -- ` (a line ending in `\` goes on on the
//! next one; a `#` comment is dropped). Examples that would play or fit for real are parsed by
//! their subcommand's own clap arguments, without running.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::{Args, FromArgMatches};

const SENTE: &str = env!("CARGO_BIN_EXE_sente");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// One example: where it was found and its arguments after the program name.
struct Example {
    place: String,
    args: Vec<String>,
}

/// The Markdown files whose examples are checked: the README and every page of `docs/`.
fn pages() -> Vec<PathBuf> {
    let mut out = vec![Path::new(ROOT).join("README.md")];
    let mut dirs = vec![Path::new(ROOT).join("docs")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The examples of one page's fenced code blocks.
fn examples_of(page: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(page).unwrap();
    let name = page
        .strip_prefix(ROOT)
        .unwrap_or(page)
        .display()
        .to_string();
    let mut out = Vec::new();
    let mut in_block = false;
    let mut pending = String::new();
    let mut first_line = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            pending.clear();
            continue;
        }
        if !in_block {
            continue;
        }
        if pending.is_empty() {
            first_line = i + 1;
        }
        let code = match line.find(" #") {
            Some(at) => &line[..at],
            None => line,
        };
        let code = code.trim_end();
        if let Some(head) = code.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        pending.push_str(code);
        let command = std::mem::take(&mut pending);
        let command = command.trim();
        let rest = ["sente ", "target/release/sente ", "cargo run --release -- "]
            .iter()
            .find_map(|prefix| command.strip_prefix(prefix));
        if let Some(rest) = rest {
            out.push(Example {
                place: format!("{name}:{first_line}"),
                args: rest.split_whitespace().map(String::from).collect(),
            });
        }
    }
    out
}

/// Parses `args` as the arguments of subcommand `name` with its clap definition.
fn parses<T: Args + FromArgMatches>(name: &'static str, args: &[String]) -> Result<(), String> {
    let cmd = T::augment_args(clap::Command::new(name));
    let matches = cmd
        .try_get_matches_from(std::iter::once(name.to_string()).chain(args.iter().cloned()))
        .map_err(|e| e.to_string())?;
    T::from_arg_matches(&matches)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Runs the binary; Ok when it exits 0, else its stderr.
fn runs(args: &[String]) -> Result<(), String> {
    let out = Command::new(SENTE)
        .args(args)
        .current_dir(ROOT)
        .output()
        .unwrap();
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Engines an example names that this machine may not run, and the shipped manifest of the
/// same game and protocol that takes its place for the checks: GNU Go (GTP, Go) when
/// `/usr/games/gnugo` is missing, and the placeholder manifests of a recipe (`new.toml`,
/// `old.toml`: Gomocup, like `sente-strong`), and the anchor engines when
/// `../shared/anchors/build.sh` has not built them here.
fn stand_in(engine: &str) -> Option<&'static str> {
    let anchors = sente::arena::manifest::anchors_dir();
    match engine {
        "gnugo-0" | "gnugo-10" if !Path::new("/usr/games/gnugo").exists() => {
            Some("sente-heuristic")
        }
        "rapfi" | "rapfi-30k" | "rapfi-100k"
            if !anchors.join("rapfi-classical/pbrain-rapfi").exists() =>
        {
            Some("sente-classic")
        }
        "pentazen" if !anchors.join("PentaZen/pbrain-pentazen").exists() => Some("sente-classic"),
        "pachi-1s" | "pachi-2s" if !anchors.join("pachi/src/pachi").exists() => {
            Some("sente-heuristic")
        }
        "new.toml" | "old.toml" => Some("sente-strong"),
        _ => None,
    }
}

/// `sente match ARGS --plan`, with stand-ins for engines this machine lacks.
fn match_plan(args: &[String]) -> Result<(), String> {
    let mut args: Vec<String> = args
        .iter()
        .map(|a| stand_in(a).map_or_else(|| a.clone(), String::from))
        .collect();
    args.push("--plan".to_string());
    runs(&args)
}

/// Checks one example as far as it can be without playing, fitting or benching for real.
fn check(args: &[String]) -> Result<(), String> {
    let (sub, rest) = args.split_first().ok_or("no subcommand")?;
    match sub.as_str() {
        "match" if rest.first().is_some_and(|a| a == "merge") => {
            parses::<sente::cli::match_cmd::MatchArgs>("match", rest)
        }
        "match" => {
            parses::<sente::cli::match_cmd::MatchArgs>("match", rest)?;
            match_plan(args)
        }
        "openings" => parses::<sente::cli::openings::OpeningsArgs>("openings", rest),
        "selfplay" => parses::<sente::selfplay::SelfplayArgs>("selfplay", rest),
        "go-data" => parses::<sente::selfplay::go::GoDataArgs>("go-data", rest),
        "train" => parses::<sente::train::TrainArgs>("train", rest),
        "go-train" => parses::<sente::train::go::GoTrainArgs>("go-train", rest),
        "play" => parses::<sente::cli::play::PlayArgs>("play", rest),
        // Declared in the binary itself: clap checks every argument given before `--help`
        // (an unknown flag or a value it refuses fails), then prints the help and exits.
        _ => {
            let mut with_help = args.to_vec();
            with_help.push("--help".to_string());
            runs(&with_help)
        }
    }
}

#[test]
fn every_command_example_of_the_readme_and_docs_is_accepted() {
    let examples: Vec<Example> = pages().iter().flat_map(|p| examples_of(p)).collect();
    let readme = examples
        .iter()
        .filter(|e| e.place.starts_with("README.md"))
        .count();
    assert!(
        readme >= 3,
        "the README's examples were not found ({readme})"
    );
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|e| {
            check(&e.args)
                .err()
                .map(|why| format!("{}: sente {}\n  {}", e.place, e.args.join(" "), why.trim()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} examples fail:\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
}

#[test]
fn the_checks_refuse_what_a_user_would_be_refused() {
    let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    // A GTP match whose default per-move time is a fraction of a second, as the README's Go
    // example was before GTP games got a whole-second default.
    assert!(check(&words(
        "match --game go --engines sente-mcts sente-heuristic --tc 0/0.5"
    ))
    .is_err());
    assert!(check(&words(
        "match --engines sente-strong sente-classic --games 4"
    ))
    .is_ok());
    assert!(check(&words("match --engines sente-strong no-such-engine")).is_err());
    assert!(check(&words("selfplay --out x.txt --nosuchflag")).is_err());
    assert!(check(&words("bench chess")).is_err());
    assert!(check(&words("bench ttt")).is_ok());
}
