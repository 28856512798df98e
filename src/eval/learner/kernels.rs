//! The learned map of SEEDS 001 (docs/sources.md): kernels cut from finished games, the store that
//! keeps them, and the index that finds the ones matching a position.
//!
//! # Kernels
//!
//! A kernel is the board at the learner's turn seen through a square window centred on the point
//! of *the move before the winning move*, with a mark on the point to play (001, Fig. 3 and 6).
//! [`lessons`] cuts them from a finished game:
//!
//! * **Won**: the position before our winning move (we are to move), centred on the opponent's
//!   last stone, marking our winning point (001's kernel exactly).
//! * **Lost**: the position before our last move (we were to move), centred on the point where we
//!   played that move, marking the point where the opponent then won: the point was worth taking.
//!   001 keeps the position *after* our move, but at our next turn that position (one stone more
//!   for us) can never match a full window, so the lesson is moved to the turn where it can act.
//! * **Lost, final move unseen**: Gomocup managers do not send the opponent's winning move. When
//!   the game is abandoned right after our move and the opponent has a point that makes five,
//!   each such point is taken as where they won (see `session::gomoku`).
//!
//! Cells are stored from the learner's side: [`EMPTY`], [`OWN`], [`OPP`], [`OFF`] (off the board),
//! always at the largest size, 15x15 ([`FRAME`]); a KxK kernel is the centre crop, so one store
//! serves every size. A mark outside the KxK window cannot be used at that size (001's Fig. 6:
//! this is why small kernels stall).
//!
//! # Matching
//!
//! 001's pseudo code compares each stored kernel with the board at the place it was cut from and
//! adds the reward (10) to its mark; a kernel stored n times adds it n times. [`Anchor::Board`]
//! does exactly that; [`Anchor::Anywhere`] lets a kernel match wherever the same window appears
//! (translation), and `symmetry` adds the 8 rotations and reflections of each kernel.
//!
//! Scanning every kernel at every move grows with the store, so [`KernelIndex`] hashes windows:
//! for each candidate centre the KxK window is read once and looked up by a Zobrist key of its
//! cells (and of its place on the board when anchored). Exact matching is a hash probe plus a
//! compare per hit, whatever the store's size.
//!
//! **Near matching** (001's future work, approximate nearest neighbours): with `near = d`, a kernel
//! within Hamming distance d of the window also counts, its reward scaled by `(d + 1 - dist) /
//! (d + 1)`. The window's cells are dealt into d + 1 interleaved parts (cell i to part i mod
//! (d + 1)); a kernel at distance <= d agrees exactly with the window on at least one part
//! (pigeonhole), so each part is a hash table and candidates are verified by distance. Parts
//! holding no stone are not used as keys (they would pull in every kernel), which makes the search
//! approximate: a kernel whose only agreeing part is stone-free is missed.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use crate::rules::splitmix::splitmix64;

use crate::rules::mnk::board::symmetry;
use crate::rules::{Board, Cell, Color, Pos};

/// Half the side of the largest kernel.
pub const MAX_RADIUS: i64 = 7;
/// Side of the stored frame (the largest kernel, 15x15).
pub const FRAME: usize = 2 * MAX_RADIUS as usize + 1;
/// Cells in the stored frame.
pub const FRAME_CELLS: usize = FRAME * FRAME;
/// The kernel sizes of 001's experiment.
pub const KERNEL_SIZES: [usize; 8] = [1, 3, 5, 7, 9, 11, 13, 15];
/// 001's reward for a matching kernel.
pub const REWARD: i32 = 10;
/// Most distinct kernels a store keeps; later lessons are dropped (with a warning).
pub const MAX_KERNELS: usize = 200_000;

/// Cell codes, seen from the learner's side.
pub const EMPTY: u8 = 0;
/// One of the learner's stones.
pub const OWN: u8 = 1;
/// One of the opponent's stones.
pub const OPP: u8 = 2;
/// Off the board.
pub const OFF: u8 = 3;

#[inline]
fn frame_index(dx: i64, dy: i64) -> usize {
    ((dy + MAX_RADIUS) * FRAME as i64 + dx + MAX_RADIUS) as usize
}

