//! `sente`: with no subcommand, the protocol loop on stdin/stdout (protocol auto-detected).

use clap::{Parser, Subcommand};
use sente::cli::{hint_if_terminal, init_logging, EngineArgs, ProtocolArg};

/// sente: a gomoku / renju engine for Gomocup managers (Piskvork, c-gomoku-cli), and a Go and
/// tic-tac-toe engine over GTP (Sabaki, GoGui, gomill).
#[derive(Parser, Debug)]
#[command(name = "sente", version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Protocol to speak on stdin/stdout.
    #[arg(long, value_enum, default_value_t = ProtocolArg::Auto)]
    protocol: ProtocolArg,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Run the protocol loop (the same as giving no subcommand).
    Engine {
        #[command(flatten)]
        engine: EngineArgs,
        /// Protocol to speak on stdin/stdout.
        #[arg(long, value_enum, default_value_t = ProtocolArg::Auto)]
        protocol: ProtocolArg,
    },
    /// Search fixed positions to a fixed depth on one thread: nodes, nodes/s and a signature.
    Bench {
        /// Game to bench: gomoku (fixed positions at --depth), ttt (solve every position) or go
        /// (playouts/s and MCTS simulations/s at --playouts).
        #[arg(value_parser = ["gomoku", "ttt", "go"], default_value = "gomoku")]
        game: String,
        /// Depth of every search.
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Go: playouts per 9x9 position (19x19 positions get a quarter).
        #[arg(long, default_value_t = 100_000)]
        playouts: u64,
        /// Go: instead of the speed bench, play this many 9x9 games mcts vs heuristic at
        /// --playouts per move (colours alternate) and print the result.
        #[arg(long)]
        vs: Option<usize>,
    },
    /// Play the engine's own levels against each other in-process and report W/L/D and Elo.
    Match(MatchArgs),
    /// Play in the terminal against the engine (or another human).
    Play {
        /// Game to play.
        #[arg(value_parser = ["ttt"], default_value = "ttt")]
        game: String,
        /// Seed for the computer's random choices.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Reproduce a paper's experiment and print its tables.
    Study {
        /// Which study: ttt (the GA tic-tac-toe paper, SEEDS 000).
        #[arg(value_parser = ["ttt"], default_value = "ttt")]
        which: String,
        /// Seed of the genetic algorithm.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// `sente match`: level against level, each generated opening played with both colours.
#[derive(clap::Args, Debug)]
struct MatchArgs {
    /// Game family (gomoku covers every gomoku rule; pick one with --rule).
    #[arg(long, value_parser = ["gomoku", "renju"], default_value = "gomoku")]
    game: String,
    /// The two levels; results are reported for the first.
    #[arg(long, num_args = 2, value_names = ["A", "B"], default_values = ["strong", "classic"])]
    levels: Vec<String>,
    /// Number of games (rounded up to even: every opening twice).
    #[arg(long, default_value_t = 50)]
    games: usize,
    /// Node budget per move (deterministic).
    #[arg(long)]
    nodes: Option<u64>,
    /// Time per move in milliseconds (default 200 when no --nodes).
    #[arg(long)]
    movetime: Option<u64>,
    /// Board size, `15` or `20x15`.
    #[arg(long, default_value = "15")]
    size: String,
    /// Rule: freestyle, standard, renju, caro, caro-standard (or the Gomocup number).
    #[arg(long, default_value = "freestyle")]
    rule: String,
    /// Seed for openings and players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Print each game as it finishes.
    #[arg(long)]
    verbose: bool,
}

fn run_match(args: MatchArgs) -> anyhow::Result<()> {
    use sente::arena::selfplay::{run_match, MatchConfig};
    use sente::rules::Rule;
    use sente::search::clock::SearchLimit;

    let (width, height) = match args.size.split_once(['x', 'X']) {
        Some((w, h)) => (w.parse()?, h.parse()?),
        None => {
            let n: usize = args.size.parse()?;
            (n, n)
        }
    };
    let rule_name = if args.game == "renju" {
        "renju"
    } else {
        &args.rule
    };
    let rule =
        Rule::from_name(rule_name).ok_or_else(|| anyhow::anyhow!("unknown rule {rule_name:?}"))?;
    let mut limit = match (args.nodes, args.movetime) {
        (Some(n), _) => SearchLimit::nodes(n),
        (None, Some(ms)) => SearchLimit::move_time(ms),
        (None, None) => SearchLimit::move_time(200),
    };
    if let (Some(_), Some(ms)) = (args.nodes, args.movetime) {
        limit.clock.turn_ms = Some(ms);
    }
    let cfg = MatchConfig {
        levels: [args.levels[0].clone(), args.levels[1].clone()],
        games: args.games,
        limit,
        width,
        height,
        rule,
        seed: args.seed,
        concurrency: args.concurrency.max(1),
        ..MatchConfig::default()
    };
    let total = cfg.games.div_ceil(2) * 2;
    let bar = indicatif::ProgressBar::new(total as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let verbose = args.verbose;
    let report = run_match(&cfg, &mut |game| {
        bar.inc(1);
        if verbose {
            bar.println(game.to_string());
        }
    })?;
    bar.finish_and_clear();
    println!("{report}");
    Ok(())
}

fn main() -> anyhow::Result<()> {
    init_logging();
    let cli = Cli::parse();
    let (engine, protocol) = match cli.command {
        None => (cli.engine, cli.protocol),
        Some(Cmd::Engine { engine, protocol }) => (engine, protocol),
        Some(Cmd::Bench {
            game,
            depth,
            playouts,
            vs,
        }) => {
            if game == "go" {
                match vs {
                    Some(games) => println!("{}", sente::bench::go_vs(games, playouts, 9, 1)),
                    None => println!("{}", sente::bench::run_go(playouts)),
                }
            } else if game == "ttt" {
                println!("{}", sente::players::ttt::bench());
            } else {
                println!("{}", sente::bench::run_gomoku(depth));
            }
            return Ok(());
        }
        Some(Cmd::Play { game: _, seed }) => {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            let mut output = std::io::stdout();
            sente::play::ttt::run(&mut input, &mut output, seed)?;
            return Ok(());
        }
        Some(Cmd::Study { which: _, seed }) => {
            sente::study::ttt::run(seed, &mut std::io::stdout())?;
            return Ok(());
        }
        Some(Cmd::Match(args)) => return run_match(args),
    };
    engine.check(protocol).map_err(anyhow::Error::msg)?;
    hint_if_terminal("sente");
    sente::protocol::run(engine.run_options(protocol))?;
    Ok(())
}
