//! Evaluation: the seed's 5-cell window table and incremental line patterns (gomoku); the rule
//! map and learned kernels of the learning player (SEEDS 001); the seed's Go move scorer (baduk).

pub mod baduk;
pub mod cellset;
pub mod kernels;
pub mod patterns;
pub mod rulemap;
pub mod window;
