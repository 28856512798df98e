//! `sente play`: its command-line arguments and their translation into a terminal session of
//! [`crate::play`] on stdin/stdout, with the computer's search progress on stderr.

use std::io::IsTerminal;

use anyhow::{anyhow, bail};

use crate::play::go::{self, GoOptions};
use crate::play::gomoku::{self, GomokuOptions};
use crate::players::ttt::{ttt_player, TTT_LEVELS};
use crate::players::{GOMOKU_LEVELS, GO_LEVELS};
use crate::rules::Rule;

/// `sente play [ttt|gomoku|go]`: play in the terminal against the engine or another human.
///
/// A menu offers: play first, play second, two humans, computer vs computer (the second
/// computer's level is chosen at random), select the AI level, the game's settings (gomoku and
/// Go), exit. The board is redrawn after each move; bad input is refused with the reason and
/// asked again; `undo` takes back your last move (and the computer's reply), `quit` or `00`
/// abandons a game; a running score is kept across games.
///
/// Moves: ttt `23` (row 2, column 3); gomoku `h8` (renju notation: column letter, row from 1
/// at the bottom), `8 8` or the Gomocup pair `7,7` (from 0 at the top left); Go GTP vertices `d4` (no I column, row 1 at the bottom),
/// `pass`, `resign`.
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct PlayArgs {
    /// Game to play.
    #[arg(value_parser = ["ttt", "gomoku", "go"], default_value = "ttt")]
    pub game: String,
    /// Seed for the computer's random choices (and the second computer's level), so a session
    /// replays.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The computer's level at the start (the menu's "Select AI" changes it): ttt perfect,
    /// minimax, rules+heuristic, heuristic2, dumb, dumber, heuristic1; gomoku strong,
    /// strong-hand, classic, learner; Go mcts, heuristic. Default: the game's first.
    #[arg(long)]
    pub level: Option<String>,
    /// Board side: gomoku 5..26 in the terminal, one letter a column (default 15; the engine
    /// takes up to 32 over Gomocup), Go 2..25 (default 9).
    #[arg(long)]
    pub size: Option<usize>,
    /// Gomoku rule: freestyle (five or more; the default), standard (exactly five), renju
    /// (black: exactly five, no double three, double four or overline), caro (a five blocked at
    /// both ends does not win), no-double-three (five or more; black may not make two open
    /// threes at once).
    #[arg(long)]
    pub rule: Option<String>,
    /// Go komi, points given to white (default 7.5; a multiple of 0.5).
    #[arg(long, allow_negative_numbers = true)]
    pub komi: Option<f32>,
    /// Go fixed handicap: 2..9 black stones on the standard points (white moves first).
    #[arg(long)]
    pub handicap: Option<usize>,
    /// Seconds per computer move, gomoku and Go (default 1; fractions allowed).
    #[arg(long)]
    pub movetime: Option<String>,
    /// Fixed search budget per computer move instead of --movetime: nodes (gomoku) or playouts
    /// (Go). Deterministic with --seed.
    #[arg(long)]
    pub nodes: Option<u64>,
}

/// The level to start with: `--level` if it is one of `levels` or a name `alias` knows (the
/// menu accepts the same names), else an error naming them.
fn start_level(
    wanted: &Option<String>,
    levels: &[(&str, &str)],
    alias: fn(&str) -> Option<String>,
    game: &str,
) -> anyhow::Result<String> {
    let Some(level) = wanted else {
        return Ok(levels[0].0.to_string());
    };
    let known = levels
        .iter()
        .find(|l| l.0.eq_ignore_ascii_case(level))
        .map(|l| l.0.to_string())
        .or_else(|| alias(level));
    match known {
        Some(l) => Ok(l),
        None => {
            let names: Vec<&str> = levels.iter().map(|l| l.0).collect();
            bail!(
                "--level {level}: the {game} levels are {}",
                names.join(", ")
            )
        }
    }
}

