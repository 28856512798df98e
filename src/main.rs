//! `sente`: with no subcommand, the protocol loop on stdin/stdout (protocol auto-detected);
//! each subcommand's arguments and glue are in [`sente::cli`].

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use sente::cli;

/// sente: a gomoku / renju engine for Gomocup managers (Piskvork, c-gomoku-cli), and a Go and
/// tic-tac-toe engine over GTP (Sabaki, GoGui, gomill).
#[derive(Parser, Debug)]
#[command(name = "sente", version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    engine: cli::engine::EngineCmdArgs,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Run the protocol loop (the same as giving no subcommand).
    Engine(cli::engine::EngineCmdArgs),
    /// Search fixed positions to a fixed depth on one thread: nodes, nodes/s and a signature.
    Bench(cli::bench::BenchArgs),
    /// List a search's tunable settings (name, default, range, what it does), as `--set NAME=VALUE`,
    /// Gomocup `INFO NAME VALUE` and GTP `kata-set-param` take them.
    Params(cli::params::ParamsArgs),
    /// Engines (engines/*.toml, or internal:LEVEL) play each other; W/L/D, Elo, LOS, SPRT, SGF.
    Match(Box<cli::match_cmd::MatchArgs>),
    /// Write generated gomoku/renju openings (optionally only near-even ones, judged by a
    /// fixed-node search) for `sente match --openings` or c-gomoku-cli.
    Openings(Box<cli::openings::OpeningsArgs>),
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
    Play(cli::play::PlayArgs),
    /// Reproduce a paper's experiment and print its tables.
    Study(Box<cli::study::StudyArgs>),
}

fn main() -> std::process::ExitCode {
    cli::exit_status(run())
}

fn run() -> anyhow::Result<()> {
    cli::init_logging();
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
    match cli.command {
        None => engine(cli.engine),
        Some(Cmd::Engine(args)) => engine(args),
        Some(Cmd::Bench(args)) => cli::bench::run(args),
        Some(Cmd::Params(args)) => cli::params::run(args),
        Some(Cmd::Match(args)) => cli::match_cmd::run(*args),
        Some(Cmd::Openings(args)) => cli::openings::run(*args),
        Some(Cmd::Selfplay(args)) => sente::selfplay::run_selfplay(*args),
        Some(Cmd::GoData(args)) => sente::selfplay::go::run_go_data(*args),
        Some(Cmd::Train(args)) => sente::train::run_train(*args),
        Some(Cmd::GoTrain(args)) => sente::train::go::run_go_train(*args),
        Some(Cmd::Play(args)) => cli::play::run(args),
        Some(Cmd::Study(args)) => cli::study::run(*args),
    }
}

/// The protocol loop, as `sente` with no subcommand and `sente engine` run it.
fn engine(args: cli::engine::EngineCmdArgs) -> anyhow::Result<()> {
    cli::engine::run(&args.engine, args.protocol, "sente")
}
