//! Two-liberty tactics for the playouts, around the opponent's last stone: a group of the side
//! to move that the stone has left with two liberties runs out on the liberty that gives it
//! three or more, and the stone's own group, if it has two liberties, is put in atari when it
//! then cannot run. Light playouts see only atari (one liberty), so a group one move from
//! atari is chased or saved by chance; MoGo's and Pachi's playouts answer it.
//!
//! The chase is read cheaply: the group is taken to be unable to run when the liberty left to
//! it has at most one empty neighbour besides the attacking stone (so extending there leaves it
//! in atari again); captures and connections it could make on the way are not read.

use crate::rules::go::board::{GoBoard, EMPTY};
use crate::rules::go::nbr3::{slots_holding, Slots, ORTH_SLOTS};
use crate::search::playout::Rng;

/// Most candidates: two liberties of each of four groups.
const MAX_CANDIDATES: usize = 8;

/// A two-liberty answer of `me` to the opponent's last stone `last`, drawn at random among
/// the candidates of the module doc, or `None`.
#[inline]
pub(crate) fn two_liberty_move(
    board: &GoBoard,
    last: usize,
    me: u8,
    rng: &mut Rng,
) -> Option<usize> {
    let opp = 3 - me;
    if board.cell(last) != opp {
        return None;
    }
    let mut found = [0usize; MAX_CANDIDATES];
    let mut n = 0;
    let mut add = |p: usize, found: &mut [usize; MAX_CANDIDATES]| {
        if n < MAX_CANDIDATES && !found[..n].contains(&p) {
            found[n] = p;
            n += 1;
        }
    };
    // Own groups the stone touches, left with two liberties: run.
    let mut seen = [0usize; 4];
    let mut groups = 0;
    for nb in board.orth_neighbors_holding(last, me) {
        let h = board.head(nb);
        if seen[..groups].contains(&h) {
            continue;
        }
        seen[groups] = h;
        groups += 1;
        if !may_have_two_liberties(board, h) {
            continue;
        }
        let libs = board.liberties_found(h, 3);
        if libs.len() != 2 {
            continue;
        }
        for l in libs.points() {
            if board.liberties_after(l, me, 3) >= 3 {
                add(l, &mut found);
            }
        }
    }
    // The stone's group with two liberties: atari it where it cannot run.
    let h = board.head(last);
    if may_have_two_liberties(board, h) {
        let libs = board.liberties_found(h, 3);
        if libs.len() == 2 {
            let mut pair = libs.points();
            let (a, b) = (pair.next()?, pair.next()?);
            for (at, left) in [(a, b), (b, a)] {
                if cannot_run(board, left, at) && board.liberties_after(at, me, 2) >= 2 {
                    add(at, &mut found);
                }
            }
        }
    }
    match n {
        0 => None,
        1 => Some(found[0]),
        _ => Some(found[rng.below(n)]),
    }
}

/// A cheap test passed by every group with two liberties and failed by most with more: each
/// liberty is a pseudo-liberty of at most four of its stones, hence at most eight, and not
/// one liberty (atari).
#[inline]
fn may_have_two_liberties(board: &GoBoard, h: usize) -> bool {
    board.pseudo_liberties(h) <= 8 && !board.in_atari(h)
}

/// Whether a group left with the single liberty `left` (after a stone on `at`) stays in atari
/// by extending there: `left` has at most one empty neighbour other than `at`.
#[inline]
fn cannot_run(board: &GoBoard, left: usize, at: usize) -> bool {
    let mut empty = 0;
    for k in Slots(slots_holding(board.nbr3(left), EMPTY) & ORTH_SLOTS) {
        if board.slot_neighbor(left, k) != at {
            empty += 1;
        }
    }
    empty <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::parse_point;
    use crate::rules::Color;

    /// A 9x9 board with `black` then `white` stones placed (no captures), then white's last
    /// stone `last`; the answers black draws in 40 tries, as sorted point names.
    fn black_answer(black: &[&str], white: &[&str], last: &str) -> Vec<String> {
        let mut b = GoBoard::new(9, 9).unwrap();
        for s in black {
            b.play(parse_point(&b, s).unwrap(), Color::Black);
        }
        for s in white {
            b.play(parse_point(&b, s).unwrap(), Color::White);
        }
        b.play(parse_point(&b, last).unwrap(), Color::White);
        let last = b.last_move().unwrap().0.idx();
        let mut rng = Rng::new(1);
        let mut out: Vec<String> = (0..40)
            .filter_map(|_| two_liberty_move(&b, last, 1, &mut rng))
            .map(|p| crate::rules::go::point_name(&b, crate::rules::go::Point(p as u16)))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    #[test]
    fn a_group_left_with_two_liberties_runs_where_it_gains_a_third() {
        // White D5 and then E6 leave black E5 with E4 and F5; either gives it three or more.
        assert_eq!(black_answer(&["E5"], &["D5"], "E6"), ["E4", "F5"]);
        // On the edge: white B1 leaves black A1 A2 with A3 and B2; either gives three.
        assert_eq!(black_answer(&["A1", "A2"], &[], "B1"), ["A3", "B2"]);
    }

    #[test]
    fn a_last_stone_with_two_liberties_is_put_in_atari_only_where_it_cannot_run() {
        // White E5 against black E6 D5 F4 has E4 and F5: from either the other point has two
        // empty neighbours to run to. No atari.
        assert_eq!(
            black_answer(&["E6", "D5", "F4"], &[], "E5"),
            Vec::<String>::new()
        );
        // White A5 against black A6 A7 B4 C5 has A4 and B5: black A4 leaves B5 with only B6
        // to run to, black B5 leaves A4 with only A3. Both.
        assert_eq!(
            black_answer(&["A6", "A7", "B4", "C5"], &[], "A5"),
            ["A4", "B5"]
        );
    }

    #[test]
    fn the_atari_is_not_a_self_atari() {
        // White B1 against black B2 D1 has A1 and C1. Black C1 leaves A1 with only A2; black
        // A1 would leave C1 with only C2, but the black stone on A1 would have one liberty.
        assert_eq!(black_answer(&["B2", "D1"], &[], "B1"), ["C1"]);
    }
}
