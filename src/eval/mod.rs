//! Evaluation: the seed's 5-cell window table and incremental line patterns.

pub mod patterns;
pub mod window;
