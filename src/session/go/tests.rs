//! The Go session's tests, and the scripted player and helpers its jobs' tests share.

use super::*;
use crate::players::{Decision, Player};
use crate::session::Interrupt;
use std::sync::{mpsc, Mutex};

/// What the scripted player saw.
#[derive(Default)]
pub(super) struct Seen {
    pub(super) hard_limit: Option<Duration>,
    pub(super) max_nodes: Option<u64>,
    pub(super) reports: usize,
    /// Told each time an analysis returns, when the test listens.
    pub(super) analysis_returned: Option<mpsc::Sender<()>>,
}

/// Plays the first legal point (or a fixed answer), reports one candidate per interval
/// while analysing, and calls the given points dead.
pub(super) struct Scripted {
    pub(super) answer: Option<GoDecision>,
    pub(super) dead: Vec<(usize, usize)>,
    pub(super) seen: Arc<Mutex<Seen>>,
    /// What `certain_win` says after every genmove.
    pub(super) claims: bool,
}

impl Player<GoGame> for Scripted {
    fn name(&self) -> &'static str {
        "scripted"
    }
    fn decide(&mut self, pos: &GoGame, tm: &TimeManager<'_>) -> Option<Decision<GoMove>> {
        crate::players::go::decide_quietly(self, pos, tm)
    }
}

impl GoPlayer for Scripted {
    fn genmove(&mut self, game: &GoGame, color: Color, req: &mut GoRequest<'_, '_>) -> GoDecision {
        let own = self.ownership(game, req.tm);
        let mut seen = self.seen.lock().unwrap();
        seen.hard_limit = req.tm.hard_limit();
        seen.max_nodes = req.tm.max_nodes();
        if let Some(a) = self.answer {
            return a;
        }
        let b = game.board();
        let mv = b
            .points()
            .find(|&p| game.is_legal(p, color))
            .map_or(GoMove::Pass, GoMove::Play);
        if req.report_every.is_some() {
            (req.report)(&[candidate(mv)], Some(&own));
        }
        GoDecision::Play(mv)
    }
    /// Sends its ownership even unasked: the session must drop it then.
    fn analyze(&mut self, game: &GoGame, color: Color, req: &mut GoRequest<'_, '_>) {
        let own = self.ownership(game, req.tm);
        let every = req.report_every.expect("an interval");
        let mv = game
            .board()
            .points()
            .find(|&p| game.is_legal(p, color))
            .map_or(GoMove::Pass, GoMove::Play);
        // Finish early: the session must still wait for the stop.
        for _ in 0..3 {
            if req.tm.stop_requested() {
                break;
            }
            (req.report)(&[candidate(mv)], Some(&own));
            self.seen.lock().unwrap().reports += 1;
            std::thread::sleep(every);
        }
        if let Some(returned) = &self.seen.lock().unwrap().analysis_returned {
            let _ = returned.send(());
        }
    }
    fn explain_last_move(&self) -> String {
        "scripted: the first legal point".to_string()
    }
    fn describe(&self) -> String {
        "scripted: plays the first legal point".to_string()
    }
    fn certain_win(&self) -> bool {
        self.claims
    }
    /// Every stone its own colour's, but the ones listed dead: the opponent's.
    fn ownership(&mut self, game: &GoGame, _tm: &TimeManager<'_>) -> Vec<f32> {
        let b = game.board();
        let mut own = vec![0.0; b.array_len()];
        for p in b.points() {
            let dead = self.dead.iter().any(|&(x, y)| b.point(x, y) == Some(p));
            let sign = if dead { -1.0 } else { 1.0 };
            own[p.idx()] = match b.get(p) {
                Some(Color::Black) => sign,
                Some(Color::White) => -sign,
                None => 0.0,
            };
        }
        own
    }
}

pub(super) fn candidate(mv: GoMove) -> Candidate<GoMove> {
    Candidate {
        mv,
        visits: 10,
        winrate: 0.5,
        prior: 0.1,
        lcb: 0.4,
        score_lead: 0.0,
        order: 0,
        pv: vec![mv],
    }
}

