//! The manager side of the Gomocup protocol, as c-gomoku-cli speaks it: `ABOUT` once after the
//! start, then per game `START n` (or `RECTSTART w,h`) answered by `OK`, the `INFO` lines
//! (rule, timeout_turn, timeout_match, max_memory, game_type, the manifest's own keys), and per
//! move `INFO time_left` followed by `BEGIN`, `TURN x,y` (the engine knows everything but the
//! opponent's last move) or `BOARD` ... `DONE` (its first move after an opening; the side to
//! move is `1`). `MESSAGE`, `DEBUG` and `SUGGEST` lines are skipped while waiting; `ERROR` and
//! `UNKNOWN` are refusals; anything else where a move is due is garbage. `END` on shutdown.

use std::time::{Duration, Instant};

use super::coords::{parse_gomocup, Mv};
use super::engine::{Answer, Engine, Fault, GameSetup};
use super::manifest::{EngineSpec, GameName};
use super::process::{Process, Silence};
use super::tc::MoveBudget;
use crate::rules::{Color, Rule};
use crate::search::clock::UNLIMITED_MS;

/// Gomocup's memory limit (350 MB, c-gomoku-cli's default), sent as `INFO max_memory`.
pub const MAX_MEMORY: u64 = 367_001_600;

/// A Gomocup engine process and what it has been told of the current game.
pub struct GomocupEngine {
    spec: EngineSpec,
    seeds: Box<dyn FnMut() -> u64 + Send>,
    process: Option<Process>,
    about: Option<String>,
    /// Moves of the current game the engine knows (its own answers included).
    told: usize,
    /// When the engine's last move arrived (for the manifest's `settle_ms`).
    moved_at: Option<Instant>,
}

/// The first line that is not chatter (MESSAGE, DEBUG, SUGGEST, empty).
fn next_reply(p: &mut Process, deadline: Instant) -> Result<String, Silence> {
    loop {
        let line = p.recv(deadline)?;
        let t = line.trim();
        let word = t
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        if t.is_empty() || matches!(word.as_str(), "MESSAGE" | "DEBUG" | "SUGGEST") {
            continue;
        }
        return Ok(t.to_string());
    }
}

/// The fault for a silence of `p` while it was `what`; a crash quotes its last stderr lines.
fn silence_fault(p: &Process, s: Silence, what: &str) -> Fault {
    match s {
        Silence::Timeout => Fault::Timeout,
        Silence::Closed => Fault::Crashed(with_stderr(p, format!("exited while {what}"))),
    }
}

/// `msg`, followed by the engine's last stderr lines if it wrote any.
pub fn with_stderr(p: &Process, msg: String) -> String {
    match p.stderr_tail() {
        t if t.is_empty() => msg,
        t => format!("{msg}; stderr: {t}"),
    }
}

impl GomocupEngine {
    /// A driver for `spec`; `seeds` gives the `{seed}` of each process start.
    pub fn new(spec: EngineSpec, seeds: Box<dyn FnMut() -> u64 + Send>) -> GomocupEngine {
        GomocupEngine {
            spec,
            seeds,
            process: None,
            about: None,
            told: 0,
            moved_at: None,
        }
    }

    /// The engine's `ABOUT` line, once it has been started.
    pub fn about(&self) -> Option<&str> {
        self.about.as_deref()
    }

    fn process(&mut self, deadline: Instant) -> Result<&mut Process, Fault> {
        if self.process.is_none() {
            let cmd = self.spec.command_line((self.seeds)());
            let mut p = Process::spawn(&cmd, self.spec.name()).map_err(|e| {
                Fault::Crashed(format!("could not start {}: {e}", cmd.program.display()))
            })?;
            p.send("ABOUT")
                .map_err(|e| Fault::Crashed(format!("exited at start: {e}")))?;
            let about = next_reply(&mut p, deadline)
                .map_err(|s| silence_fault(&p, s, "answering ABOUT"))?;
            self.about = Some(about);
            self.process = Some(p);
        }
        Ok(self.process.as_mut().expect("just started"))
    }

    /// Waits out the manifest's `settle_ms` after the engine's last move.
    fn settle(&self) {
        if let (Some(at), Some(settle)) = (self.moved_at, self.spec.manifest.settle_ms) {
            let quiet_from = at + Duration::from_millis(settle);
            let now = Instant::now();
            if quiet_from > now {
                std::thread::sleep(quiet_from - now);
            }
        }
    }

    /// Sends lines; a write error means the engine is gone.
    fn send_all(&mut self, lines: &[String]) -> Result<(), Fault> {
        self.settle();
        let p = self.process.as_mut().expect("started");
        for l in lines {
            p.send(l)
                .map_err(|_| Fault::Crashed("exited (stdin closed)".into()))?;
        }
        Ok(())
    }
}

