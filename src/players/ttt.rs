//! Tic-tac-toe levels and the exact solver behind them.
//!
//! Owns [`Grid`] (a 3 x 3 position as two 9-bit masks, cheap to copy: what the solvers and the
//! study enumerate), the [`TttPlayer`] trait with its level registry ([`TTT_LEVELS`],
//! [`ttt_player`]), the alpha-beta solver with a transposition table ([`Solver`]), the plain
//! minimax of SEEDS 002 ([`minimax_value`]) and `sente bench ttt` ([`bench`](fn@bench)).
//!
//! Squares are numbered 0..8 row-major here (`row * 3 + col`); the lecture (SEEDS 004) numbers
//! them 1..9, so its "take 5" is square 4 below.
//!
//! ```text
//!   0 | 1 | 2        lecture: 1 2 3
//!   3 | 4 | 5                 4 5 6
//!   6 | 7 | 8                 7 8 9
//! ```
//!
//! Levels, strongest first: `perfect` (never loses, wins fastest, loses slowest), `minimax`
//! (002: +1/0/-1, never loses but may dawdle), `rules+heuristic`, `heuristic2`, `heuristic1`,
//! `dumb`, `dumber` (004).
//!
//! Entry points for the CLI and the protocols (a tic-tac-toe game is
//! `Board::with_k(3, 3, 3, Rule::Freestyle)`):
//! * `sente bench ttt`: `println!("{}", sente::players::ttt::bench())`.
//! * a level: `ttt_player(name, seed) -> Option<Box<dyn TttPlayer>>`, names and descriptions in
//!   [`TTT_LEVELS`] (the first is the default); then `player.choose(&board) -> Option<Pos>`,
//!   `None` when the game is over or the board is not 3 x 3 with k = 3. Choosing is instant
//!   (well under a millisecond), so no clock is needed.

use std::fmt;
use std::time::{Duration, Instant};

use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

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

// ---------------------------------------------------------------------------------------------
// Solvers

/// Value of a finished position for the side to move: a loss scores `-(1 + empties)` so that a
/// later loss (fewer empties) is preferred, and seen from the winner a faster win scores more.
#[inline]
fn terminal_value(g: &Grid) -> Option<i32> {
    let empties = g.empty().count_ones() as i32;
    if let Some(w) = g.winner() {
        // Normally the winner just moved; a set-up position may hand the move to the winner.
        return Some(if w == g.turn {
            1 + empties
        } else {
            -(1 + empties)
        });
    }
    if empties == 0 {
        return Some(0);
    }
    None
}

/// Exact negamax value by plain minimax (no pruning, no table): the oracle the tests compare the
/// alpha-beta solver against. Positive: the side to move wins (larger = sooner).
pub fn negamax_value(g: &Grid) -> i32 {
    if let Some(v) = terminal_value(g) {
        return v;
    }
    g.moves()
        .map(|s| -negamax_value(&g.play(s)))
        .max()
        .unwrap_or(0)
}

