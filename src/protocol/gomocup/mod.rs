//! The Gomocup ("Piskvork new protocol") dialect, for gomoku, renju and tic-tac-toe: a line
//! read into a typed command ([`parse`]), a position block gathered ([`block`]), typed replies
//! written as lines ([`format`]), and the loop that ties them to the reader thread and the
//! gomoku session ([`main_loop`]). No game state lives here.

pub mod block;
pub mod format;
pub(crate) mod main_loop;
pub mod parse;
