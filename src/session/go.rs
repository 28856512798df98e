//! Go as a GTP controller drives it: the game (board, history, rules), the clocks, the chosen
//! player and what each command does to them. Commands arrive typed; answers leave typed (or as
//! the GTP error message). Nothing here reads or writes protocol text.
//!
//! Policies decided here (the README repeats them):
//! * **Rules**: area scoring, positional superko, no suicide (the go-engine defaults, what GNU Go
//!   plays with `--chinese-rules --positional-superko`); komi from `komi` (default 7.5).
//! * **Time**: `--nodes N` fixes the playouts per move and switches the clock off
//!   (deterministic play). Otherwise `time_settings` / `kgs-time_settings` / `time_left` feed
//!   [`GoClock`]; with no time system a move gets [`DEFAULT_MOVE_MS`].
//! * **genmove** plays what the player decides; a player answer that the rules refuse is
//!   replaced by `pass` (logged). `resign` is answered as is and nothing is played.
//!   `reg_genmove` decides the same way but plays nothing.
//! * **Scoring**: `final_score` and `final_status_list` ask the player for dead stones (Monte
//!   Carlo ownership) and count with [`crate::rules::go::score`]. `seki` lists the live groups
//!   that touch a neutral empty region (one bordered by live stones of both colours) and own
//!   fewer than two eye regions with less than [`SEKI_MAX_EYE_SPACE`] points in all: exact
//!   once the dame are filled, an estimate before.
//! * **Handicap**: only on an empty board (`board not empty`). `place_free_handicap n` uses the
//!   fixed points when the board has them (clamped to the most it allows), corner points
//!   otherwise; it may place fewer than `n`, as the spec allows.
//! * **loadsgf**: the file is replayed on a fresh game; any failure leaves the current game as
//!   it was and answers `cannot load file`.
//! * **Analysis** (`lz-analyze`, `kata-analyze`) runs until the next input line (or end of
//!   input), however early the player finishes.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use log::{info, warn};

use crate::players::{go_player, GoCandidate, GoDecision, GoPlayer, GoRequest, GO_LEVELS};
use crate::rules::go::{score, GoGame, GoMove, GoRules, Point};
use crate::rules::Color;
use crate::search::clock::{GameClock, SearchLimit, TimeManager};
use crate::session::go_clock::GoClock;
use crate::session::gtp_game::{
    AnalyzeOptions, Candidate, Genmove, GtpGame, GtpRequest, GtpResult, Score, Status,
    TimeSystem, Vertex, CANNOT_UNDO, ILLEGAL_MOVE, OFF_BOARD, UNACCEPTABLE_SIZE,
};
use crate::session::sgf::read_record;
use crate::session::StopSignal;

/// Time per move when no time system was given and no `--nodes` budget.
pub const DEFAULT_MOVE_MS: u64 = 5_000;
/// Time the player may spend finding dead stones for `final_score` / `final_status_list`.
pub const SCORING_MS: u64 = 2_000;
/// A live group with this much eye space or more is never counted as seki.
pub const SEKI_MAX_EYE_SPACE: usize = 7;
/// The board a session starts with.
pub const DEFAULT_SIZE: usize = 19;

/// What `sente` needs to set a Go session up.
#[derive(Clone, Debug, Default)]
pub struct GoConfig {
    /// Level name; `None` = the default (first of [`GO_LEVELS`]).
    pub level: Option<String>,
    pub seed: u64,
    /// Playouts per move; switches the clock off.
    pub nodes: Option<u64>,
}

/// A Go game under a GTP controller.
pub struct GoSession {
    game: GoGame,
    player: Box<dyn GoPlayer>,
    config: GoConfig,
    clock: GoClock,
    signal: Arc<StopSignal>,
}

fn unknown_level(name: &str) -> String {
    let known: Vec<&str> = GO_LEVELS.iter().map(|l| l.0).collect();
    format!("unknown level '{name}' (Go levels: {})", known.join(", "))
}

impl GoSession {
    /// A session on an empty 19x19 board; an unknown level is an error naming the known ones.
    pub fn new(config: GoConfig, signal: Arc<StopSignal>) -> Result<GoSession, String> {
        let name = config
            .level
            .clone()
            .unwrap_or_else(|| GO_LEVELS.first().map_or("", |l| l.0).to_string());
        let player = go_player(&name, config.seed).ok_or_else(|| unknown_level(&name))?;
        Ok(GoSession::with_player(config, signal, player))
    }

