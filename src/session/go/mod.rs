//! Go as a GTP controller drives it: the game (board, history, rules), the clocks, the chosen
//! player and what each command does to them. Commands arrive typed; answers leave typed (or as
//! the GTP error message). Nothing here reads or writes protocol text.
//!
//! Policies decided here (the README repeats them):
//! * **Rules**: area scoring, positional superko, no suicide (the go-engine defaults, what GNU Go
//!   plays with `--chinese-rules --positional-superko`); komi from `komi` (default 7.5).
//!   `kata-set-rules` / `kgs-rules` change them at any time, komi aside (KataGo's rule space
//!   and what we refuse of it: [`crate::rules::go::kata_rules`]): the game so far is replayed
//!   under the new rules and the change is refused, nothing changed, if a move played becomes
//!   illegal (a suicide, or a repetition simple ko let through); the player's tree is dropped.
//!   Counting, dead stones and the players' pass checks follow; `gomill-describe_engine`
//!   names the rules the engine starts with (gomill asks once, before the first game).
//! * **clear_cache** drops the player's search tree only. Our searches seed their playouts
//!   from the position, so a fresh search of the same position gives the same answer (KataGo
//!   re-randomises; we stay deterministic). **stop** has nothing to do: any input line
//!   already ends a ponder or an analysis.
//! * **Pondering** (`--ponder`, `sente-ponder on|off`): after a genmove that played a move,
//!   while the protocol loop has no input waiting, the player searches the position for the
//!   opponent ([`GoSession::ponder`]) until the next line arrives, keeping its tree for the next
//!   genmove; the memory is the tree's cap, the CPU the player's own cap per position
//!   ([`crate::players::go::mcts::MctsParams::ponder_max_playouts`]). Replies never change for it; only the moves of a tree-reusing player do.
//! * **Time**: `--nodes N` fixes the playouts per move and switches the clock off
//!   (deterministic play). Otherwise `time_settings` / `kgs-time_settings` / `time_left` feed
//!   [`GoClock`]; with no time system a move gets [`DEFAULT_MOVE_MS`]. How far past its hard
//!   deadline each `genmove` response actually went out (the protocol loop reports it through
//!   [`GoSession::reply_written`]) widens the next moves' margin ([`Lateness`]).
//! * **genmove** plays what the player decides; a player answer that the rules refuse is
//!   replaced by `pass` (logged). `resign` is answered as is and nothing is played.
//!   `reg_genmove` decides the same way but plays nothing and never resigns (a player that
//!   does gets `pass`). `kgs-genmove_cleanup` plays on without resigning and captures every
//!   dead stone before it passes ([`GoPlayer::genmove_cleanup`] chooses how). `gomill-genmove_ex <colour> claim`
//!   decides the same way too, but answers `claim` and plays nothing when the player found the
//!   game won beyond doubt ([`GoPlayer::certain_win`]).
//! * **Ownership** (`sente-ownership`, for GoGui's analyze menu): the player's Monte Carlo
//!   ownership of every point, and black's expected area margin.
//! * **Scoring**: `final_score` and `final_status_list` ask the player for dead stones (Monte
//!   Carlo ownership) and count with [`crate::rules::go::score()`]. `seki` lists the groups
//!   [`crate::rules::go::seki::seki_stones`] finds.
//! * **Handicap**: only on an empty board (`board not empty`). `place_free_handicap n` uses the
//!   fixed points when the board has them (clamped to the most it allows), corner points
//!   ([`crate::rules::go::game::corner_points`]) otherwise; it may place fewer than `n`, as the spec allows.
//! * **loadsgf**: the file is replayed on a fresh game (set-up nodes through
//!   [`GoGame::edit_position`], `PL` through [`GoGame::set_to_move`]); any failure leaves the
//!   current game as it was and answers `cannot load file: <why>` (what [`sgf::read_file`] and
//!   [`sgf::read_record`] refuse, or the first event that does not apply).
//! * **Analysis** (`lz-analyze`, `kata-analyze`) runs until the next input line (or end of
//!   input), however early the player finishes. With `ownership true` each report carries the
//!   player's ownership map, turned here into the protocol's order (row by row from the top
//!   left) and the analysed colour's point of view (see
//!   [`crate::session::gtp_game::CandidateSink`]).
//!
//! The session's jobs, one file each: counting and dead stones (`scoring.rs`), handicap and
//! `loadsgf` (`setup.rs`), streaming analysis (`analysis.rs`), the clocks (`clock.rs`) and the
//! SGF reader (`sgf.rs`).

