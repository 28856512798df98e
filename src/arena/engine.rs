//! What the referee asks of a player, whatever it is: an engine process spoken to over Gomocup
//! ([`super::gomocup`]) or GTP ([`super::gtp`]), or one of our own levels called in-process
//! ([`Internal`], the fast path for tests and quick A/B runs).
//!
//! The referee hands every request the whole game so far; each driver works out what its
//! engine has not been told yet (Gomocup `TURN` vs `BOARD`, GTP `play` commands), so a driver
//! can always resynchronise after a restart.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::coords::Mv;
use super::manifest::GameName;
use super::tc::{MoveBudget, TimeControl};
use crate::players::ttt::TttPlayer;
use crate::players::{gomoku_player, ttt::ttt_player, GomokuPlayer, MoveRequest, SearchInfo};
use crate::rules::{Board, Color, Rule};
use crate::search::clock::{GameClock, SearchLimit, TimeManager};

/// The game every engine is set up for.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSetup {
    /// Which game.
    pub game: GameName,
    /// Gomoku-family rule (freestyle for tic-tac-toe; unused for Go).
    pub rule: Rule,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Go komi (area scoring); unused elsewhere.
    pub komi: f32,
    /// Time control.
    pub tc: TimeControl,
}

impl GameSetup {
    /// An empty gomoku-family board for this setup (tic-tac-toe: 3 in a row), if it is one.
    pub fn mnk_board(&self) -> Option<Board> {
        match self.game {
            GameName::Ttt => (self.width == 3 && self.height == 3)
                .then(|| Board::with_k(3, 3, 3, Rule::Freestyle)),
            GameName::Gomoku | GameName::Renju => {
                Board::new(self.width, self.height, self.rule).ok()
            }
            GameName::Go => None,
        }
    }
}

/// An engine's answer to a move request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A move (checked by the referee, not by the driver).
    Move(Mv),
    /// The engine gives up (GTP `resign`).
    Resign,
}

/// Why an engine could not take part properly. Every fault loses the game; all but
/// `Refused` also make the runner restart the engine before its next game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No answer before the hard deadline (the engine was killed).
    Timeout,
    /// The engine exited or could not be started.
    Crashed(String),
    /// An answer that is not what the protocol allows here.
    Garbage(String),
    /// A well-formed refusal (`ERROR`, `UNKNOWN`, GTP `?`).
    Refused(String),
}

impl Fault {
    /// Whether the engine's process must be restarted before it plays again.
    pub fn needs_restart(&self) -> bool {
        !matches!(self, Fault::Refused(_))
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Timeout => write!(f, "no answer in time"),
            Fault::Crashed(s) => write!(f, "crashed: {s}"),
            Fault::Garbage(s) => write!(f, "garbage answer: {s}"),
            Fault::Refused(s) => write!(f, "refused: {s}"),
        }
    }
}

/// A player the referee can ask for moves. Implementors supply [`Engine::start_game`] and
/// [`Engine::ask`]; the referee calls [`Engine::new_game`] and [`Engine::genmove`], which restart
/// the engine after any fault that leaves its process in doubt.
pub trait Engine: Send {
    /// Name for tables and records.
    fn name(&self) -> &str;
    /// Gets ready for a new game (starting the process if needed), within `setup_deadline`.
    fn start_game(&mut self, setup: &GameSetup, setup_deadline: Instant) -> Result<(), Fault>;
    /// The move for `color`, given every move so far (opening included, black first). The
    /// request started at `start`; the answer must come by `start + budget.hard_ms`.
    fn ask(
        &mut self,
        setup: &GameSetup,
        moves: &[(Color, Mv)],
        color: Color,
        budget: &MoveBudget,
        start: Instant,
    ) -> Result<Answer, Fault>;
    /// This engine's own grace past a move's budget, when its manifest sets one.
    fn tolerance_ms(&self) -> Option<u64> {
        None
    }
    /// Forgets the running process (killing it) so the next game starts a fresh one.
    fn restart(&mut self) {}
    /// Ends the process politely (quit / END), killing it after a grace period.
    fn shutdown(&mut self) {}