    /// A session with a given player (tests, tools).
    pub fn with_player(
        config: GoConfig,
        signal: Arc<StopSignal>,
        player: Box<dyn GoPlayer>,
    ) -> GoSession {
        GoSession {
            game: GoGame::new(DEFAULT_SIZE, DEFAULT_SIZE, GoRules::default())
                .expect("19x19 is a valid size"),
            player,
            config,
            clock: GoClock::default(),
            signal,
        }
    }

    /// The game.
    pub fn game(&self) -> &GoGame {
        &self.game
    }

    /// The point of an on-board vertex.
    fn point(&self, x: usize, y: usize) -> GtpResult<Point> {
        self.game
            .board()
            .point(x, y)
            .ok_or_else(|| OFF_BOARD.to_string())
    }

    fn go_move(&self, v: Vertex) -> GtpResult<GoMove> {
        match v {
            Vertex::Pass => Ok(GoMove::Pass),
            Vertex::At { x, y } => self.point(x, y).map(GoMove::Play),
        }
    }

    fn vertex(&self, mv: GoMove) -> Vertex {
        vertex_of(&self.game, mv)
    }

    fn board_is_empty(&self) -> bool {
        self.game.board().stone_count() == 0 && self.game.moves().is_empty()
    }

    /// The limit for `color`'s next move.
    fn move_limit(&self, color: Color) -> SearchLimit {
        if let Some(n) = self.config.nodes {
            return SearchLimit::nodes(n);
        }
        let empty = self.game.board().empty_points().len();
        let clock = self
            .clock
            .game_clock(color, empty)
            .unwrap_or(GameClock {
                turn_ms: Some(DEFAULT_MOVE_MS),
                ..GameClock::default()
            });
        SearchLimit {
            clock,
            ..SearchLimit::default()
        }
    }

    /// The limit for a dead-stone estimate.
    fn scoring_limit(&self) -> SearchLimit {
        match self.config.nodes {
            Some(n) => SearchLimit::nodes(n),
            None => SearchLimit::move_time(SCORING_MS),
        }
    }

    /// `fixed_handicap n`: the standard points, placed for black.
    pub fn fixed_handicap(&mut self, n: usize) -> GtpResult<Vec<Vertex>> {
        if !self.board_is_empty() {
            return Err("board not empty".into());
        }
        let points = self
            .game
            .fixed_handicap_points(n)
            .ok_or_else(|| "invalid number of stones".to_string())?;
        self.place_black(&points)
    }

    /// `place_free_handicap n`: up to `n` points of our choice.
    pub fn place_free_handicap(&mut self, n: usize) -> GtpResult<Vec<Vertex>> {
        let b = self.game.board();
        let area = b.width() * b.height();
        if n < 2 || n >= area {
            return Err("invalid number of stones".into());
        }
        if !self.board_is_empty() {
            return Err("board not empty".into());
        }
        let fixed = (2..=n).rev().find_map(|k| self.game.fixed_handicap_points(k));
        let points = match fixed {
            Some(p) => p,
            None => corner_points(b.width(), b.height())
                .into_iter()
                .filter_map(|(x, y)| b.point(x, y))
                .take(n)
                .collect(),
        };
        self.place_black(&points)
    }

    /// `set_free_handicap v1 v2 ...`: the controller's points.
    pub fn set_free_handicap(&mut self, vertices: &[Vertex]) -> GtpResult<()> {
        if !self.board_is_empty() {
            return Err("board not empty".into());
        }
        let b = self.game.board();
        let area = b.width() * b.height();
        let bad = || "bad vertex list".to_string();
        if vertices.len() < 2 || vertices.len() >= area {
            return Err(bad());
        }
        let mut points = Vec::with_capacity(vertices.len());
        for &v in vertices {
            let Vertex::At { x, y } = v else {
                return Err(bad());
            };
            let p = b.point(x, y).ok_or_else(bad)?;
            if points.contains(&p) {
                return Err(bad());
            }
            points.push(p);
        }
        self.place_black(&points).map(|_| ()).map_err(|_| bad())
    }

