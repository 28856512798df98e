//! The referee: keeps the real position, checks every move against the rules itself (renju
//! forbidden points included), runs the clocks, ends the game and says why.
//!
//! A game ends on a winning line, a full board (draw), the move limit (draw), a resignation, or
//! a fault of one side: an illegal move, an answer past the hard deadline, a crash, a garbage
//! answer or a refusal to play along. The engines are never trusted to say who won.
//!
//! Go: Chinese rules as GNU Go's `--chinese-rules --positional-superko` play them (no suicide,
//! positional superko, komi from the setup). Two passes in a row end the game, which is then
//! counted by area with **every stone on the board alive** (Tromp-Taylor, as on CGOS): the
//! engines must capture dead stones before passing (GNU Go's `--capture-all-dead`). We chose
//! this over asking both engines for `final_status_list dead` because it needs no agreement
//! and no trust, and it cannot be gamed by an engine that claims its opponent's groups dead.
//! A game that reaches the move limit (3 x the board's points by default) is drawn.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::coords::Mv;
use super::engine::{Answer, Engine, Fault, GameSetup};
use super::tc::SideClock;
use crate::rules::game::{with_game, GamePosition, GameVisitor};
use crate::rules::{Board, Color, Outcome};

/// Time allowed for starting an engine and setting up a game, on top of the tolerance.
pub const SETUP_MS: u64 = 10_000;

/// Why a game ended (in `result.json` as `{"kind": "crash", "detail": "..."}`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", content = "detail", rename_all = "kebab-case")]
pub enum EndReason {
    /// A winning line (five, or three in tic-tac-toe).
    Line,
    /// No empty point left.
    BoardFull,
    /// The move limit was reached.
    MoveLimit,
    /// Go: two passes in a row, then area scoring; black's and white's points (komi included).
    Score {
        /// Black's area.
        black: f32,
        /// White's area plus komi.
        white: f32,
    },
    /// The loser resigned.
    Resign,
    /// The loser did not answer in time.
    Time,
    /// The loser's process exited or could not start.
    Crash(String),
    /// The loser answered something that is not a move.
    Garbage(String),
    /// The loser refused a command (setup or a legal move).
    Refused(String),
    /// The loser played a move the rules forbid.
    Illegal(String),
}

impl EndReason {
    /// A short name for tallies.
    pub fn kind(&self) -> &'static str {
        match self {
            EndReason::Line => "line",
            EndReason::BoardFull => "board full",
            EndReason::MoveLimit => "move limit",
            EndReason::Score { .. } => "score",
            EndReason::Resign => "resign",
            EndReason::Time => "time",
            EndReason::Crash(_) => "crash",
            EndReason::Garbage(_) => "garbage",
            EndReason::Refused(_) => "refused",
            EndReason::Illegal(_) => "illegal move",
        }
    }
    fn from_fault(f: Fault) -> EndReason {
        match f {
            Fault::Timeout => EndReason::Time,
            Fault::Crashed(s) => EndReason::Crash(s),
            Fault::Garbage(s) => EndReason::Garbage(s),
            Fault::Refused(s) => EndReason::Refused(s),
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::Line => write!(f, "a winning line"),
            EndReason::BoardFull => write!(f, "the board is full"),
            EndReason::MoveLimit => write!(f, "the move limit"),
            EndReason::Score { black, white } => {
                write!(f, "area score B {black} - W {white}")
            }
            EndReason::Resign => write!(f, "resignation"),
            EndReason::Time => write!(f, "loss on time"),
            EndReason::Crash(s) => write!(f, "crash ({s})"),
            EndReason::Garbage(s) => write!(f, "garbage ({s})"),
            EndReason::Refused(s) => write!(f, "refusal ({s})"),
            EndReason::Illegal(s) => write!(f, "illegal move ({s})"),
        }
    }
}

/// One move of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// Who played it.
    pub color: Color,
    /// The move.
    pub mv: Mv,
    /// Think time in ms; `None` for opening moves (put by the runner).
    pub ms: Option<u64>,
}

/// The result of one refereed game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Opening and played moves, in order.
    pub moves: Vec<Played>,
    /// The result.
    pub outcome: Outcome,
    /// Why it ended.
    pub reason: EndReason,
    /// The think that ended the game without adding a move (lost on time, a crash, garbage,
    /// an illegal move, a resignation): who thought, and for how long in ms.
    pub last_think: Option<(Color, u64)>,
}

/// The position the referee keeps, whatever the game: a [`GamePosition`] chosen once from the
/// setup.
pub struct Position(Box<dyn Refereed>);

