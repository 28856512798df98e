//! The tunable constants of the gomoku alpha-beta search (`search::ab::alphabeta`), each declared
//! once ([`crate::tunables`]): move-ordering weights, pruning and reduction margins, the
//! history table's scale. Two sets: [`SearchParams::default`] for an evaluation with a learned
//! move policy (freestyle, renju) and [`SearchParams::hand`] for the hand-set evaluation
//! (`strong-hand`, and the rules without learned tables). Why each value is what it is lives in
//! the commits and `docs/experiments/`; a tuner sets them by name
//! ([`SearchParams::with_overrides`], `SENTE_SEARCH`, `--set`, Gomocup `INFO`).

use crate::eval::gomoku::patterns::P4_COUNT;

/// Move-ordering weight of the threat a move makes for the mover, by P4 level.
pub const ORDER_ATTACK: [i32; P4_COUNT] =
    [0, 20, 18, 60, 110, 160, 1200, 90, 220, 2600, 10000, 100000];
/// Move-ordering weight of the threat a move takes away from the opponent, by P4 level.
pub const ORDER_DEFEND: [i32; P4_COUNT] = [0, 14, 12, 45, 85, 125, 700, 70, 160, 1600, 6000, 60000];

crate::tunables! {
    /// Constants of one alpha-beta search.
    pub struct SearchParams {
        /// Move-ordering bonus of a killer move.
        killer_bonus: i32 = 300, -10000 ..= 10000;
        /// Order, reduce and prune quiet moves by the evaluation's learned policy.
        use_policy: bool = true, 0 ..= 1;
        /// Move-ordering weight of the learned policy score, in sixteenths.
        policy_weight: i32 = 16, 0 ..= 256;
        /// Non-forcing moves searched at 1 ply from the leaves.
        move_limit1: usize = 6, 1 ..= 1024;
        /// Non-forcing moves searched at 2 plies from the leaves.
        move_limit2: usize = 10, 1 ..= 1024;
        /// Non-forcing moves searched at 3 plies from the leaves.
        move_limit3: usize = 18, 1 ..= 1024;
        /// Non-forcing moves searched at 4 or more plies from the leaves.
        move_limit4: usize = 24, 1 ..= 1024;
        /// Reverse futility pruning at most this many plies from the leaves (0: none).
        rfp_depth: i32 = 6, 0 ..= 64;
        /// Reverse futility margin per ply above beta.
        rfp_margin: i32 = 70, 0 ..= 100000;
        /// Late-move reduction divisor, in hundredths: ln(depth) * ln(index) * 100 / this.
        lmr_divisor: i32 = 200, 1 ..= 10000;
        /// Late-move reduction offset, in hundredths of a ply.
        lmr_offset: i32 = 30, -1000 ..= 1000;
        /// Extra reduction off the principal variation.
        lmr_non_pv: i32 = 1, 0 ..= 8;
        /// A history entry beyond +-hist_max / this reduces a ply less or more.
        hist_lmr_fraction: i32 = 4, 1 ..= 1024;
        /// A quiet move whose policy score is below this is reduced a ply more.
        lmr_policy_low: i32 = -350, -100000 ..= 100000;
        /// A quiet move whose policy score is above this is reduced a ply less.
        lmr_policy_high: i32 = -200, -100000 ..= 100000;
        /// History entries stay within +-this.
        hist_max: i32 = 16384, 1 ..= 1000000;
        /// History points per unit of cut-off bonus (depth squared).
        hist_gain: i32 = 16, 0 ..= 1024;
        /// History points per move-ordering point.
        hist_scale: i32 = 64, 1 ..= 100000;
        /// Deepest chain of fours followed in quiescence.
        quiescence_plies: u32 = 2, 0 ..= 64;
        /// Half-width of the root's aspiration window (0: none); doubles on each re-search.
        aspiration: i32 = 60, 0 ..= 100000;
        /// Plies added at a node whose opponent threatens an open four (0: none).
        defend_extension: i32 = 1, 0 ..= 4;
        /// Most defence extensions on one path from the root.
        defend_extension_max: i32 = 2, 0 ..= 64;
        /// Move-count pruning of low-policy quiet moves this near the leaves (0: none).
        prune_depth: i32 = 2, 0 ..= 64;
        /// Move-count pruning spares the first this-many moves.
        prune_count: usize = 3, 0 ..= 1024;
        /// Move-count pruning skips quiet moves whose policy score is below this.
        prune_policy: i32 = -400, -100000 ..= 100000;
        /// Correct the static value the pruning compares by the table's bound where tighter.
        tt_eval: bool = true, 0 ..= 1;
        /// Most attacker moves in the root VCTs.
        vct_depth: u32 = 8, 0 ..= 64;
        /// The root VCTs' node budgets, in tenths of a percent of the root threat budget.
        vct_scale: u64 = 100, 0 ..= 1000;
        /// Root threat-search nodes per millisecond of the hard deadline.
        threat_nodes_per_ms: u64 = 200, 0 ..= 100000;
        /// Lazy SMP: nodes this far from the leaves defer moves another thread is on (0: none).
        smp_split: i32 = 3, 0 ..= 64;
    }
}