    fn place_black(&mut self, points: &[Point]) -> GtpResult<Vec<Vertex>> {
        let stones: Vec<(Point, Color)> = points.iter().map(|&p| (p, Color::Black)).collect();
        self.game
            .place_setup(&stones)
            .map_err(|e| format!("cannot place the handicap: {e}"))?;
        Ok(points.iter().map(|&p| self.vertex(GoMove::Play(p))).collect())
    }

    /// `time_settings` / `kgs-time_settings`.
    pub fn time_settings(&mut self, system: TimeSystem) {
        self.clock = GoClock::new(system);
    }

    /// `time_left color seconds stones`.
    pub fn time_left(&mut self, color: Color, seconds: f64, stones: u64) {
        self.clock.time_left(color, seconds, stones);
    }

    /// Dead stones by the player's estimate.
    fn dead(&mut self) -> Vec<Point> {
        let limit = self.scoring_limit();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let tm = TimeManager::new(&limit, Instant::now(), &stop);
        let mut dead = self.player.dead_stones(&self.game, &tm);
        let b = self.game.board();
        dead.retain(|&p| b.get(p).is_some());
        dead
    }

    /// `final_status_list alive|dead|seki`: one group per line.
    pub fn final_status_list(&mut self, status: Status) -> Vec<Vec<Vertex>> {
        let dead: HashSet<Point> = self.dead().into_iter().collect();
        let b = self.game.board();
        let mut seen = HashSet::new();
        let mut groups = Vec::new();
        let seki = seki_stones(&self.game, &dead);
        for p in b.points() {
            if b.get(p).is_none() || seen.contains(&p) {
                continue;
            }
            let stones = b.group_stones(p);
            seen.extend(stones.iter().copied());
            let class = if dead.contains(&p) {
                Status::Dead
            } else if seki.contains(&p) {
                Status::Seki
            } else {
                Status::Alive
            };
            if class == status {
                groups.push(stones.iter().map(|&q| self.vertex(GoMove::Play(q))).collect());
            }
        }
        groups
    }

    /// `loadsgf file [move_number]`: the position before move `move_number` (or the end).
    pub fn loadsgf(&mut self, file: &str, move_number: Option<usize>) -> GtpResult<()> {
        let fail = |why: String| {
            warn!("loadsgf {file}: {why}");
            "cannot load file".to_string()
        };
        let text = std::fs::read_to_string(file).map_err(|e| fail(e.to_string()))?;
        let record = read_record(&text).map_err(|e| fail(e.to_string()))?;
        let mut rules = *self.game.rules();
        if let Some(k) = record.komi {
            rules.komi = k;
        }
        let mut game = GoGame::new(record.width, record.height, rules)
            .map_err(|e| fail(format!("board size: {e}")))?;
        let mut setup = Vec::with_capacity(record.setup.len());
        for &((x, y), c) in &record.setup {
            let p = game
                .board()
                .point(x, y)
                .ok_or_else(|| fail("setup off the board".into()))?;
            setup.push((p, c));
        }
        if !setup.is_empty() {
            game.place_setup(&setup)
                .map_err(|e| fail(format!("setup stones: {e}")))?;
        }
        let count = move_number.map_or(record.moves.len(), |n| n.saturating_sub(1));
        for (i, &(c, at)) in record.moves.iter().take(count).enumerate() {
            let mv = match at {
                None => GoMove::Pass,
                Some((x, y)) => GoMove::Play(
                    game.board()
                        .point(x, y)
                        .ok_or_else(|| fail(format!("move {} off the board", i + 1)))?,
                ),
            };
            game.play(mv, c)
                .map_err(|e| fail(format!("move {}: {e}", i + 1)))?;
        }
        info!(
            "loaded {file}: {}x{}, {} setup stones, {} of {} moves",
            record.width,
            record.height,
            setup.len(),
            count.min(record.moves.len()),
            record.moves.len()
        );
        self.game = game;
        self.player.new_game();
        Ok(())
    }

    /// `lz-analyze` / `kata-analyze`: streams candidates for the side asked about until the
    /// next input line arrives (the stop flag), however early the player finishes.
    pub fn analyze(
        &mut self,
        options: AnalyzeOptions,
        seq: u64,
        report: &mut dyn FnMut(&[Candidate]),
    ) {
        let color = options.color.unwrap_or_else(|| self.game.to_move());
        self.signal.arm(seq);
        let tm = TimeManager::infinite(self.signal.flag());
        let (game, player) = (&self.game, &mut self.player);
        let mut forward = |cands: &[GoCandidate]| report(&shape(game, cands, &options));
        let mut req = GoRequest {
            tm: &tm,
            report: &mut forward,
            report_every: Some(options.interval()),
        };
        player.analyze(game, color, &mut req);
        while !tm.stop_requested() {
            std::thread::sleep(Duration::from_millis(2));
        }
        self.signal.disarm();
    }

