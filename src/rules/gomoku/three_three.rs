//! The double-three rule of the gomoku of SEEDS 003 (docs/sources.md; rule `no-double-three`):
//! black may not make two or more open threes with one stone; nothing else is forbidden (four-four
//! and overlines are allowed, five or more wins for both sides), and a move that makes five is
//! always allowed.
//!
//! An **open three** here is a line in which one more black stone makes a straight four: a run
//! of exactly four black stones, through the new stone, with both ends empty (either end then
//! wins, an overline too). A line that is already a four (one more stone makes five) is not a
//! three. Unlike renju, a three is not re-examined for whether its straight-four point is itself
//! forbidden: the seed's `checkThreeThree` counts open threes made by the move, no more.

use crate::rules::gomoku::Forbidden;
use crate::rules::{Board, Cell, Pos};

/// Cells read on each side of the tested point: a three and its straight four lie within four
/// points of it, and a straight four's ends one further.
const REACH: usize = 5;

/// One direction through `p` as cells at offsets -REACH..=REACH, with `p` itself black.
fn line(board: &Board, p: Pos, dir: isize) -> [Cell; 2 * REACH + 1] {
    let mut cells = [Cell::Wall; 2 * REACH + 1];
    cells[REACH] = Cell::Black;
    for side in [-1isize, 1] {
        for k in 1..=REACH as isize {
            let q = p.step(dir, side * k);
            let c = board.cell(q);
            cells[(REACH as isize + side * k) as usize] = c;
            if c == Cell::Wall {
                break;
            }
        }
    }
    cells
}

/// The black run through index `at` of `cells`: (first, last) index.
fn run(cells: &[Cell], at: usize) -> (usize, usize) {
    let mut lo = at;
    while lo > 0 && cells[lo - 1] == Cell::Black {
        lo -= 1;
    }
    let mut hi = at;
    while hi + 1 < cells.len() && cells[hi + 1] == Cell::Black {
        hi += 1;
    }
    (lo, hi)
}

/// How the new stone at the centre of `cells` shapes this line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Shape {
    /// Five or more through the stone.
    Five,
    /// One more stone makes five.
    Four,
    /// One more stone makes a straight four.
    OpenThree,
    /// Anything else.
    Other,
}

fn shape(mut cells: [Cell; 2 * REACH + 1]) -> Shape {
    let (lo, hi) = run(&cells, REACH);
    if hi - lo + 1 >= 5 {
        return Shape::Five;
    }
    let mut open_three = false;
    for q in 1..cells.len() - 1 {
        if cells[q] != Cell::Empty || q.abs_diff(REACH) > 4 {
            continue;
        }
        cells[q] = Cell::Black;
        let (lo, hi) = run(&cells, REACH);
        cells[q] = Cell::Empty;
        let len = hi - lo + 1;
        if len >= 5 {
            return Shape::Four;
        }
        let joins = (lo..=hi).contains(&q);
        if joins && len == 4 && cells[lo - 1] == Cell::Empty && cells[hi + 1] == Cell::Empty {
            open_three = true;
        }
    }
    if open_three {
        Shape::OpenThree
    } else {
        Shape::Other
    }
}

