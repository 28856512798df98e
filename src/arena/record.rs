//! `result.json`: the machine-readable result of a match or of one part of it. It holds the
//! settings of the whole schedule (everything that decides what a game is: game, board, rule,
//! time control, seed, openings, engines, SPRT bounds), which part was played, and every game
//! with its moves, result and reason, so that parts can be merged into the one report a whole
//! run would give and a distributed driver can read results without parsing text.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::coords::Mv;
use super::engine::GameSetup;
use super::manifest::GameName;
use super::referee::{EndReason, GameResult, Played};
use super::shard::Shard;
use super::stats::Sprt;
use super::tc::TimeControl;
use super::tournament::{GameRecord, Schedule, TournamentConfig, TournamentReport};
use crate::rules::{Color, Outcome, Rule};

/// Names this file format; a reader refuses any other.
pub const FORMAT: &str = "sente-match-result/1";

/// A match's or a part's results.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ResultFile {
    /// [`FORMAT`].
    pub format: String,
    /// What the whole schedule is; parts merge only when these agree.
    pub settings: Settings,
    /// The parts played, `K/N` each (one for a run, several for a merge).
    pub parts: Vec<String>,
    /// Games played at once.
    pub concurrency: usize,
    /// Wall time in ms.
    pub elapsed_ms: u64,
    /// Every game kept, by number.
    pub games: Vec<Game>,
}

/// Everything that decides what the games of a schedule are.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Settings {
    /// Entrant names, in command-line order.
    pub engines: Vec<String>,
    /// `gomoku`, `renju`, `go`, `ttt`.
    pub game: String,
    /// Gomoku-family rule name.
    pub rule: String,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Go komi.
    pub komi: f32,
    /// Go handicap stones (0: none; absent from files written before handicaps).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub handicap: usize,
    /// Game clock per side in ms, if any.
    pub game_ms: Option<u64>,
    /// Increment per move in ms.
    pub increment_ms: u64,
    /// Most time per move in ms, if any.
    pub move_ms: Option<u64>,
    /// Grace past a move's budget in ms.
    pub tolerance_ms: u64,
    /// Move limit after the opening, if set.
    pub max_moves: Option<usize>,
    /// Seed of openings and engines.
    pub seed: u64,
    /// Games per pairing asked for.
    pub games: usize,
    /// `round-robin` or `gauntlet`.
    pub schedule: String,
    /// Openings, moves in Gomocup spelling (`7,7`, `pass`) separated by spaces.
    pub openings: Vec<String>,
    /// SPRT bounds and error rates `[elo0, elo1, alpha, beta]`, if one runs.
    pub sprt: Option<[f64; 4]>,
    /// How each entrant ran, in entrant order: command and arguments, `INFO` lines, GTP
    /// commands, settings (absent from files written before it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<String>,
}

/// One game.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Game {
    /// 0-based number in the whole schedule.
    pub index: usize,
    /// Opening number.
    pub opening: usize,
    /// Pairing number.
    pub pairing: usize,
    /// Entrant with black.
    pub black: usize,
    /// Entrant with white.
    pub white: usize,
    /// `1-0` (black won), `0-1`, `1/2-1/2`.
    pub result: String,
    /// Why it ended.
    pub reason: EndReason,
    /// Moves as `[colour, move, think ms]`, the think time null for opening moves.
    pub moves: Vec<(String, String, Option<u64>)>,
    /// Wall time of the game in ms.
    pub wall_ms: u64,
    /// The think that ended the game without a move (`[colour, ms]`), if one did.
    #[serde(default)]
    pub last_think: Option<(String, u64)>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn parse_mv(s: &str) -> Result<Mv, String> {
    if s == "pass" {
        return Ok(Mv::Pass);
    }
    let (x, y) = s.split_once(',').ok_or_else(|| format!("bad move {s:?}"))?;
    match (x.parse(), y.parse()) {
        (Ok(x), Ok(y)) => Ok(Mv::At(x, y)),
        _ => Err(format!("bad move {s:?}")),
    }
}

