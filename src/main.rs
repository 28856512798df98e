//! `sente`: with no subcommand, the protocol loop on stdin/stdout (protocol auto-detected).

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use sente::cli::{hint_if_terminal, init_logging, EngineArgs, ProtocolArg};
use sente::session::options::help;

/// sente: a gomoku / renju engine for Gomocup managers (Piskvork, c-gomoku-cli), and a Go and
/// tic-tac-toe engine over GTP (Sabaki, GoGui, gomill).
#[derive(Parser, Debug)]
#[command(name = "sente", version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    engine: EngineArgs,
    /// `--protocol`.
    #[arg(long, value_enum, default_value_t = ProtocolArg::Auto, help = help("protocol"))]
    protocol: ProtocolArg,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Run the protocol loop (the same as giving no subcommand).
    Engine {
        #[command(flatten)]
        engine: EngineArgs,
        /// `--protocol`.
        #[arg(long, value_enum, default_value_t = ProtocolArg::Auto, help = help("protocol"))]
        protocol: ProtocolArg,
    },
    /// Search fixed positions to a fixed depth on one thread: nodes, nodes/s and a signature.
    Bench {
        /// Game to bench: gomoku (fixed positions at --depth), ttt (solve every position), go
        /// (playouts/s and MCTS simulations/s at --playouts) or kernels (the learner's matching
        /// cost as its store grows).
        #[arg(value_parser = ["gomoku", "ttt", "go", "kernels"], default_value = "gomoku")]
        game: String,
        /// Depth of every search.
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Go: playouts per 9x9 position (19x19 positions get a quarter).
        #[arg(long, default_value_t = 100_000)]
        playouts: u64,
        /// Gomoku: also search every position on this many threads (Lazy SMP) right after the
        /// one-thread search, and report the time-to-depth speed-up.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=sente::search::MAX_THREADS as i64))]
        threads: u16,
        /// Gomoku: megabytes of the transposition table (one, emptied between positions). Match
        /// tables are larger (Gomocup's `max_memory` is 350 MB): the default keeps the recorded
        /// signatures and figures comparable.
        #[arg(long, default_value_t = sente::bench::DEFAULT_HASH_MB, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4096))]
        hash: usize,
        /// Go: instead of the speed bench, play this many 9x9 games mcts vs heuristic at
        /// --playouts per move (colours alternate) and print the result.
        #[arg(long)]
        vs: Option<usize>,
    },
    /// List a search's tunable settings (name, default, range, what it does), as `--set NAME=VALUE`,
    /// Gomocup `INFO NAME VALUE` and GTP `kata-set-param` take them.
    Params {
        /// Whose: gomoku (`strong`; the hand set's defaults differ where `strong-hand` and the
        /// rules without learned tables play), go (`mcts`) or go-heuristic (`heuristic`).
        #[arg(value_parser = ["gomoku", "go", "go-heuristic"], default_value = "gomoku")]
        game: String,
    },
    /// Engines (engines/*.toml, or internal:LEVEL) play each other; W/L/D, Elo, LOS, SPRT, SGF.
    Match(Box<sente::arena_cli::MatchArgs>),
    /// Write generated gomoku/renju openings (optionally only near-even ones, judged by a
    /// fixed-node search) for `sente match --openings` or c-gomoku-cli.
    Openings(Box<sente::arena_cli::OpeningsArgs>),
    /// Gomoku self-play at a fixed node budget from seeded openings: training data (resumable,
    /// shardable).
    Selfplay(Box<sente::selfplay::SelfplayArgs>),
    /// Go training data: GNU Go plays itself over GTP from seeded random openings, every move it
    /// chooses a target for the move priors (resumable, shardable).
    GoData(Box<sente::selfplay::go::GoDataArgs>),
    /// Fit the learned gomoku evaluation (value and move policy) to self-play data and write a
    /// weights file.
    Train(Box<sente::train::TrainArgs>),
    /// Fit the Go move priors' gammas (Bradley-Terry, minorization-maximization) to `go-data`
    /// games and write the table, reporting held-out top-1 and top-5 beside the hand priors.
    GoTrain(Box<sente::train::go::GoTrainArgs>),
    /// Play tic-tac-toe, gomoku or Go in the terminal against the engine (or another human).
    Play(sente::play_cli::PlayArgs),
    /// Reproduce a paper's experiment and print its tables.
    Study {
        /// Which study: ttt (the paper on tic-tac-toe strategies found by a genetic algorithm)
        /// or kernels (the paper on a rule-based, semi-supervised gomoku player).
        #[arg(value_parser = ["ttt", "kernels"], default_value = "ttt")]
        which: String,
        /// Seed of the genetic algorithm (ttt) or of every game (kernels).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        kernels: KernelStudyArgs,
        #[command(flatten)]
        ttt: TttStudyArgs,
    },
}

