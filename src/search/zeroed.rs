//! Big hash-indexed caches (the transposition table, the VCT cache) without fixed costs on the
//! clock: they are allocated zeroed and forgotten by epoch.
//!
//! - **Allocation**: `vec![entry; n]` writes every entry, so a 128 MB table costs ~80 ms of page
//!   faults and stores at once, and that happened while the manager's clock was running (`INFO
//!   max_memory` comes after `START`, with `BEGIN`/`TURN` already queued). [`zeroed_slice`] asks
//!   the allocator for zeroed memory instead: large blocks come straight from fresh `mmap` pages,
//!   which the kernel commits on first touch, so the cost is spread over the searches that use
//!   the table (and those poll the clock).
//! - **Clearing**: a new game must not see the last one's entries, but a memset is the same
//!   cost again (and would commit every page). Each entry instead records the [`Epoch`] it was
//!   written in; clearing advances the epoch and entries of other epochs read as empty. Only when
//!   the 8-bit epoch wraps (every 255 clears) is the table really zeroed.

use std::alloc::{alloc_zeroed, handle_alloc_error, Layout};

/// Types for which the all-zero bit pattern is a valid value (for our caches: "empty").
///
/// # Safety
/// Implement only for types made of integers or atomic integers (no references, no `Drop`, no
/// `bool`/enum fields that zero would not be valid for, no niches), so that zeroed memory is a
/// valid value.
pub unsafe trait Zeroable {}

/// `len` zero values, allocated without writing them (see the module notes).
pub fn zeroed_slice<T: Zeroable>(len: usize) -> Box<[T]> {
    if len == 0 || std::mem::size_of::<T>() == 0 {
        return Vec::new().into_boxed_slice();
    }
    let layout = Layout::array::<T>(len).expect("table size fits the address space");
    // SAFETY: the layout has a non-zero size (checked above). The allocation is checked for
    // null. Zeroed memory is a valid `[T; len]` because `T: Zeroable`. The box is built with
    // exactly the layout `Box<[T]>` frees with (`Layout::array::<T>(len)`), from the global
    // allocator that `Box` uses.
    unsafe {
        let ptr = alloc_zeroed(layout) as *mut T;
        if ptr.is_null() {
            handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len))
    }
}

/// Entries of `entry_bytes` each that fit in `bytes`, rounded down to a power of two (for
/// masking) and at least `min` (itself a power of two).
pub fn power_of_two_entries(bytes: usize, entry_bytes: usize, min: usize) -> usize {
    let want = (bytes / entry_bytes.max(1)).max(min);
    if want.is_power_of_two() {
        want
    } else {
        want.next_power_of_two() / 2
    }
}

/// The generation of a table's contents: entries stamped with another epoch are empty. Zero is
/// never current, so freshly zeroed memory is empty too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Epoch(u8);

impl Default for Epoch {
    fn default() -> Self {
        Epoch(1)
    }
}

impl Epoch {
    /// The stamp for entries written now.
    #[inline]
    pub fn stamp(self) -> u8 {
        self.0
    }
    /// Forgets every entry. Returns `true` when the epoch wrapped: stamps from 255 clears ago
    /// would read as current again, so the caller must zero its table (rare: once in 255 games).
    pub fn advance(&mut self) -> bool {
        if self.0 == u8::MAX {
            self.0 = 1;
            true
        } else {
            self.0 += 1;
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Pair(u64, u32);
    // SAFETY: two integers.
    unsafe impl Zeroable for Pair {}

    #[test]
    fn zeroed_slices_read_as_zero_and_can_be_written() {
        let mut s = zeroed_slice::<Pair>(100_000);
        assert_eq!(s.len(), 100_000);
        assert!(s.iter().all(|&p| p == Pair(0, 0)));
        s[99_999] = Pair(7, 8);
        assert_eq!(s[99_999], Pair(7, 8));
        assert!(zeroed_slice::<Pair>(0).is_empty());
    }

    #[test]
    fn entries_round_down_to_a_power_of_two_with_a_floor() {
        assert_eq!(power_of_two_entries(1 << 20, 16, 1024), 1 << 16);
        assert_eq!(power_of_two_entries((1 << 20) + 5000, 16, 1024), 1 << 16);
        assert_eq!(power_of_two_entries((1 << 21) - 16, 16, 1024), 1 << 16);
        assert_eq!(power_of_two_entries(0, 16, 1024), 1024);
    }

    #[test]
    fn the_epoch_never_returns_to_zero_and_reports_its_wrap() {
        let mut e = Epoch::default();
        assert_ne!(e.stamp(), 0);
        let mut wraps = 0;
        for _ in 0..600 {
            wraps += e.advance() as u32;
            assert_ne!(e.stamp(), 0);
        }
        assert_eq!(wraps, 2, "1 -> 255 takes 254 steps, then every 255");
    }
}
