//! Criticality (Coulom 2009), the Go tree search's bonus for the points whose owner
//! decides the game ([`MctsConfig::crit_bonus`]).
//!
//! A point is critical when owning it goes with winning: over the search's simulations, the
//! share that ended with the point owned by the game's winner, less what that share would be if
//! ownership and the result were independent,
//! `crit(p) = P(owner = winner) - (P(black owns) P(black wins) + P(white owns) P(white wins))`,
//! the sum of two covariances (black owns with black wins, white owns with white wins),
//! between -0.5 and 0.5. A point both sides must fight over (a cutting point,
//! the vital point of a capturing race) scores high; a settled point, owned whatever the
//! result, scores 0.
//!
//! The statistics are the search's, over the root position (every simulation's final board
//! counts each point's owner as [`crate::search::playout::owners::point_owner`] reads it; with the mercy rule a
//! playout ends early and its disputed points count for nobody). The selection adds
//! `crit_bonus * max(crit(p), 0)` to a child's value at every depth, from a table the leading
//! thread refreshes every 64 simulations once [`MctsConfig::crit_min_sims`] have run: points
//! critical at the root stay so a few moves down, and a per-node table (as Pachi keeps) would
//! cost every node two more counters and the backup a pass over every child's owner.
//!
//! Counters are atomics written with plain loads and stores, as the tree's statistics
//! ([`super::tree`]): with several threads an addition may be lost, which a share over
//! thousands of simulations does not feel.

use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use super::config::MctsConfig;
use crate::rules::go::board::GoBoard;
use crate::search::playout::owners::point_owner;

/// The search's ownership counts by padded point and the criticality table they give.
pub(super) struct Criticality {
    sims: AtomicU32,
    black_wins: AtomicU32,
    black_owns: Vec<AtomicU32>,
    white_owns: Vec<AtomicU32>,
    winner_owns: Vec<AtomicU32>,
    /// `max(crit(p), 0)` as `f32` bits, 0 until the first refresh.
    table: Vec<AtomicU32>,
}

fn bump(a: &AtomicU32) {
    a.store(a.load(Relaxed).wrapping_add(1), Relaxed);
}

fn zeros(len: usize) -> Vec<AtomicU32> {
    (0..len).map(|_| AtomicU32::new(0)).collect()
}

impl Criticality {
    /// Empty counts for a board of `array_len` padded points.
    pub fn new(array_len: usize) -> Criticality {
        Criticality {
            sims: AtomicU32::new(0),
            black_wins: AtomicU32::new(0),
            black_owns: zeros(array_len),
            white_owns: zeros(array_len),
            winner_owns: zeros(array_len),
            table: zeros(array_len),
        }
    }

    /// Counts one simulation that ended on `board` with `margin` (area margin less komi, from
    /// black's side). A level result (no winner) is not counted.
    pub fn record(&self, board: &GoBoard, margin: f32) {
        if margin == 0.0 {
            return;
        }
        let black_won = margin > 0.0;
        bump(&self.sims);
        if black_won {
            bump(&self.black_wins);
        }
        for p in board.points() {
            let p = p.idx();
            match point_owner(board, p) {
                1 => {
                    bump(&self.black_owns[p]);
                    if black_won {
                        bump(&self.winner_owns[p]);
                    }
                }
                -1 => {
                    bump(&self.white_owns[p]);
                    if !black_won {
                        bump(&self.winner_owns[p]);
                    }
                }
                _ => {}
            }
        }
    }

    /// Simulations counted so far.
    pub fn sims(&self) -> u32 {
        self.sims.load(Relaxed)
    }

    /// Recomputes the table from the counts, once there are `cfg.crit_min_sims` of them.
    pub fn refresh(&self, cfg: &MctsConfig) {
        let n = self.sims();
        if n == 0 || n < cfg.crit_min_sims {
            return;
        }
        let n = n as f32;
        let p_black = self.black_wins.load(Relaxed) as f32 / n;
        for (p, slot) in self.table.iter().enumerate() {
            let black = self.black_owns[p].load(Relaxed) as f32 / n;
            let white = self.white_owns[p].load(Relaxed) as f32 / n;
            let winner = self.winner_owns[p].load(Relaxed) as f32 / n;
            let crit = winner - (black * p_black + white * (1.0 - p_black));
            slot.store(crit.max(0.0).to_bits(), Relaxed);
        }
    }

    /// The table's value at padded point `p` (0 for a pass, code 0).
    #[inline]
    pub fn of(&self, p: u16) -> f32 {
        f32::from_bits(self.table[p as usize].load(Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::board::{BLACK, WHITE};
    use crate::rules::go::Point;

    fn board_with(stones: &[(usize, u8)]) -> GoBoard {
        let mut b = GoBoard::new(5, 5).unwrap();
        for &(p, c) in stones {
            b.play_unhashed(p, c);
        }
        b
    }

    fn cfg(min: u32) -> MctsConfig {
        MctsConfig {
            crit_min_sims: min,
            ..MctsConfig::default()
        }
    }

    #[test]
    fn a_point_owned_by_every_winner_is_critical_and_a_settled_one_is_not() {
        let empty = GoBoard::new(5, 5).unwrap();
        let pts: Vec<usize> = empty.points().map(Point::idx).collect();
        let (fought, settled) = (pts[12], pts[0]);
        let crit = Criticality::new(empty.array_len());
        // Black wins the playouts where it owns the fought point, white the others; the
        // settled point is black's in all of them.
        for _ in 0..10 {
            crit.record(&board_with(&[(fought, BLACK), (settled, BLACK)]), 5.0);
            crit.record(&board_with(&[(fought, WHITE), (settled, BLACK)]), -5.0);
        }
        crit.refresh(&cfg(1));
        // Owned by the winner always: 1 - (0.5 * 0.5 + 0.5 * 0.5) = 0.5, the most there is.
        assert!((crit.of(fought as u16) - 0.5).abs() < 1e-6);
        // Black's whatever the result: 0.5 - (1 * 0.5) = 0.
        assert!(crit.of(settled as u16).abs() < 1e-6);
        // A pass (code 0) is never critical.
        assert_eq!(crit.of(0), 0.0);
    }

    #[test]
    fn a_point_owned_by_the_loser_gets_no_bonus() {
        let empty = GoBoard::new(5, 5).unwrap();
        let p = empty.points().nth(7).unwrap().idx();
        let crit = Criticality::new(empty.array_len());
        for _ in 0..10 {
            crit.record(&board_with(&[(p, WHITE)]), 5.0);
            crit.record(&board_with(&[(p, BLACK)]), -5.0);
        }
        crit.refresh(&cfg(1));
        assert_eq!(
            crit.of(p as u16),
            0.0,
            "negative criticality is clamped to 0"
        );
    }

    #[test]
    fn the_table_waits_for_its_simulations_and_level_results_do_not_count() {
        let empty = GoBoard::new(5, 5).unwrap();
        let p = empty.points().nth(3).unwrap().idx();
        let crit = Criticality::new(empty.array_len());
        crit.record(&board_with(&[(p, BLACK)]), 0.0);
        assert_eq!(crit.sims(), 0);
        for _ in 0..4 {
            crit.record(&board_with(&[(p, BLACK)]), 3.0);
            crit.record(&board_with(&[(p, WHITE)]), -3.0);
        }
        crit.refresh(&cfg(100));
        assert_eq!(
            crit.of(p as u16),
            0.0,
            "8 simulations are under the minimum"
        );
        crit.refresh(&cfg(8));
        assert!(crit.of(p as u16) > 0.4);
    }
}
