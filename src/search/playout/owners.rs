//! Who owns the points of a played-out board: every empty point belongs to the colour of its
//! stone neighbours when they are all one colour (by then empty points are eyes or dame), which
//! gives a playout's area margin; summed over many playouts, the ownership map and the stones
//! it calls dead.

use crate::rules::go::board::{GoBoard, BLACK, WHITE};
use crate::rules::go::{GoGame, Point};
use crate::rules::Color;
use crate::search::clock::TimeManager;
use crate::search::playout::rng::Rng;
use crate::search::playout::{playout, Ending};

/// Black's area minus white's on a played-out board: stones, plus empty points whose stone
/// neighbours are all of one colour.
pub fn area_margin(board: &GoBoard) -> i32 {
    let mut margin = board.stones_of(Color::Black) as i32 - board.stones_of(Color::White) as i32;
    for &p in board.empty_points() {
        margin += empty_owner(board, p as usize);
    }
    margin
}

/// +1 when every stone next to empty `p` is black, -1 when white, 0 otherwise.
#[inline]
fn empty_owner(board: &GoBoard, p: usize) -> i32 {
    board.nbr3_table().owner(board.nbr3(p))
}

/// Adds every point's owner on a played-out `board` to `own` (indexed by padded point): +1 for
/// black, -1 for white, by the stone on it or, on an empty point, by [`area_margin`]'s rule.
pub fn add_owners(board: &GoBoard, own: &mut [i64]) {
    for p in board.points() {
        let p = p.idx();
        own[p] += i64::from(point_owner(board, p));
    }
}

/// The owner of padded point `p` on a played-out `board`: +1 black, -1 white, 0 nobody (by
/// the stone on it or, on an empty point, by [`area_margin`]'s rule).
#[inline]
pub(crate) fn point_owner(board: &GoBoard, p: usize) -> i32 {
    match board.cell(p) {
        BLACK => 1,
        WHITE => -1,
        _ => empty_owner(board, p),
    }
}

/// Sums from [`add_owners`] over `playouts` playouts as shares in -1..1 (all 0 before any).
/// (The sums are 64-bit: an analysis may run for hours.)
pub fn mean_owners(own: &[i64], playouts: u64) -> Vec<f32> {
    let n = playouts.max(1) as f64;
    own.iter().map(|&v| (v as f64 / n) as f32).collect()
}

/// Ownership from many playouts of `game`'s current position: for every padded index, the
/// share of playouts (0..1) that ended with the point black's minus the share that ended with
/// it white (so -1..1, positive for black), plus the playouts run. Stops at `playouts` or when
/// `tm` says so (the node budget counts playouts).
pub fn ownership(
    game: &GoGame,
    playouts: u32,
    rng: &mut Rng,
    tm: &TimeManager<'_>,
) -> (Vec<f32>, u32) {
    let start = game.board();
    let len = start.array_len();
    let mut own = vec![0i64; len];
    let mut scratch = start.clone();
    let to_move = game.to_move();
    let mut done = 0u32;
    while done < playouts {
        if done.is_multiple_of(16) && done > 0 && tm.should_stop(done as u64) {
            break;
        }
        scratch.copy_from(start);
        playout(&mut scratch, to_move, 0.0, rng, None, Ending::ToTheEnd);
        add_owners(&scratch, &mut own);
        done += 1;
    }
    (mean_owners(&own, u64::from(done)), done)
}

/// Stones whose point ends owned by the opponent in most playouts (ownership beyond `0`
/// towards the other colour), from at most `playouts` playouts.
pub fn dead_stones(
    game: &GoGame,
    playouts: u32,
    rng: &mut Rng,
    tm: &TimeManager<'_>,
) -> Vec<Point> {
    let (own, _) = ownership(game, playouts, rng, tm);
    dead_in(game, &own)
}

/// Stones of `game` whose point `own` ([`ownership`]'s values) gives to the opponent.
pub fn dead_in(game: &GoGame, own: &[f32]) -> Vec<Point> {
    let board = game.board();
    board
        .points()
        .filter(|&p| match board.get(p) {
            Some(Color::Black) => own[p.idx()] < 0.0,
            Some(Color::White) => own[p.idx()] > 0.0,
            None => false,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::{parse_point, score, GoRules};
    use std::sync::atomic::AtomicBool;

    fn pt(b: &GoBoard, s: &str) -> Point {
        parse_point(b, s).unwrap()
    }

    #[test]
    fn dead_stones_in_a_settled_position() {
        // 9x9: black owns the left (wall on D, split by row 5 into two regions), white the
        // right likewise; a lone white stone in black's area and a lone black stone in
        // white's area are dead.
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let mut stones = Vec::new();
        for row in 1..=9 {
            stones.push((pt(g.board(), &format!("D{row}")), Color::Black));
            stones.push((pt(g.board(), &format!("E{row}")), Color::White));
        }
        for col in ["A", "B", "C"] {
            stones.push((pt(g.board(), &format!("{col}5")), Color::Black));
        }
        for col in ["F", "G", "H", "J"] {
            stones.push((pt(g.board(), &format!("{col}5")), Color::White));
        }
        stones.push((pt(g.board(), "B2"), Color::White));
        stones.push((pt(g.board(), "H7"), Color::Black));
        g.place_setup(&stones).unwrap();
        let stop = AtomicBool::new(false);
        let tm = TimeManager::infinite(&stop);
        let mut rng = Rng::new(3);
        let mut dead = dead_stones(&g, 400, &mut rng, &tm);
        dead.sort();
        let mut want = vec![pt(g.board(), "B2"), pt(g.board(), "H7")];
        want.sort();
        assert_eq!(dead, want);
        // Black: 36 area, white 45; komi 7.5 -> W+16.5.
        assert_eq!(score(g.board(), &dead, g.rules()), 36.0 - 45.0 - 7.5);
    }
}
