//! The one shape of every bench's result ([`BenchReport`]): a table with a line per position,
//! what the game sums up under it, and the signature that changes only when play changes.

use std::fmt;
use std::time::Duration;

use crate::rules::splitmix::splitmix64;

/// A bench's result: its lines in order (one per position, or one for the whole run) and a hash
/// of every answer in them (moves, scores, node counts): compare it across commits to tell a
/// speed-up from a change of play.
#[derive(Clone, Debug)]
pub struct BenchReport<L> {
    pub lines: Vec<L>,
    pub signature: u64,
}

/// How a game's bench lines print: a heading, a row per line, then what they add up to. Each
/// part ends its own lines.
pub trait BenchLine: Sized {
    /// The text above the rows.
    fn heading(f: &mut fmt::Formatter<'_>) -> fmt::Result;
    /// This line's row.
    fn row(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    /// The totals and rates over every line.
    fn totals(lines: &[Self], f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl<L> BenchReport<L> {
    /// No line yet, and the signature started at `seed` (each bench has its own).
    pub fn new(seed: u64) -> BenchReport<L> {
        BenchReport {
            lines: Vec::new(),
            signature: seed,
        }
    }

    /// Adds a line, folding `answer` (its move, score, nodes...) into the signature.
    pub fn add(&mut self, line: L, answer: &[u64]) {
        for &v in answer {
            self.signature ^= v;
            self.signature = splitmix64(&mut self.signature);
        }
        self.lines.push(line);
    }
}

impl<L: BenchLine> fmt::Display for BenchReport<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        L::heading(f)?;
        for line in &self.lines {
            line.row(f)?;
        }
        L::totals(&self.lines, f)?;
        write!(f, "signature: {:016x}", self.signature)
    }
}

/// `n` per second of `t` (a `t` under a microsecond counts as one).
pub fn per_second(n: u64, t: Duration) -> u64 {
    n * 1_000_000 / t.as_micros().max(1) as u64
}
