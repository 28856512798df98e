//! 3x3 shape patterns for Go playouts and priors: the local answers to the last move that
//! Gelly, Wang, Munos and Teytaud's MoGo plays (hane, cut, and edge shapes), as a 64 Ki-bit
//! table over the board's 3x3 neighbourhood code ([`crate::rules::go::nbr3`]).
//!
//! Each pattern is drawn with the candidate move in the centre, rows from the top:
//!
//! ```text
//!   X  a stone of one colour      O  a stone of the other colour
//!   .  empty                      #  off the board
//!   x  not X (empty, O or edge)   o  not O (empty, X or edge)
//!   ?  anything
//! ```
//!
//! A pattern matches in any of the eight symmetries and with the colours exchanged, whoever is
//! to move: a good shape point is good for both sides.

use std::sync::OnceLock;

use crate::rules::go::nbr3::{symmetry, CODES};

/// The shapes, as (name, three rows).
pub const PATTERNS: &[(&str, [&str; 3])] = &[
    ("hane: enclosing", ["XOX", "...", "???"]),
    ("hane: non-cutting", ["XO.", "...", "?.?"]),
    ("hane: magari", ["XO?", "X..", "x.?"]),
    ("attachment", [".O.", "X..", "..."]),
    ("cut: unprotected", ["XO?", "O.o", "?o?"]),
    ("cut: peeped", ["XO?", "O.X", "???"]),
    ("cut: de", ["?X?", "O.O", "ooo"]),
    ("cut: keima", ["OX?", "o.O", "???"]),
    ("edge: chase", ["X.?", "O.?", "###"]),
    ("edge: block the cut", ["OX?", "X.O", "###"]),
    ("edge: block the connection", ["?X?", "x.O", "###"]),
    ("edge: sagari", ["?XO", "x.x", "###"]),
    ("edge: cut", ["?OX", "X.O", "###"]),
];

/// Slot of each drawn cell (row-major from the top-left; the centre has none).
const DRAWN_SLOT: [Option<usize>; 9] = [
    Some(7),
    Some(0),
    Some(4),
    Some(3),
    None,
    Some(1),
    Some(6),
    Some(2),
    Some(5),
];

/// Cell values a drawn character stands for (X = black, O = white before the colour swap).
fn values(ch: u8) -> &'static [u8] {
    match ch {
        b'X' => &[1],
        b'O' => &[2],
        b'.' => &[0],
        b'#' => &[3],
        b'x' => &[0, 2, 3],
        b'o' => &[0, 1, 3],
        b'?' => &[0, 1, 2, 3],
        _ => panic!("unknown pattern character {}", ch as char),
    }
}

/// The set of matching codes.
pub struct Pat3 {
    bits: Box<[u64; CODES / 64]>,
}

impl Pat3 {
    /// Whether an empty point with 3x3 code `code` is a pattern move.
    #[inline(always)]
    pub fn matches(&self, code: u16) -> bool {
        self.bits[(code >> 6) as usize] & (1u64 << (code & 63)) != 0
    }

    fn insert(&mut self, code: u16) {
        self.bits[(code >> 6) as usize] |= 1u64 << (code & 63);
    }

    /// Codes in the table.
    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the table is empty (never, once built).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Every code one drawing stands for, before symmetries.
fn expand(rows: &[&str; 3]) -> Vec<u16> {
    let chars: Vec<u8> = rows.iter().flat_map(|r| r.bytes()).collect();
    assert_eq!(chars.len(), 9, "three rows of three");
    let mut codes = vec![0u16];
    for (i, &ch) in chars.iter().enumerate() {
        let Some(k) = DRAWN_SLOT[i] else {
            assert_eq!(ch, b'.', "the centre is the empty candidate point");
            continue;
        };
        codes = codes
            .iter()
            .flat_map(|&c| values(ch).iter().map(move |&v| c | u16::from(v) << (2 * k)))
            .collect();
    }
    codes
}

/// The pattern table, built once.
pub fn pat3() -> &'static Pat3 {
    static TABLE: OnceLock<Pat3> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Pat3 {
            bits: Box::new([0; CODES / 64]),
        };
        for (_, rows) in PATTERNS {
            for code in expand(rows) {
                for s in 0..8 {
                    let c = symmetry::apply(code, s);
                    t.insert(c);
                    t.insert(symmetry::swap_colors(c));
                }
            }
        }
        t
    })
}

/// Whether the 3x3 neighbourhood of an empty point matches a pattern (see [`pat3`]).
#[inline]
pub fn is_pattern(code: u16) -> bool {
    pat3().matches(code)
}

/// Builds the code of a drawing (no wildcards) for tests and tools.
pub fn code_of_drawing(rows: [&str; 3]) -> u16 {
    let codes = expand(&rows);
    assert_eq!(codes.len(), 1, "a drawing without wildcards");
    codes[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_match_in_every_orientation_and_colour() {
        let t = pat3();
        assert!(!t.is_empty());
        let hane = code_of_drawing(["XOX", "...", "..."]);
        for s in 0..8 {
            let c = symmetry::apply(hane, s);
            assert!(t.matches(c) && t.matches(symmetry::swap_colors(c)));
        }
        // An empty neighbourhood and a lone stone match nothing.
        assert!(!t.matches(0));
        assert!(!t.matches(code_of_drawing(["...", "X..", "..."])));
        // Edge sagari: X on the first line next to O's stone, the edge below.
        assert!(t.matches(code_of_drawing([".XO", "...", "###"])));
        // The de cut: between two O stones under X, nothing of O's below.
        assert!(t.matches(code_of_drawing([".X.", "O.O", "..."])));
        assert!(!t.matches(code_of_drawing([".X.", "O.O", ".O."])));
    }
}
