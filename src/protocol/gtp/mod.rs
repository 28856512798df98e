//! The GTP v2 dialect (Go Text Protocol, draft 2), for Go and tic-tac-toe: which commands
//! exist ([`commands`]), a line read into a typed command ([`parse`], KataGo's rules text in
//! [`rules`]), typed results written as responses ([`format`]), a command answered by the
//! game's session ([`dispatch`]), and the loop that ties them to the reader thread
//! ([`main_loop`]). No game state lives here.
//!
//! The reader ([`crate::protocol::io::normalise`]) already dropped control characters other
//! than HT and LF and turned tabs into spaces, as the spec's preprocessing asks; every response
//! ends with an empty line ([`format::format_response`]).

pub mod commands;
mod dispatch;
pub mod format;
pub mod main_loop;
pub mod parse;
pub mod rules;

use commands::GtpGameKind;

/// What the GTP side takes from the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GtpOptions {
    /// The game (`--game`).
    pub game: GtpGameKind,
    /// The level (`--level`); `None` = the game's default.
    pub level: Option<String>,
    /// Seed for every random choice.
    pub seed: u64,
    /// Fixed search budget per move (MCTS playouts); switches the clock off.
    pub nodes: Option<u64>,
    /// Search threads for Go (`--threads`; 0 counts as 1).
    pub threads: usize,
    /// Go: think on the opponent's time (`--ponder`).
    pub ponder: bool,
    /// Go: share main time most in the middle game (`--time-middle`).
    pub time_middle: bool,
}