/// What the referee asks of a position; every [`GamePosition`] offers it.
trait Refereed: Send {
    fn to_move(&self) -> Color;
    fn play(&mut self, mv: Mv) -> Result<(), String>;
    fn verdict(&self) -> Option<(Outcome, EndReason)>;
    fn default_move_limit(&self) -> Option<usize>;
    fn board(&self) -> Option<&Board>;
}

impl<P: GamePosition> Refereed for P {
    fn to_move(&self) -> Color {
        crate::rules::Position::to_move(self)
    }
    fn play(&mut self, mv: Mv) -> Result<(), String> {
        self.play_mv(mv)
    }
    fn verdict(&self) -> Option<(Outcome, EndReason)> {
        let outcome = self.outcome()?;
        let reason = match (self.area_count(), outcome) {
            (Some((black, white)), _) => EndReason::Score { black, white },
            (None, Outcome::Win(_)) => EndReason::Line,
            (None, Outcome::Draw) => EndReason::BoardFull,
        };
        Some((outcome, reason))
    }
    fn default_move_limit(&self) -> Option<usize> {
        GamePosition::default_move_limit(self)
    }
    fn board(&self) -> Option<&Board> {
        (self as &dyn std::any::Any).downcast_ref()
    }
}

impl Position {
    /// The empty position of `setup`.
    pub fn new(setup: &GameSetup) -> Result<Position, String> {
        struct Start<'a>(&'a GameSetup);
        impl GameVisitor for Start<'_> {
            type Out = Option<Position>;
            fn visit<P: GamePosition>(self) -> Option<Position> {
                P::start(&self.0.board()).map(|p| Position(Box::new(p)) as Position)
            }
        }
        with_game(setup.game, Start(setup)).ok_or_else(|| {
            format!(
                "cannot referee {} on {}x{}",
                setup.game.name(),
                setup.width,
                setup.height
            )
        })
    }
    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.0.to_move()
    }
    /// Plays `mv` for the side to move if the rules allow it.
    pub fn play(&mut self, mv: Mv) -> Result<(), String> {
        self.0.play(mv)
    }
    /// The result, if the game is over by the rules.
    pub fn verdict(&self) -> Option<(Outcome, EndReason)> {
        self.0.verdict()
    }
    /// The move limit used when none is given: none for boards that fill up.
    pub fn default_move_limit(&self) -> Option<usize> {
        self.0.default_move_limit()
    }
    /// The gomoku-family board (tic-tac-toe included); `None` for Go.
    pub fn board(&self) -> Option<&Board> {
        self.0.board()
    }
}

/// Plays `opening` on `setup`'s board: `Err` names the first move the rules refuse.
pub fn check_opening(setup: &GameSetup, opening: &[Mv]) -> Result<(), String> {
    let mut pos = Position::new(setup)?;
    for (i, &mv) in opening.iter().enumerate() {
        pos.play(mv)
            .map_err(|e| format!("opening move {}: {e}", i + 1))?;
        if pos.verdict().is_some() {
            return Err(format!("the opening is over after move {}", i + 1));
        }
    }
    Ok(())
}

