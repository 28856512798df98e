//! Evaluation: the seed's 5-cell window table and incremental line patterns (gomoku); the rule
//! map and learned kernels of the learning player (docs/sources.md, SEEDS 001); the seed's Go move
//! scorer (baduk) and the 3x3 shape patterns of Go playouts (go_patterns); the Go tree's priors
//! (go_priors) and the ladder reading behind them (go_ladder).

pub mod baduk;
pub mod cellset;
pub mod go_features;
pub mod go_gammas;
pub mod go_ladder;
pub mod go_patterns;
pub mod go_priors;
pub mod kernels;
pub mod learned;
pub mod patterns;
pub mod rulemap;
pub mod window;
