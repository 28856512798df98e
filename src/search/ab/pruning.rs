//! The gomoku search's pruning rules as plain functions of the values they compare, so each
//! is tested on the numbers it is built for (no evaluation tables involved), and the search
//! (`search::ab::alphabeta`) states where it applies them.

use crate::search::ab::alphabeta::MATE_BOUND;
use crate::search::ab::params::SearchParams;
use crate::search::ab::tt::Bound;

/// The static value the pruning compares, corrected by a table entry's score `s` of kind
/// `bound` where that is tighter: a lower bound above it raises it, an upper bound below it
/// lowers it, an exact score replaces it. Mate scores are left alone.
#[inline]
pub fn corrected_static_value(static_eval: i32, bound: Bound, s: i32) -> i32 {
    let tighter = match bound {
        Bound::Lower => s > static_eval,
        Bound::Upper => s < static_eval,
        Bound::Exact => true,
        Bound::None => false,
    };
    if tighter && s.abs() < MATE_BOUND {
        s
    } else {
        static_eval
    }
}

/// Reverse futility: `depth` plies from the leaves, a static value this far above beta
/// (`rfp_margin` a ply) is returned without a search.
#[inline]
pub fn reverse_futile(p: &SearchParams, depth: i32, static_eval: i32, beta: i32) -> bool {
    depth <= p.rfp_depth && static_eval - p.rfp_margin * depth >= beta
}

/// Move-count pruning: near the leaves, the `index`-th quiet move (from 0) whose policy score
/// is low is skipped.
#[inline]
pub fn move_count_prunes(p: &SearchParams, depth: i32, index: usize, policy: i32) -> bool {
    depth <= p.prune_depth && index >= p.prune_count && index < 64 && policy < p.prune_policy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_bound_corrects_the_static_value_only_where_tighter() {
        assert_eq!(corrected_static_value(100, Bound::Lower, 150), 150);
        assert_eq!(corrected_static_value(100, Bound::Lower, 50), 100);
        assert_eq!(corrected_static_value(100, Bound::Upper, 50), 50);
        assert_eq!(corrected_static_value(100, Bound::Upper, 150), 100);
        assert_eq!(corrected_static_value(100, Bound::Exact, -30), -30);
        assert_eq!(corrected_static_value(100, Bound::None, 400), 100);
        // A mate score is no static value.
        assert_eq!(
            corrected_static_value(100, Bound::Exact, MATE_BOUND + 5),
            100
        );
        assert_eq!(
            corrected_static_value(100, Bound::Upper, -MATE_BOUND - 5),
            100
        );
    }

    #[test]
    fn reverse_futility_needs_the_margin_per_ply_and_the_depth() {
        let p = SearchParams::default(); // 6 plies, 70 a ply
        assert!(reverse_futile(&p, 1, 70, 0));
        assert!(!reverse_futile(&p, 1, 69, 0));
        assert!(reverse_futile(&p, 6, 420 + 10, 10));
        assert!(!reverse_futile(&p, 6, 419 + 10, 10));
        assert!(!reverse_futile(&p, 7, 100_000, 0));
        let h = SearchParams::hand(); // 3 plies, 150 a ply
        assert!(reverse_futile(&h, 3, 450, 0));
        assert!(!reverse_futile(&h, 3, 449, 0));
        assert!(!reverse_futile(&h, 4, 100_000, 0));
    }

    #[test]
    fn move_count_pruning_spares_early_moves_good_policy_and_the_hand_set() {
        let p = SearchParams::default(); // 2 plies, from the 3rd move, policy below -400
        assert!(move_count_prunes(&p, 2, 3, -401));
        assert!(!move_count_prunes(&p, 2, 3, -400));
        assert!(!move_count_prunes(&p, 2, 2, -1000));
        assert!(!move_count_prunes(&p, 3, 10, -1000));
        assert!(!move_count_prunes(&p, 1, 64, -1000));
        // Without a policy nothing is pruned by it.
        let h = SearchParams::hand();
        assert!((1..=64).all(|d| !move_count_prunes(&h, d, 10, i32::MIN)));
    }
}
