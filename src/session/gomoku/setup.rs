//! The positions BOARD / YXBOARD and SWAP2BOARD blocks describe: the colours counted from the
//! fields, continuous-game markers made blocked points, a bad block changing nothing, and the
//! SWAP2 answers (the policies are in [`super`]'s notes).

use log::{info, warn};

use super::{GomokuSession, Reply, Request, StoneLine, NO_GAME};
use crate::rules::{Board, Color, Pos};
use crate::session::mnk::{empty_board, is_tic_tac_toe};

impl GomokuSession {
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
            Ok(b) => {
                let over = b.winner().is_some();
                self.ours = Some(b.to_move());
                self.board = Some(b);
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
    fn position_from(&self, stones: &[StoneLine]) -> Result<Board, String> {
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
        let mut placed: Vec<(Pos, Option<Color>)> = Vec::with_capacity(stones.len());
        for s in stones {
            let p = b
                .pos(s.x, s.y)
                .ok_or_else(|| format!("stone {},{}: point is off the board", s.x, s.y))?;
            if placed.iter().any(|&(q, _)| q == p) {
                return Err(format!("stone {},{}: point is occupied", s.x, s.y));
            }
            let color = match s.field {
                Some(1) => Some(ours),
                Some(2) => Some(ours.opponent()),
                _ => None,
            };
            placed.push((p, color));
        }
        // The blocked points first, so that the stones' lines (and a five) already see them.
        for &(p, color) in &placed {
            if color.is_none() {
                b.block(p);
            }
        }
        for &(p, color) in &placed {
            if let Some(color) = color {
                b.place(p, color);
            }
        }
        if !b.blocked().is_empty() {
            info!(
                "BOARD: {} field-3 point(s) blocked for the game",
                b.blocked().len()
            );
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
            return Reply::Moves(moves);
        }
        self.board = Some(b);
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
}

#[cfg(test)]
mod tests {
    use super::super::tests::*;
    use super::super::*;
    use super::*;

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
}
