//! A gomoku-family game as a Gomocup manager drives it: the board (none before `START`), the
//! rule, the `INFO` settings, the chosen player, and what each command does to them. Commands
//! arrive already parsed and typed; answers leave as a typed [`Reply`] that the protocol layer
//! formats. Nothing here reads, writes or parses text.
//!
//! Policies decided here (documented in the README too):
//! * **Bad `INFO` values.** Managers do not read the engine's output while they send `INFO`, so a
//!   complaint (`INFO rule 7`, `INFO timeout_turn abc`, `INFO level nosuch`) is remembered and the
//!   *next move-requesting command* (BEGIN, TURN, BOARD, SWAP2BOARD, YXNBEST, PLAY) is answered
//!   with `ERROR <complaint>` instead of being executed. The complaint is then forgotten.
//! * **BOARD colours.** Own stones (field 1) and opponent stones (field 2) are counted: equal
//!   counts mean we are black, one more opponent stone means we are white; anything else is an
//!   error. Field 3 (continuous-game marker) stones are skipped with a warning: continuous games
//!   are not supported. Stones are applied in the order given (renju managers send move order;
//!   a renju block whose colours do not alternate is accepted with a warning).
//! * **SWAP2.** With 0 stones we propose one of a few balanced three-stone openings near the
//!   centre, picked and oriented by the seeded generator. With 3 or 5 stones we search the
//!   position with white to move: if the player reports a forced loss for white, or a score at or
//!   below [`SWAP_MARGIN`] below zero, we answer `SWAP` (take black); otherwise we stay white and
//!   play the move the search chose.
//! * **YXNBEST** is analysis: it searches and answers the best move but does not play it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use log::{info, warn};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::players::{gomoku_player, GomokuPlayer, MoveRequest, SearchInfo, GOMOKU_LEVELS};
use crate::rules::renju::forbidden;
use crate::rules::{Board, Cell, Color, Pos, Rule};
use crate::search::clock::{GameClock, SearchLimit, TimeManager, UNLIMITED_MS};
use crate::session::StopSignal;

/// Per-move time used when the manager gave no clock, depth or node limit at all, so that a
/// searching player still answers (Gomocup's fast-game limit).
pub const DEFAULT_TURN_MS: u64 = 5_000;

/// SWAP2: answer `SWAP` when white's score is at or below minus this many evaluation units.
pub const SWAP_MARGIN: i32 = 150;

/// The reply to send when a command needs a board and none exists.
pub const NO_GAME: &str = "no game started (send START first)";

/// What the session answers; the protocol layer turns it into text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Say nothing (INFO, YXBOARD, YXSTOP outside a search, ...).
    Nothing,
    /// `OK`.
    Ok,
    /// One move `x,y`.
    Move(usize, usize),
    /// Several moves on one line (SWAP2 opening: `x1,y1 x2,y2 x3,y3`).
    Moves(Vec<(usize, usize)>),
    /// SWAP2: take the other colour.
    Swap,
    /// `ERROR <text>`: a known command that could not be executed.
    Error(String),
    /// `UNKNOWN <text>`: a command we do not know.
    Unknown(String),
    /// `FORBID ...`: black's forbidden points.
    Forbid(Vec<(usize, usize)>),
    /// The ABOUT line.
    About,
}

/// One `INFO key value`, typed. Values the protocol could not parse arrive as [`Setting::Invalid`]
/// so that the session can complain at the right moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    TimeoutTurn(i64),
    TimeoutMatch(i64),
    TimeLeft(i64),
    MaxMemory(i64),
    GameType(i64),
    Rule(i64),
    Folder(String),
    Evaluate(i64, i64),
    MaxDepth(i64),
    MaxNode(i64),
    ThreadNum(i64),
    TimeIncrement(i64),
    /// Our extension: switch player (`INFO level classic`).
    Level(String),
    /// Our extension: reseed every random choice.
    Seed(u64),
    /// A key we do not use; ignored.
    Other { key: String, value: String },
    /// A known key with a value that does not parse.
    Invalid { key: String, value: String },
}