impl SearchParams {
    /// The constants of the hand-set evaluation, which has no learned policy to order, reduce
    /// and prune by (`strong-hand`; standard and caro, which have no learned tables).
    pub fn hand() -> SearchParams {
        SearchParams {
            use_policy: false,
            move_limit1: 10,
            move_limit2: 14,
            move_limit3: 18,
            move_limit4: 24,
            rfp_depth: 3,
            rfp_margin: 150,
            defend_extension: 0,
            prune_depth: 0,
            tt_eval: false,
            ..SearchParams::default()
        }
    }

    /// The remaining depth from which Lazy SMP's threads mark and defer moves (`i32::MAX`:
    /// never, for `smp_split` 0).
    pub fn smp_split_depth(&self) -> i32 {
        if self.smp_split <= 0 {
            i32::MAX
        } else {
            self.smp_split
        }
    }

    /// Non-forcing moves searched at `depth` plies from the leaves.
    #[inline]
    pub fn move_limit(&self, depth: i32) -> usize {
        match depth {
            ..=1 => self.move_limit1,
            2 => self.move_limit2,
            3 => self.move_limit3,
            _ => self.move_limit4,
        }
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
    }

    #[test]
    fn the_move_limits_follow_the_depth() {
        let p = SearchParams::default();
        assert_eq!(p.move_limit(0), 6);
        assert_eq!(p.move_limit(1), 6);
        assert_eq!(p.move_limit(2), 10);
        assert_eq!(p.move_limit(3), 18);
        assert_eq!(p.move_limit(9), 24);
        let h = SearchParams::hand();
        assert_eq!(
            (h.move_limit(1), h.move_limit(2), h.move_limit(9)),
            (10, 14, 24)
        );
    }

    #[test]
    fn the_hand_set_switches_off_what_needs_a_policy() {
        let h = SearchParams::hand();
        assert!(!h.use_policy && !h.tt_eval);
        assert_eq!((h.defend_extension, h.prune_depth), (0, 0));
        assert_eq!((h.rfp_depth, h.rfp_margin), (3, 150));
        assert_eq!(
            h.changed_from(&SearchParams::default()),
            "use_policy=false move_limit1=10 move_limit2=14 rfp_depth=3 rfp_margin=150 \
             defend_extension=0 prune_depth=0 tt_eval=false"
        );
    }

    #[test]
    fn overrides_set_named_constants_and_refuse_bad_ones() {
        let p = SearchParams::default()
            .with_overrides("aspiration=30, rfp_margin=120 move_limit4=30 use_policy=0")
            .unwrap();
        assert_eq!((p.aspiration, p.rfp_margin, p.move_limit(9)), (30, 120, 30));
        assert!(!p.use_policy);
        let d = SearchParams::default();
        for bad in [
            "rfp_margin",
            "rfp_margin=x",
            "rfp_margin=1.5",
            "no_such=1",
            "lmr_divisor=0",
            "hist_scale=0",
            "vct_depth=-1",
            "prune_count=-1",
            "vct_scale=-5",
            // Settings of features deleted after they lost their matches.
            "nmp_depth=3",
            "iir_depth=4",
            "fut_depth=2",
            "razor_depth=2",
            "leaf_vcf_nodes=200",
            "lmr_threes=1",
            "improving=1",
            "se_depth=6",
            "fhr_margin=40",
            // The hand set is a set of its own, not a second name for each constant.
            "rfp_hand_margin=150",
        ] {
            assert!(d.clone().with_overrides(bad).is_err(), "{bad}");
        }
        assert_eq!(d.clone().with_overrides("").unwrap(), d);
        assert_eq!(
            d.clone()
                .with_overrides(&SearchParams::hand().settings_text()),
            Ok(SearchParams::hand())
        );
    }
}
