//! `classic`: the seed's gomoku AI (SEEDS 003). Being written.

use super::{GomokuPlayer, MoveRequest};
use crate::rules::{Board, Pos};

/// The seed's window-scoring player.
pub struct Classic;

impl Classic {
    /// A new player.
    pub fn new() -> Classic {
        Classic
    }
}

impl Default for Classic {
    fn default() -> Self {
        Classic::new()
    }
}

impl GomokuPlayer for Classic {
    fn name(&self) -> &'static str {
        "classic"
    }
    fn choose(&mut self, board: &Board, _req: &mut MoveRequest<'_, '_>) -> Option<Pos> {
        board.empty_points().find(|&p| board.check(p).is_ok())
    }
}