/// One stone line of a BOARD / YXBOARD / SWAP2BOARD block: `x,y,field` or `x,y`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoneLine {
    pub x: i64,
    pub y: i64,
    pub field: Option<i64>,
}

/// Search progress with the principal variation already turned into coordinates.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub mate: Option<i32>,
    pub nodes: u64,
    pub nps: u64,
    pub elapsed: Duration,
    pub pv: Vec<(usize, usize)>,
    pub multipv: usize,
}

/// What a move-requesting command brings along.
pub struct Request<'a> {
    /// Sequence number of the input line that asked (see [`StopSignal`]).
    pub seq: u64,
    /// When that line was read: the clock starts here.
    pub at: Instant,
    /// Receives search progress while the player thinks.
    pub progress: &'a mut dyn FnMut(&Progress),
}

/// Settings from the command line that outrank `INFO`.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// Player level (one of [`GOMOKU_LEVELS`]).
    pub level: String,
    /// Seed for every random choice.
    pub seed: u64,
    /// Fixed node budget per move; when set the clock is ignored (deterministic play).
    pub nodes: Option<u64>,
    /// Depth cap per move.
    pub depth: Option<u32>,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            level: GOMOKU_LEVELS[0].0.to_string(),
            seed: 0,
            nodes: None,
            depth: None,
        }
    }
}

/// The `INFO` values received so far. `None` = not sent.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub timeout_turn: Option<u64>,
    pub timeout_match: Option<u64>,
    pub time_left: Option<i64>,
    pub max_memory: u64,
    pub game_type: Option<i64>,
    pub folder: Option<String>,
    pub evaluate: Option<(i64, i64)>,
    pub max_depth: Option<u32>,
    pub max_node: Option<u64>,
    pub thread_num: Option<u32>,
    pub time_increment: u64,
}

/// One gomoku game under a Gomocup manager.
pub struct GomokuSession {
    board: Option<Board>,
    rule: Rule,
    settings: Settings,
    config: SessionConfig,
    player: Box<dyn GomokuPlayer>,
    complaints: Vec<String>,
    signal: Arc<StopSignal>,
    rng: ChaCha8Rng,
}

impl GomokuSession {
    /// A session with no board yet. An unknown level in `config` falls back to the default one
    /// (the CLI validates levels before getting here).
    pub fn new(config: SessionConfig, signal: Arc<StopSignal>) -> GomokuSession {
        let player = gomoku_player(&config.level, config.seed).unwrap_or_else(|| {
            warn!("unknown level '{}', using the default", config.level);
            gomoku_player(GOMOKU_LEVELS[0].0, config.seed).expect("default level exists")
        });
        GomokuSession {
            board: None,
            rule: Rule::Freestyle,
            settings: Settings::default(),
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            config,
            player,
            complaints: Vec::new(),
            signal,
        }
    }

