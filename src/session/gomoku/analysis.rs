//! Yixin-Board's analysis commands on a Gomocup session: the YXBLOCK points no search may
//! answer, the balance searches (YXBALANCEONE / YXBALANCETWO), the defence search
//! (YXSEARCHDEFEND) and pondering. None of them plays a move (the policies are in [`super`]'s
//! notes).
//!
//! * **Balance** is Rapfi's: the move whose value for the side to move, after it, is closest
//!   to `bias` (evaluation units, as the MESSAGE lines print them; 0 = even). One search
//!   scores every candidate exactly (every root move is a line of an N-best search) within the
//!   turn's time. For two stones the value after both, for the side to move again, is the
//!   target: the first move is the one whose value (the opponent's best reply assumed) lies
//!   closest to `bias` from below, since the opponent can only give value back with a weaker
//!   reply; the second is the opponent's move closest to `-bias` for it. Each stone gets half
//!   of the turn.
//! * **Defence** is what Rapfi's answer means to a GUI (its every-move analysis marks the
//!   losing moves): with our threat search, whether the opponent would win by VCF or VCT if we
//!   passed, which of our candidate moves stop that win (`MESSAGE defend ...`) and which do
//!   not (`MESSAGE REALTIME LOST x,y` each, the line Yixin-Board marks a point lost with);
//!   then a search among the defending moves answers the best one. The threat analysis gets
//!   half of the turn.

use std::sync::atomic::{AtomicBool, Ordering};

use super::{Found, GomokuSession, Reply, Request, NO_GAME};
use crate::eval::gomoku::patterns::PatternBoard;
use crate::players::MoveRequest;
use crate::rules::{Board, Pos};
use crate::search::clock::{SearchLimit, TimeManager};
use crate::search::threats::defend::{defences, Defence};
use crate::search::threats::Threats;
use crate::search::SearchInfo;
use crate::session::mnk::is_tic_tac_toe;

/// Nodes each of the opponent's threat searches gets per candidate move in YXSEARCHDEFEND.
const DEFEND_NODES_PER_MOVE: u64 = 20_000;
/// VCT cache of the defence analysis (its own: the player's caches are the player's).
const DEFEND_VCT_BYTES: usize = 1 << 20;
/// Attacker moves the opponent's VCT looks ahead in the defence analysis (the search's
/// default).
const DEFEND_VCT_DEPTH: u32 = 8;
/// Most lines a defence search reports (as YXNBEST's cap).
const MAX_LINES: usize = 64;

/// Half of `limit`'s time and nodes: one of two searches that share a turn.
fn half(limit: &SearchLimit) -> SearchLimit {
    let mut l = *limit;
    l.nodes = l.nodes.map(|n| (n / 2).max(1));
    l.clock.turn_ms = l.clock.turn_ms.map(|t| t / 2);
    l.clock.left_ms = l.clock.left_ms.map(|t| t / 2);
    l
}

/// The line of `lines` whose first move's score lies closest to `target`; with `below`, one
/// at or under it when there is one. Ties go to the better-ranked line.
fn closest(lines: &[SearchInfo], target: i64, below: bool) -> Option<Pos> {
    let under: Vec<&SearchInfo> = lines
        .iter()
        .filter(|i| !below || i64::from(i.score) <= target)
        .collect();
    let pool: Vec<&SearchInfo> = if under.is_empty() {
        lines.iter().collect()
    } else {
        under
    };
    pool.into_iter()
        .enumerate()
        .min_by_key(|(rank, i)| ((i64::from(i.score) - target).abs(), *rank))
        .and_then(|(_, i)| i.pv.first().copied())
}

impl GomokuSession {
    /// `YXBLOCK` (`undo` false) adds `points`, `YXBLOCKUNDO` (`undo` true) takes them out of
    /// the set again (Rapfi's meaning: the points named, whenever they were added). A point off
    /// the board refuses the whole block.
    pub fn block(&mut self, points: &[(i64, i64)], undo: bool) -> Reply {
        let Some(b) = &self.board else {
            return Reply::Error(NO_GAME.into());
        };
        let mut list = Vec::with_capacity(points.len());
        for &(x, y) in points {
            match b.pos(x, y) {
                Some(p) => list.push(b.xy(p)),
                None => return Reply::Error(format!("point {x},{y} is off the board")),
            }
        }
        for xy in list {
            if undo {
                self.blocks.retain(|&q| q != xy);
            } else if !self.blocks.contains(&xy) {
                self.blocks.push(xy);
            }
        }
        Reply::Nothing
    }

    /// `YXBLOCKRESET`: no point is blocked any more.
    pub fn block_reset(&mut self) -> Reply {
        if self.board.is_none() {
            return Reply::Error(NO_GAME.into());
        }
        self.blocks.clear();
        Reply::Nothing
    }

