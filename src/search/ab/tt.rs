//! Transposition table: a fixed-size array of 16-byte entries indexed by the position hash,
//! allocated once (sized from the memory limit) so the search never allocates. Allocation and
//! [`TranspositionTable::clear`] are O(1) on the clock (see [`crate::search::zeroed`]): pages are
//! committed as the search touches them and a new game only advances the epoch. The threads of
//! a parallel search share it without locks (see [`Entry`]).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

use crate::rules::Pos;
use crate::search::zeroed::{power_of_two_entries, zeroed_slice, Epoch, Zeroable};

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

/// One slot: the packed data, and the key XOR that data. A reader accepts the slot only when
/// the two words agree with its key, so a slot torn by two threads writing at once (one word
/// from each) reads as a miss instead of another position's data: the table is shared by the
/// search threads without a lock (Hyatt and Mann's lockless hashing). On one thread it behaves
/// exactly as a plain array of entries.
#[derive(Default)]
#[repr(C)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

// SAFETY: atomic integers only; all zero is the empty entry (`Bound::None`, epoch 0 is never
// current).
unsafe impl Zeroable for Entry {}

/// The fields of [`Entry::data`], packed into one word.
#[derive(Clone, Copy)]
struct Data {
    mv: u16,
    score: i16,
    depth: i8,
    bound: u8,
    generation: u8,
    /// The table's [`Epoch`] when written; another epoch means empty.
    epoch: u8,
}

impl Data {
    #[inline]
    fn pack(self) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.depth as u8 as u64) << 32
            | (self.bound as u64) << 40
            | (self.generation as u64) << 48
            | (self.epoch as u64) << 56
    }

    #[inline]
    fn unpack(w: u64) -> Data {
        Data {
            mv: w as u16,
            score: (w >> 16) as u16 as i16,
            depth: (w >> 32) as u8 as i8,
            bound: (w >> 40) as u8,
            generation: (w >> 48) as u8,
            epoch: (w >> 56) as u8,
        }
    }
}

impl Entry {
    /// The slot's key (as far as its two words agree) and data.
    #[inline]
    fn load(&self) -> (u64, Data) {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.check.load(Ordering::Relaxed) ^ data;
        (key, Data::unpack(data))
    }

