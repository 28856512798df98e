//! Tournaments: who plays whom (round-robin or gauntlet), in which order, on how many threads,
//! and when to stop (all games played, or an SPRT decision).
//!
//! Every pairing plays the same openings: opening `k` is played twice in a row by each pairing,
//! first engine black then white. Jobs are ordered opening by opening across pairings, so a run
//! stopped early is still balanced. A run may play one part of the schedule ([`Shard`]); a
//! game's opening, colours and seeds come from its number alone, so the parts add up to the
//! whole game for game. An SPRT reads the games in schedule order ([`OrderedSprt`]): a run
//! stops at the same game on any number of threads. Each worker thread owns one process per engine and keeps it
//! across games (like c-gomoku-cli); a process that timed out, crashed or answered garbage is
//! killed and started afresh for its next game.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::coords::Mv;
use super::engine::{Engine, GameSetup, Internal};
use super::gomocup::GomocupEngine;
use super::gtp::GtpEngine;
use super::manifest::{EngineSpec, Protocol};
use super::referee::{play_game, EndReason, GameResult};
use super::shard::Shard;
use super::stats::{OrderedSprt, Sprt, SprtDecision, Wdl};
use crate::rules::splitmix::splitmix64;
use crate::rules::{Color, Outcome};

/// A participant.
#[derive(Clone, Debug)]
pub enum Entrant {
    /// An engine process described by a manifest.
    Process(Box<EngineSpec>),
    /// One of our levels in-process (`internal:<level>`), at most `nodes` nodes per move.
    Internal {
        /// The level name.
        level: String,
        /// Node budget per move.
        nodes: Option<u64>,
    },
}

impl Entrant {
    /// Name in tables and records.
    pub fn name(&self) -> String {
        match self {
            Entrant::Process(spec) => spec.name().to_string(),
            Entrant::Internal { level, .. } => format!("internal:{level}"),
        }
    }

    /// How it runs, as the record keeps it: the manifest's command and arguments as written
    /// (placeholders left, so that parts run on other machines agree), its `INFO` lines and GTP
    /// commands, or the in-process level and its node budget; and for sente, in either form,
    /// the settings' environment aliases when they are set (`SENTE_SEARCH`, `SENTE_MCTS`).
    pub fn describe(&self) -> String {
        let mut text = match self {
            Entrant::Process(spec) => {
                let m = &spec.manifest;
                let mut t = std::iter::once(m.command.as_str())
                    .chain(m.args.iter().map(String::as_str))
                    .collect::<Vec<_>>()
                    .join(" ");
                for (key, value) in &m.info {
                    let value = value
                        .as_str()
                        .map_or_else(|| value.to_string(), String::from);
                    t.push_str(&format!("; INFO {key} {value}"));
                }
                for c in &m.gtp_commands {
                    t.push_str(&format!("; {c}"));
                }
                t
            }
            Entrant::Internal { level, nodes } => match nodes {
                Some(n) => format!("internal:{level} --nodes {n}"),
                None => format!("internal:{level}"),
            },
        };
        let ours = match self {
            Entrant::Process(spec) => spec.manifest.command == "{sente}",
            Entrant::Internal { .. } => true,
        };
        if ours {
            for var in ["SENTE_SEARCH", "SENTE_MCTS"] {
                if let Ok(v) = std::env::var(var) {
                    text.push_str(&format!("; {var}={v}"));
                }
            }
        }
        text
    }

    /// The node budget a move of this entrant gets, read from its [`Entrant::describe`] text
    /// (so a merge of recorded parts finds it too): sente's `--nodes N` or a Gomocup engine's
    /// `INFO max_node N`; `None` when the clock alone limits it.
    pub fn node_budget(described: &str) -> Option<u64> {
        let words: Vec<&str> = described
            .split(|c: char| c.is_whitespace() || c == ';')
            .filter(|w| !w.is_empty())
            .collect();
        words
            .windows(2)
            .find_map(|w| match w[0] {
                "--nodes" => w[1].parse().ok(),
                _ => None,
            })
            .or_else(|| {
                words.windows(3).find_map(|w| {
                    (w[0] == "INFO" && w[1] == "max_node").then(|| w[2].parse().ok())?
                })
            })
    }

