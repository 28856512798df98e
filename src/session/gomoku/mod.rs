//! A gomoku-family game as a Gomocup manager drives it: the board (none before `START`), the
//! rule, the `INFO` settings, the chosen player, and what each command does to them. Commands
//! arrive already parsed and typed; answers leave as a typed [`Reply`] that the protocol layer
//! formats. Nothing here reads, writes or parses text.
//!
//! Policies decided here (documented in the README too):
//! * **Bad `INFO` values.** Managers do not read the engine's output while they send `INFO`, so a
//!   complaint (`INFO rule 16`, `INFO timeout_turn abc`, `INFO level nosuch`) is remembered and the
//!   *next move-requesting command* (BEGIN, TURN, BOARD, SWAP2BOARD, YXNBEST, PLAY) is answered
//!   with `ERROR <complaint>` instead of being executed. The complaint is then forgotten.
//! * **BOARD colours.** Own stones (field 1) and opponent stones (field 2) are counted: equal
//!   counts mean we are black, one more opponent stone means we are white; anything else is an
//!   error. Field 3 (continuous-game marker) stones are kept off the board (they belong to
//!   neither side) but remembered as taken, so we never play or accept a TURN there. Stones
//!   are applied in the order given (renju managers send move order; a renju block whose
//!   colours do not alternate is accepted with a warning).
//! * **SWAP2.** With 0 stones the player proposes three opening stones
//!   ([`GomokuPlayer::swap2_opening`], drawn with the session's seeded generator). With 3 or 5
//!   stones we search the position with white to move and the player decides from the last
//!   report ([`GomokuPlayer::swap2_takes_black`]): `SWAP` (take black), or we stay white and play
//!   the move the search chose.
//! * **YXNBEST** is analysis: it searches and answers the best move but does not play it.
//! * **End of a game.** Gomocup never announces it, and a manager does not send the move that
//!   beats us. The player's [`GomokuPlayer::game_over`] hook is called once per game with the
//!   last position seen and the colour we played: at once when our move or the opponent's
//!   (TURN, PLAY or BOARD) makes five; otherwise when the next START/RESTART/RECTSTART arrives,
//!   or at END / end of input (when the session is dropped). A TAKEBACK reopens the game. The
//!   learning player infers an unseen winning move from that position (`eval::learner::kernels`).
//! * **Player options.** An `INFO key value` the session does not know is offered to the player
//!   ([`GomokuPlayer::set_option`]); one it refuses becomes a complaint. Every such setting is
//!   remembered and offered again to a player chosen later with `INFO level`, so the order of
//!   `INFO` lines does not matter.
//! * **Lateness.** The protocol loop says when each searched reply was written
//!   ([`GomokuSession::reply_written`]); how far that was past the search's hard deadline widens
//!   the next moves' safety margin ([`Lateness`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use log::{info, warn};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::players::mnk_level;
use crate::players::ttt::TTT_LEVELS;
use crate::players::{
    gomoku_player, Decision, GomokuPlayer, MoveRequest, Player, SearchInfo, GOMOKU_LEVELS,
};
use crate::rules::mnk::MAX_SIZE;
use crate::rules::renju::forbidden_points;
use crate::rules::{Board, Cell, Color, Pos, Rule};
use crate::search::clock::{GameClock, Lateness, SearchLimit, TimeManager, UNLIMITED_MS};
use crate::search::MAX_THREADS;
use crate::session::StopSignal;

/// Per-move time used when the manager gave no clock, depth or node limit at all, so that a
/// searching player still answers (Gomocup's fast-game limit).
pub const DEFAULT_TURN_MS: u64 = 5_000;

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
    /// `INFO rule_name NAME`: a rule by name, for rules with no Gomocup number
    /// (`no-double-three`); the numbered rules' names work too.
    RuleName(String),
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
    Other {
        key: String,
        value: String,
    },
    /// A known key with a value that does not parse.
    Invalid {
        key: String,
        value: String,
    },
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
    /// Search threads (`--threads`); outranks `INFO thread_num`.
    pub threads: Option<usize>,
    /// The rule (`--rule`); outranks `INFO rule` and `INFO rule_name`, so that a manager that
    /// cannot name a rule (Piskvork has no `rule_name`) can still run one.
    pub rule: Option<Rule>,
    /// File a learning player keeps its memory in (`--memory`); outranks `INFO folder`.
    pub memory: Option<PathBuf>,
    /// Player-specific settings (`--kernel`, unknown `INFO` keys), offered to every player.
    pub player_options: Vec<(String, String)>,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            level: GOMOKU_LEVELS[0].0.to_string(),
            seed: 0,
            nodes: None,
            depth: None,
            threads: None,
            rule: None,
            memory: None,
            player_options: Vec::new(),
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
    /// Who plays when the board is tic-tac-toe (`START 3`): a level of its own, kept apart so
    /// that `INFO level` switches only the game it names.
    ttt: Box<dyn Player<Board>>,
    complaints: Vec<String>,
    /// Points a BOARD marked with field 3 (continuous game): empty for the board, taken for
    /// the manager, so we never play there.
    markers: Vec<Pos>,
    signal: Arc<StopSignal>,
    rng: ChaCha8Rng,
    /// The colour we play in the current game, once known.
    ours: Option<Color>,
    /// Whether the player was told that the current game is over.
    concluded: bool,
    /// The last search's request time and hard deadline, until its reply is written.
    pending_reply: Option<(Instant, Option<Duration>)>,
    /// How late replies went out recently (extra safety margin).
    lateness: Lateness,
}

impl GomokuSession {
    /// A session with no board yet. An unknown level in `config` falls back to the default one
    /// (the CLI validates levels before getting here).
    pub fn new(config: SessionConfig, signal: Arc<StopSignal>) -> GomokuSession {
        // A level names a gomoku player or a tic-tac-toe one; the other game gets its default.
        let ttt = mnk_level(true, &config.level, config.seed);
        let player = gomoku_player(&config.level, config.seed).unwrap_or_else(|| {
            if ttt.is_none() {
                warn!("unknown level '{}', using the default", config.level);
            }
            gomoku_player(GOMOKU_LEVELS[0].0, config.seed).expect("default level exists")
        });
        let ttt = ttt.unwrap_or_else(|| {
            mnk_level(true, TTT_LEVELS[0].0, config.seed).expect("default tic-tac-toe level exists")
        });
        let mut s = GomokuSession {
            board: None,
            rule: config.rule.unwrap_or(Rule::Freestyle),
            settings: Settings::default(),
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            config,
            player,
            ttt,
            complaints: Vec::new(),
            markers: Vec::new(),
            signal,
            ours: None,
            concluded: false,
            pending_reply: None,
            lateness: Lateness::default(),
        };
        s.configure_player();
        s
    }

