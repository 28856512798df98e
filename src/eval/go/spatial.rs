//! Larger spatial patterns around a candidate Go move, after Coulom's "Computing Elo ratings
//! of move patterns in the game of Go" and Pachi's pattern dictionary: the cells within
//! "gridcular" distance `d = dx + dy + max(dx, dy)` of the point, for each size `d` in
//! [`SIZES`], each cell empty, own, enemy or off the board from the mover's side. A pattern's
//! key is Zobrist-style (one key per cell offset and content, and one per size) and canonical
//! up to the eight symmetries: the smallest of its eight symmetric hashes.
//!
//! A [`SpatialDict`] lists the patterns a fit kept (seen often enough in its training data);
//! a candidate's `spatial` level is the level of the largest listed pattern that matches it
//! (Coulom's rule), [`NO_MATCH`] when none does, [`SMALL_BOARD`] on boards under 13. A
//! harvested dictionary lists, with each pattern, the smaller ones inside it (a pattern is seen
//! at least as often as any larger one around it), so the lookup grows the pattern size by size
//! and stops at the first size that is not listed: the cells beyond are never read.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::rules::go::board::GoBoard;
use crate::rules::go::Point;

/// The pattern sizes (gridcular diameters), smallest first; 3 would be the 3x3 of `pat3`.
pub const SIZES: std::ops::RangeInclusive<usize> = 4..=MAX_SIZE;

/// The largest pattern size.
pub const MAX_SIZE: usize = 10;

/// Number of pattern sizes.
pub const SIZE_COUNT: usize = MAX_SIZE - 3;

/// Level of every candidate on a board under 13 (its gamma is always 1).
pub const SMALL_BOARD: u32 = 0;

/// Level of a big-board candidate that no dictionary pattern matches.
pub const NO_MATCH: u32 = 1;

/// The canonical hash of each size of the pattern around one point, smallest size first.
pub type SpatialHashes = [u64; SIZE_COUNT];

/// The cell offsets within [`MAX_SIZE`] (the centre excluded), by distance, and for each its
/// keys per symmetry and content.
struct Cells {
    /// (dx, dy, gridcular distance).
    offsets: Vec<(isize, isize, usize)>,
    /// `keys[i][t][c]`: the key of content `c` at offset `i` moved by symmetry `t`.
    keys: Vec<[[u64; 4]; 8]>,
    /// Where each size's cells end in `offsets`.
    ends: [usize; SIZE_COUNT],
}

/// A fixed key for `x` (SplitMix64's finalizer): the table files name patterns by these
/// hashes, so they must not change between builds.
const fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn gridcular(dx: isize, dy: isize) -> usize {
    let (x, y) = (dx.unsigned_abs(), dy.unsigned_abs());
    x + y + x.max(y)
}

fn cell_key(dx: isize, dy: isize, content: usize) -> u64 {
    mix((((dx + 64) as u64) << 16) | (((dy + 64) as u64) << 4) | content as u64)
}

fn size_key(d: usize) -> u64 {
    mix(0x5350_4154_0000_0000 | d as u64)
}

/// Symmetry `t` of offset (`dx`, `dy`): bit 0 mirrors x, bit 1 mirrors y, bit 2 swaps them.
pub(crate) fn transform(t: usize, dx: isize, dy: isize) -> (isize, isize) {
    let (mut x, mut y) = (dx, dy);
    if t & 1 != 0 {
        x = -x;
    }
    if t & 2 != 0 {
        y = -y;
    }
    if t & 4 != 0 {
        (x, y) = (y, x);
    }
    (x, y)
}

fn cells() -> &'static Cells {
    static CELLS: OnceLock<Cells> = OnceLock::new();
    CELLS.get_or_init(|| {
        let r = MAX_SIZE as isize;
        let mut offsets = Vec::new();
        for dy in -r..=r {
            for dx in -r..=r {
                let d = gridcular(dx, dy);
                if d > 0 && d <= MAX_SIZE {
                    offsets.push((dx, dy, d));
                }
            }
        }
        offsets.sort_by_key(|&(dx, dy, d)| (d, dy, dx));
        let keys = offsets
            .iter()
            .map(|&(dx, dy, _)| {
                std::array::from_fn(|t| {
                    let (x, y) = transform(t, dx, dy);
                    std::array::from_fn(|c| cell_key(x, y, c))
                })
            })
            .collect();
        let ends = std::array::from_fn(|k| {
            let size = k + 4;
            offsets.iter().filter(|o| o.2 <= size).count()
        });
        Cells {
            offsets,
            keys,
            ends,
        }
    })
}

