//! Gomoku's alpha-beta search: iterative-deepening PVS over the line patterns ([`alphabeta`]),
//! its constants ([`params`]) and pruning rules ([`pruning`]), the transposition table
//! ([`tt`]), the root's threat analysis ([`root_threats`]) and Lazy SMP ([`smp`]).

pub mod alphabeta;
pub mod params;
pub mod pruning;
pub mod root_threats;
pub mod smp;
pub mod tt;
