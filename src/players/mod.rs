//! Named, selectable players (levels), all behind one [`Player`] over the game's
//! [`crate::rules::Position`]; the gomoku and Go traits extend it with what only their
//! protocols ask. A player turns a position and a time manager into a move;
//! it never prints: progress goes out through the `report` callback as [`SearchInfo`] values that
//! the protocol layer formats (Gomocup `MESSAGE`, GTP `info`).

pub mod classic;
pub mod go;
pub mod kernel_file;
pub mod learner;
pub mod player;
pub mod strong;
pub mod swap2;
pub mod ttt;

use std::path::Path;

use rand_chacha::ChaCha8Rng;

/// What a player reports while it thinks (defined by the search that fills it).
pub use crate::search::SearchInfo;
pub use go::{go_player, GoCandidate, GoDecision, GoPlayer, GoRequest, GO_LEVELS};
pub use player::{Decision, Player};

use crate::rules::{Board, Color, Pos};
use crate::search::clock::TimeManager;

/// A request for one move.
pub struct MoveRequest<'r, 's> {
    /// Deadlines, node budget and the stop flag.
    pub tm: &'r TimeManager<'s>,
    /// How many best moves to report (YXNBEST); 1 for normal play.
    pub nbest: usize,
    /// Receives progress; called from the searching thread.
    pub report: &'r mut dyn FnMut(&SearchInfo),
}

/// A gomoku-family player (any rule, any board size): the one [`Player`] interface (name, seed,
/// memory, threads, new game, a quiet decision through [`decide_quietly`]) and what the
/// Gomocup protocol asks besides.
pub trait GomokuPlayer: Player<Board> {
    /// Called when a rule is set up (outside any move's clock; a new game's start calls it
    /// for its own rule): build whatever the player needs for `rule` ahead of the first search.
    fn prepare(&mut self, _rule: crate::rules::Rule) {}
    /// The move to play for the side to move, or `None` when no legal point exists.
    fn choose(&mut self, board: &Board, req: &mut MoveRequest<'_, '_>) -> Option<Pos>;
    /// The Gomocup `INFO folder`: a directory for persistent files (a player that keeps any
    /// makes its own sub-folder there).
    fn set_folder(&mut self, _dir: &Path) {}
    /// The file a learning player keeps its memory in (`--memory PATH`); outranks the folder.
    fn set_memory_file(&mut self, _file: &Path) {}
    /// A player-specific setting (`INFO key value` the session does not know, or a command-line
    /// option): `None` when the key is not this player's, else whether the value was accepted.
    fn set_option(&mut self, _key: &str, _value: &str) -> Option<Result<(), String>> {
        None
    }
    /// The game on `board` is over or abandoned; we played `ours`. The board is the last
    /// position the session saw: its winner is set when the winning move was seen (our own, or
    /// the opponent's if the manager sent it), and unknown otherwise (Gomocup managers do not
    /// send the move that beats us).
    fn game_over(&mut self, _board: &Board, _ours: Color) {}
    /// SWAP2 on an empty board: the three opening stones (black, white, black) to propose, as
    /// (x, y), drawn with `rng` (the session's seeded generator, so a seed replays the game).
    fn swap2_opening(&mut self, board: &Board, rng: &mut ChaCha8Rng) -> Vec<(usize, usize)> {
        swap2::balanced_opening(board, rng)
    }
    /// SWAP2 with 3 or 5 stones, after a search with white to move: whether to take black
    /// (answer `SWAP`), given that search's last report.
    fn swap2_takes_black(&mut self, white: Option<&SearchInfo>) -> bool {
        swap2::white_is_lost(white)
    }
}

/// [`Player::decide`] for every gomoku player: its choice for the side to move, one best
/// move, no reports.
pub fn decide_quietly<G: GomokuPlayer + ?Sized>(
    player: &mut G,
    board: &Board,
    tm: &TimeManager<'_>,
) -> Option<Decision<Pos>> {
    let mut sink = |_: &SearchInfo| {};
    let mut req = MoveRequest {
        tm,
        nbest: 1,
        report: &mut sink,
    };
    player.choose(board, &mut req).map(Decision::Play)
}

/// The gomoku levels, strongest first; the first is the default.
pub const GOMOKU_LEVELS: &[(&str, &str)] = &[
    (
        "strong",
        "iterative-deepening PVS with patterns, transposition table and threat search (default)",
    ),
    (
        "strong-hand",
        "strong's search over the hand-set pattern values instead of the tables fitted to \
         self-play (what strong was before them)",
    ),
    (
        "classic",
        "scores every 5-cell stretch of every line (fives, fours, threes, twos, for both sides), \
         looks two moves ahead with alpha-beta; wins or blocks a five at once",
    ),
    (
        "learner",
        "weighs each point by the runs of stones next to it, plus board patterns learned from the \
         end of its finished games, remembered across games (weak by design: no search)",
    ),
];

/// Makes the gomoku player named `level` (case-insensitive), seeded with `seed`.
pub fn gomoku_player(level: &str, seed: u64) -> Option<Box<dyn GomokuPlayer>> {
    let mut player: Box<dyn GomokuPlayer> = match level.to_ascii_lowercase().as_str() {
        "strong" | "default" => Box::new(strong::Strong::new()),
        "strong-hand" => Box::new(strong::Strong::hand()),
        "classic" => Box::new(classic::Classic::new()),
        "learner" => Box::new(learner::Learner::new()),
        _ => return None,
    };
    player.set_seed(seed);
    Some(player)
}
