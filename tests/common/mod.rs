//! Naive, independent reference implementations for the integration tests: a plain 2-D grid, a
//! brute-force win scanner and a renju forbidden-point checker written straight from the RIF
//! definitions (window enumeration, clone per hypothetical stone). Slow on purpose; nothing here
//! shares code with `sente::rules`.
#![allow(dead_code)]

use std::collections::BTreeSet;

use sente::rules::gomoku::Forbidden;
use sente::rules::{Board, Cell, Color, Rule};

pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;

/// The four line directions as (dx, dy).
pub const DIRS: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A plain width x height grid of EMPTY / BLACK / WHITE.
#[derive(Clone, Debug)]
pub struct Grid {
    pub w: i64,
    pub h: i64,
    pub cells: Vec<u8>,
}

impl Grid {
    pub fn new(w: usize, h: usize) -> Grid {
        Grid {
            w: w as i64,
            h: h as i64,
            cells: vec![EMPTY; w * h],
        }
    }
    /// Copies a board's stones.
    pub fn from_board(b: &Board) -> Grid {
        let mut g = Grid::new(b.width(), b.height());
        for y in 0..g.h {
            for x in 0..g.w {
                g.set(
                    x,
                    y,
                    match b.get(x, y) {
                        Cell::Black => BLACK,
                        Cell::White => WHITE,
                        _ => EMPTY,
                    },
                );
            }
        }
        g
    }
    pub fn on(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && x < self.w && y < self.h
    }
    /// The cell, or None off the board.
    pub fn at(&self, x: i64, y: i64) -> Option<u8> {
        self.on(x, y).then(|| self.cells[(y * self.w + x) as usize])
    }
    pub fn set(&mut self, x: i64, y: i64, v: u8) {
        let i = (y * self.w + x) as usize;
        self.cells[i] = v;
    }
    /// The whole board line through (x, y) along (dx, dy), as coordinates, and the index of
    /// (x, y) in it.
    pub fn line(&self, x: i64, y: i64, (dx, dy): (i64, i64)) -> (Vec<(i64, i64)>, usize) {
        let (mut sx, mut sy) = (x, y);
        while self.on(sx - dx, sy - dy) {
            sx -= dx;
            sy -= dy;
        }
        let mut pts = Vec::new();
        let mut at = 0;
        let (mut cx, mut cy) = (sx, sy);
        while self.on(cx, cy) {
            if (cx, cy) == (x, y) {
                at = pts.len();
            }
            pts.push((cx, cy));
            cx += dx;
            cy += dy;
        }
        (pts, at)
    }
}

/// Brute force: after `color` plays (x, y) (imagined), is there a winning line under `rule`?
/// Scans the whole board line in each direction, finds the maximal run holding (x, y), and
/// applies the rule's length and caro conditions.
pub fn naive_makes_win(g: &Grid, x: i64, y: i64, color: Color, k: usize, rule: Rule) -> bool {
    let me = if color == Color::Black { BLACK } else { WHITE };
    let opp = if me == BLACK { WHITE } else { BLACK };
    let exact = match rule {
        Rule::Standard | Rule::CaroStandard => true,
        Rule::Renju => color == Color::Black,
        Rule::Freestyle | Rule::Caro | Rule::NoDoubleThree => false,
    };
    let caro = matches!(rule, Rule::Caro | Rule::CaroStandard);
    let mut g = g.clone();
    g.set(x, y, me);
    for d in DIRS {
        let (pts, at) = g.line(x, y, d);
        let vals: Vec<u8> = pts.iter().map(|&(a, b)| g.at(a, b).unwrap()).collect();
        let mut lo = at;
        while lo > 0 && vals[lo - 1] == me {
            lo -= 1;
        }
        let mut hi = at;
        while hi + 1 < vals.len() && vals[hi + 1] == me {
            hi += 1;
        }
        let n = hi - lo + 1;
        let long_enough = if exact { n == k } else { n >= k };
        if !long_enough {
            continue;
        }
        let left_blocked = lo > 0 && vals[lo - 1] == opp;
        let right_blocked = hi + 1 < vals.len() && vals[hi + 1] == opp;
        if caro && left_blocked && right_blocked {
            continue;
        }
        return true;
    }
    false
}

