//! Moves as the referee holds them, and their spellings in each dialect the arena speaks:
//! Gomocup `x,y`, GTP vertices (`D4`, `pass`), SGF points and the `h8` notation of opening files.
//!
//! One orientation everywhere inside the arena: `x` counts columns from the left and `y` rows
//! from the **top**, both 0-based, as Gomocup does. GTP counts rows from the bottom, so the
//! conversion lives here and nowhere else; the spellings themselves are
//! [`crate::rules::notation`]'s, the same the protocols read.

use std::fmt;

use crate::rules::go::{GoBoard, GoMove};
use crate::rules::notation::{gtp_point_name, parse_gtp_point, split_letter_number};

/// A move: a stone on a point, or a pass (Go only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mv {
    /// A stone at column `x` from the left, row `y` from the top.
    At(usize, usize),
    /// No stone (Go).
    Pass,
}

impl fmt::Display for Mv {
    /// Gomocup spelling (`7,7`) or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mv::At(x, y) => write!(f, "{x},{y}"),
            Mv::Pass => write!(f, "pass"),
        }
    }
}

/// The GTP vertex of `mv` on a board `height` rows high (`D4`, `pass`).
pub fn gtp_vertex(mv: Mv, height: usize) -> String {
    match mv {
        Mv::Pass => "pass".to_string(),
        Mv::At(x, y) if y < height => {
            gtp_point_name(x, height - 1 - y).unwrap_or_else(|| format!("?{x},{y}"))
        }
        Mv::At(x, y) => format!("?{x},{y}"),
    }
}

/// Parses a GTP vertex (any case; `pass`) on a `width` x `height` board, as strictly as the
/// protocol does ([`parse_gtp_point`]: no `I`, no leading zero).
pub fn parse_gtp_vertex(s: &str, width: usize, height: usize) -> Option<Mv> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("pass") {
        return Some(Mv::Pass);
    }
    let (x, row) = parse_gtp_point(s)?;
    (x < width && row < height).then(|| Mv::At(x, height - 1 - row))
}

/// The Go move of `mv` on `board`, whose rows count from the bottom; `None` off the board.
pub fn go_move(mv: Mv, board: &GoBoard) -> Option<GoMove> {
    match mv {
        Mv::Pass => Some(GoMove::Pass),
        Mv::At(x, y) if y < board.height() => {
            board.point(x, board.height() - 1 - y).map(GoMove::Play)
        }
        Mv::At(..) => None,
    }
}

/// The arena's move for the Go move `mv` on `board` (the inverse of [`go_move`]).
pub fn mv_of_go(mv: GoMove, board: &GoBoard) -> Mv {
    match mv {
        GoMove::Pass => Mv::Pass,
        GoMove::Play(p) => {
            let (x, y) = board.xy(p);
            Mv::At(x, board.height() - 1 - y)
        }
    }
}

/// Parses a Gomocup move `x,y` (two decimal integers, no spaces) on a `width` x `height` board.
pub fn parse_gomocup(s: &str, width: usize, height: usize) -> Option<(usize, usize)> {
    let (a, b) = s.trim().split_once(',')?;
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(a) || !digits(b) {
        return None;
    }
    let (x, y): (usize, usize) = (a.parse().ok()?, b.parse().ok()?);
    (x < width && y < height).then_some((x, y))
}

