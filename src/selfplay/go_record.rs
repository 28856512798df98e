//! The Go training-data format (`sente go-data`): one finished game per line, plain text, so
//! that files of different shards or board sizes concatenate (`cat`) and a file cut short by a
//! crash is repaired by dropping its last, unterminated line.
//!
//! ```text
//! # sente-go-data v1 size=9 komi=7.5 engine=gnugo level=10 seed=1 random=2-6
//! 17 9 B+3.5 4 E5 C3 G7 D6 F4 pass ...
//! ```
//!
//! A line starting with `#` is a header (the settings of the run, written once per file and
//! checked when a run resumes) and is skipped by readers. A game line holds: the job number
//! (which game of the schedule: it fixes the random opening and GNU Go's seed), the board
//! side, the result as GTP's `final_score` gives it (`B+3.5`, `W+R` a resignation, `0` a jigo,
//! `?` a game stopped by the move cap), the number of random opening moves, then every move in
//! playing order as a GTP vertex (`D4`, `pass`), black first, colours alternating. The opening
//! moves were drawn at random; every later move is the engine's choice: position i (the
//! moves before move i, i at least the opening's length) with move i as its target.
//!
//! A move may carry the visit counts of the search that chose it (`engine=sente` files):
//! `D4[D4:3021,C3:512,pass:4]`, the searched root moves with most visits, most visited first.
//! The trainer then fits the position to that distribution (a soft target, as expert
//! iteration does) instead of the one move.

use crate::rules::go::{GoGame, GoMove, GoRules};
use crate::rules::notation::{gtp_point_name, parse_gtp_point};
use crate::rules::Color;

/// The first words of every header line.
pub const GO_MAGIC: &str = "# sente-go-data v1";

/// A point as (x, y from the bottom), `None` a pass.
pub type Vertex = Option<(usize, usize)>;

/// A search's root moves and their visits, most visited first.
pub type Visits = Vec<(Vertex, u32)>;

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoGameLine {
    pub job: usize,
    pub size: usize,
    /// `final_score`'s text, or `?`.
    pub result: String,
    /// How many of the first moves were random.
    pub random: usize,
    /// Every move in playing order.
    pub moves: Vec<Vertex>,
    /// Per move, the visits of the search that chose it (empty when not recorded).
    pub visits: Vec<Visits>,
}

/// A vertex as the format writes it.
fn vertex_text(mv: Vertex) -> String {
    mv.and_then(|(x, y)| gtp_point_name(x, y))
        .unwrap_or_else(|| "pass".to_string())
}

/// Parses a vertex of a `size` board (`pass` included).
fn parse_vertex(tok: &str, size: usize) -> Result<Vertex, String> {
    if tok.eq_ignore_ascii_case("pass") {
        return Ok(None);
    }
    match parse_gtp_point(tok) {
        Some((x, y)) if x < size && y < size => Ok(Some((x, y))),
        _ => Err(format!("bad vertex {tok:?}")),
    }
}

impl GoGameLine {
    /// The line (with its newline).
    pub fn to_line(&self) -> String {
        let mut s = format!("{} {} {} {}", self.job, self.size, self.result, self.random);
        for (i, &mv) in self.moves.iter().enumerate() {
            s.push(' ');
            s.push_str(&vertex_text(mv));
            let visits = self.visits_of(i);
            if !visits.is_empty() {
                let list: Vec<String> = visits
                    .iter()
                    .map(|&(m, n)| format!("{}:{n}", vertex_text(m)))
                    .collect();
                s.push_str(&format!("[{}]", list.join(",")));
            }
        }
        s.push('\n');
        s
    }

