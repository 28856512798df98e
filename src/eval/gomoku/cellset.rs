//! A fixed-size set of cells of the padded board array (one bit per array index), for the
//! pattern board's incremental point lists: the empty cells near a stone, and the empty cells
//! at each threat level. Walking a set visits cells in increasing array index, which is the
//! board's row-by-row order, so code that used to scan every point and test each one gets the
//! same points in the same order without touching the others.

use crate::rules::Pos;

use crate::rules::mnk::board::MAX_CELLS;

/// Words of a set big enough for the largest board.
pub const WORDS: usize = MAX_CELLS.div_ceil(64);

/// A set of array indices below [`MAX_CELLS`]; no allocation, cheap to copy.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CellSet([u64; WORDS]);

impl Default for CellSet {
    fn default() -> Self {
        CellSet([0; WORDS])
    }
}

impl CellSet {
    /// Adds cell `i`.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    /// Removes cell `i`.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    /// Whether cell `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    /// The smallest cell `>= from` in the set, looking at the first `words` words only.
    #[inline]
    pub fn next_from(&self, from: usize, words: usize) -> Option<Pos> {
        let mut w = from >> 6;
        if w >= words {
            return None;
        }
        let mut bits = self.0[w] & (!0u64 << (from & 63));
        loop {
            if bits != 0 {
                return Some(Pos((w * 64 + bits.trailing_zeros() as usize) as u16));
            }
            w += 1;
            if w >= words {
                return None;
            }
            bits = self.0[w];
        }
    }
}

/// The cells in the union of some of `sets` (bit `i` of `mask` selects `sets[i]`), in increasing
/// order. Reads each word when it gets there.
pub struct Cells<'a> {
    sets: &'a [CellSet],
    mask: u32,
    words: usize,
    word: usize,
    bits: u64,
}

impl<'a> Cells<'a> {
    /// The union of the `sets` selected by `mask`, over the first `words` words.
    #[inline]
    pub fn new(sets: &'a [CellSet], mask: u32, words: usize) -> Cells<'a> {
        let mut it = Cells {
            sets,
            mask,
            words,
            word: 0,
            bits: 0,
        };
        if words > 0 {
            it.bits = it.load(0);
        }
        it
    }

    #[inline]
    fn load(&self, w: usize) -> u64 {
        let mut bits = 0;
        let mut m = self.mask;
        while m != 0 {
            bits |= self.sets[m.trailing_zeros() as usize].0[w];
            m &= m - 1;
        }
        bits
    }
}

impl Iterator for Cells<'_> {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        while self.bits == 0 {
            self.word += 1;
            if self.word >= self.words {
                return None;
            }
            self.bits = self.load(self.word);
        }
        let b = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(Pos((self.word * 64 + b) as u16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_walks_in_order() {
        let mut sets = [CellSet::default(); 3];
        for i in [5, 64, 700, 1500] {
            sets[0].insert(i);
        }
        for i in [6, 63, 700] {
            sets[2].insert(i);
        }
        sets[1].insert(3);
        let got: Vec<u16> = Cells::new(&sets, 0b101, WORDS).map(|p| p.0).collect();
        assert_eq!(got, vec![5, 6, 63, 64, 700, 1500]);
        let only: Vec<u16> = Cells::new(&sets, 0b010, WORDS).map(|p| p.0).collect();
        assert_eq!(only, vec![3]);
        // Words past the limit are not read.
        let short: Vec<u16> = Cells::new(&sets, 0b001, 2).map(|p| p.0).collect();
        assert_eq!(short, vec![5, 64]);
        assert_eq!(Cells::new(&sets, 0, WORDS).count(), 0);
    }

    #[test]
    fn next_from_and_membership() {
        let mut s = CellSet::default();
        s.insert(10);
        s.insert(130);
        assert!(s.contains(10) && s.contains(130) && !s.contains(11));
        assert_eq!(s.next_from(0, WORDS), Some(Pos(10)));
        assert_eq!(s.next_from(10, WORDS), Some(Pos(10)));
        assert_eq!(s.next_from(11, WORDS), Some(Pos(130)));
        assert_eq!(s.next_from(131, WORDS), None);
        assert_eq!(s.next_from(11, 2), None);
        s.remove(10);
        assert_eq!(s.next_from(0, WORDS), Some(Pos(130)));
    }
}
