//! Go clocks as a GTP controller reports them (`time_settings`, `kgs-time_settings`,
//! `time_left`), turned into the search's [`GameClock`] for the next move.
//!
//! Each colour's clock is kept here: set by the time system, corrected by every `time_left`
//! (the controller's word wins), and run down by our own thinking time when the controller does
//! not send `time_left`. What a move may spend:
//!
//! | phase | GameClock |
//! |---|---|
//! | no limit | `None` (the session's default per-move time applies) |
//! | absolute | `left_ms` = main time left, `moves_to_go` = a share of the empty points (or, with `--time-middle`, [`phase_moves_to_go`]) |
//! | main time, then overtime | `left_ms` = main left + one move's worth of overtime |
//! | Canadian overtime | `left_ms` = period left, `moves_to_go` = stones left (one stone: `turn_ms`) |
//! | Japanese byo-yomi | `turn_ms` = the period: a move never spends a second period |
//!
//! The [`crate::search::clock::TimeManager`] then keeps its safety margin inside that, so a
//! move is never late.
//!
//! Absurd clocks: every time GTP sends (`time_settings`, `kgs-time_settings`, `time_left`:
//! seconds, stones, periods) must fit GTP's `int`, at most 2147483647; a larger value is refused
//! by the parser (`? syntax error: 2147483648 is past GTP's int range (at most 2147483647)`)
//! and the clock stays as it was. Of the longest clock accepted (68 years), one move spends at
//! most [`crate::search::clock::MAX_MOVE_MS`] (5 minutes), however large its share.

use std::time::Duration;

use crate::rules::Color;
use crate::search::clock::{GameClock, UNLIMITED_MS};
use crate::session::gtp_game::TimeSystem;

/// Our moves left in a game with `empty` empty points: about a third of them, at least 8.
pub fn moves_to_go(empty: usize) -> u32 {
    (empty / 3).max(8) as u32
}

/// How much thinking a move deserves, relative to the others, when `filled` (0 to 1) of the
/// board's points hold stones: little in the opening (standard moves; the first 10% of the
/// points), most in the middle game (20-45%, where the fights decide games), less again in
/// the endgame (past 60%, small moves the playouts count well). Piecewise linear between
/// these knots.
const PHASE_KNOTS: [(f64, f64); 6] = [
    (0.0, 0.6),
    (0.10, 0.6),
    (0.20, 1.5),
    (0.45, 1.5),
    (0.60, 0.6),
    (1.0, 0.5),
];

/// [`PHASE_KNOTS`]' weight at `filled`.
fn phase_weight(filled: f64) -> f64 {
    let x = filled.clamp(0.0, 1.0);
    for w in PHASE_KNOTS.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if x <= x1 {
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
        }
    }
    PHASE_KNOTS[PHASE_KNOTS.len() - 1].1
}

/// `--time-middle`'s count of moves to share main time over: [`moves_to_go`]'s moves of ours
/// (each taking about three empty points, ours and the answer's and a capture's, as that count
/// assumes), each weighted by [`phase_weight`] at the fill it will likely be played at, over
/// this move's weight. The clock's even share `left / moves_to_go` then gives this move its
/// weight's part of the time left, so the middle game gets more than an even share and the
/// opening and the endgame less (Huang, Coulom and Lin 2010 found that shape stronger for
/// MCTS Go than an even share).
pub fn phase_moves_to_go(empty: usize, points: usize) -> u32 {
    let points = points.max(1) as f64;
    let n = moves_to_go(empty);
    let filled = 1.0 - empty as f64 / points;
    let step = 3.0 / points;
    let ahead: f64 = (0..n)
        .map(|j| phase_weight(filled + f64::from(j) * step))
        .sum();
    (ahead / phase_weight(filled)).round().max(1.0) as u32
}

/// One colour's clock, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Side {
    main_ms: i64,
    /// Time left in the current overtime period.
    period_ms: i64,
    /// Canadian: stones left to play in the period. Byo-yomi: periods left.
    count: u64,
    overtime: bool,
}

/// Both colours' clocks under one time system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoClock {
    system: TimeSystem,
    sides: [Side; 2],
}

impl Default for GoClock {
    fn default() -> Self {
        GoClock::new(TimeSystem::None)
    }
}