#[inline]
fn code(cell: Cell, me: Color) -> u8 {
    match cell {
        Cell::Empty => EMPTY,
        Cell::Wall => OFF,
        c if c == me.cell() => OWN,
        _ => OPP,
    }
}

/// One lesson: a 15x15 window of a position at the learner's turn, where it came from, and the
/// point it marks.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Kernel {
    /// Cell codes, row-major, starting at offset (-7, -7) from the centre.
    pub cells: [u8; FRAME_CELLS],
    /// Width and height of the board it was cut from.
    pub board: (u8, u8),
    /// Its centre on that board (x, y).
    pub centre: (u8, u8),
    /// The marked point as an offset from the centre (each within +-7).
    pub mark: (i8, i8),
}

impl Kernel {
    /// The kernel of `board` around `centre` for `me` to move, marking `mark`; `None` when the
    /// mark is more than 7 points from the centre (no kernel size could use it).
    pub fn extract(board: &Board, centre: Pos, me: Color, mark: Pos) -> Option<Kernel> {
        let (cx, cy) = board.xy(centre);
        let (mx, my) = board.xy(mark);
        let (dx, dy) = (mx as i64 - cx as i64, my as i64 - cy as i64);
        if dx.abs() > MAX_RADIUS || dy.abs() > MAX_RADIUS {
            return None;
        }
        let mut cells = [EMPTY; FRAME_CELLS];
        for oy in -MAX_RADIUS..=MAX_RADIUS {
            for ox in -MAX_RADIUS..=MAX_RADIUS {
                let c = board.get(cx as i64 + ox, cy as i64 + oy);
                cells[frame_index(ox, oy)] = code(c, me);
            }
        }
        Some(Kernel {
            cells,
            board: (board.width() as u8, board.height() as u8),
            centre: (cx as u8, cy as u8),
            mark: (dx as i8, dy as i8),
        })
    }

    /// The cell at offset (dx, dy) from the centre.
    pub fn cell(&self, dx: i64, dy: i64) -> u8 {
        self.cells[frame_index(dx, dy)]
    }

    /// The kernel under symmetry `k` (see [`symmetry`]), centre moved on its board too; `None`
    /// when `k` swaps the axes of a board that is not square.
    pub fn transformed(&self, k: u32) -> Option<Kernel> {
        let (w, h) = (self.board.0 as i64, self.board.1 as i64);
        if k & 4 != 0 && w != h {
            return None;
        }
        let mut cells = [EMPTY; FRAME_CELLS];
        for dy in -MAX_RADIUS..=MAX_RADIUS {
            for dx in -MAX_RADIUS..=MAX_RADIUS {
                let (tx, ty) = symmetry(k, dx, dy);
                cells[frame_index(tx, ty)] = self.cell(dx, dy);
            }
        }
        let (mx, my) = symmetry(k, self.mark.0 as i64, self.mark.1 as i64);
        // Doubled coordinates about the board's middle keep even sizes exact.
        let (cx, cy) = symmetry(
            k,
            2 * self.centre.0 as i64 - (w - 1),
            2 * self.centre.1 as i64 - (h - 1),
        );
        Some(Kernel {
            cells,
            board: self.board,
            centre: (((cx + w - 1) / 2) as u8, ((cy + h - 1) / 2) as u8),
            mark: (mx as i8, my as i8),
        })
    }
}

/// What a finished game teaches the side `ours` (see the module notes). `board` is the last
/// position seen; when its winner is unknown (the manager did not send the final move) and we
/// moved last, every point where the opponent makes five is taken as their winning point.
pub fn lessons(board: &Board, ours: Color) -> Vec<Kernel> {
    let history = board.history();
    let n = history.len();
    let mut out = Vec::new();
    match board.winner() {
        Some(w) if n >= 2 => {
            let (win_point, _) = history[n - 1];
            let (before, before_color) = history[n - 2];
            let mut b = board.clone();
            b.undo();
            if w == ours {
                out.extend(Kernel::extract(&b, before, ours, win_point));
            } else if before_color == ours {
                b.undo();
                out.extend(Kernel::extract(&b, before, ours, win_point));
            }
        }
        Some(_) => {}
        None => {
            let Some(&(last, last_color)) = history.last() else {
                return out;
            };
            if last_color != ours {
                return out;
            }
            let opp = ours.opponent();
            let wins: Vec<Pos> = board
                .empty_points()
                .filter(|&p| board.makes_win(p, opp))
                .collect();
            if wins.is_empty() {
                return out;
            }
            let mut b = board.clone();
            b.undo();
            for w in wins {
                out.extend(Kernel::extract(&b, last, ours, w));
            }
        }
    }
    out
}

