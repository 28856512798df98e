//! Nakade for the playouts: when the opponent's last stone borders a small eye space that only
//! its own stones enclose, the side to move plays the space's vital point, the one move that
//! leaves the owner a single eye. Light playouts otherwise fill such spaces at random, so a
//! group with a killable three- to six-point space lives or dies by chance, and the search
//! cannot tell a dead shape from a living one. Two kinds of last move are read, to keep the
//! stage cheap: a capture of three or more stones (the capturer's stone borders the space the
//! captured stones leave behind) and a stone in contact with the mover's (one that closes a
//! space in a fight).
//!
//! The shapes and their vital points are the standard ones: any three points (the middle one),
//! the pyramid four (the point touching the other three), the bulky five (the point of the
//! square touching the tail), the crossed five (the centre) and the rabbity six (the point
//! touching four). The square four is dead already and a straight or bent four, a long five or
//! a larger space lives: no move is suggested there.

use crate::rules::go::board::{GoBoard, EMPTY};
use crate::rules::go::nbr3::{slots_holding, Slots, ORTH_SLOTS};

/// The largest eye space looked at.
const MAX_AREA: usize = 6;

/// The vital point `me` plays to kill an eye space next to the opponent's last stone `last`,
/// or `None` when no space of a killable shape borders it (or the point is illegal).
#[inline]
pub(crate) fn nakade_move(board: &GoBoard, last: usize, me: u8) -> Option<usize> {
    let owner = 3 - me;
    if board.cell(last) != owner {
        return None;
    }
    let last_code = board.nbr3(last);
    // Only two kinds of last move are read, which keeps the stage cheap (reading every move
    // cost a fifth of the playouts' speed, mostly in a side filling its own territory): a
    // capture of three or more stones, which leaves a space behind, and a stone in contact
    // with the mover's, which closes a space in a fight.
    if board.last_captured() < 3 && slots_holding(last_code, me) & ORTH_SLOTS == 0 {
        return None;
    }
    let empty = slots_holding(last_code, EMPTY) & ORTH_SLOTS;
    let table = board.nbr3_table();
    let mut area = [0usize; MAX_AREA];
    let mut n = 0;
    for k in Slots(empty) {
        let start = board.slot_neighbor(last, k);
        // The cheap filter that keeps this stage affordable: a point of a killable space next
        // to the last stone touches no stone of the mover and at most two other points of the
        // space. (Three would make it the centre of a pyramid four or bulky five played at
        // from outside, which this misses; in the open almost every point has three.)
        let code = board.nbr3(start);
        if table.empty_orth(code) > 2 || slots_holding(code, me) & ORTH_SLOTS != 0 {
            continue;
        }
        // A point the last flood reached is in the space it read, whatever that found.
        if area[..n].contains(&start) {
            continue;
        }
        let (size, whole) = eye_space(board, start, me, &mut area);
        n = size;
        if !whole {
            continue;
        }
        if let Some(vital) = vital_point(board.stride(), &area[..n]) {
            if board.legal_empty(vital, me) {
                return Some(vital);
            }
        }
    }
    None
}

/// Fills `area` with the empty points connected to empty `start`, and returns how many it
/// holds and whether they are the whole space: false when it has more than [`MAX_AREA`]
/// points or an `intruder` stone touches one (the points read until then are kept).
#[inline]
fn eye_space(
    board: &GoBoard,
    start: usize,
    intruder: u8,
    area: &mut [usize; MAX_AREA],
) -> (usize, bool) {
    area[0] = start;
    let mut n = 1;
    let mut i = 0;
    while i < n {
        let code = board.nbr3(area[i]);
        if slots_holding(code, intruder) & ORTH_SLOTS != 0 {
            return (n, false);
        }
        for k in Slots(slots_holding(code, EMPTY) & ORTH_SLOTS) {
            let q = board.slot_neighbor(area[i], k);
            if area[..n].contains(&q) {
                continue;
            }
            if n == MAX_AREA {
                return (n, false);
            }
            area[n] = q;
            n += 1;
        }
        i += 1;
    }
    (n, true)
}

