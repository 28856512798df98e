//! The tunable constants of the gomoku alpha-beta search (`search::alphabeta`) in one place:
//! move-ordering weights, pruning and reduction margins, the history table's scale. The
//! defaults are the measured values (each kept by a node-limited SPRT, see the commits);
//! a tuner changes a copy and hands it to the searcher, or sets the scalar ones by name for a
//! tuning match ([`SearchParams::with_overrides`]; the player reads them from the
//! `SENTE_SEARCH` variable, `players::strong::search_params`).

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
    /// has a policy; it then replaces the hand line values in the order). Both neighbours
    /// lost with the generation-8 freestyle tables (20,000 nodes, SPRT [0, 15], stopped): 24
    /// -17.7 Elo (95%: -41.5 .. +5.8) over 824 games, 12 -6.0 (-23.9 .. +11.8) over 1,443.
    pub policy_weight: i32,
    /// Non-forcing moves searched at remaining depth 1, 2, 3 and 4 or more (the weakest
    /// candidates are not searched at all) where the learned policy orders them; where it
    /// does not (the hand evaluation: `strong-hand`, standard, caro), `move_limit_hand`, the limits
    /// before the policy. With the policy 6 and 10 at depths 1 and 2 replaced 10 and 14
    /// (PentaZen prunes its quiet nodes to 3 and 9 moves there): against them, one thread,
    /// SPRT [0, 15], freestyle 20,000 nodes H1 after 1,665 games, 877-773-15, +21.7 Elo (95%:
    /// +5.1 .. +38.4); renju 10,000 nodes H1 after 657 games, 366-285-6, +43.1 (+16.6 ..
    /// +70.0); freestyle 60,000 nodes 4,000 games, 2039-1906-55, +11.6 (+0.9 .. +22.3),
    /// undecided when the openings ran out. Standard and caro, with no policy, keep the old
    /// limits (not measured there). The same 60,000-node try bundled other settings instead
    /// (`lmr_divisor` 160, `fhr_margin` 40, `lmr_threes` 2, `improving` 2, each a few Elo
    /// up at 20,000 nodes alone): at 60,000 nodes 4,000 games, 1992-1934-74, +5.0 (95%: -5.6
    /// .. +15.7), undecided when the openings ran out. Measured against 43ce8cf and not kept
    /// (2026-11-29; freestyle 20,000 nodes, renju 10,000, SPRT [0, 15]): 14 at depth 3
    /// (for 18) freestyle -6.7 Elo (95%: -32.0 .. +18.5) over 723 games, renju +0.9 (-16.5 ..
    /// +18.4) over 1,520; renju 4 and 8 at depths 1 and 2, -7.4 (-29.0 .. +14.2) over 992;
    /// freestyle 8 at depth 2, +3.6 (-27.3 .. +34.7) over 476 (stopped early); 4 moves more
    /// at principal-variation nodes, renju H0 after 705 games, -25.7 (-51.4 .. -0.2),
    /// freestyle -26.1 (-65.0 .. +12.2) over 307.
    pub move_limit: [usize; 4],
    pub move_limit_hand: [usize; 4],
    /// Reverse futility pruning: at most this many plies from the leaves, a non-PV node whose
    /// static value beats beta by `rfp_margin` per ply returns it. These two hold with the
    /// learned policy; without one (the hand evaluation: `strong-hand`, caro) the search keeps
    /// its measured `rfp_hand_depth` and `rfp_hand_margin`. With the policy 6 plies at 100
    /// replaced 3 at 150: against them, 20,000 nodes, one thread, SPRT [0, 15], freestyle H1
    /// after 3,931 games, 2028-1874-29, +13.7 Elo (95%: +2.9 .. +24.5) (a 3,932nd game lost
    /// on time only because the match was paused, left out); renju 2,000 games 997-993-10,
    /// +0.7 (-14.5 .. +15.9), SPRT [-10, 5] undecided when the games ran out. The margin 70
    /// replaced 100 (2026-11-29, after the renju evaluation stopped counting black's forbidden
    /// shapes): renju, 10,000 nodes, SPRT [0, 15], H1 after 2,180 games, 1142-1027-11, +18.3
    /// (+3.8 .. +33.0); freestyle, 20,000 nodes, H1 after 3,077 games, 1588-1454-35, +15.1
    /// (+2.9 .. +27.4). Renju 160 lost (H0 after 589 games, -32.5) and 50 against 70 was
    /// even (2,014 games, +1.2, -13.9 .. +16.3, stopped).
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    pub rfp_hand_depth: i32,
    pub rfp_hand_margin: i32,
    /// Late-move reduction ln(depth) * ln(index) / (`lmr_divisor` / 100), plus
    /// `lmr_offset` / 100, rounded down. Neighbours measured against 200 (20,000 nodes, one
    /// thread, freestyle, 2,480 balanced 2-6 stone openings, SPRT [0, 15]): 160 +1.3 Elo (95%:
    /// -14.4 .. +17.1) over 1,839 games, stopped undecided; 240 H0 after 1,934 games, -4.7
    /// (-20.1 .. +10.7).
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
    ///
    /// The history learns quiet moves only (neither making nor blocking a three), and with
    /// the learned policy it orders little: three richer histories measured no better, each
    /// SPRT [0, 15] against 43ce8cf, one thread, freestyle 20,000 nodes and renju 10,000
    /// (2026-11-29, not kept): a counter move (the quiet move that last cut off after the
    /// opponent's move to the same point, ordered at 200) freestyle -6.2 Elo (95%: -24.8 ..
    /// +12.3) over 1,341 games, renju H0 after 1,664 games, -6.7 (-23.3 .. +10.0); the history
    /// learning threat moves too (all but fours) freestyle +1.4 (-16.1 .. +18.9) over 1,508,
    /// renju H0 after 2,632, -1.6 (-14.8 .. +11.6); a continuation history (per opponent's
    /// last move, learning all but fours, twice the main history's weight in order and
    /// reductions) freestyle +1.1 (-18.0 .. +20.2) over 1,253, renju -0.6 (-13.8 .. +12.5)
    /// over 2,677. Learning quiet moves only, a continuation history changed not one game:
    /// most moves of a gomoku tree make or block a three, and cut-offs by quiet moves are rare.
    pub hist_scale: i32,
    /// With a policy: at most `prune_depth` plies from the leaves, off the PV, quiet moves
    /// from the `prune_count`-th on whose policy score is below `prune_policy` are skipped.
    /// Neighbours measured against 3 and -400 (as for `lmr_divisor`): `prune_count` 2 exactly
    /// even over 2,500 games, 1238-1238-24 (95%: -13.6 .. +13.6); `prune_policy` -300 +7.4
    /// (-6.2 .. +20.9) over the first 2,500 games, then +5.6 over 5,046 and about +0.5 over
    /// 13,318 more on 12,000 new openings (SPRT [0, 5], undecided): about +2.5 over all
    /// ~20,900 games, noise, so -400 stays.
    pub prune_depth: i32,
    pub prune_count: usize,
    pub prune_policy: i32,
    /// Plies added at a node whose opponent threatens an open four (its moves are only the
    /// answers), also at the leaves.
    pub defend_extension: i32,
    /// Most defence extensions on one path from the root. 3 against 2 (SPRT [0, 15], freestyle
    /// 20,000 nodes, one thread, against 5bf23b7, 2026-11-30): +5.2 Elo (95%: -9.4 .. +19.9)
    /// over 2,135 games, 1069-1037-29, stopped (LLR -0.62); again on other openings, H0 after
    /// 826 games, 383-433-10, -21.1 (-44.8 .. +2.5).
    pub defend_extension_max: i32,
    /// Half-width of the root's aspiration window (0: none); doubles on each re-search.
    pub aspiration: i32,
    /// Deepest chain of fours followed in quiescence. Short on purpose: longer chains are the
    /// root VCF search's job, and at 100 ms per move a 2-ply quiescence beat 4 and 8 plies in
    /// matches against `classic` (20 games each: 90%, 80%, 75%). 4 against 2 with the learned
    /// tables (SPRT [0, 15], freestyle 20,000 nodes, one thread, against 5bf23b7, 2026-11-30):
    /// H0 after 559 games, 248-303-8, -34.3 Elo (95%: -63.3 .. -5.7).
    pub quiescence_plies: u32,
    /// Whether a table entry's score corrects the static value the pruning rules compare
    /// (0: off): a lower bound above it raises it, an upper bound below it lowers it, an
    /// exact score replaces it (a searched value says more than the static one). On: against
    /// off, 20,000 nodes, freestyle, SPRT [0, 15] H1 after 2,568 games, 1336-1213-19, +16.7
    /// Elo (95%: +3.3 .. +30.1).
    pub tt_eval: i32,
    /// Most attacker moves in the root VCTs (ours, and the opponent's as if we passed and
    /// after each root move). 12 instead of 8, against 43ce8cf, renju 10,000 nodes, SPRT [0,
    /// 15]: -2.0 Elo (95%: -18.1 .. +14.2) over 1,772 games, stopped (LLR -2.09); against
    /// 5bf23b7, freestyle 20,000 nodes: -1.5 (-16.1 .. +13.1) over 2,140 games, 1045-1054-41,
    /// stopped (LLR -2.43).
    pub vct_depth: u32,
    /// The root VCTs' node budgets (our VCT, the opponent's threat as if we passed), in
    /// tenths of a percent of the root threat budget. 300 with `vct_depth` 12, as above: H0
    /// after 850 games, -20.5 (-43.9 .. +2.8) (under a node limit their nodes are the
    /// search's: at 10,000 nodes a move that is up to 6,000 of them). At 500 ms a move the
    /// budget is rarely what ends them: a middle-game VCT spends tens of nodes, not thousands.
    pub vct_scale: u64,
    /// Root threat-search nodes per millisecond of the hard deadline (below the real speed,
    /// so the alpha-beta search keeps most of the time).
    pub threat_nodes_per_ms: u64,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            attack: [0, 20, 18, 60, 110, 160, 1200, 90, 220, 2600, 10000, 100000],
            defend: [0, 14, 12, 45, 85, 125, 700, 70, 160, 1600, 6000, 60000],
            killer_bonus: 300,
            use_policy: true,
            policy_weight: 16,
            move_limit: [6, 10, 18, 24],
            move_limit_hand: [10, 14, 18, 24],
            rfp_depth: 6,
            rfp_margin: 70,
            rfp_hand_depth: 3,
            rfp_hand_margin: 150,
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
            tt_eval: 1,
            vct_depth: 8,
            vct_scale: 100,
            threat_nodes_per_ms: 200,
        }
    }
}

