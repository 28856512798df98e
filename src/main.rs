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
    // `bench` and `match` come here.
}

fn main() -> anyhow::Result<()> {
    init_logging();
    let cli = Cli::parse();
    let (engine, protocol) = match cli.command {
        None => (cli.engine, cli.protocol),
        Some(Cmd::Engine { engine, protocol }) => (engine, protocol),
    };
    hint_if_terminal("sente");
    sente::protocol::run(engine.run_options(protocol))?;
    Ok(())
}
