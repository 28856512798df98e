//! Time control of a match (`--tc`) and the clock the referee keeps for each side.
//!
//! Syntax, in seconds (decimals allowed), after c-gomoku-cli's `tc=`:
//!
//! ```text
//! GAME[+INC][/MOVE]      0 means "no limit"
//! 60/5      60 s for the whole game, at most 5 s for any move   (Gomocup timeout_match/turn)
//! 0/0.2     0.2 s per move, no game clock                       (a "movetime")
//! 10+0.1    10 s per game plus 0.1 s added after every move
//! ```
//!
//! Enforcement: a move must arrive within `min(MOVE, time left) + tolerance`; the driver kills
//! the engine at that instant and the game is lost on time. The game clock is charged the whole
//! think time, so overshooting into the tolerance is paid back from the time left and the
//! cumulative overshoot over a game is bounded by one tolerance.

use std::fmt;
use std::str::FromStr;

/// Limits per game and per move; `None` is "unlimited".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Whole-game budget per side, in ms.
    pub game_ms: Option<u64>,
    /// Added to a side's game clock after each of its moves, in ms.
    pub increment_ms: u64,
    /// Most time one move may take, in ms.
    pub move_ms: Option<u64>,
}

fn seconds_to_ms(s: &str) -> Result<u64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("bad number of seconds {s:?}"))?;
    if !v.is_finite() || !(0.0..=1e9).contains(&v) {
        return Err(format!("bad number of seconds {s:?}"));
    }
    Ok((v * 1000.0).round() as u64)
}

impl FromStr for TimeControl {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (game_part, move_part) = match s.split_once('/') {
            Some((g, m)) => (g, Some(m)),
            None => (s, None),
        };
        let (game, inc) = match game_part.split_once('+') {
            Some((g, i)) => (g, Some(i)),
            None => (game_part, None),
        };
        let nonzero = |ms: u64| (ms > 0).then_some(ms);
        let tc = TimeControl {
            game_ms: nonzero(seconds_to_ms(game)?),
            increment_ms: inc.map(seconds_to_ms).transpose()?.unwrap_or(0),
            move_ms: move_part.map(seconds_to_ms).transpose()?.and_then(nonzero),
        };
        if tc.game_ms.is_none() && tc.move_ms.is_none() {
            return Err(format!(
                "time control {s:?} sets no limit (try 0/0.5 for 0.5 s per move, 60/5 for 60 s per game and 5 s per move)"
            ));
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |ms: u64| {
            let s = format!("{:.3}", ms as f64 / 1000.0);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        let mut parts = Vec::new();
        if let Some(g) = self.game_ms {
            let inc = if self.increment_ms > 0 {
                format!(" + {} s/move", secs(self.increment_ms))
            } else {
                String::new()
            };
            parts.push(format!("{} s/game{inc}", secs(g)));
        }
        if let Some(m) = self.move_ms {
            parts.push(format!("{} s/move max", secs(m)));
        }
        write!(f, "{}", parts.join(", "))
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    /// Time left on the game clock in ms (may be negative after an overshoot); `None` when
    /// there is no game clock.
    pub left_ms: Option<i64>,
}

/// What one move may take, as handed to the engine drivers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBudget {
    /// Per-move limit told to the engine (ms), if any.
    pub move_ms: Option<u64>,
    /// Game time left told to the engine (ms), if any.
    pub left_ms: Option<i64>,
    /// When the answer must have arrived, measured from the request: budget plus tolerance.
    pub hard_ms: u64,
}

impl SideClock {
    /// A fresh clock for `tc`.
    pub fn new(tc: &TimeControl) -> SideClock {
        SideClock {
            left_ms: tc.game_ms.map(|g| g as i64),
        }
    }
    /// The budget of the next move under `tc`, with `tolerance_ms` of grace.
    pub fn budget(&self, tc: &TimeControl, tolerance_ms: u64) -> MoveBudget {
        let mut soft = i64::MAX;
        if let Some(m) = tc.move_ms {
            soft = soft.min(m as i64);
        }
        if let Some(l) = self.left_ms {
            soft = soft.min(l);
        }
        MoveBudget {
            move_ms: tc.move_ms,
            left_ms: self.left_ms,
            hard_ms: (soft.saturating_add(tolerance_ms as i64)).max(0) as u64,
        }
    }
    /// Charges a move that took `ms`, then adds the increment.
    pub fn charge(&mut self, tc: &TimeControl, ms: u64) {
        if let Some(l) = self.left_ms.as_mut() {
            *l = *l - ms as i64 + tc.increment_ms as i64;
        }
    }
}

/// How a time control is put to a GTP engine: GTP counts whole seconds and has no per-move cap
/// beside a game clock, and no increment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GtpTerms {
    /// The `time_settings` command sent before each game.
    pub time_settings: String,
    /// What the engine is not told (the runner still enforces it), in words.
    pub untold: Vec<String>,
}

