//! The rule map of SEEDS 001 (docs/sources.md; `RB_StoneCount`): a value for every empty point
//! from the runs of adjacent same-colour stones in the 8 directions, for the side to move's own
//! stones (attack) and the opponent's (defence). The learning player adds its learned map to this
//! one and plays the argmax.
//!
//! # Our reading of 001
//!
//! 001 says only that the value is "based on the number of mutually adjacent stones of the same
//! colour in each of the 8 directions, for the empty point taken as a black and as a white
//! stone". We read it as follows and keep nothing else (no open/closed ends, no gaps, no search):
//!
//! * For a colour `c` and each of the 8 directions, `run` is the number of consecutive `c`
//!   stones starting right next to the point (an empty point, the other colour or the edge ends
//!   it).
//! * Opposite directions lie on one line: a `c` stone on the point would join
//!   `n = run(d) + run(-d)` stones into one line, capped at 4 (4 means it makes five or more).
//! * Each of the 4 lines adds `OWN[n_own] + OPP[n_opp]`:
//!
//! ```text
//!   n (stones joined)      0    1    2    3    4 (five)
//!   OWN  (attack)          0    2    8   32   128
//!   OPP  (defence)         0    1    4   16    64
//! ```
//!
//! One more stone in a line is worth 4 times as much (so one longer line outweighs up to three
//! shorter ones), and attack is worth twice defence, so a point that makes our five beats one
//! that blocks theirs, and blocking their five beats making our four. These weights are our
//! choice: 001 gives none. The learned reward of 001 (10) sits between "join two own stones"
//! (8) and "block three" (16): a learned point wins close calls but not over a five or a block
//! of one.
//!
//! [`RuleWeights::LINEAR`] is the most literal reading instead: the value is the plain count
//! of adjacent stones, own and opponent alike (`n` per line). It knows nothing of fives, so it
//! misses wins and blocks, and a learned reward of 10 outweighs almost any rule value; it is
//! offered to show what 001's learning does when the rule map has such holes.

use crate::rules::{Board, Cell, Color, Pos};

/// Attack values by stones joined in one line (index capped at 4).
pub const OWN: [i32; 5] = [0, 2, 8, 32, 128];
/// Defence values by opponent stones joined in one line (index capped at 4).
pub const OPP: [i32; 5] = [0, 1, 4, 16, 64];

/// Line values by stones joined (index capped at 4), for own and opponent stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleWeights {
    /// Attack: own stones joined.
    pub own: [i32; 5],
    /// Defence: opponent stones joined.
    pub opp: [i32; 5],
}

impl RuleWeights {
    /// Our default reading: 4x per stone, attack twice defence ([`OWN`], [`OPP`]).
    pub const STEEP: RuleWeights = RuleWeights { own: OWN, opp: OPP };
    /// The literal reading: the count itself, own and opponent alike.
    pub const LINEAR: RuleWeights = RuleWeights {
        own: [0, 1, 2, 3, 4],
        opp: [0, 1, 2, 3, 4],
    };

    /// Parses `steep` or `linear`.
    pub fn from_name(s: &str) -> Option<RuleWeights> {
        match s.to_ascii_lowercase().as_str() {
            "steep" => Some(RuleWeights::STEEP),
            "linear" => Some(RuleWeights::LINEAR),
            _ => None,
        }
    }

    /// The name [`RuleWeights::from_name`] reads (`custom` for other tables).
    pub fn name(&self) -> &'static str {
        if *self == RuleWeights::STEEP {
            "steep"
        } else if *self == RuleWeights::LINEAR {
            "linear"
        } else {
            "custom"
        }
    }
}

impl Default for RuleWeights {
    fn default() -> Self {
        RuleWeights::STEEP
    }
}

/// Consecutive stones of `cell` starting next to `p` along `dir` (at most 4 counted).
#[inline]
fn run(board: &Board, p: Pos, dir: isize, cell: Cell) -> usize {
    let mut n = 0;
    let mut q = p.step(dir, 1);
    while n < 4 && board.cell(q) == cell {
        n += 1;
        q = q.step(dir, 1);
    }
    n
}

/// The rule-map value of the empty point `p` for `me` to move, with the default weights.
pub fn point_value(board: &Board, p: Pos, me: Color) -> i32 {
    weighted_value(board, p, me, &RuleWeights::STEEP)
}

/// The rule-map value of the empty point `p` for `me` to move under `w`.
pub fn weighted_value(board: &Board, p: Pos, me: Color, w: &RuleWeights) -> i32 {
    let own = me.cell();
    let opp = me.opponent().cell();
    let mut v = 0;
    for dir in board.dirs() {
        let n_own = (run(board, p, dir, own) + run(board, p, -dir, own)).min(4);
        let n_opp = (run(board, p, dir, opp) + run(board, p, -dir, opp)).min(4);
        v += w.own[n_own] + w.opp[n_opp];
    }
    v
}

