//! The tunable constants of the gomoku alpha-beta search (`search::alphabeta`) in one place:
//! move-ordering weights, pruning and reduction margins, the history table's scale. The
//! defaults are the measured values (each kept by a node-limited SPRT, see the commits);
//! a tuner changes a copy and hands it to the searcher.

use crate::eval::patterns::P4_COUNT;

/// Constants of one alpha-beta search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Move-ordering weight of the threat a move makes for the mover, by P4 level.
    pub attack: [i32; P4_COUNT],
    /// Move-ordering weight of the threat a move takes away from the opponent, by P4 level.
    pub defend: [i32; P4_COUNT],
    /// Move-ordering bonus of a killer move.
    pub killer_bonus: i32,
    /// Whether moves are ordered (and reduced) by the learned policy where the evaluation has
    /// one.
    pub use_policy: bool,
    /// Move-ordering weight of the learned policy score, in sixteenths (where the evaluation
    /// has a policy; it then replaces the hand line values in the order).
    pub policy_weight: i32,
    /// Non-forcing moves searched at remaining depth 1, 2, 3 and 4 or more (the weakest
    /// candidates are not searched at all).
    pub move_limit: [usize; 4],
    /// Reverse futility pruning: at most this many plies from the leaves, a non-PV node whose
    /// static value beats beta by `rfp_margin` per ply returns it.
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    /// Late-move reduction ln(depth) * ln(index) / (`lmr_divisor` / 100), plus
    /// `lmr_offset` / 100, rounded down.
    pub lmr_divisor: i32,
    pub lmr_offset: i32,
    /// Extra reduction off the principal variation.
    pub lmr_non_pv: i32,
    /// A history entry beyond +-`hist_max / hist_lmr_fraction` reduces a ply less or more.
    pub hist_lmr_fraction: i32,
    /// With a policy: a quiet move scoring below this reduces a ply more, above
    /// `lmr_policy_high` a ply less.
    pub lmr_policy_low: i32,
    pub lmr_policy_high: i32,
    /// History entries stay within +-`hist_max`.
    pub hist_max: i32,
    /// History points per unit of cut-off bonus (depth squared).
    pub hist_gain: i32,
    /// History points per move-ordering point.
    pub hist_scale: i32,
    /// With a policy: at most `prune_depth` plies from the leaves, off the PV, quiet moves
    /// from the `prune_count`-th on whose policy score is below `prune_policy` are skipped.
    pub prune_depth: i32,
    pub prune_count: usize,
    pub prune_policy: i32,
    /// Plies added at a node whose opponent threatens an open four (its moves are only the
    /// answers), also at the leaves.
    pub defend_extension: i32,
    /// Most defence extensions on one path from the root.
    pub defend_extension_max: i32,
    /// Half-width of the root's aspiration window (0: none); doubles on each re-search.
    pub aspiration: i32,
    /// Deepest chain of fours followed in quiescence. Short on purpose: longer chains are the
    /// root VCF search's job, and at 100 ms per move a 2-ply quiescence beat 4 and 8 plies in
    /// matches against `classic` (20 games each: 90%, 80%, 75%).
    pub quiescence_plies: u32,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            attack: [0, 20, 18, 60, 110, 160, 1200, 90, 220, 2600, 10000, 100000],
            defend: [0, 14, 12, 45, 85, 125, 700, 70, 160, 1600, 6000, 60000],
            killer_bonus: 300,
            use_policy: true,
            policy_weight: 16,
            move_limit: [10, 14, 18, 24],
            rfp_depth: 3,
            rfp_margin: 150,
            lmr_divisor: 200,
            lmr_offset: 30,
            lmr_non_pv: 1,
            hist_lmr_fraction: 4,
            lmr_policy_low: -350,
            lmr_policy_high: -200,
            hist_max: 1 << 14,
            hist_gain: 16,
            hist_scale: 64,
            quiescence_plies: 2,
            aspiration: 60,
            defend_extension: 1,
            defend_extension_max: 2,
            prune_depth: 2,
            prune_count: 3,
            prune_policy: -400,
        }
    }
}

impl SearchParams {
    /// Non-forcing moves searched at `depth` plies from the leaves.
    #[inline]
    pub fn move_limit(&self, depth: i32) -> usize {
        self.move_limit[depth.clamp(1, 4) as usize - 1]
    }

    /// The late-move reduction table, [depth][move index], each capped at 63.
    pub fn lmr_table(&self) -> LmrTable {
        let mut t = [[0u8; LMR_MOVES]; LMR_DEPTHS];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let x = (d as f64).ln() * (m as f64).ln() * 100.0 / self.lmr_divisor as f64
                    + self.lmr_offset as f64 / 100.0;
                *r = x.clamp(0.0, 63.0) as u8;
            }
        }
        LmrTable(t)
    }
}

const LMR_DEPTHS: usize = 64;
const LMR_MOVES: usize = 64;

/// Late-move reductions by depth and move index (see [`SearchParams::lmr_table`]).
#[derive(Clone)]
pub struct LmrTable([[u8; LMR_MOVES]; LMR_DEPTHS]);

impl LmrTable {
    /// The reduction of the `i`-th move (from 0) at `depth`.
    #[inline]
    pub fn get(&self, depth: i32, i: usize) -> i32 {
        self.0[(depth.max(0) as usize).min(LMR_DEPTHS - 1)][i.min(LMR_MOVES - 1)] as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reduction_table_grows_with_depth_and_index() {
        let p = SearchParams::default();
        let t = p.lmr_table();
        assert_eq!(t.get(1, 1), 0);
        assert_eq!(t.get(0, 40), 0);
        // ln 8 * ln 8 / 2 + 0.3 = 2.46
        assert_eq!(t.get(8, 8), 2);
        for d in 1..40 {
            for i in 1..40 {
                assert!(t.get(d + 1, i) >= t.get(d, i));
                assert!(t.get(d, i + 1) >= t.get(d, i));
            }
        }
        assert_eq!(p.move_limit(0), 10);
        assert_eq!(p.move_limit(9), 24);
    }
}
