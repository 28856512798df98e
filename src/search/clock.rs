//! What a search was asked for ([`SearchLimit`]) and when it must stop ([`TimeManager`]).
//!
//! The clock starts when the command that asks for a move is read (its `Instant` travels with
//! the command), not when the search begins, so parsing and set-up are paid from the budget.
//! Two deadlines come out of a limit: the *soft* one (do not start another iteration) and the
//! *hard* one (stop now and answer with the best move of the last finished iteration). Both sit
//! a safety margin inside what the manager enforces, because the process may be descheduled and
//! the reply must still be written and flushed.
//!
//! The margin has three parts ([`safety_margin_ms`], [`Lateness`]):
//! - a twentieth of the budget (at most 150 ms): the longer the move, the more a stall can
//!   cost (was a tenth, at most 300: 70 ms kept back of a 500 ms turn where Rapfi keeps 30, and
//!   520 of 5 s);
//! - a fixed part (up to 20 ms, at most a third of the budget) for what does not shrink with
//!   the budget: waking up, the stdin thread handing the line over, writing the reply, and the
//!   manager's own reading. At 100 ms per move this makes the margin 25 ms, not 5: on a loaded
//!   machine a runnable process waits several milliseconds for a core, twice per move;
//! - the lateness this process has itself observed lately: how far past its hard deadline each
//!   reply actually went out (a poll that came late, a stall while writing). The same stalls
//!   hit the parts no process can see (before our stdin thread reads the line, after the reply
//!   is written), so the margin grows by half as much again as what was seen, and decays when
//!   replies are on time again.
//!
//! How much of the budget an iterative-deepening search spends ([`TimeManager::may_deepen`],
//! [`Stability`]), as strong engines do: it starts another iteration while the time spent is
//! under a *target*, which grows when the best move keeps changing or the score falls and
//! shrinks when the choice has long been settled. When the turn's limit is the one that binds
//! (`timeout_turn` with no match clock, or a match clock whose fair share of the remaining time
//! is more than the turn allows: saving time then buys nothing), the time is spent as strong
//! engines spend a fixed time per move: the target is the whole hard deadline
//! ([`PER_MOVE_TARGET`]), and an iteration starts whatever time is left: a cut iteration still
//! checks the best move deeper, or at least fills the table for the next move, with time that
//! would be lost. Only a choice long settled stops at three quarters of the deadline, and then
//! an iteration starts only while half the last iteration's time is left (about half of the
//! move it searches first, which costs about as much as the whole last iteration). When the match clock binds, the target is the fair share of the
//! remaining time scaled by the stability, and an iteration starts only if the whole of it can
//! finish, since time saved now is time for later moves. Either way the hard deadline stops
//! the search (never late). A won game (a five, an open four, a VCF, a win the search proves)
//! is answered at once; so is a forced move (one reply: a block, the one move that survives the
//! opponent's threats) under a binding match clock, while per move it gets half of the hard
//! deadline ([`FORCED_SHARE`]): that time would be lost, and what the search finds about the
//! position after the forced move is in the table when the opponent answers. Per move, a loss
//! the search proves is searched on as well (the search is selective: a deeper iteration tries
//! more moves and may find a defence). Measured at 500 ms a move against Rapfi (1ca1388, the
//! target at 80% and forced moves at a quarter), searched replies averaged 79% of the turn
//! but all replies 56-57%: 12-17% of the replies were won or lost at once, and 18-22% more were
//! proven losses (a third of the turn on average).
//!
//! No clock gives one move more than [`MAX_MOVE_MS`] (5 minutes): a longer turn time (Gomocup
//! `INFO timeout_turn 2147483647`), or a share of a longer game clock (GTP `time_settings
//! 2147483647 0 0`, 68 years of main time), is cut to it. The cap is on what a clock grants,
//! not on searches the user sizes otherwise: `--nodes`, `--depth` and analysis (which runs until
//! the next line) are not capped. `YXSTOP`, `STOP` and end of input still stop a capped search
//! at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The most one move may spend from any clock, however long the clock (see the module notes):
/// 5 minutes, far past what a move gains at the longest time controls engines play, and short
/// enough that an absurd clock still gets its answer.
pub const MAX_MOVE_MS: u64 = 300_000;

