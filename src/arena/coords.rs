//! What the arena reads of moves: Gomocup `x,y` answers and the lines of openings files. The
//! move itself ([`Mv`]: `x` from the left, `y` from the **top**, or a pass) and its spellings
//! are [`crate::rules::notation`]'s, the same the protocols read; each game converts it to its
//! own moves ([`crate::rules::game::GamePosition`]).

pub use crate::rules::notation::Mv;
use crate::rules::notation::{
    gomoku_letter, parse_gtp_vertex, split_letter_number, split_renju_name,
};

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

/// The comment line that says an openings file names gomoku points in renju notation; `sente
/// openings` writes it first, and [`parse_opening_line`] reads `h8` names only after it.
pub const NOTATION_LINE: &str = "# notation: renju (a1 at the lower left)";

/// Whether `line` declares an openings file's notation (`# notation: ...`): `Some(Ok(()))` for
/// renju notation, `Some(Err(..))` for any other, `None` for any other line.
pub fn notation_declared(line: &str) -> Option<Result<(), String>> {
    let comment = line.trim_start().strip_prefix('#')?.trim();
    let head = comment.get(..9)?;
    if !head.eq_ignore_ascii_case("notation:") {
        return None;
    }
    let value = comment[9..].trim();
    let word = value.split_whitespace().next().unwrap_or("");
    Some(if word.eq_ignore_ascii_case("renju") {
        Ok(())
    } else {
        Err(format!(
            "notation {value:?} is not one sente reads: gomoku points are named in renju \
             notation only (`{NOTATION_LINE}`)"
        ))
    })
}

/// Why a line that names points is refused in a file that has not declared its notation.
fn undeclared(token: &str) -> String {
    format!(
        "{token:?} names points with letters and numbers, but the file does not say which way \
         its rows count. sente reads renju notation (column a at the left, row 1 at the bottom: \
         a1 is the lower left, as renju books and Yixin-Board's board labels count) and wants the line \
         `{NOTATION_LINE}` before the first opening. A file that counts rows from the top \
         (c-gomoku-cli `type=pos`, Rapfi's position strings, `sente openings` before it wrote \
         that line) needs each row number n turned into (board height + 1 - n) first; \
         `x,y` pairs need no declaration"
    )
}

/// Reads one line of an openings file: whitespace- or comma-separated tokens, each a Gomocup
/// pair `x,y`, a GTP vertex (`go`: `D4`, row 1 at the bottom) or, for the gomoku family when
/// the file has declared it (`named`, see [`NOTATION_LINE`]), renju-notation names
/// ([`split_renju_name`]: `a1` the lower left) written with or without separators
/// (`h8i9j7`). `#` starts a comment.
pub fn parse_opening_line(
    line: &str,
    width: usize,
    height: usize,
    go: bool,
    named: bool,
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
        let mut rest = token;
        while !rest.is_empty() {
            let (x, row, _) =
                split_letter_number(rest).ok_or_else(|| format!("bad move in {token:?}"))?;
            if !named {
                return Err(undeclared(token));
            }
            let (x, y, more) = match split_renju_name(rest, height) {
                Some(named) if x < width => named,
                _ => {
                    return Err(format!(
                        "move off the board in {token:?}: {}{row} on {width}x{height} \
                         (columns a to {}, rows 1 to {height})",
                        gomoku_letter(x).unwrap_or('?'),
                        gomoku_letter(width.min(26) - 1).unwrap_or('?'),
                    ))
                }
            };
            moves.push(Mv::At(x, y));
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
        // Renju notation: h8 is the centre of 15x15, i9 up and right of it, j7 down and right.
        let want = vec![Mv::At(7, 7), Mv::At(8, 6), Mv::At(9, 8)];
        assert_eq!(
            parse_opening_line("h8i9j7", 15, 15, false, true),
            Ok(want.clone())
        );
        assert_eq!(
            parse_opening_line("h8 i9 j7 # comment", 15, 15, false, true),
            Ok(want.clone())
        );
        assert_eq!(
            parse_opening_line("7,7 8,6 9,8", 15, 15, false, false),
            Ok(want.clone()),
            "Gomocup pairs need no declaration"
        );
        assert_eq!(
            parse_opening_line("a1o15", 15, 15, false, true),
            Ok(vec![Mv::At(0, 14), Mv::At(14, 0)])
        );
        assert_eq!(
            parse_opening_line("a1 t6", 20, 6, false, true),
            Ok(vec![Mv::At(0, 5), Mv::At(19, 0)])
        );
        assert_eq!(
            parse_opening_line("D4 pass", 9, 9, true, false),
            Ok(vec![Mv::At(3, 5), Mv::Pass])
        );
        for off in ["z9", "h16", "p1", "h8p1"] {
            let err = parse_opening_line(off, 15, 15, false, true).unwrap_err();
            assert!(err.contains("off the board"), "{off}: {err}");
        }
        let err = parse_opening_line("a7", 20, 6, false, true).unwrap_err();
        assert!(err.contains("rows 1 to 6"), "{err}");
        assert!(parse_opening_line("I5", 9, 9, true, false).is_err());
        // What the protocols refuse, the arena refuses too: leading zeros.
        assert!(parse_opening_line("D04", 9, 9, true, false).is_err());
        assert!(parse_opening_line("h08", 15, 15, false, true).is_err());
        assert_eq!(parse_opening_line("   ", 15, 15, false, false), Ok(vec![]));
    }

    #[test]
    fn names_need_the_declaration() {
        let err = parse_opening_line("h8i9j7", 15, 15, false, false).unwrap_err();
        assert!(
            err.contains("does not say which way its rows count"),
            "{err}"
        );
        assert!(err.contains(NOTATION_LINE), "{err}");
        assert_eq!(notation_declared(NOTATION_LINE), Some(Ok(())));
        assert_eq!(notation_declared("#notation: RENJU"), Some(Ok(())));
        assert_eq!(notation_declared("  # Notation:  renju  "), Some(Ok(())));
        let other = notation_declared("# notation: top").unwrap().unwrap_err();
        assert!(other.contains("\"top\""), "{other}");
        assert_eq!(notation_declared("# two openings"), None);
        assert_eq!(notation_declared("h8 # notation: renju"), None);
        assert_eq!(notation_declared("# é"), None);
    }
}
