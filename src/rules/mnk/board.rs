//! The m x n board with k in a row, the physics of gomoku (k = 5, sizes 5..32, rectangular too)
//! and tic-tac-toe (3 x 3, k = 3): the cells, the move history (for undo), the Zobrist hash, the
//! lines through a point and the win test under the rule's win condition. Which moves are
//! refused is [`super::legal`]'s; no search and no I/O live here.
//!
//! Cells are stored in a padded one-dimensional array so that every on-board cell can look
//! [`PAD`] cells away in any of the four line directions without a bounds check:
//!
//! ```text
//!   row stride = width + PAD       the PAD cells right of a row double as the left
//!   . . . . . # # # # #            padding of the next row, so a horizontal step
//!   . . . . . # # # # #            never wraps onto the board
//!   # = Wall, PAD rows of Wall above and below the board
//! ```
//!
//! A point walled off inside the board ([`Board::block`], a Gomocup field-3 point) holds a Wall
//! too, so every line scan and pattern stops there as at the edge.

use std::fmt;
use std::sync::OnceLock;

use crate::rules::notation::column_letter;
use crate::rules::splitmix::zobrist_keys;
use crate::rules::{Color, Rule};

/// Largest board side accepted (Gomocup boards go up to 32 in Piskvork).
pub const MAX_SIZE: usize = 32;
/// Cells of wall around the board; line patterns look this far from a cell.
pub const PAD: usize = 5;
/// Largest padded array any board can need.
pub const MAX_CELLS: usize = (MAX_SIZE + 2 * PAD) * (MAX_SIZE + PAD) + PAD;

/// What a padded array slot holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Wall = 3,
}

impl Cell {
    /// The colour of a stone, if the cell holds one.
    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// A point of the padded array. Only positions made by [`Board::pos`] (or read back from a board)
/// are meaningful, and only for boards of the same width.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord, Default)]
pub struct Pos(pub u16);

impl Pos {
    /// The array index.
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }
    /// The point `steps` cells along direction offset `dir`.
    #[inline]
    pub fn step(self, dir: isize, steps: isize) -> Pos {
        Pos((self.0 as isize + dir * steps) as u16)
    }
}

/// Why a board could not be made.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SizeError {
    pub width: usize,
    pub height: usize,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unsupported board size {}x{} (sides must be 5..{MAX_SIZE})",
            self.width, self.height
        )
    }
}

impl std::error::Error for SizeError {}

/// Zobrist keys from a fixed-seed generator, so hashes are the same in every run.
fn zobrist() -> &'static [[u64; MAX_CELLS]; 2] {
    static KEYS: OnceLock<Box<[[u64; MAX_CELLS]; 2]>> = OnceLock::new();
    KEYS.get_or_init(|| zobrist_keys(0x5EA7_E5EA_7E5E_A7E5))
}

/// Key mixed into the hash when white is to move.
const SIDE_KEY: u64 = 0x2D35_8DCC_AA6C_78A5;

/// An m x n board with k in a row, its history and its hash.
#[derive(Clone, Debug)]
pub struct Board {
    width: usize,
    height: usize,
    stride: usize,
    k: usize,
    rule: Rule,
    cells: Vec<Cell>,
    history: Vec<(Pos, Color)>,
    to_move: Color,
    hash: u64,
    winner: Option<Color>,
    /// On-board points walled off for the whole game ([`Board::block`]).
    blocked: Vec<Pos>,
}

/// The hash key of a blocked point: both colours' keys at once, which no stone makes.
fn block_key(p: Pos) -> u64 {
    zobrist()[0][p.idx()] ^ zobrist()[1][p.idx()]
}

