//! Evaluation: the seed's 5-cell window table and incremental line patterns (gomoku); the
//! seed's Go move scorer (baduk).

pub mod baduk;
pub mod patterns;
pub mod window;
