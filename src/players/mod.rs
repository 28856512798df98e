//! Named, selectable players (levels), all behind one [`Player`] over the game's
//! [`crate::rules::Position`]; the gomoku and Go traits extend it with what only their
//! protocols ask; [`mnk_level`] and [`go_level`] make any level behind it. A player turns a
//! position and a time manager into a move;
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
pub use go::{go_player, GoDecision, GoPlayer, GoRequest, GO_LEVELS};
pub use player::{Decision, Player};

use crate::rules::game::{GameName, GamePosition};
use crate::rules::go::GoGame;
use crate::rules::{Board, Color, Pos};
use crate::search::clock::TimeManager;

/// A request for one move.
pub struct MoveRequest<'r, 's> {
    /// Deadlines, node budget and the stop flag.
    pub tm: &'r TimeManager<'s>,
    /// How many best moves to report (YXNBEST); 1 for normal play.
    pub nbest: usize,
    /// Points not to answer while another legal point exists (YXBLOCK, an analysis's ruled-out
    /// moves); a player that cannot honour it leaves it to its caller (the Gomocup session
    /// never plays one).
    pub excluded: &'r [Pos],
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
        excluded: &[],
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

/// The level `level` (case-insensitive) of a gomoku-family game, seeded with `seed`: a
/// tic-tac-toe level when `ttt`, a gomoku one otherwise.
pub fn mnk_level(ttt: bool, level: &str, seed: u64) -> Option<Box<dyn Player<Board>>> {
    if ttt {
        ttt::ttt_player(level, seed)
    } else {
        Some(gomoku_player(level, seed)?)
    }
}

/// The Go level `level` (case-insensitive), seeded with `seed`.
pub fn go_level(level: &str, seed: u64) -> Option<Box<dyn Player<GoGame>>> {
    Some(go_player(level, seed)?)
}

/// What to do with a level of whichever game (the arena's in-process engines).
pub trait LevelVisitor {
    /// What the visit gives.
    type Out;
    /// Does the work with `player`, a level of the game whose positions are `P`.
    fn visit<P: GamePosition>(self, player: Box<dyn Player<P>>) -> Self::Out;
}

/// Hands the level `level` (case-insensitive) of `game`, seeded with `seed`, to `visitor`;
/// `None` when the game has no such level. The one place a game's name meets its levels: a new
/// game adds its arm here.
pub fn with_level<V: LevelVisitor>(
    game: GameName,
    level: &str,
    seed: u64,
    visitor: V,
) -> Option<V::Out> {
    Some(match game {
        GameName::Gomoku | GameName::Renju | GameName::Ttt => {
            visitor.visit(mnk_level(game == GameName::Ttt, level, seed)?)
        }
        GameName::Go => visitor.visit(go_level(level, seed)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::player::decide_with_limit;
    use crate::rules::{Position, Rule};
    use crate::search::clock::SearchLimit;
    use std::time::Instant;

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