    /// Runs the player's genmove for `color` under the move clock, streaming candidates when
    /// the request asks; returns a decision the rules accept.
    fn decide(&mut self, color: Color, req: &mut GtpRequest<'_>) -> GoDecision {
        let limit = self.move_limit(color);
        self.signal.arm(req.seq);
        let tm = TimeManager::new(&limit, req.at, self.signal.flag());
        let (game, player) = (&self.game, &mut self.player);
        let decision = match req.analysis.as_mut() {
            Some((report, options)) => {
                let options = *options;
                let mut forward = |cands: &[GoCandidate]| report(&shape(game, cands, &options));
                let mut greq = GoRequest {
                    tm: &tm,
                    report: &mut forward,
                    report_every: Some(options.interval()),
                };
                player.genmove(game, color, &mut greq)
            }
            None => {
                let mut ignore = |_: &[GoCandidate]| {};
                let mut greq = GoRequest {
                    tm: &tm,
                    report: &mut ignore,
                    report_every: None,
                };
                player.genmove(game, color, &mut greq)
            }
        };
        self.signal.disarm();
        match decision {
            GoDecision::Play(mv) => match self.game.check(mv, color) {
                Ok(()) => decision,
                Err(e) => {
                    warn!(
                        "level {} chose {mv:?}, which is illegal ({e}); passing instead",
                        self.player.name()
                    );
                    GoDecision::Play(GoMove::Pass)
                }
            },
            GoDecision::Resign => decision,
        }
    }
}

/// A move as a GTP vertex on `game`'s board.
fn vertex_of(game: &GoGame, mv: GoMove) -> Vertex {
    match mv {
        GoMove::Pass => Vertex::Pass,
        GoMove::Play(p) => {
            let (x, y) = game.board().xy(p);
            Vertex::At { x, y }
        }
    }
}

/// The player's candidates as the protocol shows them, best first, cut to `maxmoves`.
fn shape(game: &GoGame, cands: &[GoCandidate], options: &AnalyzeOptions) -> Vec<Candidate> {
    let mut v: Vec<Candidate> = cands
        .iter()
        .map(|c| Candidate {
            vertex: vertex_of(game, c.mv),
            visits: c.visits,
            winrate: c.winrate,
            prior: c.prior,
            score_lead: c.score_lead,
            order: c.order,
            pv: c.pv.iter().map(|&m| vertex_of(game, m)).collect(),
        })
        .collect();
    v.sort_by_key(|c| c.order);
    if let Some(max) = options.max_moves {
        v.truncate(max.max(options.min_moves));
    }
    v
}

impl GtpGame for GoSession {
    fn game(&self) -> &'static str {
        "go"
    }

    fn level(&self) -> &'static str {
        self.player.name()
    }

    fn levels(&self) -> &'static [(&'static str, &'static str)] {
        GO_LEVELS
    }

    fn set_level(&mut self, name: &str) -> GtpResult<()> {
        let p = go_player(name, self.config.seed).ok_or_else(|| unknown_level(name))?;
        info!("level switched to {}", p.name());
        self.player = p;
        self.config.level = Some(name.to_string());
        Ok(())
    }

    fn set_seed(&mut self, seed: u64) {
        self.config.seed = seed;
        self.player.set_seed(seed);
    }

    fn boardsize(&mut self, width: usize, height: usize) -> GtpResult<()> {
        let game = GoGame::new(width, height, *self.game.rules())
            .map_err(|_| UNACCEPTABLE_SIZE.to_string())?;
        self.game = game;
        self.player.new_game();
        Ok(())
    }

    fn clear_board(&mut self) {
        self.game.clear();
        self.player.new_game();
    }

    fn komi(&mut self, komi: f32) {
        self.game.set_komi(komi);
    }

    fn play(&mut self, color: Color, v: Vertex) -> GtpResult<()> {
        let mv = self.go_move(v)?;
        self.game.play(mv, color).map_err(|e| {
            info!("play {color:?} {v:?} refused: {e}");
            ILLEGAL_MOVE.to_string()
        })
    }

    fn genmove(&mut self, color: Color, commit: bool, req: &mut GtpRequest<'_>) -> Genmove {
        let decision = self.decide(color, req);
        match decision {
            GoDecision::Resign => Genmove::Resign,
            GoDecision::Play(mv) => {
                if commit {
                    self.game
                        .play(mv, color)
                        .expect("the decision was checked against the rules");
                    self.clock.used(color, req.at.elapsed());
                }
                Genmove::Move(vertex_of(&self.game, mv))
            }
        }
    }

    fn undo(&mut self) -> GtpResult<()> {
        if self.game.undo() {
            Ok(())
        } else {
            Err(CANNOT_UNDO.to_string())
        }
    }

    fn showboard(&self) -> String {
        format!("\n{}", self.game.board().to_text())
    }

    fn final_score(&mut self) -> GtpResult<Score> {
        let dead = self.dead();
        let lead = score(self.game.board(), &dead, self.game.rules());
        Ok(Score::from_black_lead(lead))
    }
}