/// A kernel and how many times it was learned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredKernel {
    /// The lesson.
    pub kernel: Kernel,
    /// Times learned: each adds the reward once when it matches (001 scans every datum).
    pub count: u32,
}

/// Every lesson learned so far, at full size, in the order first learned.
#[derive(Clone, Debug)]
pub struct KernelStore {
    entries: Vec<StoredKernel>,
    by_kernel: HashMap<Kernel, usize>,
    limit: usize,
}

impl Default for KernelStore {
    fn default() -> Self {
        KernelStore::with_limit(MAX_KERNELS)
    }
}

impl KernelStore {
    /// An empty store holding up to [`MAX_KERNELS`] kernels.
    pub fn new() -> KernelStore {
        KernelStore::default()
    }
    /// An empty store holding up to `limit` distinct kernels.
    pub fn with_limit(limit: usize) -> KernelStore {
        KernelStore {
            entries: Vec::new(),
            by_kernel: HashMap::new(),
            limit,
        }
    }
    /// Distinct kernels.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// Whether nothing was learned.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// The kernels, oldest first.
    pub fn entries(&self) -> &[StoredKernel] {
        &self.entries
    }
    /// Whether `kernel` is stored.
    pub fn contains(&self, kernel: &Kernel) -> bool {
        self.by_kernel.contains_key(kernel)
    }
    /// Learns `kernel` `count` more times. Returns false when the store is full and the kernel
    /// is new (it is dropped).
    pub fn add(&mut self, kernel: Kernel, count: u32) -> bool {
        if let Some(&i) = self.by_kernel.get(&kernel) {
            let e = &mut self.entries[i];
            e.count = e.count.saturating_add(count);
            return true;
        }
        if self.entries.len() >= self.limit {
            return false;
        }
        self.by_kernel.insert(kernel.clone(), self.entries.len());
        self.entries.push(StoredKernel { kernel, count });
        true
    }
}

/// Where a kernel may match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Only at the place it was cut from, on a board of the same size (001's pseudo code).
    Board,
    /// Wherever the same window appears.
    Anywhere,
}

impl Anchor {
    /// Parses `board` or `anywhere`.
    pub fn from_name(s: &str) -> Option<Anchor> {
        match s.to_ascii_lowercase().as_str() {
            "board" => Some(Anchor::Board),
            "anywhere" => Some(Anchor::Anywhere),
            _ => None,
        }
    }
    /// The name [`Anchor::from_name`] reads.
    pub fn name(self) -> &'static str {
        match self {
            Anchor::Board => "board",
            Anchor::Anywhere => "anywhere",
        }
    }
}

/// How the learned map is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchOptions {
    /// Kernel side K (odd, 1..=15).
    pub size: usize,
    /// Where kernels match.
    pub anchor: Anchor,
    /// Also match the 8 rotations/reflections of each kernel.
    pub symmetry: bool,
    /// Largest Hamming distance of a near match (0 = exact only, as 001).
    pub near: usize,
    /// Reward of an exact match.
    pub reward: i32,
}

impl Default for MatchOptions {
    fn default() -> Self {
        MatchOptions {
            size: 15,
            anchor: Anchor::Board,
            symmetry: false,
            near: 0,
            reward: REWARD,
        }
    }
}

/// Whether `size` is a kernel side this module supports.
pub fn valid_size(size: usize) -> bool {
    size % 2 == 1 && size <= FRAME
}

/// Zobrist keys per cell code (own, opponent, off) and frame cell, plus one salt per part.
struct Keys {
    cell: [[u64; FRAME_CELLS]; 3],
    part: [u64; FRAME_CELLS],
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Box<Keys>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut state = 0x6B65_726E_656C_7321u64;
        let mut k = Box::new(Keys {
            cell: [[0; FRAME_CELLS]; 3],
            part: [0; FRAME_CELLS],
        });
        for row in k.cell.iter_mut() {
            for key in row.iter_mut() {
                *key = splitmix64(&mut state);
            }
        }
        for key in k.part.iter_mut() {
            *key = splitmix64(&mut state);
        }
        k
    })
}