/// Fills `values` (indexed by [`Pos::idx`], at least [`Board::array_len`] long) with the rule map
/// for `me` under `w`: the value of every empty point, 0 everywhere else.
pub fn rule_map(board: &Board, me: Color, w: &RuleWeights, values: &mut [i32]) {
    values[..board.array_len()].fill(0);
    for p in board.empty_points() {
        values[p.idx()] = weighted_value(board, p, me, w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    /// A 13x13 board with stones at (x, y, colour) placed without changing the side to move.
    fn board(stones: &[(i64, i64, Color)], to_move: Color) -> Board {
        let mut b = Board::new(13, 13, Rule::Freestyle).unwrap();
        for &(x, y, c) in stones {
            b.place(b.pos(x, y).unwrap(), c);
        }
        b.set_to_move(to_move);
        b
    }

    fn value(b: &Board, x: i64, y: i64) -> i32 {
        point_value(b, b.pos(x, y).unwrap(), b.to_move())
    }

    #[test]
    fn lonely_points_are_worth_nothing() {
        let b = board(&[(6, 6, Color::Black)], Color::White);
        assert_eq!(value(&b, 0, 0), 0);
        assert_eq!(value(&b, 6, 8), 0, "two away is not adjacent");
    }

    #[test]
    fn one_neighbour_in_each_role() {
        // White to move next to one black stone: defence 1 on one line.
        let b = board(&[(6, 6, Color::Black)], Color::White);
        assert_eq!(value(&b, 7, 7), OPP[1]);
        assert_eq!(value(&b, 5, 6), OPP[1]);
        // Black to move next to its own stone: attack 2.
        let b = board(&[(6, 6, Color::Black)], Color::Black);
        assert_eq!(value(&b, 6, 5), OWN[1]);
    }

    #[test]
    fn opposite_directions_join_into_one_line() {
        // X X . X X on row 6: the gap joins four -> five.
        let stones = [
            (2, 6, Color::Black),
            (3, 6, Color::Black),
            (5, 6, Color::Black),
            (6, 6, Color::Black),
        ];
        let b = board(&stones, Color::Black);
        assert_eq!(value(&b, 4, 6), OWN[4]);
        let b = board(&stones, Color::White);
        assert_eq!(value(&b, 4, 6), OPP[4]);
        // The end of the row of two: joins two.
        let b = board(&stones, Color::Black);
        assert_eq!(value(&b, 1, 6), OWN[2]);
    }

    #[test]
    fn runs_stop_at_the_other_colour_and_the_edge() {
        // O X X at the left edge, row 0: the point right of them joins two black stones; the
        // white stone beyond does not count for black.
        let b = board(
            &[
                (0, 0, Color::White),
                (1, 0, Color::Black),
                (2, 0, Color::Black),
            ],
            Color::Black,
        );
        assert_eq!(value(&b, 3, 0), OWN[2]);
        // (0, 1) touches white (0,0) above and black (1,0) diagonally: one line each.
        assert_eq!(value(&b, 0, 1), OPP[1] + OWN[1]);
    }

    #[test]
    fn all_eight_directions_and_both_colours_add_up() {
        // Black on the 4 lines through (6,6) on one side, white on the other side.
        let mut stones = Vec::new();
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            stones.push((6 + dx, 6 + dy, Color::Black));
            stones.push((6 - dx, 6 - dy, Color::White));
        }
        let b = board(&stones, Color::Black);
        assert_eq!(value(&b, 6, 6), 4 * (OWN[1] + OPP[1]));
        let mut map = vec![0; b.array_len()];
        rule_map(&b, Color::Black, &RuleWeights::STEEP, &mut map);
        assert_eq!(map[b.pos(6, 6).unwrap().idx()], 4 * (OWN[1] + OPP[1]));
        rule_map(&b, Color::Black, &RuleWeights::LINEAR, &mut map);
        assert_eq!(
            map[b.pos(6, 6).unwrap().idx()],
            8,
            "one stone in each of 8 directions"
        );
        assert_eq!(map[b.pos(7, 6).unwrap().idx()], 0, "occupied points stay 0");
    }

    #[test]
    fn overlines_count_as_five() {
        let stones: Vec<_> = (0..6)
            .filter(|&x| x != 3)
            .map(|x| (x, 2, Color::White))
            .collect();
        let b = board(&stones, Color::White);
        assert_eq!(value(&b, 3, 2), OWN[4]);
    }
}
