//! Search: clocks, alpha-beta with iterative deepening, threat search (gomoku); Go playouts and
//! MCTS; the exact tic-tac-toe solver. Never prints.

pub mod ab;
pub mod clock;
mod info;
pub mod mcts;
pub mod move_filter;
pub mod playout;
pub mod threats;
pub mod ttt;
pub mod tunables;
pub mod zeroed;

pub use info::{format_eval, SearchInfo};

/// Most threads one search may use (Go's tree search, gomoku's Lazy SMP).
pub const MAX_THREADS: usize = 64;
