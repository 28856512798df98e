//! Game physics and law: boards, win tests, forbidden points, the tic-tac-toe grid, and the
//! [`Position`] interface every game offers. No search, no I/O.

pub mod color;
pub mod game;
pub mod go;
pub mod gomoku;
pub mod mnk;
pub mod notation;
pub mod position;
pub mod sgf_write;
pub mod splitmix;
pub mod text;
pub mod ttt;

pub use color::Color;
pub use mnk::board::{Board, Cell, Pos};
pub use mnk::legal::MoveError;
pub use mnk::rule::Rule;
pub use position::{Outcome, Position};