    /// Hands the current player the memory file or folder and the remembered player options.
    /// A refused option is a complaint.
    fn configure_player(&mut self) {
        self.player.set_threads(self.threads());
        if let Some(file) = &self.config.memory {
            self.player.set_memory_file(file);
        } else if let Some(dir) = &self.settings.folder {
            self.player.set_folder(Path::new(dir));
        }
        let options = self.config.player_options.clone();
        for (key, value) in options {
            if let Some(Err(e)) = self.player.set_option(&key, &value) {
                self.complain(format!("{key} {value}: {e}"));
            }
        }
    }

    /// Threads the player searches on: `--threads`, else `INFO thread_num`, else one; at most
    /// [`MAX_THREADS`].
    pub fn threads(&self) -> usize {
        let n = self
            .config
            .threads
            .or(self.settings.thread_num.map(|n| n as usize));
        n.unwrap_or(1).clamp(1, MAX_THREADS)
    }

    /// Tells the player, once, that the current game is over (see the module notes).
    fn conclude_game(&mut self) {
        if self.concluded {
            return;
        }
        if let (Some(b), Some(ours)) = (&self.board, self.ours) {
            // A tic-tac-toe game is not the gomoku player's to learn from.
            if b.stones() > 0 && !is_tic_tac_toe(b) {
                self.player.game_over(b, ours);
            }
        }
        self.concluded = true;
    }

    /// A session with a given player (tests, tools, other front ends).
    pub fn with_player(
        config: SessionConfig,
        signal: Arc<StopSignal>,
        player: Box<dyn GomokuPlayer>,
    ) -> GomokuSession {
        let mut s = GomokuSession::new(config, signal);
        s.player = player;
        s.complaints.clear();
        s.configure_player();
        s
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
    /// The current player's level name (the tic-tac-toe one while a 3 x 3 game is on).
    pub fn level(&self) -> &'static str {
        match &self.board {
            Some(b) if is_tic_tac_toe(b) => self.ttt.name(),
            _ => self.player.name(),
        }
    }

