//! `sente bench`: fixed positions per game searched on one thread, each bench printing its
//! nodes, speed and a signature that changes only when play changes (`bench.sig` commits
//! them): [`gomoku`] (fixed depth, and `--threads`), [`go`] (playouts and MCTS), [`ttt`] (the
//! exact solver over every position), all as a [`report::BenchReport`]; and [`kernels`], the
//! learner's matching cost as its store grows. `bench go --vs` is a match,
//! [`crate::arena::go_levels`].

pub mod go;
pub mod gomoku;
pub mod kernels;
pub mod report;
pub mod ttt;
