//! Transposition table: a fixed-size array of 16-byte entries indexed by the position hash,
//! allocated once (sized from the memory limit) so the search never allocates. Allocation and
//! [`TranspositionTable::clear`] are O(1) on the clock (see [`super::zeroed`]): pages are
//! committed as the search touches them and a new game only advances the epoch.

use super::zeroed::{power_of_two_entries, zeroed_slice, Epoch, Zeroable};
use crate::rules::mnk::Pos;

/// What a stored score means relative to the window it was searched with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Bound {
    /// Nothing stored.
    None = 0,
    /// The true score is at most `score` (fail-low).
    Upper = 1,
    /// The true score is at least `score` (fail-high).
    Lower = 2,
    /// Exact score.
    Exact = 3,
}

/// One probed entry.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub mv: Option<Pos>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    depth: i8,
    bound: u8,
    generation: u8,
    /// The table's [`Epoch`] when written; another epoch means empty.
    epoch: u8,
}

// SAFETY: integers only; all zero is the empty entry (`Bound::None`, epoch 0 is never current).
unsafe impl Zeroable for Entry {}

/// Smallest table, so that even `max_memory` of a few MB plays.
const MIN_ENTRIES: usize = 1 << 10;

/// The transposition table.
pub struct TranspositionTable {
    entries: Box<[Entry]>,
    mask: usize,
    generation: u8,
    epoch: Epoch,
}

impl TranspositionTable {
    /// A table of at most `bytes` bytes (rounded down to a power of two entries).
    pub fn new(bytes: usize) -> TranspositionTable {
        let n = Self::entries_for(bytes);
        TranspositionTable {
            entries: zeroed_slice(n),
            mask: n - 1,
            generation: 0,
            epoch: Epoch::default(),
        }
    }

    fn entries_for(bytes: usize) -> usize {
        power_of_two_entries(bytes, std::mem::size_of::<Entry>(), MIN_ENTRIES)
    }

    /// Bytes a table built with [`TranspositionTable::new`]`(bytes)` occupies (what
    /// [`TranspositionTable::bytes`] will say), so callers can tell whether a new limit changes
    /// anything before reallocating.
    pub fn bytes_for(bytes: usize) -> usize {
        Self::entries_for(bytes) * std::mem::size_of::<Entry>()
    }

    /// Bytes the table occupies.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// Forgets every entry (O(1) but once in 255 calls).
    pub fn clear(&mut self) {
        if self.epoch.advance() {
            self.entries.fill(Entry::default());
        }
        self.generation = 0;
    }

    /// Marks a new search, so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let e = &self.entries[key as usize & self.mask];
        if e.key != key || e.bound == Bound::None as u8 || e.epoch != self.epoch.stamp() {
            return None;
        }
        Some(TtHit {
            mv: if e.mv == 0 { None } else { Some(Pos(e.mv)) },
            score: e.score as i32,
            depth: e.depth as i32,
            bound: match e.bound {
                1 => Bound::Upper,
                2 => Bound::Lower,
                _ => Bound::Exact,
            },
        })
    }

    /// Stores a result; keeps a deeper entry of the current search for another position.
    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<Pos>, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let epoch = self.epoch.stamp();
        let e = &mut self.entries[key as usize & self.mask];
        let live = e.epoch == epoch;
        if live && e.key != key && e.generation == generation && e.depth as i32 > depth + 2 {
            return;
        }
        let keep_move = live && e.key == key && mv.is_none();
        e.key = key;
        if !keep_move {
            e.mv = mv.map_or(0, |p| p.0);
        }
        e.score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        e.depth = depth.clamp(-100, 100) as i8;
        e.bound = bound as u8;
        e.generation = generation;
        e.epoch = epoch;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(1 << 16);
        assert!(tt.bytes() <= 1 << 16);
        tt.store(12345, Some(Pos(77)), -42, 5, Bound::Lower);
        let hit = tt.probe(12345).unwrap();
        assert_eq!(hit.mv, Some(Pos(77)));
        assert_eq!(hit.score, -42);
        assert_eq!(hit.depth, 5);
        assert_eq!(hit.bound, Bound::Lower);
        assert!(tt.probe(12346).is_none());
        tt.clear();
        assert!(tt.probe(12345).is_none());
        tt.store(12345, None, 1, 1, Bound::Upper);
        assert_eq!(
            tt.probe(12345).unwrap().mv,
            None,
            "no move survives a clear"
        );
    }

    #[test]
    fn clears_forget_across_epoch_wraps() {
        let mut tt = TranspositionTable::new(1 << 16);
        for round in 0..600u64 {
            tt.store(round, Some(Pos(3)), 0, 1, Bound::Exact);
            assert!(tt.probe(round).is_some());
            tt.clear();
            assert!(tt.probe(round).is_none(), "round {round}");
            assert!((0..=round).all(|k| tt.probe(k).is_none()));
        }
    }

    #[test]
    fn bytes_for_predicts_the_size() {
        for bytes in [0, 1 << 16, 150 << 20, 367_001_600] {
            assert_eq!(
                TranspositionTable::bytes_for(bytes),
                TranspositionTable::new(bytes).bytes()
            );
        }
    }

    #[test]
    fn tiny_budgets_still_give_a_table() {
        let tt = TranspositionTable::new(0);
        assert!(tt.bytes() >= 16 * MIN_ENTRIES);
    }
}
