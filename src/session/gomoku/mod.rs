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
//!   error. Field 3 (continuous-game marker) stones belong to neither side: they become blocked
//!   points of the board ([`Board::block`]), where nobody plays and every line breaks, as at
//!   the edge; the search plays near them as near stones. Stones
//!   are applied in the order given (renju managers send move order; a renju block whose
//!   colours do not alternate is accepted with a warning).
//! * **SWAP2.** With 0 stones the player proposes three opening stones
//!   ([`GomokuPlayer::swap2_opening`], drawn with the session's seeded generator). With 3 or 5
//!   stones we search the position with white to move and the player decides from the last
//!   report ([`GomokuPlayer::swap2_takes_black`]): `SWAP` (take black), or we stay white and play
//!   the move the search chose.
//! * **YXNBEST** is analysis: it searches and answers the best move but does not play it. So
//!   are **YXBALANCEONE / YXBALANCETWO** and **YXSEARCHDEFEND** (`analysis.rs`).
//! * **YXBLOCK** points (`analysis.rs`) are never the root's answer (searches, YXNBEST, the
//!   analyses) while another legal point exists; they stay until YXBLOCKRESET or a new game
//!   (START, RECTSTART, RESTART), whatever BOARD, TURN or TAKEBACK do meanwhile.
//! * **Pondering** (`INFO pondering 1`, off by default): after a reply that played our move,
//!   the loop lets [`GomokuSession::ponder`] search the opponent's position until the next line
//!   arrives (or end of input); it writes nothing, and no reply depends on it, only the moves
//!   a player finds with what its tables kept.
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
//!
//! The session's jobs, one file each: what `INFO` sets (`info.rs`), the positions BOARD and
//! SWAP2BOARD describe (`setup.rs`), the search limit and the lateness it learns (`clock.rs`);
//! which board a `START` makes and the tic-tac-toe level are [`crate::session::mnk`]'s.

mod analysis;
pub mod clock;
pub mod info;
mod setup;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use log::warn;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::players::{gomoku_player, GomokuPlayer, MoveRequest, SearchInfo, GOMOKU_LEVELS};
use crate::rules::gomoku::forbidden_points;
use crate::rules::mnk::board::MAX_SIZE;
use crate::rules::{Board, Cell, Color, Pos, Rule};
use crate::search::clock::{Lateness, TimeManager};
use crate::search::MAX_THREADS;
use crate::session::mnk::{empty_board, is_tic_tac_toe, TttLevel};
use crate::session::StopSignal;

