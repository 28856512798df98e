//! Go board physics (no law beyond one move): stones, groups, liberties, captures, the simple-ko
//! point and an incremental Zobrist hash. History, superko and undo live in [`super::game`].
//!
//! Points index a padded one-dimensional array. One column of wall between rows serves as both
//! the right edge of a row and the left edge of the next, and a wall row lies above and below:
//!
//! ```text
//!   stride = width + 1
//!   # # # # # #        row 0: wall
//!   # . . . . .        rows 1..=height: column 0 is wall, then the board (y = row - 1)
//!   # . . . . .        the right neighbour of the last column is column 0 of the next row
//!   # # # # # # #      row height + 1: wall (plus one cell for the top-right diagonal)
//! ```
//!
//! Groups are circular linked lists of stones (`next`) with a representative (`head`). Each
//! group keeps *pseudo-liberties*: one count per (stone, empty neighbour) pair, with their sum
//! and sum of squares, packed in one word. A group is captured when the count reaches zero,
//! and it is in atari exactly when every pseudo-liberty is the same point, which holds when
//! `count * sum_of_squares == sum * sum` (equality in Cauchy–Schwarz); the liberty is then
//! `sum / count`. Exact liberty counts are computed on demand by walking the group.

use std::fmt;
use std::sync::OnceLock;

mod liberties;

use super::nbr3::{self, slots_holding, Nbr3Table, Slots, OPPOSITE, ORTH_SLOTS, SLOTS};
use crate::rules::splitmix::zobrist_keys;
use crate::rules::Color;

/// Smallest accepted board side.
pub const MIN_SIDE: usize = 2;
/// Largest accepted board side (the GTP notation ends at column Z).
pub const MAX_SIDE: usize = COLUMNS.len();
/// Length of the padded array of the largest board.
pub const MAX_POINTS: usize = (MAX_SIDE + 2) * (MAX_SIDE + 1) + 1;

/// Cell contents in the padded array; black and white share their values with [`Color`].
pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
pub(crate) const WALL: u8 = 3;

/// The column letters of GTP and showboard: `A`..`Z` without `I`.
pub use crate::rules::notation::GTP_COLUMNS as COLUMNS;

/// An index into a board's padded array. Only points made by [`GoBoard::point`] (or read from a
/// board) mean anything, and only for boards of the same width.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord, Default)]
pub struct Point(pub u16);

impl Point {
    /// The array index.
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// A move: a stone on a point, or a pass. Resigning is a player's decision, not a move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum GoMove {
    Play(Point),
    Pass,
}

/// A board side outside `MIN_SIDE..=MAX_SIDE`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SizeError {
    pub width: usize,
    pub height: usize,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unsupported Go board size {}x{} (sides must be {MIN_SIDE}..{MAX_SIDE})",
            self.width, self.height
        )
    }
}

impl std::error::Error for SizeError {}

/// Zobrist keys (per colour, per padded index) from a fixed-seed generator.
fn zobrist() -> &'static [[u64; MAX_POINTS]; 2] {
    static KEYS: OnceLock<Box<[[u64; MAX_POINTS]; 2]>> = OnceLock::new();
    KEYS.get_or_init(|| zobrist_keys(0x60B0_A4D5_E57E_0003))
}

/// The key table, held by every board so the hot path skips the lazy-init check.
#[derive(Clone, Copy)]
struct Keys(&'static [[u64; MAX_POINTS]; 2]);

impl Keys {
    #[inline]
    fn get(self, color: u8, p: usize) -> u64 {
        self.0[color as usize - 1][p]
    }
}

impl fmt::Debug for Keys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Keys")
    }
}

