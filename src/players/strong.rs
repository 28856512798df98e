//! `strong`: the default search player. Being written.

use super::{GomokuPlayer, MoveRequest};
use crate::rules::{Board, Pos};

/// The default player.
pub struct Strong;

impl Strong {
    /// A new player.
    pub fn new() -> Strong {
        Strong
    }
}

impl Default for Strong {
    fn default() -> Self {
        Strong::new()
    }
}

impl GomokuPlayer for Strong {
    fn name(&self) -> &'static str {
        "strong"
    }
    fn choose(&mut self, board: &Board, _req: &mut MoveRequest<'_, '_>) -> Option<Pos> {
        board.empty_points().find(|&p| board.check(p).is_ok())
    }
}