/// Options of `sente study ttt`.
#[derive(clap::Args, Debug)]
struct TttStudyArgs {
    /// Reading of the paper's fitness table (ttt only): fresh (each chance judged once: closest
    /// to the paper's distribution), fresh-wins, or literal (Table 6 word for word).
    #[arg(long, value_parser = ["fresh", "fresh-wins", "literal"], default_value = "fresh")]
    fitness: String,
    /// GA replacement (ttt only): steady (each child replaces the least fit member, at most 16
    /// copies of a strategy), no-duplicates (steady, one copy), parent-child, or generational
    /// (children replace everyone, no elitism).
    #[arg(long, value_parser = ["steady", "no-duplicates", "parent-child", "generational"], default_value = "steady")]
    replacement: String,
    /// Where to write the GA plot (ttt only).
    #[arg(long, default_value = "ttt-ga.svg")]
    ga_svg: std::path::PathBuf,
}

/// Options of `sente study kernels`.
#[derive(clap::Args, Debug)]
struct KernelStudyArgs {
    /// Rounds per kernel size (kernels only).
    #[arg(long, default_value_t = 14)]
    rounds: usize,
    /// Games per round (kernels only).
    #[arg(long, default_value_t = 50)]
    games: usize,
    /// Kernel sizes, comma-separated odd numbers 1..15 (kernels only).
    #[arg(long, value_delimiter = ',', default_values_t = sente::eval::learner::kernels::KERNEL_SIZES)]
    sizes: Vec<usize>,
    /// Where to write the SVG plot (kernels only).
    #[arg(long, default_value = "kernels.svg")]
    out: std::path::PathBuf,
    /// Where kernels match: board (where they were cut, as 001) or anywhere (kernels only).
    #[arg(long, value_parser = ["board", "anywhere"], default_value = "board")]
    anchor: String,
    /// Also match the 8 rotations/reflections of each kernel (kernels only).
    #[arg(long)]
    symmetry: bool,
    /// Approximate matching: largest Hamming distance, 0 = exact as 001 (kernels only).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=4))]
    near: u8,
    /// Rule-map weights of both players: linear (plain counts, 001 read literally) or steep (the
    /// `learner` level's default: fives first).
    #[arg(long, value_parser = ["steep", "linear"], default_value = "linear")]
    rule_map: String,
    /// Seeds to run (--seed, --seed + 1, ...): more than one adds a table per seed and pools
    /// the rounds (kernels only).
    #[arg(long, default_value_t = 1, value_name = "N")]
    seeds: usize,
    /// Where each round's tie-breaks come from: stream (one random stream for both sides,
    /// restarted every round: rounds replay until learning changes a move, as 001's must have),
    /// game (seeds per game, the same every round) or fresh (new seeds every round).
    #[arg(long, value_parser = ["stream", "game", "fresh"], default_value = "stream")]
    replay: String,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

fn run_kernel_study(seed: u64, args: KernelStudyArgs) -> anyhow::Result<()> {
    use sente::eval::learner::kernels::{valid_size, Anchor, MatchOptions};
    use sente::study::kernels::{run, Replay, StudyConfig};
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
        weights: sente::eval::learner::rulemap::RuleWeights::from_name(&args.rule_map)
            .unwrap_or_default(),
        replay: Replay::from_name(&args.replay).unwrap_or(Replay::Stream),
        threads: args.threads.unwrap_or(defaults.threads).max(1),
    };
    let total = cfg.rounds * cfg.games * cfg.sizes.len() * cfg.seeds;
    let bar = sente::cli::progress_bar(total as u64, "{bar:40} {pos}/{len} games  {elapsed}");
    let tick = || bar.inc(1);
    let mut text = Vec::new();
    run(&cfg, &args.out, &tick, &mut text)?;
    bar.finish_and_clear();
    print!("{}", String::from_utf8_lossy(&text));
    Ok(())
}

