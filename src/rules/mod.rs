//! Game physics and law: boards, win tests, forbidden points, the tic-tac-toe grid, and the
//! [`Position`] interface every game offers. No search, no I/O.

pub mod game;
pub mod go;
pub mod mnk;
pub mod notation;
pub mod position;
pub mod renju;
pub mod text;
pub mod three_three;
pub mod ttt;

pub use mnk::{Board, Cell, Color, MoveError, Pos, Rule};
pub use position::{Outcome, Position};
