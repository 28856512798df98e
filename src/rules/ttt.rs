//! The tic-tac-toe position: [`Grid`], a 3 x 3 board as two 9-bit masks, cheap to copy (what the
//! solver, the levels and the study enumerate), with its lines, symmetries, the squares that win
//! or make a two, and the enumeration of every reachable position.
//!
//! Squares are numbered 0..8 row-major (`row * 3 + col`); the lecture (docs/sources.md, SEEDS 004)
//! numbers them 1..9, so its "take 5" is square 4 here.
//!
//! ```text
//!   0 | 1 | 2        lecture: 1 2 3
//!   3 | 4 | 5                 4 5 6
//!   6 | 7 | 8                 7 8 9
//! ```
//!
//! A tic-tac-toe game on the general board is `Board::with_k(3, 3, 3, Rule::Freestyle)`;
//! [`Grid::from_board`] and [`square_pos`] translate between the two.

use crate::rules::{Board, Color, Pos};

/// Every square.
pub const ALL: u16 = 0x1ff;
/// The eight lines as masks: three rows, three columns, two diagonals.
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
/// Number of distinct [`Grid::code`] values (3^9 cell states times two sides to move).
pub const CODES: usize = 2 * 19683;

/// A tic-tac-toe position: X (black, first) and O (white) stone masks and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    /// Squares holding X.
    pub x: u16,
    /// Squares holding O.
    pub o: u16,
    /// The side to move.
    pub turn: Color,
}

impl Default for Grid {
    fn default() -> Self {
        Grid::EMPTY
    }
}

impl Grid {
    /// The empty board, X to move.
    pub const EMPTY: Grid = Grid {
        x: 0,
        o: 0,
        turn: Color::Black,
    };

    /// Reads a 3 x 3, three-in-a-row [`Board`]; `None` for any other board.
    pub fn from_board(board: &Board) -> Option<Grid> {
        if board.width() != 3 || board.height() != 3 || board.k() != 3 {
            return None;
        }
        let mut g = Grid {
            x: 0,
            o: 0,
            turn: board.to_move(),
        };
        for sq in 0..9 {
            match board.get((sq % 3) as i64, (sq / 3) as i64).color() {
                Some(Color::Black) => g.x |= 1 << sq,
                Some(Color::White) => g.o |= 1 << sq,
                None => {}
            }
        }
        Some(g)
    }

    /// The stones of `c`.
    #[inline]
    pub fn stones(&self, c: Color) -> u16 {
        match c {
            Color::Black => self.x,
            Color::White => self.o,
        }
    }

    /// Empty squares as a mask.
    #[inline]
    pub fn empty(&self) -> u16 {
        !(self.x | self.o) & ALL
    }

    /// Whether `c` has three in a line.
    #[inline]
    pub fn has_line(&self, c: Color) -> bool {
        let s = self.stones(c);
        for l in LINES {
            if s & l == l {
                return true;
            }
        }
        false
    }

    /// The side with a line (X checked first; both only in set-up positions).
    #[inline]
    pub fn winner(&self) -> Option<Color> {
        if self.has_line(Color::Black) {
            Some(Color::Black)
        } else if self.has_line(Color::White) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// A win or a full board.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.empty() == 0 || self.winner().is_some()
    }

    /// The position after the side to move takes `sq` (the caller knows it is empty).
    #[inline]
    pub fn play(&self, sq: usize) -> Grid {
        let bit = 1u16 << sq;
        match self.turn {
            Color::Black => Grid {
                x: self.x | bit,
                o: self.o,
                turn: Color::White,
            },
            Color::White => Grid {
                x: self.x,
                o: self.o | bit,
                turn: Color::Black,
            },
        }
    }

    /// The empty squares in ascending order.
    pub fn moves(&self) -> impl Iterator<Item = usize> {
        let e = self.empty();
        (0..9).filter(move |&s| e & (1 << s) != 0)
    }

    /// A dense index: the base-3 cell code, plus 3^9 when O is to move.
    pub fn code(&self) -> usize {
        let mut c = 0;
        for sq in (0..9).rev() {
            c = c * 3
                + if self.x & (1 << sq) != 0 {
                    1
                } else if self.o & (1 << sq) != 0 {
                    2
                } else {
                    0
                };
        }
        c + if self.turn == Color::White { 19683 } else { 0 }
    }

    /// The image under symmetry `t` (0..8: four rotations, each optionally mirrored).
    pub fn transform(&self, t: usize) -> Grid {
        Grid {
            x: transform_mask(self.x, t),
            o: transform_mask(self.o, t),
            turn: self.turn,
        }
    }

