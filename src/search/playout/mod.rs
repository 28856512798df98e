//! Light Monte Carlo playouts for Go, allocation-free: from a position, both sides play the
//! quick moves of [`policy`] until two passes, then the board is counted by area ([`owners`],
//! which also sums many playouts into ownership and dead stones). [`rng`] draws the numbers.
//! The tree search runs a playout from each new leaf; the Go levels run them alone to find the
//! dead stones.
//!
//! A playout ends after two passes in a row, after `3 x points` moves, or when one colour leads
//! the other in stones by more than [`mercy_lead`] (the mercy rule: a lead that large is almost
//! never overturned, and the captures that made it would otherwise be played out). Ownership
//! playouts ([`Ending::ToTheEnd`]) skip the mercy rule. The score is black's area margin
//! ([`owners::area_margin`]) minus komi.

pub mod owners;
pub mod policy;
pub mod rng;

use crate::rules::go::board::GoBoard;
use crate::rules::Color;
use owners::area_margin;
use policy::step;
use rng::Rng;

/// Moves allowed in one playout, per board point.
pub const MOVES_PER_POINT: usize = 3;

/// A playout ends early (mercy rule) when one colour has more stones than the other by more
/// than this: a sixth of the points plus five, at least 18. Played on past that lead, the
/// leading side goes on to lose in well under 0.1% of the playouts on every board size
/// (`the_mercy_rule_almost_never_changes_the_winner`), while a third to a half of them end early.
pub fn mercy_lead(points: usize) -> i32 {
    (points / 6 + 5).max(18) as i32
}

/// What [`playout`] writes besides the score: the first colour to play each point (AMAF).
pub struct PlayoutTrace<'a> {
    /// Indexed by point: 0 = not played in this playout, else the colour (1 black, 2 white)
    /// that played it first. The caller clears it.
    pub first_mover: &'a mut [u8],
}

/// How a playout may end besides two passes and the move limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Also by the mercy rule ([`mercy_lead`]): what the search's playouts use.
    Mercy,
    /// Only by passes or the move limit: a playout cut short leaves points in dispute that
    /// belong to nobody, which the margin's sign survives but an ownership map does not.
    ToTheEnd,
}

/// Plays `board` out with `to_move` first, until it ends as `ending` allows; returns black's
/// area margin minus `komi`. The board is left in the final position.
#[inline]
pub fn playout(
    board: &mut GoBoard,
    to_move: Color,
    komi: f32,
    rng: &mut Rng,
    trace: Option<&mut PlayoutTrace<'_>>,
    ending: Ending,
) -> f32 {
    let mercy = match ending {
        Ending::Mercy => mercy_lead(board.width() * board.height()),
        Ending::ToTheEnd => i32::MAX,
    };
    play_out(board, to_move, komi, rng, trace, mercy)
}

/// The playout loop; it stops early when the stone lead exceeds `mercy`. Kept out of line so
/// that one copy serves every caller: inlined into two, the policy's stages were no longer
/// inlined into it, and the 9x9 playouts ran 4% slower (`sente bench go`).
#[inline(never)]
fn play_out(
    board: &mut GoBoard,
    mut to_move: Color,
    komi: f32,
    rng: &mut Rng,
    mut trace: Option<&mut PlayoutTrace<'_>>,
    mercy: i32,
) -> f32 {
    let max_moves = board.width() * board.height() * MOVES_PER_POINT;
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < max_moves {
        let lead = board.stones_of(Color::Black) as i32 - board.stones_of(Color::White) as i32;
        if lead.abs() > mercy {
            // One side has captured so much that the rest of the playout cannot change the
            // winner: the margin is counted now, with the lead in stones as black's area.
            break;
        }
        let played = step(board, to_move, rng);
        if let Some(t) = trace.as_deref_mut() {
            if let Some(p) = played {
                if t.first_mover[p] == 0 {
                    t.first_mover[p] = to_move as u8;
                }
            }
        }
        match played {
            Some(_) => passes = 0,
            None => passes += 1,
        }
        moves += 1;
        to_move = to_move.opponent();
    }
    area_margin(board) as f32 - komi
}

#[cfg(test)]
mod tests {
    use super::*;
    use policy::acceptable_moves_left;