/// The colour of a cell value, if it holds a stone.
#[inline]
pub(crate) fn cell_color(v: u8) -> Option<Color> {
    match v {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}

/// A group's pseudo-liberties packed in one word: their count (bits 0..12), the sum of their
/// points (bits 12..33) and the sum of their squares (bits 33..64). Each field is a sum over
/// (stone, empty neighbour) pairs, so adding or removing a pair, or merging two groups, is one
/// add or subtract of the whole word, and no field can borrow from the next. The widths hold
/// the largest board: at most 4 x 625 pairs, points below 703, so 2,500 < 2^12, 2,500 x 702
/// < 2^21 and 2,500 x 702^2 < 2^31.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct PseudoLibs(u64);

impl PseudoLibs {
    const SUM_SHIFT: u32 = 12;
    const SUM2_SHIFT: u32 = 33;

    /// One pair with the empty point `lib`.
    #[inline(always)]
    fn one(lib: usize) -> u64 {
        let l = lib as u64;
        1 | (l << Self::SUM_SHIFT) | ((l * l) << Self::SUM2_SHIFT)
    }
    #[inline(always)]
    fn count(self) -> u64 {
        self.0 & ((1 << Self::SUM_SHIFT) - 1)
    }
    #[inline(always)]
    fn sum(self) -> u64 {
        (self.0 >> Self::SUM_SHIFT) & ((1 << (Self::SUM2_SHIFT - Self::SUM_SHIFT)) - 1)
    }
    #[inline(always)]
    fn sum2(self) -> u64 {
        self.0 >> Self::SUM2_SHIFT
    }
    /// Whether every pair names the same point (and there is one): Cauchy-Schwarz with equality.
    #[inline(always)]
    fn single(self) -> bool {
        let n = self.count();
        n > 0 && n * self.sum2() == self.sum() * self.sum()
    }
    /// The point every pair names, when [`PseudoLibs::single`].
    #[inline(always)]
    fn the_point(self) -> usize {
        (self.sum() / self.count()) as usize
    }
}

/// Reads `v[i]` without a bounds check. Every index the board passes here is an on-board point
/// or one of its eight neighbours, which the padding keeps inside the array (`new` sizes it
/// so); debug builds check.
#[inline(always)]
fn at<T: Copy>(v: &[T], i: usize) -> T {
    debug_assert!(i < v.len());
    // SAFETY: see above: i < v.len() for every call.
    unsafe { *v.get_unchecked(i) }
}

/// Writes `v[i]` without a bounds check; same contract as [`at`].
#[inline(always)]
fn at_mut<T>(v: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < v.len());
    // SAFETY: see `at`.
    unsafe { v.get_unchecked_mut(i) }
}

/// The physics of a Go position. Its arrays are sized for the largest board, so a clone copies
/// them whole; [`GoBoard::copy_from`] copies only the part in use and is what the search uses for
/// playouts.
#[derive(Clone, Debug)]
pub struct GoBoard {
    width: usize,
    height: usize,
    stride: usize,
    /// Length of the padded array in use (the arrays below are sized for the largest board, so
    /// they live inside the board and the hot path reaches them without loading a pointer).
    len: usize,
    cell: [u8; MAX_POINTS],
    /// Group representative of each stone.
    head: [u16; MAX_POINTS],
    /// Next stone of the same group (circular).
    next: [u16; MAX_POINTS],
    /// Per group, indexed by its head: stones and pseudo-liberties.
    size: [u16; MAX_POINTS],
    libs: [PseudoLibs; MAX_POINTS],
    /// Empty points, unordered (the first `n_empty`), and each empty point's index there.
    empties: [u16; MAX_POINTS],
    n_empty: usize,
    empty_at: [u16; MAX_POINTS],
    /// 3x3 neighbourhood code of every point ([`nbr3`]), and the offsets of the eight slots.
    nbr3: [u16; MAX_POINTS],
    slot_offset: [usize; 8],
    nbr3_table: &'static Nbr3Table,
    hash: u64,
    /// Simple-ko point (0 = none) and the colour that may not play there next.
    ko: u16,
    ko_color: u8,
    captures: [u32; 2],
    stones: [u16; 2],
    /// The last stone played (0 after a pass or at the start) and its colour.
    last: u16,
    /// The stone played before the last move (0: none, or a pass).
    prev: u16,
    last_color: u8,
    /// Whether suicide of more than zero stones is allowed (the Rules value decides).
    suicide: bool,
    keys: Keys,
    /// False once a playout move skipped the hash update.
    hashed: bool,
}

