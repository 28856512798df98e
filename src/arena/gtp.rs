//! The controller side of GTP v2, as gomill's ringmaster speaks it: on start `protocol_version`
//! and `name`; per game `boardsize`, `clear_board`, `komi` and `fixed_handicap` (Go, the
//! engine's stones checked against the referee's), the manifest's `gtp_commands`
//! and the clock (`time_settings`); per move the opponent's moves as `play`, `time_left` when a
//! clock runs, then `genmove`. An engine whose `list_commands` names `set_random_seed` (GNU Go,
//! sente) is also sent the game's seed ([`Engine::reseed`]) before each game, so a deterministic
//! engine does not replay the same game from the same opening; one that lacks it keeps the
//! seed it was started with (`{seed}` in its manifest). Commands carry ids; a response may omit the id but must not carry
//! another one. Multi-line responses are read up to the empty line that ends them.
//!
//! A failing `play` of a move the referee accepted is the engine's fault (it lost the thread of
//! the game or disagrees with the rules); failing `time_settings` / `time_left` only get a log
//! line, since many engines ignore clocks.

use std::time::{Duration, Instant};

use log::{debug, warn};

use super::coords::Mv;
use super::engine::{Answer, Engine, Fault, GameSetup};
use super::gomocup::with_stderr;
use super::manifest::{EngineSpec, GameName};
use super::process::{Process, Silence};
use super::tc::MoveBudget;
use crate::rules::notation::{gtp_vertex, parse_gtp_vertex};
use crate::rules::Color;

/// A GTP engine process and what it has been told of the current game.
pub struct GtpEngine {
    spec: EngineSpec,
    seeds: Box<dyn FnMut() -> u64 + Send>,
    process: Option<Process>,
    next_id: u64,
    engine_name: Option<String>,
    told: usize,
    /// The seed of the next game, from [`Engine::reseed`].
    game_seed: Option<u64>,
    /// Whether the running process listed `set_random_seed`.
    seedable: bool,
}

/// The seed sent with `set_random_seed`: its low 31 bits, since GNU Go reads the argument as
/// a C `int` and refuses a negative one.
pub fn gtp_random_seed(seed: u64) -> u64 {
    seed & 0x7fff_ffff
}