    /// A fresh engine for `setup`; `seed` seeds its randomness (each process start draws a
    /// new `{seed}` from it).
    pub fn make(&self, setup: &GameSetup, seed: u64) -> Result<Box<dyn Engine>, String> {
        match self {
            Entrant::Process(spec) => {
                let mut state = seed;
                let seeds = Box::new(move || splitmix64(&mut state) >> 1);
                Ok(match spec.manifest.protocol {
                    Protocol::Gomocup => Box::new(GomocupEngine::new((**spec).clone(), seeds)),
                    Protocol::Gtp => Box::new(GtpEngine::new((**spec).clone(), seeds)),
                })
            }
            Entrant::Internal { level, nodes } => Internal::new(setup.game, level, seed, *nodes)
                .map(|e| Box::new(e) as Box<dyn Engine>)
                .ok_or_else(|| format!("no internal {} level {level:?}", setup.game.name())),
        }
    }
}

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// What to play.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// Game, board, rule, komi, time control.
    pub setup: GameSetup,
    /// Pairings.
    pub schedule: Schedule,
    /// Games per pairing (rounded up to even: every opening with both colours).
    pub games: usize,
    /// Openings, used in turn (cycled when there are fewer than pairs of games).
    pub openings: Vec<Vec<Mv>>,
    /// Games played at once.
    pub concurrency: usize,
    /// Grace after a move's budget before the engine loses on time, in ms.
    pub tolerance_ms: u64,
    /// Moves after the opening before a draw is declared (`None`: the game's own default).
    pub max_moves: Option<usize>,
    /// Seed for engine seeds.
    pub seed: u64,
    /// Stop early when this test decides (two engines, whole schedule only: the parts of a
    /// split schedule play all their games, and their merge decides).
    pub sprt: Option<Sprt>,
    /// The part of the schedule this run plays.
    pub shard: Shard,
    /// How each entrant runs, in entrant order ([`Entrant::describe`]): what the record says
    /// played (empty: not said).
    pub commands: Vec<String>,
}

/// One finished game of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// 0-based game number.
    pub index: usize,
    /// Which opening (index into the config's openings).
    pub opening: usize,
    /// Which pairing (index into [`TournamentReport::pairings`]).
    pub pairing: usize,
    /// Entrant playing black (first).
    pub black: usize,
    /// Entrant playing white.
    pub white: usize,
    /// The refereed game.
    pub result: GameResult,
    /// Wall time of the game in ms.
    pub wall_ms: u64,
}

impl GameRecord {
    /// Points scored by `entrant` (1, 1/2, 0), or `None` if it did not play.
    pub fn points_for(&self, entrant: usize) -> Option<f64> {
        let color = if entrant == self.black {
            Color::Black
        } else if entrant == self.white {
            Color::White
        } else {
            return None;
        };
        Some(match self.result.outcome.winner() {
            None => 0.5,
            Some(c) if c == color => 1.0,
            Some(_) => 0.0,
        })
    }
    /// The game as counts for `entrant`.
    pub fn wdl_for(&self, entrant: usize) -> Wdl {
        match self.points_for(entrant) {
            Some(p) if p > 0.75 => Wdl::new(1, 0, 0),
            Some(p) if p < 0.25 => Wdl::new(0, 1, 0),
            Some(_) => Wdl::new(0, 0, 1),
            None => Wdl::default(),
        }
    }
}

/// A finished (or stopped) tournament.
#[derive(Clone, Debug)]
pub struct TournamentReport {
    /// What was asked for.
    pub config: TournamentConfig,
    /// Entrant names.
    pub names: Vec<String>,
    /// (first, second) entrant of each pairing.
    pub pairings: Vec<(usize, usize)>,
    /// Every game played, by index.
    pub games: Vec<GameRecord>,
    /// Games that were scheduled (for a part, the part's games).
    pub planned: usize,
    /// The SPRT and where it ended, when one ran.
    pub sprt: Option<(Sprt, f64, SprtDecision)>,
    /// Wall time.
    pub elapsed: Duration,
}

