//! The m,n,k family as one Gomocup manager plays it: which board a `START` makes (3 x 3 is
//! tic-tac-toe, three in a row with no rule variants; 5..32 the gomoku family), and the
//! tic-tac-toe level that plays the 3 x 3 games beside the session's gomoku player, kept
//! apart so that `INFO level` switches only the game it names. The Gomocup session
//! (`session::gomoku`) asks here which game a board is and who plays it.

use crate::players::mnk_level;
use crate::players::ttt::TTT_LEVELS;
use crate::players::{Decision, Player};
use crate::rules::{Board, Pos, Rule};
use crate::search::clock::TimeManager;

/// The empty board a `START`/`RECTSTART` of this size asks for: 3 x 3 is tic-tac-toe, 5..32
/// the gomoku family under `rule`.
pub fn empty_board(width: usize, height: usize, rule: Rule) -> Result<Board, String> {
    if (width, height) == (3, 3) {
        return Ok(Board::with_k(3, 3, 3, Rule::Freestyle));
    }
    Board::new(width, height, rule).map_err(|e| format!("{e}; START 3 is tic-tac-toe"))
}

/// Whether `b` is a tic-tac-toe board rather than a gomoku one.
pub fn is_tic_tac_toe(b: &Board) -> bool {
    b.k() == 3
}

/// The names of the tic-tac-toe levels, the default first.
pub fn ttt_level_names() -> impl Iterator<Item = &'static str> {
    TTT_LEVELS.iter().map(|l| l.0)
}

/// Who plays a tic-tac-toe board in a Gomocup session.
pub struct TttLevel {
    player: Box<dyn Player<Board>>,
}

impl TttLevel {
    /// The tic-tac-toe level `name` (case-insensitive), seeded with `seed`; `None` when no
    /// tic-tac-toe level has that name.
    pub fn named(name: &str, seed: u64) -> Option<TttLevel> {
        mnk_level(true, name, seed).map(|player| TttLevel { player })
    }

    /// The default tic-tac-toe level, seeded with `seed`.
    pub fn default_level(seed: u64) -> TttLevel {
        TttLevel::named(TTT_LEVELS[0].0, seed).expect("the default tic-tac-toe level exists")
    }

    /// The level's name.
    pub fn name(&self) -> &'static str {
        self.player.name()
    }

    /// Reseeds every random choice of the level.
    pub fn set_seed(&mut self, seed: u64) {
        self.player.set_seed(seed);
    }

    /// The level's move on `board` within `tm`; `None` when it has none (a finished game).
    pub fn choose(&mut self, board: &Board, tm: &TimeManager<'_>) -> Option<Pos> {
        match self.player.decide(board, tm) {
            Some(Decision::Play(p)) => Some(p),
            Some(Decision::Resign) | None => None,
        }
    }
}
