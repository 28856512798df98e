//! [`Rng`]: the playouts' random numbers, and the tree search's, from a small fast generator
//! (wyrand), seeded so that a run replays exactly.

/// A small, fast generator (wyrand) for playouts; seeded, so runs replay exactly.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x2545_F491_4F6C_DD1D)
    }
    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xA076_1D64_78BD_642F);
        let t = (self.0 as u128).wrapping_mul((self.0 ^ 0xE703_7ED1_A0B4_28DB) as u128);
        ((t >> 64) as u64) ^ (t as u64)
    }
    /// A number in `0..n` (n > 0).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
    /// A float in [0, 1).
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let mut a = Rng::new(5);
        let mut b = Rng::new(5);
        for _ in 0..1000 {
            let x = a.below(81);
            assert_eq!(x, b.below(81));
            assert!(x < 81);
            let u = a.unit();
            b.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
