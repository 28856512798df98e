//! The Go tree search's tunable settings ([`MctsConfig`]), set by name for tuning matches
//! ([`MctsConfig::with_overrides`], the `SENTE_MCTS` variable), and the progressive widening
//! and dynamic komi schedules they define.

use crate::eval::go::priors::PriorWeights;
use crate::rules::Color;

crate::tunables! {
    /// Tunable constants of the search.
    #[derive(Copy)]
    pub struct MctsConfig {
        /// Visits a leaf needs before it is expanded.
        expand_after: u32 = 8, 1 ..= 1000000;
        /// Virtual visits of the prior.
        prior_visits: f32 = 10.0, 0.0 ..= 1000000.0;
        /// RAVE equivalence parameter: visits at which tree and AMAF statistics weigh the same.
        rave_equiv: f32 = 3500.0, 0.0 ..= 1000000000.0;
        /// UCT exploration constant.
        explore: f32 = 0.1, 0.0 ..= 100.0;
        /// Hand prior: added to the winrate of a 3x3 pattern's answer next to the last move.
        pattern_prior: f32 = PriorWeights::default().pattern, -1.0 ..= 1.0;
        /// Hand prior: added to the winrate of a move within Manhattan distance 2 of the last move.
        near_prior: f32 = PriorWeights::default().near, -1.0 ..= 1.0;
        /// Whether expansions read ladders ([`crate::eval::go::ladder`]; a run into one is a bad move).
        ladders: bool = PriorWeights::default().ladders, 0 ..= 1;
        /// Hand prior: added to the winrate of an atari that a ladder turns into a capture.
        ladder_prior: f32 = PriorWeights::default().ladder, -1.0 ..= 1.0;
        /// The prior winrate of a bad move (a self-atari capturing nothing, a run into a ladder).
        bad_prior: f32 = PriorWeights::default().bad_q, 0.0 ..= 1.0;
        /// Hand prior: the winrate of a good move far below the best ([`PriorWeights::prior_of`]) ...
        prior_floor: f32 = PriorWeights::default().floor_q, 0.0 ..= 1.0;
        /// ... plus at most this for the best ...
        prior_span: f32 = PriorWeights::default().span_q, 0.0 ..= 1.0;
        /// ... and, bonuses included, at most this (also the learned priors' winrate for the best).
        prior_cap: f32 = PriorWeights::default().cap_q, 0.0 ..= 1.0;
        /// Weight (0 to 1) of the learned gammas ([`crate::eval::go::gammas`]) against the hand priors.
        gamma_priors: f32 = 1.0, 0.0 ..= 1.0;
        /// Nodes the tree may hold.
        max_nodes: usize = 2_000_000, 16 ..= 4e9;
        /// Progressive widening applies to nodes with more children than this (0 turns it off).
        widen_over: u16 = 100, 0 ..= 65535;
        /// Whether progressive widening goes on past the opening (else the root's phase decides).
        widen_late: bool = true, 0 ..= 1;
        /// Children searched from the first visit of a widened node ...
        widen_start: f32 = 20.0, 1.0 ..= 1000.0;
        /// ... one more after this many visits ...
        widen_visits: f32 = 50.0, 1.0 ..= 1000000000.0;
        /// ... and the factor by which that number grows for each further child.
        widen_growth: f32 = 1.3, 1.001 ..= 100.0;
        /// Past the soft deadline ([`super::Mode::Play`]), stop at this ratio of the top visits.
        clear_ratio: u32 = 2, 1 ..= 1000000;
        /// Dynamic komi in handicap games (Pachi's linear schedule): points per handicap stone, 0 off.
        dyn_komi_stone: f32 = 0.0, -50.0 ..= 50.0;
        /// The move, as a fraction of the board's points, by which dynamic komi is gone.
        dyn_komi_end: f32 = 0.5, 0.01 ..= 1.0;
        /// Whom dynamic komi plays for: 1 black (taking the handicap), 2 white (giving it), 3 both.
        dyn_komi_sides: u8 = 1, 1 ..= 3;
        /// Weight of a point's criticality in the selection ([`super::crit`]), 0 off.
        crit_bonus: f32 = 0.3, 0.0 ..= 10.0;
        /// Simulations of the search before criticality is read (fewer give noise).
        crit_min_sims: u32 = 500, 0 ..= 1000000000;
        /// Weight of the score utility in the selection ([`score_utility`]), 0 off.
        score_weight: f32 = 0.1, 0.0 ..= 1.0;
        /// The score utility's scale, in points per square root of the board's points.
        score_scale: f32 = 0.5, 0.01 ..= 100.0;
    }
}

