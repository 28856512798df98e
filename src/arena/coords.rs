//! What the arena reads of moves: Gomocup `x,y` answers and the lines of openings files. The
//! move itself ([`Mv`]: `x` from the left, `y` from the **top**, or a pass) and its spellings
//! are [`crate::rules::notation`]'s, the same the protocols read; each game converts it to its
//! own moves ([`crate::rules::game::GamePosition`]).

pub use crate::rules::notation::Mv;
use crate::rules::notation::{parse_gtp_vertex, split_letter_number};

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