impl SearchParams {
    /// Applies `name=value` settings separated by commas or spaces (the names of the scalar
    /// fields), for tuning matches; an unknown name or a bad integer is an error and changes
    /// nothing.
    pub fn with_overrides(mut self, text: &str) -> Result<SearchParams, String> {
        for item in text.split([',', ' ']).filter(|s| !s.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("`{item}`: expected name=value"))?;
            let num: i32 = value
                .parse()
                .map_err(|_| format!("`{item}`: not an integer"))?;
            let count = || usize::try_from(num).map_err(|_| format!("`{item}`: negative"));
            match name {
                "killer_bonus" => self.killer_bonus = num,
                "use_policy" => self.use_policy = num != 0,
                "policy_weight" => self.policy_weight = num,
                "rfp_depth" => self.rfp_depth = num,
                "rfp_margin" => self.rfp_margin = num,
                "rfp_hand_depth" => self.rfp_hand_depth = num,
                "rfp_hand_margin" => self.rfp_hand_margin = num,
                "lmr_divisor" if num > 0 => self.lmr_divisor = num,
                "lmr_offset" => self.lmr_offset = num,
                "lmr_non_pv" => self.lmr_non_pv = num,
                "hist_lmr_fraction" if num > 0 => self.hist_lmr_fraction = num,
                "lmr_policy_low" => self.lmr_policy_low = num,
                "lmr_policy_high" => self.lmr_policy_high = num,
                "prune_depth" => self.prune_depth = num,
                "prune_count" => self.prune_count = count()?,
                "prune_policy" => self.prune_policy = num,
                "defend_extension" => self.defend_extension = num,
                "defend_extension_max" => self.defend_extension_max = num,
                "aspiration" => self.aspiration = num,
                "quiescence_plies" => self.quiescence_plies = count()? as u32,
                "tt_eval" => self.tt_eval = num,
                "vct_depth" => self.vct_depth = count()? as u32,
                "vct_scale" => self.vct_scale = count()? as u64,
                "threat_nodes_per_ms" => self.threat_nodes_per_ms = count()? as u64,
                "move_limit1" => self.move_limit[0] = count()?,
                "move_limit2" => self.move_limit[1] = count()?,
                "move_limit3" => self.move_limit[2] = count()?,
                "move_limit4" => self.move_limit[3] = count()?,
                "move_limit_hand1" => self.move_limit_hand[0] = count()?,
                "move_limit_hand2" => self.move_limit_hand[1] = count()?,
                "move_limit_hand3" => self.move_limit_hand[2] = count()?,
                "move_limit_hand4" => self.move_limit_hand[3] = count()?,
                "lmr_divisor" | "hist_lmr_fraction" => {
                    return Err(format!("`{item}`: must be positive"))
                }
                _ => return Err(format!("`{name}`: no such setting")),
            }
        }
        Ok(self)
    }

    /// Non-forcing moves searched at `depth` plies from the leaves, where the learned policy
    /// orders the moves (`policy`) or where the hand line values do.
    #[inline]
    pub fn move_limit(&self, depth: i32, policy: bool) -> usize {
        let limits = if policy {
            &self.move_limit
        } else {
            &self.move_limit_hand
        };
        limits[depth.clamp(1, 4) as usize - 1]
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
        assert_eq!(p.move_limit(0, true), 6);
        assert_eq!(p.move_limit(2, true), 10);
        assert_eq!(p.move_limit(9, true), 24);
        assert_eq!(p.move_limit(0, false), 10);
        assert_eq!(p.move_limit(2, false), 14);
    }

    #[test]
    fn overrides_set_named_constants_and_refuse_bad_ones() {
        let p = SearchParams::default()
            .with_overrides("aspiration=30, rfp_margin=120 move_limit4=30 move_limit_hand1=7")
            .unwrap();
        assert_eq!(p.aspiration, 30);
        assert_eq!(p.rfp_margin, 120);
        assert_eq!(p.move_limit(9, true), 30);
        assert_eq!(p.move_limit(1, true), 6);
        assert_eq!(p.move_limit(1, false), 7);
        assert_eq!(p.move_limit(9, false), 24);
        let r = SearchParams::default()
            .with_overrides("tt_eval=0,prune_policy=-300,defend_extension_max=3")
            .unwrap();
        assert_eq!(
            (r.tt_eval, r.prune_policy, r.defend_extension_max),
            (0, -300, 3)
        );
        let t = SearchParams::default()
            .with_overrides("vct_depth=12,vct_scale=300,threat_nodes_per_ms=400")
            .unwrap();
        assert_eq!(
            (t.vct_depth, t.vct_scale, t.threat_nodes_per_ms),
            (12, 300, 400)
        );
        let d = SearchParams::default();
        for bad in [
            "rfp_margin",
            "rfp_margin=x",
            "rfp_margin=1.5",
            "no_such=1",
            "lmr_divisor=0",
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
        ] {
            assert!(d.clone().with_overrides(bad).is_err(), "{bad}");
        }
        assert_eq!(d.clone().with_overrides("").unwrap(), d);
    }
}