mod analysis;
pub mod clock;
pub mod scoring;
mod setup;
pub mod sgf;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use log::{info, warn};

use crate::players::{go_player, GoDecision, GoPlayer, GoRequest, GO_LEVELS};
use crate::rules::go::kata_rules::KataRules;
use crate::rules::go::{
    move_name, GoGame, GoMove, GoRules, HandicapBonus, KoRule, Point, Scoring, Tax,
};
use crate::rules::Color;
use crate::search::clock::{GameClock, Lateness, SearchLimit, TimeManager};
use crate::search::mcts::Candidate;
use crate::search::move_filter::NO_FILTER;
use crate::session::gtp_game::{
    FinalScore, Genmove, GtpGame, GtpRequest, GtpResult, TimeSystem, Vertex, CANNOT_UNDO,
    ILLEGAL_MOVE, OFF_BOARD, UNACCEPTABLE_SIZE,
};
use crate::session::StopSignal;
use analysis::{forward_report, move_filter};
use clock::{moves_to_go, phase_moves_to_go, GoClock};

/// Time per move when no time system was given and no `--nodes` budget.
pub const DEFAULT_MOVE_MS: u64 = 5_000;
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
    /// Search threads (0 counts as 1).
    pub threads: usize,
    /// Think on the opponent's time (`--ponder`; `sente-ponder on|off` switches it).
    pub ponder: bool,
    /// Share main time by the game's phase, most in the middle game (`--time-middle`,
    /// [`phase_moves_to_go`]) rather than evenly.
    pub time_middle: bool,
}