/// Key of a kernel's place: board size and centre.
fn place_key(board: (u8, u8), centre: (u8, u8)) -> u64 {
    let mut s = u64::from_le_bytes([board.0, board.1, centre.0, centre.1, 0x9d, 0, 0, 0]);
    splitmix64(&mut s)
}

/// One KxK kernel as the index matches it; equal windows with equal marks (and places, when
/// anchored) share a slot and add up their counts.
#[derive(Clone, Debug)]
struct Slot {
    cells: Box<[u8]>,
    mark: (i8, i8),
    weight: u32,
}

/// A kernel's place: (board width, height), (centre x, y).
type Place = ((u8, u8), (u8, u8));
/// What makes two KxK kernels one slot: cells, mark and (when anchored) place.
type SlotId = (Box<[u8]>, (i8, i8), Option<Place>);

/// Counters of the matching work, for benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchStats {
    /// Windows read and looked up.
    pub windows: u64,
    /// Candidate kernels compared cell by cell.
    pub compared: u64,
    /// Kernels that matched (exactly or near) and added a reward, each counted as often as it
    /// was learned.
    pub matched: u64,
}

/// The kernels of a store prepared for one [`MatchOptions`]: hash tables from window keys to
/// slots.
pub struct KernelIndex {
    opts: MatchOptions,
    radius: i64,
    /// Frame cell of each window cell.
    frame_of: Vec<usize>,
    slots: Vec<Slot>,
    slot_of: HashMap<SlotId, u32>,
    /// One table per part (a single whole-window table when matching exactly).
    parts: Vec<HashMap<u64, Vec<u32>>>,
    /// Anchored: the places that hold at least one kernel.
    places: Vec<Place>,
    place_set: HashSet<Place>,
    window: Vec<u8>,
    candidates: Vec<u32>,
    /// Work done by [`KernelIndex::add_learned`] so far.
    pub stats: MatchStats,
}

impl KernelIndex {
    /// An empty index. `opts.size` must satisfy [`valid_size`].
    pub fn new(opts: MatchOptions) -> KernelIndex {
        assert!(valid_size(opts.size), "kernel size {}", opts.size);
        let radius = (opts.size / 2) as i64;
        let frame_of = (0..opts.size * opts.size)
            .map(|i| {
                let (wx, wy) = ((i % opts.size) as i64, (i / opts.size) as i64);
                frame_index(wx - radius, wy - radius)
            })
            .collect();
        let n_parts = if opts.near == 0 { 1 } else { opts.near + 1 };
        KernelIndex {
            opts,
            radius,
            frame_of,
            slots: Vec::new(),
            slot_of: HashMap::new(),
            parts: vec![HashMap::new(); n_parts],
            places: Vec::new(),
            place_set: HashSet::new(),
            window: vec![EMPTY; opts.size * opts.size],
            candidates: Vec::new(),
            stats: MatchStats::default(),
        }
    }

    /// An index of every kernel in `store`.
    pub fn build(opts: MatchOptions, store: &KernelStore) -> KernelIndex {
        let mut index = KernelIndex::new(opts);
        for e in store.entries() {
            index.insert(&e.kernel, e.count);
        }
        index
    }

    /// The options it was built for.
    pub fn options(&self) -> MatchOptions {
        self.opts
    }