/// Referees one game from `opening` between `engines` (black, white). `tolerance_ms` is the
/// grace past each move's budget unless an engine brings its own; `max_moves` counts the moves
/// played after the opening; `moves_played` counts every move the engines play (for a
/// progress display that moves within long games).
pub fn play_game(
    setup: &GameSetup,
    opening: &[Mv],
    engines: [&mut dyn Engine; 2],
    tolerance_ms: u64,
    max_moves: Option<usize>,
    moves_played: &AtomicUsize,
) -> GameResult {
    let mut result = GameResult {
        moves: Vec::new(),
        outcome: Outcome::Draw,
        reason: EndReason::MoveLimit,
        last_think: None,
    };
    let lose = |result: &mut GameResult, side: Color, reason: EndReason| {
        result.outcome = Outcome::Win(side.opponent());
        result.reason = reason;
    };
    let mut pos = match Position::new(setup) {
        Ok(p) => p,
        Err(e) => {
            result.reason = EndReason::Refused(e);
            return result;
        }
    };
    for &mv in opening {
        let color = pos.to_move();
        if let Err(e) = pos.play(mv) {
            // Openings are checked before the match; one that fails here voids the game.
            result.reason = EndReason::Refused(format!("bad opening: {e}"));
            return result;
        }
        result.moves.push(Played {
            color,
            mv,
            ms: None,
        });
    }
    for color in [Color::Black, Color::White] {
        let deadline = Instant::now() + Duration::from_millis(SETUP_MS + tolerance_ms);
        if let Err(f) = engines[color.index()].new_game(setup, deadline) {
            lose(&mut result, color, EndReason::from_fault(f));
            return result;
        }
    }
    let limit = max_moves.or(pos.default_move_limit());
    let mut clocks = [SideClock::new(&setup.tc); 2];
    let mut history: Vec<(Color, Mv)> = result.moves.iter().map(|p| (p.color, p.mv)).collect();
    let mut played = 0;
    loop {
        if let Some((outcome, reason)) = pos.verdict() {
            result.outcome = outcome;
            result.reason = reason;
            return result;
        }
        if limit.is_some_and(|m| played >= m) {
            result.outcome = Outcome::Draw;
            result.reason = EndReason::MoveLimit;
            return result;
        }
        let side = pos.to_move();
        let tolerance = engines[side.index()].tolerance_ms().unwrap_or(tolerance_ms);
        let budget = clocks[side.index()].budget(&setup.tc, tolerance);
        if budget.hard_ms == 0 {
            lose(&mut result, side, EndReason::Time);
            return result;
        }
        let start = Instant::now();
        let answer = engines[side.index()].genmove(setup, &history, side, &budget, start);
        let ms = start.elapsed().as_millis() as u64;
        // Until the move is on the board, this think is the game's last.
        result.last_think = Some((side, ms));
        let answer = match answer {
            Err(f) => {
                lose(&mut result, side, EndReason::from_fault(f));
                return result;
            }
            Ok(a) => a,
        };
        if ms > budget.hard_ms {
            // Only an engine that cannot be killed (in-process) gets here.
            lose(&mut result, side, EndReason::Time);
            return result;
        }
        clocks[side.index()].charge(&setup.tc, ms);
        let mv = match answer {
            Answer::Resign => {
                lose(&mut result, side, EndReason::Resign);
                return result;
            }
            Answer::Move(mv) => mv,
        };
        if let Err(e) = pos.play(mv) {
            lose(&mut result, side, EndReason::Illegal(e));
            return result;
        }
        result.moves.push(Played {
            color: side,
            mv,
            ms: Some(ms),
        });
        moves_played.fetch_add(1, Ordering::Relaxed);
        result.last_think = None;
        history.push((side, mv));
        played += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::manifest::GameName;
    use crate::arena::tc::TimeControl;
    use crate::rules::Rule;

    fn setup(game: GameName, size: usize) -> GameSetup {
        GameSetup {
            game,
            rule: if game == GameName::Renju {
                Rule::Renju
            } else {
                Rule::Freestyle
            },
            width: size,
            height: size,
            komi: 0.5,
            handicap: 0,
            tc: TimeControl {
                game_ms: None,
                increment_ms: 0,
                move_ms: Some(1000),
            },
        }
    }

    fn play_all(pos: &mut Position, moves: &[Mv]) {
        for &mv in moves {
            pos.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        }
    }

    #[test]
    fn go_ends_after_two_passes_and_counts_area_with_every_stone_alive() {
        let mut pos = Position::new(&setup(GameName::Go, 5)).unwrap();
        // Black walls off column b, white column d; c is dame.
        for y in 0..5 {
            play_all(&mut pos, &[Mv::At(1, y), Mv::At(3, y)]);
        }
        assert!(pos.verdict().is_none());
        pos.play(Mv::Pass).unwrap();
        assert!(pos.verdict().is_none(), "one pass is not the end");
        pos.play(Mv::Pass).unwrap();
        // Black: 5 stones + column a = 10; white 10 + komi 0.5.
        assert_eq!(
            pos.verdict(),
            Some((
                Outcome::Win(Color::White),
                EndReason::Score {
                    black: 10.0,
                    white: 10.5
                }
            ))
        );
        assert_eq!(pos.default_move_limit(), Some(75));
    }

    #[test]
    fn go_refuses_occupied_ko_and_off_board_points() {
        let mut pos = Position::new(&setup(GameName::Go, 5)).unwrap();
        // x = column from the left, y = row from the top.
        play_all(
            &mut pos,
            &[
                Mv::At(1, 0),
                Mv::At(2, 0),
                Mv::At(0, 1),
                Mv::At(3, 1),
                Mv::At(1, 2),
                Mv::At(2, 2),
            ],
        );
        // Black to move: a5 (0,0) is fine; b5 is taken.
        assert_eq!(pos.play(Mv::At(1, 0)).unwrap_err(), "B5: point is occupied");
        // A ko: black c4 is surrounded, white b4 captures it from inside black's stones.
        play_all(&mut pos, &[Mv::At(2, 1), Mv::At(1, 1)]);
        // White b4 captured black c4: black may not retake at once.
        let err = pos.play(Mv::At(2, 1)).unwrap_err();
        assert!(err.starts_with("C4: ") && err.contains("ko"), "{err}");
        assert!(pos
            .play(Mv::At(7, 7))
            .unwrap_err()
            .contains("off the board"));
        let mut gomoku = Position::new(&setup(GameName::Gomoku, 9)).unwrap();
        assert!(gomoku.play(Mv::Pass).is_err());
    }

    #[test]
    fn renju_and_no_double_three_forbid_the_double_three_to_black_only() {
        let no_double_three = GameSetup {
            rule: Rule::NoDoubleThree,
            ..setup(GameName::Gomoku, 15)
        };
        for setup in [setup(GameName::Renju, 15), no_double_three] {
            forbidden_double_three(Position::new(&setup).unwrap());
        }
    }

    fn forbidden_double_three(mut pos: Position) {
        // Black (6,7) (7,7) across and (8,5) (8,6) down: (8,7) makes two open threes.
        play_all(
            &mut pos,
            &[
                Mv::At(6, 7),
                Mv::At(0, 0),
                Mv::At(7, 7),
                Mv::At(0, 2),
                Mv::At(8, 6),
                Mv::At(0, 4),
                Mv::At(8, 5),
                Mv::At(0, 6),
            ],
        );
        let err = pos.play(Mv::At(8, 7)).unwrap_err();
        assert!(err.contains("forbidden"), "{err}");
        // The same point is fine for white.
        pos.play(Mv::At(14, 14)).unwrap();
        pos.play(Mv::At(8, 7)).unwrap();
    }

    /// Plays a fixed list of answers, sleeping before each.
    struct Scripted {
        answers: Vec<(u64, Result<Answer, Fault>)>,
        seen: Vec<usize>,
        restarts: usize,
        tolerance: Option<u64>,
    }

    impl Engine for Scripted {
        fn name(&self) -> &str {
            "scripted"
        }
        fn start_game(&mut self, _: &GameSetup, _: Instant) -> Result<(), Fault> {
            Ok(())
        }
        fn restart(&mut self) {
            self.restarts += 1;
        }
        fn tolerance_ms(&self) -> Option<u64> {
            self.tolerance
        }
        fn ask(
            &mut self,
            _: &GameSetup,
            moves: &[(Color, Mv)],
            _: Color,
            _: &crate::arena::tc::MoveBudget,
            _: Instant,
        ) -> Result<Answer, Fault> {
            self.seen.push(moves.len());
            if self.answers.is_empty() {
                return Err(Fault::Garbage("script ran out".into()));
            }
            let (sleep, a) = self.answers.remove(0);
            std::thread::sleep(Duration::from_millis(sleep));
            a
        }
    }

    fn scripted(answers: Vec<(u64, Result<Answer, Fault>)>) -> Scripted {
        Scripted {
            answers,
            seen: Vec::new(),
            restarts: 0,
            tolerance: None,
        }
    }

    fn at(x: usize, y: usize) -> (u64, Result<Answer, Fault>) {
        (0, Ok(Answer::Move(Mv::At(x, y))))
    }

    #[test]
    fn the_game_clock_is_charged_and_enforced() {
        let mut s = setup(GameName::Gomoku, 9);
        s.tc = TimeControl {
            game_ms: Some(150),
            increment_ms: 0,
            move_ms: None,
        };
        // Black spends 100 ms twice: 150 ms + 20 ms tolerance is gone at its third move.
        let mut black = scripted(vec![
            (100, Ok(Answer::Move(Mv::At(0, 0)))),
            (100, Ok(Answer::Move(Mv::At(0, 1)))),
            at(0, 2),
        ]);
        let mut white = scripted(vec![at(8, 8), at(8, 7), at(8, 6)]);
        let r = play_game(
            &s,
            &[],
            [&mut black, &mut white],
            20,
            None,
            &AtomicUsize::new(0),
        );
        assert_eq!(r.outcome, Outcome::Win(Color::White));
        assert_eq!(r.reason, EndReason::Time);
        assert!(r.moves.len() <= 4, "{:?}", r.moves);
        assert!(r.moves.iter().all(|p| p.ms.is_some()));
    }

    #[test]
    fn illegal_moves_resignations_and_faults_end_the_game_for_the_right_side() {
        let s = setup(GameName::Gomoku, 9);
        let opening = [Mv::At(4, 4), Mv::At(4, 5)];
        // Black plays on white's opening stone.
        let mut black = scripted(vec![at(4, 5)]);
        let mut white = scripted(vec![]);
        let r = play_game(
            &s,
            &opening,
            [&mut black, &mut white],
            1000,
            None,
            &AtomicUsize::new(0),
        );
        assert_eq!(
            (r.outcome, r.reason.kind()),
            (Outcome::Win(Color::White), "illegal move")
        );
        assert_eq!(black.seen, [2], "the opening was handed over");
        assert_eq!(r.moves.iter().filter(|p| p.ms.is_none()).count(), 2);
        // White resigns after one move each.
        let mut black = scripted(vec![at(0, 0)]);
        let mut white = scripted(vec![(0, Ok(Answer::Resign))]);
        let r = play_game(
            &s,
            &opening,
            [&mut black, &mut white],
            1000,
            None,
            &AtomicUsize::new(0),
        );
        assert_eq!(
            (r.outcome, r.reason, black.restarts + white.restarts),
            (Outcome::Win(Color::Black), EndReason::Resign, 0)
        );
        // A crash restarts the crashed side; a refusal does not.
        let mut black = scripted(vec![(0, Err(Fault::Crashed("gone".into())))]);
        let r = play_game(
            &s,
            &opening,
            [&mut black, &mut scripted(vec![])],
            1000,
            None,
            &AtomicUsize::new(0),
        );
        assert_eq!((r.outcome, black.restarts), (Outcome::Win(Color::White), 1));
        let mut black = scripted(vec![(0, Err(Fault::Refused("no".into())))]);
        let r = play_game(
            &s,
            &opening,
            [&mut black, &mut scripted(vec![])],
            1000,
            None,
            &AtomicUsize::new(0),
        );
        assert_eq!((r.outcome, black.restarts), (Outcome::Win(Color::White), 0));
        // The move limit draws.
        let mut black = scripted(vec![at(0, 0), at(0, 1)]);
        let mut white = scripted(vec![at(8, 8), at(8, 7)]);
        let r = play_game(
            &s,
            &opening,
            [&mut black, &mut white],
            1000,
            Some(3),
            &AtomicUsize::new(0),
        );
        assert_eq!((r.outcome, r.reason), (Outcome::Draw, EndReason::MoveLimit));
        assert_eq!(r.moves.len(), 5);
    }

    #[test]
    fn an_engine_may_bring_its_own_tolerance() {
        let mut s = setup(GameName::Gomoku, 9);
        s.tc.move_ms = Some(20);
        let slow = |n: usize| -> Vec<(u64, Result<Answer, Fault>)> {
            (0..n)
                .map(|i| (80, Ok(Answer::Move(Mv::At(0, i)))))
                .collect()
        };
        // 80 ms against 20 ms + 10 ms: lost on time at once.
        let mut black = scripted(slow(1));
        let mut white = scripted(vec![]);
        let r = play_game(
            &s,
            &[],
            [&mut black, &mut white],
            10,
            Some(2),
            &AtomicUsize::new(0),
        );
        assert_eq!(
            (r.outcome, r.reason),
            (Outcome::Win(Color::White), EndReason::Time)
        );
        // With its own 1 s of grace the same engine plays on.
        let mut black = scripted(slow(1));
        black.tolerance = Some(1000);
        let mut white = scripted(vec![at(8, 8)]);
        let r = play_game(
            &s,
            &[],
            [&mut black, &mut white],
            10,
            Some(2),
            &AtomicUsize::new(0),
        );
        assert_eq!((r.outcome, r.reason), (Outcome::Draw, EndReason::MoveLimit));
    }

    #[test]
    fn the_think_that_loses_is_recorded_though_no_move_came_of_it() {
        let mut s = setup(GameName::Gomoku, 9);
        s.tc.move_ms = Some(20);
        // 50 ms against 20 ms + 10 ms: lost on time, and those 50 ms (at least) were thought.
        let mut black = scripted(vec![(50, Ok(Answer::Move(Mv::At(0, 0))))]);
        let r = play_game(
            &s,
            &[],
            [&mut black, &mut scripted(vec![])],
            10,
            None,
            &AtomicUsize::new(0),
        );
        assert_eq!(r.reason, EndReason::Time);
        assert!(r.moves.is_empty());
        let (who, ms) = r.last_think.expect("the losing think");
        assert!(who == Color::Black && ms >= 50, "{:?}", r.last_think);
        // A game that ends on a move leaves nothing over.
        let mut black = scripted(vec![at(0, 0)]);
        let mut white = scripted(vec![at(8, 8)]);
        let r = play_game(
            &s,
            &[],
            [&mut black, &mut white],
            1000,
            Some(2),
            &AtomicUsize::new(0),
        );
        assert_eq!((r.reason, r.last_think), (EndReason::MoveLimit, None));
    }
}