/// `b` / `w`.
fn colour(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

impl GtpEngine {
    /// A driver for `spec`; `seeds` gives the `{seed}` of each process start.
    pub fn new(spec: EngineSpec, seeds: Box<dyn FnMut() -> u64 + Send>) -> GtpEngine {
        GtpEngine {
            spec,
            seeds,
            process: None,
            next_id: 1,
            engine_name: None,
            told: 0,
            game_seed: None,
            seedable: false,
        }
    }

    /// What the engine answered to `name`, once started.
    pub fn engine_name(&self) -> Option<&str> {
        self.engine_name.as_deref()
    }

    /// Sends `cmd` and reads its response: `Ok(Ok(text))` for `=`, `Ok(Err(text))` for `?`.
    fn command(&mut self, cmd: &str, deadline: Instant) -> Result<Result<String, String>, Fault> {
        let id = self.next_id;
        self.next_id += 1;
        let p = self
            .process
            .as_mut()
            .ok_or_else(|| Fault::Crashed("not running".into()))?;
        p.send(&format!("{id} {cmd}"))
            .map_err(|_| Fault::Crashed("exited (stdin closed)".into()))?;
        let silence = |p: &Process, s: Silence| match s {
            Silence::Timeout => Fault::Timeout,
            Silence::Closed => {
                Fault::Crashed(with_stderr(p, format!("exited while answering {cmd:?}")))
            }
        };
        let first = loop {
            let line = p.recv(deadline).map_err(|s| silence(p, s))?;
            if !line.trim().is_empty() {
                break line.trim_start().to_string();
            }
        };
        let ok = match first.as_bytes()[0] {
            b'=' => true,
            b'?' => false,
            _ => {
                return Err(Fault::Garbage(format!(
                    "{first:?} where a response to {cmd:?} was due"
                )))
            }
        };
        let rest = &first[1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest[..digits] != id.to_string() {
            return Err(Fault::Garbage(format!(
                "response {first:?} to command id {id}"
            )));
        }
        let mut text = rest[digits..].trim().to_string();
        loop {
            let line = p.recv(deadline).map_err(|s| silence(p, s))?;
            if line.trim().is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(line.trim_end());
        }
        Ok(if ok { Ok(text) } else { Err(text) })
    }

    /// A command that must succeed; a failure is a refusal.
    fn must(&mut self, cmd: &str, deadline: Instant) -> Result<String, Fault> {
        self.command(cmd, deadline)?
            .map_err(|e| Fault::Refused(format!("{cmd}: {e}")))
    }

    /// Whether the engine lists `name` in `list_commands` (an engine that refuses
    /// `list_commands` lists nothing).
    fn lists(&mut self, name: &str, deadline: Instant) -> Result<bool, Fault> {
        Ok(match self.command("list_commands", deadline)? {
            Ok(list) => list.lines().any(|l| l.trim() == name),
            Err(e) => {
                debug!("{}: list_commands refused: {e}", self.spec.name());
                false
            }
        })
    }

    /// A command whose failure is only logged.
    fn advisory(&mut self, cmd: &str, deadline: Instant) -> Result<(), Fault> {
        if let Err(e) = self.command(cmd, deadline)? {
            warn!("{}: {cmd} failed: {e}", self.spec.name());
        }
        Ok(())
    }
}

impl Engine for GtpEngine {
    fn name(&self) -> &str {
        self.spec.name()
    }

    fn tolerance_ms(&self) -> Option<u64> {
        self.spec.manifest.tolerance_ms
    }

    fn reseed(&mut self, seed: u64) {
        self.game_seed = Some(seed);
    }

    fn restart(&mut self) {
        // Dropping the process kills it.
        self.process = None;
        self.told = 0;
    }

    fn shutdown(&mut self) {
        if self.process.is_some() {
            let deadline = Instant::now() + Duration::from_secs(1);
            let _ = self.command("quit", deadline);
            if let Some(p) = self.process.take() {
                p.close(Duration::from_secs(1));
            }
        }
    }

    fn start_game(&mut self, setup: &GameSetup, deadline: Instant) -> Result<(), Fault> {
        if matches!(setup.game, GameName::Gomoku | GameName::Renju) {
            return Err(Fault::Refused("gomoku is not played over GTP".into()));
        }
        if setup.width != setup.height {
            return Err(Fault::Refused("GTP boards are square".into()));
        }
        if self.process.is_none() {
            let cmd = self.spec.command_line((self.seeds)());
            let p = Process::spawn(&cmd, self.spec.name()).map_err(|e| {
                Fault::Crashed(format!("could not start {}: {e}", cmd.program.display()))
            })?;
            self.process = Some(p);
            self.must("protocol_version", deadline)?;
            self.engine_name = Some(self.must("name", deadline)?);
            self.seedable = self.lists("set_random_seed", deadline)?;
        }
        self.must(&format!("boardsize {}", setup.width), deadline)?;
        self.must("clear_board", deadline)?;
        if setup.game == GameName::Go {
            self.must(&format!("komi {}", setup.komi), deadline)?;
        }
        if setup.handicap > 0 {
            let cmd = format!("fixed_handicap {}", setup.handicap);
            let placed = self.must(&cmd, deadline)?;
            let mut want: Vec<String> = (setup.handicap_stones().into_iter())
                .map(|mv| gtp_vertex(mv, setup.height))
                .collect();
            want.sort();
            let mut got: Vec<String> = placed.split_whitespace().map(str::to_uppercase).collect();
            got.sort();
            if got != want {
                return Err(Fault::Refused(format!(
                    "{cmd} placed {placed:?}, not {}",
                    want.join(" ")
                )));
            }
        }
        // Before the manifest's commands, so that a seed set there still wins.
        match self.game_seed {
            Some(seed) if self.seedable => {
                let cmd = format!("set_random_seed {}", gtp_random_seed(seed));
                if let Err(e) = self.command(&cmd, deadline)? {
                    debug!("{}: {cmd} refused: {e}", self.spec.name());
                }
            }
            Some(_) => debug!("{}: no set_random_seed; not reseeded", self.spec.name()),
            None => {}
        }
        for cmd in self.spec.manifest.gtp_commands.clone() {
            self.must(&cmd, deadline)?;
        }
        // `sente match` refuses a time control GTP cannot say before any game starts.
        match setup.tc.gtp_terms() {
            Ok(terms) if !terms.time_settings.is_empty() => {
                self.advisory(&terms.time_settings, deadline)?
            }
            Ok(_) => {}
            Err(e) => warn!("{}: no time_settings: {e}", self.spec.name()),
        }
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
        if self.told > moves.len() {
            return Err(Fault::Refused("the game went backwards".into()));
        }
        for &(c, mv) in &moves[self.told..] {
            let cmd = format!("play {} {}", colour(c), gtp_vertex(mv, setup.height));
            match self.command(&cmd, deadline)? {
                Ok(_) => self.told += 1,
                Err(e) => return Err(Fault::Refused(format!("{cmd}: {e}"))),
            }
        }
        if let Some(left) = budget.left_ms {
            let secs = (left.max(0) / 1000).max(0);
            self.advisory(&format!("time_left {} {secs} 0", colour(color)), deadline)?;
        } else if let Some(m) = budget.move_ms {
            let secs = m / 1000;
            self.advisory(&format!("time_left {} {secs} 1", colour(color)), deadline)?;
        }
        let cmd = format!("genmove {}", colour(color));
        let reply = self.must(&cmd, deadline)?;
        let answer = if reply.eq_ignore_ascii_case("resign") {
            Answer::Resign
        } else {
            let mv = parse_gtp_vertex(&reply, setup.width, setup.height)
                .ok_or_else(|| Fault::Garbage(format!("{reply:?} where a vertex was due")))?;
            Answer::Move(mv)
        };
        self.told = moves.len() + 1;
        Ok(answer)
    }
}

impl Drop for GtpEngine {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::engine::tests::loose_setup;
    use crate::arena::manifest::{parse, EngineSpec};
    use std::path::{Path, PathBuf};

    /// `tests/engines/seed-gtp.sh` in `mode`, logging what it is told to a fresh file.
    fn seed_engine(mode: &str) -> (GtpEngine, PathBuf) {
        // One directory per call: tests run in parallel threads of one process, and two of them
        // start an engine in the same mode, so the pid and mode alone would share a log.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "sente-gtp-seed-{}-{mode}-{call}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("commands.log");
        let _ = std::fs::remove_file(&log);
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/seed-gtp.sh");
        let text = format!(
            "name = \"seed-{mode}\"\ncommand = \"sh\"\nargs = [{:?}, {mode:?}, {:?}]\nprotocol = \"gtp\"\ngames = [\"go\"]\n",
            script.display().to_string(),
            log.display().to_string(),
        );
        let spec = EngineSpec {
            manifest: parse(&text).unwrap(),
            dir,
        };
        (GtpEngine::new(spec, Box::new(|| 1)), log)
    }

    /// Two games, reseeded with `seeds[i]` before game `i` (none for `None`); the log's
    /// `set_random_seed` lines.
    fn seeds_sent(mode: &str, seeds: [Option<u64>; 3]) -> Vec<String> {
        let (mut e, log) = seed_engine(mode);
        let setup = loose_setup(GameName::Go, 9);
        let budget = MoveBudget {
            move_ms: Some(10_000),
            left_ms: None,
            hard_ms: 10_000,
        };
        for seed in seeds {
            if let Some(s) = seed {
                e.reseed(s);
            }
            let deadline = Instant::now() + Duration::from_secs(10);
            e.new_game(&setup, deadline).unwrap();
            let answer = e.genmove(&setup, &[], Color::Black, &budget, Instant::now());
            assert_eq!(answer, Ok(Answer::Resign));
        }
        e.shutdown();
        let text = std::fs::read_to_string(&log).unwrap();
        assert_eq!(text.matches("clear_board").count(), 3, "{text}");
        assert_eq!(
            text.matches("list_commands").count(),
            1,
            "asked once per process"
        );
        text.lines()
            .filter(|l| l.starts_with("set_random_seed"))
            .map(String::from)
            .collect()
    }

    #[test]
    fn an_engine_listing_set_random_seed_gets_each_games_seed() {
        let big = 0xdead_beef_1234_5678u64;
        let sent = seeds_sent("lists", [Some(7), Some(big), None]);
        // The third game was not reseeded: it keeps the last seed given.
        let want =
            [7, gtp_random_seed(big), gtp_random_seed(big)].map(|s| format!("set_random_seed {s}"));
        assert_eq!(sent, want);
        assert!(gtp_random_seed(big) <= i32::MAX as u64);
        assert_eq!(gtp_random_seed(7), 7);
    }

    #[test]
    fn a_handicap_is_told_with_fixed_handicap_and_the_engines_stones_are_checked() {
        let (mut e, log) = seed_engine("lists");
        let deadline = || Instant::now() + Duration::from_secs(10);
        // The script places G7 C3: right for two stones on 9x9 ...
        let two = GameSetup {
            handicap: 2,
            ..loose_setup(GameName::Go, 9)
        };
        assert_eq!(e.new_game(&two, deadline()), Ok(()));
        // ... wrong for three, which the arena refuses rather than play on different boards.
        let three = GameSetup { handicap: 3, ..two };
        match e.new_game(&three, deadline()) {
            Err(Fault::Refused(why)) => assert!(why.contains("C3 C7 G7"), "{why}"),
            other => panic!("{other:?}"),
        }
        // No handicap: not sent.
        assert_eq!(
            e.new_game(&loose_setup(GameName::Go, 9), deadline()),
            Ok(())
        );
        e.shutdown();
        let text = std::fs::read_to_string(&log).unwrap();
        let sent: Vec<&str> = text.lines().filter(|l| l.starts_with("fixed_")).collect();
        assert_eq!(sent, ["fixed_handicap 2", "fixed_handicap 3"], "{text}");
    }

    #[test]
    fn an_engine_without_set_random_seed_is_not_sent_it_and_plays_on() {
        assert!(seeds_sent("silent", [Some(7), Some(8), Some(9)]).is_empty());
        // Never reseeded: nothing is sent even to an engine that has the command.
        assert!(seeds_sent("lists", [None, None, None]).is_empty());
    }
}
