//! Arena: matches between players for measuring strength. [`selfplay`] runs gomoku-family games
//! between in-process levels with the runner as referee; [`stats`] turns results into scores,
//! Elo intervals, LOS and SPRT decisions (also for the process-based tournament runner).
//! Nothing here prints: progress goes to a caller-supplied callback, results are values with
//! `Display`.

pub mod selfplay;
pub mod stats;

pub use selfplay::{
    run_match, EndReason, GameRecord, MatchConfig, MatchError, MatchReport, Outcome,
};
pub use stats::{elo_estimate, los, EloEstimate, Sprt, SprtDecision, Wdl};
