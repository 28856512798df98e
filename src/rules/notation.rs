//! How points are spelled, in one place for the protocols, the arena, the terminal and the
//! benches. Coordinates are 0-based `(x, y)` with `x` from the left; each function says which
//! way its `y` counts.
//!
//! - **GTP vertices** (Go, and tic-tac-toe over GTP): a column letter `A`..`Z` without `I`, any
//!   case, then a row number from 1 at the **bottom**, 1..=25, digits only with no leading zero
//!   (`D4`, `t19`); `pass` is not a point and is left to the callers, who differ in what a pass
//!   becomes. [`parse_gtp_point`] reads one, [`gtp_point_name`] spells it upper-case.
//! - **Renju notation**, the one way the project names a gomoku (and tic-tac-toe) point to
//!   people: a column letter from `a` at the left (every letter, `i` included) and a row number
//!   from 1 at the **bottom**, so `a1` is the lower left and the Gomocup point `7,8` is `h7` on
//!   15x15. Renju books (RenLib, the RIF's records) and Yixin-Board's board labels count so.
//!   `sente play gomoku`, the Gomocup `MESSAGE` principal variations, openings files, PGN
//!   moves, the bench and the logs all go through [`renju_name`] and [`split_renju_name`] /
//!   [`parse_renju_name`]; docs/match.md says why this and not Rapfi's order.
//!
//! - **SGF points** (the arena's game records): two letters `a`..`z` then `A`..`Z`, column then
//!   row from the **top** ([`sgf_point`]).
//!
//! Gomoku names stop at 26 columns (one letter each); wider boards fall back to `x,y`.
//!
//! A move of any game as the referee and the Gomocup protocol count it is an [`Mv`]: `x` from
//! the left, `y` from the **top**, or a pass, spelled `x,y` / `pass` or as a GTP vertex
//! ([`gtp_vertex`], [`parse_gtp_vertex`]). Each game converts it to its own moves
//! ([`crate::rules::game::GamePosition`]).

use std::fmt;

/// GTP column letters: `A` to `Z` without `I` (so at most 25 columns).
pub const GTP_COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The largest row number a GTP vertex may carry.
pub const GTP_MAX_ROW: usize = 25;

/// The column of a GTP column letter (any case; `I` is not one).
pub fn gtp_column(c: char) -> Option<usize> {
    let up = c.to_ascii_uppercase();
    if !up.is_ascii_uppercase() {
        return None;
    }
    GTP_COLUMNS.iter().position(|&l| l == up as u8)
}

/// The row (0-based from the bottom) of a GTP row number: 1..=25, digits only, no leading zero.
pub fn gtp_row(s: &str) -> Option<usize> {
    if s.is_empty() || s.len() > 2 || s.starts_with('0') || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: usize = s.parse().ok()?;
    (1..=GTP_MAX_ROW).contains(&n).then(|| n - 1)
}

/// Reads a GTP vertex that is a point (`D4`, any case): `(x, y)` with `y` from the bottom. The
/// board's size is the caller's check; `pass` gives `None`.
pub fn parse_gtp_point(s: &str) -> Option<(usize, usize)> {
    let mut chars = s.chars();
    let x = gtp_column(chars.next()?)?;
    Some((x, gtp_row(chars.as_str())?))
}

/// The GTP vertex of `(x, y)`, `y` from the bottom, upper-case (`D4`); `None` past column 25.
pub fn gtp_point_name(x: usize, y: usize) -> Option<String> {
    GTP_COLUMNS
        .get(x)
        .map(|&c| format!("{}{}", c as char, y + 1))
}

/// `a`, `b`, ... for column `x` of a text board, wrapping past `z` (a board drawing needs a
/// character for every column; names use [`gomoku_letter`], which does not wrap).
pub fn column_letter(x: usize) -> char {
    (b'a' + (x % 26) as u8) as char
}

/// The gomoku column letter of `x` (`a` = 0); `None` past `z`.
pub fn gomoku_letter(x: usize) -> Option<char> {
    (x < 26).then(|| (b'a' + x as u8) as char)
}

/// Splits a leading `letter number` off `s` (letter `a`..`z` in any case, number of decimal
/// digits without a leading zero): `(column, number, rest)`. Opening files glue moves
/// (`h8i9j7`), so the rest may hold more.
pub fn split_letter_number(s: &str) -> Option<(usize, usize, &str)> {
    let first = s.chars().next()?.to_ascii_lowercase();
    if !first.is_ascii_lowercase() {
        return None;
    }
    let rest = &s[1..];
    let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
    let number = &rest[..digits];
    if number.is_empty() || number.starts_with('0') || digits > 4 {
        return None;
    }
    let n: usize = number.parse().ok()?;
    Some(((first as u8 - b'a') as usize, n, &rest[digits..]))
}

/// The SGF point of `(x, y)`, `y` from the top: `a`..`z` then `A`..`Z` (SGF `FF[4]` allows 52
/// lines).
pub fn sgf_point(x: usize, y: usize) -> String {
    let letter = |v: usize| -> char {
        if v < 26 {
            (b'a' + v as u8) as char
        } else {
            (b'A' + (v - 26) as u8) as char
        }
    };
    format!("{}{}", letter(x), letter(y))
}

/// The `y` (0 at the top, as boards and Gomocup hold it) of renju row number `row` (1 at the
/// bottom) on a board `height` rows high; `None` off the board. The one place a gomoku row
/// number turns into a `y`.
pub fn renju_y(row: usize, height: usize) -> Option<usize> {
    (1..=height).contains(&row).then(|| height - row)
}

