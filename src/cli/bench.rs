//! `sente bench`: its command-line arguments and the choice of bench they make
//! ([`crate::bench`]; `--vs` plays [`crate::arena::go_levels`] instead).

use crate::bench;
use crate::search::mcts::MctsConfig;
use crate::search::MAX_THREADS;

/// `sente bench [gomoku|ttt|go|kernels]`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Game to bench: gomoku (fixed positions at --depth), ttt (solve every position), go
    /// (playouts/s and MCTS simulations/s at --playouts) or kernels (the learner's matching
    /// cost as its store grows).
    #[arg(value_parser = ["gomoku", "ttt", "go", "kernels"], default_value = "gomoku")]
    pub game: String,
    /// Depth of every search.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Go: playouts per 9x9 position (19x19 positions get a quarter).
    #[arg(long, default_value_t = 100_000)]
    pub playouts: u64,
    /// Gomoku: also search every position on this many threads (Lazy SMP) right after the
    /// one-thread search, and report the time-to-depth speed-up.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    pub threads: u16,
    /// Gomoku: megabytes of the transposition table (one, emptied between positions). Match
    /// tables are larger (Gomocup's `max_memory` is 350 MB): the default keeps the recorded
    /// signatures and figures comparable.
    #[arg(long, default_value_t = bench::gomoku::DEFAULT_HASH_MB, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4096))]
    pub hash: usize,
    /// Go: instead of the speed bench, play this many 9x9 games mcts vs heuristic at
    /// --playouts per move (colours alternate) and print the result.
    #[arg(long)]
    pub vs: Option<usize>,
}

/// Runs `sente bench`, printing the report on stdout.
pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    match args.game.as_str() {
        "go" => match args.vs {
            Some(games) => println!(
                "{}",
                crate::arena::go_levels::go_vs(games, args.playouts, 9, 1)
            ),
            None => println!("{}", bench::go::run_with(args.playouts, &mcts_config())),
        },
        "ttt" => println!("{}", bench::ttt::run()),
        "kernels" => print!("{}", bench::kernels::run()),
        _ if args.threads > 1 => println!(
            "{}",
            bench::gomoku::run_threads(args.depth, usize::from(args.threads), args.hash)
        ),
        _ => println!("{}", bench::gomoku::run(args.depth, args.hash)),
    }
    Ok(())
}

/// The search settings of SENTE_MCTS, as the `mcts` level takes them; exits with status 2 on
/// settings it refuses.
fn mcts_config() -> MctsConfig {
    match std::env::var(crate::players::go::mcts::TUNING_ENV) {
        Ok(text) => MctsConfig::default()
            .with_overrides(&text)
            .unwrap_or_else(|e| {
                eprintln!("SENTE_MCTS: {e}");
                std::process::exit(2)
            }),
        Err(_) => MctsConfig::default(),
    }
}