/// The vital point of the connected space `area` on a board of row stride `stride`, for the
/// killable shapes of the module doc.
fn vital_point(stride: usize, area: &[usize]) -> Option<usize> {
    let n = area.len();
    // How many other points of the space each one touches, and how many points touch k others.
    let mut degree = [0usize; MAX_AREA];
    for i in 0..n {
        for j in i + 1..n {
            let d = area[i].abs_diff(area[j]);
            if d == 1 || d == stride {
                degree[i] += 1;
                degree[j] += 1;
            }
        }
    }
    let mut with_degree = [0usize; 5];
    for &d in &degree[..n] {
        with_degree[d] += 1;
    }
    let point_of_degree = |want: usize| (0..n).find(|&i| degree[i] == want).map(|i| area[i]);
    match n {
        3 => point_of_degree(2),
        4 if with_degree[3] == 1 => point_of_degree(3),
        5 if with_degree[4] == 1 => point_of_degree(4),
        5 if with_degree[3] == 1 && with_degree[1] == 1 => point_of_degree(3),
        6 if with_degree[4] == 1 && with_degree[2] == 3 => point_of_degree(4),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::parse_point;
    use crate::rules::Color;

    /// A 9x9 board with `black` and `white` stones placed (no captures), then `last` played
    /// by black (its stone must capture nothing unless the test wants it to).
    fn board(black: &[&str], white: &[&str], last: &str) -> GoBoard {
        let mut b = GoBoard::new(9, 9).unwrap();
        for s in white {
            b.play(parse_point(&b, s).unwrap(), Color::White);
        }
        for s in black {
            b.play(parse_point(&b, s).unwrap(), Color::Black);
        }
        b.play(parse_point(&b, last).unwrap(), Color::Black);
        b
    }

    fn name(b: &GoBoard, p: Option<usize>) -> Option<String> {
        p.map(|p| crate::rules::go::point_name(b, crate::rules::go::Point(p as u16)))
    }

    fn white_vital(b: &GoBoard) -> Option<String> {
        let last = b.last_move().unwrap().0.idx();
        name(b, nakade_move(b, last, 2))
    }

    // Black's eye spaces sit in the lower left corner, closed by black stones and the edges;
    // a white stone outside touches black's last stone, as in a fight.

    #[test]
    fn a_straight_three_is_killed_in_the_middle() {
        // Space A1 B1 C1 under A2 B2 C2, closed by D2 and the last stone D1.
        let b = board(&["A2", "B2", "C2", "D2"], &["E1"], "D1");
        assert_eq!(white_vital(&b).as_deref(), Some("B1"));
        // The same stone out of contact with white (and capturing nothing): not read.
        let b = board(&["A2", "B2", "C2", "D2"], &[], "D1");
        assert_eq!(white_vital(&b), None);
    }

    #[test]
    fn a_bent_three_is_killed_at_its_bend() {
        // Space A1 A2 B1, closed by A3 C1 and the last stone B2 (which has the outside B3 too).
        let b = board(&["C1", "A3", "C2"], &["B3"], "B2");
        assert_eq!(white_vital(&b).as_deref(), Some("A1"));
        // A last stone that touches no point of the space: nothing.
        let b = board(&["B2", "C1", "A3"], &[], "C2");
        assert_eq!(white_vital(&b), None);
    }

    #[test]
    fn a_pyramid_four_is_killed_at_its_centre_and_a_square_four_is_left_alone() {
        // Pyramid A1 B1 C1 B2 under A2 B3 C2, closed by the last stone D1.
        let b = board(&["A2", "B3", "C2", "A3", "C3"], &["E1"], "D1");
        assert_eq!(white_vital(&b).as_deref(), Some("B1"));
        // Square A1 B1 A2 B2: dead already, nothing to play.
        let b = board(&["A3", "B3", "C2"], &["D1"], "C1");
        assert_eq!(white_vital(&b), None);
    }

    #[test]
    fn a_bulky_five_and_a_rabbity_six_are_killed_at_their_vital_points() {
        // Bulky five A1 B1 C1 A2 B2: the square's point touching the tail C1 is B1.
        let b = board(&["A3", "B3", "C2"], &["E1"], "D1");
        assert_eq!(white_vital(&b).as_deref(), Some("B1"));
        // Rabbity six B2 with its four arms A2 C2 B1 B3 and C3: B2 touches four.
        let b = board(&["A1", "C1", "D2", "D3", "A3", "B4"], &["D4"], "C4");
        assert_eq!(white_vital(&b).as_deref(), Some("B2"));
    }

    #[test]
    fn spaces_that_live_or_are_too_large_or_are_touched_by_the_mover_get_nothing() {
        // A straight four A1..D1 lives.
        let b = board(&["A2", "B2", "C2", "D2"], &["F1"], "E1");
        assert_eq!(white_vital(&b), None);
        // A white stone already inside the three-point space.
        let b = board(&["A2", "B2", "C2", "D2"], &["A1", "E1"], "D1");
        assert_eq!(white_vital(&b), None);
        // The open board.
        let b = board(&[], &[], "E5");
        assert_eq!(white_vital(&b), None);
        let b = board(&["D5"], &["F5"], "E5");
        assert_eq!(white_vital(&b), None);
    }

    #[test]
    fn after_a_capture_the_capturer_is_answered_at_the_vital_point() {
        // White B1 C1 D1 under black A1 B2 C2 D2 E2; black E1 captures the three.
        let b = board(&["A1", "B2", "C2", "D2", "E2"], &["B1", "C1", "D1"], "E1");
        assert!(
            b.is_empty(parse_point(&b, "C1").unwrap()),
            "the three were captured"
        );
        assert_eq!(white_vital(&b).as_deref(), Some("C1"));
    }
}