impl TimeControl {
    /// What a GTP engine is told of this time control, or why it cannot be told: a game or
    /// per-move time that is not a whole number of seconds (rounding up would let the engine
    /// think past the limit it is held to, rounding down to 0 would mean "no limit").
    pub fn gtp_terms(&self) -> Result<GtpTerms, String> {
        let whole = |ms: u64, what: &str| {
            if ms.is_multiple_of(1000) {
                Ok(ms / 1000)
            } else {
                Err(format!(
                    "GTP engines are told their time in whole seconds, so {what} {} s cannot be \
                     told to them; use whole seconds",
                    ms as f64 / 1000.0
                ))
            }
        };
        let secs = |ms: u64| format!("{}", ms as f64 / 1000.0);
        let mut untold = Vec::new();
        let time_settings = match (self.game_ms, self.move_ms) {
            (Some(g), m) => {
                if let Some(m) = m {
                    untold.push(format!(
                        "the {} s per-move limit (GTP has none beside a game clock)",
                        secs(m)
                    ));
                }
                format!("time_settings {} 0 0", whole(g, "a game time of")?)
            }
            (None, Some(m)) => format!("time_settings 0 {} 1", whole(m, "a move time of")?),
            (None, None) => {
                return Ok(GtpTerms {
                    time_settings: String::new(),
                    untold,
                })
            }
        };
        if self.increment_ms > 0 && self.game_ms.is_some() {
            untold.push(format!(
                "the {} s increment (GTP has none; each time_left includes it, in whole seconds)",
                secs(self.increment_ms)
            ));
        }
        Ok(GtpTerms {
            time_settings,
            untold,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_forms() {
        let tc: TimeControl = "60/5".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                game_ms: Some(60_000),
                increment_ms: 0,
                move_ms: Some(5_000)
            }
        );
        let tc: TimeControl = "0/0.2".parse().unwrap();
        assert_eq!((tc.game_ms, tc.move_ms), (None, Some(200)));
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(
            (tc.game_ms, tc.increment_ms, tc.move_ms),
            (Some(10_000), 100, None)
        );
        assert_eq!(tc.to_string(), "10 s/game + 0.1 s/move");
        assert_eq!(
            "5/0.1".parse::<TimeControl>().unwrap().to_string(),
            "5 s/game, 0.1 s/move max"
        );
        for bad in ["", "0", "0/0", "x/1", "1/-2", "1+/2", "nan/1"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn budgets_take_the_tighter_limit_and_overshoot_is_repaid() {
        let tc: TimeControl = "1/0.5".parse().unwrap();
        let mut c = SideClock::new(&tc);
        assert_eq!(c.budget(&tc, 100).hard_ms, 600);
        c.charge(&tc, 550);
        assert_eq!(c.left_ms, Some(450));
        assert_eq!(c.budget(&tc, 100).hard_ms, 550);
        c.charge(&tc, 540);
        assert_eq!(c.left_ms, Some(-90));
        assert_eq!(c.budget(&tc, 100).hard_ms, 10);
        c.charge(&tc, 200);
        assert_eq!(c.budget(&tc, 100).hard_ms, 0);
        let inc: TimeControl = "1+0.25".parse().unwrap();
        let mut c = SideClock::new(&inc);
        c.charge(&inc, 1000);
        assert_eq!(c.left_ms, Some(250));
    }

    #[test]
    fn gtp_engines_are_told_whole_seconds_or_nothing() {
        let terms = |tc: &str| tc.parse::<TimeControl>().unwrap().gtp_terms();
        assert_eq!(terms("0/2").unwrap().time_settings, "time_settings 0 2 1");
        assert!(terms("0/2").unwrap().untold.is_empty());
        assert_eq!(terms("60").unwrap().time_settings, "time_settings 60 0 0");
        let t = terms("60/5").unwrap();
        assert_eq!(t.time_settings, "time_settings 60 0 0");
        assert_eq!(t.untold.len(), 1, "{t:?}");
        assert!(t.untold[0].contains("5 s per-move"), "{t:?}");
        let t = terms("10+0.5").unwrap();
        assert!(t.untold[0].contains("0.5 s increment"), "{t:?}");
        // Less than a second, or a fraction past one, cannot be said in GTP's whole seconds.
        for tc in ["0/0.3", "0/1.5", "0.5", "90.5/5"] {
            let e = terms(tc).unwrap_err();
            assert!(e.contains("whole seconds"), "{tc}: {e}");
        }
    }
}
