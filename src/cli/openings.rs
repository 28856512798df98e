//! `sente openings`: writes generated gomoku/renju openings, optionally only near-even ones;
//! and `--balance`, which `sente match` shares.

use anyhow::{anyhow, Context};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::progress_bar;
use super::setup::{parse_range, setup_of};
use crate::arena::balance::{self, Balance};
use crate::arena::coords::{Mv, NOTATION_LINE};
use crate::arena::engine::GameSetup;

/// `sente openings`: writes generated gomoku/renju openings, one per line in the glued `h8i9j7`
/// form in renju notation (a1 at the lower left), after the [`NOTATION_LINE`] that
/// `sente match --openings` wants before such names.
#[derive(clap::Args, Debug)]
pub struct OpeningsArgs {
    /// Game: gomoku (any non-renju rule, see --rule) or renju.
    #[arg(long, value_parser = ["gomoku", "renju"], default_value = "gomoku")]
    pub game: String,
    /// Board size, `15` or `20x15`.
    #[arg(long, default_value = "15")]
    pub size: String,
    /// Gomoku rule (see `sente match --help`).
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// How many openings.
    #[arg(long, default_value_t = 50)]
    pub count: usize,
    /// Stones of an opening, `MIN-MAX` or `N`.
    #[arg(long, default_value = "2-4")]
    pub stones: String,
    #[command(flatten)]
    pub balance: BalanceArgs,
    /// Seed of the generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Append `# black +35` (the judging search's score, black's view) to each line.
    #[arg(long)]
    pub scores: bool,
}

/// Runs `sente openings`.
pub fn run(args: OpeningsArgs) -> anyhow::Result<()> {
    let setup = setup_of(&args.game, Some(&args.size), &args.rule, 0.0, 0, "0/1")?;
    let stones = parse_range(&args.stones).context("--stones takes MIN-MAX or N")?;
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let openings = balanced_openings(&setup, stones, args.count, &mut rng, args.balance.get())?;
    println!("{NOTATION_LINE}");
    for (moves, score) in openings {
        let mut line = opening_line(&moves, setup.height);
        if let (true, Some(s)) = (args.scores, score) {
            line.push_str(&format!(" # black {s:+}"));
        }
        println!("{line}");
    }
    Ok(())
}

/// [`balance::openings`] with a progress bar on stderr while a balance judge searches each
/// candidate (a thousand openings take minutes before the first game or line).
pub fn balanced_openings(
    setup: &GameSetup,
    stones: (usize, usize),
    count: usize,
    rng: &mut ChaCha8Rng,
    balance: Option<Balance>,
) -> anyhow::Result<balance::ScoredOpenings> {
    let bar = match balance {
        Some(b) => progress_bar(
            count as u64,
            &format!(
                "{{bar:40}} {{pos}}/{{len}} balanced openings ({} nodes) {{elapsed}}",
                b.nodes
            ),
        ),
        None => indicatif::ProgressBar::hidden(),
    };
    let found = balance::openings(setup, stones, count, rng, balance, &mut |kept| {
        bar.set_position(kept as u64)
    });
    bar.finish_and_clear();
    found.map_err(|e| anyhow!(e))
}

/// `h8i9j7`: the renju-notation names of an opening's moves on a board `height` rows high,
/// glued; `x,y` pairs apart when a column has no letter (boards wider than 26).
fn opening_line(moves: &[Mv], height: usize) -> String {
    let names: Vec<String> = moves
        .iter()
        .filter_map(|&mv| match mv {
            Mv::At(x, y) => Some(crate::rules::notation::renju_name(x, y, height)),
            Mv::Pass => None,
        })
        .collect();
    if names.iter().all(|n| !n.contains(',')) {
        names.concat()
    } else {
        names.join(" ")
    }
}

/// `--balance NODES [--balance-margin CP]`, shared by `sente match` and `sente openings`.
#[derive(clap::Args, Debug)]
pub struct BalanceArgs {
    /// Gomoku/renju: keep only generated openings that a `strong` search of this many nodes
    /// scores near even (within --balance-margin), so that fewer pairs split 1-1.
    #[arg(long = "balance", id = "balance", value_name = "NODES")]
    pub nodes: Option<u64>,
    /// Largest |score| (evaluation units, about 300 per logit of the expected score) of a
    /// balanced opening.
    #[arg(long, default_value_t = balance::DEFAULT_MARGIN)]
    pub balance_margin: i32,
}

impl BalanceArgs {
    /// The judging settings, when `--balance` was given.
    pub fn get(&self) -> Option<Balance> {
        self.nodes.map(|nodes| Balance {
            nodes,
            margin: self.balance_margin,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::coords::parse_opening_line;

    #[test]
    fn opening_lines_name_points_as_the_arena_reads_them() {
        let moves = vec![Mv::At(7, 7), Mv::At(7, 8), Mv::At(0, 14), Mv::At(14, 0)];
        let line = opening_line(&moves, 15);
        assert_eq!(line, "h8h7a1o15");
        assert_eq!(parse_opening_line(&line, 15, 15, false, true), Ok(moves));
        // Past column z a point has no letter: the line falls back to spaced pairs.
        let wide = vec![Mv::At(27, 0), Mv::At(0, 4)];
        let line = opening_line(&wide, 5);
        assert_eq!(line, "27,0 a1");
        assert_eq!(parse_opening_line(&line, 30, 5, false, true), Ok(wide));
    }
}