    /// The YXBLOCK points, as (x, y), in the order added.
    pub fn blocks(&self) -> &[(usize, usize)] {
        &self.blocks
    }

    /// The board an analysis command works on, or the reply refusing it (`cmd` names it).
    fn analysis_board(&mut self, cmd: &str) -> Result<Board, Reply> {
        let Some(b) = self.board.clone() else {
            return Err(Reply::Error(NO_GAME.into()));
        };
        if let Some(r) = self.pending_complaint() {
            return Err(r);
        }
        if is_tic_tac_toe(&b) {
            return Err(Reply::Error(format!(
                "{cmd} is a gomoku analysis; this game is tic-tac-toe"
            )));
        }
        if b.winner().is_some() {
            return Err(Reply::Error("the game is already over".into()));
        }
        Ok(b)
    }

    /// One balance search on `board` under `limit`: every candidate scored, the one closest to
    /// `target` (see [`closest`]).
    fn balanced(
        &mut self,
        board: &Board,
        target: i64,
        below: bool,
        req: &mut Request<'_>,
        limit: &SearchLimit,
    ) -> Result<Pos, Reply> {
        let every = board.empty_points().count().max(1);
        let Found { best, lines, .. } = self.search_on(board, req, every, &[], limit)?;
        Ok(closest(&lines, target, below).unwrap_or(best))
    }

    /// `YXBALANCEONE bias` (`two` false): the move that leaves the side to move closest to
    /// `bias`; `YXBALANCETWO bias`: the pair of moves (ours, then the opponent's) after which
    /// the side to move is closest to `bias`. Not played.
    pub fn balance(&mut self, two: bool, bias: i64, req: &mut Request<'_>) -> Reply {
        let cmd = if two { "YXBALANCETWO" } else { "YXBALANCEONE" };
        let board = match self.analysis_board(cmd) {
            Ok(b) => b,
            Err(r) => return r,
        };
        let limit = self.limit();
        if !two {
            return match self.balanced(&board, bias, false, req, &limit) {
                Ok(p) => {
                    let (x, y) = board.xy(p);
                    Reply::Move(x, y)
                }
                Err(r) => r,
            };
        }
        let half = half(&limit);
        let first = match self.balanced(&board, bias, true, req, &half) {
            Ok(p) => p,
            Err(r) => return r,
        };
        let mut after = board.clone();
        if after.play(first).is_err() {
            return Reply::Error("internal: the balance move was refused".into());
        }
        let second = if after.is_over() {
            None
        } else {
            // The second stone's clock starts when the first one is chosen.
            req.at = std::time::Instant::now();
            match self.balanced(&after, -bias, false, req, &half) {
                Ok(p) => Some(p),
                Err(r) => return r,
            }
        };
        let mut moves = vec![board.xy(first)];
        moves.extend(second.map(|p| after.xy(p)));
        Reply::Moves(moves)
    }