    /// The current board, if a game was started.
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }
    /// The rule in force.
    pub fn rule(&self) -> Rule {
        self.rule
    }
    /// The `INFO` settings received so far.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }
    /// The current player's level name.
    pub fn level(&self) -> &'static str {
        self.player.name()
    }

    /// `START n`.
    pub fn start(&mut self, size: i64) -> Reply {
        if size == 3 {
            return Reply::Error("tic-tac-toe (START 3) is not supported yet".into());
        }
        self.new_board(size, size)
    }

    /// `RECTSTART w,h`.
    pub fn rect_start(&mut self, width: i64, height: i64) -> Reply {
        self.new_board(width, height)
    }

    /// `RESTART`: a new game on a board of the same size.
    pub fn restart(&mut self) -> Reply {
        match &self.board {
            Some(b) => {
                let (w, h) = (b.width() as i64, b.height() as i64);
                self.new_board(w, h)
            }
            None => Reply::Error(NO_GAME.into()),
        }
    }

    fn new_board(&mut self, width: i64, height: i64) -> Reply {
        let size = |v: i64| usize::try_from(v).unwrap_or(0);
        match Board::new(size(width), size(height), self.rule) {
            Ok(b) => {
                self.board = Some(b);
                self.player.new_game();
                Reply::Ok
            }
            Err(e) => Reply::Error(e.to_string()),
        }
    }

    /// `INFO key value`: never answered; bad values become a complaint for the next move request.
    pub fn info(&mut self, setting: Setting) {
        let s = &mut self.settings;
        match setting {
            Setting::TimeoutTurn(v) => match u64::try_from(v) {
                Ok(v) => s.timeout_turn = Some(v),
                Err(_) => self.complain(format!("INFO timeout_turn {v}: must not be negative")),
            },
            Setting::TimeoutMatch(v) => match u64::try_from(v) {
                Ok(v) => s.timeout_match = Some(v),
                Err(_) => self.complain(format!("INFO timeout_match {v}: must not be negative")),
            },
            Setting::TimeLeft(v) => s.time_left = Some(v),
            Setting::MaxMemory(v) => match u64::try_from(v) {
                Ok(v) => {
                    s.max_memory = v;
                    self.player.set_memory_limit(v);
                }
                Err(_) => self.complain(format!("INFO max_memory {v}: must not be negative")),
            },
            Setting::GameType(v) => s.game_type = Some(v),
            Setting::Rule(v) => match Rule::from_gomocup(v) {
                Some(rule) => self.set_rule(rule),
                None => self.complain(format!(
                    "INFO rule {v}: unsupported rule (supported: 0 freestyle, 1 standard, \
                     4 renju, 8 caro, 9 caro with exact five; +2 continuous is ignored)"
                )),
            },
            Setting::Folder(f) => s.folder = Some(f),
            Setting::Evaluate(x, y) => s.evaluate = Some((x, y)),
            // 0 means "no limit" for both, as c-gomoku-cli uses it.
            Setting::MaxDepth(v) => match u32::try_from(v) {
                Ok(v) => s.max_depth = (v > 0).then_some(v),
                Err(_) => self.complain(format!("INFO max_depth {v}: out of range")),
            },
            Setting::MaxNode(v) => match u64::try_from(v) {
                Ok(v) => s.max_node = (v > 0).then_some(v),
                Err(_) => self.complain(format!("INFO max_node {v}: must not be negative")),
            },
            Setting::ThreadNum(v) => match u32::try_from(v) {
                Ok(v) => s.thread_num = Some(v),
                Err(_) => self.complain(format!("INFO thread_num {v}: out of range")),
            },
            Setting::TimeIncrement(v) => match u64::try_from(v) {
                Ok(v) => s.time_increment = v,
                Err(_) => self.complain(format!("INFO time_increment {v}: must not be negative")),
            },
            Setting::Level(name) => match gomoku_player(&name, self.config.seed) {
                Some(mut p) => {
                    if self.settings.max_memory > 0 {
                        p.set_memory_limit(self.settings.max_memory);
                    }
                    info!("level switched to {}", p.name());
                    self.player = p;
                    self.config.level = name;
                }
                None => {
                    let known: Vec<&str> = GOMOKU_LEVELS.iter().map(|l| l.0).collect();
                    self.complain(format!(
                        "INFO level {name}: unknown level (known: {})",
                        known.join(", ")
                    ))
                }
            },
            Setting::Seed(seed) => {
                self.config.seed = seed;
                self.player.set_seed(seed);
                self.rng = ChaCha8Rng::seed_from_u64(seed);
            }
            Setting::Other { key, value } => info!("ignoring INFO {key} {value}"),
            Setting::Invalid { key, value } => {
                self.complain(format!("INFO {key} {value}: value does not parse"))
            }
        }
    }

    fn complain(&mut self, text: String) {
        warn!("{text} (reported on the next move request)");
        self.complaints.push(text);
    }

    /// Takes the pending complaint, if any, as the reply to a move request.
    fn pending_complaint(&mut self) -> Option<Reply> {
        if self.complaints.is_empty() {
            return None;
        }
        let text = self.complaints.join("; ");
        self.complaints.clear();
        Some(Reply::Error(text))
    }

    /// Rebuilds the current board under `rule`, keeping its stones and side to move.
    fn set_rule(&mut self, rule: Rule) {
        self.rule = rule;
        if let Some(old) = &self.board {
            if old.rule() == rule {
                return;
            }
            let mut b = Board::new(old.width(), old.height(), rule).expect("same size as before");
            for &(p, c) in old.history() {
                b.place(p, c);
            }
            b.set_to_move(old.to_move());
            self.board = Some(b);
        }
    }

    /// `BEGIN`: we play first on the empty board.
    pub fn begin(&mut self, req: &mut Request<'_>) -> Reply {
        let Some(stones) = self.board.as_ref().map(Board::stones) else {
            return Reply::Error(NO_GAME.into());
        };
        if let Some(r) = self.pending_complaint() {
            return r;
        }
        if stones > 0 {
            return Reply::Error("BEGIN needs an empty board (use BOARD to set a position)".into());
        }
        self.our_move(req)
    }

    /// `TURN x,y`: the opponent played there; we answer.
    pub fn turn(&mut self, x: i64, y: i64, req: &mut Request<'_>) -> Reply {
        if self.board.is_none() {
            return Reply::Error(NO_GAME.into());
        }
        if let Some(r) = self.pending_complaint() {
            return r;
        }
        let board = self.board.as_mut().expect("checked above");
        match board.pos(x, y) {
            None => return Reply::Error(format!("TURN {x},{y}: point is off the board")),
            Some(p) => {
                if let Err(e) = board.play(p) {
                    return Reply::Error(format!("TURN {x},{y}: {e}"));
                }
            }
        }
        self.our_move(req)
    }

    /// `PLAY x,y`: play our stone (the side to move) there and echo it.
    pub fn play(&mut self, x: i64, y: i64) -> Reply {
        if self.board.is_none() {
            return Reply::Error(NO_GAME.into());
        }
        if let Some(r) = self.pending_complaint() {
            return r;
        }
        let board = self.board.as_mut().expect("checked above");
        match board.pos(x, y) {
            None => Reply::Error(format!("PLAY {x},{y}: point is off the board")),
            Some(p) => match board.play(p) {
                Ok(_) => Reply::Move(x as usize, y as usize),
                Err(e) => Reply::Error(format!("PLAY {x},{y}: {e}")),
            },
        }
    }

    /// `TAKEBACK x,y`: remove that stone.
    pub fn takeback(&mut self, x: i64, y: i64) -> Reply {
        let Some(board) = &mut self.board else {
            return Reply::Error(NO_GAME.into());
        };
        match board.pos(x, y) {
            None => Reply::Error(format!("TAKEBACK {x},{y}: point is off the board")),
            Some(p) => match board.remove(p) {
                Some(_) => Reply::Ok,
                None => Reply::Error(format!("TAKEBACK {x},{y}: no stone there")),
            },
        }
    }

    /// `BOARD ... DONE` (`think` = true: answer our move) or `YXBOARD ... DONE` (no answer).
    pub fn set_board(&mut self, stones: &[StoneLine], think: bool, req: &mut Request<'_>) -> Reply {
        if self.board.is_none() {
            return Reply::Error(NO_GAME.into());
        }
        if think {
            if let Some(r) = self.pending_complaint() {
                return r;
            }
        }
        match self.position_from(stones) {
            Ok(b) => self.board = Some(b),
            Err(e) => {
                let cmd = if think { "BOARD" } else { "YXBOARD" };
                return if think {
                    Reply::Error(format!("{cmd}: {e}"))
                } else {
                    // YXBOARD has no reply to carry the error; the log does.
                    warn!("{cmd} refused: {e}");
                    Reply::Nothing
                };
            }
        }
        if think {
            self.our_move(req)
        } else {
            Reply::Nothing
        }
    }

    /// The board a BOARD block describes, built on a fresh board so that a bad block changes
    /// nothing.
    fn position_from(&self, stones: &[StoneLine]) -> Result<Board, String> {
        let old = self.board.as_ref().ok_or(NO_GAME)?;
        let mut b = Board::new(old.width(), old.height(), self.rule).map_err(|e| e.to_string())?;
        let mut own = 0;
        let mut opp = 0;
        for s in stones {
            match s.field {
                Some(1) => own += 1,
                Some(2) => opp += 1,
                Some(3) => {}
                Some(f) => {
                    return Err(format!(
                        "stone {},{},{f}: the field must be 1 (own), 2 (opponent) or 3",
                        s.x, s.y
                    ))
                }
                None => return Err(format!("stone {},{}: missing field", s.x, s.y)),
            }
        }
        let ours = if own == opp {
            Color::Black
        } else if opp == own + 1 {
            Color::White
        } else {
            return Err(format!(
                "{own} own and {opp} opponent stones: own must equal opponent (we are black) \
                 or be one fewer (we are white)"
            ));
        };
        for s in stones {
            let color = match s.field {
                Some(1) => ours,
                Some(2) => ours.opponent(),
                _ => {
                    warn!("BOARD: skipping continuous-game marker {},{},3", s.x, s.y);
                    continue;
                }
            };
            let p = b
                .pos(s.x, s.y)
                .ok_or_else(|| format!("stone {},{}: point is off the board", s.x, s.y))?;
            if !b.is_empty(p) {
                return Err(format!("stone {},{}: point is occupied", s.x, s.y));
            }
            b.place(p, color);
        }
        if self.rule.renju() {
            let alternates = b
                .history()
                .iter()
                .enumerate()
                .all(|(i, &(_, c))| c == if i % 2 == 0 { Color::Black } else { Color::White });
            if !alternates {
                warn!("renju BOARD not in move order (colours do not alternate); accepted as is");
            }
        }
        b.set_to_move(ours);
        Ok(b)
    }

    /// `SWAP2BOARD ... DONE` with 0, 3 or 5 stones (black, white, black, white, black).
    pub fn swap2(&mut self, stones: &[StoneLine], req: &mut Request<'_>) -> Reply {
        let Some((w, h)) = self.board.as_ref().map(|b| (b.width(), b.height())) else {
            return Reply::Error(NO_GAME.into());
        };
        if let Some(r) = self.pending_complaint() {
            return r;
        }
        if ![0, 3, 5].contains(&stones.len()) {
            return Reply::Error(format!(
                "SWAP2BOARD takes 0, 3 or 5 stones, got {}",
                stones.len()
            ));
        }
        let mut b = Board::new(w, h, self.rule).expect("same size as before");
        for s in stones {
            let Some(p) = b.pos(s.x, s.y) else {
                return Reply::Error(format!("SWAP2BOARD: stone {},{} is off the board", s.x, s.y));
            };
            if !b.is_empty(p) {
                return Reply::Error(format!("SWAP2BOARD: stone {},{} is occupied", s.x, s.y));
            }
            b.play_unchecked(p);
        }
        if stones.is_empty() {
            let moves = self.swap2_opening(&b);
            for &(x, y) in &moves {
                let p = b.pos(x as i64, y as i64).expect("opening fits the board");
                b.play_unchecked(p);
            }
            self.board = Some(b);
            return Reply::Moves(moves);
        }
        self.board = Some(b);
        let (choice, last) = match self.search(req, 1) {
            Ok(found) => found,
            Err(reply) => return reply,
        };
        let white_lost = last
            .as_ref()
            .is_some_and(|i| i.mate.is_some_and(|m| m < 0) || i.score <= -SWAP_MARGIN);
        if white_lost {
            info!("SWAP2: white scores {:?}; taking black", last.map(|i| i.score));
            return Reply::Swap;
        }
        self.play_ours(choice)
    }

    /// Three opening stones (black, white, black) near the centre: one of a few shapes that are
    /// known to be roughly balanced, in a random orientation and a random spot next to the centre.
    fn swap2_opening(&mut self, b: &Board) -> Vec<(usize, usize)> {
        // Offsets from the centre; none of them gives black a line of two in a row with white
        // far away, and white always touches black.
        const SHAPES: &[[(i64, i64); 3]] = &[
            [(0, 0), (1, -1), (2, 1)],
            [(0, 0), (0, 1), (2, -1)],
            [(0, 0), (-1, 1), (2, 2)],
            [(0, 0), (1, 0), (-1, 2)],
            [(0, 0), (1, 1), (0, 2)],
            [(0, 0), (1, 1), (-1, 2)],
        ];
        let (cx, cy) = (b.width() as i64 / 2, b.height() as i64 / 2);
        let mut shapes: Vec<&[(i64, i64); 3]> = SHAPES.iter().collect();
        shapes.shuffle(&mut self.rng);
        for shape in shapes {
            let sym = self.rng.gen_range(0..8);
            let (dx, dy) = (self.rng.gen_range(-1..=1), self.rng.gen_range(-1..=1));
            for shift in [(dx, dy), (0, 0)] {
                let pts: Vec<(i64, i64)> = shape
                    .iter()
                    .map(|&(x, y)| {
                        let (x, y) = symmetry(sym, x, y);
                        (cx + shift.0 + x, cy + shift.1 + y)
                    })
                    .collect();
                if pts.iter().all(|&(x, y)| b.pos(x, y).is_some()) {
                    return pts.iter().map(|&(x, y)| (x as usize, y as usize)).collect();
                }
            }
        }
        // Every board is at least 5x5, so the first shape always fits at the centre.
        vec![
            (cx as usize, cy as usize),
            (cx as usize + 1, cy as usize),
            (cx as usize, cy as usize + 1),
        ]
    }

    /// `YXSHOWFORBID`: black's forbidden points under renju; none under other rules.
    pub fn show_forbid(&self) -> Reply {
        let Some(b) = &self.board else {
            return Reply::Error(NO_GAME.into());
        };
        if !self.rule.renju() {
            return Reply::Forbid(Vec::new());
        }
        let points = b
            .empty_points()
            .filter(|&p| forbidden(b, p).is_some())
            .map(|p| b.xy(p))
            .collect();
        Reply::Forbid(points)
    }

    /// `YXNBEST n`: search reporting the `n` best moves; answer the best without playing it.
    pub fn nbest(&mut self, n: i64, req: &mut Request<'_>) -> Reply {
        if self.board.is_none() {
            return Reply::Error(NO_GAME.into());
        }
        if let Some(r) = self.pending_complaint() {
            return r;
        }
        let n = n.clamp(1, 64) as usize;
        match self.search(req, n) {
            Ok((p, _)) => {
                let (x, y) = self.board.as_ref().expect("checked").xy(p);
                Reply::Move(x, y)
            }
            Err(reply) => reply,
        }
    }

    /// Searches for the side to move and plays the chosen move as ours.
    fn our_move(&mut self, req: &mut Request<'_>) -> Reply {
        match self.search(req, 1) {
            Ok((p, _)) => self.play_ours(p),
            Err(reply) => reply,
        }
    }

    fn play_ours(&mut self, p: Pos) -> Reply {
        let board = self.board.as_mut().expect("searched a board");
        let (x, y) = board.xy(p);
        match board.play(p) {
            Ok(_) => Reply::Move(x, y),
            Err(e) => Reply::Error(format!("internal: our move {x},{y} was refused: {e}")),
        }
    }

    /// The limit for the next search, from the CLI and the `INFO` values.
    pub fn limit(&self) -> SearchLimit {
        let s = &self.settings;
        let nodes = self.config.nodes.or(s.max_node);
        let depth = self.config.depth.or(s.max_depth);
        if self.config.nodes.is_some() {
            // A fixed node budget is the deterministic mode: the clock would make it vary.
            return SearchLimit {
                depth,
                nodes,
                clock: GameClock::default(),
            };
        }
        let left_ms = s.time_left.filter(|&l| l < UNLIMITED_MS);
        let mut turn_ms = s.timeout_turn;
        if turn_ms.is_none() && left_ms.is_none() && nodes.is_none() && depth.is_none() {
            turn_ms = Some(DEFAULT_TURN_MS);
        }
        SearchLimit {
            depth,
            nodes,
            clock: GameClock {
                turn_ms,
                left_ms,
                moves_to_go: None,
                increment_ms: s.time_increment,
            },
        }
    }

    /// Runs the player on the current board for the side to move. Returns a legal move and the
    /// last progress report, or the reply to send when there is nothing to play.
    fn search(
        &mut self,
        req: &mut Request<'_>,
        nbest: usize,
    ) -> Result<(Pos, Option<SearchInfo>), Reply> {
        let limit = self.limit();
        let board = self.board.as_ref().ok_or(Reply::Error(NO_GAME.into()))?;
        if board.winner().is_some() {
            return Err(Reply::Error("the game is already over".into()));
        }
        self.signal.arm(req.seq);
        let tm = TimeManager::new(&limit, req.at, self.signal.flag());
        let mut last: Option<SearchInfo> = None;
        let progress = &mut *req.progress;
        let mut report = |i: &SearchInfo| {
            if i.multipv <= 1 {
                last = Some(i.clone());
            }
            progress(&to_progress(board, i));
        };
        let mut mr = MoveRequest {
            tm: &tm,
            nbest,
            report: &mut report,
        };
        let choice = self.player.choose(board, &mut mr);
        self.signal.disarm();
        let legal = |p: Pos| on_board(board, p) && board.check(p).is_ok();
        match choice {
            Some(p) if legal(p) => Ok((p, last)),
            other => {
                if let Some(p) = other {
                    warn!(
                        "player {} chose an illegal point {:?}; using a fallback",
                        self.player.name(),
                        p
                    );
                }
                match board.empty_points().find(|&p| board.check(p).is_ok()) {
                    Some(p) => Ok((p, last)),
                    None => Err(Reply::Error("no legal move".into())),
                }
            }
        }
    }
}

/// Whether `p` is a point of `b` (and not a wall or out of the array).
fn on_board(b: &Board, p: Pos) -> bool {
    p.idx() < b.array_len() && b.cell(p) != Cell::Wall
}

fn to_progress(b: &Board, i: &SearchInfo) -> Progress {
    Progress {
        depth: i.depth,
        seldepth: i.seldepth,
        score: i.score,
        mate: i.mate,
        nodes: i.nodes,
        nps: i.nps(),
        elapsed: i.elapsed,
        pv: i
            .pv
            .iter()
            .take_while(|&&p| on_board(b, p))
            .map(|&p| b.xy(p))
            .collect(),
        multipv: i.multipv.max(1),
    }
}

/// The eight symmetries of the square applied to an offset.
fn symmetry(k: u32, x: i64, y: i64) -> (i64, i64) {
    let (x, y) = if k & 4 != 0 { (y, x) } else { (x, y) };
    let x = if k & 1 != 0 { -x } else { x };
    let y = if k & 2 != 0 { -y } else { y };
    (x, y)
}
