//! The checked move on an m,n,k board: which stones the board accepts from outside (a
//! protocol, a terminal, the referee) and why it refuses the others. The board itself
//! ([`super::board`]) plays unchecked, as the search does; the refusals are the physical ones
//! (off the board, occupied, game over) and, for black on a five-in-a-row board, the forbidden
//! points of gomoku's law ([`crate::rules::gomoku`]).

use std::fmt;

use crate::rules::gomoku::{forbidden_for_black, Forbidden};
use crate::rules::{Board, Cell, Color, Pos};

/// Why a move was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// Coordinates outside the board.
    OffBoard,
    /// A stone is already there.
    Occupied,
    /// The point is walled off for the game ([`Board::block`]).
    Blocked,
    /// Black may not play here under the rule's law (renju, no-double-three).
    Forbidden(Forbidden),
    /// Someone has already won.
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::OffBoard => write!(f, "point is off the board"),
            MoveError::Occupied => write!(f, "point is occupied"),
            MoveError::Blocked => write!(f, "point is blocked (field 3)"),
            MoveError::Forbidden(kind) => write!(f, "forbidden point for black ({kind})"),
            MoveError::GameOver => write!(f, "the game is already over"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Board {
    /// Checks a move for the side to move without playing it.
    pub fn check(&self, p: Pos) -> Result<(), MoveError> {
        self.check_for(p, self.to_move())
    }

    /// Checks whether `color` may put a stone on `p`.
    pub fn check_for(&self, p: Pos, color: Color) -> Result<(), MoveError> {
        if p.idx() >= self.array_len() {
            return Err(MoveError::OffBoard);
        }
        if self.cell(p) == Cell::Wall {
            return Err(if self.blocked().contains(&p) {
                MoveError::Blocked
            } else {
                MoveError::OffBoard
            });
        }
        if self.cell(p) != Cell::Empty {
            return Err(MoveError::Occupied);
        }
        if self.winner().is_some() {
            return Err(MoveError::GameOver);
        }
        if color == Color::Black {
            if let Some(kind) = forbidden_for_black(self, p) {
                return Err(MoveError::Forbidden(kind));
            }
        }
        Ok(())
    }

    /// Plays a checked move for the side to move; returns whether it won.
    pub fn play(&mut self, p: Pos) -> Result<bool, MoveError> {
        self.check(p)?;
        Ok(self.play_unchecked(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn errors_leave_the_board_unchanged() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let p = b.pos(7, 7).unwrap();
        b.play(p).unwrap();
        let h = b.hash();
        assert_eq!(b.play(p), Err(MoveError::Occupied));
        assert_eq!(b.hash(), h);
        assert_eq!(b.stones(), 1);
        assert_eq!(b.to_move(), Color::White);
    }
}