/// The renju-notation name of `(x, y)` on a board `height` rows high, `y` from the top as the
/// gomoku board holds it: letter, then the row from 1 at the bottom (`a1` is the lower left).
/// Columns past `z`, or a `y` off the board, fall back to `x,y`.
pub fn renju_name(x: usize, y: usize, height: usize) -> String {
    match gomoku_letter(x) {
        Some(c) if y < height => format!("{c}{}", height - y),
        _ => format!("{x},{y}"),
    }
}

/// Splits a leading renju-notation name off `s` on a board `height` rows high: `(x, y, rest)`
/// with `y` from the top; `None` when `s` does not start with a name or its row is off the
/// board (the column is the caller's check). Opening files glue names (`h8i9j7`).
pub fn split_renju_name(s: &str, height: usize) -> Option<(usize, usize, &str)> {
    let (x, row, rest) = split_letter_number(s)?;
    Some((x, renju_y(row, height)?, rest))
}

/// Reads a renju-notation name (`h8`, any case) on a board `height` rows high: `(x, y)` with
/// `y` from the top, as the gomoku board holds it; `None` for a row off the board (the column
/// is the caller's check).
pub fn parse_renju_name(s: &str, height: usize) -> Option<(usize, usize)> {
    match split_renju_name(s, height)? {
        (x, y, "") => Some((x, y)),
        _ => None,
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_points_skip_i_count_rows_from_the_bottom_and_refuse_leading_zeros() {
        assert_eq!(parse_gtp_point("A1"), Some((0, 0)));
        assert_eq!(parse_gtp_point("d4"), Some((3, 3)));
        assert_eq!(parse_gtp_point("J9"), Some((8, 8)));
        assert_eq!(parse_gtp_point("Z25"), Some((24, 24)));
        for bad in [
            "I5", "i5", "A0", "A01", "A001", "A26", "A+1", "A-1", "A", "", "11", "A1x", "pass",
            "é1", "AA1",
        ] {
            assert_eq!(parse_gtp_point(bad), None, "{bad}");
        }
        assert_eq!(gtp_point_name(0, 0).as_deref(), Some("A1"));
        assert_eq!(gtp_point_name(8, 18).as_deref(), Some("J19"));
        assert_eq!(gtp_point_name(25, 0), None);
        for x in 0..25 {
            for y in 0..25 {
                let name = gtp_point_name(x, y).unwrap();
                assert_eq!(parse_gtp_point(&name), Some((x, y)));
                assert_eq!(parse_gtp_point(&name.to_ascii_lowercase()), Some((x, y)));
            }
        }
    }

    #[test]
    fn gomoku_names_count_rows_from_the_bottom_at_every_corner() {
        // 15x15, (x, y) as Gomocup sends them (y from the top): a1 is the lower left.
        for ((x, y), name) in [
            ((0, 14), "a1"),
            ((14, 14), "o1"),
            ((0, 0), "a15"),
            ((14, 0), "o15"),
            ((7, 7), "h8"),
            ((7, 8), "h7"),
            ((7, 9), "h6"),
        ] {
            assert_eq!(renju_name(x, y, 15), name);
            assert_eq!(parse_renju_name(name, 15), Some((x, y)), "{name}");
            assert_eq!(parse_renju_name(&name.to_uppercase(), 15), Some((x, y)));
        }
        // A board 20 wide and 6 high: the letters run to t, the rows to 6.
        for ((x, y), name) in [
            ((0, 5), "a1"),
            ((19, 5), "t1"),
            ((0, 0), "a6"),
            ((19, 0), "t6"),
            ((10, 2), "k4"),
        ] {
            assert_eq!(renju_name(x, y, 6), name);
            assert_eq!(parse_renju_name(name, 6), Some((x, y)), "{name}");
        }
        assert_eq!(parse_renju_name("a7", 6), None, "a row above the board");
        assert_eq!(parse_renju_name("a16", 15), None);
        assert_eq!(renju_name(3, 6, 6), "3,6", "a y below the board");
        assert_eq!(renju_name(27, 3, 30), "27,3", "no letter past z");
        for bad in ["a0", "a08", "h", "8", "h8x", "", "h-8", "h+8", "é8", "h 8"] {
            assert_eq!(parse_renju_name(bad, 15), None, "{bad}");
        }
        for (w, h) in [(5, 5), (15, 15), (20, 6), (6, 20), (26, 26)] {
            for y in 0..h {
                for x in 0..w {
                    let r = renju_name(x, y, h);
                    assert_eq!(parse_renju_name(&r, h), Some((x, y)), "{r}");
                }
            }
        }
        assert_eq!(renju_y(1, 15), Some(14));
        assert_eq!(renju_y(15, 15), Some(0));
        assert_eq!(renju_y(0, 15), None);
        assert_eq!(renju_y(16, 15), None);
    }

    #[test]
    fn glued_names_split_one_at_a_time() {
        assert_eq!(split_letter_number("h8i9j7"), Some((7, 8, "i9j7")));
        assert_eq!(split_letter_number("J10"), Some((9, 10, "")));
        assert_eq!(split_letter_number("h08"), None);
        assert_eq!(split_letter_number("8h"), None);
        assert_eq!(split_renju_name("h8i9j7", 15), Some((7, 7, "i9j7")));
        assert_eq!(split_renju_name("a1b15", 15), Some((0, 14, "b15")));
        assert_eq!(split_renju_name("a16b1", 15), None);
    }

    #[test]
    fn sgf_points_count_rows_from_the_top_and_go_on_in_capitals() {
        assert_eq!(sgf_point(0, 0), "aa");
        assert_eq!(sgf_point(7, 14), "ho");
        assert_eq!(sgf_point(27, 1), "Bb");
    }

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
}
