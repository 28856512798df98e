//! Larger spatial patterns around a candidate Go move, after Coulom's "Computing Elo ratings
//! of move patterns in the game of Go" and Pachi's pattern dictionary: the cells within
//! "gridcular" distance `d = dx + dy + max(dx, dy)` of the point, for each size `d` in
//! [`SIZES`], each cell empty, own, enemy or off the board from the mover's side. A pattern's
//! key is Zobrist-style (one key per cell offset and content, and one per size) and canonical
//! up to the eight symmetries: the smallest of its eight symmetric hashes.
//!
//! A [`SpatialDict`] lists the patterns a fit kept (seen often enough in its training data);
//! a candidate's `spatial` level is the level of the largest listed pattern that matches it
//! (Coulom's rule), [`NO_MATCH`] when none does, [`SMALL_BOARD`] on boards under 13.

use std::collections::HashMap;
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

/// The canonical hashes of a pattern given each cell's content by `content(dx, dy)` (0 empty, 1 own, 2 enemy, 3 off the board).
fn hashes_of(content: impl Fn(isize, isize) -> usize) -> SpatialHashes {
    let cells = cells();
    let mut sym = [0u64; 8];
    let mut out = [0u64; SIZE_COUNT];
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
        out[k] = sym.iter().map(|h| h ^ salt).min().unwrap_or(0);
    }
    out
}

/// The canonical hashes of the patterns around empty `p` for `me` on `board`.
pub fn spatial_hashes(board: &GoBoard, p: usize, me: u8) -> SpatialHashes {
    let (x, y) = board.xy(Point(p as u16));
    let (x, y) = (x as isize, y as isize);
    hashes_of(|dx, dy| {
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
    })
}

/// The patterns a fit kept, each with its level (listed order, from 2).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpatialDict {
    hashes: Vec<u64>,
    index: HashMap<u64, u32>,
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
        if self.index.contains_key(&hash) {
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

    /// The listed hashes, level 2 first.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Bound of the levels (small board, no match, then one per pattern).
    pub fn levels(&self) -> u32 {
        self.hashes.len() as u32 + 2
    }

    /// The level of the largest listed pattern among `h`, [`NO_MATCH`] when none is listed.
    #[inline]
    pub fn level(&self, h: &SpatialHashes) -> u32 {
        h.iter()
            .rev()
            .find_map(|k| self.index.get(k).copied())
            .unwrap_or(NO_MATCH)
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
    fn a_candidate_takes_the_level_of_its_largest_listed_pattern() {
        let h: SpatialHashes = std::array::from_fn(|k| 100 + k as u64);
        let d = SpatialDict::new([h[1], 999, h[4]]);
        assert_eq!(d.level(&h), 4, "size index 4 (listed third) beats index 1");
        let d = SpatialDict::new([h[1], 999]);
        assert_eq!(d.level(&h), 2);
        assert_eq!(SpatialDict::new([999]).level(&h), NO_MATCH);
        assert_eq!(SpatialDict::default().level(&h), NO_MATCH);
        let mut d = SpatialDict::new([5, 5, 6]);
        assert_eq!((d.len(), d.levels()), (2, 4));
        assert!(!d.push(6));
    }
}