impl MctsConfig {
    /// The priors' numbers as the evaluation takes them.
    pub(super) fn prior_weights(&self) -> PriorWeights {
        PriorWeights {
            near: self.near_prior,
            pattern: self.pattern_prior,
            ladders: self.ladders,
            ladder: self.ladder_prior,
            bad_q: self.bad_prior,
            floor_q: self.prior_floor,
            span_q: self.prior_span,
            cap_q: self.prior_cap,
        }
    }
}

/// The score utility of a child whose mean margin (from its mover's side) is `mean` where its
/// parent's, from the same side, is `centre`: `(mean - centre) / (scale + |mean - centre|)`,
/// in -1..1. Bounded, so a large lead cannot outweigh the winrate; centred on the parent, so
/// that it tells siblings apart where their margins cluster, the way KataGo's dynamic score
/// utility centres on the root's expected score. (A rational function rather than an arctan:
/// it is evaluated for every child at every selection.)
#[inline]
pub(super) fn score_utility(mean: f32, centre: f32, scale: f32) -> f32 {
    let d = mean - centre;
    d / (scale + d.abs())
}

/// Whether a node with `n_children` children is widened progressively (in the opening).
pub(super) fn widens(cfg: &MctsConfig, n_children: usize) -> bool {
    cfg.widen_over > 0 && n_children > cfg.widen_over as usize
}

/// How many of a node's `n_children` children (ranked by prior when widening applies) the
/// selection looks at after `visits` visits: `widen_start + log(1 + visits / widen_visits) /
/// log(widen_growth)`, at least one, at most all.
pub(super) fn widened(cfg: &MctsConfig, n_children: u16, visits: u32) -> u16 {
    if !widens(cfg, n_children as usize) {
        return n_children;
    }
    let extra = (1.0 + visits as f32 / cfg.widen_visits).ln() / cfg.widen_growth.ln();
    let k = cfg.widen_start + extra;
    if k >= n_children as f32 {
        n_children
    } else {
        (k as u16).max(1)
    }
}