    /// Distinct slots (KxK kernels, symmetric variants included).
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether no kernel can match.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Adds `kernel` with `weight` (its count). Returns false when its mark lies outside the
    /// KxK window, so it can never be used at this size.
    pub fn insert(&mut self, kernel: &Kernel, weight: u32) -> bool {
        let r = self.radius;
        if (kernel.mark.0 as i64).abs() > r || (kernel.mark.1 as i64).abs() > r {
            return false;
        }
        let variants: Vec<Kernel> = if self.opts.symmetry {
            (0..8).filter_map(|k| kernel.transformed(k)).collect()
        } else {
            vec![kernel.clone()]
        };
        let mut done: Vec<u32> = Vec::with_capacity(variants.len());
        for v in variants {
            let cells: Box<[u8]> = self.frame_of.iter().map(|&f| v.cells[f]).collect();
            let place = match self.opts.anchor {
                Anchor::Board => Some((v.board, v.centre)),
                Anchor::Anywhere => None,
            };
            let id = (cells, v.mark, place);
            if let Some(&s) = self.slot_of.get(&id) {
                // A symmetric kernel maps onto itself: count it once per lesson.
                if !done.contains(&s) {
                    self.slots[s as usize].weight += weight;
                    done.push(s);
                }
                continue;
            }
            let s = self.slots.len() as u32;
            let keys = self.part_keys(&id.0, place);
            for (part, key) in keys.into_iter().enumerate() {
                if let Some(key) = key {
                    self.parts[part].entry(key).or_default().push(s);
                }
            }
            if let Some(p) = place {
                if self.place_set.insert(p) {
                    self.places.push(p);
                }
            }
            self.slots.push(Slot {
                cells: id.0.clone(),
                mark: v.mark,
                weight,
            });
            self.slot_of.insert(id, s);
            done.push(s);
        }
        true
    }

    /// The key of each part of `window` (`None` for a part that is not used as a key: one with
    /// no stone, when matching near).
    fn part_keys(&self, window: &[u8], place: Option<Place>) -> Vec<Option<u64>> {
        let keys = keys();
        let n = self.parts.len();
        let base = place.map_or(0, |(b, c)| place_key(b, c));
        let mut out: Vec<u64> = (0..n).map(|j| base ^ keys.part[j]).collect();
        let mut stones = vec![false; n];
        for (i, &c) in window.iter().enumerate() {
            if c != EMPTY {
                let j = i % n;
                out[j] ^= keys.cell[c as usize - 1][self.frame_of[i]];
                stones[j] |= c != OFF;
            }
        }
        out.into_iter()
            .zip(stones)
            .map(|(k, s)| (n == 1 || s).then_some(k))
            .collect()
    }

    /// Adds the learned map for `me` to move into `values` (indexed by [`Pos::idx`]): every
    /// matching kernel adds its reward to the point it marks. Returns the number of matches, a
    /// kernel learned n times counting n.
    pub fn add_learned(&mut self, board: &Board, me: Color, values: &mut [i32]) -> usize {
        if self.slots.is_empty() {
            return 0;
        }
        let mut matched = 0;
        match self.opts.anchor {
            Anchor::Anywhere => {
                let centres: Vec<Pos> = board.points().collect();
                for c in centres {
                    matched += self.match_at(board, me, c, None, values);
                }
            }
            Anchor::Board => {
                let size = (board.width() as u8, board.height() as u8);
                for i in 0..self.places.len() {
                    let (b, c) = self.places[i];
                    if b != size {
                        continue;
                    }
                    if let Some(p) = board.pos(c.0 as i64, c.1 as i64) {
                        matched += self.match_at(board, me, p, Some((b, c)), values);
                    }
                }
            }
        }
        matched
    }

    /// Matches the window centred on `centre`; returns how many kernels matched.
    fn match_at(
        &mut self,
        board: &Board,
        me: Color,
        centre: Pos,
        place: Option<Place>,
        values: &mut [i32],
    ) -> usize {
        let (cx, cy) = board.xy(centre);
        let (cx, cy) = (cx as i64, cy as i64);
        let k = self.opts.size;
        let r = self.radius;
        for wy in 0..k {
            for wx in 0..k {
                let cell = board.get(cx + wx as i64 - r, cy + wy as i64 - r);
                self.window[wy * k + wx] = code(cell, me);
            }
        }
        self.stats.windows += 1;
        let keys = self.part_keys(&self.window, place);
        self.candidates.clear();
        for (part, key) in keys.into_iter().enumerate() {
            if let Some(hits) = key.and_then(|key| self.parts[part].get(&key)) {
                self.candidates.extend_from_slice(hits);
            }
        }
        if self.parts.len() > 1 {
            self.candidates.sort_unstable();
            self.candidates.dedup();
        }
        let near = self.opts.near;
        let mut matched = 0;
        for &s in &self.candidates {
            let slot = &self.slots[s as usize];
            self.stats.compared += 1;
            let dist = if near == 0 {
                if *slot.cells != *self.window {
                    continue;
                }
                0
            } else {
                let d = slot
                    .cells
                    .iter()
                    .zip(self.window.iter())
                    .filter(|(a, b)| a != b)
                    .count();
                if d > near {
                    continue;
                }
                d
            };
            let Some(p) = board.pos(cx + slot.mark.0 as i64, cy + slot.mark.1 as i64) else {
                continue;
            };
            if !board.is_empty(p) {
                continue;
            }
            let full = self.opts.reward as i64 * slot.weight as i64;
            let add = full * (near + 1 - dist) as i64 / (near + 1) as i64;
            values[p.idx()] = values[p.idx()].saturating_add(add.min(i32::MAX as i64) as i32);
            matched += slot.weight as usize;
        }
        self.stats.matched += matched as u64;
        matched
    }
}