/// SEEDS 002's minimax score of `g` for `me`: +1 if `me` wins, -1 if it loses, 0 for a draw; max
/// on `me`'s turn, min on the other's.
pub fn minimax_value(g: &Grid, me: Color) -> i32 {
    if let Some(w) = g.winner() {
        return if w == me { 1 } else { -1 };
    }
    if g.empty() == 0 {
        return 0;
    }
    let vals = g.moves().map(|s| minimax_value(&g.play(s), me));
    if g.turn == me {
        vals.max().unwrap_or(0)
    } else {
        vals.min().unwrap_or(0)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    None,
    Exact,
    Lower,
    Upper,
}

/// Squares in the order the solver tries them: centre, corners, sides.
const ORDER: [usize; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];
const INF: i32 = 100;

/// Negamax alpha-beta with a transposition table indexed by [`Grid::code`].
pub struct Solver {
    table: Vec<(i8, Bound)>,
    /// Nodes visited since creation (or the last [`Solver::clear`]).
    pub nodes: u64,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver with an empty table.
    pub fn new() -> Solver {
        Solver {
            table: vec![(0, Bound::None); CODES],
            nodes: 0,
        }
    }

    /// Forgets the table and the node count.
    pub fn clear(&mut self) {
        self.table.fill((0, Bound::None));
        self.nodes = 0;
    }

    /// The exact value of `g` for the side to move (same scale as [`negamax_value`]).
    pub fn value(&mut self, g: &Grid) -> i32 {
        self.search(g, -INF, INF)
    }

    fn search(&mut self, g: &Grid, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if let Some(v) = terminal_value(g) {
            return v;
        }
        let code = g.code();
        let (tv, tb) = self.table[code];
        let tv = tv as i32;
        match tb {
            Bound::Exact => return tv,
            Bound::Lower if tv >= beta => return tv,
            Bound::Upper if tv <= alpha => return tv,
            Bound::Lower => alpha = alpha.max(tv),
            Bound::Upper => beta = beta.min(tv),
            Bound::None => {}
        }
        let (alpha0, beta0) = (alpha, beta);
        let empty = g.empty();
        let mut best = -INF;
        for &s in &ORDER {
            if empty & (1 << s) == 0 {
                continue;
            }
            let v = -self.search(&g.play(s), -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        // Bounds are judged against the window actually searched (after the table narrowed it).
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[code] = (best as i8, bound);
        best
    }

    /// Every legal square with its exact value for the side to move, in square order.
    pub fn move_values(&mut self, g: &Grid) -> Vec<(usize, i32)> {
        if g.is_over() {
            return Vec::new();
        }
        g.moves().map(|s| (s, -self.value(&g.play(s)))).collect()
    }

    /// The optimal squares (all moves of the best exact value), in square order.
    pub fn best_moves(&mut self, g: &Grid) -> Vec<usize> {
        let vals = self.move_values(g);
        let best = vals.iter().map(|&(_, v)| v).max().unwrap_or(0);
        vals.into_iter()
            .filter(|&(_, v)| v == best)
            .map(|(s, _)| s)
            .collect()
    }
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

// ---------------------------------------------------------------------------------------------
// Bench

/// What `sente bench ttt` measured: every reachable position solved from an empty table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Positions solved (all reachable ones, terminal included).
    pub positions: usize,
    /// Alpha-beta nodes visited.
    pub nodes: u64,
    /// Wall time of the solving.
    pub elapsed: Duration,
    /// Hash over each position's value and best squares: changes only if the solver's answers do.
    pub signature: u64,
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.elapsed.as_secs_f64() * 1000.0;
        let nps = if self.elapsed.as_secs_f64() > 0.0 {
            (self.nodes as f64 / self.elapsed.as_secs_f64()) as u64
        } else {
            0
        };
        writeln!(f, "tic-tac-toe bench: every reachable position solved")?;
        writeln!(f, "positions: {}", self.positions)?;
        writeln!(f, "nodes:     {}", self.nodes)?;
        writeln!(f, "time:      {ms:.1} ms")?;
        writeln!(f, "nps:       {nps}")?;
        write!(f, "signature: {:016x}", self.signature)
    }
}

/// Solves every reachable position (value and optimal squares) and times it.
pub fn bench() -> BenchReport {
    let positions = reachable_positions();
    let start = Instant::now();
    let mut solver = Solver::new();
    let mut signature: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |x: u64| {
        signature ^= x;
        signature = signature.wrapping_mul(0x0100_0000_01b3);
    };
    for g in &positions {
        let v = solver.value(g);
        let best = solver.best_moves(g);
        let mask: u64 = best.iter().map(|&s| 1u64 << s).sum();
        mix(g.code() as u64);
        mix((v + INF) as u64);
        mix(mask);
    }
    BenchReport {
        positions: positions.len(),
        nodes: solver.nodes,
        elapsed: start.elapsed(),
        signature,
    }
}

// ---------------------------------------------------------------------------------------------
// Players

/// A tic-tac-toe player: chooses a move for the side to move of a 3 x 3 board.
pub trait TttPlayer: Send {
    /// The level's name as listed in [`TTT_LEVELS`].
    fn name(&self) -> &'static str;
    /// The square to play, or `None` when the game is over or the board is not tic-tac-toe.
    fn choose(&mut self, board: &Board) -> Option<Pos> {
        let g = Grid::from_board(board)?;
        if g.is_over() {
            return None;
        }
        let sq = self.choose_square(&g)?;
        square_pos(board, sq)
    }
    /// The square (0..8, row-major) to play in `g`, which is not over.
    fn choose_square(&mut self, g: &Grid) -> Option<usize>;
}

/// The tic-tac-toe levels, strongest first, with a description; the first is the default.
pub const TTT_LEVELS: &[(&str, &str)] = &[
    (
        "perfect",
        "alpha-beta with a transposition table: never loses, wins fastest, loses slowest (default)",
    ),
    (
        "minimax",
        "plain minimax, +1 win / 0 draw / -1 loss: never loses",
    ),
    (
        "rules+heuristic",
        "win, block, fork, block a fork, else heuristic2",
    ),
    (
        "heuristic2",
        "line scores 1000/100/15/10/1 summed per square, ties at random",
    ),
    (
        "heuristic1",
        "line scores +1 per own mark, -1 per opponent's, summed per square",
    ),
    ("dumb", "win, block, centre, sides 2-4-6-8, corners 1-3-7-9"),
    ("dumber", "the first empty square"),
];

/// Makes the tic-tac-toe player named `level` (case-insensitive; `smart` is `minimax`, `rules`
/// is `rules+heuristic`), seeded with `seed` for its tie-breaks.
pub fn ttt_player(level: &str, seed: u64) -> Option<Box<dyn TttPlayer>> {
    let rng = ChaCha8Rng::seed_from_u64(seed);
    let p: Box<dyn TttPlayer> = match level.trim().to_ascii_lowercase().as_str() {
        "perfect" | "default" => Box::new(Perfect {
            solver: Solver::new(),
            rng,
        }),
        "minimax" | "smart" => Box::new(Minimax),
        "rules+heuristic" | "rules" | "rules-heuristic" => Box::new(RulesHeuristic { rng }),
        "heuristic2" => Box::new(Heuristic {
            table: H2,
            name: "heuristic2",
            rng,
        }),
        "heuristic1" => Box::new(Heuristic {
            table: H1,
            name: "heuristic1",
            rng,
        }),
        "dumb" => Box::new(Dumb),
        "dumber" => Box::new(Dumber),
        _ => return None,
    };
    Some(p)
}

/// `perfect`: the exact solver; ties among equally fast results broken at random (seeded).
struct Perfect {
    solver: Solver,
    rng: ChaCha8Rng,
}

impl TttPlayer for Perfect {
    fn name(&self) -> &'static str {
        "perfect"
    }
    fn choose_square(&mut self, g: &Grid) -> Option<usize> {
        let best = self.solver.best_moves(g);
        if best.is_empty() {
            return None;
        }
        Some(best[self.rng.gen_range(0..best.len())])
    }
}

/// `minimax`: 002's +1/0/-1 minimax; the first square of the best score, as the blog's loop
/// keeps the first maximum it meets.
struct Minimax;

impl TttPlayer for Minimax {
    fn name(&self) -> &'static str {
        "minimax"
    }
    fn choose_square(&mut self, g: &Grid) -> Option<usize> {
        let me = g.turn;
        let mut best: Option<(usize, i32)> = None;
        for s in g.moves() {
            let v = minimax_value(&g.play(s), me);
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((s, v));
            }
        }
        best.map(|(s, _)| s)
    }
}