    /// `YXSEARCHDEFEND`: the moves that stop the opponent's threat, and the best of them (see
    /// the module notes). Not played.
    pub fn search_defend(&mut self, req: &mut Request<'_>) -> Reply {
        let board = match self.analysis_board("YXSEARCHDEFEND") {
            Ok(b) => b,
            Err(r) => return r,
        };
        let limit = self.limit();
        self.signal.arm(req.seq);
        let tm = TimeManager::new(&half(&limit), req.at, self.signal.flag());
        let pb = PatternBoard::new(&board);
        let mut threats = Threats::new(DEFEND_VCT_BYTES);
        let found = defences(
            &pb,
            &mut threats,
            DEFEND_VCT_DEPTH,
            DEFEND_NODES_PER_MOVE,
            &tm,
        );
        self.signal.disarm();
        let blocks = self.excluded_on(&board, &[]);
        let Defence {
            threat,
            holds,
            loses,
            unknown,
        } = found;
        let names = |ps: &[Pos]| -> String {
            ps.iter()
                .map(|&p| {
                    let (x, y) = board.xy(p);
                    format!("{x},{y}")
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut lines = Vec::new();
        let mut ruled_out = Vec::new();
        let mut nbest = 1;
        match threat {
            None => lines.push("defend: no threat to answer".to_string()),
            Some(t) => {
                let (x, y) = board.xy(t);
                let open: Vec<Pos> = holds
                    .iter()
                    .chain(&unknown)
                    .copied()
                    .filter(|p| !blocks.contains(p))
                    .collect();
                if open.is_empty() && !holds.is_empty() {
                    lines.push(format!(
                        "defend: none outside the YXBLOCK points; the threat at {x},{y} wins"
                    ));
                } else if open.is_empty() {
                    lines.push(format!("defend: none, the threat at {x},{y} wins"));
                } else {
                    lines.push(format!("defend {} (threat at {x},{y})", names(&holds)));
                    if !unknown.is_empty() {
                        lines.push(format!("defend unproven {}", names(&unknown)));
                    }
                    ruled_out = loses.clone();
                    nbest = open.len().clamp(1, MAX_LINES);
                }
                for &p in &loses {
                    let (x, y) = board.xy(p);
                    lines.push(format!("REALTIME LOST {x},{y}"));
                }
            }
        }
        match self.search_on(&board, req, nbest, &ruled_out, &limit) {
            Ok(found) => {
                let (x, y) = board.xy(found.best);
                Reply::Annotated(lines, Box::new(Reply::Move(x, y)))
            }
            Err(r) => r,
        }
    }

    /// `INFO pondering`: whether to think on the opponent's time.
    pub fn pondering(&self) -> bool {
        self.settings.pondering
    }

    /// Whether [`GomokuSession::ponder`] has something to do: pondering is on, and the board is
    /// still the one our last move left, with the game on.
    pub fn wants_ponder(&self) -> bool {
        self.settings.pondering
            && self.ponder_from.is_some()
            && self.board.as_ref().is_some_and(|b| {
                Some(b.hash()) == self.ponder_from && !b.is_over() && !is_tic_tac_toe(b)
            })
    }

    /// Thinks on the opponent's position until `stop` is raised (the protocol loop raises it on
    /// the next input line and at end of input) or the search ends by itself; what the player
    /// keeps (its transposition table) serves the next move. Writes nothing, changes no
    /// state a reply depends on. A ponder that ended by itself is not started again here.
    pub fn ponder(&mut self, stop: &AtomicBool) {
        if !self.wants_ponder() {
            return;
        }
        // Cleared while it runs: a ponder that panics is not retried.
        let key = self.ponder_from.take();
        let Some(board) = self.board.clone() else {
            return;
        };
        let tm = TimeManager::infinite(stop);
        let excluded = self.excluded_on(&board, &[]);
        let mut quiet = |_: &SearchInfo| {};
        let mut mr = MoveRequest {
            tm: &tm,
            nbest: 1,
            excluded: &excluded,
            report: &mut quiet,
        };
        self.player.choose(&board, &mut mr);
        if stop.load(Ordering::SeqCst) {
            self.ponder_from = key;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::*;
    use super::super::*;
    use super::*;

    fn line(x: usize, score: i32, rank: usize) -> SearchInfo {
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        SearchInfo {
            score,
            multipv: rank,
            pv: vec![b.pos(x as i64, 0).unwrap()],
            ..SearchInfo::default()
        }
    }

    #[test]
    fn the_closest_line_to_the_bias_is_chosen() {
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let lines = [
            line(1, 300, 1),
            line(2, 40, 2),
            line(3, -30, 3),
            line(4, -500, 4),
        ];
        let at = |x: i64| b.pos(x, 0);
        assert_eq!(closest(&lines, 0, false), at(3));
        assert_eq!(closest(&lines, 200, false), at(1));
        assert_eq!(closest(&lines, 35, false), at(2));
        // From below when asked: 40 is closer to 50 than... it is also under it.
        assert_eq!(closest(&lines, 50, true), at(2));
        assert_eq!(closest(&lines, 20, true), at(3));
        // Nothing under the target: the closest above.
        assert_eq!(closest(&lines, -900, true), at(4));
        // A tie goes to the better rank.
        let tie = [line(5, 10, 1), line(6, -10, 2)];
        assert_eq!(closest(&tie, 0, false), at(5));
        assert_eq!(closest(&[], 0, false), None);
    }

    #[test]
    fn halving_a_limit_halves_its_time_and_nodes() {
        let mut l = SearchLimit::nodes(1001);
        l.clock.turn_ms = Some(500);
        let h = half(&l);
        assert_eq!((h.nodes, h.clock.turn_ms), (Some(500), Some(250)));
        assert_eq!(half(&SearchLimit::nodes(1)).nodes, Some(1));
    }

    #[test]
    fn blocks_are_added_undone_reset_and_refused_whole() {
        let mut s = session();
        assert!(is_err(&s.block(&[(1, 1)], false), "no game"));
        assert!(is_err(&s.block_reset(), "no game"));
        s.start(15);
        assert_eq!(s.block(&[(1, 1), (2, 2), (1, 1)], false), Reply::Nothing);
        assert_eq!(s.blocks(), &[(1, 1), (2, 2)]);
        assert!(is_err(&s.block(&[(3, 3), (15, 0)], false), "15,0 is off"));
        assert_eq!(s.blocks(), &[(1, 1), (2, 2)], "a bad block changed the set");
        assert_eq!(s.block(&[(1, 1), (9, 9)], true), Reply::Nothing);
        assert_eq!(s.blocks(), &[(2, 2)]);
        assert_eq!(s.block_reset(), Reply::Nothing);
        assert!(s.blocks().is_empty());
        s.block(&[(4, 4)], false);
        s.start(15);
        assert!(s.blocks().is_empty(), "a new game keeps no block");
    }

    #[test]
    fn a_blocked_choice_is_replaced_and_the_player_is_told() {
        // The scripted player plays the first legal point, 0,0, unless told otherwise.
        let mut s = session();
        s.start(15);
        s.block(&[(0, 0)], false);
        let (r, _) = ask(|r| s.nbest(1, r));
        assert!(matches!(r, Reply::Move(x, y) if (x, y) != (0, 0)), "{r:?}");
        s.block_reset();
        assert_eq!(ask(|r| s.nbest(1, r)).0, Reply::Move(0, 0));
    }

    #[test]
    fn analyses_refuse_what_they_cannot_analyse() {
        let mut s = session();
        assert!(is_err(&ask(|r| s.balance(false, 0, r)).0, "no game"));
        assert!(is_err(&ask(|r| s.search_defend(r)).0, "no game"));
        s.start(3);
        assert!(is_err(&ask(|r| s.balance(true, 0, r)).0, "tic-tac-toe"));
        assert!(is_err(&ask(|r| s.search_defend(r)).0, "tic-tac-toe"));
    }

    #[test]
    fn analyses_do_not_play() {
        let mut s = session();
        s.start(15);
        s.play(7, 7);
        let hash = s.board().unwrap().hash();
        assert!(matches!(ask(|r| s.balance(false, 0, r)).0, Reply::Move(..)));
        let (r, _) = ask(|r| s.balance(true, 0, r));
        assert!(
            matches!(&r, Reply::Moves(m) if m.len() == 2 && m[0] != m[1]),
            "{r:?}"
        );
        let (r, _) = ask(|r| s.search_defend(r));
        let Reply::Annotated(lines, answer) = r else {
            panic!("{r:?}")
        };
        assert_eq!(lines, vec!["defend: no threat to answer".to_string()]);
        assert!(matches!(*answer, Reply::Move(..)));
        assert_eq!(s.board().unwrap().hash(), hash);
    }

    #[test]
    fn the_defence_against_a_four_is_its_five_point() {
        let mut s = session();
        s.start(15);
        let four = [
            (3, 7, 2),
            (4, 7, 2),
            (5, 7, 2),
            (6, 7, 2),
            (2, 7, 1),
            (0, 0, 1),
            (14, 14, 1),
            (14, 0, 1),
        ];
        ask(|r| s.set_board(&stones(&four), false, r));
        let (r, _) = ask(|r| s.search_defend(r));
        let Reply::Annotated(lines, answer) = r else {
            panic!("{r:?}")
        };
        assert_eq!(lines[0], "defend 7,7 (threat at 7,7)");
        assert!(
            lines.contains(&"REALTIME LOST 8,7".to_string()),
            "{lines:?}"
        );
        // The scripted player answers the first legal point, which loses: the session keeps
        // to the defences.
        assert_eq!(*answer, Reply::Move(7, 7));
        s.block(&[(7, 7)], false);
        let (r, _) = ask(|r| s.search_defend(r));
        let Reply::Annotated(lines, answer) = r else {
            panic!("{r:?}")
        };
        assert!(
            lines[0].starts_with("defend: none outside the YXBLOCK"),
            "{lines:?}"
        );
        assert_ne!(*answer, Reply::Move(7, 7));
    }

    #[test]
    fn pondering_waits_for_our_move_and_stops_when_told() {
        let mut s = session();
        s.start(15);
        assert!(!s.wants_ponder(), "off by default");
        s.info(Setting::Pondering(1));
        assert!(s.pondering());
        assert!(!s.wants_ponder(), "no move of ours yet");
        assert!(matches!(ask(|r| s.begin(r)).0, Reply::Move(..)));
        assert!(s.wants_ponder());
        let stop = AtomicBool::new(true);
        s.ponder(&stop);
        assert!(s.wants_ponder(), "an interrupted ponder may start again");
        s.ponder(&AtomicBool::new(false));
        assert!(
            !s.wants_ponder(),
            "a ponder that ended by itself is not repeated"
        );
        s.info(Setting::Pondering(0));
        assert!(!s.pondering());
    }

    #[test]
    fn the_ponder_flag_turns_pondering_on_and_info_still_switches_it() {
        let config = SessionConfig {
            nodes: Some(500),
            ponder: true,
            ..SessionConfig::default()
        };
        let mut s = GomokuSession::new(config, Arc::new(StopSignal::new()));
        s.start(15);
        assert!(s.pondering(), "--ponder is on from the first game");
        s.info(Setting::Pondering(0));
        assert!(!s.pondering());
        s.start(15);
        assert!(!s.pondering(), "START keeps what INFO set");
    }
}