/// Remaining match time at or above this many milliseconds means "unlimited" in Gomocup.
pub const UNLIMITED_MS: i64 = 2_147_483_647;

/// The clocks a protocol reported, in milliseconds. `None` means "not given / unlimited".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameClock {
    /// Time for this move (Gomocup `timeout_turn`; GTP byo-yomi period). `Some(0)` = move at once.
    pub turn_ms: Option<u64>,
    /// Time left for the whole game (Gomocup `time_left`, GTP `time_left`).
    pub left_ms: Option<i64>,
    /// Moves that the remaining time must cover, when the protocol says (GTP Canadian periods).
    pub moves_to_go: Option<u32>,
    /// Time added after each move (increment).
    pub increment_ms: u64,
    /// Extra margin from this process's observed lateness ([`Lateness::lag_ms`]).
    pub lag_ms: u64,
}

/// What the caller asked the search for: any combination of a depth, a node count and a clock;
/// whichever runs out first ends the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchLimit {
    /// Deepest iteration to run.
    pub depth: Option<u32>,
    /// Nodes after which to stop (deterministic play).
    pub nodes: Option<u64>,
    /// The game clock.
    pub clock: GameClock,
}

impl SearchLimit {
    /// A limit of `depth` plies and nothing else.
    pub fn depth(depth: u32) -> SearchLimit {
        SearchLimit {
            depth: Some(depth),
            ..SearchLimit::default()
        }
    }
    /// A limit of `nodes` nodes and nothing else.
    pub fn nodes(nodes: u64) -> SearchLimit {
        SearchLimit {
            nodes: Some(nodes),
            ..SearchLimit::default()
        }
    }
    /// A fixed time per move.
    pub fn move_time(ms: u64) -> SearchLimit {
        SearchLimit {
            clock: GameClock {
                turn_ms: Some(ms),
                ..GameClock::default()
            },
            ..SearchLimit::default()
        }
    }
}

/// Deadlines derived from a [`SearchLimit`], plus the stop flag shared with the input thread.
#[derive(Debug)]
pub struct TimeManager<'a> {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    max_nodes: Option<u64>,
    max_depth: Option<u32>,
    /// Whether this move's time is lost if unused: no game time carries over (a fixed time per
    /// move, a byo-yomi period of one stone with no main time left).
    per_move: bool,
    /// Whether the turn's limit binds rather than the match clock's: the time is lost if
    /// unused, or the match clock's fair share is more than the turn allows anyway.
    turn_binds: bool,
    stop: &'a AtomicBool,
}

/// Milliseconds kept back from any limit for scheduling, writing and the manager's own overhead
/// (see the module notes): a twentieth of the budget, at most 150, plus a fixed 20, at most a
/// third of the budget.
/// A budget of [`ANSWER_NOW_MS`] or less is all margin: the move comes from move ordering.
pub fn safety_margin_ms(budget_ms: u64) -> u64 {
    if budget_ms <= ANSWER_NOW_MS {
        return budget_ms;
    }
    (budget_ms / 20).min(150) + (budget_ms / 3).min(20)
}

/// Budgets this small are not worth searching: a few milliseconds of search gain nothing and
/// one stall would make the reply late.
pub const ANSWER_NOW_MS: u64 = 20;

/// The margin for a budget when `lag_ms` of lateness was observed: never more than three
/// quarters of the budget, so a spike leaves a quarter to think (a budget so small that this
/// matters is answered from move ordering anyway, by the search's own checks).
fn margin_with_lag_ms(budget_ms: u64, lag_ms: u64) -> u64 {
    let base = safety_margin_ms(budget_ms);
    (base + lag_ms).min(budget_ms * 3 / 4).max(base)
}

