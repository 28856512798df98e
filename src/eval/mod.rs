//! Evaluation: the seed's window table and incremental line patterns.
pub mod window;