/// Small games shared by the tests of the learner's modules.
#[cfg(test)]
pub(crate) mod test_games {
    use crate::rules::{Board, Rule};

    /// Moves played alternately from black on an empty 13x13 freestyle board.
    pub fn game(moves: &[(i64, i64)]) -> Board {
        let mut b = Board::new(13, 13, Rule::Freestyle).unwrap();
        for &(x, y) in moves {
            b.play(b.pos(x, y).unwrap()).unwrap();
        }
        b
    }

    /// Black builds a row on y = 6 from x = 4, white answers on y = 0; black wins at (8, 6).
    pub fn black_wins() -> Board {
        game(&[
            (4, 6),
            (0, 0),
            (5, 6),
            (2, 0),
            (6, 6),
            (4, 0),
            (7, 6),
            (6, 0),
            (8, 6),
        ])
    }

    /// Black to move with a four on row 6 (x = 4..7); white's last stone (9, 5) touches the
    /// winning point (8, 6), so the lesson fits a 5x5 window. `dy` shifts the game down.
    pub fn local(dy: i64) -> Board {
        let moves = [
            (4, 6),
            (8, 5),
            (5, 6),
            (2, 0),
            (6, 6),
            (4, 0),
            (7, 6),
            (9, 5),
        ];
        let shifted: Vec<_> = moves.iter().map(|&(x, y)| (x, y + dy)).collect();
        game(&shifted)
    }

    /// [`local`] with black's winning move (8, 6) played.
    pub fn local_won() -> Board {
        let mut b = local(0);
        b.play(b.pos(8, 6).unwrap()).unwrap();
        b
    }
}

#[cfg(test)]
mod tests {
    use super::test_games::{black_wins, game, local, local_won};
    use super::*;
    use crate::rules::Rule;

    fn at(b: &Board, x: i64, y: i64) -> Pos {
        b.pos(x, y).unwrap()
    }

    #[test]
    fn extraction_reads_cells_from_the_learners_side() {
        let b = game(&[(6, 6), (7, 6)]);
        let k = Kernel::extract(&b, at(&b, 7, 6), Color::Black, at(&b, 8, 6)).unwrap();
        assert_eq!(k.cell(0, 0), OPP);
        assert_eq!(k.cell(-1, 0), OWN);
        assert_eq!(k.cell(1, 0), EMPTY);
        assert_eq!(k.cell(6, 0), OFF, "x = 13 is off the board");
        assert_eq!(k.cell(0, -6), EMPTY);
        assert_eq!(k.cell(0, -7), OFF, "y = -1 is off the board");
        assert_eq!(k.mark, (1, 0));
        assert_eq!(k.centre, (7, 6));
        let w = Kernel::extract(&b, at(&b, 7, 6), Color::White, at(&b, 8, 6)).unwrap();
        assert_eq!(w.cell(0, 0), OWN);
        assert_eq!(w.cell(-1, 0), OPP);
        assert!(Kernel::extract(&b, at(&b, 12, 12), Color::Black, at(&b, 0, 0)).is_none());
    }

    #[test]
    fn a_win_teaches_the_winning_point_around_the_move_before() {
        let b = black_wins();
        let l = lessons(&b, Color::Black);
        assert_eq!(l.len(), 1);
        let k = &l[0];
        assert_eq!(k.centre, (6, 0), "centred on white's last stone");
        assert_eq!(k.mark, (2, 6), "marks black's winning point (8, 6)");
        assert_eq!(
            k.cell(2, 6),
            EMPTY,
            "the position is before the winning move"
        );
        assert_eq!(k.cell(1, 6), OWN);
        assert_eq!(k.cell(0, 0), OPP);
    }

