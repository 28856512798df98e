//! Search: clocks, alpha-beta with iterative deepening, threat search (gomoku); Go playouts and
//! MCTS. Never prints.

pub mod alphabeta;
pub mod clock;
pub mod mcts;
pub mod move_filter;
pub mod playout;
pub mod root_parallel;
pub mod threats;
pub mod tt;
pub mod zeroed;
