//! The self-play data format: one finished game per line, plain text, so that files written by
//! different shards concatenate into one data set (`cat`) and a file cut short by a crash is
//! repaired by dropping its last, unterminated line.
//!
//! ```text
//! # sente-selfplay v1 rule=renju size=15 nodes=5000 seed=1 stones=2-4
//! 17 B 7,7 8,8 6,8 | 7,9:35 8,9:-12 ... 9,11:#1
//! ```
//!
//! A line starting with `#` is a header (written once per file: the settings of the run, checked
//! when a run resumes) and is skipped by readers. A game line holds: the job number (which game
//! of the schedule it is: it fixes the opening and is unique across shards), the result (`B`
//! black won, `W` white won, `D` draw), the opening stones (black first, alternating; Gomocup
//! `x,y`, x from the left and y from the top), `|`, then one token per searched position in
//! playing order: the move the search chose and played, `:`, and its score from the mover's
//! view in evaluation units, or `#n` for a forced win in n plies (`#-n`: a forced loss), or `?`
//! when the search answered without a report (a forced reply found before any iteration).
//! Position i of a game is the opening followed by the first i moves.

use std::fmt::Write as _;

use crate::rules::{Board, Color, Outcome, Pos};

/// The first word of every header line.
pub const MAGIC: &str = "# sente-selfplay v1";

/// A result as a game line writes it (and [`GameLine::parse`] reads it).
fn letter(o: Outcome) -> char {
    match o {
        Outcome::Win(Color::Black) => 'B',
        Outcome::Win(Color::White) => 'W',
        Outcome::Draw => 'D',
    }
}

/// What the search said about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Evaluation units, mover's view.
    Eval(i32),
    /// A forced win in n plies (negative: a forced loss in -n).
    Mate(i32),
    /// No report (the move was forced before any iteration ran).
    Unknown,
}

/// One searched position: the move played from it and the search's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    pub mv: (usize, usize),
    pub score: Score,
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    pub job: usize,
    pub outcome: Outcome,
    pub opening: Vec<(usize, usize)>,
    pub moves: Vec<Searched>,
}

impl GameLine {
    /// The line, with its newline.
    pub fn to_line(&self) -> String {
        let mut s = format!("{} {}", self.job, letter(self.outcome));
        for &(x, y) in &self.opening {
            let _ = write!(s, " {x},{y}");
        }
        s.push_str(" |");
        for m in &self.moves {
            let _ = write!(s, " {},{}:", m.mv.0, m.mv.1);
            let _ = match m.score {
                Score::Eval(v) => write!(s, "{v}"),
                Score::Mate(n) => write!(s, "#{n}"),
                Score::Unknown => write!(s, "?"),
            };
        }
        s.push('\n');
        s
    }

    /// Parses a game line (no header, no newline).
    pub fn parse(line: &str) -> Result<GameLine, String> {
        let (head, tail) = line
            .split_once('|')
            .ok_or_else(|| "no '|' between the opening and the moves".to_string())?;
        let mut words = head.split_ascii_whitespace();
        let job = words
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or("no job number")?;
        let outcome = match words.next() {
            Some("B") => Outcome::Win(Color::Black),
            Some("W") => Outcome::Win(Color::White),
            Some("D") => Outcome::Draw,
            other => return Err(format!("bad result {other:?}")),
        };
        let opening = words.map(parse_xy).collect::<Result<Vec<_>, _>>()?;
        let mut moves = Vec::new();
        for token in tail.split_ascii_whitespace() {
            let (mv, score) = token
                .split_once(':')
                .ok_or_else(|| format!("move {token:?} has no score"))?;
            let score = match score {
                "?" => Score::Unknown,
                s if s.starts_with('#') => {
                    Score::Mate(s[1..].parse().map_err(|_| format!("bad mate {s:?}"))?)
                }
                s => Score::Eval(s.parse().map_err(|_| format!("bad score {s:?}"))?),
            };
            moves.push(Searched {
                mv: parse_xy(mv)?,
                score,
            });
        }
        Ok(GameLine {
            job,
            outcome,
            opening,
            moves,
        })
    }

    /// Replays the game on an empty `board`, calling `visit` with each searched position
    /// (before its move is played), the move's point and the search's record. Fails on a move
    /// the rules refuse, so a file of another rule or size is caught.
    pub fn replay(
        &self,
        board: &mut Board,
        visit: &mut dyn FnMut(&Board, Pos, &Searched),
    ) -> Result<(), String> {
        let point = |b: &Board, (x, y): (usize, usize)| {
            b.pos(x as i64, y as i64)
                .ok_or_else(|| format!("{x},{y} is off the board"))
        };
        for &xy in &self.opening {
            let p = point(board, xy)?;
            board
                .play(p)
                .map_err(|e| format!("opening {},{}: {e}", xy.0, xy.1))?;
        }
        for m in &self.moves {
            let p = point(board, m.mv)?;
            board
                .check(p)
                .map_err(|e| format!("{},{}: {e}", m.mv.0, m.mv.1))?;
            visit(board, p, m);
            board
                .play(p)
                .map_err(|e| format!("{},{}: {e}", m.mv.0, m.mv.1))?;
        }
        Ok(())
    }
}

fn parse_xy(s: &str) -> Result<(usize, usize), String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("bad point {s:?}"))?;
    match (x.parse(), y.parse()) {
        (Ok(x), Ok(y)) => Ok((x, y)),
        _ => Err(format!("bad point {s:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn lines_round_trip() {
        let g = GameLine {
            job: 17,
            outcome: Outcome::Win(Color::White),
            opening: vec![(7, 7), (8, 8)],
            moves: vec![
                Searched {
                    mv: (6, 8),
                    score: Score::Eval(-35),
                },
                Searched {
                    mv: (9, 9),
                    score: Score::Mate(-4),
                },
                Searched {
                    mv: (10, 10),
                    score: Score::Unknown,
                },
            ],
        };
        let line = g.to_line();
        assert_eq!(line, "17 W 7,7 8,8 | 6,8:-35 9,9:#-4 10,10:?\n");
        assert_eq!(GameLine::parse(line.trim_end()).unwrap(), g);
        for bad in [
            "",
            "17 W 7,7",
            "x W |",
            "17 Q |",
            "17 B | 7,7",
            "17 B | 7,7:abc",
            "1 B 7 |",
        ] {
            assert!(GameLine::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn replay_visits_each_searched_position_and_refuses_bad_moves() {
        let g = GameLine::parse("0 D 7,7 | 8,8:1 9,9:2").unwrap();
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let mut seen = Vec::new();
        g.replay(&mut b, &mut |b, p, m| {
            seen.push((b.stones(), b.xy(p), m.score))
        })
        .unwrap();
        assert_eq!(
            seen,
            vec![(1, (8, 8), Score::Eval(1)), (2, (9, 9), Score::Eval(2))]
        );
        let twice = GameLine::parse("0 D 7,7 | 7,7:1").unwrap();
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        assert!(twice.replay(&mut b, &mut |_, _, _| {}).is_err());
        let off = GameLine::parse("0 D 20,7 |").unwrap();
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        assert!(off.replay(&mut b, &mut |_, _, _| {}).is_err());
    }
}
