//! [`Color`]: the two sides of every game sente plays (gomoku, tic-tac-toe and Go alike), black
//! first.

use crate::rules::Cell;

/// A player's colour; black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Color {
    Black = 1,
    White = 2,
}

impl Color {
    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// 0 for black, 1 for white: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize - 1
    }
    /// `black` or `white`, as GTP and the messages name the colour.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
    /// The cell holding a stone of this colour.
    #[inline]
    pub fn cell(self) -> Cell {
        match self {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}