/// Walks the canonical hashes of a pattern given each cell's content by `content(dx, dy)` (0
/// empty, 1 own, 2 enemy, 3 off the board), smallest size first, handing `visit` each size's
/// index and hash until it returns false: the cells of larger sizes are then not read.
fn walk_hashes(content: impl Fn(isize, isize) -> usize, mut visit: impl FnMut(usize, u64) -> bool) {
    let cells = cells();
    let mut sym = [0u64; 8];
    let mut at = 0;
    for (k, &end) in cells.ends.iter().enumerate() {
        for i in at..end {
            let (dx, dy, _) = cells.offsets[i];
            let c = content(dx, dy);
            for (h, keys) in sym.iter_mut().zip(&cells.keys[i]) {
                *h ^= keys[c];
            }
        }
        at = end;
        let salt = size_key(k + 4);
        if !visit(k, sym.iter().map(|h| h ^ salt).min().unwrap_or(0)) {
            return;
        }
    }
}

/// The canonical hashes of every size of a pattern given by `content` (as [`walk_hashes`]).
fn hashes_of(content: impl Fn(isize, isize) -> usize) -> SpatialHashes {
    let mut out = [0u64; SIZE_COUNT];
    walk_hashes(content, |k, h| {
        out[k] = h;
        true
    });
    out
}

/// The contents around (`x`, `y`) on `board` from `me`'s side, as [`walk_hashes`] reads them.
fn board_content(
    board: &GoBoard,
    x: isize,
    y: isize,
    me: u8,
) -> impl Fn(isize, isize) -> usize + '_ {
    move |dx, dy| {
        let (cx, cy) = (x + dx, y + dy);
        if cx < 0 || cy < 0 {
            return 3;
        }
        match board.point(cx as usize, cy as usize) {
            None => 3,
            Some(q) => match board.cell(q.idx()) {
                0 => 0,
                v if v == me => 1,
                _ => 2,
            },
        }
    }
}

/// The canonical hashes of the patterns around empty `p` for `me` on `board`.
pub fn spatial_hashes(board: &GoBoard, p: usize, me: u8) -> SpatialHashes {
    let (x, y) = board.xy(Point(p as u16));
    hashes_of(board_content(board, x as isize, y as isize, me))
}

/// A hasher for keys that are already uniform 64-bit hashes: it keeps the key as it is.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

/// The patterns a fit kept, each with its level (listed order, from 2).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpatialDict {
    hashes: Vec<u64>,
    index: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
}

impl SpatialDict {
    /// A dictionary of `hashes`, in order (duplicates after the first are dropped).
    pub fn new(hashes: impl IntoIterator<Item = u64>) -> SpatialDict {
        let mut d = SpatialDict::default();
        for h in hashes {
            d.push(h);
        }
        d
    }

    /// Appends `hash` (level `len() + 2`) unless listed; whether it was new.
    pub fn push(&mut self, hash: u64) -> bool {
        if self.contains(hash) {
            return false;
        }
        self.index.insert(hash, self.hashes.len() as u32 + 2);
        self.hashes.push(hash);
        true
    }

    /// Number of listed patterns.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Whether none is listed.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// Whether `hash` is listed.
    pub fn contains(&self, hash: u64) -> bool {
        self.index.contains_key(&hash)
    }

    /// The listed hashes, level 2 first.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Bound of the levels (small board, no match, then one per pattern).
    pub fn levels(&self) -> u32 {
        self.hashes.len() as u32 + 2
    }

