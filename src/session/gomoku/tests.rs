//! The Gomocup session's tests, and the scripted player and helpers its jobs' tests share.

use super::*;
use crate::players::{Decision, Player};
use crate::rules::gomoku::renju::forbidden;
use std::sync::Mutex;

/// What the scripted player saw and did, shared with the test.
#[derive(Default)]
pub(super) struct Seen {
    pub(super) calls: usize,
    pub(super) stop_seen: bool,
    pub(super) nbest: usize,
    pub(super) hard_limit: Option<Duration>,
    pub(super) max_nodes: Option<u64>,
    /// Each game_over call: (stones, winner, ours).
    pub(super) game_overs: Vec<(usize, Option<Color>, Color)>,
    pub(super) options: Vec<(String, String)>,
    /// The last thread count the player was given.
    pub(super) threads: usize,
}

/// A player that reports a fixed score and plays a fixed point (or the first legal one).
pub(super) struct Scripted {
    pub(super) score: i32,
    pub(super) mate: Option<i32>,
    pub(super) pick: Option<(i64, i64)>,
    pub(super) none: bool,
    pub(super) seen: Arc<Mutex<Seen>>,
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

pub(super) fn scripted(score: i32) -> (GomokuSession, Arc<Mutex<Seen>>) {
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

pub(super) fn session() -> GomokuSession {
    scripted(0).0
}

/// Runs `f` with a request and returns the reply and the progress reports.
pub(super) fn ask(f: impl FnOnce(&mut Request<'_>) -> Reply) -> (Reply, Vec<Progress>) {
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

pub(super) fn stones(list: &[(i64, i64, i64)]) -> Vec<StoneLine> {
    list.iter()
        .map(|&(x, y, f)| StoneLine {
            x,
            y,
            field: Some(f),
        })
        .collect()
}

pub(super) fn plain(list: &[(i64, i64)]) -> Vec<StoneLine> {
    list.iter()
        .map(|&(x, y)| StoneLine { x, y, field: None })
        .collect()
}

pub(super) fn is_err(r: &Reply, text: &str) -> bool {
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
fn nbest_reports_but_does_not_play() {
    let (mut s, seen) = scripted(0);
    s.start(15);
    assert_eq!(ask(|r| s.nbest(3, r)).0, Reply::Move(0, 0));
    assert_eq!(seen.lock().unwrap().nbest, 3);
    assert_eq!(s.board().unwrap().stones(), 0);
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
