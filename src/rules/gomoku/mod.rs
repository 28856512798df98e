//! Gomoku's law: the points black may not play on a five-in-a-row board. [`renju`] is the RIF's
//! law (double three with false threes, double four, overline); [`three_three`] is the
//! no-double-three rule of the seed. The board they read is the m,n,k family's
//! ([`crate::rules::mnk`]), whose checked move asks [`forbidden_for_black`].

pub mod renju;
pub mod three_three;

use std::fmt;

use crate::rules::{Board, Pos, Rule};

/// Why black may not play a point.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Forbidden {
    /// Two or more real (open) threes at once.
    DoubleThree,
    /// Two or more fours at once (possibly in one line).
    DoubleFour,
    /// Six or more black stones in a row.
    Overline,
}

impl Forbidden {
    /// Short lower-case name (`double-three`, `double-four`, `overline`).
    pub fn name(self) -> &'static str {
        match self {
            Forbidden::DoubleThree => "double-three",
            Forbidden::DoubleFour => "double-four",
            Forbidden::Overline => "overline",
        }
    }
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

/// Whether black playing the empty point `p` is forbidden under the board's rule, and why:
/// renju's law, no-double-three's, or none for the other rules and for k != 5.
pub fn forbidden_for_black(board: &Board, p: Pos) -> Option<Forbidden> {
    match board.rule() {
        Rule::Renju => renju::forbidden(board, p),
        Rule::NoDoubleThree => three_three::forbidden(board, p),
        Rule::Freestyle | Rule::Standard | Rule::Caro | Rule::CaroStandard => None,
    }
}

/// Every empty point black may not play under the board's rule, row by row (the Gomocup
/// `YXSHOWFORBID` answer): renju's or no-double-three's; empty under other rules or k != 5.
pub fn forbidden_points(board: &Board) -> Vec<Pos> {
    match board.rule() {
        Rule::Renju => renju::every_forbidden(board),
        Rule::NoDoubleThree => board
            .empty_points()
            .filter(|&p| three_three::forbidden(board, p).is_some())
            .collect(),
        Rule::Freestyle | Rule::Standard | Rule::Caro | Rule::CaroStandard => Vec::new(),
    }
}
