//! The seed's 5-cell window evaluation (docs/sources.md, SEEDS 003): the score table,
//! [`evaluate_window`], [`score_position`] over every window of rows, columns and both diagonals,
//! the small centre bonus, and [`local_score`] for updating a score after one stone without
//! rescanning the board.
//!
//! # What "open" means here
//!
//! The seed names open and closed shapes but never says how a lone 5-cell window tells them
//! apart. The reading used here looks one cell past each end of the window (the *flanks*): a
//! window whose stones are all one colour is **open** when those stones fit strictly inside a
//! 6-cell segment (the window plus one flank) whose two end cells are both empty; that is, when
//! the window's first cell and the flank after it are empty, or its last cell and the flank
//! before it are empty. A wall (board edge) or any stone on the needed cells closes it.
//!
//! ```text
//!   flank [ window  ] flank
//!     .   [ . X X X X ] .      open four   .XXXX.  (two ways to five)
//!     O   [ X X X X . ] .      four        blocked on the left
//!     .   [ X X . X X ] .      four        only one way to five
//!     .   [ . X X X . ] O      open three  ..XXX.  (left flank to last cell)
//!     #   [ X X X . . ] .      three       the edge (#) closes it
//! ```
//!
//! The rule is the same for two, three and four stones. One stone scores [`ONE`] and five score [`FIVE`] whatever surrounds them.
//!
//! # Signs, as in the seed
//!
//! Windows holding only the evaluated colour's stones (and empties) score the table value. A
//! window holding only opponent stones scores `-FOUR` when it is an open four, `-THREE` when it
//! is an open three, and nothing otherwise (the seed names no other penalty; its move choice
//! blocks immediate fives before it searches). Windows holding both colours score nothing.
//!
//! # Centre bonus
//!
//! Each stone of the evaluated colour earns `max(0, 8 - d) / 2`, where `d` is its Chebyshev
//! distance from the geometric centre in half-cells (so even-sized boards stay symmetric): 4 on
//! the centre point of an odd board, then 3, 2, 1, and nothing from the fourth ring out.

use crate::rules::{Board, Cell, Color, Pos};

/// Five in a row (a win).
pub const FIVE: i32 = 100_000;
/// Four with both ends open: wins next move.
pub const OPEN_FOUR: i32 = 10_000;
/// Four with one way to five.
pub const FOUR: i32 = 5_000;
/// Three that can still become an open four.
pub const OPEN_THREE: i32 = 100;
/// Three closed on one side.
pub const THREE: i32 = 50;
/// Two with room on both sides.
pub const OPEN_TWO: i32 = 10;
/// Two closed on one side.
pub const TWO: i32 = 5;
/// A single stone in the window.
pub const ONE: i32 = 1;

/// The window length the table is written for.
pub const WINDOW: usize = 5;

/// Whether the stones of a one-colour window could grow past both of its ends (see the module
/// documentation for the reading of "open").
#[inline]
pub fn is_open(window: &[Cell; WINDOW], before: Cell, after: Cell) -> bool {
    (window[0] == Cell::Empty && after == Cell::Empty)
        || (window[WINDOW - 1] == Cell::Empty && before == Cell::Empty)
}

/// The seed's `evaluateWindow`: the score of one 5-cell window for `color`, given the cells just
/// before and after it (walls when off the board).
pub fn evaluate_window(window: &[Cell; WINDOW], before: Cell, after: Cell, color: Color) -> i32 {
    let own_cell = color.cell();
    let opp_cell = color.opponent().cell();
    let (mut own, mut opp, mut empty) = (0, 0, 0);
    for &c in window {
        if c == own_cell {
            own += 1;
        } else if c == opp_cell {
            opp += 1;
        } else if c == Cell::Empty {
            empty += 1;
        }
    }
    if empty + own + opp != WINDOW {
        // A wall inside the window: not a real window (callers only pass on-board windows).
        return 0;
    }
    if opp == 0 {
        let open = || is_open(window, before, after);
        return match own {
            5 => FIVE,
            4 if open() => OPEN_FOUR,
            4 => FOUR,
            3 if open() => OPEN_THREE,
            3 => THREE,
            2 if open() => OPEN_TWO,
            2 => TWO,
            1 => ONE,
            _ => 0,
        };
    }
    if own == 0 && (opp == 4 || opp == 3) && is_open(window, before, after) {
        return if opp == 4 { -FOUR } else { -THREE };
    }
    0
}

/// The centre bonus for a stone on `p` (see the module documentation).
#[inline]
pub fn centre_bonus(board: &Board, p: Pos) -> i32 {
    let (x, y) = board.xy(p);
    let dx = (2 * x as i64 - (board.width() as i64 - 1)).abs();
    let dy = (2 * y as i64 - (board.height() as i64 - 1)).abs();
    ((8 - dx.max(dy)).max(0) / 2) as i32
}

