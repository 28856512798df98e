//! Search: clocks, alpha-beta with iterative deepening, threat search. Never prints.

pub mod alphabeta;
pub mod clock;
pub mod threats;
pub mod tt;
