//! Evaluation: the seed's 5-cell window table, incremental line patterns, and the rule map and
//! learned kernels of the learning player (SEEDS 001).

pub mod kernels;
pub mod patterns;
pub mod rulemap;
pub mod window;