fn main() -> std::process::ExitCode {
    sente::cli::exit_status(run())
}

fn run() -> anyhow::Result<()> {
    init_logging();
    // `--version` also names the embedded weights: where they came from and their checksum.
    let long_version: &'static str = Box::leak(
        format!(
            "{}\n{}",
            env!("CARGO_PKG_VERSION"),
            sente::eval::gomoku::learned::provenance_lines().trim_end()
        )
        .into_boxed_str(),
    );
    let matches = Cli::command().long_version(long_version).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let (engine, protocol) = match cli.command {
        None => (cli.engine, cli.protocol),
        Some(Cmd::Engine { engine, protocol }) => (engine, protocol),
        Some(Cmd::Bench {
            game,
            depth,
            playouts,
            threads,
            hash,
            vs,
        }) => {
            if game == "go" {
                match vs {
                    Some(games) => {
                        println!("{}", sente::arena::go_levels::go_vs(games, playouts, 9, 1))
                    }
                    None => {
                        // The search settings of SENTE_MCTS, as the `mcts` level takes them.
                        let cfg = match std::env::var(sente::players::go::mcts::TUNING_ENV) {
                            Ok(text) => sente::search::mcts::MctsConfig::default()
                                .with_overrides(&text)
                                .unwrap_or_else(|e| {
                                    eprintln!("SENTE_MCTS: {e}");
                                    std::process::exit(2)
                                }),
                            Err(_) => sente::search::mcts::MctsConfig::default(),
                        };
                        println!("{}", sente::bench::run_go_with(playouts, &cfg))
                    }
                }
            } else if game == "ttt" {
                println!("{}", sente::search::ttt::bench());
            } else if game == "kernels" {
                print!("{}", sente::study::kernel_bench::run_kernels());
            } else if threads > 1 {
                let threads = usize::from(threads);
                println!("{}", sente::bench::run_gomoku_threads(depth, threads, hash));
            } else {
                println!("{}", sente::bench::run_gomoku(depth, hash));
            }
            return Ok(());
        }
        Some(Cmd::Play(args)) => return sente::play_cli::run_play(args),
        Some(Cmd::Study {
            which,
            seed,
            kernels,
            ttt,
        }) => {
            if which == "kernels" {
                return run_kernel_study(seed, kernels);
            }
            use sente::study::ttt::Replacement;
            let replacement = match ttt.replacement.as_str() {
                "no-duplicates" => Replacement::SteadyState(1),
                "parent-child" => Replacement::ParentChild,
                "generational" => Replacement::Generational,
                _ => sente::study::ttt::GaConfig::default().replacement,
            };
            let opts = sente::study::ttt::StudyOptions {
                seed,
                reading: ttt.fitness,
                replacement,
                svg: Some(ttt.ga_svg),
            };
            sente::study::ttt::run(&opts, &mut std::io::stdout())?;
            return Ok(());
        }
        Some(Cmd::Params { game }) => {
            use sente::players::go::{heuristic::HeuristicParams, mcts::MctsParams};
            use sente::search::ab::params::SearchParams;
            use sente::search::tunables::table;
            let text = match game.as_str() {
                "go" => table(&MctsParams::all_tunables(), |n| {
                    MctsParams::default().get(n)
                }),
                "go-heuristic" => table(HeuristicParams::TUNABLES, |n| {
                    HeuristicParams::default().get(n)
                }),
                _ => table(SearchParams::TUNABLES, |n| SearchParams::default().get(n)),
            };
            print!("{text}");
            return Ok(());
        }
        Some(Cmd::Match(args)) => return sente::arena_cli::run_match(*args),
        Some(Cmd::Selfplay(args)) => return sente::selfplay::run_selfplay(*args),
        Some(Cmd::GoData(args)) => return sente::selfplay::go::run_go_data(*args),
        Some(Cmd::Openings(args)) => return sente::arena_cli::run_openings(*args),
        Some(Cmd::Train(args)) => return sente::train::run_train(*args),
        Some(Cmd::GoTrain(args)) => return sente::train::go::run_go_train(*args),
    };
    engine.check(protocol).map_err(anyhow::Error::msg)?;
    hint_if_terminal("sente");
    sente::cli::one_heap_arena();
    sente::protocol::run(engine.run_options(protocol))?;
    Ok(())
}
