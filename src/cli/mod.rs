//! The command line: one file per subcommand of `sente` with its clap arguments and the glue
//! that runs it ([`engine`] also serves `pbrain-sente`), and what every binary does at start
//! and exit. `selfplay`, `go-data`, `train` and `go-train` take their clap arguments as their
//! whole configuration, so those arguments live with them ([`crate::selfplay`],
//! [`crate::train`]). Sits above every other layer; the binaries stay thin.

pub mod bench;
pub mod engine;
pub mod match_cmd;
pub mod match_out;
pub mod openings;
pub mod params;
pub mod play;
pub mod setup;
pub mod study;

/// A progress bar on stderr for a command's long run (drawn only on a terminal) with the
/// given indicatif template; the default style if the template does not parse.
pub fn progress_bar(len: u64, template: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Sends logs to stderr (stdout belongs to the protocol); `RUST_LOG` chooses the level, `warn`
/// by default.
pub fn init_logging() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
}

/// The exit of a binary's `main`: an error is one line on stderr with its causes, and exit
/// status 1. Returning the error from `main` would print anyhow's debug form instead, with a
/// stack trace whenever RUST_BACKTRACE is set, which a user who mistyped an option has no use
/// for.
pub fn exit_status(result: anyhow::Result<()>) -> std::process::ExitCode {
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