/// `dumber`: the first empty square.
struct Dumber;

impl TttPlayer for Dumber {
    fn name(&self) -> &'static str {
        "dumber"
    }
    fn choose_square(&mut self, g: &Grid) -> Option<usize> {
        g.moves().next()
    }
}

fn first_in(mask: u16) -> Option<usize> {
    (mask != 0).then(|| mask.trailing_zeros() as usize)
}

/// `dumb`: the lecture's five rules in order.
struct Dumb;

/// Sides 2, 4, 6, 8 then corners 1, 3, 7, 9 of the lecture, as 0-based squares.
const DUMB_SIDES: [usize; 4] = [1, 3, 5, 7];
const DUMB_CORNERS: [usize; 4] = [0, 2, 6, 8];

impl TttPlayer for Dumb {
    fn name(&self) -> &'static str {
        "dumb"
    }
    fn choose_square(&mut self, g: &Grid) -> Option<usize> {
        let me = g.turn;
        let e = g.empty();
        first_in(winning_squares(g, me))
            .or_else(|| first_in(winning_squares(g, me.opponent())))
            .or_else(|| (e & (1 << 4) != 0).then_some(4))
            .or_else(|| DUMB_SIDES.iter().copied().find(|&s| e & (1 << s) != 0))
            .or_else(|| DUMB_CORNERS.iter().copied().find(|&s| e & (1 << s) != 0))
    }
}

