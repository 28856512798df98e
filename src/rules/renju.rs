//! Renju forbidden points for black: double three, double four, overline.

use std::fmt;

use crate::rules::mnk::{Board, Pos};

/// Why black may not play a point.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Forbidden {
    DoubleThree,
    DoubleFour,
    Overline,
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Forbidden::DoubleThree => "double three",
            Forbidden::DoubleFour => "double four",
            Forbidden::Overline => "overline",
        })
    }
}

/// Whether black playing the empty point `p` is forbidden, and why. A move that makes exactly
/// five is never forbidden.
pub fn forbidden(_board: &Board, _p: Pos) -> Option<Forbidden> {
    // Being written (helper): full recursive false-three test.
    None
}
