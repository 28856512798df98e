//! Tic-tac-toe as a GTP controller drives it (`sente --game ttt`): a 3 x 3, three-in-a-row
//! board, the move history for `undo`, and one of the tic-tac-toe levels of
//! [`crate::players::ttt`], asked through the one player interface ([`Player`]). Black (`X`) moves first; GTP vertices `A1`..`C3` with row 1 at the
//! bottom.
//!
//! Policies decided here (the README repeats them):
//! * `boardsize 3` is the only size (`unacceptable size` otherwise); `komi` is accepted and has
//!   no effect.
//! * `play` of the same colour twice is legal, as GTP wants; a move after the game is won is an
//!   `illegal move`. `play X pass` is accepted and recorded, so `undo` takes it back like a move.
//! * `genmove` on a finished game (a line or a full board) answers `pass`: there is nothing to
//!   play, and two passes let a GUI end the game.
//! * `final_score`: `B+1` or `W+1` for a line, `0` for a full board without one, `cannot score`
//!   while the game is still open.

use log::{info, warn};

use crate::players::mnk_level;
use crate::players::player::decide_with_limit;
use crate::players::ttt::TTT_LEVELS;
use crate::players::{Decision, Player};
use crate::rules::{Board, Color, Pos, Rule};
use crate::search::clock::SearchLimit;
use crate::session::gtp_game::{
    FinalScore, Genmove, GtpGame, GtpRequest, GtpResult, Vertex, CANNOT_UNDO, ILLEGAL_MOVE,
    OFF_BOARD, UNACCEPTABLE_SIZE,
};

/// The only board side.
pub const SIDE: usize = 3;

/// A tic-tac-toe game under a GTP controller.
pub struct TttSession {
    board: Board,
    /// Every move in order; `None` is a pass.
    moves: Vec<(Option<Pos>, Color)>,
    player: Box<dyn Player<Board>>,
    seed: u64,
}

fn new_board() -> Board {
    Board::with_k(SIDE, SIDE, 3, Rule::Freestyle)
}

impl TttSession {
    /// A session with an empty board and the level `level` (`None` = the default, `perfect`).
    /// An unknown level is an error naming the known ones.
    pub fn new(level: Option<&str>, seed: u64) -> Result<TttSession, String> {
        let name = level.unwrap_or(TTT_LEVELS[0].0);
        let player = ttt_level(name, seed)?;
        Ok(TttSession {
            board: new_board(),
            moves: Vec::new(),
            player,
            seed,
        })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The point of a vertex, `None` for a pass; an error when it is off the 3 x 3 board.
    fn point(&self, v: Vertex) -> GtpResult<Option<Pos>> {
        match v {
            Vertex::Pass => Ok(None),
            Vertex::At { x, y } if x < SIDE && y < SIDE => {
                // GTP rows count from the bottom; the board's from the top.
                let p = self.board.pos(x as i64, (SIDE - 1 - y) as i64);
                p.map(Some).ok_or_else(|| OFF_BOARD.to_string())
            }
            Vertex::At { .. } => Err(OFF_BOARD.to_string()),
        }
    }

    fn vertex(&self, p: Pos) -> Vertex {
        let (x, y) = self.board.xy(p);
        Vertex::At { x, y: SIDE - 1 - y }
    }

    fn apply(&mut self, p: Option<Pos>, color: Color) {
        if let Some(p) = p {
            self.board.place(p, color);
        }
        self.board.set_to_move(color.opponent());
        self.moves.push((p, color));
    }
}

/// The tic-tac-toe level `name`; an unknown one is an error naming the known ones.
fn ttt_level(name: &str, seed: u64) -> Result<Box<dyn Player<Board>>, String> {
    mnk_level(true, name, seed).ok_or_else(|| {
        let known: Vec<&str> = TTT_LEVELS.iter().map(|l| l.0).collect();
        format!(
            "unknown level '{name}' (tic-tac-toe levels: {})",
            known.join(", ")
        )
    })
}

impl GtpGame for TttSession {
    fn level(&self) -> &'static str {
        self.player.name()
    }