impl Engine for GomocupEngine {
    fn name(&self) -> &str {
        self.spec.name()
    }

    fn tolerance_ms(&self) -> Option<u64> {
        self.spec.manifest.tolerance_ms
    }

    fn restart(&mut self) {
        // Dropping the process kills it.
        self.process = None;
        self.told = 0;
        self.moved_at = None;
    }

    fn shutdown(&mut self) {
        if let Some(mut p) = self.process.take() {
            let _ = p.send("END");
            p.close(Duration::from_secs(1));
        }
    }

    fn start_game(&mut self, setup: &GameSetup, deadline: Instant) -> Result<(), Fault> {
        if setup.game == GameName::Go {
            return Err(Fault::Refused("Go is not played over Gomocup".into()));
        }
        self.settle();
        let p = self.process(deadline)?;
        let start = if setup.width == setup.height {
            format!("START {}", setup.width)
        } else {
            format!("RECTSTART {},{}", setup.width, setup.height)
        };
        p.send(&start)
            .map_err(|_| Fault::Crashed("exited (stdin closed)".into()))?;
        let reply = next_reply(p, deadline).map_err(|s| silence_fault(p, s, "answering START"))?;
        let word = reply
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        match word.as_str() {
            "OK" if reply.eq_ignore_ascii_case("ok") => {}
            "ERROR" | "UNKNOWN" => {
                // Gomocup replies are not framed: after a refusal, stray lines could be read
                // as the answers of the next game, so the next game starts a fresh process.
                self.restart();
                return Err(Fault::Refused(format!("{start}: {reply}")));
            }
            _ => return Err(Fault::Garbage(format!("{start}: {reply:?}"))),
        }
        let tc = &setup.tc;
        let mut info = vec![format!("INFO rule {}", setup.rule.gomocup_mask())];
        if Rule::ALL.iter().all(|&r| r != setup.rule) {
            // A rule with no Gomocup number is named; an engine that does not know the key
            // plays freestyle and is forfeited by the referee if it breaks the rule.
            info.push(format!("INFO rule_name {}", setup.rule.name()));
        }
        if let Some(m) = tc.move_ms {
            info.push(format!("INFO timeout_turn {m}"));
        }
        info.push(format!("INFO timeout_match {}", tc.game_ms.unwrap_or(0)));
        info.push(format!("INFO max_memory {MAX_MEMORY}"));
        info.push("INFO game_type 1".to_string());
        if tc.increment_ms > 0 {
            info.push(format!("INFO time_increment {}", tc.increment_ms));
        }
        for (k, v) in self.spec.info_lines() {
            info.push(format!("INFO {k} {v}"));
        }
        self.send_all(&info)?;
        self.told = 0;
        Ok(())
    }

    fn ask(
        &mut self,
        setup: &GameSetup,
        moves: &[(Color, Mv)],
        color: Color,
        budget: &MoveBudget,
        start: Instant,
    ) -> Result<Answer, Fault> {
        let deadline = start + Duration::from_millis(budget.hard_ms);
        if self.process.is_none() {
            return Err(Fault::Crashed("not running".into()));
        }
        let left = budget.left_ms.unwrap_or(UNLIMITED_MS);
        let mut lines = vec![format!("INFO time_left {left}")];
        let point = |mv: Mv| match mv {
            Mv::At(x, y) => Ok((x, y)),
            Mv::Pass => Err(Fault::Refused("Gomocup has no pass".into())),
        };
        if moves.is_empty() {
            lines.push("BEGIN".into());
        } else if self.told > 0 && self.told + 1 == moves.len() {
            let (x, y) = point(moves[moves.len() - 1].1)?;
            lines.push(format!("TURN {x},{y}"));
        } else {
            lines.push("BOARD".into());
            for &(c, mv) in moves {
                let (x, y) = point(mv)?;
                lines.push(format!("{x},{y},{}", if c == color { 1 } else { 2 }));
            }
            lines.push("DONE".into());
        }
        self.send_all(&lines)?;
        let p = self.process.as_mut().expect("started");
        let reply = next_reply(p, deadline).map_err(|s| silence_fault(p, s, "thinking"))?;
        let word = reply
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        if word == "ERROR" || word == "UNKNOWN" {
            self.restart();
            return Err(Fault::Refused(reply));
        }
        self.moved_at = Some(Instant::now());
        let (x, y) = parse_gomocup(&reply, setup.width, setup.height)
            .ok_or_else(|| Fault::Garbage(format!("{reply:?} where a move x,y was due")))?;
        self.told = moves.len() + 1;
        Ok(Answer::Move(Mv::At(x, y)))
    }
}

impl Drop for GomocupEngine {
    fn drop(&mut self) {
        self.shutdown();
    }
}