use info::Settings;

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
    /// `MESSAGE` lines (YXHASHCLEAR, YXSHOWINFO).
    Messages(Vec<String>),
    /// `MESSAGE` lines, then a reply (YXSEARCHDEFEND's findings and its move).
    Annotated(Vec<String>, Box<Reply>),
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
    /// Yixin-Board's: think on the opponent's time (1) or not (0).
    Pondering(i64),
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
    /// Rows of the board, so that the protocol can name the pv's points (renju notation
    /// counts rows from the bottom).
    pub height: usize,
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
    /// Think on the opponent's time from the start (`--ponder`); `INFO pondering` switches it.
    pub ponder: bool,
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
            ponder: false,
        }
    }
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
    ttt: TttLevel,
    complaints: Vec<String>,
    /// The YXBLOCK points, as (x, y): no search answers one while another legal point exists.
    blocks: Vec<(usize, usize)>,
    /// The position (hash) our last played move left, while pondering may start from it.
    ponder_from: Option<u64>,
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
        let ttt = TttLevel::named(&config.level, config.seed);
        let player = gomoku_player(&config.level, config.seed).unwrap_or_else(|| {
            if ttt.is_none() {
                warn!("unknown level '{}', using the default", config.level);
            }
            gomoku_player(GOMOKU_LEVELS[0].0, config.seed).expect("default level exists")
        });
        let ttt = ttt.unwrap_or_else(|| TttLevel::default_level(config.seed));
        let mut s = GomokuSession {
            board: None,
            rule: config.rule.unwrap_or(Rule::Freestyle),
            settings: Settings {
                pondering: config.ponder,
                ..Settings::default()
            },
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            config,
            player,
            ttt,
            complaints: Vec::new(),
            blocks: Vec::new(),
            ponder_from: None,
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
                self.blocks.clear();
                self.ponder_from = None;
                Reply::Ok
            }
            Err(e) => Reply::Error(e.to_string()),
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
    /// board, blocked (field 3), occupied or forbidden.
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

    /// `YXHASHCLEAR`: the player forgets its transposition table and everything else it
    /// learnt in this game, as at a new game (the tables stay allocated).
    pub fn hash_clear(&mut self) -> Reply {
        // A GUI may send it before any game: there is nothing to forget then, and no fault.
        let Some(b) = &self.board else {
            return Reply::Messages(vec!["no game yet: nothing to clear".into()]);
        };
        self.player.new_game(b);
        Reply::Messages(vec!["transposition table cleared".into()])
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
                self.ponder_from = (!won).then(|| board.hash());
                if won {
                    self.conclude_game();
                }
                Reply::Move(x, y)
            }
            Err(e) => Reply::Error(format!("internal: our move {x},{y} was refused: {e}")),
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
        let board = self.board.clone().ok_or(Reply::Error(NO_GAME.into()))?;
        self.search_on(&board, req, nbest, &[], &limit)
            .map(|found| (found.best, found.last))
    }

    /// The YXBLOCK points of `board` that are still empty, then `extra`.
    fn excluded_on(&self, board: &Board, extra: &[Pos]) -> Vec<Pos> {
        let mut out: Vec<Pos> = self
            .blocks
            .iter()
            .filter_map(|&(x, y)| board.pos(x as i64, y as i64))
            .filter(|&p| board.is_empty(p))
            .collect();
        out.extend_from_slice(extra);
        out
    }

    /// Runs the player on `board` (the current one, or one an analysis derived from it) under
    /// `limit`, never answering a YXBLOCK point or one of `extra` while another legal point
    /// exists. Returns a legal move with the reports, or the reply to send when there is
    /// nothing to play.
    fn search_on(
        &mut self,
        board: &Board,
        req: &mut Request<'_>,
        nbest: usize,
        extra: &[Pos],
        limit: &crate::search::clock::SearchLimit,
    ) -> Result<Found, Reply> {
        if board.winner().is_some() {
            return Err(Reply::Error("the game is already over".into()));
        }
        let excluded = self.excluded_on(board, extra);
        self.signal.arm(req.seq);
        let tm = TimeManager::new(limit, req.at, self.signal.flag());
        let mut last: Option<SearchInfo> = None;
        // The latest line of each rank (YXNBEST, the balance searches).
        let mut lines: Vec<SearchInfo> = Vec::new();
        let progress = &mut *req.progress;
        let mut report = |i: &SearchInfo| {
            if i.multipv <= 1 {
                last = Some(i.clone());
            }
            let rank = i.multipv.max(1);
            if rank <= nbest {
                if lines.len() < rank {
                    lines.resize(rank, SearchInfo::default());
                }
                lines[rank - 1] = i.clone();
            }
            progress(&to_progress(board, i));
        };
        let mut mr = MoveRequest {
            tm: &tm,
            nbest,
            excluded: &excluded,
            report: &mut report,
        };
        let choice = if is_tic_tac_toe(board) {
            self.ttt.choose(board, &tm)
        } else {
            self.player.choose(board, &mut mr)
        };
        self.signal.disarm();
        self.pending_reply = Some((req.at, tm.hard_limit()));
        let legal = |p: Pos| on_board(board, p) && board.check(p).is_ok();
        let allowed = |p: Pos| legal(p) && !excluded.contains(&p);
        let any_allowed = board.empty_points().any(allowed);
        let lines: Vec<SearchInfo> = lines.into_iter().filter(|i| !i.pv.is_empty()).collect();
        match choice {
            Some(p) if allowed(p) || (legal(p) && !any_allowed) => Ok(Found {
                best: p,
                last,
                lines,
            }),
            other => {
                if let Some(p) = other {
                    let (x, y) = board.xy(p);
                    warn!(
                        "player {} chose {x},{y}, which is illegal or excluded; using a fallback",
                        self.player.name()
                    );
                }
                // The allowed point nearest the centre (else the legal one): a player that
                // ignores the exclusions still answers near the middle, and a corner is the
                // worst answer to a board it took for empty.
                let (w, h) = (board.width() as i64, board.height() as i64);
                let off_centre = |p: &Pos| {
                    let (x, y) = board.xy(*p);
                    let (dx, dy) = (2 * x as i64 - (w - 1), 2 * y as i64 - (h - 1));
                    (dx * dx + dy * dy, y, x)
                };
                let pick = |ok: &dyn Fn(Pos) -> bool| {
                    board
                        .empty_points()
                        .filter(|&p| ok(p))
                        .min_by_key(off_centre)
                };
                match pick(&allowed).or_else(|| pick(&legal)) {
                    Some(p) => Ok(Found {
                        best: p,
                        last,
                        lines: Vec::new(),
                    }),
                    None => Err(Reply::Error("no legal move".into())),
                }
            }
        }
    }
}

/// What one search found: the move, its last report, and the latest line of each rank.
struct Found {
    best: Pos,
    last: Option<SearchInfo>,
    lines: Vec<SearchInfo>,
}

impl Drop for GomokuSession {
    /// END or end of input: the game in progress ends with the session.
    fn drop(&mut self) {
        self.conclude_game();
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
        height: b.height(),
    }
}

#[cfg(test)]
mod tests;
