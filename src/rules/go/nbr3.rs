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

/// The orthogonal slots (0..4) as a slot set of [`slots_holding`].
pub const ORTH_SLOTS: u16 = 0x0055;

/// The slots of `code` holding cell value `v` (0 empty, 1 black, 2 white, 3 wall), as a set:
/// bit `2k` for slot `k`.
#[inline(always)]
pub fn slots_holding(code: u16, v: u8) -> u16 {
    let lo = code & 0x5555;
    let hi = (code >> 1) & 0x5555;
    match v {
        EMPTY => !(lo | hi) & 0x5555,
        BLACK => lo & !hi,
        WHITE => hi & !lo,
        _ => lo & hi,
    }
}

/// The slot numbers of a slot set from [`slots_holding`], lowest first. Visiting only the set
/// slots spares a branch per neighbour on what it holds.
#[derive(Clone, Copy, Debug)]
pub struct Slots(pub u16);

impl Iterator for Slots {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let k = (self.0.trailing_zeros() / 2) as usize;
        self.0 &= self.0 - 1;
        Some(k)
    }
}

/// Builds a code from eight cell values in slot order.
pub fn code_of(cells: [u8; 8]) -> u16 {
    cells
        .iter()
        .enumerate()
        .fold(0u16, |acc, (k, &v)| acc | (u16::from(v & 3) << (2 * k)))
}

/// Flag bits of the orthogonal half (`code & 0xff`) of [`Nbr3Table`].
const EMPTY_ORTH_MASK: u8 = 0b111;
/// Eye bits, the same in both halves so one AND combines them: in the orthogonal half "every
/// orthogonal neighbour is this colour or the edge", in the diagonal half "the diagonals allow
/// an eye of this colour".
const EYE_BLACK: u8 = 1 << 3;
const EYE_WHITE: u8 = 1 << 4;
const TOUCH_BLACK: u8 = 1 << 5;
const TOUCH_WHITE: u8 = 1 << 6;

/// Per-code facts: empty orthogonal neighbours, eye of either colour, colours touching. The
/// orthogonal slots are the code's low byte and the diagonal slots its high byte, and every fact
/// splits into one lookup per byte: two 256-entry tables stay in the first-level cache, where one
/// 64 K-entry table would not.
pub struct Nbr3Table {
    orth: [u8; 256],
    diag: [u8; 256],
}

impl std::fmt::Debug for Nbr3Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Nbr3Table")
    }
}

impl Nbr3Table {
    #[inline(always)]
    fn orth(&self, code: u16) -> u8 {
        self.orth[(code & 0xff) as usize]
    }
    /// Empty orthogonal neighbours (0..=4).
    #[inline(always)]
    pub fn empty_orth(&self, code: u16) -> u8 {
        self.orth(code) & EMPTY_ORTH_MASK
    }
    /// Whether an empty point with this neighbourhood is an eye of `c` (1 black, 2 white) by the
    /// usual test: every orthogonal neighbour is `c` or the edge, and at most one diagonal is
    /// the opponent's in the middle of the board, none on the edge.
    #[inline(always)]
    pub fn is_eye(&self, code: u16, c: u8) -> bool {
        self.orth(code) & self.diag[(code >> 8) as usize] & (EYE_BLACK << (c - 1)) != 0
    }
    /// Whether a `c` stone (1 black, 2 white) is an orthogonal neighbour.
    #[inline(always)]
    pub fn touches(&self, code: u16, c: u8) -> bool {
        self.orth(code) & (TOUCH_BLACK << (c - 1)) != 0
    }
    /// +1 when the orthogonal stones are all black (at least one), -1 all white, 0 otherwise:
    /// the owner of an empty point at the end of a playout.
    #[inline(always)]
    pub fn owner(&self, code: u16) -> i32 {
        match self.orth(code) & (TOUCH_BLACK | TOUCH_WHITE) {
            TOUCH_BLACK => 1,
            TOUCH_WHITE => -1,
            _ => 0,
        }
    }
}

/// The diagonal half of the eye test for `c`: with a wall among the diagonals (the edge) no
/// opponent diagonal is allowed, in the middle one is.
fn diagonals_allow_eye(diag_byte: u8, c: u8) -> bool {
    let diag = || (0..4).map(|k| (diag_byte >> (2 * k)) & 3);
    let edge = diag().any(|v| v == WALL);
    let bad = diag().filter(|&v| v == 3 - c).count();
    bad == 0 || (!edge && bad < 2)
}

/// The table, built once.
pub fn table() -> &'static Nbr3Table {
    static TABLE: OnceLock<Nbr3Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Nbr3Table {
            orth: [0; 256],
            diag: [0; 256],
        };
        for byte in 0..256usize {
            let cells = || (0..4).map(move |k| ((byte >> (2 * k)) & 3) as u8);
            let mut f = cells().filter(|&v| v == EMPTY).count() as u8;
            for (c, eye, touch) in [
                (BLACK, EYE_BLACK, TOUCH_BLACK),
                (WHITE, EYE_WHITE, TOUCH_WHITE),
            ] {
                if cells().all(|v| v == c || v == WALL) {
                    f |= eye;
                }
                if cells().any(|v| v == c) {
                    f |= touch;
                }
                if diagonals_allow_eye(byte as u8, c) {
                    t.diag[byte] |= eye;
                }
            }
            t.orth[byte] = f;
        }
        t
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

    /// The eye rule read off the whole code at once, as the doc of [`Nbr3Table::is_eye`] says it.
    fn eye_by_rule(code: u16, c: u8) -> bool {
        if !(0..4).all(|k| slot(code, k) == c || slot(code, k) == WALL) {
            return false;
        }
        let diag = || (4..8).map(|k| slot(code, k));
        let edge = diag().any(|v| v == WALL);
        let bad = diag().filter(|&v| v == 3 - c).count();
        bad == 0 || (!edge && bad < 2)
    }

    #[test]
    fn split_table_agrees_with_the_rules_on_every_code() {
        let t = table();
        for code in 0..=u16::MAX {
            let orth = || (0..4).map(|k| slot(code, k));
            for c in [BLACK, WHITE] {
                assert_eq!(
                    t.is_eye(code, c),
                    eye_by_rule(code, c),
                    "eye {c} {code:#06x}"
                );
                assert_eq!(
                    t.touches(code, c),
                    orth().any(|v| v == c),
                    "touch {code:#06x}"
                );
            }
            let empty = orth().filter(|&v| v == EMPTY).count() as u8;
            assert_eq!(t.empty_orth(code), empty, "empty {code:#06x}");
        }
    }

    #[test]
    fn slot_sets_list_the_slots_holding_a_value() {
        let code = code_of([EMPTY, BLACK, WHITE, WALL, BLACK, EMPTY, WHITE, BLACK]);
        let listed = |v| Slots(slots_holding(code, v)).collect::<Vec<_>>();
        assert_eq!(listed(EMPTY), [0, 5]);
        assert_eq!(listed(BLACK), [1, 4, 7]);
        assert_eq!(listed(WHITE), [2, 6]);
        assert_eq!(listed(WALL), [3]);
        assert_eq!(
            Slots(slots_holding(code, BLACK) & ORTH_SLOTS).collect::<Vec<_>>(),
            [1]
        );
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