pub(super) fn session_with(
    answer: Option<GoDecision>,
    dead: Vec<(usize, usize)>,
    nodes: Option<u64>,
) -> (GoSession, Arc<Mutex<Seen>>) {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let player = Scripted {
        answer,
        dead,
        seen: seen.clone(),
        claims: false,
    };
    let config = GoConfig {
        nodes,
        ..GoConfig::default()
    };
    let s = GoSession::with_player(config, Arc::new(StopSignal::new()), Box::new(player));
    (s, seen)
}

pub(super) fn session() -> GoSession {
    session_with(None, Vec::new(), Some(100)).0
}

pub(super) fn at(x: usize, y: usize) -> Vertex {
    Vertex::At { x, y }
}

pub(super) fn gen(s: &mut GoSession, c: Color, commit: bool) -> Genmove {
    s.genmove(c, commit, &mut GtpRequest::plain(0, Instant::now()))
}

#[test]
fn genmove_ex_claims_only_when_allowed_and_the_player_is_certain() {
    let with = |claims| {
        let player = Scripted {
            answer: None,
            dead: Vec::new(),
            seen: Arc::default(),
            claims,
        };
        let config = GoConfig {
            nodes: Some(1),
            ..GoConfig::default()
        };
        GoSession::with_player(config, Arc::new(StopSignal::new()), Box::new(player))
    };
    let mut req = GtpRequest::plain(0, Instant::now());
    // Certain and allowed: `claim`, and nothing is played.
    let mut s = with(true);
    assert_eq!(s.genmove_ex(Color::Black, true, &mut req), Genmove::Claim);
    assert!(s.game().moves().is_empty());
    // Certain but not allowed (no `claim` keyword): a plain genmove, played.
    assert!(matches!(
        s.genmove_ex(Color::Black, false, &mut req),
        Genmove::Move(Vertex::At { .. })
    ));
    assert_eq!(s.game().moves().len(), 1);
    // Allowed but not certain: the move.
    let mut s = with(false);
    assert!(matches!(
        s.genmove_ex(Color::White, true, &mut req),
        Genmove::Move(Vertex::At { .. })
    ));
    assert_eq!(s.game().moves().len(), 1);
}

#[test]
fn sizes() {
    let mut s = session();
    s.play(Color::Black, at(3, 3)).unwrap();
    for (w, h) in [(1, 1), (26, 26), (0, 0), (9, 1)] {
        assert_eq!(s.boardsize(w, h), Err(UNACCEPTABLE_SIZE.into()), "{w}x{h}");
    }
    assert_eq!(s.game().moves().len(), 1, "a refused size changes nothing");
    s.boardsize(2, 2).unwrap();
    s.boardsize(25, 25).unwrap();
    s.boardsize(9, 13).unwrap();
    assert_eq!(
        (s.game().board().width(), s.game().board().height()),
        (9, 13)
    );
    assert_eq!(s.game().moves().len(), 0);
}

#[test]
fn play_undo_and_errors() {
    let mut s = session();
    s.boardsize(9, 9).unwrap();
    assert_eq!(s.undo(), Err(CANNOT_UNDO.into()));
    s.play(Color::Black, at(3, 3)).unwrap();
    s.play(Color::Black, at(4, 4)).unwrap(); // same colour twice
    s.play(Color::White, Vertex::Pass).unwrap();
    assert_eq!(s.play(Color::White, at(3, 3)), Err(ILLEGAL_MOVE.into()));
    assert_eq!(s.play(Color::White, at(9, 0)), Err(OFF_BOARD.into()));
    assert_eq!(s.game().moves().len(), 3);
    s.undo().unwrap();
    s.undo().unwrap();
    s.undo().unwrap();
    assert_eq!(s.undo(), Err(CANNOT_UNDO.into()));
    assert_eq!(s.game().board().stone_count(), 0);
}

#[test]
fn genmove_plays_and_reg_genmove_does_not() {
    let mut s = session();
    s.boardsize(5, 5).unwrap();
    assert_eq!(gen(&mut s, Color::Black, false), Genmove::Move(at(0, 0)));
    assert_eq!(s.game().moves().len(), 0);
    assert_eq!(gen(&mut s, Color::Black, true), Genmove::Move(at(0, 0)));
    assert_eq!(
        gen(&mut s, Color::Black, true),
        Genmove::Move(at(1, 0)),
        "either colour"
    );
    assert_eq!(s.game().moves().len(), 2);
}