/// A Go game under a GTP controller.
pub struct GoSession {
    game: GoGame,
    player: Box<dyn GoPlayer>,
    config: GoConfig,
    clock: GoClock,
    signal: Arc<StopSignal>,
    /// The last genmove's request time and hard deadline, until its response is written.
    pending_reply: Option<(Instant, Option<Duration>)>,
    /// How late responses went out recently (extra safety margin).
    lateness: Lateness,
    /// The position our last played genmove left (moves played, board hash), while it may
    /// still be pondered: the opponent has not answered and no ponder has run out.
    ponder_from: Option<(usize, u64)>,
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
        let mut player = go_player(&name, config.seed).ok_or_else(|| unknown_level(&name))?;
        player.set_threads(config.threads.max(1));
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
            pending_reply: None,
            lateness: Lateness::default(),
            ponder_from: None,
        }
    }

    /// The protocol loop wrote the response to the last genmove at `at`: learn how late it was.
    pub fn reply_written(&mut self, at: Instant) {
        if let Some((start, hard)) = self.pending_reply.take() {
            let took = at.saturating_duration_since(start);
            self.lateness.observe(hard, took);
            log::debug!(
                "genmove answered {} ms after the request (hard deadline {:?} ms); lag margin \
                 now {} ms",
                took.as_millis(),
                hard.map(|h| h.as_millis()),
                self.lateness.lag_ms()
            );
        }
    }

    /// Whether pondering is on (`--ponder`, `sente-ponder`).
    pub fn ponder_enabled(&self) -> bool {
        self.config.ponder
    }

    /// `sente-ponder on|off`.
    pub fn set_ponder(&mut self, on: bool) {
        self.config.ponder = on;
        info!("pondering {}", if on { "on" } else { "off" });
    }

    /// Whether [`GoSession::ponder`] has something to do: pondering is on, and the position is
    /// still the one our last genmove left, with the game not over.
    pub fn wants_ponder(&self) -> bool {
        self.config.ponder
            && self.ponder_from == Some(self.position_key())
            && self.game.consecutive_passes() < 2
    }

    fn position_key(&self) -> (usize, u64) {
        (self.game.moves().len(), self.game.board().hash())
    }

    /// Thinks on the opponent's time until `stop` is raised (the protocol loop raises it on
    /// the next input line) or the player's cap; the player keeps its tree for the
    /// next genmove. Nothing is written, the game does not change: no reply depends on
    /// whether a ponder ran, only the moves of a player that reuses its tree. A ponder that
    /// ran out is not started again in this position.
    pub fn ponder(&mut self, stop: &AtomicBool) {
        if !self.wants_ponder() {
            return;
        }
        // Cleared while it runs: a ponder that panics is not retried.
        let key = self.ponder_from.take();
        let color = self.game.to_move();
        self.player.ponder(&self.game, color, stop);
        if stop.load(Ordering::Relaxed) {
            self.ponder_from = key;
        }
    }

    /// The game.
    pub fn game(&self) -> &GoGame {
        &self.game
    }

    /// `gomill-explain_last_move`: the player's words on its last genmove (empty before the
    /// first one of a game). Undefined, as gomill says, once the board changed since.
    pub fn explain_last_move(&self) -> String {
        self.player.explain_last_move()
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
        let board = self.game.board();
        let empty = board.empty_points().len();
        let share = if self.config.time_middle {
            phase_moves_to_go(empty, board.width() * board.height())
        } else {
            moves_to_go(empty)
        };
        let mut clock = self.clock.game_clock(color, share).unwrap_or(GameClock {
            turn_ms: Some(DEFAULT_MOVE_MS),
            ..GameClock::default()
        });
        clock.lag_ms = self.lateness.lag_ms();
        SearchLimit {
            clock,
            ..SearchLimit::default()
        }
    }

    /// `time_settings` / `kgs-time_settings`.
    pub fn time_settings(&mut self, system: TimeSystem) {
        self.clock = GoClock::new(system);
    }

    /// `time_left color seconds stones`.
    pub fn time_left(&mut self, color: Color, seconds: f64, stones: u64) {
        self.clock.time_left(color, seconds, stones);
    }

    /// `get_komi`: the komi in force (without white's handicap bonus).
    pub fn komi_in_force(&self) -> f32 {
        self.game.rules().komi
    }

    /// `is_legal COLOR VERTEX`: whether `color` may play `v` now under the rules in force (a
    /// pass always); a vertex off the board is refused as `play` refuses it.
    pub fn is_legal(&self, color: Color, v: Vertex) -> Result<bool, String> {
        Ok(self.game.check(self.go_move(v)?, color).is_ok())
    }

    /// `kata-list-params`: the names of the playing level's tunable settings (`sente params`
    /// gives their ranges); a level chosen later starts from its defaults.
    pub fn param_names(&self) -> Vec<&'static str> {
        self.player.params().iter().map(|t| t.name).collect()
    }

    /// `kata-get-param NAME`.
    pub fn get_param(&self, name: &str) -> Result<String, String> {
        self.player
            .get_param(name)
            .ok_or_else(|| self.unknown_param(name))
    }

    /// `kata-set-param NAME VALUE`: refused, with nothing changed, for a name the level does
    /// not have or a value outside the setting's range.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), String> {
        match self.player.set_param(name, value) {
            Some(result) => result,
            None => Err(self.unknown_param(name)),
        }
    }

    /// Why a parameter name is refused: the playing level has none of that name.
    fn unknown_param(&self, name: &str) -> String {
        format!("unknown parameter {name} of {}", self.player.name())
    }

    /// `kata-get-rules`: the rules in force in KataGo's terms.
    pub fn rules(&self) -> KataRules {
        KataRules::of(self.game.rules())
    }

    /// `kata-set-rules` / `kgs-rules`: plays on under `rules`, komi unchanged. Refused, with
    /// nothing changed, when we cannot play them or when a move already played is illegal
    /// under them (the game is replayed to check, as KataGo does). The search's tree is
    /// dropped: it may hold moves the new rules forbid.
    pub fn set_rules(&mut self, rules: KataRules) -> GtpResult<()> {
        let rules = rules.to_go_rules(self.game.rules().komi)?;
        if rules == *self.game.rules() {
            return Ok(());
        }
        let game = self.game.replayed_under(rules).map_err(|(i, e)| {
            let (mv, color) = self.game.moves()[i];
            format!(
                "cannot change the rules: move {} ({} {}) would be illegal under them \
                 ({e}); rules unchanged",
                i + 1,
                color.name(),
                move_name(self.game.board(), mv)
            )
        })?;
        info!("rules changed to {:?}", rules);
        self.game = game;
        self.player.clear_cache();
        Ok(())
    }

    /// `clear_cache`: the player forgets its search tree; the game stays.
    pub fn clear_cache(&mut self) {
        self.player.clear_cache();
    }

    /// `gomill-genmove_ex <colour> [keywords]`: genmove, except that with `claim` allowed the
    /// answer is `claim` (and nothing is played) when the player found the game won beyond
    /// doubt ([`GoPlayer::certain_win`]).
    pub fn genmove_ex(
        &mut self,
        color: Color,
        may_claim: bool,
        req: &mut GtpRequest<'_>,
    ) -> Genmove {
        let decision = self.decide(color, Ask::Genmove, req);
        if may_claim && matches!(decision, GoDecision::Play(_)) && self.player.certain_win() {
            info!("claiming the win for {}", color.name());
            return Genmove::Claim;
        }
        self.answer(color, decision, true, req)
    }

    /// What a decision becomes: `resign`, or the move answered and, when `commit`, played. The
    /// rules judge the player's move here, once (by playing it, or by checking it when nothing
    /// is played); one they refuse is replaced by `pass` (logged).
    fn answer(
        &mut self,
        color: Color,
        decision: GoDecision,
        commit: bool,
        req: &GtpRequest<'_>,
    ) -> Genmove {
        let GoDecision::Play(chosen) = decision else {
            return Genmove::Resign;
        };
        let judged = if commit {
            self.game.play(chosen, color)
        } else {
            self.game.check(chosen, color)
        };
        let mv = match judged {
            Ok(()) => chosen,
            Err(e) => {
                warn!(
                    "level {} chose {}, which is illegal ({e}); passing instead",
                    self.player.name(),
                    move_name(self.game.board(), chosen)
                );
                if commit {
                    self.game
                        .play(GoMove::Pass, color)
                        .expect("a pass is always legal");
                }
                GoMove::Pass
            }
        };
        if commit {
            self.clock.used(color, req.at.elapsed());
            self.ponder_from = Some(self.position_key());
        }
        Genmove::Move(vertex_of(&self.game, mv))
    }

    /// Runs the player's genmove for `color` under the move clock (`ask` says which: its
    /// `reg_genmove` leaves no trace), streaming candidates when the request asks; returns its
    /// decision, never `resign` unless `ask` is [`Ask::Genmove`] (the rules judge its move in
    /// [`GoSession::answer`]).
    fn decide(&mut self, color: Color, ask: Ask<'_>, req: &mut GtpRequest<'_>) -> GoDecision {
        let limit = self.move_limit(color);
        self.signal.arm(req.seq);
        let tm = TimeManager::new(&limit, req.at, self.signal.flag());
        let (game, player) = (&self.game, &mut self.player);
        let ask_player = |p: &mut Box<dyn GoPlayer>,
                          g: &GoGame,
                          c: Color,
                          r: &mut GoRequest<'_, '_>| match ask {
            Ask::Genmove => p.genmove(g, c, r),
            Ask::Reg => p.reg_genmove(g, c, r),
            Ask::Cleanup(dead) => p.genmove_cleanup(g, c, dead, r),
        };
        let decision = match req.analysis.as_mut() {
            Some((report, options)) => {
                let options = &*options;
                let filter = move_filter(game, &options.move_rules);
                let mut forward = |cands: &[Candidate<GoMove>], own: Option<&[f32]>| {
                    forward_report(game, color, options, cands, own, *report)
                };
                let mut greq = GoRequest {
                    tm: &tm,
                    report: &mut forward,
                    report_every: Some(options.interval()),
                    ownership: options.ownership,
                    filter: &filter,
                };
                ask_player(player, game, color, &mut greq)
            }
            None => {
                let mut ignore = |_: &[Candidate<GoMove>], _: Option<&[f32]>| {};
                let mut greq = GoRequest {
                    tm: &tm,
                    report: &mut ignore,
                    report_every: None,
                    ownership: false,
                    filter: &NO_FILTER,
                };
                ask_player(player, game, color, &mut greq)
            }
        };
        self.signal.disarm();
        self.pending_reply = Some((req.at, tm.hard_limit()));
        match decision {
            GoDecision::Play(_) => decision,
            GoDecision::Resign if ask == Ask::Genmove => decision,
            GoDecision::Resign => {
                warn!(
                    "level {} resigned where it was asked for a move; passing instead",
                    self.player.name()
                );
                GoDecision::Play(GoMove::Pass)
            }
        }
    }

    /// `kgs-genmove_cleanup <colour>`: the cleanup phase of KGS and OGS bridges, sent when
    /// the players disagree on dead stones. The opponent's stones that the player's estimate
    /// ([`GoPlayer::dead_stones`]) calls dead go to [`GoPlayer::genmove_cleanup`], which
    /// chooses the move (captures first, never a pass while one is left); never resigns.
    pub fn genmove_cleanup(&mut self, color: Color, req: &mut GtpRequest<'_>) -> Genmove {
        let dead: Vec<Point> = self
            .dead()
            .into_iter()
            .filter(|&p| self.game.board().get(p) == Some(color.opponent()))
            .collect();
        let decision = self.decide(color, Ask::Cleanup(&dead), req);
        self.answer(color, decision, true, req)
    }
}