/// The most lateness [`Lateness`] carries into the margin.
const MAX_LAG_MS: u64 = 2_000;

/// How late this process's replies have gone out past their hard deadline recently, as extra
/// safety margin for the next moves (see the module notes). One per session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lateness {
    lag_ms: u64,
}

impl Lateness {
    /// The extra margin to put in [`GameClock::lag_ms`].
    pub fn lag_ms(&self) -> u64 {
        self.lag_ms
    }

    /// A reply to a search with hard deadline `hard` (from the request; `None` = no deadline)
    /// went out `replied` after the request. Lateness raises the margin at once to one and a
    /// half times what was seen; without it the margin loses an eighth per reply, so one stall
    /// is forgotten within a few dozen moves.
    pub fn observe(&mut self, hard: Option<Duration>, replied: Duration) {
        let decayed = self.lag_ms - self.lag_ms.div_ceil(8);
        let late = match hard {
            Some(hard) => replied
                .saturating_sub(hard)
                .as_millis()
                .min(u64::MAX as u128) as u64,
            None => 0,
        };
        self.lag_ms = decayed.max(late.saturating_add(late / 2)).min(MAX_LAG_MS);
    }
}

impl<'a> TimeManager<'a> {
    /// Deadlines for a search that was requested at `start`.
    pub fn new(limit: &SearchLimit, start: Instant, stop: &'a AtomicBool) -> TimeManager<'a> {
        let Budget {
            soft,
            hard,
            turn_binds,
        } = budget(&limit.clock);
        TimeManager {
            start,
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
            max_nodes: limit.nodes,
            per_move: limit.clock.left_ms.is_none(),
            turn_binds: turn_binds || limit.clock.left_ms.is_none(),
            max_depth: limit.depth,
            stop,
        }
    }

    /// A manager with no limit but the stop flag (tests, analysis).
    pub fn infinite(stop: &'a AtomicBool) -> TimeManager<'a> {
        TimeManager::new(&SearchLimit::default(), Instant::now(), stop)
    }

    /// When the request came.
    pub fn start(&self) -> Instant {
        self.start
    }
    /// Time since the request.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
    /// The deepest iteration allowed.
    pub fn max_depth(&self) -> Option<u32> {
        self.max_depth
    }
    /// Whether the time of this move is lost if unused, so a search may spend all of it.
    pub fn time_is_per_move(&self) -> bool {
        self.per_move
    }
    /// Whether the turn's limit binds rather than the match clock (see the module notes): the
    /// time this move leaves unused is worth nothing later.
    pub fn turn_binds(&self) -> bool {
        self.turn_binds
    }
    /// The node budget.
    pub fn max_nodes(&self) -> Option<u64> {
        self.max_nodes
    }
    /// The hard deadline, measured from the request.
    pub fn hard_limit(&self) -> Option<Duration> {
        self.hard
    }
    /// Whether there is no time to search at all (`timeout_turn 0`): answer from move ordering.
    pub fn must_answer_now(&self) -> bool {
        self.hard == Some(Duration::ZERO) || self.stop.load(Ordering::Relaxed)
    }
    /// Whether someone (the input thread) asked the search to stop.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// Polled every ~1024 nodes: stop flag, hard deadline, node budget.
    pub fn should_stop(&self, nodes: u64) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if let Some(max) = self.max_nodes {
            if nodes >= max {
                return true;
            }
        }
        match self.hard {
            Some(hard) => self.start.elapsed() >= hard,
            None => false,
        }
    }
    /// Asked between iterations: whether another one may begin. `last_iteration` is how long the
    /// iteration that just finished took; the next one usually costs several times more.
    pub fn may_start_iteration(&self, depth: u32, nodes: u64, last_iteration: Duration) -> bool {
        if self.should_stop(nodes) {
            return false;
        }
        if let Some(max) = self.max_depth {
            if depth > max {
                return false;
            }
        }
        let elapsed = self.start.elapsed();
        if let Some(soft) = self.soft {
            if elapsed >= soft {
                return false;
            }
        }
        if let Some(hard) = self.hard {
            // The next iteration would not finish: do not throw the time away.
            if elapsed + last_iteration * 2 >= hard {
                return false;
            }
        }
        true
    }
}

/// Share of the hard deadline that a search under a binding turn limit aims to spend when its
/// choice is neither settled nor shaken ([`Stability::scale`] 1); the scaled target is at most
/// the whole hard deadline, so only a settled choice stops sooner. Raised from 0.5 (40-42% of
/// `timeout_turn` over all replies) and 0.8 (56-59%).
const PER_MOVE_TARGET: f64 = 1.0;
/// Share of the hard deadline a forced move (one reply) gets under a binding turn limit (was a
/// quarter).
const FORCED_SHARE: f64 = 0.5;

impl TimeManager<'_> {
    /// Asked by an iterative-deepening search between iterations: whether iteration `depth`
    /// may start, given how long the last one took and how settled the choice is (see the
    /// module notes). The first iteration always may, unless the search must stop.
    pub fn may_deepen(
        &self,
        depth: u32,
        nodes: u64,
        last_iteration: Duration,
        stability: &Stability,
    ) -> bool {
        if self.should_stop(nodes) || self.max_depth.is_some_and(|max| depth > max) {
            return false;
        }
        if depth <= 1 {
            return true;
        }
        let turn = self.turn_binds && self.hard.is_some();
        let share = match (stability.forced, turn) {
            (false, true) => (PER_MOVE_TARGET * stability.scale()).min(1.0),
            (false, false) => stability.scale(),
            (true, true) => FORCED_SHARE,
            (true, false) => return false,
        };
        let elapsed = self.start.elapsed();
        let (target, next) = match (turn, self.hard) {
            // When the whole deadline is the target, an iteration starts whatever is left: a
            // cut one may still reach the best move's score deeper and fills the table for the
            // next move, with time that would be lost. Otherwise half the last iteration's
            // time must be left (about what the first move of the next one costs).
            (true, Some(hard)) if share >= 1.0 => (hard, Duration::ZERO),
            (true, Some(hard)) => (hard.mul_f64(share), last_iteration / 2),
            _ => (
                self.soft.map_or(Duration::MAX, |s| s.mul_f64(share)),
                last_iteration * 2,
            ),
        };
        if elapsed >= target {
            return false;
        }
        match self.hard {
            Some(hard) => elapsed + next < hard,
            None => true,
        }
    }
}

