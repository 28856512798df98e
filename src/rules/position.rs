//! [`Position`]: what every game offers the layers above, whatever its board. Play a checked
//! move, take it back, list the legal moves, read the outcome and the hash: enough for a
//! referee, a terminal game, a generic player or a perft count to run any game without
//! knowing which. Implemented by the gomoku-family [`Board`] (gomoku, renju, caro, and
//! tic-tac-toe as the 3x3 board with three in a row) and by the Go [`GoGame`].
//!
//! This is the checked path for untrusted moves and for code outside the search. The searches
//! keep their own unchecked entry points (`Board::play_unchecked`, the Go board's `play_raw`)
//! and are generic or concrete over the board, never behind this trait as an object.

use std::fmt;

use crate::rules::go::{score_detail, GoGame, GoMove, IllegalMove};
use crate::rules::{Board, Color, MoveError};

/// How a finished game ended: the one result type of every game and every tool (the referee,
/// self-play records, the studies); why it ended is the caller's to keep beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This colour won.
    Win(Color),
    /// Nobody did.
    Draw,
}

impl Outcome {
    /// Every outcome, in [`Outcome::index`] order.
    pub const ALL: [Outcome; 3] = [
        Outcome::Win(Color::Black),
        Outcome::Win(Color::White),
        Outcome::Draw,
    ];
    /// The winning colour, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win(c) => Some(c),
            Outcome::Draw => None,
        }
    }
    /// 0 for black's win, 1 for white's, 2 for a draw: a slot in counts kept per outcome.
    pub fn index(self) -> usize {
        match self {
            Outcome::Win(Color::Black) => 0,
            Outcome::Win(Color::White) => 1,
            Outcome::Draw => 2,
        }
    }
    /// What the game scores for `c`: 1 a win, 0.5 a draw, 0 a loss.
    pub fn score_for(self, c: Color) -> f32 {
        match self.winner() {
            None => 0.5,
            Some(w) if w == c => 1.0,
            Some(_) => 0.0,
        }
    }
    /// `1-0`, `0-1`, `1/2-1/2` with black as the first player, as game records write it.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::Win(Color::Black) => "1-0",
            Outcome::Win(Color::White) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
    /// The outcome [`Outcome::pgn`] writes as `s`.
    pub fn from_pgn(s: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.pgn() == s)
    }
}

/// A game position behind one interface.
pub trait Position: Clone + Send {
    /// One move of this game.
    type Move: Copy + Eq + fmt::Debug + Send;
    /// Why a move was refused.
    type Error: fmt::Display + fmt::Debug;

    /// The side to move.
    fn to_move(&self) -> Color;
    /// Plays `mv` for the side to move if the rules allow it; on error nothing changes.
    fn play(&mut self, mv: Self::Move) -> Result<(), Self::Error>;
    /// Takes back the last move; false when there is none.
    fn undo(&mut self) -> bool;
    /// Every move the side to move may make; none once the game is over.
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// The result once the game is over by its rules, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// A hash of the position (stones and side to move where the game keys it).
    fn hash(&self) -> u64;
    /// The moves played so far with who played each, oldest first (set-up stones excluded).
    fn record(&self) -> &[(Self::Move, Color)];
}

/// Gomoku, renju, caro, tic-tac-toe: a move is a point, the game ends with a line (won) or a
/// full board (drawn).
impl Position for Board {
    type Move = crate::rules::Pos;
    type Error = MoveError;

    fn to_move(&self) -> Color {
        Board::to_move(self)
    }
    fn play(&mut self, mv: Self::Move) -> Result<(), MoveError> {
        Board::play(self, mv).map(|_| ())
    }
    fn undo(&mut self) -> bool {
        Board::undo(self).is_some()
    }
    fn legal_moves(&self) -> Vec<Self::Move> {
        self.empty_points()
            .filter(|&p| self.check(p).is_ok())
            .collect()
    }
    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(c) => Some(Outcome::Win(c)),
            None => self.is_full().then_some(Outcome::Draw),
        }
    }
    fn hash(&self) -> u64 {
        Board::hash(self)
    }
    fn record(&self) -> &[(Self::Move, Color)] {
        self.history()
    }
}

/// Go: a move is a point or a pass; the game ends with two passes in a row, counted as it
/// stands (every stone alive, the game's komi and scoring). Deciding dead stones is a
/// player's estimate, not the rules', so a referee that wants it counts for itself.
impl Position for GoGame {
    type Move = GoMove;
    type Error = IllegalMove;