/// The points added to komi for `to_move`'s search in a game with `handicap` black set-up
/// stones after `moves` moves on a board of `points` points ([`MctsConfig::dyn_komi_stone`]):
/// the same sign for both sides (white, who gave the stones, is owed them back), nothing
/// without a handicap of two stones or more, past the schedule's end or for a side the
/// setting leaves out. Black, counting against the raised komi, does not coast on a lead it
/// would lose by slack moves; the extra komi falls linearly to nothing by
/// [`MctsConfig::dyn_komi_end`].
pub fn dynamic_komi(
    cfg: &MctsConfig,
    handicap: usize,
    moves: usize,
    points: usize,
    to_move: Color,
) -> f32 {
    let side = match to_move {
        Color::Black => 1,
        Color::White => 2,
    };
    if handicap < 2 || cfg.dyn_komi_stone <= 0.0 || cfg.dyn_komi_sides & side == 0 {
        return 0.0;
    }
    let end = cfg.dyn_komi_end * points as f32;
    let left = if end > 0.0 {
        (1.0 - moves as f32 / end).max(0.0)
    } else {
        0.0
    };
    // Whole points: komi's half point keeps playouts from ending level.
    (cfg.dyn_komi_stone * handicap as f32 * left).round()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dynamic_komi_falls_linearly_to_nothing_and_only_with_a_handicap() {
        let off = MctsConfig::default();
        // Off by default.
        assert_eq!(dynamic_komi(&off, 4, 0, 361, Color::Black), 0.0);
        let on = MctsConfig {
            dyn_komi_stone: 7.0,
            dyn_komi_sides: 3,
            ..off
        };
        let at = |h, moves, c| dynamic_komi(&on, h, moves, 361, c);
        assert_eq!(at(4, 0, Color::Black), 28.0);
        // White, who gave the stones, is owed them back.
        assert_eq!(at(4, 0, Color::White), 28.0);
        // 180.5 moves to go from full to nothing on 19x19.
        assert_eq!(at(4, 90, Color::Black), 14.0);
        assert_eq!(at(4, 181, Color::Black), 0.0);
        assert_eq!(at(4, 300, Color::White), 0.0);
        assert_eq!(at(0, 0, Color::Black), 0.0);
        // One stone is no handicap.
        assert_eq!(at(1, 0, Color::Black), 0.0);
        // 9x9: half way at move 20.
        assert_eq!(dynamic_komi(&on, 2, 20, 81, Color::Black), 7.0);
        // Black only by default.
        let black_only = MctsConfig {
            dyn_komi_stone: 7.0,
            ..off
        };
        assert_eq!(dynamic_komi(&black_only, 3, 0, 81, Color::Black), 21.0);
        assert_eq!(dynamic_komi(&black_only, 3, 0, 81, Color::White), 0.0);
    }

    #[test]
    fn the_score_utility_is_bounded_centred_and_rising() {
        assert_eq!(score_utility(-3.0, -3.0, 4.5), 0.0);
        // 4.5 points above the centre is half way to the bound.
        assert_eq!(score_utility(1.5, -3.0, 4.5), 0.5);
        assert_eq!(score_utility(-7.5, -3.0, 4.5), -0.5);
        let mut last = -1.0;
        for m in -400..=400 {
            let u = score_utility(m as f32, 0.0, 4.5);
            assert!(u > last && u < 1.0, "{m}: {u}");
            last = u;
        }
    }

    #[test]
    fn the_settings_text_rebuilds_the_config() {
        let d = MctsConfig::default();
        assert_eq!(d.with_overrides(&d.settings_text()), Ok(d));
        let tuned = d
            .with_overrides("explore=0.25 rave_equiv=1200 max_nodes=5000 widen_over=0")
            .unwrap();
        assert_ne!(tuned, d);
        assert_eq!(d.with_overrides(&tuned.settings_text()), Ok(tuned));
        assert!(tuned.settings_text().contains("explore=0.25"));
    }

    #[test]
    fn the_names_of_deleted_settings_are_refused() {
        let d = MctsConfig::default();
        for name in [
            "gamma_playouts",
            "gamma_rest",
            "lgrf",
            "lgrf_tactics_first",
            "nakade",
        ] {
            let err = d.with_overrides(&format!("{name}=1")).unwrap_err();
            assert!(err.contains("no such setting"), "{name}: {err}");
        }
    }

    #[test]
    fn widening_grows_with_visits_on_big_boards_only() {
        let cfg = MctsConfig::default();
        // 9x9 (at most 81 children) is never widened.
        assert_eq!(widened(&cfg, 81, 0), 81);
        assert_eq!(widened(&cfg, 81, 1_000_000), 81);
        // 19x19: a few children at first, more as visits come, never more than there are.
        let at = |v| widened(&cfg, 361, v);
        assert_eq!(at(0), cfg.widen_start as u16);
        assert!(at(100) > at(0) && at(10_000) > at(100) && at(u32::MAX) > at(10_000));
        assert!(at(u32::MAX) < 361);
        let wide = MctsConfig {
            widen_start: 100.0,
            ..cfg
        };
        assert_eq!(widened(&wide, 101, 0), 100);
        assert_eq!(widened(&wide, 101, 1000), 101);
        let off = MctsConfig {
            widen_over: 0,
            ..cfg
        };
        assert_eq!(widened(&off, 361, 0), 361);
    }
}
