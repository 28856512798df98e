//! Command-line options shared by the binaries (`sente`, `pbrain-sente`): clap types and their
//! conversion into [`RunOptions`]. Sits above `protocol`; the binaries stay thin.

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, ValueEnum};

use crate::players::ttt::TTT_LEVELS;
use crate::players::GOMOKU_LEVELS;
use crate::protocol::{ProtocolChoice, RunOptions};
use crate::session::gomoku::SessionConfig;

/// Options of the engine loop.
#[derive(Args, Clone, Debug)]
pub struct EngineArgs {
    /// Player level (also switchable with `INFO level <name>`).
    #[arg(long, default_value = GOMOKU_LEVELS[0].0, value_parser = level_parser())]
    pub level: String,
    /// Seed for every random choice, so a game can be replayed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Fixed node budget per move; overrides every time limit (deterministic play).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Maximum search depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
}

/// The levels of every game ([`GOMOKU_LEVELS`], then [`TTT_LEVELS`] for `START 3`), with their
/// descriptions for `--help`.
fn level_parser() -> PossibleValuesParser {
    PossibleValuesParser::new(
        GOMOKU_LEVELS
            .iter()
            .chain(TTT_LEVELS)
            .map(|&(name, help)| PossibleValue::new(name).help(help)),
    )
}

/// `--protocol`.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProtocolArg {
    /// Decide from the first line (GTP words vs Gomocup words).
    #[default]
    Auto,
    /// Gomocup / Piskvork.
    Gomocup,
    /// GTP (Go); not available in this build yet: commands are refused.
    Gtp,
}

impl EngineArgs {
    /// The loop's options with `protocol`.
    pub fn run_options(&self, protocol: ProtocolArg) -> RunOptions {
        RunOptions {
            protocol: match protocol {
                ProtocolArg::Auto => ProtocolChoice::Auto,
                ProtocolArg::Gomocup => ProtocolChoice::Gomocup,
                ProtocolArg::Gtp => ProtocolChoice::Gtp,
            },
            session: SessionConfig {
                level: self.level.clone(),
                seed: self.seed,
                nodes: self.nodes,
                depth: self.depth,
            },
        }
    }
}

/// Sends logs to stderr (stdout belongs to the protocol); `RUST_LOG` chooses the level, `warn`
/// by default.
pub fn init_logging() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
}

/// A one-line hint on stderr when a human runs the engine in a terminal.
pub fn hint_if_terminal(program: &str) {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() {
        eprintln!(
            "{program} {}: speaking the Gomocup protocol on stdin (try `START 15`, `BEGIN`, `ABOUT`, `END`); `--help` for options",
            env!("CARGO_PKG_VERSION")
        );
    }
}
