//! The options table (`src/session/options.rs`) against its readers: the README's table is
//! rendered from it, the command line declares exactly its flags, and every `INFO` key in it is
//! one the Gomocup parser or the gomoku player that uses it takes.

use clap::Args;
use sente::players::learner::Learner;
use sente::players::GomokuPlayer;
use sente::protocol::gomocup::parse_info;
use sente::session::gomoku::Setting;
use sente::session::options::{flags, info_keys, readme_table};

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
    let cmd = sente::cli::EngineArgs::augment_args(clap::Command::new("sente"));
    let mut declared: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long())
        .map(|l| format!("--{l}"))
        .collect();
    // `--protocol` is the binary's own (main.rs), beside the engine's arguments.
    declared.push("--protocol".to_string());
    declared.sort();
    let mut table: Vec<String> = flags().iter().map(|f| f.to_string()).collect();
    table.sort();
    assert_eq!(declared, table);
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