/// Time left on a GTP clock as the search takes it: never negative, and always below
/// [`UNLIMITED_MS`], which means "no limit" to the search (Gomocup's convention) while GTP has
/// no such value: 30 days left is still a clock to share out (a move then gets the search's
/// cap), not an endless move.
fn game_time(ms: i64) -> i64 {
    ms.clamp(0, UNLIMITED_MS - 1)
}

fn ms(seconds: u64) -> i64 {
    i64::try_from(seconds.saturating_mul(1000)).unwrap_or(i64::MAX)
}

impl GoClock {
    /// Fresh clocks for `system`.
    pub fn new(system: TimeSystem) -> GoClock {
        let side = match system {
            TimeSystem::None => Side::default(),
            TimeSystem::Absolute { main } => Side {
                main_ms: ms(main),
                ..Side::default()
            },
            TimeSystem::Canadian {
                main,
                period,
                stones: count,
            }
            | TimeSystem::Byoyomi {
                main,
                period,
                periods: count,
            } => Side {
                main_ms: ms(main),
                period_ms: ms(period),
                count,
                overtime: main == 0,
            },
        };
        GoClock {
            system,
            sides: [side; 2],
        }
    }

    /// The time system in force.
    pub fn system(&self) -> TimeSystem {
        self.system
    }

    /// `time_left color seconds stones`: `stones = 0` while main time runs, otherwise the
    /// overtime period's time and stones (Canadian) or periods (byo-yomi) left.
    pub fn time_left(&mut self, color: Color, seconds: f64, stones: u64) {
        let left = (seconds.max(0.0) * 1000.0).min(i64::MAX as f64) as i64;
        if self.system == TimeSystem::None {
            // A controller that reports time without settings: take it as given.
            self.system = if stones == 0 {
                TimeSystem::Absolute { main: 0 }
            } else {
                TimeSystem::Canadian {
                    main: 0,
                    period: seconds.max(0.0) as u64,
                    stones,
                }
            };
        }
        let side = &mut self.sides[color.index()];
        if stones == 0 {
            side.main_ms = left;
            side.overtime = false;
        } else {
            side.main_ms = 0;
            side.period_ms = left;
            side.count = stones;
            side.overtime = true;
        }
    }

    /// Runs `color`'s clock down by a move that took `used` (our own bookkeeping between two
    /// `time_left` reports).
    pub fn used(&mut self, color: Color, used: Duration) {
        let mut spent = used.as_millis().min(i64::MAX as u128) as i64;
        let system = self.system;
        let side = &mut self.sides[color.index()];
        if !side.overtime {
            let from_main = spent.min(side.main_ms);
            side.main_ms -= from_main;
            spent -= from_main;
            if side.main_ms > 0 || matches!(system, TimeSystem::None | TimeSystem::Absolute { .. })
            {
                return;
            }
            side.overtime = true;
        }
        match system {
            TimeSystem::Canadian { period, stones, .. } => {
                side.period_ms -= spent;
                side.count = side.count.saturating_sub(1);
                if side.count == 0 {
                    side.period_ms = ms(period);
                    side.count = stones;
                }
            }
            TimeSystem::Byoyomi { period, .. } => {
                // A period survives a move made within it and starts afresh.
                if spent > side.period_ms {
                    side.count = side.count.saturating_sub(1);
                }
                side.period_ms = ms(period);
            }
            TimeSystem::None | TimeSystem::Absolute { .. } => {}
        }
    }