/// Per-line scores of a heuristic: indexed by (my marks, their marks) on the line.
type LineTable = fn(u32, u32) -> i32;

/// Heuristic 1: +1 per own mark, -1 per opponent mark.
fn h1(mine: u32, theirs: u32) -> i32 {
    mine as i32 - theirs as i32
}

/// Heuristic 2: only my two 1000, only their two 100, only my one 15, only their one 10, empty 1;
/// a line holding both colours is dead and scores 0.
fn h2(mine: u32, theirs: u32) -> i32 {
    match (mine, theirs) {
        (2, 0) => 1000,
        (0, 2) => 100,
        (1, 0) => 15,
        (0, 1) => 10,
        (0, 0) => 1,
        _ => 0,
    }
}

const H1: LineTable = h1;
const H2: LineTable = h2;

/// Each empty square's score: the sum of its lines' scores for the side to move.
pub fn heuristic_scores(g: &Grid, table: fn(u32, u32) -> i32) -> [Option<i32>; 9] {
    let me = g.stones(g.turn);
    let them = g.stones(g.turn.opponent());
    let empty = g.empty();
    let mut out = [None; 9];
    for (s, slot) in out.iter_mut().enumerate() {
        if empty & (1 << s) != 0 {
            *slot = Some(0);
        }
    }
    for &l in &LINES {
        let v = table((me & l).count_ones(), (them & l).count_ones());
        for (s, slot) in out.iter_mut().enumerate() {
            if l & (1 << s) != 0 {
                if let Some(x) = slot {
                    *x += v;
                }
            }
        }
    }
    out
}

fn pick_max(scores: &[Option<i32>; 9], rng: &mut ChaCha8Rng) -> Option<usize> {
    let best = scores.iter().flatten().copied().max()?;
    let ties: Vec<usize> = (0..9).filter(|&s| scores[s] == Some(best)).collect();
    Some(ties[rng.gen_range(0..ties.len())])
}

/// `heuristic1` / `heuristic2`: the highest-scoring empty square, ties at random.
struct Heuristic {
    table: LineTable,
    name: &'static str,
    rng: ChaCha8Rng,
}

impl TttPlayer for Heuristic {
    fn name(&self) -> &'static str {
        self.name
    }
    fn choose_square(&mut self, g: &Grid) -> Option<usize> {
        pick_max(&heuristic_scores(g, self.table), &mut self.rng)
    }
}

/// `rules+heuristic`: win; block; fork (a square making two twos); block their fork; else
/// heuristic2.
struct RulesHeuristic {
    rng: ChaCha8Rng,
}

fn fork_square(g: &Grid, c: Color) -> Option<usize> {
    g.moves().find(|&s| twos_made_by(g, s, c) >= 2)
}

