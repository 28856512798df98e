//! The 3x3 neighbourhood code of a point: the contents of its eight neighbours, two bits each,
//! kept up to date by the board on every stone placed or lifted. Questions that depend on the
//! neighbourhood alone (how many empty orthogonal neighbours, is it an eye, which colours touch
//! it, does a shape pattern match) become one table lookup.
//!
//! Slot `k` holds the cell (0 empty, 1 black, 2 white, 3 wall) at offset `SLOTS[k]`, in bits
//! `2k..2k+2`:
//!
//! ```text
//!    7 0 4        (dx, dy): y grows upwards (GTP row numbers)
//!    3 . 1        orthogonal slots 0..4, diagonal slots 4..8
//!    6 2 5
//! ```

use std::sync::OnceLock;

use super::board::{BLACK, EMPTY, WALL, WHITE};

/// (dx, dy) of each slot.
pub const SLOTS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, -1),
    (-1, 1),
];

/// The slot that sees the centre from the neighbour in slot `k` (the opposite direction).
pub const OPPOSITE: [usize; 8] = [2, 3, 0, 1, 6, 7, 4, 5];

/// Number of distinct codes.
pub const CODES: usize = 1 << 16;

/// The cell value in slot `k` of `code`.
#[inline(always)]
pub fn slot(code: u16, k: usize) -> u8 {
    ((code >> (2 * k)) & 3) as u8
}

/// Builds a code from eight cell values in slot order.
pub fn code_of(cells: [u8; 8]) -> u16 {
    cells
        .iter()
        .enumerate()
        .fold(0u16, |acc, (k, &v)| acc | (u16::from(v & 3) << (2 * k)))
}

/// Flag bits of [`Nbr3Table`] entries.
const EMPTY_ORTH_MASK: u8 = 0b111;
const EYE_BLACK: u8 = 1 << 3;
const EYE_WHITE: u8 = 1 << 4;
const TOUCH_BLACK: u8 = 1 << 5;
const TOUCH_WHITE: u8 = 1 << 6;

/// Per-code facts: empty orthogonal neighbours, eye of either colour, colours touching.
pub struct Nbr3Table {
    flags: Box<[u8; CODES]>,
}

impl std::fmt::Debug for Nbr3Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Nbr3Table")
    }
}

impl Nbr3Table {
    /// Empty orthogonal neighbours (0..=4).
    #[inline(always)]
    pub fn empty_orth(&self, code: u16) -> u8 {
        self.flags[code as usize] & EMPTY_ORTH_MASK
    }
    /// Whether an empty point with this neighbourhood is an eye of `c` (1 black, 2 white) by the
    /// usual test: every orthogonal neighbour is `c` or the edge, and at most one diagonal is
    /// the opponent's in the middle of the board, none on the edge.
    #[inline(always)]
    pub fn is_eye(&self, code: u16, c: u8) -> bool {
        self.flags[code as usize] & (EYE_BLACK << (c - 1)) != 0
    }
    /// Whether a `c` stone (1 black, 2 white) is an orthogonal neighbour.
    #[inline(always)]
    pub fn touches(&self, code: u16, c: u8) -> bool {
        self.flags[code as usize] & (TOUCH_BLACK << (c - 1)) != 0
    }
    /// +1 when the orthogonal stones are all black (at least one), -1 all white, 0 otherwise:
    /// the owner of an empty point at the end of a playout.
    #[inline(always)]
    pub fn owner(&self, code: u16) -> i32 {
        match self.flags[code as usize] & (TOUCH_BLACK | TOUCH_WHITE) {
            TOUCH_BLACK => 1,
            TOUCH_WHITE => -1,
            _ => 0,
        }
    }
}

fn eye_by_rule(code: u16, c: u8) -> bool {
    if !(0..4).all(|k| slot(code, k) == c || slot(code, k) == WALL) {
        return false;
    }
    let opp = 3 - c;
    let diag = || (4..8).map(|k| slot(code, k));
    let edge = diag().any(|v| v == WALL);
    let bad = diag().filter(|&v| v == opp).count();
    bad == 0 || (!edge && bad < 2)
}

