//! `pbrain-sente`: the protocol loop with Gomocup forced (Piskvork only speaks its "new
//! protocol" to executables whose name starts with `pbrain-`).

use clap::Parser;
use sente::cli::{hint_if_terminal, init_logging, EngineArgs, ProtocolArg};

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
    init_logging();
    let cli = Cli::parse();
    cli.engine
        .check(ProtocolArg::Gomocup)
        .map_err(anyhow::Error::msg)?;
    hint_if_terminal("pbrain-sente");
    sente::cli::one_heap_arena();
    sente::protocol::run(cli.engine.run_options(ProtocolArg::Gomocup))?;
    Ok(())
}
