//! Evaluation, by game: gomoku's 5-cell window table, incremental line patterns and learned
//! tables ([`gomoku`]); the learning player's rule map and kernels (docs/sources.md, SEEDS 001;
//! [`learner`]); Go's move scorer, shape patterns, ladders, move features and gammas, and the
//! tree's priors ([`go`]).

pub mod go;
pub mod gomoku;
pub mod learner;

/// 64-bit FNV-1a: the identity of a weights or data file, as its provenance records it.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