fn schedule_name(s: Schedule) -> &'static str {
    match s {
        Schedule::RoundRobin => "round-robin",
        Schedule::Gauntlet => "gauntlet",
    }
}

impl Settings {
    /// The settings of a configured tournament between `engines`.
    pub fn new(cfg: &TournamentConfig, engines: &[String]) -> Settings {
        let s = &cfg.setup;
        Settings {
            engines: engines.to_vec(),
            game: s.game.name().to_string(),
            rule: s.rule.name().to_string(),
            width: s.width,
            height: s.height,
            komi: s.komi,
            handicap: s.handicap,
            game_ms: s.tc.game_ms,
            increment_ms: s.tc.increment_ms,
            move_ms: s.tc.move_ms,
            tolerance_ms: cfg.tolerance_ms,
            max_moves: cfg.max_moves,
            seed: cfg.seed,
            games: cfg.games,
            schedule: schedule_name(cfg.schedule).to_string(),
            openings: cfg
                .openings
                .iter()
                .map(|o| o.iter().map(Mv::to_string).collect::<Vec<_>>().join(" "))
                .collect(),
            sprt: cfg.sprt.map(|t| [t.elo0, t.elo1, t.alpha, t.beta]),
            commands: cfg.commands.clone(),
        }
    }

    /// The tournament these settings describe, as part `shard` played `concurrency` games at
    /// once.
    pub fn config(&self, shard: Shard, concurrency: usize) -> Result<TournamentConfig, String> {
        let game =
            GameName::from_name(&self.game).ok_or(format!("unknown game {:?}", self.game))?;
        let rule = Rule::from_name(&self.rule).ok_or(format!("unknown rule {:?}", self.rule))?;
        let schedule = match self.schedule.as_str() {
            "round-robin" => Schedule::RoundRobin,
            "gauntlet" => Schedule::Gauntlet,
            s => return Err(format!("unknown schedule {s:?}")),
        };
        let openings = self
            .openings
            .iter()
            .map(|o| o.split_whitespace().map(parse_mv).collect())
            .collect::<Result<Vec<Vec<Mv>>, String>>()?;
        Ok(TournamentConfig {
            setup: GameSetup {
                game,
                rule,
                width: self.width,
                height: self.height,
                komi: self.komi,
                handicap: self.handicap,
                tc: TimeControl {
                    game_ms: self.game_ms,
                    increment_ms: self.increment_ms,
                    move_ms: self.move_ms,
                },
            },
            schedule,
            games: self.games,
            openings,
            concurrency,
            tolerance_ms: self.tolerance_ms,
            max_moves: self.max_moves,
            seed: self.seed,
            sprt: self.sprt.map(|[a, b, c, d]| Sprt::new(a, b, c, d)),
            shard,
            commands: self.commands.clone(),
        })
    }
}

impl Game {
    /// The record of a played game.
    pub fn new(g: &GameRecord) -> Game {
        let colour = |c: Color| if c == Color::Black { "B" } else { "W" };
        Game {
            index: g.index,
            opening: g.opening,
            pairing: g.pairing,
            black: g.black,
            white: g.white,
            result: g.result.outcome.pgn().to_string(),
            reason: g.result.reason.clone(),
            moves: g
                .result
                .moves
                .iter()
                .map(|p| (colour(p.color).to_string(), p.mv.to_string(), p.ms))
                .collect(),
            wall_ms: g.wall_ms,
            last_think: g
                .result
                .last_think
                .map(|(c, ms)| (colour(c).to_string(), ms)),
        }
    }

    /// Back to a game record.
    pub fn record(&self) -> Result<GameRecord, String> {
        let outcome = Outcome::from_pgn(&self.result)
            .ok_or_else(|| format!("game {}: bad result {:?}", self.index + 1, self.result))?;
        let colour = |c: &str| match c {
            "B" => Ok(Color::Black),
            "W" => Ok(Color::White),
            _ => Err(format!("game {}: bad colour {c:?}", self.index + 1)),
        };
        let last_think = match &self.last_think {
            Some((c, ms)) => Some((colour(c)?, *ms)),
            None => None,
        };
        let moves = self
            .moves
            .iter()
            .map(|(c, mv, ms)| {
                let color = colour(c)?;
                let mv = parse_mv(mv).map_err(|e| format!("game {}: {e}", self.index + 1))?;
                Ok(Played { color, mv, ms: *ms })
            })
            .collect::<Result<Vec<Played>, String>>()?;
        Ok(GameRecord {
            index: self.index,
            opening: self.opening,
            pairing: self.pairing,
            black: self.black,
            white: self.white,
            result: GameResult {
                moves,
                outcome,
                reason: self.reason.clone(),
                last_think,
            },
            wall_ms: self.wall_ms,
        })
    }
}

