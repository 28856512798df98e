//! Reproducible experiments from the source papers (docs/sources.md): the tic-tac-toe census and
//! GA (SEEDS 000) and the learned gomoku kernels (SEEDS 001; what their store costs per move is
//! `sente bench kernels`, [`crate::bench::kernels`]).

pub mod kernels;
pub mod ttt;
