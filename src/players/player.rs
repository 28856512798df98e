//! [`Player`]: one interface over every game's levels, for code that only needs moves (the
//! arena's in-process engines, generic game loops). A level of any game is a
//! `Box<dyn Player<P>>` for its [`Position`] `P`. The game traits extend it with what only
//! their protocols ask: [`super::GoPlayer`] (analysis, ownership, cleanup, pondering) and
//! [`super::GomokuPlayer`] (SWAP2, search progress, player options). Tic-tac-toe asks
//! nothing more: its levels are `Player<Board>`s ([`super::ttt`]). Levels are made by
//! [`super::mnk_level`] (gomoku-family boards, tic-tac-toe included) and [`super::go_level`].
//! This file imports none of the games' players: they all build on it.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::rules::Position;
use crate::search::clock::{SearchLimit, TimeManager};

/// What a player decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision<M> {
    /// Play this move.
    Play(M),
    /// Give the game up.
    Resign,
}

/// A level of the game whose positions are `P`.
pub trait Player<P: Position>: Send {
    /// The level's name as selected on the command line.
    fn name(&self) -> &'static str;
    /// Seed for every random choice, so a game can be replayed.
    fn set_seed(&mut self, _seed: u64) {}
    /// Cap on the memory the player may allocate, in bytes (Gomocup `max_memory`; 0 = no cap).
    fn set_memory_limit(&mut self, _bytes: u64) {}
    /// Threads a search may use (`--threads`, Gomocup `thread_num`; at least 1). A player that
    /// searches on one thread ignores it.
    fn set_threads(&mut self, _threads: usize) {}
    /// A new game starts from `start`: forget everything tied to the last one (tables stay
    /// allocated), get ready for this one's rules.
    fn new_game(&mut self, _start: &P) {}
    /// The decision for the side to move of `pos` within `tm`; `None` when the player finds
    /// no move at all.
    fn decide(&mut self, pos: &P, tm: &TimeManager<'_>) -> Option<Decision<P::Move>>;
}

/// Asks `player` for a decision under `limit`, the clock started at `start`.
pub fn decide_with_limit<P: Position>(
    player: &mut dyn Player<P>,
    pos: &P,
    limit: &SearchLimit,
    start: Instant,
) -> Option<Decision<P::Move>> {
    let stop = AtomicBool::new(false);
    let tm = TimeManager::new(limit, start, &stop);
    player.decide(pos, &tm)
}