/// The table, built once.
pub fn table() -> &'static Nbr3Table {
    static TABLE: OnceLock<Nbr3Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut flags = Box::new([0u8; CODES]);
        for (code, f) in flags.iter_mut().enumerate() {
            let code = code as u16;
            let orth = || (0..4).map(|k| slot(code, k));
            *f = orth().filter(|&v| v == EMPTY).count() as u8;
            if eye_by_rule(code, BLACK) {
                *f |= EYE_BLACK;
            }
            if eye_by_rule(code, WHITE) {
                *f |= EYE_WHITE;
            }
            if orth().any(|v| v == BLACK) {
                *f |= TOUCH_BLACK;
            }
            if orth().any(|v| v == WHITE) {
                *f |= TOUCH_WHITE;
            }
        }
        Nbr3Table { flags }
    })
}

/// The eight symmetries of the square applied to a code, and the colour swap.
pub mod symmetry {
    use super::{slot, SLOTS};

    /// Where slot `k` goes under symmetry `s` (0..8: four rotations, each optionally mirrored).
    fn image(s: usize, k: usize) -> usize {
        let (mut x, mut y) = SLOTS[k];
        if s & 4 != 0 {
            x = -x;
        }
        for _ in 0..(s & 3) {
            (x, y) = (-y, x);
        }
        SLOTS
            .iter()
            .position(|&d| d == (x, y))
            .expect("a symmetry maps neighbours to neighbours")
    }

    /// `code` under symmetry `s`.
    pub fn apply(code: u16, s: usize) -> u16 {
        (0..8).fold(0u16, |acc, k| {
            acc | (u16::from(slot(code, k)) << (2 * image(s, k)))
        })
    }

    /// `code` with black and white exchanged.
    pub fn swap_colors(code: u16) -> u16 {
        (0..8).fold(0u16, |acc, k| {
            let v = match slot(code, k) {
                1 => 2,
                2 => 1,
                v => v,
            };
            acc | (u16::from(v) << (2 * k))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_form_a_group_of_eight_distinct_maps() {
        // An asymmetric code has eight distinct images, and applying a symmetry twice or
        // mirroring twice comes back.
        let code = code_of([1, 2, 0, 3, 1, 0, 2, 0]);
        let mut images: Vec<u16> = (0..8).map(|s| symmetry::apply(code, s)).collect();
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
        assert_eq!(symmetry::apply(symmetry::apply(code, 4), 4), code);
        assert_eq!(symmetry::apply(symmetry::apply(code, 2), 2), code);
        assert_eq!(symmetry::swap_colors(symmetry::swap_colors(code)), code);
        // A quarter turn moves "up" to "left" (counter-clockwise).
        let up = code_of([1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(symmetry::apply(up, 1), code_of([0, 0, 0, 1, 0, 0, 0, 0]));
    }

    #[test]
    fn table_facts() {
        let t = table();
        let empty = 0u16;
        assert_eq!(t.empty_orth(empty), 4);
        assert_eq!(t.owner(empty), 0);
        // Black on all four sides, one white diagonal: an eye in the middle, not on the edge.
        let eye = code_of([1, 1, 1, 1, 2, 0, 0, 0]);
        assert!(t.is_eye(eye, BLACK) && !t.is_eye(eye, WHITE));
        assert_eq!(t.owner(eye), 1);
        let edge = code_of([1, 1, 3, 1, 2, 3, 3, 0]);
        assert!(!t.is_eye(edge, BLACK));
        let corner = code_of([2, 2, 3, 3, 0, 3, 3, 3]);
        assert!(t.is_eye(corner, WHITE));
        assert_eq!(t.owner(corner), -1);
        assert_eq!(t.empty_orth(code_of([0, 1, 0, 3, 0, 0, 0, 0])), 2);
    }
}
