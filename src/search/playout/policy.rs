//! The playout policy: the move a playout plays for the side to move, in order:
//! 1. **capture**: a group next to the opponent's last stone (that stone's own group included)
//!    in atari is taken;
//! 2. **atari escape**: an own group next to the opponent's last stone in atari extends on its
//!    liberty when that gives it two or more liberties;
//! 3. **shape**: one of the empty points around the last stone (eight neighbours) whose 3x3
//!    neighbourhood is a MoGo pattern ([`crate::eval::go::patterns`]), chosen at random, when
//!    it is no self-atari and fills no own eye;
//! 4. otherwise a **random** empty point, scanned from a random start, that is legal, does not
//!    fill an own eye (the usual diagonal test) and is not a self-atari of two or more stones
//!    (single-stone throw-ins stay allowed, for ko and nakade). No such point: pass.
//!
//! The eye, liberty-count and pattern tests read the board's incremental 3x3 neighbourhood
//! codes ([`crate::rules::go::nbr3`]), so most of them are one table lookup.

use crate::eval::go::patterns::pat3;
use crate::rules::go::board::{GoBoard, EMPTY};
use crate::rules::go::nbr3::{slots_holding, Slots};
use crate::rules::Color;
use crate::search::playout::rng::Rng;

/// One playout move: the policy's choice for `c` played (returned), or a pass (`None`).
#[inline(always)]
pub fn step(board: &mut GoBoard, c: Color, rng: &mut Rng) -> Option<usize> {
    match choose(board, c, rng) {
        Some(p) => {
            board.play_unhashed(p, c as u8);
            Some(p)
        }
        None => {
            board.pass();
            None
        }
    }
}

/// The policy's move for `c` (the stages of the module doc), or `None` to pass.
#[inline(always)]
pub fn choose(board: &GoBoard, c: Color, rng: &mut Rng) -> Option<usize> {
    let me = c as u8;
    if let Some((last, _)) = board.last_move() {
        let last = last.idx();
        if let Some(p) = respond_to_last(board, last, me) {
            return Some(p);
        }
        if let Some(p) = pattern_move(board, last, me, rng) {
            return Some(p);
        }
    }
    random_move(board, me, rng)
}

/// A random acceptable empty point, scanned from a random start.
#[inline]
fn random_move(board: &GoBoard, me: u8, rng: &mut Rng) -> Option<usize> {
    let empties = board.empty_points();
    let n = empties.len();
    if n == 0 {
        return None;
    }
    let start = rng.below(n);
    for i in 0..n {
        let mut j = start + i;
        if j >= n {
            j -= n;
        }
        let p = empties[j] as usize;
        if acceptable(board, p, me) {
            return Some(p);
        }
    }
    None
}

/// Capture or atari escape around the last stone.
#[inline]
fn respond_to_last(board: &GoBoard, last: usize, me: u8) -> Option<usize> {
    if board.cell(last) == EMPTY {
        return None;
    }
    let opp = 3 - me;
    // 1. Capture: the last stone's group, then enemy groups touching it. When the last stone is
    // the opponent's (always, but after a colour played twice), its enemy neighbours are its own
    // group, already looked at.
    let h = board.head(last);
    if board.cell(last) == opp {
        if board.in_atari(h) {
            let lib = board.atari_liberty(h);
            if legal(board, lib, me) {
                return Some(lib);
            }
        }
    } else {
        for n in board.orth_neighbors_holding(last, opp) {
            let g = board.head(n);
            if board.in_atari(g) {
                let lib = board.atari_liberty(g);
                if legal(board, lib, me) {
                    return Some(lib);
                }
            }
        }
    }
    // 2. Escape: an own group next to the last stone in atari extends if that helps.
    for n in board.orth_neighbors_holding(last, me) {
        let g = board.head(n);
        if board.in_atari(g) {
            let lib = board.atari_liberty(g);
            if legal(board, lib, me) && board.liberties_after(lib, me, 2) >= 2 {
                return Some(lib);
            }
        }
    }
    None
}

/// A random empty neighbour of the last stone whose 3x3 shape is a pattern
/// ([`crate::eval::go::patterns`]), acceptable and not a self-atari.
#[inline]
fn pattern_move(board: &GoBoard, last: usize, me: u8, rng: &mut Rng) -> Option<usize> {
    let pat = pat3();
    // The last stone's own 3x3 code says which neighbours are empty, so only those are looked
    // at, without a branch on each cell.
    let mut found = [0u16; 8];
    let mut n = 0;
    for k in Slots(slots_holding(board.nbr3(last), EMPTY)) {
        let q = board.slot_neighbor(last, k);
        found[n] = q as u16;
        n += usize::from(pat.matches(board.nbr3(q)));
    }
    // A random match, tested for safety only when drawn: an unsafe one is dropped and another
    // drawn, which picks uniformly among the safe matches like testing all of them first, at
    // the cost of one test in the usual case.
    while n > 0 {
        let i = if n == 1 { 0 } else { rng.below(n) };
        let q = usize::from(found[i]);
        if safe(board, q, me) {
            return Some(q);
        }
        n -= 1;
        found[i] = found[n];
    }
    None
}

