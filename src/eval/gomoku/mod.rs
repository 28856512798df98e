//! Gomoku's evaluation: the seed's 5-cell window table ([`window`]), the incremental line
//! patterns with the hand values ([`patterns`]) and the learned tables over them ([`learned`]),
//! and a fixed-size set of cells ([`cellset`]).

pub mod cellset;
pub mod learned;
pub mod patterns;
pub mod window;
