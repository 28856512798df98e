//! The options table (`src/session/options.rs`) against its readers: the README's table is
//! rendered from it, the command line declares exactly its flags and shows its help, every
//! `INFO` key in it is one the Gomocup parser or the gomoku player that uses it takes, and every
//! GTP command in it is one GTP answers.

use clap::Args;
use sente::players::learner::Learner;
use sente::players::GomokuPlayer;
use sente::protocol::gomocup::parse::parse_info;
use sente::protocol::gtp::commands::{is_supported, GtpGameKind};
use sente::session::gomoku::Setting;
use sente::session::options::{flags, gtp_commands, help, info_keys, readme_table};

#[test]
fn the_readme_table_is_the_options_table() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let table = readme_table();
    assert!(
        readme.contains(&table),
        "README's options table differs from src/session/options.rs; it should read:\n{table}"
    );
}

#[test]
fn the_command_line_declares_exactly_the_tables_flags() {
    let cmd = sente::cli::engine::EngineArgs::augment_args(clap::Command::new("sente"));
    let mut declared: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long())
        .map(|l| format!("--{l}"))
        .collect();
    // `--protocol` is the binary's own (main.rs), beside the engine's arguments.
    declared.push("--protocol".to_string());
    declared.sort();
    let mut table = flags();
    table.sort();
    assert_eq!(declared, table);
}

#[test]
fn sente_help_shows_the_tables_text_for_every_flag() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sente"))
        .arg("--help")
        .output()
        .expect("sente --help runs");
    let text = String::from_utf8_lossy(&out.stdout);
    for flag in flags() {
        let long = flag.trim_start_matches('-');
        // A flag with a value is followed by its name, a switch (`--ponder`) by the line's end.
        let at = text
            .find(&format!("      {flag} "))
            .or_else(|| text.find(&format!("      {flag}\n")))
            .unwrap_or_else(|| panic!("{flag} missing from sente --help:\n{text}"));
        let entry = text[at..].lines().nth(1).unwrap_or("").trim();
        assert_eq!(entry, help(long), "{flag}'s help is not the table's");
    }
}

#[test]
fn every_info_key_is_read() {
    let mut learner = Learner::new();
    for key in info_keys() {
        let known = !matches!(parse_info(&format!("{key} 1")), Setting::Other { .. })
            || learner.set_option(key, "1").is_some();
        assert!(known, "INFO {key} is in the table but nothing reads it");
    }
    // And a key nobody reads is not mistaken for one.
    assert!(matches!(parse_info("nonesuch 1"), Setting::Other { .. }));
    assert!(learner.set_option("nonesuch", "1").is_none());
}

#[test]
fn every_gtp_command_is_answered() {
    for c in gtp_commands() {
        assert!(is_supported(c, GtpGameKind::Go), "GTP {c}");
        assert!(is_supported(c, GtpGameKind::Ttt), "GTP {c}");
    }
}

#[test]
fn sente_params_lists_every_tunable_with_its_default() {
    use sente::players::go::mcts::MctsParams;
    use sente::search::ab::params::SearchParams;
    let listed = |game: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sente"))
            .args(["params", game])
            .output()
            .expect("sente params runs");
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let gomoku = listed("gomoku");
    let d = SearchParams::default();
    for t in SearchParams::TUNABLES {
        let row = format!("{}\t{}\t", t.name, d.get(t.name).unwrap());
        assert!(gomoku.lines().any(|l| l.starts_with(&row)), "{row}");
    }
    let go = listed("go");
    assert_eq!(go.lines().count(), 1 + MctsParams::all_tunables().len());
    assert!(
        go.lines().any(|l| l.starts_with("explore\t0.1\t0\t100\t")),
        "{go}"
    );
}
