//! `pbrain-sente`: the protocol loop with Gomocup forced (Piskvork only speaks its "new
//! protocol" to executables whose name starts with `pbrain-`).

use clap::Parser;
use sente::cli::engine::{EngineArgs, ProtocolArg};

/// sente for Piskvork and other Gomocup managers.
#[derive(Parser, Debug)]
#[command(name = "pbrain-sente", version, about)]
struct Cli {
    #[command(flatten)]
    engine: EngineArgs,
}

fn main() -> std::process::ExitCode {
    sente::cli::exit_status(run())
}

fn run() -> anyhow::Result<()> {
    sente::cli::init_logging();
    let cli = Cli::parse();
    sente::cli::engine::run(&cli.engine, ProtocolArg::Gomocup, "pbrain-sente")
}