/// Reads one line of an openings file: whitespace- or comma-separated tokens, each a Gomocup
/// pair `x,y`, a GTP vertex (`go`: `D4`, row 1 at the bottom) or, for the gomoku family, the
/// `h8` notation (letter = column from `a`, number = row from the top, 1-based) written with or
/// without separators (`h8i9j7`). `#` starts a comment.
pub fn parse_opening_line(
    line: &str,
    width: usize,
    height: usize,
    go: bool,
) -> Result<Vec<Mv>, String> {
    let line = line.split('#').next().unwrap_or("");
    let mut moves = Vec::new();
    for token in line.split_whitespace() {
        if let Some(p) = parse_gomocup(token, width, height) {
            moves.push(Mv::At(p.0, p.1));
            continue;
        }
        if go {
            let mv = parse_gtp_vertex(token, width, height)
                .ok_or_else(|| format!("bad vertex {token:?}"))?;
            moves.push(mv);
            continue;
        }
        // Gomocup-order names (rules/notation.rs), possibly glued together.
        let mut rest = token;
        while !rest.is_empty() {
            let (x, row, more) =
                split_letter_number(rest).ok_or_else(|| format!("bad move in {token:?}"))?;
            if x >= width || row > height {
                return Err(format!("move off the board in {token:?}"));
            }
            moves.push(Mv::At(x, row - 1));
            rest = more;
        }
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_vertices_skip_i_and_count_rows_from_the_bottom() {
        assert_eq!(gtp_vertex(Mv::At(0, 18), 19), "A1");
        assert_eq!(gtp_vertex(Mv::At(8, 0), 19), "J19");
        assert_eq!(gtp_vertex(Mv::At(3, 5), 9), "D4");
        assert_eq!(gtp_vertex(Mv::Pass, 9), "pass");
        assert_eq!(parse_gtp_vertex("d4", 9, 9), Some(Mv::At(3, 5)));
        assert_eq!(parse_gtp_vertex("J9", 9, 9), Some(Mv::At(8, 0)));
        assert_eq!(parse_gtp_vertex("PASS", 9, 9), Some(Mv::Pass));
        for bad in [
            "I5", "K1", "A10", "A0", "", "A", "A1x", "A-1", "resign", "A01", "D04",
        ] {
            assert_eq!(parse_gtp_vertex(bad, 9, 9), None, "{bad}");
        }
        assert_eq!(parse_gtp_vertex("C3", 3, 3), Some(Mv::At(2, 0)));
    }

    #[test]
    fn go_moves_count_rows_from_the_top_here_and_from_the_bottom_on_the_board() {
        let board = GoBoard::new(9, 7).unwrap();
        // Top-left here is row 7 of the board, x 0.
        assert_eq!(
            go_move(Mv::At(0, 0), &board),
            Some(GoMove::Play(board.point(0, 6).unwrap()))
        );
        assert_eq!(
            go_move(Mv::At(8, 6), &board),
            Some(GoMove::Play(board.point(8, 0).unwrap()))
        );
        assert_eq!(go_move(Mv::Pass, &board), Some(GoMove::Pass));
        for off in [Mv::At(9, 0), Mv::At(0, 7), Mv::At(usize::MAX, 0)] {
            assert_eq!(go_move(off, &board), None, "{off}");
        }
        for mv in [Mv::At(0, 0), Mv::At(3, 5), Mv::At(8, 6), Mv::Pass] {
            assert_eq!(mv_of_go(go_move(mv, &board).unwrap(), &board), mv);
        }
    }

    #[test]
    fn gomocup_moves_are_strict() {
        assert_eq!(parse_gomocup("7,7", 15, 15), Some((7, 7)));
        assert_eq!(parse_gomocup(" 0,14 ", 15, 15), Some((0, 14)));
        for bad in ["15,0", "1, 2", "a,b", "1,", ",1", "1;2", "-1,2", "1,2,3"] {
            assert_eq!(parse_gomocup(bad, 15, 15), None, "{bad}");
        }
    }

    #[test]
    fn opening_lines() {
        let want = vec![Mv::At(7, 7), Mv::At(8, 8), Mv::At(9, 6)];
        assert_eq!(
            parse_opening_line("h8i9j7", 15, 15, false),
            Ok(want.clone())
        );
        assert_eq!(
            parse_opening_line("h8 i9 j7 # comment", 15, 15, false),
            Ok(want.clone())
        );
        assert_eq!(
            parse_opening_line("7,7 8,8 9,6", 15, 15, false),
            Ok(want.clone())
        );
        assert_eq!(
            parse_opening_line("D4 pass", 9, 9, true),
            Ok(vec![Mv::At(3, 5), Mv::Pass])
        );
        assert!(parse_opening_line("z9", 15, 15, false).is_err());
        assert!(parse_opening_line("I5", 9, 9, true).is_err());
        // What the protocols refuse, the arena refuses too: leading zeros.
        assert!(parse_opening_line("D04", 9, 9, true).is_err());
        assert!(parse_opening_line("h08", 15, 15, false).is_err());
        assert_eq!(parse_opening_line("   ", 15, 15, false), Ok(vec![]));
    }
}