    fn to_move(&self) -> Color {
        GoGame::to_move(self)
    }
    fn play(&mut self, mv: GoMove) -> Result<(), IllegalMove> {
        GoGame::play(self, mv, GoGame::to_move(self))
    }
    fn undo(&mut self) -> bool {
        GoGame::undo(self)
    }
    fn legal_moves(&self) -> Vec<GoMove> {
        if self.consecutive_passes() >= 2 {
            return Vec::new();
        }
        let color = GoGame::to_move(self);
        let b = self.board();
        let mut out: Vec<GoMove> = b
            .points()
            .filter(|&p| b.is_empty(p) && self.is_legal(p, color))
            .map(GoMove::Play)
            .collect();
        out.push(GoMove::Pass);
        out
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.consecutive_passes() < 2 {
            return None;
        }
        let score = score_detail(self.board(), &[], self.rules()).score;
        Some(if score > 0.0 {
            Outcome::Win(Color::Black)
        } else if score < 0.0 {
            Outcome::Win(Color::White)
        } else {
            Outcome::Draw
        })
    }
    fn hash(&self) -> u64 {
        let stones = self.board().hash();
        match GoGame::to_move(self) {
            Color::Black => stones,
            Color::White => !stones,
        }
    }
    fn record(&self) -> &[(GoMove, Color)] {
        self.moves()
    }
}

/// Move sequences `depth` long from `pos` (a perft count): a game that ends sooner is not
/// continued and counts nothing.
pub fn perft<P: Position>(pos: &mut P, depth: u32) -> u64 {
    if depth == 0 || pos.outcome().is_some() {
        return u64::from(depth == 0);
    }
    let mut n = 0;
    for mv in pos.legal_moves() {
        if pos.play(mv).is_ok() {
            n += perft(pos, depth - 1);
            pos.undo();
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::GoRules;
    use crate::rules::Rule;

    /// Plays the first legal move `n` times, checking that undo restores the hash each time.
    fn walk_and_return<P: Position>(mut pos: P, n: usize) -> P {
        let mut hashes = Vec::new();
        for _ in 0..n {
            let Some(&mv) = pos.legal_moves().first() else {
                break;
            };
            hashes.push(pos.hash());
            pos.play(mv).expect("a listed move is legal");
        }
        while let Some(h) = hashes.pop() {
            assert!(pos.undo());
            assert_eq!(pos.hash(), h);
        }
        assert!(!pos.undo());
        pos
    }

    #[test]
    fn tic_tac_toe_perft_counts_are_exact() {
        // The first wins come at the 5th move (1 440 of the 15 120 sequences), and the games
        // they end are not continued: 13 680 x 4 sequences of six moves.
        let mut b = Board::with_k(3, 3, 3, Rule::Freestyle);
        let counts: Vec<u64> = (1..=4).map(|d| perft(&mut b, d)).collect();
        assert_eq!(counts, [9, 72, 504, 3024]);
        assert_eq!(perft(&mut b, 5), 15120);
        assert_eq!(perft(&mut b, 6), 54720);
    }

    #[test]
    fn every_game_plays_and_undoes_through_the_trait() {
        let b = walk_and_return(Board::new(15, 15, Rule::Renju).unwrap(), 30);
        assert!(b.record().is_empty());
        let g = walk_and_return(GoGame::new(5, 5, GoRules::default()).unwrap(), 40);
        assert!(g.record().is_empty());
    }

    #[test]
    fn outcomes() {
        let mut b = Board::with_k(3, 3, 3, Rule::Freestyle);
        for sq in [0usize, 3, 1, 4, 2] {
            let p = b.pos((sq % 3) as i64, (sq / 3) as i64).unwrap();
            Position::play(&mut b, p).unwrap();
        }
        assert_eq!(b.outcome(), Some(Outcome::Win(Color::Black)));
        assert!(b.legal_moves().is_empty());
        let mut g = GoGame::new(5, 5, GoRules::default()).unwrap();
        Position::play(&mut g, GoMove::Pass).unwrap();
        assert_eq!(g.outcome(), None);
        Position::play(&mut g, GoMove::Pass).unwrap();
        // An empty board: komi decides.
        assert_eq!(g.outcome(), Some(Outcome::Win(Color::White)));
        assert!(g.legal_moves().is_empty());
    }

    #[test]
    fn outcomes_have_distinct_slots_and_record_text() {
        for (i, o) in Outcome::ALL.into_iter().enumerate() {
            assert_eq!(o.index(), i);
            assert_eq!(Outcome::from_pgn(o.pgn()), Some(o));
        }
        assert_eq!(Outcome::from_pgn("1-1"), None);
        assert_eq!(Outcome::Win(Color::White).score_for(Color::Black), 0.0);
        assert_eq!(Outcome::Draw.score_for(Color::White), 0.5);
    }
}