/// Which of the player's move methods a genmove-like command asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask<'d> {
    /// `genmove`: play the move; resigning allowed.
    Genmove,
    /// `reg_genmove`: the best move, not played, no trace, never `resign`.
    Reg,
    /// Cleanup with these of the opponent's stones dead: play the move, never `resign`.
    Cleanup(&'d [Point]),
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

/// The board's points row by row from the top left to the bottom right: the order of GoGui's
/// INFLUENCE maps and KataGo's ownership.
fn rows_from_top(game: &GoGame) -> impl Iterator<Item = Point> + '_ {
    let b = game.board();
    (0..b.height())
        .rev()
        .flat_map(move |y| (0..b.width()).filter_map(move |x| b.point(x, y)))
}

impl GtpGame for GoSession {
    fn level(&self) -> &'static str {
        self.player.name()
    }

    fn set_level(&mut self, name: &str) -> GtpResult<()> {
        let mut p = go_player(name, self.config.seed).ok_or_else(|| unknown_level(name))?;
        p.set_threads(self.config.threads.max(1));
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
        self.player.new_game(&self.game);
        Ok(())
    }

    fn clear_board(&mut self) {
        self.game.clear();
        self.player.new_game(&self.game);
    }

    fn komi(&mut self, komi: f32) {
        self.game.set_komi(komi);
    }

    fn play(&mut self, color: Color, v: Vertex) -> GtpResult<()> {
        let mv = self.go_move(v)?;
        self.game.play(mv, color).map_err(|e| {
            warn!("play {} {v} refused: {e}", color.name());
            ILLEGAL_MOVE.to_string()
        })
    }

    fn genmove(&mut self, color: Color, commit: bool, req: &mut GtpRequest<'_>) -> Genmove {
        let ask = if commit { Ask::Genmove } else { Ask::Reg };
        let decision = self.decide(color, ask, req);
        self.answer(color, decision, commit, req)
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

    fn final_score(&mut self) -> GtpResult<FinalScore> {
        Ok(self.count())
    }

    /// gomill asks once per run, before the first `boardsize`, and copies the answer into every
    /// game record: so the game line says what the engine starts with and leaves the board
    /// size, komi and rules of each game to the records themselves.
    fn describe(&self) -> Vec<String> {
        let r = GoRules::default();
        let scoring = match r.scoring {
            Scoring::Area => "area scoring",
            Scoring::Territory => "territory scoring",
        };
        let ko = match r.ko {
            KoRule::Simple => "simple ko",
            KoRule::PositionalSuperko => "positional superko",
            KoRule::SituationalSuperko => "situational superko",
        };
        let suicide = if r.suicide {
            "suicide allowed"
        } else {
            "no suicide"
        };
        let tax = match r.tax {
            Tax::None => "",
            Tax::Seki => ", no territory in seki",
        };
        let bonus = match r.handicap_bonus {
            HandicapBonus::Zero => "",
            HandicapBonus::NMinusOne => ", white gets N-1 points for N handicap stones",
            HandicapBonus::N => ", white gets N points for N handicap stones",
        };
        let dead = if r.friendly_pass {
            "dead stones lifted before counting"
        } else {
            "every stone on the board counts as alive"
        };
        let time = match self.config.nodes {
            Some(n) => format!("time: {n} playouts per move, clock off"),
            None => format!(
                "time: from time_settings, kgs-time_settings and time_left; {DEFAULT_MOVE_MS} ms \
                 per move when none is given"
            ),
        };
        vec![
            format!(
                "game: Go, board size, komi and rules as the controller sets them; until then \
                 {DEFAULT_SIZE}x{DEFAULT_SIZE}, komi {}, {scoring}{tax}{bonus}, {ko}, {suicide}, \
                 {dead}",
                r.komi
            ),
            format!("level: {}", self.player.describe()),
            format!("seed: {}", self.config.seed),
            time,
        ]
    }
}

#[cfg(test)]
mod tests;