/// How settled a search's choice is, iteration after iteration: the factor on its time target
/// ([`TimeManager::may_deepen`]). Fed by the search after every completed iteration.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stability {
    /// Changes of the best move, each worth 1 and halved every iteration.
    changes: f64,
    /// Iterations in a row with the same best move.
    settled: u32,
    /// The scores of the last two iterations (the latest last). Scores of one parity are
    /// compared (the side that moves last at the horizon alternates with the depth, and
    /// the static evaluation leans towards it).
    scores: [Option<i32>; 2],
    /// How far the score fell, against the iteration two before, in the latest iteration.
    fall: i32,
    /// One legal move, or a forced win or loss: nothing to think about.
    forced: bool,
}

impl Stability {
    /// A completed iteration chose its best move (`changed`: another than the previous
    /// iteration's) with `score`.
    pub fn iteration(&mut self, changed: bool, score: i32) {
        self.changes = self.changes / 2.0 + if changed { 1.0 } else { 0.0 };
        self.settled = if changed { 0 } else { self.settled + 1 };
        self.fall = match self.scores[0] {
            Some(before) => (before - score).max(0),
            None => 0,
        };
        self.scores = [self.scores[1], Some(score)];
    }

    /// The search has nothing left to choose (one reply): see [`TimeManager::may_deepen`].
    pub fn force(&mut self) {
        self.forced = true;
    }

