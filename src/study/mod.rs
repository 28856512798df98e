//! Reproducible experiments from the source papers (docs/sources.md): the tic-tac-toe census and
//! GA (SEEDS 000) and the learned gomoku kernels (SEEDS 001), with what their store costs per move
//! (`sente bench kernels`).

pub mod kernel_bench;
pub mod kernels;
pub mod ttt;
