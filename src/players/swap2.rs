//! The SWAP2 opening choices a gomoku player makes by default: which three stones to propose
//! on an empty board ([`balanced_opening`]), and whether to take black after searching the
//! position with white to move ([`white_is_lost`]). The session asks the player through
//! [`super::GomokuPlayer::swap2_opening`] and [`super::GomokuPlayer::swap2_takes_black`].

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::rules::mnk::board::symmetry;
use crate::rules::Board;
use crate::search::SearchInfo;

/// Take black when white's score is at or below minus this many evaluation units.
pub const SWAP_MARGIN: i32 = 150;

/// Whether a search of white's position (its last report, white's point of view) says white is
/// lost: a forced loss, or a score at or below `-SWAP_MARGIN`. No report: stay white.
pub fn white_is_lost(white: Option<&SearchInfo>) -> bool {
    white.is_some_and(|i| i.mate.is_some_and(|m| m < 0) || i.score <= -SWAP_MARGIN)
}

/// Three opening stones (black, white, black) near the centre: one of a few shapes that are
/// known to be roughly balanced, in a random orientation and a random spot next to the centre.
pub fn balanced_opening(b: &Board, rng: &mut ChaCha8Rng) -> Vec<(usize, usize)> {
    // Offsets from the centre; none of them gives black a line of two in a row with white
    // far away, and white always touches black.
    const SHAPES: &[[(i64, i64); 3]] = &[
        [(0, 0), (1, -1), (2, 1)],
        [(0, 0), (0, 1), (2, -1)],
        [(0, 0), (-1, 1), (2, 2)],
        [(0, 0), (1, 0), (-1, 2)],
        [(0, 0), (1, 1), (0, 2)],
        [(0, 0), (1, 1), (-1, 2)],
    ];
    let (cx, cy) = (b.width() as i64 / 2, b.height() as i64 / 2);
    let mut shapes: Vec<&[(i64, i64); 3]> = SHAPES.iter().collect();
    shapes.shuffle(rng);
    for shape in shapes {
        let sym = rng.gen_range(0..8);
        let (dx, dy) = (rng.gen_range(-1..=1), rng.gen_range(-1..=1));
        for shift in [(dx, dy), (0, 0)] {
            let pts: Vec<(i64, i64)> = shape
                .iter()
                .map(|&(x, y)| {
                    let (x, y) = symmetry(sym, x, y);
                    (cx + shift.0 + x, cy + shift.1 + y)
                })
                .collect();
            if pts.iter().all(|&(x, y)| b.pos(x, y).is_some()) {
                return pts.iter().map(|&(x, y)| (x as usize, y as usize)).collect();
            }
        }
    }
    // Every board is at least 5x5, so the first shape always fits at the centre.
    vec![
        (cx as usize, cy as usize),
        (cx as usize + 1, cy as usize),
        (cx as usize, cy as usize + 1),
    ]
}
