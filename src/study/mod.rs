//! Reproducible experiments from the source papers: the tic-tac-toe census and GA (SEEDS 000).

pub mod ttt;