    /// The smallest code among the eight symmetric images (a canonical form).
    pub fn canonical_code(&self) -> usize {
        (0..8).map(|t| self.transform(t).code()).min().unwrap_or(0)
    }

    /// Three-line text: `X`, `O`, `.`.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(12);
        for r in 0..3 {
            for c in 0..3 {
                let b = 1 << (r * 3 + c);
                s.push(if self.x & b != 0 {
                    'X'
                } else if self.o & b != 0 {
                    'O'
                } else {
                    '.'
                });
            }
            s.push('\n');
        }
        s
    }
}

/// Where square `sq` goes under symmetry `t` (0..8).
pub fn transform_square(sq: usize, t: usize) -> usize {
    let (mut r, mut c) = (sq / 3, sq % 3);
    for _ in 0..(t % 4) {
        // Quarter turn clockwise: (r, c) -> (c, 2 - r).
        let nr = c;
        c = 2 - r;
        r = nr;
    }
    if t >= 4 {
        c = 2 - c;
    }
    r * 3 + c
}

fn transform_mask(m: u16, t: usize) -> u16 {
    let mut out = 0;
    for sq in 0..9 {
        if m & (1 << sq) != 0 {
            out |= 1 << transform_square(sq, t);
        }
    }
    out
}

/// The [`Board`] point of square `sq` (row-major), if the board has it.
pub fn square_pos(board: &Board, sq: usize) -> Option<Pos> {
    board.pos((sq % 3) as i64, (sq / 3) as i64)
}

/// Squares where `c` would complete a line now, as a mask.
pub fn winning_squares(g: &Grid, c: Color) -> u16 {
    let mine = g.stones(c);
    let empty = g.empty();
    let mut out = 0;
    for &l in &LINES {
        if (mine & l).count_ones() == 2 && (empty & l).count_ones() == 1 {
            out |= empty & l;
        }
    }
    out
}

/// Lines through `sq` holding exactly one stone of `c` and two empties (playing `sq` would make a
/// two there). Two or more is a fork point.
pub fn twos_made_by(g: &Grid, sq: usize, c: Color) -> u32 {
    let mine = g.stones(c);
    let theirs = g.stones(c.opponent());
    let bit = 1u16 << sq;
    LINES
        .iter()
        .filter(|&&l| l & bit != 0 && l & theirs == 0 && (mine & l).count_ones() == 1)
        .count() as u32
}

/// Every position reachable from the empty board by legal play (terminal ones included, play
/// stopping at a win), in depth-first discovery order.
pub fn reachable_positions() -> Vec<Grid> {
    let mut seen = vec![false; CODES];
    let mut out = Vec::with_capacity(5478);
    let mut stack = vec![Grid::EMPTY];
    seen[Grid::EMPTY.code()] = true;
    while let Some(g) = stack.pop() {
        out.push(g);
        if g.is_over() {
            continue;
        }
        for s in g.moves() {
            let c = g.play(s);
            let code = c.code();
            if !seen[code] {
                seen[code] = true;
                stack.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;
    use std::collections::HashSet;

    fn ttt_board() -> Board {
        Board::with_k(3, 3, 3, Rule::Freestyle)
    }

    fn perft(b: &mut Board, depth: usize, counts: &mut [u64; 10], games: &mut u64) {
        counts[depth] += 1;
        if b.is_over() {
            *games += 1;
            return;
        }
        let moves: Vec<Pos> = b.empty_points().collect();
        for p in moves {
            b.play_unchecked(p);
            perft(b, depth + 1, counts, games);
            b.undo();
        }
    }

    #[test]
    fn perft_and_game_count_on_the_rules_board() {
        let mut b = ttt_board();
        let mut counts = [0u64; 10];
        let mut games = 0;
        perft(&mut b, 0, &mut counts, &mut games);
        assert_eq!(
            &counts[1..],
            &[9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
        );
        assert_eq!(games, 255_168);
    }

    #[test]
    fn reachable_positions_terminal_and_symmetry_classes() {
        let all = reachable_positions();
        assert_eq!(all.len(), 5478);
        assert_eq!(all.iter().filter(|g| g.is_over()).count(), 958);
        let classes: HashSet<usize> = all.iter().map(|g| g.canonical_code()).collect();
        assert_eq!(classes.len(), 765);
    }

    #[test]
    fn symmetries_are_the_eight_of_the_square() {
        let images: HashSet<Vec<usize>> = (0..8)
            .map(|t| (0..9).map(|s| transform_square(s, t)).collect())
            .collect();
        assert_eq!(images.len(), 8);
        for t in 0..8 {
            assert_eq!(transform_square(4, t), 4);
            for &l in &LINES {
                assert!(LINES.contains(&transform_mask(l, t)));
            }
        }
    }
}
