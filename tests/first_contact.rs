//! What a new user meets first: the README's first command builds every binary the README
//! names, and the help texts speak the user's words (no references to the project's internal
//! source list, which a user does not have).

use std::process::Command;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

/// The first command of the README's first `sh` block.
fn readme_first_command() -> String {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let block = readme
        .split("```sh\n")
        .nth(1)
        .expect("the README has an sh block");
    block.lines().next().unwrap().to_string()
}

#[test]
fn the_first_command_builds_every_binary_before_running_one() {
    let first = readme_first_command();
    // `cargo run` builds only the binary it runs; `cargo build` builds both (sente and
    // pbrain-sente, which the next section copies into Piskvork).
    let build = first.split("&&").next().unwrap().trim();
    assert_eq!(build, "cargo build --release", "{first}");
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    for bin in ["sente", "pbrain-sente"] {
        assert!(readme.contains(&format!("target/release/{bin}")), "{bin}");
        assert!(manifest.contains(&format!("name = \"{bin}\"")), "{bin}");
    }
}

#[test]
fn help_texts_name_no_internal_sources() {
    for args in [
        vec!["--help"],
        vec!["match", "--help"],
        vec!["study", "--help"],
        vec!["play", "--help"],
        vec!["bench", "--help"],
    ] {
        let out = Command::new(SENTE).args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        for word in ["SEEDS", "seed's", "seed document"] {
            assert!(!text.contains(word), "{args:?} says {word:?}:\n{text}");
        }
    }
}