/// Whether `me` may play on empty `p` without filling an own eye or putting its stones in atari.
#[inline]
fn safe(board: &GoBoard, p: usize, me: u8) -> bool {
    let code = board.nbr3(p);
    let t = board.nbr3_table();
    match t.empty_orth(code) {
        2.. => true,
        1 => !board.is_self_atari(p, me),
        _ => !t.is_eye(code, me) && board.legal_empty(p, me) && !board.is_self_atari(p, me),
    }
}

/// Physics legality of an empty point.
#[inline]
fn legal(board: &GoBoard, p: usize, me: u8) -> bool {
    board.legal_empty(p, me)
}

/// Whether the random phase may play `p`: legal, not an own eye, not a self-atari of two or
/// more stones.
#[inline]
pub fn acceptable(board: &GoBoard, p: usize, me: u8) -> bool {
    let code = board.nbr3(p);
    let t = board.nbr3_table();
    let empty = t.empty_orth(code);
    // Two empty neighbours: legal, no eye, at least two liberties. (The ko point never has an
    // empty neighbour, nor does an eye.)
    if empty >= 2 {
        return true;
    }
    if empty == 0 && (t.is_eye(code, me) || !legal(board, p, me)) {
        return false;
    }
    // A lone stone may throw in; a group must keep two liberties unless it captures.
    !t.touches(code, me) || !board.is_self_atari(p, me)
}

/// How many points the random stage would accept for black and for white (tests: a playout
/// that ended by two passes leaves 0 for one side and at most a ko for the other).
#[cfg(test)]
pub(crate) fn acceptable_moves_left(b: &GoBoard) -> [usize; 2] {
    [Color::Black, Color::White].map(|c| {
        b.empty_points()
            .iter()
            .filter(|&&p| acceptable(b, p as usize, c as u8))
            .count()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::board::{BLACK, WHITE};
    use crate::rules::go::{parse_point, Point};

    fn pt(b: &GoBoard, s: &str) -> Point {
        parse_point(b, s).unwrap()
    }

    #[test]
    fn the_fast_paths_of_acceptable_agree_with_the_plain_rule() {
        let mut rng = Rng::new(11);
        let mut checked = 0;
        for size in [7usize, 9, 13] {
            let start = GoBoard::new(size, size).unwrap();
            let mut b = start.clone();
            for _ in 0..60 {
                b.copy_from(&start);
                let mut c = Color::Black;
                for _ in 0..rng.below(size * size * 3) {
                    for &q in b.empty_points() {
                        let q = q as usize;
                        for me in [BLACK, WHITE] {
                            let bad = b.is_eye(q, me)
                                || !legal(&b, q, me)
                                || (b.neighbors(q).iter().any(|&n| b.cell(n) == me)
                                    && b.liberties_after(q, me, 2) < 2
                                    && !b.captures_at(q, me));
                            assert_eq!(acceptable(&b, q, me), !bad, "{q} {me}\n{}", b.to_text());
                            checked += 1;
                        }
                    }
                    match choose(&b, c, &mut rng) {
                        Some(p) => {
                            b.play_raw(p, c as u8);
                        }
                        None => b.pass(),
                    }
                    c = c.opponent();
                }
            }
        }
        assert!(checked > 10_000);
    }
    #[test]
    fn capture_is_preferred_after_the_last_move() {
        // White E4 in atari after black's last move E3? Build: black D4 F4 E5, white E4; the
        // last stone (black E5) leaves E4 in atari: white must escape, black must capture.
        let mut b = GoBoard::new(9, 9).unwrap();
        for s in ["D4", "F4"] {
            b.play(pt(&b, s), Color::Black);
        }
        b.play(pt(&b, "E4"), Color::White);
        b.play(pt(&b, "E5"), Color::Black);
        let mut rng = Rng::new(1);
        // White to move: escape at E3 (gives E4 E3 three liberties).
        assert_eq!(choose(&b, Color::White, &mut rng), Some(pt(&b, "E3").idx()));
        // Black to move after its own last stone: its neighbour E4 is white in atari: capture.
        assert_eq!(choose(&b, Color::Black, &mut rng), Some(pt(&b, "E3").idx()));
    }
}