#[test]
fn an_illegal_player_answer_becomes_a_pass_and_resign_plays_nothing() {
    let (mut s, _) = session_with(
        Some(GoDecision::Play(GoMove::Play(Point(0)))),
        Vec::new(),
        Some(1),
    );
    s.boardsize(5, 5).unwrap();
    assert_eq!(gen(&mut s, Color::Black, true), Genmove::Move(Vertex::Pass));
    let (mut s, _) = session_with(Some(GoDecision::Resign), Vec::new(), Some(1));
    assert_eq!(gen(&mut s, Color::Black, true), Genmove::Resign);
    assert!(s.game().moves().is_empty());
    // A probe or a cleanup asks for a move: a player that resigns anyway gets a pass.
    assert_eq!(
        gen(&mut s, Color::Black, false),
        Genmove::Move(Vertex::Pass)
    );
    let mut req = GtpRequest::plain(0, Instant::now());
    assert_eq!(
        s.genmove_cleanup(Color::Black, &mut req),
        Genmove::Move(Vertex::Pass)
    );
    assert_eq!(s.game().moves().len(), 1);
}

#[test]
fn clocks_reach_the_player() {
    let (mut s, seen) = session_with(None, Vec::new(), None);
    s.boardsize(9, 9).unwrap();
    gen(&mut s, Color::Black, true);
    let default = seen.lock().unwrap().hard_limit.unwrap();
    assert!(default < Duration::from_millis(DEFAULT_MOVE_MS));
    s.time_settings(TimeSystem::from_time_settings(0, 1, 1));
    gen(&mut s, Color::White, true);
    let byo = seen.lock().unwrap().hard_limit.unwrap();
    assert!(
        byo < Duration::from_secs(1) && byo > Duration::from_millis(500),
        "{byo:?}"
    );
    s.time_left(Color::Black, 0.2, 1);
    gen(&mut s, Color::Black, true);
    assert!(seen.lock().unwrap().hard_limit.unwrap() < Duration::from_millis(200));
    let (mut s, seen) = session_with(None, Vec::new(), Some(77));
    s.time_settings(TimeSystem::Absolute { main: 1 });
    gen(&mut s, Color::Black, true);
    let seen = seen.lock().unwrap();
    assert_eq!(
        (seen.max_nodes, seen.hard_limit),
        (Some(77), None),
        "--nodes wins"
    );
}

#[test]
fn rules_change_in_mid_game_replays_or_refuses_and_keeps_komi() {
    let named = |n: &str| KataRules::named(n).unwrap();
    let mut s = session();
    s.boardsize(5, 5).unwrap();
    s.komi(0.5);
    s.set_rules(named("chinese")).unwrap();
    for (c, v) in [
        (Color::Black, at(1, 2)),
        (Color::White, at(2, 2)),
        (Color::Black, at(0, 1)),
        (Color::White, at(3, 1)),
        (Color::Black, at(1, 0)),
        (Color::White, at(2, 0)),
        (Color::Black, at(2, 1)),
        (Color::White, at(1, 1)),
        (Color::Black, Vertex::Pass),
        (Color::White, Vertex::Pass),
        (Color::Black, at(2, 1)),
    ] {
        s.play(c, v).unwrap();
    }
    let before = s.game().board().hash();
    let e = s.set_rules(named("chinese-ogs")).unwrap_err();
    assert!(e.contains("move 11") && e.contains("unchanged"), "{e}");
    assert_eq!(s.rules(), named("chinese"));
    assert_eq!(s.game().moves().len(), 11);
    assert_eq!(s.game().board().hash(), before);
    // Refused rule sets change nothing either.
    assert!(s.set_rules(named("aga-button")).is_err());
    assert_eq!(s.rules(), named("chinese"));
    // A change the game allows keeps the position and komi.
    s.set_rules(named("japanese")).unwrap();
    assert_eq!(s.rules(), named("japanese"));
    assert_eq!(s.game().board().hash(), before);
    assert_eq!(s.game().rules().komi, 0.5);
    assert_eq!(s.game().board().captures(Color::White), 1);
    // The description names the rules the engine starts with, not this game's.
    assert!(
        s.describe()[0].contains("until then 19x19, komi 7.5, area scoring"),
        "{:?}",
        s.describe()
    );
}

