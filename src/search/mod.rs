//! Search: clocks, alpha-beta with iterative deepening, threat search. Never prints.

pub mod clock;
pub mod alphabeta;
pub mod threats;
pub mod tt;