impl ResultFile {
    /// The result file of a finished run.
    pub fn new(report: &TournamentReport) -> ResultFile {
        ResultFile {
            format: FORMAT.to_string(),
            settings: Settings::new(&report.config, &report.names),
            parts: vec![report.config.shard.to_string()],
            concurrency: report.config.concurrency,
            elapsed_ms: report.elapsed.as_millis() as u64,
            games: report.games.iter().map(Game::new).collect(),
        }
    }

    /// Reads one, refusing other formats.
    pub fn parse(text: &str) -> Result<ResultFile, String> {
        let f: ResultFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if f.format != FORMAT {
            return Err(format!("format {:?}, expected {FORMAT:?}", f.format));
        }
        Ok(f)
    }

    /// As JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("plain data serializes")
    }

    /// Wall time.
    pub fn elapsed(&self) -> Duration {
        Duration::from_millis(self.elapsed_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::tournament::tests::{config, internal};
    use crate::arena::tournament::{run, Entrant};
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn a_match_survives_the_round_trip() {
        let mut cfg = config(GameName::Go, 5, 2, 1);
        cfg.sprt = Some(Sprt::new(-10.0, 20.0, 0.05, 0.1));
        cfg.openings[0] = vec![Mv::At(1, 2), Mv::Pass];
        let entrants = [internal("heuristic"), internal("mcts")];
        cfg.commands = entrants.iter().map(Entrant::describe).collect();
        let report = run(&cfg, &entrants, &mut |_, _| {}, &AtomicUsize::new(0)).unwrap();
        let file = ResultFile::new(&report);
        assert!(file.settings.commands[1].starts_with("internal:mcts"));
        assert!(report
            .to_string()
            .contains("  internal:mcts: internal:mcts"));
        let back = ResultFile::parse(&file.to_json()).unwrap();
        assert_eq!(back, file);
        let cfg2 = back.settings.config(Shard::WHOLE, 1).unwrap();
        assert_eq!(cfg2.setup, cfg.setup);
        assert_eq!(cfg2.openings, cfg.openings);
        assert_eq!(
            (cfg2.seed, cfg2.games, cfg2.sprt),
            (cfg.seed, cfg.games, cfg.sprt)
        );
        assert_eq!(cfg2.commands, cfg.commands);
        let games: Vec<GameRecord> = back.games.iter().map(|g| g.record().unwrap()).collect();
        assert_eq!(games, report.games);
        assert!(games
            .iter()
            .any(|g| matches!(g.result.reason, EndReason::Score { .. })));
    }

    #[test]
    fn bad_files_are_errors() {
        assert!(ResultFile::parse("{}").is_err());
        assert!(ResultFile::parse("not json").is_err());
        let report = run(
            &config(GameName::Ttt, 3, 2, 1),
            &[internal("perfect"), internal("dumb")],
            &mut |_, _| {},
            &AtomicUsize::new(0),
        )
        .unwrap();
        let mut file = ResultFile::new(&report);
        file.format = "other/9".into();
        assert!(ResultFile::parse(&file.to_json())
            .unwrap_err()
            .contains("format"));
        let mut g = Game::new(&report.games[0]);
        g.moves[0].1 = "x".into();
        assert!(g.record().is_err());
        g = Game::new(&report.games[0]);
        g.result = "2-0".into();
        assert!(g.record().is_err());
        let mut s = file.settings.clone();
        s.schedule = "swiss".into();
        assert!(s.config(Shard::WHOLE, 1).is_err());
    }
}
