//! Game physics and law: boards, win tests, forbidden points. No search, no I/O.

pub mod go;
pub mod mnk;
pub mod renju;

pub use mnk::{Board, Cell, Color, MoveError, Pos, Rule};