    fn set_level(&mut self, name: &str) -> GtpResult<()> {
        let p = ttt_level(name, self.seed)?;
        info!("level switched to {}", p.name());
        self.player = p;
        Ok(())
    }

    fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.player.set_seed(seed);
    }

    fn boardsize(&mut self, width: usize, height: usize) -> GtpResult<()> {
        if width != SIDE || height != SIDE {
            return Err(UNACCEPTABLE_SIZE.to_string());
        }
        self.clear_board();
        Ok(())
    }

    fn clear_board(&mut self) {
        self.board = new_board();
        self.moves.clear();
    }

    fn komi(&mut self, komi: f32) {
        info!("komi {komi} has no meaning in tic-tac-toe; ignored");
    }

    fn play(&mut self, color: Color, v: Vertex) -> GtpResult<()> {
        let p = self.point(v)?;
        if let Some(p) = p {
            if !self.board.is_empty(p) || self.board.winner().is_some() {
                let why = if self.board.is_empty(p) {
                    "the game is over"
                } else {
                    "point is occupied"
                };
                warn!("play {} {v} refused: {why}", color.name());
                return Err(ILLEGAL_MOVE.to_string());
            }
        }
        self.apply(p, color);
        Ok(())
    }

    fn genmove(&mut self, color: Color, commit: bool, req: &mut GtpRequest<'_>) -> Genmove {
        let choice = if self.board.is_over() {
            None
        } else {
            let mut b = self.board.clone();
            b.set_to_move(color);
            // Choosing is instant: no level looks at the clock.
            let limit = SearchLimit::default();
            match decide_with_limit(self.player.as_mut(), &b, &limit, req.at) {
                Some(Decision::Play(p)) if b.is_empty(p) => Some(p),
                other => {
                    let chose = match other {
                        Some(Decision::Play(p)) => {
                            let (x, y) = b.xy(p);
                            format!("the taken square {x},{y}")
                        }
                        Some(Decision::Resign) => "to resign".to_string(),
                        None => "nothing".to_string(),
                    };
                    warn!(
                        "level {} chose {chose}; playing the first empty square",
                        self.player.name()
                    );
                    b.empty_points().next()
                }
            }
        };
        if commit {
            self.apply(choice, color);
        }
        Genmove::Move(choice.map_or(Vertex::Pass, |p| self.vertex(p)))
    }

    fn undo(&mut self) -> GtpResult<()> {
        let Some((p, color)) = self.moves.pop() else {
            return Err(CANNOT_UNDO.to_string());
        };
        if p.is_some() {
            self.board.undo();
        }
        self.board.set_to_move(color);
        Ok(())
    }

    fn showboard(&self) -> String {
        let letters = "   A B C\n";
        let mut s = String::from("\n");
        s.push_str(letters);
        for y in 0..SIDE {
            let row = SIDE - y;
            s.push_str(&format!(" {row} "));
            for x in 0..SIDE {
                let c = self.board.get(x as i64, y as i64);
                s.push(match c.color() {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
                s.push(' ');
            }
            s.push_str(&format!("{row}\n"));
        }
        s.push_str(letters);
        s
    }

    fn final_score(&mut self) -> GtpResult<FinalScore> {
        match self.board.winner() {
            Some(c) => Ok(FinalScore {
                winner: Some(c),
                margin: 1.0,
            }),
            None if self.board.is_full() => Ok(FinalScore {
                winner: None,
                margin: 0.0,
            }),
            None => Err("cannot score (the game is not over)".to_string()),
        }
    }

    fn describe(&self) -> Vec<String> {
        let name = self.player.name();
        let what = TTT_LEVELS.iter().find(|l| l.0 == name).map_or("", |l| l.1);
        vec![
            format!("game: tic-tac-toe, {SIDE}x{SIDE}, three in a row, black (X) first"),
            format!("level: {name}: {what}"),
            format!("seed: {}", self.seed),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn at(x: usize, y: usize) -> Vertex {
        Vertex::At { x, y }
    }

    fn gen(s: &mut TttSession, c: Color) -> Genmove {
        s.genmove(c, true, &mut GtpRequest::plain(0, Instant::now()))
    }

    #[test]
    fn only_three_by_three() {
        let mut s = TttSession::new(None, 0).unwrap();
        s.play(Color::Black, at(1, 1)).unwrap();
        assert_eq!(s.boardsize(4, 4), Err(UNACCEPTABLE_SIZE.into()));
        assert_eq!(s.board().stones(), 1, "a refused size changes nothing");
        assert_eq!(s.boardsize(3, 3), Ok(()));
        assert_eq!(s.board().stones(), 0);
    }

    #[test]
    fn rows_count_from_the_bottom() {
        let mut s = TttSession::new(None, 0).unwrap();
        s.play(Color::Black, at(0, 0)).unwrap(); // A1: bottom left
        assert_eq!(s.board().get(0, 2).color(), Some(Color::Black));
        assert!(s.showboard().contains(" 1 X . . 1"));
        assert_eq!(s.play(Color::White, at(3, 0)), Err(OFF_BOARD.into()));
        assert_eq!(s.play(Color::White, at(0, 0)), Err(ILLEGAL_MOVE.into()));
        assert_eq!(s.board().stones(), 1);
    }

    #[test]
    fn perfect_blocks_and_wins() {
        let mut s = TttSession::new(Some("perfect"), 3).unwrap();
        s.play(Color::Black, at(0, 0)).unwrap();
        s.play(Color::Black, at(1, 0)).unwrap();
        // White must block at C1.
        assert_eq!(gen(&mut s, Color::White), Genmove::Move(at(2, 0)));
        s.play(Color::Black, at(0, 1)).unwrap();
        s.play(Color::White, at(2, 2)).unwrap();
        // Black: A3 wins.
        assert_eq!(gen(&mut s, Color::Black), Genmove::Move(at(0, 2)));
        assert_eq!(s.final_score().map(|x| x.winner), Ok(Some(Color::Black)));
        assert_eq!(s.play(Color::White, at(1, 1)), Err(ILLEGAL_MOVE.into()));
        assert_eq!(gen(&mut s, Color::White), Genmove::Move(Vertex::Pass));
        s.undo().unwrap(); // the pass
        s.undo().unwrap(); // the win
        assert_eq!(s.final_score().ok(), None);
    }

    #[test]
    fn undo_restores_and_stops_at_the_start() {
        let mut s = TttSession::new(None, 0).unwrap();
        assert_eq!(s.undo(), Err(CANNOT_UNDO.into()));
        s.play(Color::Black, Vertex::Pass).unwrap();
        s.play(Color::White, at(1, 1)).unwrap();
        s.undo().unwrap();
        assert_eq!(s.board().stones(), 0);
        assert_eq!(s.board().to_move(), Color::White);
        s.undo().unwrap();
        assert_eq!(s.board().to_move(), Color::Black);
        assert_eq!(s.undo(), Err(CANNOT_UNDO.into()));
    }

    #[test]
    fn perfect_self_play_is_a_draw() {
        let mut s = TttSession::new(None, 7).unwrap();
        let mut c = Color::Black;
        for _ in 0..9 {
            assert!(matches!(gen(&mut s, c), Genmove::Move(Vertex::At { .. })));
            c = c.opponent();
        }
        assert_eq!(s.final_score().map(|x| x.winner), Ok(None));
    }

    #[test]
    fn levels_switch_and_unknown_levels_are_refused() {
        let mut s = TttSession::new(Some("dumber"), 0).unwrap();
        assert_eq!(s.level(), "dumber");
        // dumber: the first empty square in the board's order (top-left = A3).
        assert_eq!(gen(&mut s, Color::Black), Genmove::Move(at(0, 2)));
        assert!(s.set_level("nosuch").is_err());
        assert_eq!(s.level(), "dumber");
        s.set_level("perfect").unwrap();
        assert_eq!(s.level(), "perfect");
        assert!(TttSession::new(Some("mcts"), 0).is_err());
    }
}
