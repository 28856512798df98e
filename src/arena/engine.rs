//! What the referee asks of a player, whatever it is: an engine process spoken to over Gomocup
//! ([`super::gomocup`]) or GTP ([`super::gtp`]), or one of our own levels called in-process
//! ([`Internal`], the fast path for tests and quick A/B runs).
//!
//! The referee hands every request the whole game so far; each driver works out what its
//! engine has not been told yet (Gomocup `TURN` vs `BOARD`, GTP `play` commands), so a driver
//! can always resynchronise after a restart.

use std::fmt;
use std::time::Instant;

use super::coords::{go_move, gtp_vertex, mv_of_go, Mv};
use super::manifest::GameName;
use super::tc::{MoveBudget, TimeControl};
use crate::players::player::decide_with_limit;
use crate::players::{go_level, mnk_level};
use crate::players::{Decision, Player};
use crate::rules::go::{score_detail, GoGame, GoMove, GoRules, KoRule, Scoring};
use crate::rules::{Board, Color, Pos, Position, Rule};
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
    /// Time control.
    pub tc: TimeControl,
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
    /// Seeds the engine's random choices for the next game. In-process engines take it, so a
    /// node-limited tournament replays exactly whichever worker plays which game; a process
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

/// What a [`GameName`] is to the arena: its position type, for the code that works the same
/// for every game ([`Internal`], the referee's [`super::referee::Position`]).
pub trait GameVisitor {
    /// What the visit gives.
    type Out;
    /// Does the work for the game whose positions are `P`.
    fn visit<P: ArenaPosition>(self) -> Self::Out;
}

/// Calls `visitor` with the position type of `game`: the one place the arena maps a game's
/// name to its game (a new game adds its arm here, its name to [`GameName`] and an
/// [`ArenaPosition`] impl).
pub fn with_game<V: GameVisitor>(game: GameName, visitor: V) -> V::Out {
    match game {
        GameName::Gomoku | GameName::Renju | GameName::Ttt => visitor.visit::<Board>(),
        GameName::Go => visitor.visit::<GoGame>(),
    }
}

/// A game's position as the referee's moves reach it.
pub trait ArenaPosition: Position + 'static {
    /// The empty position of `setup`, if it is this game on a board it can play.
    fn from_setup(setup: &GameSetup) -> Option<Self>;
    /// Our level `level` of `game` (one of the names this position plays), seeded with `seed`.
    fn level(game: GameName, level: &str, seed: u64) -> Option<Box<dyn Player<Self>>>;
    /// The move `mv` here; a refusal says why not (off the board, a pass where none exists).
    fn to_move_of(&self, mv: Mv) -> Result<Self::Move, String>;
    /// The referee's spelling of our move `m`.
    fn mv_of(&self, m: Self::Move) -> Mv;
    /// How `mv` is named in a refusal.
    fn name_of(&self, mv: Mv) -> String;
    /// Black's and white's points (komi included) where a finished game is counted (Go);
    /// `None` where a line or a full board ends it.
    fn area_count(&self) -> Option<(f32, f32)> {
        None
    }
    /// The move limit when none is given: none for boards that fill up.
    fn default_move_limit(&self) -> Option<usize> {
        None
    }
    /// The gomoku-family board, for what only gomoku asks (opening balance); `None` elsewhere.
    fn mnk_board(&self) -> Option<&Board> {
        None
    }
}

impl ArenaPosition for Board {
    /// An empty gomoku-family board (tic-tac-toe: 3 in a row), if the setup is one.
    fn from_setup(setup: &GameSetup) -> Option<Board> {
        match setup.game {
            GameName::Ttt => (setup.width == 3 && setup.height == 3)
                .then(|| Board::with_k(3, 3, 3, Rule::Freestyle)),
            GameName::Gomoku | GameName::Renju => {
                Board::new(setup.width, setup.height, setup.rule).ok()
            }
            GameName::Go => None,
        }
    }
    fn level(game: GameName, level: &str, seed: u64) -> Option<Box<dyn Player<Board>>> {
        mnk_level(game == GameName::Ttt, level, seed)
    }
    fn to_move_of(&self, mv: Mv) -> Result<Pos, String> {
        let Mv::At(x, y) = mv else {
            return Err("pass is not a move in this game".into());
        };
        self.pos(x as i64, y as i64)
            .ok_or_else(|| format!("{mv} is off the board"))
    }
    fn mv_of(&self, p: Pos) -> Mv {
        let (x, y) = self.xy(p);
        Mv::At(x, y)
    }
    fn name_of(&self, mv: Mv) -> String {
        mv.to_string()
    }
    fn mnk_board(&self) -> Option<&Board> {
        Some(self)
    }
}