/// The window starting at `s` along `dir` with its flanks, if all five cells are on the board.
/// `s` must be an on-board point or at most [`crate::rules::mnk::board::PAD`] steps from one, so that
/// every read stays inside the padded array.
#[inline]
fn window_at(board: &Board, s: Pos, dir: isize) -> Option<([Cell; WINDOW], Cell, Cell)> {
    let mut w = [Cell::Empty; WINDOW];
    for (i, slot) in w.iter_mut().enumerate() {
        let c = board.cell(s.step(dir, i as isize));
        if c == Cell::Wall {
            return None;
        }
        *slot = c;
    }
    // Both flanks are one step beyond an on-board cell: inside the padding.
    Some((
        w,
        board.cell(s.step(dir, -1)),
        board.cell(s.step(dir, WINDOW as isize)),
    ))
}

/// The seed's `scorePosition`: every 5-cell window of every row, column and diagonal scored for
/// `color`, plus the centre bonus of `color`'s stones.
pub fn score_position(board: &Board, color: Color) -> i32 {
    let mut total = 0i32;
    let own = color.cell();
    for p in board.points() {
        if board.cell(p) == own {
            total = total.saturating_add(centre_bonus(board, p));
        }
        for dir in board.dirs() {
            if let Some((w, before, after)) = window_at(board, p, dir) {
                total = total.saturating_add(evaluate_window(&w, before, after, color));
            }
        }
    }
    total
}