impl TttPlayer for RulesHeuristic {
    fn name(&self) -> &'static str {
        "rules+heuristic"
    }
    fn choose_square(&mut self, g: &Grid) -> Option<usize> {
        let me = g.turn;
        first_in(winning_squares(g, me))
            .or_else(|| first_in(winning_squares(g, me.opponent())))
            .or_else(|| fork_square(g, me))
            .or_else(|| fork_square(g, me.opponent()))
            .or_else(|| pick_max(&heuristic_scores(g, H2), &mut self.rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;
    use std::collections::{HashMap, HashSet};

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

    /// The oracle: plain minimax over the whole tree (memoised only so it runs once per
    /// position), the optimal-move table built from it.
    fn oracle() -> HashMap<Grid, (i32, Vec<usize>)> {
        let mut table = HashMap::new();
        for g in reachable_positions() {
            let v = negamax_value(&g);
            let mut best = Vec::new();
            if !g.is_over() {
                let vals: Vec<(usize, i32)> =
                    g.moves().map(|s| (s, -negamax_value(&g.play(s)))).collect();
                let m = vals.iter().map(|&(_, v)| v).max().unwrap_or(0);
                best = vals
                    .into_iter()
                    .filter(|&(_, x)| x == m)
                    .map(|(s, _)| s)
                    .collect();
                assert_eq!(m, v);
            }
            table.insert(g, (v, best));
        }
        table
    }

    #[test]
    fn alpha_beta_agrees_with_minimax_and_perfect_is_optimal_everywhere() {
        let oracle = oracle();
        assert_eq!(oracle.len(), 5478);
        assert_eq!(oracle[&Grid::EMPTY].0, 0, "tic-tac-toe is a draw");
        let mut solver = Solver::new();
        for seed in [1u64, 2] {
            let mut perfect = ttt_player("perfect", seed).unwrap();
            for (g, (v, best)) in &oracle {
                assert_eq!(solver.value(g), *v, "value of\n{}", g.to_text());
                if g.is_over() {
                    continue;
                }
                assert_eq!(&solver.best_moves(g), best);
                let s = perfect.choose_square(g).unwrap();
                assert!(best.contains(&s), "{s} not optimal in\n{}", g.to_text());
            }
        }
        // A fresh solver per position too: results must not depend on what the table holds.
        for (g, (v, _)) in oracle.iter().take(500) {
            assert_eq!(Solver::new().value(g), *v);
        }
    }

    #[test]
    fn perfect_wins_fastest_and_never_loses() {
        // X: 0, 1 ; O: 3, 4 ; X to move. Taking 2 wins at once; the slow wins are not chosen.
        let g = Grid {
            x: 0b011,
            o: 0b11000,
            turn: Color::Black,
        };
        for seed in 0..10 {
            assert_eq!(
                ttt_player("perfect", seed).unwrap().choose_square(&g),
                Some(2)
            );
        }
        // Against every level from both sides, perfect never loses.
        for &(level, _) in TTT_LEVELS {
            for seed in 0..4 {
                for perfect_first in [true, false] {
                    let mut p = ttt_player("perfect", seed).unwrap();
                    let mut q = ttt_player(level, seed + 100).unwrap();
                    let mut g = Grid::EMPTY;
                    let perfect_color = if perfect_first {
                        Color::Black
                    } else {
                        Color::White
                    };
                    while !g.is_over() {
                        let s = if g.turn == perfect_color {
                            p.choose_square(&g)
                        } else {
                            q.choose_square(&g)
                        }
                        .unwrap();
                        assert!(g.empty() & (1 << s) != 0);
                        g = g.play(s);
                    }
                    assert_ne!(g.winner(), Some(perfect_color.opponent()), "vs {level}");
                }
            }
        }
    }

    #[test]
    fn minimax_never_loses_and_matches_its_values() {
        let oracle = oracle();
        let mut m = ttt_player("minimax", 0).unwrap();
        for (g, (v, _)) in &oracle {
            if g.is_over() {
                continue;
            }
            let s = m.choose_square(g).unwrap();
            // The +1/0/-1 result of the chosen move equals the sign of the exact value.
            let after = -oracle[&g.play(s)].0;
            assert_eq!(after.signum(), v.signum(), "\n{}", g.to_text());
        }
    }

    #[test]
    fn lecture_heuristic_examples() {
        // X O . / . X . / . . O with X to move (004's worked example).
        let g = Grid {
            x: (1 << 0) | (1 << 4),
            o: (1 << 1) | (1 << 8),
            turn: Color::Black,
        };
        let h1 = heuristic_scores(&g, H1);
        assert_eq!(
            h1,
            [
                None,
                None,
                Some(0),
                Some(2),
                None,
                Some(0),
                Some(1),
                Some(-1),
                None
            ]
        );
        // The lecture picks square 4 (1-based), i.e. 3 here.
        assert_eq!(
            ttt_player("heuristic1", 0).unwrap().choose_square(&g),
            Some(3)
        );
        let h2 = heuristic_scores(&g, H2);
        assert_eq!(
            h2,
            [
                None,
                None,
                Some(25),
                Some(30),
                None,
                Some(25),
                Some(40),
                Some(10),
                None
            ]
        );
        assert_eq!(
            ttt_player("heuristic2", 0).unwrap().choose_square(&g),
            Some(6)
        );
    }

    #[test]
    fn dumb_and_dumber_follow_their_rules() {
        let mut dumb = ttt_player("dumb", 0).unwrap();
        let mut dumber = ttt_player("dumber", 0).unwrap();
        assert_eq!(dumb.choose_square(&Grid::EMPTY), Some(4));
        assert_eq!(dumber.choose_square(&Grid::EMPTY), Some(0));
        let g = Grid::EMPTY.play(4).play(0); // X centre, O corner: sides next, 2 first.
        assert_eq!(dumb.choose_square(&g), Some(1));
        let g = Grid::EMPTY.play(4).play(1).play(0); // X threatens 8: O blocks.
        assert_eq!(dumb.choose_square(&g), Some(8));
        // X can win at 7 (1-4-7) while O threatens 6 (0-3-6): winning comes first.
        let g = Grid {
            x: (1 << 1) | (1 << 4),
            o: (1 << 0) | (1 << 3),
            turn: Color::Black,
        };
        assert_eq!(dumb.choose_square(&g), Some(7));
        assert_eq!(
            ttt_player("rules+heuristic", 0).unwrap().choose_square(&g),
            Some(7)
        );
    }

    #[test]
    fn rules_heuristic_forks_and_blocks_forks() {
        let mut p = ttt_player("rules+heuristic", 0).unwrap();
        // X on opposite corners 0 and 8, O on the centre, O to move: no twos anywhere, O has
        // no fork square (its lines meet only at 4), X forks at 2 or 6: O takes the first, 2.
        let g = Grid {
            x: (1 << 0) | (1 << 8),
            o: 1 << 4,
            turn: Color::White,
        };
        assert_eq!(p.choose_square(&g), Some(2));
        // X to move could fork at 2 or 6, but O threatens 7 (1-4-7): the block comes first.
        let g = Grid {
            x: (1 << 0) | (1 << 8),
            o: (1 << 1) | (1 << 4),
            turn: Color::Black,
        };
        assert_eq!(p.choose_square(&g), Some(7));
    }

    #[test]
    fn players_never_panic_on_odd_boards() {
        let big = Board::with_k(15, 15, 5, Rule::Freestyle);
        let mut over = ttt_board();
        for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)] {
            over.play(over.pos(x, y).unwrap()).unwrap();
        }
        for &(level, _) in TTT_LEVELS {
            let mut p = ttt_player(level, 7).unwrap();
            assert_eq!(p.name(), level);
            assert_eq!(p.choose(&big), None);
            assert_eq!(p.choose(&over), None);
            let b = ttt_board();
            let mv = p.choose(&b).unwrap();
            assert!(b.check(mv).is_ok());
        }
        assert!(ttt_player("nonsense", 0).is_none());
        assert!(ttt_player("SMART", 0).is_some());
    }

    #[test]
    fn bench_solves_every_position() {
        let r = bench();
        assert_eq!(r.positions, 5478);
        assert!(r.nodes > 0);
        assert_eq!(r.signature, bench().signature);
        assert!(r.to_string().contains("positions: 5478"));
    }
}
