//! What the referee asks of a player, whatever it is: an engine process spoken to over Gomocup
//! ([`super::gomocup`]) or GTP ([`super::gtp`]), or one of our own levels called in-process
//! ([`Internal`], the fast path for tests and quick A/B runs).
//!
//! The referee hands every request the whole game so far; each driver works out what its
//! engine has not been told yet (Gomocup `TURN` vs `BOARD`, GTP `play` commands), so a driver
//! can always resynchronise after a restart.

use std::fmt;
use std::time::Instant;

use super::coords::Mv;
use super::manifest::GameName;
use super::tc::{MoveBudget, TimeControl};
use crate::players::player::decide_with_limit;
use crate::players::{with_level, Decision, LevelVisitor, Player};
use crate::rules::game::{GamePosition, Setup};
use crate::rules::{Color, Rule};
use crate::search::clock::{GameClock, SearchLimit};

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
    /// Go: black's fixed handicap stones, 0 for none ([`Setup::handicap`]); engines are told
    /// `fixed_handicap`.
    pub handicap: usize,
    /// Time control.
    pub tc: TimeControl,
}

impl GameSetup {
    /// The board the game is set up on, as the rules take it.
    pub fn board(&self) -> Setup {
        Setup {
            game: self.game,
            rule: self.rule,
            width: self.width,
            height: self.height,
            komi: self.komi,
            handicap: self.handicap,
        }
    }
    /// Black's handicap stones as the games' moves, in GTP's order (none without a handicap).
    pub fn handicap_stones(&self) -> Vec<Mv> {
        if self.handicap == 0 {
            return Vec::new();
        }
        let Some(game) = crate::rules::go::GoGame::start(&self.board()) else {
            return Vec::new();
        };
        (game.setup().iter())
            .map(|&(p, _)| game.mv_of(crate::rules::go::GoMove::Play(p)))
            .collect()
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
/// `Refused` also make the runner restart the engine before its next game (a Gomocup engine
/// restarts after a refusal too: its replies are not framed, so it cannot be resynchronised).
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
    /// The move for `color`, given every move so far (opening included, from the setup's start:
    /// black first, white after a handicap). The
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
    /// Seeds the engine's random choices for the next game. In-process engines take it, so a
    /// node-limited tournament replays exactly whichever worker plays which game; a GTP process
    /// is sent it with `set_random_seed` when it has that command ([`super::gtp`]); any other
    /// keeps the seed it was started with (`{seed}` in its manifest).
    fn reseed(&mut self, _seed: u64) {}
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

/// One of our levels, called in-process: `internal:<level>` for any gomoku, tic-tac-toe or Go
/// level. Deterministic with a node limit, no process start-up, but it cannot be killed: a late
/// answer is measured and forfeited after the fact.
pub struct Internal {
    name: String,
    side: Box<dyn InternalSide>,
    nodes: Option<u64>,
}

/// What [`Internal`] asks of its level, whatever the game.
trait InternalSide: Send {
    fn reseed(&mut self, seed: u64);
    fn start_game(&mut self, setup: &GameSetup) -> Result<(), Fault>;
    fn ask(
        &mut self,
        setup: &GameSetup,
        moves: &[(Color, Mv)],
        color: Color,
        limit: &SearchLimit,
        start: Instant,
    ) -> Result<Answer, Fault>;
}

/// A level and the game it has been told so far. The player and the position live across the
/// moves of a game, so that a search can reuse its tree as it does under a protocol, and a
/// request that extends the last one is played on, not replayed.
struct Side<P: GamePosition> {
    player: Box<dyn Player<P>>,
    /// The position after `told`.
    kept: Option<(P, Vec<(Color, Mv)>)>,
}

impl<P: GamePosition> Side<P> {
    /// The position after `moves`, kept for the next request. A move the rules or the turn
    /// order refuse is a refusal.
    fn sync(&mut self, setup: &GameSetup, moves: &[(Color, Mv)]) -> Result<&P, Fault> {
        let (mut pos, mut told) = match self.kept.take() {
            Some((pos, told)) if moves.starts_with(&told) => (pos, told),
            _ => (
                P::start(&setup.board())
                    .ok_or_else(|| Fault::Refused(format!("not a {} game", setup.game.name())))?,
                Vec::new(),
            ),
        };
        for &(c, mv) in &moves[told.len()..] {
            if c != pos.to_move() {
                return Err(Fault::Refused(format!("{c:?} moved out of turn")));
            }
            pos.play_mv(mv).map_err(Fault::Refused)?;
            told.push((c, mv));
        }
        Ok(&self.kept.insert((pos, told)).0)
    }
}

impl<P: GamePosition> InternalSide for Side<P> {
    fn reseed(&mut self, seed: u64) {
        self.player.set_seed(seed);
    }

    fn start_game(&mut self, setup: &GameSetup) -> Result<(), Fault> {
        let start = P::start(&setup.board()).ok_or_else(|| {
            Fault::Refused(format!(
                "cannot play {} on {}x{}",
                setup.game.name(),
                setup.width,
                setup.height
            ))
        })?;
        self.player.new_game(&start);
        self.kept = None;
        Ok(())
    }

    fn ask(
        &mut self,
        setup: &GameSetup,
        moves: &[(Color, Mv)],
        color: Color,
        limit: &SearchLimit,
        start: Instant,
    ) -> Result<Answer, Fault> {
        let pos = Side::sync(self, setup, moves)?;
        if pos.to_move() != color {
            return Err(Fault::Refused("asked to move out of turn".into()));
        }
        let pos = pos.clone();
        match decide_with_limit(self.player.as_mut(), &pos, limit, start) {
            Some(Decision::Play(m)) => Ok(Answer::Move(pos.mv_of(m))),
            Some(Decision::Resign) => Ok(Answer::Resign),
            None => Err(Fault::Garbage("no move".into())),
        }
    }
}

/// The limit of one move: the node budget and the clock as the referee tells it.
fn move_limit(setup: &GameSetup, budget: &MoveBudget, nodes: Option<u64>) -> SearchLimit {
    SearchLimit {
        depth: None,
        nodes,
        clock: GameClock {
            turn_ms: budget.move_ms,
            left_ms: budget.left_ms,
            moves_to_go: None,
            increment_ms: setup.tc.increment_ms,
            lag_ms: 0,
        },
    }
}

impl Internal {
    /// The level `level` of `game`, seeded with `seed`, searching at most `nodes` per move.
    pub fn new(game: GameName, level: &str, seed: u64, nodes: Option<u64>) -> Option<Internal> {
        struct NewSide;
        impl LevelVisitor for NewSide {
            type Out = Box<dyn InternalSide>;
            fn visit<P: GamePosition>(self, player: Box<dyn Player<P>>) -> Self::Out {
                Box::new(Side::<P> { player, kept: None })
            }
        }
        let side = with_level(game, level, seed, NewSide)?;
        Some(Internal {
            name: format!("internal:{level}"),
            side,
            nodes,
        })
    }
}

impl Engine for Internal {
    fn name(&self) -> &str {
        &self.name
    }

    fn reseed(&mut self, seed: u64) {
        self.side.reseed(seed);
    }

    fn start_game(&mut self, setup: &GameSetup, _: Instant) -> Result<(), Fault> {
        self.side.start_game(setup)
    }

    fn ask(
        &mut self,
        setup: &GameSetup,
        moves: &[(Color, Mv)],
        color: Color,
        budget: &MoveBudget,
        start: Instant,
    ) -> Result<Answer, Fault> {
        let limit = move_limit(setup, budget, self.nodes);
        self.side.ask(setup, moves, color, &limit, start)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::arena::referee::{play_game, Position};
    use std::sync::atomic::AtomicUsize;

    /// A square board of `game` (freestyle), komi 7.5, a minute per move: the clock never
    /// cuts a node-limited search short.
    pub(crate) fn loose_setup(game: GameName, size: usize) -> GameSetup {
        GameSetup {
            game,
            rule: Rule::Freestyle,
            width: size,
            height: size,
            komi: 7.5,
            handicap: 0,
            tc: TimeControl {
                game_ms: None,
                increment_ms: 0,
                move_ms: Some(60_000),
            },
        }
    }

    fn go_setup(size: usize) -> GameSetup {
        loose_setup(GameName::Go, size)
    }

    const BUDGET: MoveBudget = MoveBudget {
        move_ms: Some(60_000),
        left_ms: None,
        hard_ms: 61_000,
    };

    fn ask(
        e: &mut Internal,
        s: &GameSetup,
        moves: &[(Color, Mv)],
        c: Color,
    ) -> Result<Answer, Fault> {
        e.ask(s, moves, c, &BUDGET, Instant::now())
    }

    fn refusal(r: Result<Answer, Fault>) -> String {
        match r {
            Err(Fault::Refused(why)) => why,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn internal_go_refuses_illegal_and_out_of_turn_moves_and_answers_legal_ones() {
        let s = go_setup(5);
        let mut e = Internal::new(GameName::Go, "mcts", 3, Some(100)).unwrap();
        assert_eq!(e.name(), "internal:mcts");
        e.start_game(&s, Instant::now()).unwrap();
        let (b, w) = (Color::Black, Color::White);
        let occupied = refusal(ask(&mut e, &s, &[(b, Mv::At(2, 2)), (w, Mv::At(2, 2))], b));
        assert!(
            occupied.contains("C3") && occupied.contains("occupied"),
            "{occupied}"
        );
        let twice = refusal(ask(&mut e, &s, &[(b, Mv::At(2, 2)), (b, Mv::At(1, 1))], w));
        assert!(twice.contains("out of turn"), "{twice}");
        let off = refusal(ask(&mut e, &s, &[(b, Mv::At(5, 0))], w));
        assert!(off.contains("off the board"), "{off}");
        let turn = refusal(ask(&mut e, &s, &[(b, Mv::At(2, 2))], b));
        assert!(turn.contains("out of turn"), "{turn}");
        // White a5 between black b5 and a4 is suicide, which the referee's rules forbid.
        let suicide = [
            (b, Mv::At(1, 0)),
            (w, Mv::At(4, 4)),
            (b, Mv::At(0, 1)),
            (w, Mv::At(0, 0)),
        ];
        let why = refusal(ask(&mut e, &s, &suicide, b));
        assert!(why.contains("A5") && why.contains("suicide"), "{why}");
        // Passes are moves; the answer is one the referee accepts, on whatever game is asked
        // about (the engine follows a history that does not extend the last one).
        for history in [
            vec![(b, Mv::At(2, 2)), (w, Mv::Pass)],
            vec![(b, Mv::At(2, 2)), (w, Mv::Pass), (b, Mv::At(1, 2))],
            vec![(b, Mv::At(0, 4)), (w, Mv::At(4, 0))],
        ] {
            let color = if history.len() % 2 == 0 { b } else { w };
            let Ok(Answer::Move(mv)) = ask(&mut e, &s, &history, color) else {
                panic!("no move after {history:?}");
            };
            let mut pos = Position::new(&s).unwrap();
            for &(_, m) in &history {
                pos.play(m).unwrap();
            }
            pos.play(mv)
                .unwrap_or_else(|err| panic!("{mv} after {history:?}: {err}"));
        }
    }

    #[test]
    fn internal_go_refuses_boards_and_levels_it_cannot_play() {
        assert!(Internal::new(GameName::Go, "nonesuch", 1, None).is_none());
        assert!(Internal::new(GameName::Go, "strong", 1, None).is_none());
        let mut e = Internal::new(GameName::Go, "heuristic", 1, None).unwrap();
        for bad in [go_setup(1), go_setup(26)] {
            let r = e.start_game(&bad, Instant::now());
            assert!(matches!(r, Err(Fault::Refused(_))), "{}: {r:?}", bad.width);
        }
        let gomoku = GameSetup {
            game: GameName::Gomoku,
            ..go_setup(15)
        };
        assert!(matches!(
            e.start_game(&gomoku, Instant::now()),
            Err(Fault::Refused(_))
        ));
        // And a gomoku level does not take a Go board.
        let mut strong = Internal::new(GameName::Gomoku, "strong", 1, None).unwrap();
        assert!(strong.start_game(&go_setup(9), Instant::now()).is_err());
    }

    #[test]
    fn a_reseeded_go_engine_forgets_its_last_game_and_replays_a_fresh_one() {
        let s = go_setup(5);
        let moves = |engines: [&mut dyn Engine; 2]| -> Vec<Mv> {
            let r = play_game(&s, &[], engines, 1000, Some(30), &AtomicUsize::new(0));
            r.moves.iter().map(|p| p.mv).collect()
        };
        let fresh = |seed| Internal::new(GameName::Go, "mcts", seed, Some(200)).unwrap();
        let mut used = fresh(7);
        let mut other = fresh(8);
        moves([&mut used, &mut other]);
        // A game that ended after one move leaves a tree whose root is the empty board again.
        used.start_game(&s, Instant::now()).unwrap();
        assert!(ask(&mut used, &s, &[], Color::Black).is_ok());
        // Same seeds as two fresh engines: nothing of the last games may leak in.
        used.reseed(1);
        other.reseed(2);
        let again = moves([&mut used, &mut other]);
        assert_eq!(again, moves([&mut fresh(1), &mut fresh(2)]));
        assert!(again.len() > 10, "{again:?}");
        // Another seed, another game.
        used.reseed(3);
        assert_ne!(moves([&mut used, &mut fresh(2)]), again);
    }
}
