//! [`Player`]: one interface over every game's levels, for code that only needs moves (the
//! arena's in-process engines, generic game loops). A level of any game is a
//! `Box<dyn Player<P>>` for its [`Position`] `P`. The game traits extend it with what only
//! their protocols ask: [`super::GoPlayer`] (analysis, ownership, cleanup, pondering) and
//! [`super::GomokuPlayer`] (SWAP2, search progress, player options). Tic-tac-toe asks
//! nothing more: its sessions and terminal game hold a `Player<Board>`, and [`TttPlayer`] is
//! how its levels are written, each a [`Player`] through the wrapper below. Levels are made by [`mnk_level`] (gomoku-family boards, tic-tac-toe included) and
//! [`go_level`].

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::go::go_player;
use super::gomoku_player;
use super::ttt::{ttt_player, TttPlayer};
use crate::rules::go::GoGame;
use crate::rules::{Board, Position};
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

/// A tic-tac-toe level as a [`Player`].
struct TttLevel(Box<dyn TttPlayer>);

impl Player<Board> for TttLevel {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn set_seed(&mut self, seed: u64) {
        self.0.set_seed(seed)
    }
    fn new_game(&mut self, _start: &Board) {}
    fn decide(
        &mut self,
        pos: &Board,
        _tm: &TimeManager<'_>,
    ) -> Option<Decision<crate::rules::Pos>> {
        self.0.choose(pos).map(Decision::Play)
    }
}

/// The level `level` (case-insensitive) of a gomoku-family game, seeded with `seed`: a
/// tic-tac-toe level when `ttt`, a gomoku one otherwise.
pub fn mnk_level(ttt: bool, level: &str, seed: u64) -> Option<Box<dyn Player<Board>>> {
    if ttt {
        Some(Box::new(TttLevel(ttt_player(level, seed)?)))
    } else {
        Some(gomoku_player(level, seed)?)
    }
}

/// The Go level `level` (case-insensitive), seeded with `seed`.
pub fn go_level(level: &str, seed: u64) -> Option<Box<dyn Player<GoGame>>> {
    Some(go_player(level, seed)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn every_games_level_answers_through_the_one_interface() {
        let limit = SearchLimit {
            nodes: Some(200),
            ..SearchLimit::default()
        };
        let mut board = Board::with_k(3, 3, 3, Rule::Freestyle);
        let mut p = mnk_level(true, "perfect", 1).unwrap();
        p.new_game(&board);
        while board.outcome().is_none() {
            let Some(Decision::Play(mv)) =
                decide_with_limit(p.as_mut(), &board, &limit, Instant::now())
            else {
                panic!("no move on a live board");
            };
            Position::play(&mut board, mv).unwrap();
        }
        // Perfect play against itself draws.
        assert_eq!(board.outcome(), Some(crate::rules::Outcome::Draw));

        let board = Board::new(15, 15, Rule::Freestyle).unwrap();
        let mut p = mnk_level(false, "strong", 1).unwrap();
        p.new_game(&board);
        let d = decide_with_limit(p.as_mut(), &board, &limit, Instant::now());
        assert!(matches!(d, Some(Decision::Play(mv)) if board.check(mv).is_ok()));
        assert!(mnk_level(false, "perfect", 1).is_none());

        let game = GoGame::new(9, 9, Default::default()).unwrap();
        let mut p = go_level("heuristic", 1).unwrap();
        assert_eq!(p.name(), "heuristic");
        p.new_game(&game);
        let d = decide_with_limit(p.as_mut(), &game, &limit, Instant::now());
        assert!(matches!(d, Some(Decision::Play(mv)) if game.check(mv, game.to_move()).is_ok()));
    }
}