/// Refuses the flags that `game` has no use for, so that a typo is not silently ignored.
fn refuse_foreign_flags(args: &PlayArgs) -> anyhow::Result<()> {
    let given = [
        ("--rule", args.rule.is_some(), &["gomoku"][..]),
        ("--komi", args.komi.is_some(), &["go"][..]),
        ("--handicap", args.handicap.is_some(), &["go"][..]),
        ("--size", args.size.is_some(), &["gomoku", "go"][..]),
        ("--movetime", args.movetime.is_some(), &["gomoku", "go"][..]),
        ("--nodes", args.nodes.is_some(), &["gomoku", "go"][..]),
    ];
    for (flag, set, games) in given {
        if set && !games.contains(&args.game.as_str()) {
            bail!("{flag} is for {} only", games.join(" and "));
        }
    }
    Ok(())
}

/// Runs `sente play`.
pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    refuse_foreign_flags(&args)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout();
    let stderr = std::io::stderr();
    let progress_in_place = stderr.is_terminal();
    let mut progress = stderr.lock();
    let movetime_ms = match &args.movetime {
        Some(s) => crate::play::parse_seconds(s).map_err(|e| anyhow!("--movetime: {e}"))?,
        None => 1000,
    };
    if args.nodes == Some(0) {
        bail!("--nodes must be at least 1");
    }
    match args.game.as_str() {
        "gomoku" => {
            let size =
                gomoku::check_size(args.size.unwrap_or(15)).map_err(|e| anyhow!("--size: {e}"))?;
            let rule = match &args.rule {
                Some(r) => gomoku::parse_rule(r).map_err(|e| anyhow!("--rule: {e}"))?,
                None => Rule::Freestyle,
            };
            let opts = GomokuOptions {
                size,
                rule,
                level: start_level(&args.level, GOMOKU_LEVELS, |_| None, "gomoku")?,
                seed: args.seed,
                movetime_ms,
                nodes: args.nodes,
                progress_in_place,
            };
            gomoku::run(&mut input, &mut output, &mut progress, opts)?;
        }
        "go" => {
            let size =
                go::check_size(args.size.unwrap_or(9)).map_err(|e| anyhow!("--size: {e}"))?;
            let opts = GoOptions {
                size,
                komi: go::check_komi(args.komi.unwrap_or(7.5))
                    .map_err(|e| anyhow!("--komi: {e}"))?,
                handicap: go::check_handicap(size, args.handicap.unwrap_or(0))
                    .map_err(|e| anyhow!("--handicap: {e}"))?,
                level: start_level(&args.level, GO_LEVELS, |_| None, "go")?,
                seed: args.seed,
                movetime_ms,
                nodes: args.nodes,
                progress_in_place,
            };
            go::run(&mut input, &mut output, &mut progress, opts)?;
        }
        _ => {
            // The lecture's `smart` (docs/sources.md, SEEDS 004) and the other names the
            // menu takes.
            let alias = |l: &str| ttt_player(l, 0).map(|p| p.name().to_string());
            let level = start_level(&args.level, TTT_LEVELS, alias, "ttt")?;
            crate::play::ttt::run_with_level(&mut input, &mut output, args.seed, &level)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_levels_by_name_alias_or_default() {
        let ttt = |l: &str| ttt_player(l, 0).map(|p| p.name().to_string());
        let wanted = |l: &str| Some(l.to_string());
        // The lecture's name for the minimax level, as the menu takes it.
        assert_eq!(
            start_level(&wanted("smart"), TTT_LEVELS, ttt, "ttt").unwrap(),
            "minimax"
        );
        assert_eq!(
            start_level(&wanted("DUMB"), TTT_LEVELS, ttt, "ttt").unwrap(),
            "dumb"
        );
        assert_eq!(
            start_level(&None, TTT_LEVELS, ttt, "ttt").unwrap(),
            "perfect"
        );
        let err = start_level(&wanted("genius"), TTT_LEVELS, ttt, "ttt").unwrap_err();
        assert!(
            err.to_string().contains("the ttt levels are perfect"),
            "{err}"
        );
        assert!(start_level(&wanted("smart"), GOMOKU_LEVELS, |_| None, "gomoku").is_err());
    }
}
