//! SplitMix64, the one fixed-seed generator of the crate: Zobrist keys of every board, and the
//! seeds the tools derive from `--seed`, so every run draws the same numbers.

/// One step of SplitMix64: a tiny, well-mixed generator for fixed tables.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