/// Four corner-ish points for boards without standard handicap points: 3-3 points from 7x7,
/// 2-2 from 4x4, the corners below.
fn corner_points(w: usize, h: usize) -> Vec<(usize, usize)> {
    let edge = |side: usize| match side {
        13.. => 3,
        7.. => 2,
        4.. => 1,
        _ => 0,
    };
    let (ex, ey) = (edge(w), edge(h));
    let (lo_x, hi_x, lo_y, hi_y) = (ex, w - 1 - ex, ey, h - 1 - ey);
    let mut v = Vec::new();
    for xy in [(hi_x, hi_y), (lo_x, lo_y), (lo_x, hi_y), (hi_x, lo_y)] {
        if !v.contains(&xy) {
            v.push(xy);
        }
    }
    v
}

/// The stones of live groups in seki (see the module notes).
fn seki_stones(game: &GoGame, dead: &HashSet<Point>) -> HashSet<Point> {
    let b = game.board();
    let alive = |p: Point| b.get(p).filter(|_| !dead.contains(&p));
    let neighbours = |p: Point| {
        let (x, y) = b.xy(p);
        let mut v = Vec::with_capacity(4);
        if x > 0 {
            v.extend(b.point(x - 1, y));
        }
        if y > 0 {
            v.extend(b.point(x, y - 1));
        }
        v.extend(b.point(x + 1, y));
        v.extend(b.point(x, y + 1));
        v
    };
    // Empty regions (dead stones count as empty), with the live colours around each.
    let mut region_of = std::collections::HashMap::new();
    let mut regions: Vec<(usize, [bool; 2])> = Vec::new();
    for start in b.points() {
        if alive(start).is_some() || region_of.contains_key(&start) {
            continue;
        }
        let id = regions.len();
        let mut size = 0;
        let mut borders = [false; 2];
        let mut stack = vec![start];
        region_of.insert(start, id);
        while let Some(p) = stack.pop() {
            size += 1;
            for q in neighbours(p) {
                match alive(q) {
                    Some(c) => borders[c.index()] = true,
                    None => {
                        if let std::collections::hash_map::Entry::Vacant(e) = region_of.entry(q) {
                            e.insert(id);
                            stack.push(q);
                        }
                    }
                }
            }
        }
        regions.push((size, borders));
    }
    let mut seki = HashSet::new();
    let mut seen = HashSet::new();
    for p in b.points() {
        let Some(c) = alive(p) else { continue };
        if seen.contains(&p) {
            continue;
        }
        let stones = b.group_stones(p);
        seen.extend(stones.iter().copied());
        let mut touching = HashSet::new();
        for &s in &stones {
            for q in neighbours(s) {
                if let Some(&r) = region_of.get(&q) {
                    touching.insert(r);
                }
            }
        }
        let neutral = touching.iter().any(|&r| regions[r].1 == [true, true]);
        let own: Vec<usize> = touching
            .iter()
            .filter(|&&r| regions[r].1[c.index()] && !regions[r].1[c.opponent().index()])
            .map(|&r| regions[r].0)
            .collect();
        let eye_space: usize = own.iter().sum();
        if neutral && own.len() < 2 && eye_space < SEKI_MAX_EYE_SPACE {
            seki.extend(stones);
        }
    }
    seki
}
