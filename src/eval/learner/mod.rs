//! The learning player's evaluation (docs/sources.md, SEEDS 001): the rule map ([`rulemap`])
//! and the learned kernels ([`kernels`]).

pub mod kernels;
pub mod rulemap;
