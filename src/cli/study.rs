//! `sente study`: its command-line arguments and their translation into a study's settings
//! ([`crate::study`]).

use crate::study::ttt::{GaConfig, Replacement, StudyOptions};

/// `sente study [ttt|kernels]`.
#[derive(clap::Args, Debug)]
pub struct StudyArgs {
    /// Which study: ttt (the paper on tic-tac-toe strategies found by a genetic algorithm)
    /// or kernels (the paper on a rule-based, semi-supervised gomoku player).
    #[arg(value_parser = ["ttt", "kernels"], default_value = "ttt")]
    pub which: String,
    /// Seed of the genetic algorithm (ttt) or of every game (kernels).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub kernels: KernelStudyArgs,
    #[command(flatten)]
    pub ttt: TttStudyArgs,
}

/// Runs `sente study`.
pub fn run(args: StudyArgs) -> anyhow::Result<()> {
    if args.which == "kernels" {
        return run_kernels(args.seed, args.kernels);
    }
    let replacement = match args.ttt.replacement.as_str() {
        "no-duplicates" => Replacement::SteadyState(1),
        "parent-child" => Replacement::ParentChild,
        "generational" => Replacement::Generational,
        _ => GaConfig::default().replacement,
    };
    let opts = StudyOptions {
        seed: args.seed,
        reading: args.ttt.fitness,
        replacement,
        svg: Some(args.ttt.ga_svg),
    };
    crate::study::ttt::run(&opts, &mut std::io::stdout())?;
    Ok(())
}

/// Options of `sente study ttt`.
#[derive(clap::Args, Debug)]
pub struct TttStudyArgs {
    /// Reading of the paper's fitness table (ttt only): fresh (each chance judged once: closest
    /// to the paper's distribution), fresh-wins, or literal (Table 6 word for word).
    #[arg(long, value_parser = ["fresh", "fresh-wins", "literal"], default_value = "fresh")]
    pub fitness: String,
    /// GA replacement (ttt only): steady (each child replaces the least fit member, at most 16
    /// copies of a strategy), no-duplicates (steady, one copy), parent-child, or generational
    /// (children replace everyone, no elitism).
    #[arg(long, value_parser = ["steady", "no-duplicates", "parent-child", "generational"], default_value = "steady")]
    pub replacement: String,
    /// Where to write the GA plot (ttt only).
    #[arg(long, default_value = "ttt-ga.svg")]
    pub ga_svg: std::path::PathBuf,
}

/// Options of `sente study kernels`.
#[derive(clap::Args, Debug)]
pub struct KernelStudyArgs {
    /// Rounds per kernel size (kernels only).
    #[arg(long, default_value_t = 14)]
    pub rounds: usize,
    /// Games per round (kernels only).
    #[arg(long, default_value_t = 50)]
    pub games: usize,
    /// Kernel sizes, comma-separated odd numbers 1..15 (kernels only).
    #[arg(long, value_delimiter = ',', default_values_t = crate::eval::learner::kernels::KERNEL_SIZES)]
    pub sizes: Vec<usize>,
    /// Where to write the SVG plot (kernels only).
    #[arg(long, default_value = "kernels.svg")]
    pub out: std::path::PathBuf,
    /// Where kernels match: board (where they were cut, as 001) or anywhere (kernels only).
    #[arg(long, value_parser = ["board", "anywhere"], default_value = "board")]
    pub anchor: String,
    /// Also match the 8 rotations/reflections of each kernel (kernels only).
    #[arg(long)]
    pub symmetry: bool,
    /// Approximate matching: largest Hamming distance, 0 = exact as 001 (kernels only).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=4))]
    pub near: u8,
    /// Rule-map weights of both players: linear (plain counts, 001 read literally) or steep (the
    /// `learner` level's default: fives first).
    #[arg(long, value_parser = ["steep", "linear"], default_value = "linear")]
    pub rule_map: String,
    /// Seeds to run (--seed, --seed + 1, ...): more than one adds a table per seed and pools
    /// the rounds (kernels only).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub seeds: usize,
    /// Where each round's tie-breaks come from: stream (one random stream for both sides,
    /// restarted every round: rounds replay until learning changes a move, as 001's must have),
    /// game (seeds per game, the same every round) or fresh (new seeds every round).
    #[arg(long, value_parser = ["stream", "game", "fresh"], default_value = "stream")]
    pub replay: String,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Runs `sente study kernels`: the tables on stdout, the plot in `--out`, a progress bar on
/// stderr.
fn run_kernels(seed: u64, args: KernelStudyArgs) -> anyhow::Result<()> {
    use crate::eval::learner::kernels::{valid_size, Anchor, MatchOptions};
    use crate::study::kernels::{run, Replay, StudyConfig};
    if let Some(bad) = args.sizes.iter().find(|&&k| k == 0 || !valid_size(k)) {
        anyhow::bail!("kernel size {bad}: sizes are odd numbers 1..15");
    }
    if args.rounds == 0 || args.games == 0 || args.seeds == 0 {
        anyhow::bail!("--rounds, --games and --seeds must be at least 1");
    }
    let defaults = StudyConfig::default();
    let cfg = StudyConfig {
        seed,
        seeds: args.seeds,
        rounds: args.rounds,
        games: args.games,
        sizes: args.sizes,
        matching: MatchOptions {
            anchor: Anchor::from_name(&args.anchor).unwrap_or(Anchor::Board),
            symmetry: args.symmetry,
            near: args.near as usize,
            ..MatchOptions::default()
        },
        weights: crate::eval::learner::rulemap::RuleWeights::from_name(&args.rule_map)
            .unwrap_or_default(),
        replay: Replay::from_name(&args.replay).unwrap_or(Replay::Stream),
        threads: args.threads.unwrap_or(defaults.threads).max(1),
    };
    let total = cfg.rounds * cfg.games * cfg.sizes.len() * cfg.seeds;
    let bar = super::progress_bar(total as u64, "{bar:40} {pos}/{len} games  {elapsed}");
    let tick = || bar.inc(1);
    let mut text = Vec::new();
    run(&cfg, &args.out, &tick, &mut text)?;
    bar.finish_and_clear();
    print!("{}", String::from_utf8_lossy(&text));
    Ok(())
}