    /// `START n` (3 = tic-tac-toe, 5..32 = the gomoku family).
    pub fn start(&mut self, size: i64) -> Reply {
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
        // A negative side is refused in the same words as any other bad size, with the
        // numbers the manager sent (not the 0 a saturating conversion would make of them).
        let (Ok(w), Ok(h)) = (usize::try_from(width), usize::try_from(height)) else {
            return Reply::Error(format!(
                "unsupported board size {width}x{height} (sides must be 5..{MAX_SIZE}); \
                 START 3 is tic-tac-toe"
            ));
        };
        match empty_board(w, h, self.rule) {
            Ok(b) => {
                self.conclude_game();
                self.concluded = false;
                self.ours = None;
                // START is outside every move clock: build the rule's tables now.
                self.player.new_game(&b);
                self.player.prepare(self.rule);
                self.board = Some(b);
                self.markers.clear();
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
                Some(rule) => self.set_managers_rule(rule),
                None => self.complain(format!(
                    "INFO rule {v}: unsupported rule (supported: 0 freestyle, 1 standard, \
                     4 renju, 8 caro, 9 caro with exact five, 2 renju as Yixin-Board sends it; \
                     +2 continuous is otherwise ignored)"
                )),
            },
            Setting::RuleName(name) => match Rule::from_name(&name) {
                Some(rule) => self.set_managers_rule(rule),
                None => {
                    let names: Vec<&str> = Rule::NAMED.iter().map(|r| r.name()).collect();
                    self.complain(format!(
                        "INFO rule_name {name}: unknown rule (known: {})",
                        names.join(", ")
                    ))
                }
            },
            Setting::Folder(f) => {
                if self.config.memory.is_none() {
                    self.player.set_folder(Path::new(&f));
                }
                s.folder = Some(f);
            }
            Setting::Evaluate(x, y) => s.evaluate = Some((x, y)),
            // 0 means "no limit" for both, as c-gomoku-cli uses it; so does -1, which
            // Yixin-Board sends for its unlimited level (`INFO max_node -1`, read by Rapfi as
            // no limit), and so does a depth too deep to count.
            Setting::MaxDepth(v) => s.max_depth = u32::try_from(v).ok().filter(|&d| d > 0),
            Setting::MaxNode(v) => s.max_node = u64::try_from(v).ok().filter(|&n| n > 0),
            // At least one, as Rapfi reads it; more than the engine runs is its maximum.
            Setting::ThreadNum(v) => {
                s.thread_num = Some(u32::try_from(v.max(1)).unwrap_or(u32::MAX));
                self.player.set_threads(self.threads());
            }
            Setting::TimeIncrement(v) => match u64::try_from(v) {
                Ok(v) => s.time_increment = v,
                Err(_) => self.complain(format!("INFO time_increment {v}: must not be negative")),
            },
            Setting::Level(name) => {
                if let Some(mut p) = gomoku_player(&name, self.config.seed) {
                    if self.settings.max_memory > 0 {
                        p.set_memory_limit(self.settings.max_memory);
                    }
                    p.prepare(self.rule);
                    info!("level switched to {}", p.name());
                    self.player = p;
                    self.config.level = name;
                    self.configure_player();
                } else if let Some(p) = mnk_level(true, &name, self.config.seed) {
                    info!("tic-tac-toe level switched to {}", p.name());
                    self.ttt = p;
                    self.config.level = name;
                } else {
                    let known: Vec<&str> = GOMOKU_LEVELS
                        .iter()
                        .chain(TTT_LEVELS)
                        .map(|l| l.0)
                        .collect();
                    self.complain(format!(
                        "INFO level {name}: unknown level (known: {})",
                        known.join(", ")
                    ))
                }
            }
            Setting::Seed(seed) => {
                self.config.seed = seed;
                self.player.set_seed(seed);
                self.ttt.set_seed(seed);
                self.rng = ChaCha8Rng::seed_from_u64(seed);
            }
            Setting::Other { key, value } => {
                let result = self.player.set_option(&key, &value);
                match &result {
                    None => info!("INFO {key} {value}: not used by {}", self.player.name()),
                    Some(Ok(())) => info!("INFO {key} {value}: set"),
                    Some(Err(e)) => self.complain(format!("INFO {e}")),
                }
                if !matches!(result, Some(Err(_))) {
                    let opts = &mut self.config.player_options;
                    opts.retain(|(k, _)| *k != key);
                    opts.push((key, value));
                }
            }
            Setting::Invalid { key, value } if value.is_empty() => {
                self.complain(format!("INFO {key}: missing value"))
            }
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
    /// A rule from `INFO rule` / `INFO rule_name`, unless `--rule` fixed one.
    fn set_managers_rule(&mut self, rule: Rule) {
        match self.config.rule {
            Some(fixed) if fixed != rule => warn!(
                "the manager's rule {} ignored: --rule {} outranks it",
                rule.name(),
                fixed.name()
            ),
            _ => self.set_rule(rule),
        }
    }

    fn set_rule(&mut self, rule: Rule) {
        self.rule = rule;
        self.player.prepare(rule);
        if let Some(old) = &self.board {
            // Tic-tac-toe has one rule whatever the manager says.
            if old.rule() == rule || is_tic_tac_toe(old) {
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
        let mover = self.board.as_ref().map(Board::to_move);
        match self.play_checked("TURN", x, y) {
            Ok(()) if self.board.as_ref().is_some_and(|b| b.winner().is_some()) => {
                self.ours = mover.map(Color::opponent);
                self.conclude_game();
                Reply::Error("the game is already over".into())
            }
            Ok(()) => self.our_move(req),
            Err(reply) => reply,
        }
    }

    /// `PLAY x,y`: play our stone (the side to move) there and echo it.
    pub fn play(&mut self, x: i64, y: i64) -> Reply {
        let mover = self.board.as_ref().map(Board::to_move);
        match self.play_checked("PLAY", x, y) {
            Ok(()) => {
                self.ours = mover;
                if self.board.as_ref().is_some_and(|b| b.winner().is_some()) {
                    self.conclude_game();
                }
                Reply::Move(x as usize, y as usize)
            }
            Err(reply) => reply,
        }
    }

    /// Plays the side to move at (x, y) for command `cmd`, refusing (with the position
    /// unchanged) when no game is started, an INFO complaint is pending, or the point is off the
    /// board, a continuous-game marker, occupied or forbidden.
    fn play_checked(&mut self, cmd: &str, x: i64, y: i64) -> Result<(), Reply> {
        if self.board.is_none() {
            return Err(Reply::Error(NO_GAME.into()));
        }
        if let Some(r) = self.pending_complaint() {
            return Err(r);
        }
        let board = self.board.as_mut().expect("checked above");
        let p = board
            .pos(x, y)
            .ok_or_else(|| Reply::Error(format!("{cmd} {x},{y}: point is off the board")))?;
        if self.markers.contains(&p) {
            return Err(Reply::Error(format!(
                "{cmd} {x},{y}: point is occupied (marker)"
            )));
        }
        board
            .play(p)
            .map(|_| ())
            .map_err(|e| Reply::Error(format!("{cmd} {x},{y}: {e}")))
    }

    /// `TAKEBACK x,y`: remove that stone.
    pub fn takeback(&mut self, x: i64, y: i64) -> Reply {
        let Some(board) = &mut self.board else {
            return Reply::Error(NO_GAME.into());
        };
        match board.pos(x, y) {
            None => Reply::Error(format!("TAKEBACK {x},{y}: point is off the board")),
            Some(p) => match board.remove(p) {
                Some(_) => {
                    self.concluded = false;
                    Reply::Ok
                }
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
            Ok((b, markers)) => {
                let over = b.winner().is_some();
                self.ours = Some(b.to_move());
                self.board = Some(b);
                self.markers = markers;
                if over {
                    self.conclude_game();
                }
            }
            Err(e) => {
                // A refused YXBOARD is answered too: it only has no reply when it succeeds, and
                // a GUI that went on analysing a position we never set would be misled.
                let cmd = if think { "BOARD" } else { "YXBOARD" };
                return Reply::Error(format!("{cmd}: {e}"));
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
    fn position_from(&self, stones: &[StoneLine]) -> Result<(Board, Vec<Pos>), String> {
        let old = self.board.as_ref().ok_or(NO_GAME)?;
        let mut b = empty_board(old.width(), old.height(), self.rule).map_err(|e| e.to_string())?;
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
        let mut markers = Vec::new();
        for s in stones {
            let p = b
                .pos(s.x, s.y)
                .ok_or_else(|| format!("stone {},{}: point is off the board", s.x, s.y))?;
            if !b.is_empty(p) || markers.contains(&p) {
                return Err(format!("stone {},{}: point is occupied", s.x, s.y));
            }
            let color = match s.field {
                Some(1) => ours,
                Some(2) => ours.opponent(),
                _ => {
                    warn!(
                        "BOARD: continuous-game marker {},{},3 kept off the board",
                        s.x, s.y
                    );
                    markers.push(p);
                    continue;
                }
            };
            b.place(p, color);
        }
        if b.rule().renju() {
            let alternates = b.history().iter().enumerate().all(|(i, &(_, c))| {
                c == if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                }
            });
            if !alternates {
                warn!("renju BOARD not in move order (colours do not alternate); accepted as is");
            }
        }
        b.set_to_move(ours);
        Ok((b, markers))
    }

    /// `SWAP2BOARD ... DONE` with 0, 3 or 5 stones (black, white, black, white, black).
    pub fn swap2(&mut self, stones: &[StoneLine], req: &mut Request<'_>) -> Reply {
        let Some((w, h)) = self.board.as_ref().map(|b| (b.width(), b.height())) else {
            return Reply::Error(NO_GAME.into());
        };
        if let Some(r) = self.pending_complaint() {
            return r;
        }
        if self.board.as_ref().is_some_and(is_tic_tac_toe) {
            return Reply::Error("SWAP2BOARD is a gomoku opening; this game is tic-tac-toe".into());
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
                return Reply::Error(format!(
                    "SWAP2BOARD: stone {},{} is off the board",
                    s.x, s.y
                ));
            };
            if !b.is_empty(p) {
                return Reply::Error(format!("SWAP2BOARD: stone {},{} is occupied", s.x, s.y));
            }
            b.play_unchecked(p);
        }
        if stones.is_empty() {
            let moves = self.player.swap2_opening(&b, &mut self.rng);
            for &(x, y) in &moves {
                let p = b.pos(x as i64, y as i64).expect("opening fits the board");
                b.play_unchecked(p);
            }
            self.board = Some(b);
            self.markers.clear();
            return Reply::Moves(moves);
        }
        self.board = Some(b);
        self.markers.clear();
        let (choice, last) = match self.search(req, 1) {
            Ok(found) => found,
            Err(reply) => return reply,
        };
        if self.player.swap2_takes_black(last.as_ref()) {
            info!(
                "SWAP2: white scores {:?}; taking black",
                last.map(|i| i.score)
            );
            return Reply::Swap;
        }
        self.play_ours(choice)
    }

    /// `YXSHOWFORBID`: black's forbidden points under renju when black is to move (the points
    /// a GUI should mark for the next move); none under other rules or with white to move,
    /// as GOMOCUP.md and Rapfi have it.
    pub fn show_forbid(&self) -> Reply {
        let Some(b) = &self.board else {
            return Reply::Error(NO_GAME.into());
        };
        if b.to_move() != Color::Black {
            return Reply::Forbid(Vec::new());
        }
        Reply::Forbid(forbidden_points(b).into_iter().map(|p| b.xy(p)).collect())
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
        self.ours = Some(board.to_move());
        match board.play(p) {
            Ok(won) => {
                if won {
                    self.conclude_game();
                }
                Reply::Move(x, y)
            }
            Err(e) => Reply::Error(format!("internal: our move {x},{y} was refused: {e}")),
        }
    }

    /// The protocol loop wrote the reply to the last search at `at`: learn how late it was.
    pub fn reply_written(&mut self, at: Instant) {
        if let Some((start, hard)) = self.pending_reply.take() {
            let took = at.saturating_duration_since(start);
            self.lateness.observe(hard, took);
            log::debug!(
                "reply {} ms after the request (hard deadline {:?} ms); lag margin now {} ms",
                took.as_millis(),
                hard.map(|h| h.as_millis()),
                self.lateness.lag_ms()
            );
        }
    }

    /// The extra safety margin that observed lateness currently adds (ms).
    pub fn lag_ms(&self) -> u64 {
        self.lateness.lag_ms()
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
                lag_ms: self.lateness.lag_ms(),
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
        let choice = if is_tic_tac_toe(board) {
            match self.ttt.decide(board, &tm) {
                Some(Decision::Play(p)) => Some(p),
                Some(Decision::Resign) | None => None,
            }
        } else {
            self.player.choose(board, &mut mr)
        };
        self.signal.disarm();
        self.pending_reply = Some((req.at, tm.hard_limit()));
        let markers = &self.markers;
        let legal = |p: Pos| on_board(board, p) && board.check(p).is_ok() && !markers.contains(&p);
        match choice {
            Some(p) if legal(p) => Ok((p, last)),
            other => {
                if let Some(p) = other {
                    let (x, y) = board.xy(p);
                    warn!(
                        "player {} chose an illegal point {x},{y}; using a fallback",
                        self.player.name()
                    );
                }
                // The legal point nearest the centre: a player that took the board for empty
                // (only field-3 markers on it) chose the centre, and a corner is the worst
                // answer to that.
                let (w, h) = (board.width() as i64, board.height() as i64);
                let off_centre = |p: &Pos| {
                    let (x, y) = board.xy(*p);
                    let (dx, dy) = (2 * x as i64 - (w - 1), 2 * y as i64 - (h - 1));
                    (dx * dx + dy * dy, y, x)
                };
                match board
                    .empty_points()
                    .filter(|&p| legal(p))
                    .min_by_key(off_centre)
                {
                    Some(p) => Ok((p, last)),
                    None => Err(Reply::Error("no legal move".into())),
                }
            }
        }
    }
}

impl Drop for GomokuSession {
    /// END or end of input: the game in progress ends with the session.
    fn drop(&mut self) {
        self.conclude_game();
    }
}

/// The empty board a `START`/`RECTSTART` of this size asks for: 3 x 3 is tic-tac-toe (three in
/// a row, no rule variants), 5..32 the gomoku family under `rule`.
fn empty_board(width: usize, height: usize, rule: Rule) -> Result<Board, String> {
    if (width, height) == (3, 3) {
        return Ok(Board::with_k(3, 3, 3, Rule::Freestyle));
    }
    Board::new(width, height, rule).map_err(|e| format!("{e}; START 3 is tic-tac-toe"))
}

/// Whether `b` is a tic-tac-toe board rather than a gomoku one.
fn is_tic_tac_toe(b: &Board) -> bool {
    b.k() == 3
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::renju::forbidden;
    use std::sync::Mutex;

    /// What the scripted player saw and did, shared with the test.
    #[derive(Default)]
    struct Seen {
        calls: usize,
        stop_seen: bool,
        nbest: usize,
        hard_limit: Option<Duration>,
        max_nodes: Option<u64>,
        /// Each game_over call: (stones, winner, ours).
        game_overs: Vec<(usize, Option<Color>, Color)>,
        options: Vec<(String, String)>,
        /// The last thread count the player was given.
        threads: usize,
    }

    /// A player that reports a fixed score and plays a fixed point (or the first legal one).
    struct Scripted {
        score: i32,
        mate: Option<i32>,
        pick: Option<(i64, i64)>,
        none: bool,
        seen: Arc<Mutex<Seen>>,
    }

    impl Player<Board> for Scripted {
        fn name(&self) -> &'static str {
            "scripted"
        }
        fn set_threads(&mut self, threads: usize) {
            self.seen.lock().unwrap().threads = threads;
        }
        fn decide(&mut self, board: &Board, tm: &TimeManager<'_>) -> Option<Decision<Pos>> {
            crate::players::decide_quietly(self, board, tm)
        }
    }

    impl GomokuPlayer for Scripted {
        fn game_over(&mut self, board: &Board, ours: Color) {
            let mut seen = self.seen.lock().unwrap();
            seen.game_overs.push((board.stones(), board.winner(), ours));
        }
        fn set_option(&mut self, key: &str, value: &str) -> Option<Result<(), String>> {
            if key != "scripted_opt" {
                return None;
            }
            self.seen
                .lock()
                .unwrap()
                .options
                .push((key.into(), value.into()));
            Some(if value == "bad" {
                Err(format!("{key} {value}: refused"))
            } else {
                Ok(())
            })
        }
        fn choose(&mut self, board: &Board, req: &mut MoveRequest<'_, '_>) -> Option<Pos> {
            let mut seen = self.seen.lock().unwrap();
            seen.calls += 1;
            seen.stop_seen = req.tm.stop_requested();
            seen.nbest = req.nbest;
            seen.hard_limit = req.tm.hard_limit();
            seen.max_nodes = req.tm.max_nodes();
            if self.none {
                return None;
            }
            let p = match self.pick {
                Some((x, y)) => board.pos(x, y)?,
                None => board.empty_points().find(|&p| board.check(p).is_ok())?,
            };
            (req.report)(&SearchInfo {
                depth: 3,
                seldepth: 5,
                score: self.score,
                mate: self.mate,
                nodes: 10,
                pv: vec![p],
                multipv: 1,
                ..SearchInfo::default()
            });
            Some(p)
        }
    }

    fn scripted(score: i32) -> (GomokuSession, Arc<Mutex<Seen>>) {
        let seen = Arc::new(Mutex::new(Seen::default()));
        let player = Scripted {
            score,
            mate: None,
            pick: None,
            none: false,
            seen: seen.clone(),
        };
        let s = GomokuSession::with_player(
            SessionConfig::default(),
            Arc::new(StopSignal::new()),
            Box::new(player),
        );
        (s, seen)
    }

    fn session() -> GomokuSession {
        scripted(0).0
    }

    /// Runs `f` with a request and returns the reply and the progress reports.
    fn ask(f: impl FnOnce(&mut Request<'_>) -> Reply) -> (Reply, Vec<Progress>) {
        let mut reports = Vec::new();
        let mut sink = |p: &Progress| reports.push(p.clone());
        let mut req = Request {
            seq: 1,
            at: Instant::now(),
            progress: &mut sink,
        };
        let r = f(&mut req);
        (r, reports)
    }

    fn stones(list: &[(i64, i64, i64)]) -> Vec<StoneLine> {
        list.iter()
            .map(|&(x, y, f)| StoneLine {
                x,
                y,
                field: Some(f),
            })
            .collect()
    }

    fn plain(list: &[(i64, i64)]) -> Vec<StoneLine> {
        list.iter()
            .map(|&(x, y)| StoneLine { x, y, field: None })
            .collect()
    }

    fn is_err(r: &Reply, text: &str) -> bool {
        matches!(r, Reply::Error(m) if m.contains(text))
    }

    #[test]
    fn start_sizes() {
        let mut s = session();
        assert!(is_err(&s.start(4), "unsupported board size"));
        assert!(is_err(&s.start(33), "unsupported board size"));
        assert!(is_err(&s.start(-1), "unsupported board size -1x-1"));
        assert!(is_err(
            &s.rect_start(20, -5),
            "unsupported board size 20x-5"
        ));
        assert!(is_err(&s.start(2), "START 3 is tic-tac-toe"));
        assert!(s.board().is_none());
        assert_eq!(s.start(5), Reply::Ok);
        assert_eq!(s.start(32), Reply::Ok);
        assert_eq!(s.rect_start(20, 15), Reply::Ok);
        let b = s.board().unwrap();
        assert_eq!((b.width(), b.height()), (20, 15));
        assert!(is_err(&s.rect_start(20, 4), "unsupported"));
        // A refused size keeps the old board.
        assert_eq!(s.board().unwrap().width(), 20);
    }

    #[test]
    fn start_3_is_tic_tac_toe_played_by_the_ttt_level() {
        let mut s = session();
        assert_eq!(s.start(3), Reply::Ok);
        let b = s.board().unwrap();
        assert_eq!((b.width(), b.height(), b.k()), (3, 3, 3));
        assert_eq!(s.level(), "perfect");
        // Black (us) has two on the top row: the perfect player must complete it.
        let (r, _) = ask(|r| {
            s.set_board(
                &stones(&[(0, 0, 1), (1, 0, 1), (1, 1, 2), (0, 2, 2)]),
                true,
                r,
            )
        });
        assert_eq!(r, Reply::Move(2, 0));
        assert!(s.board().unwrap().winner().is_some());
        // White must block the only threat.
        assert_eq!(s.restart(), Reply::Ok);
        assert_eq!(s.board().unwrap().k(), 3);
        let (r, _) = ask(|r| s.set_board(&stones(&[(2, 2, 1), (0, 0, 2), (1, 0, 2)]), true, r));
        assert_eq!(r, Reply::Move(2, 0));
        assert!(is_err(&ask(|r| s.turn(3, 0, r)).0, "off the board"));
        assert!(is_err(&ask(|r| s.swap2(&[], r)).0, "tic-tac-toe"));
        // A rule change keeps the tic-tac-toe board as it is.
        s.info(Setting::Rule(4));
        assert_eq!(s.board().unwrap().stones(), 4);
        assert_eq!(s.board().unwrap().rule(), Rule::Freestyle);
    }

    #[test]
    fn ttt_levels_switch_only_the_ttt_player() {
        let mut s = session();
        s.info(Setting::Level("dumber".into()));
        assert!(s.complaints.is_empty());
        assert_eq!(s.start(3), Reply::Ok);
        assert_eq!(s.level(), "dumber");
        assert_eq!(ask(|r| s.begin(r)).0, Reply::Move(0, 0));
        assert_eq!(ask(|r| s.turn(2, 2, r)).0, Reply::Move(1, 0));
        // The gomoku player is untouched.
        assert_eq!(s.start(15), Reply::Ok);
        assert_eq!(s.level(), "scripted");
        s.info(Setting::Level("nosuch".into()));
        let r = ask(|r| s.begin(r)).0;
        assert!(
            is_err(&r, "known: strong, strong-hand, classic, learner, perfect"),
            "{r:?}"
        );
    }

    #[test]
    fn commands_before_start_need_a_game() {
        let mut s = session();
        assert!(is_err(&ask(|r| s.begin(r)).0, NO_GAME));
        assert!(is_err(&ask(|r| s.turn(1, 1, r)).0, NO_GAME));
        assert!(is_err(&ask(|r| s.set_board(&[], true, r)).0, NO_GAME));
        assert!(is_err(&ask(|r| s.swap2(&[], r)).0, NO_GAME));
        assert!(is_err(&ask(|r| s.nbest(2, r)).0, NO_GAME));
        assert!(is_err(&s.takeback(1, 1), NO_GAME));
        assert!(is_err(&s.play(1, 1), NO_GAME));
        assert!(is_err(&s.restart(), NO_GAME));
        assert!(is_err(&s.show_forbid(), NO_GAME));
    }

    #[test]
    fn turn_checks_the_move_and_keeps_the_position_on_error() {
        let mut s = session();
        s.start(15);
        let (r, reports) = ask(|r| s.turn(7, 7, r));
        assert_eq!(r, Reply::Move(0, 0));
        assert_eq!(reports.len(), 1);
        assert_eq!(reports[0].pv, vec![(0, 0)]);
        let hash = s.board().unwrap().hash();
        assert!(is_err(&ask(|r| s.turn(7, 7, r)).0, "occupied"));
        assert!(is_err(&ask(|r| s.turn(0, 0, r)).0, "occupied"));
        assert!(is_err(&ask(|r| s.turn(15, 3, r)).0, "off the board"));
        assert!(is_err(&ask(|r| s.turn(-1, 3, r)).0, "off the board"));
        assert_eq!(s.board().unwrap().hash(), hash);
        assert_eq!(s.board().unwrap().stones(), 2);
        assert!(is_err(&ask(|r| s.begin(r)).0, "empty board"));
    }

    #[test]
    fn begin_plays_black() {
        let mut s = session();
        s.start(15);
        assert_eq!(ask(|r| s.begin(r)).0, Reply::Move(0, 0));
        let b = s.board().unwrap();
        assert_eq!(b.history()[0].1, Color::Black);
        assert_eq!(b.to_move(), Color::White);
    }

    #[test]
    fn board_assigns_colours_by_count() {
        let mut s = session();
        s.start(15);
        // Equal counts: we are black.
        let (r, _) = ask(|r| s.set_board(&stones(&[(7, 7, 1), (8, 8, 2)]), true, r));
        assert_eq!(r, Reply::Move(0, 0));
        let b = s.board().unwrap();
        assert_eq!(b.cell(b.pos(7, 7).unwrap()), Cell::Black);
        assert_eq!(b.cell(b.pos(0, 0).unwrap()), Cell::Black);
        // One more opponent stone: we are white; any order is fine.
        let (r, _) = ask(|r| s.set_board(&stones(&[(9, 9, 2), (7, 7, 1), (8, 8, 2)]), true, r));
        assert_eq!(r, Reply::Move(0, 0));
        let b = s.board().unwrap();
        assert_eq!(b.cell(b.pos(9, 9).unwrap()), Cell::Black);
        assert_eq!(b.cell(b.pos(0, 0).unwrap()), Cell::White);
        // Empty: we move first.
        assert_eq!(ask(|r| s.set_board(&[], true, r)).0, Reply::Move(0, 0));
    }

    #[test]
    fn bad_boards_change_nothing() {
        let mut s = session();
        s.start(15);
        ask(|r| s.turn(7, 7, r));
        let hash = s.board().unwrap().hash();
        type Case = (&'static [(i64, i64, i64)], &'static str);
        let cases: &[Case] = &[
            (&[(1, 1, 1), (2, 2, 1)], "own must equal"),
            (&[(1, 1, 2), (2, 2, 2)], "own must equal"),
            (&[(1, 1, 1), (2, 2, 4)], "field must be"),
            (&[(1, 1, 1), (15, 2, 2)], "off the board"),
            (&[(1, 1, 1), (1, 1, 2)], "occupied"),
        ];
        for (list, why) in cases {
            let (r, _) = ask(|r| s.set_board(&stones(list), true, r));
            assert!(is_err(&r, why), "{list:?}: {r:?}");
            assert_eq!(s.board().unwrap().hash(), hash);
        }
        let (r, _) = ask(|r| {
            s.set_board(
                &[StoneLine {
                    x: 1,
                    y: 1,
                    field: None,
                }],
                true,
                r,
            )
        });
        assert!(is_err(&r, "missing field"));
        // A refused YXBOARD says so too (it is silent only when it succeeds).
        let (r, _) = ask(|r| s.set_board(&stones(&[(1, 1, 1), (2, 2, 1)]), false, r));
        assert!(is_err(&r, "YXBOARD: 2 own and 0 opponent"), "{r:?}");
        assert_eq!(s.board().unwrap().hash(), hash);
    }

    #[test]
    fn continuous_game_markers_are_skipped() {
        let mut s = session();
        s.start(15);
        let (r, _) = ask(|r| s.set_board(&stones(&[(0, 0, 3), (7, 7, 2)]), true, r));
        assert!(matches!(r, Reply::Move(x, y) if (x, y) != (0, 0)), "{r:?}");
    }

    #[test]
    fn a_lone_centre_marker_is_answered_next_to_it_not_in_a_corner() {
        // A player that takes the board for empty opens in the centre, where the marker is.
        let player = Scripted {
            score: 0,
            mate: None,
            pick: Some((7, 7)),
            none: false,
            seen: Arc::new(Mutex::new(Seen::default())),
        };
        let mut s = GomokuSession::with_player(
            SessionConfig::default(),
            Arc::new(StopSignal::new()),
            Box::new(player),
        );
        s.start(15);
        let (r, _) = ask(|r| s.set_board(&stones(&[(7, 7, 3)]), true, r));
        let Reply::Move(x, y) = r else {
            panic!("{r:?}")
        };
        assert_ne!((x, y), (7, 7));
        assert!(x.abs_diff(7) <= 1 && y.abs_diff(7) <= 1, "{x},{y}");
    }

    #[test]
    fn a_finished_game_is_refused() {
        let mut s = session();
        s.start(15);
        let five = stones(&[
            (0, 5, 2),
            (0, 0, 1),
            (1, 5, 2),
            (1, 0, 1),
            (2, 5, 2),
            (2, 0, 1),
            (3, 5, 2),
            (3, 0, 1),
            (4, 5, 2),
        ]);
        let (r, _) = ask(|r| s.set_board(&five, true, r));
        assert!(is_err(&r, "already over"), "{r:?}");
    }

    #[test]
    fn a_full_board_has_no_legal_move() {
        let mut s = session();
        s.start(5);
        let rows = ["BBWWB", "WWBBW", "BBWWB", "WWBBW", "BBWWB"];
        let mut list = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                // Black has 13 stones, white 12: black is the opponent, we are white.
                list.push((x as i64, y as i64, if c == 'B' { 2 } else { 1 }));
            }
        }
        let (r, _) = ask(|r| s.set_board(&stones(&list), true, r));
        assert_eq!(r, Reply::Error("no legal move".into()));
    }

    #[test]
    fn yxboard_sets_without_answering_and_takeback_removes() {
        let mut s = session();
        s.start(15);
        let (r, _) = ask(|r| s.set_board(&stones(&[(7, 7, 2), (8, 7, 1), (9, 7, 2)]), false, r));
        assert_eq!(r, Reply::Nothing);
        assert_eq!(s.board().unwrap().stones(), 3);
        assert_eq!(s.takeback(8, 7), Reply::Ok);
        assert_eq!(s.board().unwrap().stones(), 2);
        assert!(is_err(&s.takeback(8, 7), "no stone"));
        assert!(is_err(&s.takeback(20, 7), "off the board"));
        assert_eq!(s.play(8, 7), Reply::Move(8, 7));
        assert!(is_err(&s.play(8, 7), "occupied"));
    }

    #[test]
    fn nbest_reports_but_does_not_play() {
        let (mut s, seen) = scripted(0);
        s.start(15);
        assert_eq!(ask(|r| s.nbest(3, r)).0, Reply::Move(0, 0));
        assert_eq!(seen.lock().unwrap().nbest, 3);
        assert_eq!(s.board().unwrap().stones(), 0);
    }

    #[test]
    fn info_complaints_answer_the_next_move_request() {
        let mut s = session();
        s.start(15);
        s.info(Setting::Rule(16));
        s.info(Setting::Level("nosuch".into()));
        s.info(Setting::TimeoutTurn(-5));
        s.info(Setting::Invalid {
            key: "max_node".into(),
            value: String::new(),
        });
        let (r, _) = ask(|r| s.turn(7, 7, r));
        assert!(is_err(&r, "INFO rule 16"), "{r:?}");
        assert!(is_err(&r, "INFO max_node: missing value"), "{r:?}");
        assert!(is_err(&r, "INFO level nosuch"));
        assert!(is_err(&r, "INFO timeout_turn -5"));
        // Not executed, and forgotten afterwards.
        assert_eq!(s.board().unwrap().stones(), 0);
        assert_eq!(ask(|r| s.turn(7, 7, r)).0, Reply::Move(0, 0));
    }

    #[test]
    fn rule_applies_to_the_current_board() {
        let mut s = session();
        s.start(15);
        ask(|r| s.turn(7, 7, r));
        s.info(Setting::Rule(4));
        assert_eq!(s.rule(), Rule::Renju);
        let b = s.board().unwrap();
        assert_eq!(b.rule(), Rule::Renju);
        assert_eq!(b.stones(), 2);
        assert_eq!(b.to_move(), Color::Black);
        // And survives START.
        s.start(15);
        assert_eq!(s.board().unwrap().rule(), Rule::Renju);
    }

    #[test]
    fn level_switches_player() {
        let mut s = session();
        s.info(Setting::Level("classic".into()));
        assert_eq!(s.level(), "classic");
        s.info(Setting::Level("STRONG".into()));
        assert_eq!(s.level(), "strong");
    }

    #[test]
    fn limits_from_settings() {
        let mut s = session();
        let l = s.limit();
        assert_eq!(l.clock.turn_ms, Some(DEFAULT_TURN_MS));
        s.info(Setting::TimeoutTurn(100));
        s.info(Setting::TimeLeft(UNLIMITED_MS));
        s.info(Setting::MaxNode(0));
        let l = s.limit();
        assert_eq!(l.clock.turn_ms, Some(100));
        assert_eq!(l.clock.left_ms, None);
        assert_eq!(l.nodes, None);
        s.info(Setting::TimeLeft(900));
        s.info(Setting::MaxDepth(7));
        let l = s.limit();
        assert_eq!(l.clock.left_ms, Some(900));
        assert_eq!(l.depth, Some(7));
        // Yixin-Board's "unlimited" is -1; a depth past u32 is no limit either. Neither is a
        // complaint that would refuse the next move.
        s.info(Setting::MaxNode(5000));
        s.info(Setting::MaxNode(-1));
        s.info(Setting::MaxDepth(-1));
        assert_eq!((s.limit().nodes, s.limit().depth), (None, None));
        s.info(Setting::MaxDepth(7));
        s.info(Setting::MaxDepth(i64::MAX));
        assert_eq!(s.limit().depth, None);
        s.info(Setting::ThreadNum(-3));
        assert_eq!(s.settings().thread_num, Some(1));
        s.info(Setting::ThreadNum(i64::MAX));
        assert_eq!(s.settings().thread_num, Some(u32::MAX));
        assert!(s.pending_complaint().is_none());
        let det = GomokuSession::new(
            SessionConfig {
                nodes: Some(5000),
                ..SessionConfig::default()
            },
            Arc::new(StopSignal::new()),
        );
        let l = det.limit();
        assert_eq!(l.nodes, Some(5000));
        assert_eq!(l.clock, GameClock::default());
    }

    #[test]
    fn threads_come_from_the_command_line_else_thread_num() {
        let (mut s, seen) = scripted(0);
        assert_eq!(seen.lock().unwrap().threads, 1, "one thread unless told");
        s.info(Setting::ThreadNum(2));
        assert_eq!((s.threads(), seen.lock().unwrap().threads), (2, 2));
        s.info(Setting::ThreadNum(0));
        assert_eq!(seen.lock().unwrap().threads, 1);
        s.info(Setting::ThreadNum(1_000));
        assert_eq!(seen.lock().unwrap().threads, MAX_THREADS);
        let seen = Arc::new(Mutex::new(Seen::default()));
        let player = Scripted {
            score: 0,
            mate: None,
            pick: None,
            none: false,
            seen: seen.clone(),
        };
        let config = SessionConfig {
            threads: Some(3),
            ..SessionConfig::default()
        };
        let mut s =
            GomokuSession::with_player(config, Arc::new(StopSignal::new()), Box::new(player));
        assert_eq!(seen.lock().unwrap().threads, 3);
        s.info(Setting::ThreadNum(8));
        assert_eq!(
            seen.lock().unwrap().threads,
            3,
            "--threads outranks INFO thread_num"
        );
        // A level chosen later gets the count too (`strong` keeps it for its search).
        s.info(Setting::Level("classic".into()));
        assert_eq!(s.threads(), 3);
    }

    #[test]
    fn the_search_gets_the_deadline_and_a_pending_stop() {
        let (mut s, seen) = scripted(0);
        s.start(15);
        s.info(Setting::TimeoutTurn(1000));
        ask(|r| s.begin(r));
        {
            let seen = seen.lock().unwrap();
            assert!(seen.hard_limit.unwrap() < Duration::from_millis(1000));
            assert!(!seen.stop_seen);
        }
        // A YXSTOP read (line 2) before the search of line 1 started stops it at once.
        s.signal.interrupt(2, crate::session::Interrupt::Stop);
        ask(|r| s.turn(5, 5, r));
        assert!(seen.lock().unwrap().stop_seen);
    }

    #[test]
    fn an_illegal_choice_falls_back_to_a_legal_move() {
        let seen = Arc::new(Mutex::new(Seen::default()));
        let player = Scripted {
            score: 0,
            mate: None,
            pick: Some((7, 7)),
            none: false,
            seen,
        };
        let mut s = GomokuSession::with_player(
            SessionConfig::default(),
            Arc::new(StopSignal::new()),
            Box::new(player),
        );
        s.start(15);
        // The legal point nearest the centre, not the first in scan order (a corner).
        assert_eq!(ask(|r| s.turn(7, 7, r)).0, Reply::Move(7, 6));
    }

    #[test]
    fn swap2_opening_has_three_distinct_points_near_the_centre() {
        for seed in 0..20 {
            for size in [5, 15, 20] {
                let mut s = session();
                s.info(Setting::Seed(seed));
                s.start(size);
                let (r, _) = ask(|r| s.swap2(&[], r));
                let Reply::Moves(ms) = r else { panic!("{r:?}") };
                assert_eq!(ms.len(), 3);
                assert!(ms[0] != ms[1] && ms[1] != ms[2] && ms[0] != ms[2]);
                let c = size / 2;
                for &(x, y) in &ms {
                    assert!((x as i64 - c).abs() <= 3 && (y as i64 - c).abs() <= 3);
                }
                let b = s.board().unwrap();
                assert_eq!(b.stones(), 3);
                assert_eq!(b.to_move(), Color::White);
            }
        }
    }

    #[test]
    fn swap2_decides_by_whites_score() {
        let three = plain(&[(7, 7), (8, 8), (7, 9)]);
        let (mut s, _) = scripted(-400);
        s.start(15);
        assert_eq!(ask(|r| s.swap2(&three, r)).0, Reply::Swap);
        let (mut s, _) = scripted(20);
        s.start(15);
        assert_eq!(ask(|r| s.swap2(&three, r)).0, Reply::Move(0, 0));
        let b = s.board().unwrap();
        assert_eq!(b.stones(), 4);
        assert_eq!(b.cell(b.pos(0, 0).unwrap()), Cell::White);
        let five = plain(&[(7, 7), (8, 8), (7, 9), (6, 6), (9, 7)]);
        let (mut s, _) = scripted(-400);
        s.start(15);
        assert_eq!(ask(|r| s.swap2(&five, r)).0, Reply::Swap);
        let (mut s, _) = scripted(0);
        s.start(15);
        assert!(is_err(
            &ask(|r| s.swap2(&plain(&[(1, 1)]), r)).0,
            "0, 3 or 5"
        ));
        assert!(is_err(
            &ask(|r| s.swap2(&plain(&[(1, 1), (1, 1), (2, 2)]), r)).0,
            "occupied"
        ));
    }

    #[test]
    fn renju_forbidden_turns_are_refused_when_the_rule_knows_them() {
        let mut s = session();
        s.info(Setting::Rule(4));
        s.start(15);
        // Black (equal counts: us, field 1): 3,7 4,7 5,7 _ 7,7 8,7 -> 6,7 would be an overline.
        let list = stones(&[
            (3, 7, 1),
            (3, 0, 2),
            (4, 7, 1),
            (5, 0, 2),
            (5, 7, 1),
            (7, 0, 2),
            (7, 7, 1),
            (9, 0, 2),
            (8, 7, 1),
            (11, 0, 2),
        ]);
        assert_eq!(ask(|r| s.set_board(&list, false, r)).0, Reply::Nothing);
        let b = s.board().unwrap();
        assert_eq!(b.to_move(), Color::Black);
        let p = b.pos(6, 7).unwrap();
        assert!(forbidden(b, p).is_some());
        let hash = b.hash();
        let (r, _) = ask(|r| s.turn(6, 7, r));
        assert!(is_err(&r, "forbidden"), "{r:?}");
        assert_eq!(s.board().unwrap().hash(), hash);
        match s.show_forbid() {
            Reply::Forbid(ps) => assert!(ps.contains(&(6, 7))),
            other => panic!("{other:?}"),
        }
        // The same black stones with white to move (one more black stone, so the fields
        // swap): nothing to mark for the next move.
        let mut list: Vec<StoneLine> = list
            .iter()
            .map(|s| StoneLine {
                field: s.field.map(|f| 3 - f),
                ..*s
            })
            .collect();
        list.push(StoneLine {
            x: 14,
            y: 14,
            field: Some(2),
        });
        assert_eq!(ask(|r| s.set_board(&list, false, r)).0, Reply::Nothing);
        let b = s.board().unwrap();
        assert_eq!(b.to_move(), Color::White);
        assert!(forbidden(b, b.pos(6, 7).unwrap()).is_some());
        assert_eq!(s.show_forbid(), Reply::Forbid(Vec::new()));
    }

    #[test]
    fn forbid_is_empty_outside_renju() {
        let mut s = session();
        s.start(15);
        assert_eq!(s.show_forbid(), Reply::Forbid(Vec::new()));
    }

    #[test]
    fn game_over_is_called_once_when_our_move_makes_five() {
        let seen = Arc::new(Mutex::new(Seen::default()));
        let player = Scripted {
            score: 0,
            mate: None,
            pick: Some((4, 0)),
            none: false,
            seen: seen.clone(),
        };
        let mut s = GomokuSession::with_player(
            SessionConfig::default(),
            Arc::new(StopSignal::new()),
            Box::new(player),
        );
        s.start(15);
        let own = [(0, 0, 1), (1, 0, 1), (2, 0, 1), (3, 0, 1)];
        let opp = [(0, 9, 2), (2, 9, 2), (4, 9, 2), (6, 9, 2)];
        let block: Vec<_> = own
            .iter()
            .zip(opp.iter())
            .flat_map(|(a, b)| [*a, *b])
            .collect();
        let (r, _) = ask(|r| s.set_board(&stones(&block), true, r));
        assert_eq!(r, Reply::Move(4, 0));
        assert_eq!(
            seen.lock().unwrap().game_overs,
            vec![(9, Some(Color::Black), Color::Black)]
        );
        // The next START does not report the same game again.
        s.start(15);
        drop(s);
        assert_eq!(seen.lock().unwrap().game_overs.len(), 1);
    }

    #[test]
    fn game_over_follows_the_opponents_five_a_new_start_takeback_and_the_end() {
        let (mut s, seen) = scripted(0);
        s.start(15);
        // We are white: the opponent builds a row on y = 7, we answer the first legal points.
        for x in 3..7 {
            let (r, _) = ask(|r| s.turn(x, 7, r));
            assert!(matches!(r, Reply::Move(_, _)), "{r:?}");
        }
        let (r, _) = ask(|r| s.turn(7, 7, r));
        assert!(is_err(&r, "already over"));
        let calls = seen.lock().unwrap().game_overs.clone();
        assert_eq!(calls, vec![(9, Some(Color::Black), Color::White)]);
        // TAKEBACK reopens the game; START then reports the position as it stands.
        assert_eq!(s.takeback(7, 7), Reply::Ok);
        s.start(15);
        let calls = seen.lock().unwrap().game_overs.clone();
        assert_eq!(calls[1], (8, None, Color::White));
        // A game with no move of ours is not reported; one with a move is, when the session
        // ends (END or end of input).
        s.start(15);
        assert_eq!(seen.lock().unwrap().game_overs.len(), 2);
        let (r, _) = ask(|r| s.begin(r));
        assert!(matches!(r, Reply::Move(_, _)));
        drop(s);
        let calls = seen.lock().unwrap().game_overs.clone();
        assert_eq!(calls.len(), 3);
        assert_eq!(calls[2], (1, None, Color::Black));
    }

    #[test]
    fn unknown_info_keys_go_to_the_player_and_refusals_become_complaints() {
        let (mut s, seen) = scripted(0);
        s.start(15);
        s.info(Setting::Other {
            key: "scripted_opt".into(),
            value: "7".into(),
        });
        s.info(Setting::Other {
            key: "hash_size".into(),
            value: "1".into(),
        });
        let (r, _) = ask(|r| s.begin(r));
        assert!(matches!(r, Reply::Move(_, _)));
        s.info(Setting::Other {
            key: "scripted_opt".into(),
            value: "bad".into(),
        });
        let (r, _) = ask(|r| s.turn(0, 14, r));
        assert!(is_err(&r, "INFO scripted_opt bad: refused"), "{r:?}");
        assert_eq!(
            seen.lock().unwrap().options,
            vec![
                ("scripted_opt".to_string(), "7".to_string()),
                ("scripted_opt".to_string(), "bad".to_string())
            ]
        );
        // Remembered for a player chosen later: the learner gets a valid kernel size.
        s.info(Setting::Other {
            key: "kernel".into(),
            value: "5".into(),
        });
        s.info(Setting::Level("learner".into()));
        assert_eq!(s.level(), "learner");
        assert!(s.pending_complaint().is_none());
    }
}