    /// Parses a game line (not a header); checks the fields, not the moves' legality
    /// ([`GoGameLine::replay`] does).
    pub fn parse(line: &str) -> Result<GoGameLine, String> {
        let mut t = line.split_whitespace();
        let mut field = |name: &str| t.next().ok_or_else(|| format!("no {name}"));
        let job = field("job")?.parse().map_err(|_| "bad job number")?;
        let size: usize = field("size")?.parse().map_err(|_| "bad board size")?;
        if !(2..=25).contains(&size) {
            return Err(format!("board size {size} out of 2..=25"));
        }
        let result = field("result")?.to_string();
        let random = field("opening length")?
            .parse()
            .map_err(|_| "bad opening length")?;
        let mut moves = Vec::new();
        let mut visits = Vec::new();
        for tok in t {
            let (mv, list) = match tok.split_once('[') {
                None => (tok, None),
                Some((mv, rest)) => {
                    let list = rest
                        .strip_suffix(']')
                        .ok_or_else(|| format!("unclosed visits in {tok:?}"))?;
                    (mv, Some(list))
                }
            };
            moves.push(parse_vertex(mv, size)?);
            let mut counts = Vec::new();
            for item in list.iter().flat_map(|l| l.split(',')) {
                let (m, n) = item
                    .split_once(':')
                    .ok_or_else(|| format!("bad visit count {item:?} in {tok:?}"))?;
                let n = n
                    .parse()
                    .map_err(|_| format!("bad visit count {item:?} in {tok:?}"))?;
                counts.push((parse_vertex(m, size)?, n));
            }
            visits.push(counts);
        }
        if visits.iter().all(|v| v.is_empty()) {
            visits.clear();
        }
        if random > moves.len() {
            return Err("opening longer than the game".into());
        }
        Ok(GoGameLine {
            job,
            size,
            result,
            random,
            moves,
            visits,
        })
    }

    /// The visits recorded for move `i` (empty when none were).
    pub fn visits_of(&self, i: usize) -> &[(Vertex, u32)] {
        self.visits.get(i).map_or(&[], |v| &v[..])
    }

    /// Replays the game under the default (Chinese, positional superko) rules, calling
    /// `visit(game before the move, move, its colour, whether the engine chose it)` for every
    /// move; an illegal move is an error naming it.
    pub fn replay(
        &self,
        mut visit: impl FnMut(&GoGame, GoMove, Color, bool),
    ) -> Result<(), String> {
        let mut game =
            GoGame::new(self.size, self.size, GoRules::default()).map_err(|e| format!("{e:?}"))?;
        for (i, mv) in self.moves.iter().enumerate() {
            let color = game.to_move();
            let gm = match *mv {
                None => GoMove::Pass,
                Some((x, y)) => GoMove::Play(game.board().point(x, y).ok_or("off the board")?),
            };
            visit(&game, gm, color, i >= self.random);
            game.play(gm, color)
                .map_err(|e| format!("move {} ({mv:?}): {e:?}", i + 1))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_replay() {
        let line = "3 9 B+2.5 2 E5 C3 G7 pass D4\n";
        let g = GoGameLine::parse(line).unwrap();
        assert_eq!((g.job, g.size, g.random, g.moves.len()), (3, 9, 2, 5));
        assert_eq!(g.moves[0], Some((4, 4)));
        assert_eq!(g.moves[3], None);
        assert_eq!(g.to_line(), line);
        let mut seen = Vec::new();
        g.replay(|_, _, c, chosen| seen.push((c, chosen))).unwrap();
        assert_eq!(
            seen,
            [
                (Color::Black, false),
                (Color::White, false),
                (Color::Black, true),
                (Color::White, true),
                (Color::Black, true)
            ]
        );
    }

    #[test]
    fn visit_counts_round_trip_beside_the_moves() {
        let line = "4 9 W+R 1 E5 C3[C3:90,D4:8,pass:2] G7 D4[D4:50]\n";
        let g = GoGameLine::parse(line).unwrap();
        assert_eq!(g.moves.len(), 4);
        assert_eq!(g.visits_of(0), &[]);
        assert_eq!(
            g.visits_of(1),
            &[(Some((2, 2)), 90), (Some((3, 3)), 8), (None, 2)]
        );
        assert_eq!(g.visits_of(3), &[(Some((3, 3)), 50)]);
        assert_eq!(g.visits_of(9), &[]);
        assert_eq!(g.to_line(), line);
        for bad in [
            "1 9 ? 0 E5[E5:1",
            "1 9 ? 0 E5[E5]",
            "1 9 ? 0 E5[E5:x]",
            "1 9 ? 0 E5[Z9:3]",
            "1 9 ? 0 E5[E5:-1]",
        ] {
            assert!(GoGameLine::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn bad_lines_and_illegal_moves_are_refused() {
        for bad in [
            "",
            "1",
            "1 9 B+R",
            "1 9 B+R x",
            "1 9 B+R 3 E5",
            "1 9 ? 0 Z9",
            "1 99 ? 0",
        ] {
            assert!(GoGameLine::parse(bad).is_err(), "{bad:?}");
        }
        let twice = GoGameLine::parse("1 9 ? 0 E5 E5").unwrap();
        assert!(twice
            .replay(|_, _, _, _| {})
            .unwrap_err()
            .contains("move 2"));
    }
}