    #[inline]
    fn save(&self, key: u64, d: Data) {
        let data = d.pack();
        self.check.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

/// Smallest table, so that even `max_memory` of a few MB plays.
const MIN_ENTRIES: usize = 1 << 10;

/// The transposition table. Probes and stores take `&self`, so the threads of a parallel search
/// share one table (see [`Entry`]); only clearing and resizing need it alone.
pub struct TranspositionTable {
    entries: Box<[Entry]>,
    mask: usize,
    generation: AtomicU8,
    epoch: Epoch,
}

impl TranspositionTable {
    /// A table of at most `bytes` bytes (rounded down to a power of two entries).
    pub fn new(bytes: usize) -> TranspositionTable {
        let n = Self::entries_for(bytes);
        TranspositionTable {
            entries: zeroed_slice(n),
            mask: n - 1,
            generation: AtomicU8::new(0),
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
            for e in self.entries.iter_mut() {
                *e = Entry::default();
            }
        }
        *self.generation.get_mut() = 0;
    }

    /// Forgets every entry of a table the search threads share: in place when no other
    /// holder is left (the helpers settled), else by a fresh table of the same size (as empty).
    pub fn clear_shared(tt: &mut Arc<TranspositionTable>) {
        match Arc::get_mut(tt) {
            Some(table) => table.clear(),
            None => *tt = Arc::new(TranspositionTable::new(tt.bytes())),
        }
    }

    /// Marks a new search, so older entries are replaced first. Called by the thread that
    /// leads a search, before any other thread starts.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let (stored, e) = self.entries[key as usize & self.mask].load();
        if stored != key || e.bound == Bound::None as u8 || e.epoch != self.epoch.stamp() {
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
    pub fn store(&self, key: u64, mv: Option<Pos>, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let epoch = self.epoch.stamp();
        let slot = &self.entries[key as usize & self.mask];
        let (stored, e) = slot.load();
        let live = e.epoch == epoch;
        if live && stored != key && e.generation == generation && e.depth as i32 > depth + 2 {
            return;
        }
        let keep_move = live && stored == key && mv.is_none();
        slot.save(
            key,
            Data {
                mv: if keep_move {
                    e.mv
                } else {
                    mv.map_or(0, |p| p.0)
                },
                score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                depth: depth.clamp(-100, 100) as i8,
                bound: bound as u8,
                generation,
                epoch,
            },
        );
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
    fn a_shared_table_is_cleared_in_place_or_replaced() {
        let mut tt = Arc::new(TranspositionTable::new(1 << 16));
        tt.store(7, Some(Pos(3)), 0, 1, Bound::Exact);
        let before = Arc::as_ptr(&tt);
        TranspositionTable::clear_shared(&mut tt);
        assert!(tt.probe(7).is_none());
        assert_eq!(Arc::as_ptr(&tt), before, "alone: cleared in place");
        tt.store(7, Some(Pos(3)), 0, 1, Bound::Exact);
        let other = Arc::clone(&tt);
        TranspositionTable::clear_shared(&mut tt);
        assert!(tt.probe(7).is_none());
        assert_eq!(tt.bytes(), other.bytes());
        assert!(
            other.probe(7).is_some(),
            "the other holder's table is left alone"
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
    fn a_torn_slot_reads_as_a_miss() {
        let tt = TranspositionTable::new(1 << 16);
        tt.store(99, Some(Pos(5)), 7, 3, Bound::Exact);
        let slot = &tt.entries[99 & tt.mask];
        // Another thread's data word over this key's check word.
        let other = Data::unpack(slot.data.load(Ordering::Relaxed));
        slot.data
            .store(Data { score: -7, ..other }.pack(), Ordering::Relaxed);
        assert!(tt.probe(99).is_none());
    }

    #[test]
    fn threads_sharing_the_table_never_read_another_positions_entry() {
        // A tiny table and a pool of keys five times its size, so that the threads overwrite
        // each other's slots all the time; each key's score, move and depth are derived from
        // it, so a read mixing two writes shows.
        let tt = TranspositionTable::new(0);
        let key_of = |i: u64| (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let payload = |k: u64| {
            (
                (k >> 40) as i32 % 10_000,
                Pos((k >> 20) as u16 % 900 + 1),
                (k >> 10) as i32 % 50,
            )
        };
        let pool = 5 * MIN_ENTRIES as u64;
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let (tt, hits) = (&tt, &hits);
                s.spawn(move || {
                    let mut r = t + 1;
                    for _ in 0..200_000 {
                        r = r
                            .wrapping_mul(6_364_136_223_846_793_005)
                            .wrapping_add(1_442_695_040_888_963_407);
                        let key = key_of((r >> 33) % pool);
                        let (score, mv, depth) = payload(key);
                        tt.store(key, Some(mv), score, depth, Bound::Lower);
                        let other = key_of((r >> 13) % pool);
                        if let Some(hit) = tt.probe(other) {
                            hits.fetch_add(1, Ordering::Relaxed);
                            assert_eq!((hit.score, hit.mv, hit.depth), {
                                let (s, m, d) = payload(other);
                                (s, Some(m), d)
                            });
                        }
                    }
                });
            }
        });
        assert!(
            hits.load(Ordering::Relaxed) > 1000,
            "the probes must hit at times"
        );
    }

    #[test]
    fn tiny_budgets_still_give_a_table() {
        let tt = TranspositionTable::new(0);
        assert!(tt.bytes() >= 16 * MIN_ENTRIES);
    }
}
