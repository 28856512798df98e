//! `sente bench ttt`: every reachable tic-tac-toe position solved by the exact solver
//! ([`crate::search::ttt::Solver`]) from an empty table: nodes, nodes per second and a
//! signature over each position's value and optimal squares.

use std::fmt;
use std::time::{Duration, Instant};

use super::report::{BenchLine, BenchReport};
use crate::rules::ttt::reachable_positions;
use crate::search::ttt::{Solver, INF};

/// The bench's one line: the whole set of positions solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TttLine {
    /// Positions solved (all reachable ones, terminal included).
    pub positions: usize,
    /// Alpha-beta nodes visited.
    pub nodes: u64,
    /// Wall time of the solving.
    pub elapsed: Duration,
}

impl BenchLine for TttLine {
    fn heading(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "tic-tac-toe bench: every reachable position solved")
    }

    fn row(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.elapsed.as_secs_f64() * 1000.0;
        let nps = if self.elapsed.as_secs_f64() > 0.0 {
            (self.nodes as f64 / self.elapsed.as_secs_f64()) as u64
        } else {
            0
        };
        writeln!(f, "positions: {}", self.positions)?;
        writeln!(f, "nodes:     {}", self.nodes)?;
        writeln!(f, "time:      {ms:.1} ms")?;
        writeln!(f, "nps:       {nps}")
    }

    /// The one line says it all.
    fn totals(_: &[TttLine], _: &mut fmt::Formatter<'_>) -> fmt::Result {
        Ok(())
    }
}

/// Solves every reachable position (value and optimal squares) and times it. The signature
/// hashes each position's code, value and optimal squares: it changes only if the solver's
/// answers do.
pub fn run() -> BenchReport<TttLine> {
    let positions = reachable_positions();
    let start = Instant::now();
    let mut solver = Solver::new();
    let mut signature: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |x: u64| {
        signature ^= x;
        signature = signature.wrapping_mul(0x0100_0000_01b3);
    };
    for g in &positions {
        let v = solver.value(g);
        let best = solver.best_moves(g);
        let mask: u64 = best.iter().map(|&s| 1u64 << s).sum();
        mix(g.code() as u64);
        mix((v + INF) as u64);
        mix(mask);
    }
    let line = TttLine {
        positions: positions.len(),
        nodes: solver.nodes,
        elapsed: start.elapsed(),
    };
    BenchReport {
        lines: vec![line],
        signature,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_solves_every_position() {
        let r = run();
        assert_eq!(r.lines[0].positions, 5478);
        assert!(r.lines[0].nodes > 0);
        assert_eq!(r.signature, run().signature);
        assert!(r.to_string().contains("positions: 5478"));
    }
}
