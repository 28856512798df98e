//! `sente params`: its command-line argument and the table of a search's tunable settings it
//! prints.

use crate::players::go::{heuristic::HeuristicParams, mcts::MctsParams};
use crate::search::ab::params::SearchParams;
use crate::search::tunables::table;

/// `sente params [gomoku|go|go-heuristic]`.
#[derive(clap::Args, Debug)]
pub struct ParamsArgs {
    /// Whose: gomoku (`strong`; the hand set's defaults differ where `strong-hand` and the
    /// rules without learned tables play), go (`mcts`) or go-heuristic (`heuristic`).
    #[arg(value_parser = ["gomoku", "go", "go-heuristic"], default_value = "gomoku")]
    pub game: String,
}

/// Runs `sente params`: name, default, range and what it does, a setting a line.
pub fn run(args: ParamsArgs) -> anyhow::Result<()> {
    let text = match args.game.as_str() {
        "go" => table(&MctsParams::all_tunables(), |n| {
            MctsParams::default().get(n)
        }),
        "go-heuristic" => table(HeuristicParams::TUNABLES, |n| {
            HeuristicParams::default().get(n)
        }),
        _ => table(SearchParams::TUNABLES, |n| SearchParams::default().get(n)),
    };
    print!("{text}");
    Ok(())
}