impl ArenaPosition for GoGame {
    /// An empty Go game under the referee's rules (Chinese area scoring, positional superko,
    /// no suicide, the setup's komi), if the setup is Go on a playable board.
    fn from_setup(setup: &GameSetup) -> Option<GoGame> {
        let rules = GoRules {
            komi: setup.komi,
            ko: KoRule::PositionalSuperko,
            scoring: Scoring::Area,
            suicide: false,
            ..GoRules::default()
        };
        (setup.game == GameName::Go)
            .then(|| GoGame::new(setup.width, setup.height, rules).ok())
            .flatten()
    }
    fn level(_game: GameName, level: &str, seed: u64) -> Option<Box<dyn Player<GoGame>>> {
        go_level(level, seed)
    }
    fn to_move_of(&self, mv: Mv) -> Result<GoMove, String> {
        go_move(mv, self.board()).ok_or_else(|| format!("{} is off the board", self.name_of(mv)))
    }
    fn mv_of(&self, m: GoMove) -> Mv {
        mv_of_go(m, self.board())
    }
    fn name_of(&self, mv: Mv) -> String {
        gtp_vertex(mv, self.board().height())
    }
    /// Area counted as the board stands, every stone alive (see [`super::referee`]).
    fn area_count(&self) -> Option<(f32, f32)> {
        let d = score_detail(self.board(), &[], self.rules());
        let black = (d.stones[0] + d.territory[0]) as f32;
        Some((
            black,
            (d.stones[1] + d.territory[1]) as f32 + self.rules().komi,
        ))
    }
    fn default_move_limit(&self) -> Option<usize> {
        Some(3 * self.board().width() * self.board().height())
    }
}

/// Plays the referee's move `mv` on `pos` for the side to move; the refusal names the move as
/// the game spells it.
pub fn play_mv<P: ArenaPosition>(pos: &mut P, mv: Mv) -> Result<(), String> {
    let m = pos.to_move_of(mv)?;
    pos.play(m).map_err(|e| format!("{}: {e}", pos.name_of(mv)))
}

/// A level and the game it has been told so far. The player and the position live across the
/// moves of a game, so that a search can reuse its tree as it does under a protocol, and a
/// request that extends the last one is played on, not replayed.
struct Side<P: ArenaPosition> {
    player: Box<dyn Player<P>>,
    /// The position after `told`.
    kept: Option<(P, Vec<(Color, Mv)>)>,
}

impl<P: ArenaPosition> Side<P> {
    /// The position after `moves`, kept for the next request. A move the rules or the turn
    /// order refuse is a refusal.
    fn sync(&mut self, setup: &GameSetup, moves: &[(Color, Mv)]) -> Result<&P, Fault> {
        let (mut pos, mut told) = match self.kept.take() {
            Some((pos, told)) if moves.starts_with(&told) => (pos, told),
            _ => (
                P::from_setup(setup)
                    .ok_or_else(|| Fault::Refused(format!("not a {} game", setup.game.name())))?,
                Vec::new(),
            ),
        };
        for &(c, mv) in &moves[told.len()..] {
            if c != pos.to_move() {
                return Err(Fault::Refused(format!("{c:?} moved out of turn")));
            }
            play_mv(&mut pos, mv).map_err(Fault::Refused)?;
            told.push((c, mv));
        }
        Ok(&self.kept.insert((pos, told)).0)
    }
}

impl<P: ArenaPosition> InternalSide for Side<P> {
    fn reseed(&mut self, seed: u64) {
        self.player.set_seed(seed);
    }

    fn start_game(&mut self, setup: &GameSetup) -> Result<(), Fault> {
        let start = P::from_setup(setup).ok_or_else(|| {
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
        struct NewSide<'a>(GameName, &'a str, u64);
        impl GameVisitor for NewSide<'_> {
            type Out = Option<Box<dyn InternalSide>>;
            fn visit<P: ArenaPosition>(self) -> Self::Out {
                let player = P::level(self.0, self.1, self.2)?;
                Some(Box::new(Side::<P> { player, kept: None }))
            }
        }
        let side = with_game(game, NewSide(game, level, seed))?;
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

    /// A square board of `game` (freestyle), komi 7.5, a minute per move: the clock never
    /// cuts a node-limited search short.
    pub(crate) fn loose_setup(game: GameName, size: usize) -> GameSetup {
        GameSetup {
            game,
            rule: Rule::Freestyle,
            width: size,
            height: size,
            komi: 7.5,
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
    fn go_moves_reach_the_referee_as_the_gtp_driver_reports_them() {
        let game = GoGame::new(5, 5, GoRules::default()).unwrap();
        assert_eq!(game.mv_of(GoMove::Pass), Mv::Pass);
        // GTP A5 is the top-left corner: the arena's (0, 0).
        let a5 = game.board().point(0, 4).unwrap();
        assert_eq!(game.mv_of(GoMove::Play(a5)), Mv::At(0, 0));
        assert_eq!(game.to_move_of(Mv::At(0, 0)), Ok(GoMove::Play(a5)));
        assert_eq!(
            game.to_move_of(Mv::At(5, 0)),
            Err("F5 is off the board".into())
        );
        let board = Board::new(9, 9, Rule::Freestyle).unwrap();
        assert_eq!(
            board.to_move_of(Mv::Pass),
            Err("pass is not a move in this game".into())
        );
        let p = board.to_move_of(Mv::At(2, 3)).unwrap();
        assert_eq!(board.mv_of(p), Mv::At(2, 3));
    }

    #[test]
    fn a_reseeded_go_engine_forgets_its_last_game_and_replays_a_fresh_one() {
        let s = go_setup(5);
        let moves = |engines: [&mut dyn Engine; 2]| -> Vec<Mv> {
            let r = play_game(&s, &[], engines, 1000, Some(30));
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