    /// Factor on the time target (when not forced): from about 0.6 (the same move for many
    /// iterations, the score holding) to 2.5 (the move changing at every iteration, or the
    /// score falling).
    pub fn scale(&self) -> f64 {
        // A change an iteration ago weighs 1, one at every iteration approaches 2.
        let instability = 1.0 + 0.6 * self.changes;
        let settled = if self.settled >= 6 { 0.75 } else { 1.0 };
        let falling = 1.0 + (self.fall.min(300) as f64) / 300.0 * 0.6;
        (instability * settled * falling).min(2.5)
    }
}

/// Deadlines in ms from the request (`None` when unlimited), and which limit binds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Budget {
    soft: Option<u64>,
    hard: Option<u64>,
    /// A turn limit is given and the match clock's fair share is at least as long.
    turn_binds: bool,
}

fn budget(clock: &GameClock) -> Budget {
    let mut hard: Option<u64> = None;
    let mut soft: Option<u64> = None;
    let mut turn_binds = clock.turn_ms.is_some();
    if let Some(turn) = clock.turn_ms.map(|t| t.min(MAX_MOVE_MS)) {
        let h = turn.saturating_sub(margin_with_lag_ms(turn, clock.lag_ms));
        hard = Some(h);
        soft = Some(h * 2 / 5);
    }
    if let Some(left) = clock.left_ms {
        if left < UNLIMITED_MS {
            let left = left.max(0) as u64;
            let usable = left.saturating_sub(margin_with_lag_ms(left, clock.lag_ms));
            let moves = clock.moves_to_go.map_or(25, |m| m.max(1)) as u64;
            // Spend a fair share now, more when an increment refills the clock; never more
            // than a third of what remains in one move.
            let share = usable / moves + clock.increment_ms * 3 / 4;
            let most = MAX_MOVE_MS.saturating_sub(margin_with_lag_ms(MAX_MOVE_MS, clock.lag_ms));
            let h = (share * 5 / 2).min(usable / 3).min(usable).min(most);
            let s = share.min(h);
            turn_binds &= hard.is_some_and(|turn| turn <= s);
            hard = Some(hard.map_or(h, |x| x.min(h)));
            soft = Some(soft.map_or(s, |x| x.min(s)));
        }
    }
    Budget {
        soft,
        hard,
        turn_binds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deadlines(clock: GameClock) -> (Option<u64>, Option<u64>) {
        let b = budget(&clock);
        (b.soft, b.hard)
    }

    #[test]
    fn no_clock_means_no_deadline() {
        assert_eq!(deadlines(GameClock::default()), (None, None));
        let unlimited = GameClock {
            left_ms: Some(UNLIMITED_MS),
            ..GameClock::default()
        };
        assert_eq!(deadlines(unlimited), (None, None));
    }

    #[test]
    fn no_clock_gives_one_move_more_than_the_cap() {
        let turn = |ms: u64| GameClock {
            turn_ms: Some(ms),
            ..GameClock::default()
        };
        let left = |ms: i64| GameClock {
            left_ms: Some(ms),
            ..GameClock::default()
        };
        let capped = deadlines(turn(MAX_MOVE_MS));
        assert!(capped.1.unwrap() < MAX_MOVE_MS);
        // Gomocup's largest turn time, with the match time unlimited or absurdly long.
        assert_eq!(deadlines(turn(2_147_483_647)), capped);
        assert_eq!(deadlines(turn(u64::MAX)), capped);
        let both = GameClock {
            left_ms: Some(UNLIMITED_MS - 1),
            ..turn(2_147_483_647)
        };
        assert_eq!(deadlines(both).1, capped.1);
        // A game clock of years: the move's share is cut to the same hard deadline.
        for ms in [UNLIMITED_MS - 1, 1_000_000_000] {
            let (soft, hard) = deadlines(GameClock {
                moves_to_go: Some(27),
                ..left(ms)
            });
            assert_eq!(hard, capped.1, "{ms}");
            assert!(soft <= hard);
        }
        // Below the cap nothing changes: 10 s a move.
        assert_eq!(
            deadlines(turn(10_000)).1,
            Some(10_000 - safety_margin_ms(10_000))
        );
    }

    #[test]
    fn turn_time_zero_means_answer_now() {
        let stop = AtomicBool::new(false);
        let limit = SearchLimit::move_time(0);
        let tm = TimeManager::new(&limit, Instant::now(), &stop);
        assert!(tm.must_answer_now());
    }

    #[test]
    fn hard_deadline_stays_inside_turn_and_match_time() {
        for turn in [1u64, 10, 50, 100, 1000, 5000, 30000] {
            let (soft, hard) = deadlines(GameClock {
                turn_ms: Some(turn),
                ..GameClock::default()
            });
            let (soft, hard) = (soft.unwrap(), hard.unwrap());
            assert!(
                hard < turn || turn == 0 || (turn <= 15 && hard == 0),
                "turn {turn}"
            );
            assert!(soft <= hard);
        }
        for left in [0i64, -50, 100, 1000, 60_000, 1_000_000] {
            let (soft, hard) = deadlines(GameClock {
                turn_ms: Some(5000),
                left_ms: Some(left),
                ..GameClock::default()
            });
            let hard = hard.unwrap();
            assert!((hard as i64) < left.max(1), "left {left} hard {hard}");
            assert!(soft.unwrap() <= hard);
        }
    }

    #[test]
    fn margins_are_proportionally_bigger_for_short_budgets() {
        assert_eq!(safety_margin_ms(0), 0);
        assert_eq!(safety_margin_ms(ANSWER_NOW_MS), ANSWER_NOW_MS);
        assert_eq!(safety_margin_ms(30), 1 + 10);
        assert_eq!(safety_margin_ms(100), 5 + 20);
        assert_eq!(safety_margin_ms(500), 25 + 20);
        assert_eq!(safety_margin_ms(1000), 50 + 20);
        assert_eq!(safety_margin_ms(5000), 150 + 20);
        assert_eq!(safety_margin_ms(300_000), 150 + 20);
        let mut last_share = 1.0f64;
        for b in [21u64, 50, 100, 200, 500, 1000, 5000, 30_000] {
            let share = safety_margin_ms(b) as f64 / b as f64;
            assert!(share < last_share, "budget {b}: share {share}");
            assert!(safety_margin_ms(b) < b);
            last_share = share;
        }
    }

    #[test]
    fn observed_lag_widens_the_margin_up_to_three_quarters() {
        let at = |turn: u64, lag: u64| {
            deadlines(GameClock {
                turn_ms: Some(turn),
                lag_ms: lag,
                ..GameClock::default()
            })
            .1
            .unwrap()
        };
        assert_eq!(at(100, 0), 75);
        assert_eq!(at(100, 12), 63);
        assert_eq!(at(100, 500), 25, "a quarter is always left");
        assert_eq!(at(1000, 40), 1000 - 70 - 40);
        let left = |ms: i64, lag: u64| {
            deadlines(GameClock {
                left_ms: Some(ms),
                moves_to_go: Some(1),
                lag_ms: lag,
                ..GameClock::default()
            })
            .1
            .unwrap()
        };
        assert!(left(3000, 100) < left(3000, 0));
    }

    #[test]
    fn lateness_jumps_up_and_decays() {
        let ms = Duration::from_millis;
        let mut l = Lateness::default();
        l.observe(Some(ms(70)), ms(60));
        assert_eq!(l.lag_ms(), 0, "on time");
        l.observe(Some(ms(70)), ms(90));
        assert_eq!(l.lag_ms(), 30, "20 ms late: one and a half times that");
        l.observe(Some(ms(70)), ms(50));
        assert_eq!(l.lag_ms(), 26, "an eighth (rounded up) is forgotten");
        l.observe(Some(ms(70)), ms(80));
        assert_eq!(l.lag_ms(), 22, "less late than the margin already covers");
        l.observe(None, ms(10_000));
        assert_eq!(l.lag_ms(), 19, "no deadline, nothing late");
        l.observe(Some(ms(0)), ms(60_000));
        assert_eq!(l.lag_ms(), MAX_LAG_MS);
        for _ in 0..100 {
            l.observe(Some(ms(100)), ms(10));
        }
        assert_eq!(l.lag_ms(), 0, "forgotten entirely once replies are on time");
    }

    #[test]
    fn moves_to_go_spends_more_per_move_when_few_remain() {
        let few = deadlines(GameClock {
            left_ms: Some(10_000),
            moves_to_go: Some(2),
            ..GameClock::default()
        });
        let many = deadlines(GameClock {
            left_ms: Some(10_000),
            moves_to_go: Some(20),
            ..GameClock::default()
        });
        assert!(few.0.unwrap() > many.0.unwrap());
    }

    #[test]
    fn node_and_stop_limits() {
        let stop = AtomicBool::new(false);
        let tm = TimeManager::new(&SearchLimit::nodes(1000), Instant::now(), &stop);
        assert!(!tm.should_stop(999));
        assert!(tm.should_stop(1000));
        stop.store(true, Ordering::Relaxed);
        assert!(tm.should_stop(0));
    }

    #[test]
    fn stability_scales_the_target() {
        let mut s = Stability::default();
        assert_eq!(s.scale(), 1.0);
        for _ in 0..8 {
            s.iteration(false, 100);
        }
        assert!(s.scale() < 0.8, "settled: {}", s.scale());
        let mut shaken = Stability::default();
        for i in 0..8 {
            shaken.iteration(true, 100 + i);
        }
        assert!(shaken.scale() > 2.0, "changing: {}", shaken.scale());
        let mut falling = Stability::default();
        for score in [200, 300, 200, 100] {
            falling.iteration(false, score);
        }
        assert!(falling.scale() > 1.3, "falling: {}", falling.scale());
        // The odd/even swing of the evaluation is not a fall.
        let mut swinging = Stability::default();
        let mut steady = Stability::default();
        for score in [300, -50, 300, -50, 300, -50] {
            swinging.iteration(false, score);
            steady.iteration(false, 300);
        }
        assert_eq!(swinging.scale(), steady.scale());
    }

    #[test]
    fn per_move_searches_spend_more_of_the_turn_and_never_pass_it() {
        let stop = AtomicBool::new(false);
        let ms = Duration::from_millis;
        let at = |elapsed: u64| {
            TimeManager::new(
                &SearchLimit::move_time(500),
                Instant::now() - ms(elapsed),
                &stop,
            )
        };
        // 500 ms a move: hard deadline 455 ms; the target is all of it, three quarters (341 ms)
        // when the choice has long been settled.
        let calm = Stability::default();
        assert!(
            at(300).may_deepen(9, 0, ms(100), &calm),
            "300 ms in, an iteration fits"
        );
        assert!(at(180).may_deepen(9, 0, ms(300), &calm));
        assert!(
            at(400).may_deepen(9, 0, ms(300), &calm),
            "the time would be lost: it is spent"
        );
        let mut settled = Stability::default();
        for _ in 0..8 {
            settled.iteration(false, 0);
        }
        assert!(at(200).may_deepen(9, 0, ms(200), &settled));
        assert!(
            !at(320).may_deepen(9, 0, ms(300), &settled),
            "settled: not even half its first move would be searched"
        );
        assert!(at(320).may_deepen(9, 0, ms(10), &settled));
        assert!(at(350).may_deepen(9, 0, ms(10), &calm));
        assert!(
            !at(350).may_deepen(9, 0, ms(10), &settled),
            "a settled choice stops sooner"
        );
        let mut shaken = Stability::default();
        for i in 0..4 {
            shaken.iteration(true, i);
        }
        assert!(at(400).may_deepen(9, 0, ms(10), &shaken));
        assert!(
            !at(456).may_deepen(9, 0, ms(10), &shaken),
            "never past the hard deadline"
        );
        assert!(!at(455).may_deepen(9, 0, ms(0), &calm));
        // The first iteration always runs; a forced move gets half of the hard deadline.
        let mut forced = Stability::default();
        forced.force();
        assert!(at(0).may_deepen(1, 0, Duration::ZERO, &forced));
        assert!(at(0).may_deepen(2, 0, Duration::ZERO, &forced));
        assert!(at(220).may_deepen(2, 0, Duration::ZERO, &forced));
        assert!(!at(228).may_deepen(2, 0, Duration::ZERO, &forced));
    }

    #[test]
    fn a_match_clock_that_does_not_bind_leaves_the_turn_rules() {
        let stop = AtomicBool::new(false);
        let ms = Duration::from_millis;
        let clock = |left_ms| SearchLimit {
            clock: GameClock {
                turn_ms: Some(500),
                left_ms: Some(left_ms),
                ..GameClock::default()
            },
            ..SearchLimit::default()
        };
        let calm = Stability::default();
        // 100 s left: a fair share is seconds, so the turn's 500 ms bind.
        let tm = TimeManager::new(&clock(100_000), Instant::now() - ms(300), &stop);
        assert!(tm.turn_binds());
        assert!(!tm.time_is_per_move());
        assert!(tm.may_deepen(9, 0, ms(100), &calm));
        // 3 s left: a share is about 113 ms, the match clock binds (its hard deadline, 282
        // ms, is the tighter) and 150 ms is past its target, though not past the turn's.
        let tm = TimeManager::new(&clock(3_000), Instant::now() - ms(150), &stop);
        assert!(!tm.turn_binds());
        assert!(!tm.may_deepen(9, 0, ms(10), &calm));
        assert_eq!(tm.hard_limit(), Some(ms(282)));
    }

    #[test]
    fn a_match_clock_keeps_the_whole_next_iteration_inside() {
        let stop = AtomicBool::new(false);
        let ms = Duration::from_millis;
        let limit = SearchLimit {
            clock: GameClock {
                turn_ms: Some(5_000),
                left_ms: Some(50_000),
                ..GameClock::default()
            },
            ..SearchLimit::default()
        };
        // A fair share of 50 s is under 2 s; the hard deadline is 2.5 shares.
        let tm = TimeManager::new(&limit, Instant::now() - ms(1_000), &stop);
        let calm = Stability::default();
        assert!(tm.may_deepen(9, 0, ms(200), &calm));
        assert!(
            !tm.may_deepen(9, 0, ms(2_000), &calm),
            "the next iteration would not end"
        );
        let tm = TimeManager::new(&limit, Instant::now() - ms(2_500), &stop);
        assert!(!tm.may_deepen(9, 0, ms(10), &calm), "past the share");
        // A forced move saves the match clock: its first iteration only.
        let mut forced = Stability::default();
        forced.force();
        let tm = TimeManager::new(&limit, Instant::now(), &stop);
        assert!(tm.may_deepen(1, 0, Duration::ZERO, &forced));
        assert!(!tm.may_deepen(2, 0, Duration::ZERO, &forced));
    }

    #[test]
    fn depth_limit_stops_iterations() {
        let stop = AtomicBool::new(false);
        let tm = TimeManager::new(&SearchLimit::depth(3), Instant::now(), &stop);
        assert!(tm.may_start_iteration(3, 0, Duration::ZERO));
        assert!(!tm.may_start_iteration(4, 0, Duration::ZERO));
    }
}
