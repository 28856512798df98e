//! Match statistics: win/loss/draw counts, score, Elo difference with a 95% interval, likelihood
//! of superiority and a sequential probability ratio test. Pure arithmetic, shared by the
//! in-process runner and the process-based tournament runner.
//!
//! Elo uses the logistic model: a score fraction `s` means `-400 log10(1/s - 1)` Elo. The
//! interval comes from the standard error of the mean per-game score (each game scores 1, 1/2
//! or 0), mapped through the same curve. The SPRT is the generalised (normal approximation,
//! trinomial) test used by Fishtest and cutechess: the log-likelihood ratio of "Elo = elo1"
//! against "Elo = elo0" given the observed mean and variance of the per-game score.

use std::collections::BTreeMap;
use std::fmt;

/// Wins, losses and draws from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Wdl {
    /// Counts from the given numbers.
    pub fn new(wins: u32, losses: u32, draws: u32) -> Wdl {
        Wdl {
            wins,
            losses,
            draws,
        }
    }
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }
    /// Points: a win is 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
    /// Mean score per game in 0..=1, if any game was played.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }
    /// The same counts from the opponent's side.
    pub fn flipped(&self) -> Wdl {
        Wdl::new(self.losses, self.wins, self.draws)
    }
    /// Variance of the per-game score around its mean (population variance), if any game was
    /// played.
    pub fn variance(&self) -> Option<f64> {
        let m = self.score()?;
        let n = self.games() as f64;
        let v = (self.wins as f64 * (1.0 - m).powi(2)
            + self.losses as f64 * m.powi(2)
            + self.draws as f64 * (0.5 - m).powi(2))
            / n;
        Some(v)
    }
}

impl std::ops::AddAssign for Wdl {
    fn add_assign(&mut self, o: Wdl) {
        self.wins += o.wins;
        self.losses += o.losses;
        self.draws += o.draws;
    }
}

/// Elo difference for a mean score `s` (0..=1); infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected mean score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Point estimate.
    pub elo: f64,
    /// Lower end of the 95% interval (may be -inf).
    pub low: f64,
    /// Upper end of the 95% interval (may be +inf).
    pub high: f64,
}

impl EloEstimate {
    /// Half the interval's width, the usual "+/-" figure (infinite when an end is).
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (95%: {} .. {})",
            fmt_elo(self.elo),
            fmt_elo(self.low),
            fmt_elo(self.high)
        )
    }
}

/// `+12.3`, `-4.0`, `+inf`.
pub fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{:+.1}", e + 0.0)
    }
}

/// Two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo difference and its 95% interval, if any game was played: the normal approximation of
/// the mean score, as cutechess-cli gives it; an end that this puts at or past a score of 0 or 1
/// (a sweep, or near one, where the variance says nothing) is Wilson's score interval's end
/// instead, which stays inside and so gives a finite Elo bound wherever the games allow one.
pub fn elo_estimate(wdl: &Wdl) -> Option<EloEstimate> {
    let m = wdl.score()?;
    let n = wdl.games() as f64;
    let se = (wdl.variance()? / n).sqrt();
    let (wilson_low, wilson_high) = wilson(m, n);
    let inside = |s: f64| s > 0.0 && s < 1.0;
    let (normal_low, normal_high) = (m - Z95 * se, m + Z95 * se);
    let low = if inside(normal_low) {
        normal_low
    } else {
        wilson_low
    };
    let high = if inside(normal_high) {
        normal_high
    } else {
        wilson_high
    };
    Some(EloEstimate {
        elo: elo_from_score(m),
        low: elo_from_score(low),
        high: elo_from_score(high),
    })
}

/// Wilson's 95% score interval for a mean score `p` over `n` games.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let centre = p + z2 / (2.0 * n);
    let spread = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let scale = 1.0 + z2 / n;
    // At a sweep an end is exactly 0 or 1; rounding must not make it a finite Elo.
    let low = if p <= 0.0 {
        0.0
    } else {
        (centre - spread) / scale
    };
    let high = if p >= 1.0 {
        1.0
    } else {
        (centre + spread) / scale
    };
    (low, high)
}

/// Likelihood of superiority: the probability that the side is stronger, from wins and losses
/// (draws carry no information here). 0.5 when there are neither.
pub fn los(wdl: &Wdl) -> f64 {
    let decisive = (wdl.wins + wdl.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wdl.wins as f64 - wdl.losses as f64) / (2.0 * decisive).sqrt()))
}