    /// The clock for `color`'s next move when main time is to be shared over `moves_to_go`
    /// moves ([`moves_to_go`] or [`phase_moves_to_go`]); `None` when there is no limit.
    pub fn game_clock(&self, color: Color, moves_to_go: u32) -> Option<GameClock> {
        let side = self.sides[color.index()];
        let left = |ms: i64| GameClock {
            left_ms: Some(game_time(ms)),
            moves_to_go: Some(moves_to_go),
            ..GameClock::default()
        };
        let turn = |ms: i64| GameClock {
            turn_ms: Some(ms.max(0) as u64),
            ..GameClock::default()
        };
        Some(match self.system {
            TimeSystem::None => return None,
            TimeSystem::Absolute { .. } => left(side.main_ms),
            TimeSystem::Canadian { period, stones, .. } if !side.overtime => {
                let stones = i64::try_from(stones.max(1)).unwrap_or(i64::MAX);
                left(side.main_ms.saturating_add(ms(period) / stones))
            }
            TimeSystem::Byoyomi { period, .. } if !side.overtime => {
                // Main time may run into the first period without losing it.
                left(side.main_ms.saturating_add(ms(period)))
            }
            TimeSystem::Canadian { .. } if side.count <= 1 => turn(side.period_ms),
            TimeSystem::Canadian { .. } => GameClock {
                left_ms: Some(game_time(side.period_ms)),
                moves_to_go: Some(side.count.min(u64::from(u32::MAX)) as u32),
                ..GameClock::default()
            },
            TimeSystem::Byoyomi { .. } => turn(side.period_ms),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::clock::{SearchLimit, TimeManager};
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;

    /// The hard deadline the search would get, in ms.
    fn hard(clock: &GoClock, color: Color, empty: usize) -> Option<u128> {
        let stop = AtomicBool::new(false);
        let limit = SearchLimit {
            clock: clock.game_clock(color, moves_to_go(empty))?,
            ..SearchLimit::default()
        };
        let tm = TimeManager::new(&limit, Instant::now(), &stop);
        tm.hard_limit().map(|d| d.as_millis())
    }

    #[test]
    fn no_settings_no_limit() {
        let c = GoClock::default();
        assert_eq!(c.game_clock(Color::Black, moves_to_go(81)), None);
        let c = GoClock::new(TimeSystem::None);
        assert_eq!(hard(&c, Color::White, 81), None);
    }

    #[test]
    fn absolute_spends_a_share_and_stays_inside() {
        let mut c = GoClock::new(TimeSystem::Absolute { main: 60 });
        let h = hard(&c, Color::Black, 81).unwrap();
        assert!(h > 1000 && h < 20_000, "{h}");
        c.time_left(Color::Black, 0.5, 0);
        assert!(hard(&c, Color::Black, 20).unwrap() < 500);
        assert!(
            hard(&c, Color::White, 20).unwrap() > 1000,
            "white's clock untouched"
        );
    }

    #[test]
    fn canadian_overtime_uses_the_stones_left() {
        let mut c = GoClock::new(TimeSystem::Canadian {
            main: 0,
            period: 30,
            stones: 5,
        });
        let five = hard(&c, Color::Black, 81).unwrap();
        assert!(five < 30_000 / 3 + 1, "{five}");
        c.time_left(Color::Black, 4.0, 1);
        let one = hard(&c, Color::Black, 81).unwrap();
        assert!(
            (3000..4000).contains(&one),
            "one stone gets nearly the whole period: {one}"
        );
    }

    #[test]
    fn byoyomi_never_spends_more_than_a_period() {
        let mut c = GoClock::new(TimeSystem::Byoyomi {
            main: 0,
            period: 1,
            periods: 3,
        });
        let h = hard(&c, Color::White, 81).unwrap();
        assert!(h > 500 && h < 1000, "{h}");
        c.used(Color::White, Duration::from_millis(800));
        assert_eq!(c.sides[1].count, 3, "a move inside the period keeps it");
        c.used(Color::White, Duration::from_millis(1500));
        assert_eq!(c.sides[1].count, 2);
    }

    #[test]
    fn main_time_runs_down_into_overtime() {
        let mut c = GoClock::new(TimeSystem::Canadian {
            main: 2,
            period: 10,
            stones: 2,
        });
        c.used(Color::Black, Duration::from_millis(1500));
        assert!(!c.sides[0].overtime);
        c.used(Color::Black, Duration::from_millis(1000));
        assert!(c.sides[0].overtime);
        assert_eq!(c.sides[0].count, 1);
        assert_eq!(c.sides[0].period_ms, 9500);
        c.used(Color::Black, Duration::from_millis(1000));
        assert_eq!((c.sides[0].count, c.sides[0].period_ms), (2, 10_000));
    }

    #[test]
    fn huge_clocks_are_long_but_finite() {
        // 30 days of main time: past the search's "unlimited" value, still a deadline.
        let c = GoClock::new(TimeSystem::Absolute { main: 30 * 86_400 });
        let h = hard(&c, Color::Black, 81).unwrap();
        let cap = u128::from(crate::search::clock::MAX_MOVE_MS);
        assert!(h > cap * 9 / 10 && h < cap, "{h}");
        // The longest clock GTP can send (68 years): the same cap.
        let c = GoClock::new(TimeSystem::Absolute {
            main: 2_147_483_647,
        });
        assert_eq!(hard(&c, Color::Black, 81), Some(h));
        // The largest values the protocol can carry neither overflow nor end the move at once.
        let max = u64::MAX;
        for system in [
            TimeSystem::Canadian {
                main: max,
                period: max,
                stones: max,
            },
            TimeSystem::Byoyomi {
                main: max,
                period: max,
                periods: max,
            },
            TimeSystem::Canadian {
                main: 10,
                period: 30,
                stones: max,
            },
        ] {
            let c = GoClock::new(system);
            let h = hard(&c, Color::White, 81).unwrap_or_else(|| panic!("{system:?}"));
            assert!(h >= 100, "{system:?}: {h}");
        }
        let mut c = GoClock::new(TimeSystem::Absolute { main: 10 });
        c.time_left(Color::Black, 1e300, 0);
        assert!(hard(&c, Color::Black, 81).is_some());
    }

    /// Plays a whole game's main time out under `--time-middle`'s share: every move spends
    /// its share (two fifths of its hard deadline, the soft deadline where the search stops
    /// once its choice is clear), the board fills by three points a move of ours. Returns
    /// each move's spending in ms.
    fn shaped_game(size: usize, main_s: u64) -> Vec<u64> {
        let points = size * size;
        let mut c = GoClock::new(TimeSystem::Absolute { main: main_s });
        let mut spent = Vec::new();
        let mut empty = points;
        while empty > points / 5 {
            let clock = c
                .game_clock(Color::Black, phase_moves_to_go(empty, points))
                .unwrap();
            let stop = AtomicBool::new(false);
            let limit = SearchLimit {
                clock,
                ..SearchLimit::default()
            };
            let tm = TimeManager::new(&limit, Instant::now(), &stop);
            let soft = tm.hard_limit().unwrap().as_millis() as u64 * 2 / 5;
            c.used(Color::Black, Duration::from_millis(soft));
            spent.push(soft);
            empty -= 3;
        }
        spent
    }

    #[test]
    fn phase_weights_peak_in_the_middle_game() {
        assert_eq!(phase_weight(0.0), 0.6);
        assert_eq!(phase_weight(0.3), 1.5);
        assert!((phase_weight(0.15) - 1.05).abs() < 1e-9);
        assert!(phase_weight(0.8) < phase_weight(0.05));
        assert_eq!(phase_weight(2.0), 0.5);
        // On an empty board the opening move is shared over more moves than the even count,
        // a middle-game move over fewer, an endgame move over about as many.
        assert!(phase_moves_to_go(361, 361) > moves_to_go(361) * 3 / 2);
        assert!(phase_moves_to_go(250, 361) < moves_to_go(250) * 3 / 4);
        let end = phase_moves_to_go(100, 361);
        assert!(
            end.abs_diff(moves_to_go(100)) <= moves_to_go(100) / 5,
            "{end}"
        );
        assert_eq!(phase_moves_to_go(0, 361), 8);
        assert!(phase_moves_to_go(0, 0) >= 1);
    }

    #[test]
    fn main_time_is_spent_mostly_in_the_middle_game() {
        for (size, main) in [(9usize, 60u64), (13, 300), (19, 900)] {
            let spent = shaped_game(size, main);
            let n = spent.len();
            let (open, mid, end) = (&spent[..n / 8], &spent[n / 4..n / 2], &spent[n * 3 / 4..]);
            let mean = |s: &[u64]| s.iter().sum::<u64>() as f64 / s.len() as f64;
            assert!(
                mean(mid) > 1.5 * mean(open) && mean(mid) > 1.5 * mean(end),
                "{size}x{size}: {spent:?}"
            );
            // The whole clock is never spent before the game is over.
            assert!(spent.iter().sum::<u64>() < main * 1000, "{spent:?}");
            assert!(spent.iter().all(|&ms| ms > 0), "{spent:?}");
        }
    }

    #[test]
    fn time_left_without_settings_is_taken_as_given() {
        let mut c = GoClock::default();
        c.time_left(Color::Black, 10.0, 0);
        assert!(hard(&c, Color::Black, 81).unwrap() < 10_000 / 3);
    }
}