/// Renju law for black at the empty (x, y), from the definitions:
/// five (exactly 5) wins and is never forbidden; else overline (6+); else two or more fours
/// (distinct sets of four stones that one more stone turns into exactly five, each including the
/// new stone); else two or more lines holding a real three (some empty point of the line makes a
/// straight four `.XXXX.` with exact-five ends that includes the new stone, and that point is
/// not itself forbidden). A line with a four is not also counted as a three.
pub fn naive_forbidden(g: &Grid, x: i64, y: i64) -> Option<Forbidden> {
    if g.at(x, y) != Some(EMPTY) {
        return None;
    }
    let mut g = g.clone();
    g.set(x, y, BLACK);
    let black = |g: &Grid, i: i64, pts: &[(i64, i64)]| -> bool {
        i >= 0 && (i as usize) < pts.len() && {
            let (a, b) = pts[i as usize];
            g.at(a, b) == Some(BLACK)
        }
    };
    let mut overline = false;
    let mut fours = 0;
    let mut four_line = [false; 4];
    for (li, d) in DIRS.into_iter().enumerate() {
        let (pts, at) = g.line(x, y, d);
        let at = at as i64;
        let mut lo = at;
        while black(&g, lo - 1, &pts) {
            lo -= 1;
        }
        let mut hi = at;
        while black(&g, hi + 1, &pts) {
            hi += 1;
        }
        match hi - lo + 1 {
            5 => return None,
            n if n > 5 => overline = true,
            _ => {}
        }
        // Fours: windows of five holding p with four black and one empty, no black just outside.
        let mut sets: BTreeSet<Vec<i64>> = BTreeSet::new();
        for s in at - 4..=at {
            if s < 0 || s + 5 > pts.len() as i64 {
                continue;
            }
            let mut stones = Vec::new();
            let mut empties = 0;
            for i in s..s + 5 {
                let (a, b) = pts[i as usize];
                match g.at(a, b) {
                    Some(BLACK) => stones.push(i),
                    Some(EMPTY) => empties += 1,
                    _ => {}
                }
            }
            if stones.len() == 4
                && empties == 1
                && !black(&g, s - 1, &pts)
                && !black(&g, s + 5, &pts)
            {
                sets.insert(stones);
            }
        }
        fours += sets.len();
        four_line[li] = !sets.is_empty();
    }
    if overline {
        return Some(Forbidden::Overline);
    }
    if fours >= 2 {
        return Some(Forbidden::DoubleFour);
    }
    let mut threes = 0;
    for (li, d) in DIRS.into_iter().enumerate() {
        if four_line[li] {
            continue;
        }
        let (pts, at) = g.line(x, y, d);
        let at = at as i64;
        let mut real = false;
        for (ei, &(ex, ey)) in pts.iter().enumerate() {
            if real || g.at(ex, ey) != Some(EMPTY) {
                continue;
            }
            let ei = ei as i64;
            let mut h = g.clone();
            h.set(ex, ey, BLACK);
            // A six-cell window .XXXX. whose middle holds both p and e, no black just outside.
            let straight = (0..=pts.len() as i64 - 6).any(|s| {
                let inner = (s + 1..s + 5).contains(&at) && (s + 1..s + 5).contains(&ei);
                inner
                    && h.at(pts[s as usize].0, pts[s as usize].1) == Some(EMPTY)
                    && h.at(pts[s as usize + 5].0, pts[s as usize + 5].1) == Some(EMPTY)
                    && (s + 1..s + 5).all(|i| black(&h, i, &pts))
                    && !black(&h, s - 1, &pts)
                    && !black(&h, s + 6, &pts)
            });
            if straight && naive_forbidden(&g, ex, ey).is_none() {
                real = true;
            }
        }
        if real {
            threes += 1;
        }
    }
    (threes >= 2).then_some(Forbidden::DoubleThree)
}

/// A tiny deterministic generator (xorshift64*), independent of the crate's.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform-ish in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