    /// The level of the largest pattern among `h` (smallest size first) up to which every size
    /// is listed, [`NO_MATCH`] when the smallest is not: on a harvested dictionary, the largest
    /// listed pattern (see the module doc).
    #[inline]
    pub fn level(&self, h: &SpatialHashes) -> u32 {
        let mut level = NO_MATCH;
        for k in h {
            match self.index.get(k) {
                Some(&l) => level = l,
                None => break,
            }
        }
        level
    }

    /// [`SpatialDict::level`] of the patterns around empty `p` for `me` on `board`, hashing
    /// only the sizes up to the first one not listed.
    #[inline]
    pub fn level_at(&self, board: &GoBoard, p: usize, me: u8) -> u32 {
        let (x, y) = board.xy(Point(p as u16));
        let mut level = NO_MATCH;
        walk_hashes(
            board_content(board, x as isize, y as isize, me),
            |_, h| match self.index.get(&h) {
                Some(&l) => {
                    level = l;
                    true
                }
                None => false,
            },
        );
        level
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed scatter of contents around the centre, and its symmetric images.
    fn scatter(dx: isize, dy: isize) -> usize {
        let v = (dx * 7 + dy * 13 + dx * dy * 3).rem_euclid(5) as usize;
        v.min(3)
    }

    #[test]
    fn canonical_hashes_are_the_same_under_the_eight_symmetries() {
        let base = hashes_of(scatter);
        for t in 0..8 {
            let moved = hashes_of(|dx, dy| {
                let (x, y) = transform(t, dx, dy);
                scatter(x, y)
            });
            assert_eq!(moved, base, "symmetry {t}");
        }
        // A change in the largest ring changes the largest hash only.
        let changed = hashes_of(|dx, dy| {
            if (dx, dy) == (MAX_SIZE as isize / 2, 0) {
                (scatter(dx, dy) + 1) % 4
            } else {
                scatter(dx, dy)
            }
        });
        assert_eq!(changed[..SIZE_COUNT - 1], base[..SIZE_COUNT - 1]);
        assert_ne!(changed[SIZE_COUNT - 1], base[SIZE_COUNT - 1]);
        // Sizes hash apart even when the extra cells are all empty.
        let empty = hashes_of(|_, _| 0);
        assert_ne!(empty[0], empty[1]);
    }

    #[test]
    fn a_candidate_takes_the_level_of_its_largest_pattern_listed_with_every_smaller_one() {
        let h: SpatialHashes = std::array::from_fn(|k| 100 + k as u64);
        let d = SpatialDict::new([h[1], h[0], 999, h[2]]);
        assert_eq!(d.level(&h), 5, "size index 2 (listed fourth) beats 0 and 1");
        let d = SpatialDict::new([h[0], 999]);
        assert_eq!(d.level(&h), 2);
        // A listed pattern whose smaller one is not listed is never reached.
        let d = SpatialDict::new([h[0], h[4]]);
        assert_eq!(d.level(&h), 2);
        assert_eq!(SpatialDict::new([h[1]]).level(&h), NO_MATCH);
        assert_eq!(SpatialDict::new([999]).level(&h), NO_MATCH);
        assert_eq!(SpatialDict::default().level(&h), NO_MATCH);
        let mut d = SpatialDict::new([5, 5, 6]);
        assert_eq!((d.len(), d.levels()), (2, 4));
        assert!(!d.push(6));
    }

    #[test]
    fn the_board_lookup_reads_what_the_full_hashes_read() {
        use crate::rules::go::{game_with_stones, parse_move, GoMove};
        let g = game_with_stones(19, "D4 C3 R17 K10", "Q16 D3 E5");
        let b = g.board();
        for name in ["C4", "E4", "Q17", "K11", "A1"] {
            let GoMove::Play(p) = parse_move(b, name).unwrap() else {
                unreachable!()
            };
            for me in [1, 2] {
                let h = spatial_hashes(b, p.idx(), me);
                for listed in 0..=SIZE_COUNT {
                    let d = SpatialDict::new(h[..listed].iter().copied());
                    assert_eq!(d.level(&h), listed as u32 + 1, "{name} {listed}");
                    assert_eq!(d.level_at(b, p.idx(), me), d.level(&h), "{name} {listed}");
                }
            }
        }
    }
}
