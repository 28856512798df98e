//! Splitting a schedule of numbered jobs into disjoint parts that add up to the whole.
//!
//! A schedule is any fixed list of `total` jobs numbered `0..total` (a match's games; a
//! self-play run can use the same split). Part `K/N` is the `K`-th of `N` contiguous blocks of
//! near-equal size. Blocks rather than strides because a match is ordered opening by opening
//! across pairings: a block is balanced like a stopped run, and a driver that hands out blocks
//! in order sees the schedule's prefix fill up first, which is what an SPRT read in schedule
//! order needs (see `merge`). What a job plays (its opening, colours, seeds) depends only on
//! its number, never on the part that plays it.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// Part `index + 1` of `count` of a schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based part number (`K - 1` in `K/N`).
    pub index: usize,
    /// How many parts the schedule is split into.
    pub count: usize,
}

impl Shard {
    /// The whole schedule as one part.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether this part is the whole schedule.
    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// The job numbers of this part out of `total` jobs: block `index` of `count` blocks whose
    /// sizes differ by at most one (empty when there are more parts than jobs).
    pub fn range(&self, total: usize) -> Range<usize> {
        let at = |k: usize| (total as u128 * k as u128 / self.count as u128) as usize;
        at(self.index)..at(self.index + 1)
    }
}

impl FromStr for Shard {
    type Err = String;
    /// `K/N` with `1 <= K <= N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard {s:?}: expected K/N with 1 <= K <= N (e.g. 2/3)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: usize = k.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_disjoint_and_cover_the_schedule() {
        for total in [0, 1, 5, 6, 7, 40, 1001] {
            for count in 1..=9 {
                let mut next = 0;
                for index in 0..count {
                    let r = Shard { index, count }.range(total);
                    assert_eq!(r.start, next, "total {total}, part {index}/{count}");
                    assert!(r.len() <= total.div_ceil(count));
                    assert!(r.len() >= total / count);
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
        assert_eq!(Shard::WHOLE.range(12), 0..12);
    }

    #[test]
    fn parses_k_of_n_and_refuses_the_rest() {
        let s: Shard = "2/3".parse().unwrap();
        assert_eq!(s, Shard { index: 1, count: 3 });
        assert_eq!(s.to_string(), "2/3");
        assert_eq!(s.range(6), 2..4);
        assert!("1/1".parse::<Shard>().unwrap().is_whole());
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