impl Board {
    /// An empty gomoku board (k = 5). Sides must be 5..=32.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, SizeError> {
        if !(5..=MAX_SIZE).contains(&width) || !(5..=MAX_SIZE).contains(&height) {
            return Err(SizeError { width, height });
        }
        Ok(Board::with_k(width, height, 5, rule))
    }

    /// An empty board with `k` in a row (tic-tac-toe: 3, 3, 3). Panics only on sizes above
    /// [`MAX_SIZE`] or zero, which callers validate first.
    pub fn with_k(width: usize, height: usize, k: usize, rule: Rule) -> Board {
        assert!(width >= 1 && height >= 1 && width <= MAX_SIZE && height <= MAX_SIZE);
        assert!((1..=PAD).contains(&k));
        let stride = width + PAD;
        let total = (height + 2 * PAD) * stride + PAD;
        let mut cells = vec![Cell::Wall; total];
        for y in 0..height {
            for x in 0..width {
                cells[(y + PAD) * stride + x + PAD] = Cell::Empty;
            }
        }
        Board {
            width,
            height,
            stride,
            k,
            rule,
            cells,
            history: Vec::with_capacity(width * height),
            to_move: Color::Black,
            hash: 0,
            winner: None,
            blocked: Vec::new(),
        }
    }

    /// Walls off the empty point `p` for the rest of the game (a Gomocup field-3 point): no
    /// one plays there, and it breaks every line through it as the board's edge does. Set-up
    /// only, before any stone is played; returns false (and changes nothing) when `p` is not
    /// an empty point.
    pub fn block(&mut self, p: Pos) -> bool {
        if p.idx() >= self.cells.len() || self.cells[p.idx()] != Cell::Empty {
            return false;
        }
        self.cells[p.idx()] = Cell::Wall;
        self.hash ^= block_key(p);
        self.blocked.push(p);
        true
    }

    /// The points walled off by [`Board::block`].
    #[inline]
    pub fn blocked(&self) -> &[Pos] {
        &self.blocked
    }

    /// Whether nothing is on the board: no stone and no blocked point (an opening move).
    #[inline]
    pub fn is_bare(&self) -> bool {
        self.history.is_empty() && self.blocked.is_empty()
    }

    /// Board width (the X extent).
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }
    /// Board height (the Y extent).
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }
    /// Stones in a row needed to win.
    #[inline]
    pub fn k(&self) -> usize {
        self.k
    }
    /// The rule in force.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }
    /// Row stride of the padded array.
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }
    /// Length of the padded array.
    #[inline]
    pub fn array_len(&self) -> usize {
        self.cells.len()
    }
    /// The four line directions as array offsets: horizontal, vertical, diagonal, anti-diagonal.
    #[inline]
    pub fn dirs(&self) -> [isize; 4] {
        let s = self.stride as isize;
        [1, s, s + 1, s - 1]
    }
    /// The position of (x, y), if on the board.
    #[inline]
    pub fn pos(&self, x: i64, y: i64) -> Option<Pos> {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return None;
        }
        Some(Pos(
            ((y as usize + PAD) * self.stride + x as usize + PAD) as u16
        ))
    }
    /// The (x, y) coordinates of an on-board position.
    #[inline]
    pub fn xy(&self, p: Pos) -> (usize, usize) {
        let i = p.idx();
        (i % self.stride - PAD, i / self.stride - PAD)
    }
    /// What the array holds at `p` (Wall off the board).
    #[inline]
    pub fn cell(&self, p: Pos) -> Cell {
        self.cells[p.idx()]
    }
    /// What is at (x, y); Wall when off the board.
    pub fn get(&self, x: i64, y: i64) -> Cell {
        self.pos(x, y).map_or(Cell::Wall, |p| self.cell(p))
    }
    /// Whether `p` is an empty on-board point.
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.idx()] == Cell::Empty
    }
    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    /// Sets the side to move (position set-up from a protocol).
    pub fn set_to_move(&mut self, c: Color) {
        if self.to_move != c {
            self.hash ^= SIDE_KEY;
        }
        self.to_move = c;
    }
    /// Zobrist hash of stones and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Stones on the board.
    #[inline]
    pub fn stones(&self) -> usize {
        self.history.len()
    }
    /// Every placed stone in order.
    #[inline]
    pub fn history(&self) -> &[(Pos, Color)] {
        &self.history
    }
    /// The last stone placed.
    #[inline]
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|m| m.0)
    }
    /// Whether every point is taken.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.history.len() + self.blocked.len() == self.width * self.height
    }
    /// The winner, once a winning line has been made.
    #[inline]
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }
    /// Whether the game has ended (a win or a full board).
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.is_full()
    }
    /// Every on-board position, row by row.
    pub fn points(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height)
            .flat_map(move |y| (0..self.width).map(move |x| (x, y)))
            .map(move |(x, y)| Pos(((y + PAD) * self.stride + x + PAD) as u16))
    }
    /// Every empty position, row by row.
    pub fn empty_points(&self) -> impl Iterator<Item = Pos> + '_ {
        self.points().filter(move |&p| self.is_empty(p))
    }
    /// The centre point (rounded down), where an empty-board opening goes.
    pub fn centre(&self) -> Pos {
        self.pos((self.width / 2) as i64, (self.height / 2) as i64)
            .expect("centre is on board")
    }

    /// Plays for the side to move with no legality test (the search's path); returns whether the
    /// move made a winning line.
    #[inline]
    pub fn play_unchecked(&mut self, p: Pos) -> bool {
        let c = self.to_move;
        self.put(p, c);
        self.to_move = c.opponent();
        self.hash ^= SIDE_KEY;
        let won = self.makes_win(p, c);
        if won {
            self.winner = Some(c);
        }
        won
    }

    /// Plays for the side to move when the caller already knows whether the move wins (the
    /// search's pattern board does), skipping the line scan. Passing a wrong `wins` corrupts
    /// the game result, so only code that derives it from exact patterns may call this.
    #[inline]
    pub fn play_trusted(&mut self, p: Pos, wins: bool) {
        let c = self.to_move;
        self.put(p, c);
        self.to_move = c.opponent();
        self.hash ^= SIDE_KEY;
        if wins {
            self.winner = Some(c);
        }
        debug_assert_eq!(wins, self.makes_win(p, c), "pattern and line scan disagree");
    }

    /// Puts a stone of `color` on `p` without changing the side to move (position set-up); the
    /// caller has checked that `p` is empty. Returns whether it made a winning line.
    pub fn place(&mut self, p: Pos, color: Color) -> bool {
        self.put(p, color);
        let won = self.makes_win(p, color);
        if won && self.winner.is_none() {
            self.winner = Some(color);
        }
        won
    }

    #[inline]
    fn put(&mut self, p: Pos, c: Color) {
        debug_assert_eq!(self.cells[p.idx()], Cell::Empty);
        self.cells[p.idx()] = c.cell();
        self.hash ^= zobrist()[c.index()][p.idx()];
        self.history.push((p, c));
    }

    /// Sets a cell without touching history, hash or winner: for hypothetical analysis such as the
    /// renju forbidden-point recursion. The caller must restore the cell before the board is used
    /// for anything else.
    #[inline]
    pub fn set_scratch(&mut self, p: Pos, cell: Cell) {
        debug_assert_ne!(self.cells[p.idx()], Cell::Wall);
        self.cells[p.idx()] = cell;
    }

    /// Takes back the last stone; the side to move becomes its owner again.
    pub fn undo(&mut self) -> Option<Pos> {
        let (p, c) = self.history.pop()?;
        self.cells[p.idx()] = Cell::Empty;
        self.hash ^= zobrist()[c.index()][p.idx()];
        if self.to_move != c {
            self.hash ^= SIDE_KEY;
        }
        self.to_move = c;
        // A win can only have been made by the stone just removed or an earlier one; recompute
        // cheaply by asking whether the previous state had a winner (rare: only after a win).
        if self.winner.is_some() {
            self.winner = None;
            let placed: Vec<(Pos, Color)> = self.history.clone();
            for (q, qc) in placed {
                if self.makes_win(q, qc) {
                    self.winner = Some(qc);
                    break;
                }
            }
        }
        Some(p)
    }

    /// Removes the stone at `p`, wherever it is in the history (Gomocup TAKEBACK names a point).
    /// The side to move becomes the removed stone's owner.
    pub fn remove(&mut self, p: Pos) -> Option<Color> {
        let at = self.history.iter().rposition(|&(q, _)| q == p)?;
        let tail: Vec<(Pos, Color)> = self.history[at + 1..].to_vec();
        for _ in 0..tail.len() {
            self.undo();
        }
        let owner = self.history[at].1;
        self.undo();
        for (q, qc) in tail {
            self.place(q, qc);
        }
        self.set_to_move(owner);
        Some(owner)
    }

    /// Length of the run of `color` stones through `p` along `dir` (counting `p` itself, which
    /// must hold `color` or be treated as if it did).
    #[inline]
    pub fn run_through(&self, p: Pos, dir: isize, color: Color) -> usize {
        let cell = color.cell();
        let mut n = 1;
        let mut q = p.step(dir, 1);
        while self.cells[q.idx()] == cell {
            n += 1;
            q = q.step(dir, 1);
        }
        q = p.step(dir, -1);
        while self.cells[q.idx()] == cell {
            n += 1;
            q = q.step(dir, -1);
        }
        n
    }

    /// Whether a stone of `color` at `p` (placed or imagined) completes a winning line under the
    /// board's rule.
    pub fn makes_win(&self, p: Pos, color: Color) -> bool {
        let exact = self.rule.exact_five(color);
        let caro = self.rule.caro();
        let cell = color.cell();
        for dir in self.dirs() {
            let mut fwd = 0;
            let mut q = p.step(dir, 1);
            while self.cells[q.idx()] == cell {
                fwd += 1;
                q = q.step(dir, 1);
            }
            let end_a = self.cells[q.idx()];
            let mut back = 0;
            q = p.step(dir, -1);
            while self.cells[q.idx()] == cell {
                back += 1;
                q = q.step(dir, -1);
            }
            let end_b = self.cells[q.idx()];
            let n = fwd + back + 1;
            if n < self.k || (exact && n > self.k) {
                continue;
            }
            if caro {
                let opp = color.opponent().cell();
                if end_a == opp && end_b == opp {
                    continue;
                }
            }
            return true;
        }
        false
    }

    /// Renders the board as text: `X` black, `O` white, `.` empty, columns lettered.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        s.push_str("   ");
        for x in 0..self.width {
            s.push(column_letter(x));
            s.push(' ');
        }
        s.push('\n');
        for y in 0..self.height {
            s.push_str(&format!("{:>2} ", y));
            for x in 0..self.width {
                let c = self.get(x as i64, y as i64);
                s.push(match c {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    Cell::Wall => '#',
                    Cell::Empty => '.',
                });
                s.push(' ');
            }
            s.push('\n');
        }
        s
    }

    /// Debug-build check that the incremental hash matches a fresh computation.
    pub fn validate(&self) {
        let mut h = 0u64;
        for &(p, c) in &self.history {
            debug_assert_eq!(self.cells[p.idx()], c.cell());
            h ^= zobrist()[c.index()][p.idx()];
        }
        for &p in &self.blocked {
            debug_assert_eq!(self.cells[p.idx()], Cell::Wall);
            h ^= block_key(p);
        }
        if self.to_move == Color::White {
            h ^= SIDE_KEY;
        }
        debug_assert_eq!(h, self.hash, "incremental hash drifted");
        let on_board = self.points().filter(|&p| !self.is_empty(p)).count();
        debug_assert_eq!(on_board, self.history.len() + self.blocked.len());
    }
}

