//! Arena: tournaments between engines, with the runner as referee. Engines are processes
//! described by manifests (`engines/*.toml`, [`manifest`]) spoken to over Gomocup
//! ([`gomocup`]) or GTP ([`gtp`]) through [`process`], or our own levels in-process
//! ([`engine::Internal`], the fast deterministic path). [`referee`] checks every move and
//! ends games, [`tournament`] schedules them on threads, [`stats`] turns results into Elo, LOS
//! and SPRT decisions, and [`report`] formats tables, SGF and PGN. [`go_levels`] plays Go
//! levels against each other in-process at a fixed playout budget (`sente bench go --vs`).
//! Nothing here prints:
//! progress goes to a caller-supplied callback, results are values with `Display`.

pub mod balance;
pub mod coords;
pub mod engine;
pub mod go_levels;
pub mod gomocup;
pub mod gtp;
pub mod manifest;
pub mod merge;
pub mod openings;
pub mod process;
pub mod record;
pub mod referee;
pub mod report;
pub mod shard;
pub mod stats;
pub mod tc;
pub mod tournament;

pub use stats::{elo_estimate, los, EloEstimate, OrderedSprt, Sprt, SprtDecision, Wdl};
pub use tournament::{run, Entrant, GameRecord, Schedule, TournamentConfig, TournamentReport};