impl GoBoard {
    /// An empty board; each side 2..=25.
    pub fn new(width: usize, height: usize) -> Result<GoBoard, SizeError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(SizeError { width, height });
        }
        let stride = width + 1;
        let len = (height + 2) * stride + 1;
        let mut b = GoBoard {
            width,
            height,
            stride,
            len,
            cell: [WALL; MAX_POINTS],
            head: [0; MAX_POINTS],
            next: [0; MAX_POINTS],
            size: [0; MAX_POINTS],
            libs: [PseudoLibs(0); MAX_POINTS],
            empties: [0; MAX_POINTS],
            n_empty: 0,
            empty_at: [0; MAX_POINTS],
            nbr3: [0; MAX_POINTS],
            slot_offset: SLOTS
                .map(|(dx, dy)| (dy as isize * stride as isize + dx as isize) as usize),
            nbr3_table: nbr3::table(),
            hash: 0,
            ko: 0,
            ko_color: 0,
            captures: [0; 2],
            stones: [0; 2],
            last: 0,
            prev: 0,
            last_color: 0,
            suicide: false,
            keys: Keys(zobrist()),
            hashed: true,
        };
        for y in 0..height {
            for x in 0..width {
                let p = (y + 1) * stride + x + 1;
                b.cell[p] = EMPTY;
                b.add_empty(p);
            }
        }
        for p in 0..len {
            b.nbr3[p] = b.fresh_nbr3(p);
        }
        Ok(b)
    }

    /// The 3x3 code of `p` read from the cells (walls outside the array).
    fn fresh_nbr3(&self, p: usize) -> u16 {
        nbr3::code_of(std::array::from_fn(|k| {
            let n = self.slot_neighbor(p, k);
            self.cells().get(n).copied().unwrap_or(WALL)
        }))
    }

    /// Tells the eight neighbours of `p` that its cell changed by `delta` (the XOR of the old
    /// and new cell values).
    #[inline(always)]
    fn touch_nbr3(&mut self, p: usize, delta: u8) {
        for (offset, opposite) in self.slot_offset.into_iter().zip(OPPOSITE) {
            let n = p.wrapping_add(offset);
            *at_mut(&mut self.nbr3, n) ^= u16::from(delta) << (2 * opposite);
        }
    }

    /// Becomes a copy of `other` without allocating when the sizes match.
    pub fn copy_from(&mut self, other: &GoBoard) {
        self.width = other.width;
        self.height = other.height;
        self.stride = other.stride;
        // Only the part of each array in use is copied (a 9x9 board uses 111 of 703 cells).
        let n = other.len;
        // Past the part in use every cell reads as wall (the 3x3 codes of the edge rely on it),
        // so only a bigger board's leftover needs clearing.
        if self.len > n {
            self.cell[n..self.len].fill(WALL);
        }
        self.len = n;
        self.cell[..n].copy_from_slice(&other.cell[..n]);
        self.head[..n].copy_from_slice(&other.head[..n]);
        self.next[..n].copy_from_slice(&other.next[..n]);
        self.size[..n].copy_from_slice(&other.size[..n]);
        self.libs[..n].copy_from_slice(&other.libs[..n]);
        self.empty_at[..n].copy_from_slice(&other.empty_at[..n]);
        self.nbr3[..n].copy_from_slice(&other.nbr3[..n]);
        self.n_empty = other.n_empty;
        self.empties[..other.n_empty].copy_from_slice(other.empty_points());
        self.slot_offset = other.slot_offset;
        self.hash = other.hash;
        self.ko = other.ko;
        self.ko_color = other.ko_color;
        self.captures = other.captures;
        self.stones = other.stones;
        self.last = other.last;
        self.prev = other.prev;
        self.last_color = other.last_color;
        self.suicide = other.suicide;
        self.keys = other.keys;
        self.hashed = other.hashed;
    }

    /// Board width (columns).
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }
    /// Board height (rows).
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }
    /// Row stride of the padded array.
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }
    /// Length of the padded array (every point index is below it).
    #[inline]
    pub fn array_len(&self) -> usize {
        self.len
    }

    /// The cells of the padded array in use.
    #[inline]
    fn cells(&self) -> &[u8] {
        &self.cell[..self.len]
    }
    /// Whether suicide (of the played stone's group) is a legal move on this board.
    pub fn suicide_allowed(&self) -> bool {
        self.suicide
    }
    /// Sets whether suicide is legal (from the rules).
    pub fn set_suicide_allowed(&mut self, allowed: bool) {
        self.suicide = allowed;
    }

    /// The point at column `x` from the left and row `y` from the bottom (GTP row 1), 0-based.
    #[inline]
    pub fn point(&self, x: usize, y: usize) -> Option<Point> {
        if x >= self.width || y >= self.height {
            return None;
        }
        Some(Point(((y + 1) * self.stride + x + 1) as u16))
    }
    /// The (x, y) of an on-board point (x from the left, y from the bottom, 0-based).
    #[inline]
    pub fn xy(&self, p: Point) -> (usize, usize) {
        let i = p.idx();
        (i % self.stride - 1, i / self.stride - 1)
    }
    /// Whether `p` is a point of this board (not a wall, not out of the array).
    #[inline]
    pub fn on_board(&self, p: Point) -> bool {
        p.idx() < self.len && at(&self.cell, p.idx()) != WALL
    }
    /// The stone on `p`, if any (None for empty or off-board points).
    #[inline]
    pub fn get(&self, p: Point) -> Option<Color> {
        self.cells().get(p.idx()).and_then(|&v| cell_color(v))
    }
    /// Raw cell value: 0 empty, 1 black, 2 white, 3 wall.
    #[inline]
    pub(crate) fn cell(&self, p: usize) -> u8 {
        at(&self.cell, p)
    }
    /// Whether `p` is an empty on-board point.
    #[inline]
    pub fn is_empty(&self, p: Point) -> bool {
        self.cells().get(p.idx()) == Some(&EMPTY)
    }
    /// Every on-board point, row by row from the bottom.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let (w, s) = (self.width, self.stride);
        (0..self.height).flat_map(move |y| (0..w).map(move |x| Point(((y + 1) * s + x + 1) as u16)))
    }
    /// The empty points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[u16] {
        &self.empties[..self.n_empty]
    }
    /// The four orthogonal neighbours (walls included).
    #[inline]
    pub fn neighbors(&self, p: usize) -> [usize; 4] {
        [p - self.stride, p - 1, p + 1, p + self.stride]
    }
    /// The neighbour of `p` in slot `k` of its 3x3 code ([`nbr3::SLOTS`] order).
    #[inline(always)]
    pub(crate) fn slot_neighbor(&self, p: usize, k: usize) -> usize {
        p.wrapping_add(self.slot_offset[k])
    }
    /// The orthogonal neighbours of `p` holding `v` (1 black, 2 white), read from `p`'s 3x3
    /// code: only those cells are visited, which spares a branch per neighbour.
    #[inline(always)]
    pub(crate) fn orth_neighbors_holding(
        &self,
        p: usize,
        v: u8,
    ) -> impl Iterator<Item = usize> + '_ {
        Slots(slots_holding(at(&self.nbr3, p), v) & ORTH_SLOTS)
            .map(move |k| self.slot_neighbor(p, k))
    }
    /// The four diagonal neighbours (walls included).
    #[inline]
    pub fn diagonals(&self, p: usize) -> [usize; 4] {
        let s = self.stride;
        [p - s - 1, p - s + 1, p + s - 1, p + s + 1]
    }
    /// Zobrist hash of the stones only (what positional superko compares).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Prisoners taken by `by` (suicided stones count for the opponent).
    #[inline]
    pub fn captures(&self, by: Color) -> u32 {
        self.captures[by.index()]
    }
    /// Sets the prisoners taken so far, black's then white's (a position set up in mid-game
    /// keeps those of the game before it).
    pub fn set_prisoners(&mut self, prisoners: [u32; 2]) {
        self.captures = prisoners;
    }
    /// Stones on the board.
    #[inline]
    pub fn stone_count(&self) -> usize {
        (self.stones[0] + self.stones[1]) as usize
    }
    /// Stones of one colour on the board.
    #[inline]
    pub fn stones_of(&self, c: Color) -> usize {
        self.stones[c.index()] as usize
    }
    /// The simple-ko point and the colour that may not play there on the next move.
    #[inline]
    pub fn ko(&self) -> Option<(Point, Color)> {
        if self.ko == 0 {
            None
        } else {
            cell_color(self.ko_color).map(|c| (Point(self.ko), c))
        }
    }
    /// The last stone played and its colour (None after a pass or on a fresh board).
    #[inline]
    pub fn last_move(&self) -> Option<(Point, Color)> {
        if self.last == 0 {
            None
        } else {
            cell_color(self.last_color).map(|c| (Point(self.last), c))
        }
    }

    /// The point of the stone played before the last move (None when that was a pass or the
    /// board is fresh); the stone may have been captured since.
    pub fn move_before_last(&self) -> Option<Point> {
        (self.prev != 0).then_some(Point(self.prev))
    }

    /// Representative of the group on `p` (a stone).
    #[inline]
    pub(crate) fn head(&self, p: usize) -> usize {
        at(&self.head, p) as usize
    }
    /// The next stone of the group on stone `s` (the stones form a ring, so walking from any
    /// stone comes back to it).
    #[inline]
    pub(crate) fn next_in_group(&self, s: usize) -> usize {
        at(&self.next, s) as usize
    }
    /// Stones in the group whose head is `h`.
    #[inline]
    pub(crate) fn group_size(&self, h: usize) -> usize {
        at(&self.size, h) as usize
    }
    /// Whether the group with head `h` has exactly one liberty.
    #[inline]
    pub(crate) fn in_atari(&self, h: usize) -> bool {
        at(&self.libs, h).single()
    }
    /// The only liberty of a group in atari (head `h`).
    #[inline]
    pub(crate) fn atari_liberty(&self, h: usize) -> usize {
        at(&self.libs, h).the_point()
    }

    /// Passes: only the ko point is forgotten.
    #[inline]
    pub fn pass(&mut self) {
        self.ko = 0;
        self.ko_color = 0;
        self.prev = self.last;
        self.last = 0;
        self.last_color = 0;
    }

    /// Plays `c` on `p`, which must satisfy [`GoBoard::is_legal`] (the caller's promise; a
    /// debug build checks the whole state afterwards). Returns the stones captured.
    pub fn play(&mut self, p: Point, c: Color) -> usize {
        debug_assert!(self.is_legal(p, c), "illegal play {p:?} {c:?}");
        let n = self.play_raw(p.idx(), c as u8);
        #[cfg(debug_assertions)]
        self.validate();
        n
    }

    /// The hot path of [`GoBoard::play`].
    #[inline]
    pub(crate) fn play_raw(&mut self, p: usize, c: u8) -> usize {
        self.play_inner::<true>(p, c)
    }

    /// [`GoBoard::play_raw`] without the hash update, for playouts: the hash of the board is
    /// stale afterwards (the board is thrown away or overwritten by [`GoBoard::copy_from`]).
    #[inline]
    pub(crate) fn play_unhashed(&mut self, p: usize, c: u8) -> usize {
        self.play_inner::<false>(p, c)
    }

    // Always inlined: otherwise one out-of-line copy serves every caller and the playouts, the
    // hot path, run about 5% slower (`sente bench go`).
    #[inline(always)]
    fn play_inner<const HASH: bool>(&mut self, p: usize, c: u8) -> usize {
        let opp = 3 - c;
        // The neighbourhood before the stone lands says which loops below have work to do.
        let code = at(&self.nbr3, p);
        let friends = slots_holding(code, c) & ORTH_SLOTS;
        let enemies = slots_holding(code, opp) & ORTH_SLOTS;
        self.remove_empty(p);
        *at_mut(&mut self.cell, p) = c;
        self.touch_nbr3(p, c);
        if HASH {
            self.hash ^= self.keys.get(c, p);
        } else {
            self.hashed = false;
        }
        self.stones[c as usize - 1] += 1;
        *at_mut(&mut self.head, p) = p as u16;
        *at_mut(&mut self.next, p) = p as u16;
        *at_mut(&mut self.size, p) = 1;
        let nbrs = self.neighbors(p);
        // Without a branch on what each neighbour holds (a coin toss in a playout): an empty
        // neighbour adds a pair to the new stone, a stone's group loses its pair with p. The
        // update for a wall or an empty point is zero and aimed at index 0 (a wall), since
        // only stones have a meaningful head.
        let mut own = 0u64;
        let with_p = PseudoLibs::one(p);
        for n in nbrs {
            let v = at(&self.cell, n);
            own += u64::from(v == EMPTY) * PseudoLibs::one(n);
            let stone = usize::from(v.wrapping_sub(BLACK) < 2);
            let h = at(&self.head, n) as usize * stone;
            at_mut(&mut self.libs, h).0 -= stone as u64 * with_p;
        }
        *at_mut(&mut self.libs, p) = PseudoLibs(own);
        // Only the slots the code shows holding a friend or an enemy are visited, one set bit
        // at a time: fewer unpredictable branches than testing all four cells.
        for k in Slots(friends) {
            let n = self.slot_neighbor(p, k);
            let (a, b) = (at(&self.head, p) as usize, at(&self.head, n) as usize);
            if a != b {
                self.merge(a, b);
            }
        }
        let mut captured = 0;
        let mut captured_at = 0;
        for k in Slots(enemies) {
            let n = self.slot_neighbor(p, k);
            // Two slots may show one group: the first visit takes it off the board.
            if at(&self.cell, n) == opp && at(&self.libs, at(&self.head, n) as usize).count() == 0 {
                captured += self.remove_group::<HASH>(at(&self.head, n) as usize);
                captured_at = n;
            }
        }
        self.captures[c as usize - 1] += captured as u32;
        let h = at(&self.head, p) as usize;
        self.ko = 0;
        self.ko_color = 0;
        if captured == 1 && at(&self.size, h) == 1 && at(&self.libs, h).count() == 1 {
            self.ko = captured_at as u16;
            self.ko_color = opp;
        }
        self.prev = self.last;
        self.last = p as u16;
        self.last_color = c;
        if at(&self.libs, h).count() == 0 {
            // Suicide (only reached when the rules allow it): the opponent takes the stones.
            let lost = self.remove_group::<HASH>(h);
            self.captures[opp as usize - 1] += lost as u32;
        }
        captured
    }

    #[inline]
    fn add_lib(&mut self, h: usize, lib: usize) {
        at_mut(&mut self.libs, h).0 += PseudoLibs::one(lib);
    }

    #[inline]
    fn remove_empty(&mut self, p: usize) {
        let i = at(&self.empty_at, p) as usize;
        debug_assert!(self.n_empty > 0, "an empty point to fill");
        self.n_empty -= 1;
        let last = at(&self.empties, self.n_empty);
        if last as usize != p {
            *at_mut(&mut self.empties, i) = last;
            *at_mut(&mut self.empty_at, last as usize) = i as u16;
        }
    }

    #[inline]
    fn add_empty(&mut self, p: usize) {
        *at_mut(&mut self.empty_at, p) = self.n_empty as u16;
        *at_mut(&mut self.empties, self.n_empty) = p as u16;
        self.n_empty += 1;
    }

    /// Joins two groups (heads `a` and `b`), relabelling the smaller.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if at(&self.size, a) >= at(&self.size, b) {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            *at_mut(&mut self.head, s) = big as u16;
            s = at(&self.next, s) as usize;
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        *at_mut(&mut self.size, big) += at(&self.size, small);
        at_mut(&mut self.libs, big).0 += at(&self.libs, small).0;
    }

    /// Takes the group with head `h` off the board; returns its size.
    fn remove_group<const HASH: bool>(&mut self, h: usize) -> usize {
        let color = at(&self.cell, h);
        let other = 3 - color;
        let mut s = h;
        let mut n = 0;
        loop {
            *at_mut(&mut self.cell, s) = EMPTY;
            self.touch_nbr3(s, color);
            if HASH {
                self.hash ^= self.keys.get(color, s);
            }
            self.add_empty(s);
            n += 1;
            for k in Slots(slots_holding(at(&self.nbr3, s), other) & ORTH_SLOTS) {
                let m = self.slot_neighbor(s, k);
                let g = at(&self.head, m) as usize;
                self.add_lib(g, s);
            }
            s = at(&self.next, s) as usize;
            if s == h {
                break;
            }
        }
        self.stones[color as usize - 1] -= n as u16;
        n
    }

    /// Whether `p` is an eye of `c` that the usual diagonal test calls real: eyeish, and at most
    /// one opponent diagonal in the middle (none on the edge).
    #[inline]
    pub(crate) fn is_eye(&self, p: usize, c: u8) -> bool {
        at(&self.cell, p) == EMPTY && self.nbr3_table.is_eye(at(&self.nbr3, p), c)
    }

    /// The 3x3 neighbourhood code of `p` ([`nbr3`]).
    #[inline(always)]
    pub(crate) fn nbr3(&self, p: usize) -> u16 {
        at(&self.nbr3, p)
    }

    /// The table of neighbourhood facts the board uses.
    #[inline(always)]
    pub(crate) fn nbr3_table(&self) -> &'static Nbr3Table {
        self.nbr3_table
    }

    /// Checks every incremental field against a recomputation from the stones alone and panics
    /// on any difference. Called after each play in debug builds; tests call it directly.
    pub fn validate(&self) {
        let len = self.len;
        let mut hash = 0u64;
        let mut stones = [0u16; 2];
        let mut seen = vec![false; len];
        let mut empties = 0;
        for p in self.points() {
            let p = p.idx();
            match self.cell[p] {
                EMPTY => {
                    empties += 1;
                    let i = self.empty_at[p] as usize;
                    assert_eq!(
                        self.empty_points().get(i),
                        Some(&(p as u16)),
                        "empty list at {p}"
                    );
                }
                c @ (BLACK | WHITE) => {
                    hash ^= self.keys.get(c, p);
                    stones[c as usize - 1] += 1;
                }
                v => panic!("bad cell {v} at {p}"),
            }
        }
        assert_eq!(empties, self.n_empty, "empty count");
        for p in self.points() {
            let p = p.idx();
            assert_eq!(self.nbr3[p], self.fresh_nbr3(p), "3x3 code at {p}");
        }
        if self.hashed {
            assert_eq!(hash, self.hash, "hash");
        }
        assert_eq!(stones, self.stones, "stone counts");
        for p in self.points() {
            let p = p.idx();
            let c = self.cell[p];
            if c == EMPTY || seen[p] {
                continue;
            }
            // Flood fill the group from scratch.
            let mut group = vec![p];
            seen[p] = true;
            let mut i = 0;
            while i < group.len() {
                let s = group[i];
                i += 1;
                for n in self.neighbors(s) {
                    if self.cell[n] == c && !seen[n] {
                        seen[n] = true;
                        group.push(n);
                    }
                }
            }
            let h = self.head[p] as usize;
            assert!(group.iter().all(|&s| self.head[s] as usize == h), "heads");
            assert_eq!(self.size[h] as usize, group.len(), "group size at {p}");
            let mut walked = 0;
            let mut s = h;
            loop {
                assert!(group.contains(&s), "linked list leaves the group at {p}");
                walked += 1;
                s = self.next[s] as usize;
                if s == h || walked > group.len() {
                    break;
                }
            }
            assert_eq!(walked, group.len(), "linked list length at {p}");
            let (mut n, mut sum, mut sum2) = (0u64, 0u64, 0u64);
            for &s in &group {
                for m in self.neighbors(s) {
                    if self.cell[m] == EMPTY {
                        n += 1;
                        sum += m as u64;
                        sum2 += (m * m) as u64;
                    }
                }
            }
            assert_eq!(
                (
                    self.libs[h].count(),
                    self.libs[h].sum(),
                    self.libs[h].sum2()
                ),
                (n, sum, sum2),
                "pseudo-liberties at {p}"
            );
            assert!(n > 0, "a group without liberties at {p}");
        }
        if self.ko != 0 {
            assert_eq!(self.cell[self.ko as usize], EMPTY, "ko point not empty");
        }
    }

    /// A showboard-style drawing: columns lettered A..Z without I, rows numbered from the
    /// bottom, `X` black, `O` white, `.` empty (hoshi not marked), prisoners on the side.
    pub fn to_text(&self) -> String {
        let letters: String = (0..self.width)
            .map(|x| format!(" {}", COLUMNS[x] as char))
            .collect();
        let mut out = format!("   {letters}\n");
        for y in (0..self.height).rev() {
            out.push_str(&format!("{:>2} ", y + 1));
            for x in 0..self.width {
                let p = self.point(x, y).map_or(0, |p| p.idx());
                let ch = match self.cell[p] {
                    BLACK => 'X',
                    WHITE => 'O',
                    _ => '.',
                };
                out.push(ch);
                out.push(' ');
            }
            out.push_str(&format!("{}", y + 1));
            if y + 1 == self.height {
                out.push_str(&format!(
                    "     WHITE (O) has captured {} stones",
                    self.captures[1]
                ));
            } else if y + 2 == self.height {
                out.push_str(&format!(
                    "     BLACK (X) has captured {} stones",
                    self.captures[0]
                ));
            }
            out.push('\n');
        }
        out.push_str(&format!("   {letters}"));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::splitmix::splitmix64;

    #[test]
    fn copies_between_sizes_keep_every_field_and_the_walls() {
        // A playout scratch board is reused across sizes (boardsize 19, then 9, then 19): each
        // copy must read exactly like its source, walls past the smaller board included.
        let mut big = GoBoard::new(19, 19).unwrap();
        let mut small = GoBoard::new(9, 9).unwrap();
        for (i, c) in [(0, Color::Black), (1, Color::White), (9, Color::Black)] {
            let p = big.point(i, i).unwrap();
            big.play(p, c);
            let q = small.point(i % 9, i / 9).unwrap();
            small.play(q, c);
        }
        let mut scratch = big.clone();
        for source in [&small, &big, &small] {
            scratch.copy_from(source);
            scratch.validate();
            assert_eq!(scratch.to_text(), source.to_text());
            assert_eq!(scratch.empty_points(), source.empty_points());
            let p = source.point(4, 4).unwrap();
            let (mut a, mut b) = (scratch.clone(), source.clone());
            a.play(p, Color::White);
            b.play(p, Color::White);
            a.validate();
            assert_eq!(a.to_text(), b.to_text());
        }
    }

    #[test]
    fn two_liberty_and_self_atari_tests_agree_with_walking_the_groups() {
        let mut checked = 0;
        for (size, seed) in [(9usize, 1u64), (5, 2), (13, 3), (19, 4)] {
            let mut state = seed;
            for _ in 0..20 {
                let mut b = GoBoard::new(size, size).unwrap();
                let mut c = Color::Black;
                for _ in 0..size * size * 2 {
                    for &p in b.empty_points() {
                        for me in [BLACK, WHITE] {
                            let p = p as usize;
                            let fast = b.liberties_after(p, me, 2);
                            assert_eq!(
                                fast,
                                b.liberties_after_walk(p, me, 2),
                                "{p}\n{}",
                                b.to_text()
                            );
                            assert_eq!(b.liberties_after(p, me, 1), fast.min(1));
                            assert_eq!(
                                b.is_self_atari(p, me),
                                fast < 2 && !b.captures_at(p, me),
                                "{p}\n{}",
                                b.to_text()
                            );
                            checked += 1;
                        }
                    }
                    let moves: Vec<u16> = b
                        .empty_points()
                        .iter()
                        .copied()
                        .filter(|&p| b.is_legal(Point(p), c) && !b.is_eye(p as usize, c as u8))
                        .collect();
                    if moves.is_empty() {
                        b.pass();
                    } else {
                        let p = moves[splitmix64(&mut state) as usize % moves.len()];
                        b.play(Point(p), c);
                    }
                    c = c.opponent();
                }
            }
        }
        assert!(checked > 100_000);
    }
}
