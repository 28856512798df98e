//! Go: board physics ([`board`]), the law and history of a game ([`game`]: ko, superko, undo,
//! handicap), counting ([`mod@score`]: area, territory; [`seki`]) and KataGo's names for rule sets
//! ([`kata_rules`]). No search, no I/O.
//!
//! The split follows KataGo: the board only knows captures and the simple-ko point; the game
//! keeps the history of position hashes for superko and the board before every move for undo;
//! a [`GoRules`] value carries komi, ko rule, suicide and scoring.

pub mod board;
pub mod game;
pub mod kata_rules;
pub mod nbr3;
pub mod record;
pub mod score;
pub mod seki;

use std::fmt;

use crate::rules::notation::{gtp_point_name, parse_gtp_point};

pub use crate::rules::Color;
pub use board::{GoBoard, GoMove, Point, SizeError, COLUMNS, MAX_SIDE, MIN_SIDE};
pub use game::GoGame;
pub use score::{margin_text, score, score_detail, score_detail_taxed, ScoreDetail};

/// Which repetitions are forbidden.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum KoRule {
    /// Only the immediate recapture of a single stone.
    Simple,
    /// No move may recreate an earlier board position (Chinese rules, GNU Go's
    /// `--positional-superko`).
    #[default]
    PositionalSuperko,
    /// No move may recreate an earlier position with the same player to move.
    SituationalSuperko,
}

/// How the result is counted.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum Scoring {
    /// Stones plus surrounded empty points (Chinese; what gomill's internal scorer does).
    #[default]
    Area,
    /// Surrounded empty points plus prisoners (Japanese).
    Territory,
}

/// Which points a count leaves out (KataGo's `tax`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum Tax {
    /// Every empty region bordered by one colour counts for it.
    #[default]
    None,
    /// Empty regions bordered by a group in seki count for nobody (the Japanese and Korean
    /// rule: no territory in seki).
    Seki,
}

/// Points white receives for black's handicap stones (KataGo's `whiteHandicapBonus`), as
/// Chinese (N) and AGA (N-1) area counting give them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum HandicapBonus {
    /// Nothing (Japanese rules, Tromp-Taylor, GNU Go, gomill's scorer).
    #[default]
    Zero,
    /// One point per handicap stone but one.
    NMinusOne,
    /// One point per handicap stone.
    N,
}

impl HandicapBonus {
    /// White's bonus for `stones` handicap stones: nothing for fewer than two (a single black
    /// stone placed before white's first move is no handicap, as KataGo counts it).
    pub fn points(self, stones: usize) -> f32 {
        if stones < 2 {
            return 0.0;
        }
        match self {
            HandicapBonus::Zero => 0.0,
            HandicapBonus::NMinusOne => (stones - 1) as f32,
            HandicapBonus::N => stones as f32,
        }
    }
}

/// The rules of a game. The default is what the GNU Go ladder of the issue plays: Chinese
/// (area) counting, komi 7.5, positional superko, no suicide, no seki tax, no handicap bonus.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct GoRules {
    /// Points given to white.
    pub komi: f32,
    pub ko: KoRule,
    pub scoring: Scoring,
    /// Whether suicide of a group is a legal move (it is not by default).
    pub suicide: bool,
    /// Regions the count leaves out.
    pub tax: Tax,
    /// White's compensation for handicap stones, on top of komi.
    pub handicap_bonus: HandicapBonus,
    /// Whether stones both sides leave dead on the board at the end are lifted before the
    /// count (KataGo's `friendlyPassOk`, true by default as GNU Go and gomill count). When
    /// false every stone on the board counts as alive (Tromp-Taylor), so dead stones must be
    /// captured before passing.
    pub friendly_pass: bool,
}

impl Default for GoRules {
    fn default() -> Self {
        GoRules {
            komi: 7.5,
            ko: KoRule::PositionalSuperko,
            scoring: Scoring::Area,
            suicide: false,
            tax: Tax::None,
            handicap_bonus: HandicapBonus::Zero,
            friendly_pass: true,
        }
    }
}

/// Why a move was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum IllegalMove {
    /// A stone is already there.
    Occupied,
    /// The stone would have no liberties and captures nothing.
    Suicide,
    /// Immediate recapture of a ko.
    Ko,
    /// The move would repeat an earlier position.
    Superko,
    /// The point is not on this board.
    OffBoard,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::Occupied => "point is occupied",
            IllegalMove::Suicide => "suicide is not allowed",
            IllegalMove::Ko => "ko: the stone cannot be retaken at once",
            IllegalMove::Superko => "superko: the move repeats an earlier position",
            IllegalMove::OffBoard => "point is off the board",
        })
    }
}

impl std::error::Error for IllegalMove {}

/// The GTP/showboard name of a point: column letter (no I) and row number from the bottom.
pub fn point_name(board: &GoBoard, p: Point) -> String {
    let (x, y) = board.xy(p);
    gtp_point_name(x, y).unwrap_or_else(|| format!("{x},{y}"))
}

/// The GTP name of a move (`PASS` for a pass).
pub fn move_name(board: &GoBoard, mv: GoMove) -> String {
    match mv {
        GoMove::Play(p) => point_name(board, p),
        GoMove::Pass => "PASS".to_string(),
    }
}

/// A `size` x `size` game with the `black` stones played, then the `white` ones (GTP vertices
/// separated by spaces, each colour playing on as often as it has stones): the set-up tests
/// of tactics build their positions so.
#[cfg(test)]
pub(crate) fn game_with_stones(size: usize, black: &str, white: &str) -> GoGame {
    let mut g = GoGame::new(size, size, GoRules::default()).expect("a board size");
    for (list, c) in [(black, Color::Black), (white, Color::White)] {
        for v in list.split_whitespace() {
            let p = parse_point(g.board(), v).expect("a vertex");
            g.play(GoMove::Play(p), c).expect("a legal stone");
        }
    }
    g
}

/// Parses a GTP vertex that must be a point (`D4`; not `pass`).
pub fn parse_point(board: &GoBoard, s: &str) -> Option<Point> {
    match parse_move(board, s)? {
        GoMove::Play(p) => Some(p),
        GoMove::Pass => None,
    }
}

/// Parses a GTP vertex ([`crate::rules::notation`]: `D4`, any case, no `I`, no leading zero);
/// `pass` gives [`GoMove::Pass`].
pub fn parse_move(board: &GoBoard, s: &str) -> Option<GoMove> {
    if s.eq_ignore_ascii_case("pass") {
        return Some(GoMove::Pass);
    }
    let (x, y) = parse_gtp_point(s)?;
    board.point(x, y).map(GoMove::Play)
}