/// The eight symmetries of the square applied to an offset: bit 2 swaps x and y, bit 0 negates
/// x, bit 1 negates y (`k` in 0..8; 0 is the identity).
pub fn symmetry(k: u32, x: i64, y: i64) -> (i64, i64) {
    let (x, y) = if k & 4 != 0 { (y, x) } else { (x, y) };
    let x = if k & 1 != 0 { -x } else { x };
    let y = if k & 2 != 0 { -y } else { y };
    (x, y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::splitmix::splitmix64;

    #[test]
    fn coordinates_round_trip() {
        let b = Board::new(15, 20, Rule::Freestyle).unwrap();
        for y in 0..20 {
            for x in 0..15 {
                let p = b.pos(x, y).unwrap();
                assert_eq!(b.xy(p), (x as usize, y as usize));
                assert_eq!(b.cell(p), Cell::Empty);
            }
        }
        assert!(b.pos(15, 0).is_none());
        assert!(b.pos(-1, 0).is_none());
        assert_eq!(b.get(-1, 3), Cell::Wall);
    }

    #[test]
    fn sizes_outside_five_to_thirty_two_are_refused() {
        assert!(Board::new(4, 15, Rule::Freestyle).is_err());
        assert!(Board::new(33, 15, Rule::Freestyle).is_err());
        assert!(Board::new(32, 32, Rule::Freestyle).is_ok());
        assert!(Board::new(5, 5, Rule::Freestyle).is_ok());
    }

    #[test]
    fn walls_surround_the_board_in_every_direction() {
        let b = Board::new(5, 5, Rule::Freestyle).unwrap();
        for p in b.points() {
            for d in b.dirs() {
                for k in 1..=PAD as isize {
                    for s in [k, -k] {
                        let q = p.step(d, s);
                        let (x, y) = b.xy(p);
                        let _ = (x, y);
                        assert!(q.idx() < b.array_len());
                    }
                }
            }
        }
        // Stepping right off the last column lands on a wall, not the next row.
        let p = b.pos(4, 2).unwrap();
        assert_eq!(b.cell(p.step(1, 1)), Cell::Wall);
        let p = b.pos(0, 2).unwrap();
        assert_eq!(b.cell(p.step(1, -1)), Cell::Wall);
    }

    fn play_all(b: &mut Board, moves: &[(i64, i64)]) -> bool {
        let mut won = false;
        for &(x, y) in moves {
            won = b.play(b.pos(x, y).unwrap()).unwrap();
        }
        won
    }

    #[test]
    fn five_wins_and_overline_depends_on_rule() {
        // Black builds x = 0..=4 and 6 on row 0, white answers on row 5; black fills 5 last.
        let moves = [
            (0, 0),
            (0, 5),
            (1, 0),
            (1, 5),
            (2, 0),
            (2, 5),
            (3, 0),
            (9, 9),
            (6, 0),
            (9, 8),
            (4, 0),
        ];
        let mut free = Board::new(15, 15, Rule::Freestyle).unwrap();
        assert!(!play_all(&mut free, &moves[..10]));
        assert!(play_all(&mut free, &moves[10..]));
        assert_eq!(free.winner(), Some(Color::Black));
        // Filling x = 5 as well would be a six: not a win under standard.
        let mut std_board = Board::new(15, 15, Rule::Standard).unwrap();
        let six = [
            (0, 0),
            (0, 5),
            (1, 0),
            (1, 5),
            (2, 0),
            (2, 5),
            (4, 0),
            (9, 9),
            (5, 0),
            (9, 8),
            (3, 0),
        ];
        assert!(!play_all(&mut std_board, &six));
        let mut free2 = Board::new(15, 15, Rule::Freestyle).unwrap();
        assert!(play_all(&mut free2, &six));
    }

    #[test]
    fn caro_five_blocked_at_both_ends_does_not_win() {
        let mut b = Board::new(15, 15, Rule::Caro).unwrap();
        let w = Color::White;
        b.place(b.pos(0, 0).unwrap(), w);
        b.place(b.pos(6, 0).unwrap(), w);
        for x in 1..=4 {
            b.place(b.pos(x, 0).unwrap(), Color::Black);
        }
        assert!(!b.makes_win(b.pos(5, 0).unwrap(), Color::Black));
        let mut open = Board::new(15, 15, Rule::Caro).unwrap();
        open.place(open.pos(0, 0).unwrap(), w);
        for x in 1..=4 {
            open.place(open.pos(x, 0).unwrap(), Color::Black);
        }
        assert!(open.makes_win(open.pos(5, 0).unwrap(), Color::Black));
        // The board edge is not an opponent stone.
        let mut edge = Board::new(15, 15, Rule::Caro).unwrap();
        edge.place(edge.pos(5, 0).unwrap(), w);
        for x in 0..=3 {
            edge.place(edge.pos(x, 0).unwrap(), Color::Black);
        }
        assert!(edge.makes_win(edge.pos(4, 0).unwrap(), Color::Black));
    }

    #[test]
    fn random_play_and_undo_keep_the_hash_consistent() {
        let mut state = 42u64;
        for _ in 0..50 {
            let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
            let start = b.hash();
            let mut played = 0;
            while !b.is_over() && played < 60 {
                let empties: Vec<Pos> = b.empty_points().collect();
                let p = empties[(splitmix64(&mut state) % empties.len() as u64) as usize];
                b.play(p).unwrap();
                played += 1;
                b.validate();
            }
            while b.undo().is_some() {
                b.validate();
            }
            assert_eq!(b.hash(), start);
            assert!(b.winner().is_none());
        }
    }

    #[test]
    fn remove_takes_back_a_stone_from_the_middle_of_history() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let a = b.pos(1, 1).unwrap();
        let c = b.pos(2, 2).unwrap();
        let d = b.pos(3, 3).unwrap();
        b.play(a).unwrap();
        b.play(c).unwrap();
        b.play(d).unwrap();
        assert_eq!(b.remove(c), Some(Color::White));
        assert_eq!(b.stones(), 2);
        assert!(b.is_empty(c));
        assert_eq!(b.cell(d), Cell::Black);
        assert_eq!(b.to_move(), Color::White);
        b.validate();
    }
}