    #[test]
    fn a_loss_teaches_the_point_the_opponent_won_on() {
        let b = black_wins();
        let l = lessons(&b, Color::White);
        assert_eq!(l.len(), 1);
        let k = &l[0];
        // White to move before its last move (6, 0): that point is empty in the kernel.
        assert_eq!(k.centre, (6, 0));
        assert_eq!(k.cell(0, 0), EMPTY);
        assert_eq!(k.mark, (2, 6));
        assert_eq!(k.cell(1, 6), OPP, "black's row is the opponent's");
        assert_eq!(k.cell(-2, 0), OWN, "white's (4, 0)");
    }

    #[test]
    fn an_unseen_final_move_is_inferred_from_the_opponents_five_point() {
        let mut b = black_wins();
        b.undo(); // the manager never sent (8, 6); white moved last
        let l = lessons(&b, Color::White);
        assert_eq!(
            l.len(),
            2,
            "black has an open four: both ends are five points"
        );
        assert!(l
            .iter()
            .all(|k| k.centre == (6, 0) && k.cell(0, 0) == EMPTY));
        let marks: HashSet<(i8, i8)> = l.iter().map(|k| k.mark).collect();
        assert_eq!(marks, HashSet::from([(2, 6), (-3, 6)]));
        // Nothing to learn when black is to move with no white five point, or for black.
        assert!(lessons(&b, Color::Black).is_empty());
        b.undo();
        assert!(lessons(&b, Color::White).is_empty());
    }

    #[test]
    fn symmetries_move_cells_mark_and_centre_together() {
        let b = black_wins();
        let k = lessons(&b, Color::Black).remove(0);
        assert_eq!(k.transformed(0).unwrap(), k);
        for s in 0..8 {
            let t = k.transformed(s).unwrap();
            // The transformed kernel is what extraction gives on the transformed board.
            let mut tb = Board::new(13, 13, Rule::Freestyle).unwrap();
            for &(p, c) in b.history().iter().take(b.stones() - 1) {
                let (x, y) = b.xy(p);
                let (tx, ty) = symmetry(s, 2 * x as i64 - 12, 2 * y as i64 - 12);
                tb.place(at(&tb, (tx + 12) / 2, (ty + 12) / 2), c);
            }
            let (cx, cy) = (t.centre.0 as i64, t.centre.1 as i64);
            let mark = at(&tb, cx + t.mark.0 as i64, cy + t.mark.1 as i64);
            let fresh = Kernel::extract(&tb, at(&tb, cx, cy), Color::Black, mark).unwrap();
            assert_eq!(fresh, t, "symmetry {s}");
        }
        let mut rect = k.clone();
        rect.board = (15, 13);
        assert!(rect.transformed(4).is_none());
        assert_eq!(rect.transformed(3).unwrap().centre, (14 - 6, 12));
    }

    /// A store holding black's lessons of the finished game `b`, once each.
    fn store_of(b: &Board) -> KernelStore {
        let mut store = KernelStore::new();
        for k in lessons(b, Color::Black) {
            store.add(k, 1);
        }
        store
    }

    fn learned(index: &mut KernelIndex, b: &Board) -> Vec<(usize, usize, i32)> {
        let mut values = vec![0; b.array_len()];
        index.add_learned(b, b.to_move(), &mut values);
        b.points()
            .filter(|p| values[p.idx()] != 0)
            .map(|p| {
                let (x, y) = b.xy(p);
                (x, y, values[p.idx()])
            })
            .collect()
    }