/// Whether black playing the empty point `p` makes two or more open threes without making five
/// (`Some(DoubleThree)`), under the no-double-three rule. Occupied or off-board points and boards
/// with k != 5 give `None`; the board's rule is not consulted.
pub fn forbidden(board: &Board, p: Pos) -> Option<Forbidden> {
    if board.k() != 5 || p.idx() >= board.array_len() || board.cell(p) != Cell::Empty {
        return None;
    }
    let mut threes = 0;
    for dir in board.dirs() {
        match shape(line(board, p, dir)) {
            Shape::Five => return None,
            Shape::OpenThree => threes += 1,
            Shape::Four | Shape::Other => {}
        }
    }
    (threes >= 2).then_some(Forbidden::DoubleThree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Color, MoveError, Rule};

    /// A 15x15 no-double-three board with black and white stones, black to move.
    fn board(black: &[(i64, i64)], white: &[(i64, i64)]) -> Board {
        let mut b = Board::new(15, 15, Rule::NoDoubleThree).unwrap();
        for &(x, y) in black {
            b.place(b.pos(x, y).unwrap(), Color::Black);
        }
        for &(x, y) in white {
            b.place(b.pos(x, y).unwrap(), Color::White);
        }
        b.set_to_move(Color::Black);
        b
    }

    fn at(b: &Board, x: i64, y: i64) -> Option<Forbidden> {
        forbidden(b, b.pos(x, y).unwrap())
    }

    #[test]
    fn two_open_threes_are_forbidden() {
        // Horizontal _XX?_ and vertical _XX?_ meeting at (7,7).
        let b = board(&[(5, 7), (6, 7), (7, 5), (7, 6)], &[]);
        assert_eq!(at(&b, 7, 7), Some(Forbidden::DoubleThree));
        assert_eq!(
            b.check_for(b.pos(7, 7).unwrap(), Color::Black),
            Err(MoveError::Forbidden(Forbidden::DoubleThree))
        );
        // White is never restricted.
        assert_eq!(b.check_for(b.pos(7, 7).unwrap(), Color::White), Ok(()));
        // A split three counts: X_X? with both ends open, plus the vertical three.
        let b = board(&[(4, 7), (6, 7), (7, 5), (7, 6)], &[]);
        assert_eq!(at(&b, 7, 7), Some(Forbidden::DoubleThree));
    }

    #[test]
    fn a_blocked_three_is_not_open() {
        // O X X ? _ : filling gives OXXXX_, a four with one open end, never a straight four.
        let b = board(&[(5, 7), (6, 7), (7, 5), (7, 6)], &[(4, 7)]);
        assert_eq!(at(&b, 7, 7), None);
        // Blocked far enough away the three is open again: O _ X X ? _ _.
        let b = board(&[(5, 7), (6, 7), (7, 5), (7, 6)], &[(3, 7)]);
        assert_eq!(at(&b, 7, 7), Some(Forbidden::DoubleThree));
        // At the edge: the vertical three (7,0),(7,1),? has no open end above.
        let b = board(&[(5, 2), (6, 2), (7, 0), (7, 1)], &[]);
        assert_eq!(at(&b, 7, 2), None);
    }

    #[test]
    fn a_line_that_never_becomes_a_straight_four_is_not_a_three() {
        // X _ X _ ? _ X across: the best one more stone makes is X_XXX_X, two fives but no
        // straight four; with the vertical three that is one three, not two.
        let b = board(&[(3, 7), (5, 7), (9, 7), (7, 5), (7, 6)], &[]);
        assert_eq!(at(&b, 7, 7), None);
        // With (4,7) instead of (3,7) the line is XX_?_X across, a split three: two threes.
        let b = board(&[(4, 7), (5, 7), (9, 7), (7, 5), (7, 6)], &[]);
        assert_eq!(at(&b, 7, 7), Some(Forbidden::DoubleThree));
    }

    #[test]
    fn fours_overlines_and_fives_are_allowed() {
        // Four-four: two lines of three plus the stone.
        let b = board(&[(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)], &[]);
        assert_eq!(at(&b, 7, 7), None);
        // A four and a three.
        let b = board(&[(4, 7), (5, 7), (6, 7), (7, 5), (7, 6)], &[]);
        assert_eq!(at(&b, 7, 7), None);
        // A five made together with two threes wins.
        let b = board(
            &[
                (3, 7),
                (4, 7),
                (5, 7),
                (6, 7),
                (7, 5),
                (7, 6),
                (8, 6),
                (9, 5),
            ],
            &[],
        );
        assert_eq!(at(&b, 7, 7), None);
        // An overline is allowed and wins.
        let mut b = board(&[(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)], &[]);
        let p = b.pos(5, 7).unwrap();
        assert_eq!(b.check_for(p, Color::Black), Ok(()));
        assert_eq!(b.play(p), Ok(true));
    }

    #[test]
    fn only_the_new_rule_forbids() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for &(x, y) in &[(5, 7), (6, 7), (7, 5), (7, 6)] {
            b.place(b.pos(x, y).unwrap(), Color::Black);
        }
        b.set_to_move(Color::Black);
        assert_eq!(b.check_for(b.pos(7, 7).unwrap(), Color::Black), Ok(()));
        assert_eq!(
            Rule::from_name("no-double-three"),
            Some(Rule::NoDoubleThree)
        );
        assert_eq!(Rule::NoDoubleThree.name(), "no-double-three");
        assert!(!Rule::NoDoubleThree.exact_five(Color::Black));
    }
}