/// The part of [`score_position`] (without centre bonus) that a stone on `p` can change: every
/// window that contains `p` or has `p` as a flank. Putting a stone on `p` changes the score by
/// `local_score` after minus `local_score` before, plus the centre bonus when the stone is
/// `color`'s. `p` must be on the board.
pub fn local_score(board: &Board, p: Pos, color: Color) -> i32 {
    let mut total = 0i32;
    for dir in board.dirs() {
        // Windows starting from 5 cells before p (p is their after-flank) to 1 cell after p
        // (p is their before-flank).
        for back in -1..=WINDOW as isize {
            let s = p.step(dir, -back);
            if let Some((w, before, after)) = window_at(board, s, dir) {
                total = total.saturating_add(evaluate_window(&w, before, after, color));
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    const E: Cell = Cell::Empty;
    const B: Cell = Cell::Black;
    const W: Cell = Cell::White;
    const X: Cell = Cell::Wall;

    fn ev(window: [Cell; 5], before: Cell, after: Cell) -> i32 {
        evaluate_window(&window, before, after, Color::Black)
    }

    #[test]
    fn score_table_values_are_the_seeds() {
        assert_eq!(FIVE, 100_000);
        assert_eq!(OPEN_FOUR, 10_000);
        assert_eq!(FOUR, 5_000);
        assert_eq!(OPEN_THREE, 100);
        assert_eq!(THREE, 50);
        assert_eq!(OPEN_TWO, 10);
        assert_eq!(TWO, 5);
        assert_eq!(ONE, 1);
    }

    #[test]
    fn own_shapes() {
        assert_eq!(ev([B, B, B, B, B], W, W), FIVE);
        assert_eq!(ev([E, B, B, B, B], W, E), OPEN_FOUR);
        assert_eq!(ev([B, B, B, B, E], E, X), OPEN_FOUR);
        assert_eq!(ev([B, B, B, B, E], W, E), FOUR);
        assert_eq!(ev([E, B, B, B, B], E, X), FOUR);
        assert_eq!(ev([B, B, E, B, B], E, E), FOUR);
        assert_eq!(ev([E, B, B, B, E], W, E), OPEN_THREE);
        assert_eq!(ev([E, B, B, B, E], E, W), OPEN_THREE);
        assert_eq!(ev([E, B, B, B, E], W, W), THREE);
        assert_eq!(ev([B, B, B, E, E], X, E), THREE);
        assert_eq!(ev([B, B, B, E, E], E, X), OPEN_THREE);
        assert_eq!(ev([B, E, B, E, B], E, E), THREE);
        assert_eq!(ev([E, B, E, B, E], E, E), OPEN_TWO);
        assert_eq!(ev([B, B, E, E, E], X, E), TWO);
        assert_eq!(ev([E, E, B, E, E], X, X), ONE);
        assert_eq!(ev([E, E, E, E, E], E, E), 0);
    }

    #[test]
    fn opponent_open_four_and_three_are_negative_and_nothing_else_counts() {
        assert_eq!(ev([E, W, W, W, W], E, E), -FOUR);
        assert_eq!(ev([W, W, W, W, E], E, E), -FOUR);
        assert_eq!(ev([W, W, W, W, E], X, E), 0);
        assert_eq!(ev([E, W, W, W, E], E, B), -THREE);
        assert_eq!(ev([W, W, E, W, W], E, E), 0);
        assert_eq!(ev([E, W, W, E, E], E, E), 0);
        assert_eq!(ev([W, W, W, W, W], E, E), 0);
        // Mixed windows are dead for both.
        assert_eq!(ev([B, W, W, W, E], E, E), 0);
        assert_eq!(ev([B, B, B, W, E], E, E), 0);
    }

    #[test]
    fn walls_inside_a_window_score_nothing() {
        assert_eq!(ev([B, B, B, B, X], E, E), 0);
    }

    fn board_with(stones: &[(i64, i64, Color)], w: usize, h: usize) -> Board {
        let mut b = Board::new(w, h, Rule::Freestyle).unwrap();
        for &(x, y, c) in stones {
            b.place(b.pos(x, y).unwrap(), c);
        }
        b
    }

    #[test]
    fn edge_closes_a_line_on_the_board() {
        // A three against the left edge: windows (0..5) and none of them open.
        let b = board_with(
            &[
                (0, 7, Color::Black),
                (1, 7, Color::Black),
                (2, 7, Color::Black),
            ],
            15,
            15,
        );
        let (w, before, after) = window_at(&b, b.pos(0, 7).unwrap(), 1).unwrap();
        assert_eq!(before, Cell::Wall);
        assert_eq!(evaluate_window(&w, before, after, Color::Black), THREE);
        // The same shape in the middle is open.
        let b = board_with(
            &[
                (6, 7, Color::Black),
                (7, 7, Color::Black),
                (8, 7, Color::Black),
            ],
            15,
            15,
        );
        let (w, before, after) = window_at(&b, b.pos(6, 7).unwrap(), 1).unwrap();
        assert_eq!(evaluate_window(&w, before, after, Color::Black), OPEN_THREE);
    }

    #[test]
    fn centre_bonus_is_symmetric_and_small() {
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        assert_eq!(centre_bonus(&b, b.pos(7, 7).unwrap()), 4);
        assert_eq!(centre_bonus(&b, b.pos(8, 6).unwrap()), 3);
        assert_eq!(centre_bonus(&b, b.pos(4, 7).unwrap()), 1);
        assert_eq!(centre_bonus(&b, b.pos(0, 0).unwrap()), 0);
        let b = Board::new(20, 20, Rule::Freestyle).unwrap();
        for (x, y) in [(9, 9), (10, 10), (9, 10), (10, 9)] {
            assert_eq!(centre_bonus(&b, b.pos(x, y).unwrap()), 3);
        }
    }

    #[test]
    fn empty_board_scores_zero_and_a_single_stone_is_counted_per_window() {
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        assert_eq!(score_position(&b, Color::Black), 0);
        let b = board_with(&[(7, 7, Color::Black)], 15, 15);
        // 5 windows in each of 4 directions hold the stone; plus the centre bonus.
        assert_eq!(score_position(&b, Color::Black), 20 * ONE + 4);
        assert_eq!(score_position(&b, Color::White), 0);
    }

    #[test]
    fn rectangular_and_tiny_boards_do_not_panic() {
        for (w, h) in [(5, 5), (5, 32), (32, 5), (7, 19), (32, 32)] {
            let mut b = Board::new(w, h, Rule::Freestyle).unwrap();
            let pts: Vec<Pos> = b.points().collect();
            for (i, p) in pts.iter().enumerate().step_by(3) {
                b.place(
                    *p,
                    if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                );
            }
            let _ = score_position(&b, Color::Black);
            for &p in &pts {
                let _ = local_score(&b, p, Color::White);
            }
        }
    }

    #[test]
    fn local_score_delta_matches_a_full_rescan() {
        let mut state = 7u64;
        for (w, h) in [(15, 15), (20, 20), (9, 17), (5, 5)] {
            let mut b = Board::new(w, h, Rule::Freestyle).unwrap();
            for _ in 0..(w * h / 2) {
                let empties: Vec<Pos> = b.empty_points().collect();
                let r = crate::rules::splitmix::splitmix64(&mut state) as usize;
                let p = empties[r % empties.len()];
                let c = if r.is_multiple_of(3) {
                    Color::White
                } else {
                    Color::Black
                };
                for eval_color in [Color::Black, Color::White] {
                    let before_full = score_position(&b, eval_color);
                    let before_local = local_score(&b, p, eval_color);
                    b.set_scratch(p, c.cell());
                    let after_full = score_position(&b, eval_color);
                    let after_local = local_score(&b, p, eval_color);
                    let bonus = if c == eval_color {
                        centre_bonus(&b, p)
                    } else {
                        0
                    };
                    assert_eq!(
                        after_full - before_full,
                        after_local - before_local + bonus,
                        "{w}x{h} at {:?}",
                        b.xy(p)
                    );
                    b.set_scratch(p, Cell::Empty);
                }
                b.place(p, c);
            }
        }
    }
}