#[test]
fn reg_genmove_leaves_no_trace_in_later_answers() {
    // The same game twice, one with reg_genmoves in between: every genmove and its
    // explanation's verdict must be the same, for both levels.
    for level in ["mcts", "heuristic"] {
        let run = |with_reg: bool| {
            let config = GoConfig {
                level: Some(level.to_string()),
                seed: 5,
                nodes: Some(1500),
                ..GoConfig::default()
            };
            let mut s = GoSession::new(config, Arc::new(StopSignal::new())).unwrap();
            s.boardsize(9, 9).unwrap();
            let mut out = Vec::new();
            for i in 0..6 {
                let c = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                if with_reg {
                    gen(&mut s, c, false);
                    gen(&mut s, c.opponent(), false);
                }
                out.push(gen(&mut s, c, true));
            }
            out
        };
        assert_eq!(run(false), run(true), "{level}");
    }
}

#[test]
fn set_random_seed_reseeds_the_player_for_the_next_games() {
    // Three games of four moves from the empty board by one session; a game's moves and
    // the last verdict depend on the seed in force, not on the games before.
    let config = GoConfig {
        seed: 3,
        nodes: Some(300),
        ..GoConfig::default()
    };
    let mut s = GoSession::new(config, Arc::new(StopSignal::new())).unwrap();
    s.boardsize(9, 9).unwrap();
    let game = |s: &mut GoSession, seed: Option<u64>| {
        s.clear_board();
        if let Some(seed) = seed {
            s.set_seed(seed);
        }
        let moves: Vec<Genmove> = [Color::Black, Color::White, Color::Black, Color::White]
            .into_iter()
            .map(|c| gen(s, c, true))
            .collect();
        (
            moves,
            s.explain_last_move()
                .split("; ")
                .next()
                .unwrap()
                .to_string(),
        )
    };
    let first = game(&mut s, None);
    assert_eq!(game(&mut s, None), first, "no reseed: the same game again");
    let other = game(&mut s, Some(11));
    assert_ne!(other, first);
    assert_eq!(game(&mut s, Some(11)), other);
    assert_eq!(game(&mut s, Some(3)), first, "the first seed again");
    assert!(
        s.describe().iter().any(|l| l == "seed: 3"),
        "{:?}",
        s.describe()
    );
}

#[test]
fn mcts_clear_cache_drops_the_tree_and_keeps_the_game() {
    let config = GoConfig {
        seed: 3,
        nodes: Some(300),
        ..GoConfig::default()
    };
    let mut s = GoSession::new(config, Arc::new(StopSignal::new())).unwrap();
    s.boardsize(9, 9).unwrap();
    // "D4 wins 55.0% of 150 visits (score lead ...)": the verdict before the timings.
    let verdict = |s: &GoSession| {
        s.explain_last_move()
            .split("; ")
            .next()
            .unwrap()
            .to_string()
    };
    // (genmove and undo: reg_genmove leaves no tree behind.)
    let first = gen(&mut s, Color::Black, true);
    let fresh = verdict(&s);
    s.undo().unwrap();
    // Without clearing, the tree of the first search is reused: more visits.
    gen(&mut s, Color::Black, true);
    assert_ne!(verdict(&s), fresh);
    s.undo().unwrap();
    s.clear_cache();
    assert!(s.game().moves().is_empty());
    // The search seeds its playouts from the position: a fresh search repeats the first.
    assert_eq!(gen(&mut s, Color::Black, true), first);
    assert_eq!(verdict(&s), fresh);
}

/// Sends the stop for the analysis of line `seq` once the scripted player's analysis has
/// returned (told through `seen`), as the next input line would; fails (after sending it all
/// the same, so the session does not wait for ever) if the analysis does not return in time.
pub(super) fn stop_after_the_players_analysis(
    s: &GoSession,
    seen: &Arc<Mutex<Seen>>,
    seq: u64,
) -> std::thread::JoinHandle<()> {
    let (returned, analysis_returned) = mpsc::channel();
    seen.lock().unwrap().analysis_returned = Some(returned);
    let signal = s.signal.clone();
    std::thread::spawn(move || {
        let in_time = analysis_returned.recv_timeout(Duration::from_secs(30));
        signal.interrupt(seq + 1, Interrupt::Stop);
        in_time.expect("the player's analysis returns");
    })
}