    #[test]
    fn playouts_to_the_end_play_past_the_mercy_rule_until_no_move_is_left() {
        let mut rng = Rng::new(11);
        let start = GoBoard::new(9, 9).unwrap();
        let mut b = start.clone();
        let mut past_mercy = 0;
        for _ in 0..100 {
            b.copy_from(&start);
            let margin = playout(&mut b, Color::Black, 0.0, &mut rng, None, Ending::ToTheEnd);
            assert_eq!(margin, area_margin(&b) as f32);
            let lead = b.stones_of(Color::Black) as i32 - b.stones_of(Color::White) as i32;
            past_mercy += usize::from(lead.abs() > mercy_lead(81));
            // Ended by two passes: as in the test below, one side has no acceptable move and
            // the other at most the ko it was barred from.
            let left = acceptable_moves_left(&b);
            assert!(
                left.contains(&0) && left.iter().all(|&n| n <= 1),
                "{left:?}"
            );
        }
        assert!(past_mercy > 0, "no playout went past the mercy lead");
    }
    #[test]
    fn playouts_end_with_legal_consistent_boards_and_fill_no_eyes() {
        let mut rng = Rng::new(7);
        let mut mercy = 0;
        for size in [5usize, 9, 13, 19] {
            let start = GoBoard::new(size, size).unwrap();
            let mut b = start.clone();
            for _ in 0..20 {
                b.copy_from(&start);
                let margin = playout(&mut b, Color::Black, 0.0, &mut rng, None, Ending::Mercy);
                b.validate();
                assert!(margin.abs() <= (size * size) as f32);
                let lead = b.stones_of(Color::Black) as i32 - b.stones_of(Color::White) as i32;
                if lead.abs() > mercy_lead(size * size) {
                    // Ended by the mercy rule: the winner leads by that much.
                    assert_eq!(margin > 0.0, lead > 0, "{}", b.to_text());
                    mercy += 1;
                    continue;
                }
                // After two passes, the second passer had no acceptable move on this board (the
                // first pass had cleared any ko). The first passer may have been barred only
                // from retaking a ko, which the second pass lifted: one point at most.
                let left = acceptable_moves_left(&b);
                assert!(
                    left.contains(&0) && left.iter().all(|&n| n <= 1),
                    "{size}x{size} acceptable moves left {left:?}\n{}",
                    b.to_text()
                );
            }
        }
        assert!(mercy > 0, "no playout met the mercy rule");
    }
    /// Plays past the point where the mercy rule would end a playout: the side that led by the
    /// mercy margin must go on to win (area count, komi 7.5) in all but a few playouts.
    #[test]
    fn the_mercy_rule_almost_never_changes_the_winner() {
        let mut rng = Rng::new(5);
        for (size, playouts) in [(9usize, 2000), (13, 600), (19, 200)] {
            let start = GoBoard::new(size, size).unwrap();
            let mercy = mercy_lead(size * size);
            let mut b = start.clone();
            let (mut triggered, mut overturned) = (0, 0);
            for _ in 0..playouts {
                b.copy_from(&start);
                let mut c = Color::Black;
                let (mut passes, mut moves) = (0, 0);
                let mut leader = None;
                while passes < 2 && moves < MOVES_PER_POINT * size * size {
                    let lead = b.stones_of(Color::Black) as i32 - b.stones_of(Color::White) as i32;
                    if leader.is_none() && lead.abs() > mercy {
                        leader = Some(lead > 0);
                    }
                    passes = if step(&mut b, c, &mut rng).is_some() {
                        0
                    } else {
                        passes + 1
                    };
                    moves += 1;
                    c = c.opponent();
                }
                if let Some(black_led) = leader {
                    triggered += 1;
                    let black_won = area_margin(&b) as f32 - 7.5 > 0.0;
                    overturned += usize::from(black_won != black_led);
                }
            }
            assert!(
                triggered * 5 > playouts,
                "{size}x{size}: the rule met only {triggered} of {playouts} playouts"
            );
            assert!(
                overturned * 200 <= triggered,
                "{size}x{size}: {overturned} of {triggered} leads were overturned"
            );
        }
    }
}