/// The error function (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// What an SPRT says after the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The log-likelihood ratio crossed the upper bound: accept H1 (Elo >= elo1).
    AcceptH1,
    /// It crossed the lower bound: accept H0 (Elo <= elo0), i.e. reject the change.
    AcceptH0,
    /// Neither bound reached: play on.
    Continue,
}

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1`, with
/// type I error `alpha` and type II error `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// A test with the given hypotheses and error rates.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        }
    }
    /// (lower, upper) bounds on the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        let a = self.alpha.clamp(1e-12, 0.5);
        let b = self.beta.clamp(1e-12, 0.5);
        ((b / (1.0 - a)).ln(), ((1.0 - b) / a).ln())
    }
    /// The log-likelihood ratio of H1 against H0 for the counts (0 before any game).
    ///
    /// While every game has had the same result (a sweep, or only draws) the per-game score has
    /// no spread and the normal approximation is undefined; the ratio is then the binomial one,
    /// each game scoring `m` of a win: `n (m ln(s1/s0) + (1-m) ln((1-s1)/(1-s0)))`, so a long
    /// enough sweep still ends the test (23 straight wins for elo0 0, elo1 50).
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let (Some(m), Some(var)) = (wdl.score(), wdl.variance()) else {
            return 0.0;
        };
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        let n = wdl.games() as f64;
        if var <= 1e-12 {
            return n * (m * (s1 / s0).ln() + (1.0 - m) * ((1.0 - s1) / (1.0 - s0)).ln());
        }
        n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * var)
    }
    /// Whether to stop, and with which answer.
    pub fn decide(&self, wdl: &Wdl) -> SprtDecision {
        let llr = self.llr(wdl);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// An SPRT fed games by their number in the schedule, in any order, that reads them in
/// schedule order: game `n` counts only once games `0..n` have. A run on several threads, a
/// merge of shards and a distributed driver all stop at the same game as a one-thread run,
/// so their results agree exactly. Games after the deciding one, or fed twice, are not counted.
#[derive(Clone, Debug)]
pub struct OrderedSprt {
    test: Sprt,
    next: usize,
    counted: Wdl,
    waiting: BTreeMap<usize, Wdl>,
    decision: SprtDecision,
}

impl OrderedSprt {
    /// The test over a schedule starting at game 0.
    pub fn new(test: Sprt) -> OrderedSprt {
        OrderedSprt {
            test,
            next: 0,
            counted: Wdl::default(),
            waiting: BTreeMap::new(),
            decision: SprtDecision::Continue,
        }
    }
    /// Game `index` scored `wdl` for the first engine.
    pub fn add(&mut self, index: usize, wdl: Wdl) {
        if self.decision != SprtDecision::Continue || index < self.next {
            return;
        }
        self.waiting.entry(index).or_insert(wdl);
        while self.decision == SprtDecision::Continue {
            let Some(w) = self.waiting.remove(&self.next) else {
                break;
            };
            self.counted += w;
            self.next += 1;
            self.decision = self.test.decide(&self.counted);
        }
        if self.decision != SprtDecision::Continue {
            self.waiting.clear();
        }
    }
    /// Games `0..counted_until()` are counted: the rest wait for a gap or came after the
    /// decision.
    pub fn counted_until(&self) -> usize {
        self.next
    }
    /// The counted results.
    pub fn counted(&self) -> Wdl {
        self.counted
    }
    /// The test, its log-likelihood ratio over the counted games and its decision.
    pub fn state(&self) -> (Sprt, f64, SprtDecision) {
        (self.test, self.test.llr(&self.counted), self.decision)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_from_score(0.75), 190.848, 0.01));
        assert!(close(elo_from_score(0.25), -190.848, 0.01));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert!(close(score_from_elo(elo_from_score(0.64)), 0.64, 1e-12));
        assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
    }

    #[test]
    fn counts_and_scores() {
        let w = Wdl::new(6, 2, 2);
        assert_eq!(w.games(), 10);
        assert_eq!(w.points(), 7.0);
        assert_eq!(w.score(), Some(0.7));
        assert_eq!(w.flipped(), Wdl::new(2, 6, 2));
        assert_eq!(Wdl::default().score(), None);
        assert!(elo_estimate(&Wdl::default()).is_none());
    }

    #[test]
    fn interval_brackets_the_estimate_and_narrows_with_games() {
        let small = elo_estimate(&Wdl::new(30, 10, 0)).unwrap();
        let large = elo_estimate(&Wdl::new(300, 100, 0)).unwrap();
        assert!(close(small.elo, 190.848, 0.01));
        assert!(close(large.elo, 190.848, 0.01));
        assert!(small.low < small.elo && small.elo < small.high);
        assert!(large.margin() < small.margin());
        // 75% over 400 decisive games: se = sqrt(0.1875 / 400) = 0.02165.
        let se = (0.1875f64 / 400.0).sqrt();
        assert!(close(large.low, elo_from_score(0.75 - Z95 * se), 1e-9));
        // An even match is centred on zero.
        let even = elo_estimate(&Wdl::new(20, 20, 10)).unwrap();
        assert_eq!(even.elo, 0.0);
        assert!(close(even.low, -even.high, 1e-9));
        // All wins: an infinite estimate, but 10 games bound it from below (Wilson: a score
        // of at least 10 / (10 + z^2) = 0.7225), and the mirror from above.
        let sweep = elo_estimate(&Wdl::new(10, 0, 0)).unwrap();
        assert_eq!(sweep.elo, f64::INFINITY);
        let floor = 10.0 / (10.0 + Z95 * Z95);
        assert!(close(sweep.low, elo_from_score(floor), 1e-9));
        assert_eq!(format!("{sweep}"), "+inf (95%: +166.2 .. +inf)");
        let swept = elo_estimate(&Wdl::new(0, 10, 0)).unwrap();
        assert_eq!(format!("{swept}"), "-inf (95%: -inf .. -166.2)");
        // Near a sweep the normal interval would leave 0..1; that end is Wilson's.
        let lopsided = elo_estimate(&Wdl::new(2, 6, 0)).unwrap();
        assert!(lopsided.low.is_finite() && lopsided.low < lopsided.elo);
        assert!(close(
            lopsided.high,
            elo_from_score(0.25 + Z95 * (0.1875f64 / 8.0).sqrt()),
            1e-9
        ));
        // More games, a tighter floor.
        assert!(elo_estimate(&Wdl::new(40, 0, 0)).unwrap().low > sweep.low);
    }

    #[test]
    fn erf_and_los() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(1.0), 0.842_700_79, 2e-7));
        assert!(close(erf(-0.5), -0.520_499_88, 2e-7));
        assert_eq!(los(&Wdl::new(0, 0, 7)), 0.5);
        assert!(close(los(&Wdl::new(10, 10, 3)), 0.5, 1e-7));
        // 10-0: 0.5 (1 + erf(10 / sqrt 20)) = 0.99922.
        assert!(close(los(&Wdl::new(10, 0, 0)), 0.999_217, 1e-5));
        assert!(close(los(&Wdl::new(0, 10, 0)), 1.0 - 0.999_217, 1e-5));
    }

    #[test]
    fn sprt_bounds_llr_and_decisions() {
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05);
        let (lo, hi) = t.bounds();
        assert!(close(lo, -2.944_439, 1e-5));
        assert!(close(hi, 2.944_439, 1e-5));
        // 60-40: m = 0.6, var = 0.24; LLR = 100 (s1 - s0)(1.2 - s0 - s1) / 0.48.
        let s1 = score_from_elo(10.0);
        let want = 100.0 * (s1 - 0.5) * (1.2 - 0.5 - s1) / 0.48;
        assert!(close(t.llr(&Wdl::new(60, 40, 0)), want, 1e-12));
        assert!(close(want, 0.5563, 1e-3));
        assert_eq!(t.decide(&Wdl::new(60, 40, 0)), SprtDecision::Continue);
        assert_eq!(t.decide(&Wdl::new(600, 400, 0)), SprtDecision::AcceptH1);
        assert_eq!(t.decide(&Wdl::new(400, 600, 0)), SprtDecision::AcceptH0);
        // No spread: the binomial ratio, small for a few games, decisive for a long sweep.
        assert_eq!(t.decide(&Wdl::default()), SprtDecision::Continue);
        let t50 = Sprt::new(0.0, 50.0, 0.05, 0.05);
        let per_win = (score_from_elo(50.0) / 0.5).ln();
        assert!(close(t50.llr(&Wdl::new(3, 0, 0)), 3.0 * per_win, 1e-12));
        assert_eq!(t50.decide(&Wdl::new(22, 0, 0)), SprtDecision::Continue);
        assert_eq!(t50.decide(&Wdl::new(23, 0, 0)), SprtDecision::AcceptH1);
        assert_eq!(t50.decide(&Wdl::new(0, 20, 0)), SprtDecision::AcceptH0);
        assert!(t50.llr(&Wdl::new(0, 0, 10)) < 0.0);
    }
    #[test]
    fn an_ordered_sprt_reads_games_in_schedule_order() {
        let t = Sprt::new(0.0, 50.0, 0.05, 0.05);
        let win = Wdl::new(1, 0, 0);
        // 23 straight wins decide (see sprt_bounds_llr_and_decisions); fed backwards, the
        // decision waits for game 0 and then lands on game 22, as in order.
        let mut back = OrderedSprt::new(t);
        for i in (0..30).rev() {
            back.add(i, win);
            if i > 0 {
                assert_eq!(back.state().2, SprtDecision::Continue);
                assert_eq!(back.counted_until(), 0);
            }
        }
        let mut fwd = OrderedSprt::new(t);
        for i in 0..30 {
            fwd.add(i, win);
        }
        for s in [&back, &fwd] {
            assert_eq!(s.state().2, SprtDecision::AcceptH1);
            assert_eq!(s.counted_until(), 23);
            assert_eq!(s.counted(), Wdl::new(23, 0, 0));
        }
        // A game fed twice counts once; a gap holds everything after it.
        let mut gap = OrderedSprt::new(t);
        for i in [0, 0, 1, 3, 4] {
            gap.add(i, win);
        }
        assert_eq!((gap.counted_until(), gap.counted()), (2, Wdl::new(2, 0, 0)));
        gap.add(2, Wdl::new(0, 0, 1));
        assert_eq!((gap.counted_until(), gap.counted()), (5, Wdl::new(4, 0, 1)));
    }
}
