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

/// Zobrist keys, one per colour and point index, drawn from SplitMix64 started at `seed`.
pub fn zobrist_keys<const N: usize>(seed: u64) -> Box<[[u64; N]; 2]> {
    let mut state = seed;
    let mut keys = Box::new([[0u64; N]; 2]);
    for side in keys.iter_mut() {
        for key in side.iter_mut() {
            *key = splitmix64(&mut state);
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zobrist_keys_are_the_stream_from_the_seed_black_first() {
        let keys = zobrist_keys::<4>(7);
        let mut state = 7;
        let stream: Vec<u64> = (0..8).map(|_| splitmix64(&mut state)).collect();
        assert_eq!(keys[0][..], stream[..4]);
        assert_eq!(keys[1][..], stream[4..]);
        assert_eq!(zobrist_keys::<4>(7), keys);
    }
}