    /// [`Engine::start_game`], restarting the engine on a fault that needs it.
    fn new_game(&mut self, setup: &GameSetup, setup_deadline: Instant) -> Result<(), Fault> {
        let r = self.start_game(setup, setup_deadline);
        if r.as_ref().is_err_and(Fault::needs_restart) {
            self.restart();
        }
        r
    }
    /// [`Engine::ask`], restarting the engine on a fault that needs it.
    fn genmove(
        &mut self,
        setup: &GameSetup,
        moves: &[(Color, Mv)],
        color: Color,
        budget: &MoveBudget,
        start: Instant,
    ) -> Result<Answer, Fault> {
        let r = self.ask(setup, moves, color, budget, start);
        if r.as_ref().is_err_and(Fault::needs_restart) {
            self.restart();
        }
        r
    }
}

/// One of our levels, called in-process: `internal:<level>` for any gomoku or tic-tac-toe
/// level. Deterministic with a node limit, no process start-up, but it cannot be killed: a late
/// answer is measured and forfeited after the fact.
pub struct Internal {
    name: String,
    player: InternalPlayer,
    nodes: Option<u64>,
}

enum InternalPlayer {
    Gomoku(Box<dyn GomokuPlayer>),
    Ttt(Box<dyn TttPlayer>),
}

impl Internal {
    /// The level `level` of `game`, seeded with `seed`, searching at most `nodes` per move.
    pub fn new(game: GameName, level: &str, seed: u64, nodes: Option<u64>) -> Option<Internal> {
        let player = match game {
            GameName::Gomoku | GameName::Renju => {
                InternalPlayer::Gomoku(gomoku_player(level, seed)?)
            }
            GameName::Ttt => InternalPlayer::Ttt(ttt_player(level, seed)?),
            GameName::Go => return None,
        };
        Some(Internal {
            name: format!("internal:{level}"),
            player,
            nodes,
        })
    }
}

impl Engine for Internal {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_game(&mut self, setup: &GameSetup, _: Instant) -> Result<(), Fault> {
        if setup.mnk_board().is_none() {
            return Err(Fault::Refused(format!(
                "cannot play {} on {}x{}",
                setup.game.name(),
                setup.width,
                setup.height
            )));
        }
        if let InternalPlayer::Gomoku(p) = &mut self.player {
            p.new_game();
            p.prepare(setup.rule);
        }
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
        let mut board = setup
            .mnk_board()
            .ok_or_else(|| Fault::Refused("not a gomoku-family game".into()))?;
        for &(_, mv) in moves {
            let Mv::At(x, y) = mv else {
                return Err(Fault::Refused("a pass in a gomoku game".into()));
            };
            let p = board
                .pos(x as i64, y as i64)
                .ok_or_else(|| Fault::Refused(format!("{mv} is off the board")))?;
            board
                .play(p)
                .map_err(|e| Fault::Refused(format!("{mv}: {e}")))?;
        }
        if board.to_move() != color {
            return Err(Fault::Refused("asked to move out of turn".into()));
        }
        let chosen = match &mut self.player {
            InternalPlayer::Gomoku(p) => {
                let limit = SearchLimit {
                    depth: None,
                    nodes: self.nodes,
                    clock: GameClock {
                        turn_ms: budget.move_ms,
                        left_ms: budget.left_ms,
                        moves_to_go: None,
                        increment_ms: setup.tc.increment_ms,
                        lag_ms: 0,
                    },
                };
                let stop = AtomicBool::new(false);
                let tm = TimeManager::new(&limit, start, &stop);
                let mut sink = |_: &SearchInfo| {};
                let mut req = MoveRequest {
                    tm: &tm,
                    nbest: 1,
                    report: &mut sink,
                };
                p.choose(&board, &mut req)
            }
            InternalPlayer::Ttt(p) => p.choose(&board),
        };
        let p = chosen.ok_or_else(|| Fault::Garbage("no move".into()))?;
        let (x, y) = board.xy(p);
        Ok(Answer::Move(Mv::At(x, y)))
    }
}