    #[test]
    fn an_exact_window_adds_the_reward_to_its_mark_once_per_count() {
        let won = black_wins();
        let mut store = KernelStore::new();
        for k in lessons(&won, Color::Black) {
            assert!(store.add(k.clone(), 1));
            store.add(k, 1);
        }
        assert_eq!(store.len(), 1);
        assert_eq!(store.entries()[0].count, 2);
        let mut before = won.clone();
        before.undo();
        for size in [15, 13] {
            let opts = MatchOptions {
                size,
                ..MatchOptions::default()
            };
            let mut index = KernelIndex::build(opts, &store);
            assert_eq!(learned(&mut index, &before), vec![(8, 6, 2 * REWARD)]);
        }
        // A 3x3 window cannot hold a mark 6 rows away.
        let mut small = KernelIndex::build(
            MatchOptions {
                size: 3,
                ..MatchOptions::default()
            },
            &store,
        );
        assert!(small.is_empty());
        assert!(learned(&mut small, &before).is_empty());
    }

    #[test]
    fn a_changed_cell_in_the_window_stops_an_exact_match_but_not_a_near_one() {
        let won = black_wins();
        let store = store_of(&won);
        // The same position but white's first stone elsewhere (inside every 15x15 window).
        let other = game(&[
            (4, 6),
            (1, 0),
            (5, 6),
            (2, 0),
            (6, 6),
            (4, 0),
            (7, 6),
            (6, 0),
        ]);
        let exact = MatchOptions::default();
        assert!(learned(&mut KernelIndex::build(exact, &store), &other).is_empty());
        for near in [1, 2, 3] {
            let opts = MatchOptions { near, ..exact };
            let mut index = KernelIndex::build(opts, &store);
            let got = learned(&mut index, &other);
            // Two cells differ: (0,0) and (1,0).
            let want: Vec<_> = if near >= 2 {
                vec![(8, 6, REWARD * (near as i32 - 1) / (near as i32 + 1))]
            } else {
                vec![]
            };
            assert_eq!(got, want, "near {near}");
        }
    }

    #[test]
    fn anchored_kernels_match_only_in_place_and_free_ones_anywhere() {
        let local0 = local(0);
        let store = store_of(&local_won());
        // The same game one row lower.
        let shifted = local(1);
        let in_place = MatchOptions {
            size: 5,
            ..MatchOptions::default()
        };
        let free = MatchOptions {
            anchor: Anchor::Anywhere,
            ..in_place
        };
        let mut index = KernelIndex::build(in_place, &store);
        assert_eq!(learned(&mut index, &local0), vec![(8, 6, REWARD)]);
        assert!(learned(&mut index, &shifted).is_empty());
        let mut index = KernelIndex::build(free, &store);
        assert_eq!(learned(&mut index, &shifted), vec![(8, 7, REWARD)]);
        assert_eq!(learned(&mut index, &local0), vec![(8, 6, REWARD)]);
        // At 15x15 the window also sees the edge and white's far stones: shifted, it differs.
        let full_free = MatchOptions {
            anchor: Anchor::Anywhere,
            ..MatchOptions::default()
        };
        assert!(learned(&mut KernelIndex::build(full_free, &store), &shifted).is_empty());
    }

    #[test]
    fn symmetric_matching_finds_the_mirrored_position() {
        let local0 = local(0);
        let store = store_of(&local_won());
        // Mirror x -> 12 - x.
        let mirrored = game(&[
            (8, 6),
            (4, 5),
            (7, 6),
            (10, 0),
            (6, 6),
            (8, 0),
            (5, 6),
            (3, 5),
        ]);
        let plain = MatchOptions::default();
        assert!(learned(&mut KernelIndex::build(plain, &store), &mirrored).is_empty());
        let sym = MatchOptions {
            symmetry: true,
            ..plain
        };
        let mut index = KernelIndex::build(sym, &store);
        assert_eq!(learned(&mut index, &mirrored), vec![(4, 6, REWARD)]);
        assert_eq!(learned(&mut index, &local0), vec![(8, 6, REWARD)]);
    }

    #[test]
    fn the_store_caps_new_kernels_but_still_counts_known_ones() {
        let k = lessons(&black_wins(), Color::Black).remove(0);
        let mut store = KernelStore::with_limit(1);
        assert!(store.add(k.clone(), 3));
        assert!(store.contains(&k));
        let other = k.transformed(1).unwrap();
        assert!(
            !store.add(other.clone(), 1),
            "full: a new kernel is dropped"
        );
        assert!(!store.contains(&other));
        assert!(store.add(k, 2), "a known one still counts");
        assert_eq!(store.entries()[0].count, 5);
    }
}
