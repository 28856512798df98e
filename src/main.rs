//! `sente`: with no subcommand, the protocol loop on stdin/stdout (protocol auto-detected).

use clap::{Parser, Subcommand};
use sente::cli::{hint_if_terminal, init_logging, EngineArgs, ProtocolArg};

/// sente: a gomoku / renju engine for Gomocup managers (Piskvork, c-gomoku-cli).
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
    /// Engines (engines/*.toml, or internal:LEVEL) play each other; W/L/D, Elo, LOS, SPRT, SGF.
    Match(Box<sente::arena_cli::MatchArgs>),
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
        Some(Cmd::Match(args)) => return sente::arena_cli::run_match(*args),
    };
    hint_if_terminal("sente");
    sente::protocol::run(engine.run_options(protocol))?;
    Ok(())
}