impl TournamentReport {
    /// Results of pairing `p` from its first engine's side.
    pub fn pairing_wdl(&self, p: usize) -> Wdl {
        let first = self.pairings[p].0;
        let mut w = Wdl::default();
        for g in self.games.iter().filter(|g| g.pairing == p) {
            w += g.wdl_for(first);
        }
        w
    }
    /// All results of entrant `e`.
    pub fn entrant_wdl(&self, e: usize) -> Wdl {
        let mut w = Wdl::default();
        for g in &self.games {
            w += g.wdl_for(e);
        }
        w
    }
}

/// The pairings of `n` entrants under `schedule`.
pub fn pairings(n: usize, schedule: Schedule) -> Vec<(usize, usize)> {
    match schedule {
        Schedule::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
        Schedule::Gauntlet => (1..n).map(|j| (0, j)).collect(),
    }
}

/// Games in the whole schedule of `entrants` engines playing `games` games per pairing.
pub fn schedule_len(entrants: usize, schedule: Schedule, games: usize) -> usize {
    pairings(entrants, schedule).len() * games.div_ceil(2) * 2
}

struct Job {
    index: usize,
    opening: usize,
    pairing: usize,
    black: usize,
    white: usize,
}

/// Plays the tournament, calling `progress` on the calling thread after each game with the
/// game and every game finished so far (in finishing order); `moves_played` counts the moves
/// of every game as they are played.
pub fn run(
    cfg: &TournamentConfig,
    entrants: &[Entrant],
    progress: &mut dyn FnMut(&GameRecord, &[GameRecord]),
    moves_played: &AtomicUsize,
) -> Result<TournamentReport, String> {
    let started = Instant::now();
    if entrants.len() < 2 {
        return Err("a match needs at least two engines".into());
    }
    if cfg.openings.is_empty() {
        return Err("no openings".into());
    }
    for e in entrants {
        e.make(&cfg.setup, 0)?;
    }
    let pairs = pairings(entrants.len(), cfg.schedule);
    let rounds = cfg.games.div_ceil(2);
    let mut jobs = Vec::with_capacity(schedule_len(entrants.len(), cfg.schedule, cfg.games));
    for round in 0..rounds {
        for (p, &(a, b)) in pairs.iter().enumerate() {
            for (black, white) in [(a, b), (b, a)] {
                jobs.push(Job {
                    index: jobs.len(),
                    opening: round % cfg.openings.len(),
                    pairing: p,
                    black,
                    white,
                });
            }
        }
    }
    let part = cfg.shard.range(jobs.len());
    let jobs = &jobs[part];
    let mut sprt = cfg
        .sprt
        .filter(|_| entrants.len() == 2 && cfg.shard.is_whole())
        .map(OrderedSprt::new);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut done: Vec<GameRecord> = Vec::with_capacity(jobs.len());
    let mut spawned = 0;
    // A rendezvous channel: a worker hands over its game before it takes the next job, so
    // an SPRT decision stops the run within `concurrency` games.
    let (tx, rx) = mpsc::sync_channel::<GameRecord>(0);
    thread::scope(|scope| {
        let (next, stop) = (&next, &stop);
        let worker = move |w: usize, tx: mpsc::SyncSender<GameRecord>| {
            let mut engines: Vec<Option<Box<dyn Engine>>> = entrants.iter().map(|_| None).collect();
            let mut made = 0u64;
            loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                let t0 = Instant::now();
                for e in [job.black, job.white] {
                    if engines[e].is_none() {
                        let mut s = cfg.seed ^ ((w as u64) << 32) ^ ((e as u64) << 48) ^ made;
                        made += 1;
                        engines[e] = entrants[e].make(&cfg.setup, splitmix64(&mut s)).ok();
                    }
                }
                let mut eb = engines[job.black].take();
                let mut ew = engines[job.white].take();
                // Seeds from the game, not the worker: a replay does not depend on scheduling.
                let mut game_seed = cfg.seed ^ ((job.index as u64) << 24);
                for e in [&mut eb, &mut ew] {
                    let seed = splitmix64(&mut game_seed);
                    if let Some(e) = e.as_deref_mut() {
                        e.reseed(seed);
                    }
                }
                let result = match (eb.as_deref_mut(), ew.as_deref_mut()) {
                    (Some(b), Some(wh)) => play_game(
                        &cfg.setup,
                        &cfg.openings[job.opening],
                        [b, wh],
                        cfg.tolerance_ms,
                        cfg.max_moves,
                        moves_played,
                    ),
                    (None, _) => missing_engine(Color::Black),
                    (_, None) => missing_engine(Color::White),
                };
                engines[job.black] = eb;
                engines[job.white] = ew;
                let rec = GameRecord {
                    index: job.index,
                    opening: job.opening,
                    pairing: job.pairing,
                    black: job.black,
                    white: job.white,
                    result,
                    wall_ms: t0.elapsed().as_millis() as u64,
                };
                if tx.send(rec).is_err() {
                    break;
                }
            }
            for e in engines.iter_mut().flatten() {
                e.shutdown();
            }
        };
        let threads = cfg.concurrency.clamp(1, jobs.len().max(1));
        for w in 0..threads {
            let tx = tx.clone();
            if thread::Builder::new()
                .name(format!("arena-{w}"))
                .spawn_scoped(scope, move || worker(w, tx))
                .is_ok()
            {
                spawned += 1;
            }
        }
        drop(tx);
        for rec in rx {
            done.push(rec);
            progress(done.last().expect("just pushed"), &done);
            if let Some(test) = &mut sprt {
                let g = done.last().expect("just pushed");
                test.add(g.index, g.wdl_for(0));
                if test.state().2 != SprtDecision::Continue {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    if spawned == 0 {
        return Err("could not start a worker thread".into());
    }
    done.sort_by_key(|g| g.index);
    if let Some(test) = &sprt {
        // Games finished on other threads after the deciding one are not counted.
        done.retain(|g| g.index < test.counted_until());
    }
    Ok(TournamentReport {
        config: cfg.clone(),
        names: entrants.iter().map(Entrant::name).collect(),
        pairings: pairs,
        games: done,
        planned: jobs.len(),
        sprt: sprt.map(|t| t.state()),
        elapsed: started.elapsed(),
    })
}

/// What [`run`] reports if it stops now, from the games `done` so far (in any order) after
/// `elapsed`: they in index order and, for an SPRT, its state over them all (the final report
/// counts them in index order, which may leave out a game or two finished early).
pub fn report_so_far(
    cfg: &TournamentConfig,
    names: &[String],
    done: &[GameRecord],
    elapsed: Duration,
) -> TournamentReport {
    let mut games = done.to_vec();
    games.sort_by_key(|g| g.index);
    let mut wdl = Wdl::default();
    for g in &games {
        wdl += g.wdl_for(0);
    }
    let sprt = cfg
        .sprt
        .filter(|_| names.len() == 2 && cfg.shard.is_whole())
        .map(|t| (t, t.llr(&wdl), t.decide(&wdl)));
    TournamentReport {
        config: cfg.clone(),
        names: names.to_vec(),
        pairings: pairings(names.len(), cfg.schedule),
        games,
        planned: cfg
            .shard
            .range(schedule_len(names.len(), cfg.schedule, cfg.games))
            .len(),
        sprt,
        elapsed,
    }
}

/// The game of an engine that could not be made: lost by `side` before it began.
fn missing_engine(side: Color) -> GameResult {
    GameResult {
        moves: Vec::new(),
        outcome: Outcome::Win(side.opponent()),
        reason: EndReason::Refused("the engine could not be created".into()),
        last_think: None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::arena::manifest::GameName;
    use crate::arena::openings::generate_many;
    use crate::arena::referee::EndReason;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    pub(crate) fn config(
        game: GameName,
        size: usize,
        games: usize,
        concurrency: usize,
    ) -> TournamentConfig {
        let setup = crate::arena::engine::tests::loose_setup(game, size);
        let stones = crate::arena::openings::default_stones(game);
        let openings = generate_many(
            &setup,
            stones,
            games.div_ceil(2),
            &mut ChaCha8Rng::seed_from_u64(5),
        )
        .unwrap();
        TournamentConfig {
            setup,
            schedule: Schedule::RoundRobin,
            games,
            openings,
            concurrency,
            tolerance_ms: 60_000,
            max_moves: None,
            seed: 5,
            sprt: None,
            shard: Shard::WHOLE,
            commands: Vec::new(),
        }
    }

    pub(crate) fn internal(level: &str) -> Entrant {
        Entrant::Internal {
            level: level.into(),
            nodes: Some(300),
        }
    }

    #[test]
    fn pairings_by_schedule() {
        assert_eq!(pairings(3, Schedule::RoundRobin), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(3, Schedule::Gauntlet), [(0, 1), (0, 2)]);
    }

    #[test]
    fn an_internal_gomoku_match_adds_up_and_pairs_share_openings() {
        let cfg = config(GameName::Gomoku, 9, 5, 2);
        let mut seen = 0;
        let moves_played = AtomicUsize::new(0);
        let report = run(
            &cfg,
            &[internal("strong"), internal("classic")],
            &mut |_, _| seen += 1,
            &moves_played,
        )
        .unwrap();
        assert_eq!((seen, report.games.len(), report.planned), (6, 6, 6));
        // Every move the engines played was counted as it came, the opening's not.
        let played: usize = report
            .games
            .iter()
            .map(|g| g.result.moves.iter().filter(|m| m.ms.is_some()).count())
            .sum();
        assert_eq!(moves_played.load(Ordering::Relaxed), played);
        for (i, g) in report.games.iter().enumerate() {
            assert_eq!(g.index, i);
            assert_eq!(g.opening, i / 2);
            assert_eq!((g.black, g.white), if i % 2 == 0 { (0, 1) } else { (1, 0) });
            let opening = &cfg.openings[g.opening];
            let moves: Vec<Mv> = g.result.moves.iter().map(|p| p.mv).collect();
            assert_eq!(&moves[..opening.len()], &opening[..]);
            assert!(g.result.moves[opening.len()..]
                .iter()
                .all(|p| p.ms.is_some()));
            assert!(matches!(
                g.result.reason,
                EndReason::Line | EndReason::BoardFull
            ));
        }
        let w = report.pairing_wdl(0);
        assert_eq!(w.games(), 6);
        assert_eq!(report.entrant_wdl(1), w.flipped());
        let text = report.to_string();
        assert!(
            text.contains("internal:strong vs internal:classic"),
            "{text}"
        );
        assert!(text.contains("endings:"));
    }

    #[test]
    fn an_internal_go_match_adds_up_and_its_games_differ() {
        let cfg = config(GameName::Go, 7, 6, 2);
        let report = run(
            &cfg,
            &[internal("heuristic"), internal("mcts")],
            &mut |_, _| {},
            &AtomicUsize::new(0),
        )
        .unwrap();
        assert_eq!((report.games.len(), report.planned), (6, 6));
        let mut points = 0.0;
        for g in &report.games {
            points += g.points_for(0).unwrap() + g.points_for(1).unwrap();
            assert!(
                matches!(
                    g.result.reason,
                    EndReason::Score { .. } | EndReason::Resign | EndReason::MoveLimit
                ),
                "game {}: {}",
                g.index,
                g.result.reason
            );
            assert!(g.result.moves.len() > 10, "game {}", g.index);
        }
        assert_eq!(points, 6.0);
        let w = report.pairing_wdl(0);
        assert_eq!(w.games(), 6);
        assert_eq!(report.entrant_wdl(1), w.flipped());
        // Every game starts on the empty board: only the engines' seeds tell them apart.
        let moves: Vec<Vec<Mv>> = report
            .games
            .iter()
            .map(|g| g.result.moves.iter().map(|p| p.mv).collect())
            .collect();
        for (i, a) in moves.iter().enumerate() {
            for b in &moves[i + 1..] {
                assert_ne!(a, b, "two games alike");
            }
        }
        let text = report.to_string();
        assert!(
            text.contains("internal:heuristic vs internal:mcts"),
            "{text}"
        );
    }

    #[test]
    fn node_limited_matches_replay_exactly_at_any_concurrency() {
        let entrants = [internal("classic"), internal("strong")];
        let one = run(
            &config(GameName::Gomoku, 9, 4, 1),
            &entrants,
            &mut |_, _| {},
            &AtomicUsize::new(0),
        )
        .unwrap();
        let two = run(
            &config(GameName::Gomoku, 9, 4, 2),
            &entrants,
            &mut |_, _| {},
            &AtomicUsize::new(0),
        )
        .unwrap();
        let moves = |r: &TournamentReport| -> Vec<Vec<Mv>> {
            r.games
                .iter()
                .map(|g| g.result.moves.iter().map(|p| p.mv).collect())
                .collect()
        };
        assert_eq!(moves(&one), moves(&two));
    }

    #[test]
    fn ttt_round_robin_perfect_never_loses() {
        let cfg = config(GameName::Ttt, 3, 4, 1);
        let entrants = [internal("perfect"), internal("dumber"), internal("minimax")];
        let report = run(&cfg, &entrants, &mut |_, _| {}, &AtomicUsize::new(0)).unwrap();
        assert_eq!(report.games.len(), 12);
        assert_eq!(report.entrant_wdl(0).losses, 0);
        assert_eq!(report.entrant_wdl(2).losses, 0);
        assert!(report.entrant_wdl(1).losses > 0);
        // perfect vs minimax: both perfect, all draws.
        assert_eq!(report.pairing_wdl(1).draws, 4);
        let text = report.to_string();
        assert!(text.contains("engine (all games)"), "{text}");
    }

    #[test]
    fn sprt_stops_a_lopsided_match_early() {
        let mut cfg = config(GameName::Ttt, 3, 200, 1);
        cfg.sprt = Some(Sprt::new(0.0, 50.0, 0.05, 0.05));
        let report = run(
            &cfg,
            &[internal("perfect"), internal("dumber")],
            &mut |_, _| {},
            &AtomicUsize::new(0),
        )
        .unwrap();
        assert!(report.games.len() < 40, "{report}");
        let (_, _, d) = report.sprt.unwrap();
        assert_eq!(d, SprtDecision::AcceptH1);
        assert!(report.to_string().contains("H1 accepted"));
    }

    #[test]
    fn the_report_so_far_counts_the_games_done_and_the_sprt_over_them() {
        let mut cfg = config(GameName::Ttt, 3, 200, 2);
        cfg.sprt = Some(Sprt::new(0.0, 50.0, 0.05, 0.05));
        let names = vec!["perfect".to_string(), "dumber".to_string()];
        let mut snapshots = Vec::new();
        let report = run(
            &cfg,
            &[internal("perfect"), internal("dumber")],
            &mut |_, done| {
                let so_far = report_so_far(&cfg, &names, done, Duration::ZERO);
                snapshots.push((so_far.games.len(), so_far.to_string(), so_far));
            },
            &AtomicUsize::new(0),
        )
        .unwrap();
        let (n, text, first) = &snapshots[0];
        assert_eq!((*n, first.planned), (1, 200));
        assert!(text.contains("1 of 200 games"), "{text}");
        let (n, text, last) = snapshots.last().unwrap();
        assert!(*n >= report.games.len());
        assert!(last.games.windows(2).all(|w| w[0].index < w[1].index));
        let (_, _, d) = last.sprt.unwrap();
        assert_eq!(d, SprtDecision::AcceptH1, "{text}");
        assert_eq!(last.pairing_wdl(0).losses, 0);
    }

    #[test]
    fn bad_setups_are_errors_not_panics() {
        let cfg = config(GameName::Gomoku, 9, 2, 1);
        assert!(run(
            &cfg,
            &[internal("strong")],
            &mut |_, _| {},
            &AtomicUsize::new(0)
        )
        .is_err());
        assert!(run(
            &cfg,
            &[internal("strong"), internal("nonesuch")],
            &mut |_, _| {},
            &AtomicUsize::new(0)
        )
        .unwrap_err()
        .contains("nonesuch"));
        let g = missing_engine(Color::White);
        assert_eq!(g.outcome, Outcome::Win(Color::Black));
    }
}
