//! The features of a candidate Go move that the learned priors weigh ([`crate::eval::go::gammas`],
//! fitted by `sente go-train`): one level in each of [`GROUPS`], in the manner of Coulom's
//! "Computing Elo ratings of move patterns in the game of Go" (a move is a team of features,
//! its strength the product of their gammas).
//!
//! - `pat3`: the 3x3 neighbourhood up to the eight symmetries, from the mover's side (empty,
//!   mine, mine in atari, theirs, theirs in atari, off the board for each neighbour);
//! - `last`, `prev`: Coulom's distance `dx + dy + max(dx, dy)` to the last move and to the one
//!   before it (the mover's own previous stone), 2..=16, 17 for anything farther, 0 for none;
//! - `capture`: what the move captures (one stone, 2-5, 6 or more; +3 when the capture also
//!   frees an own string in atari);
//! - `escape`: extending an own string in atari: to 3+ liberties, to 2 that no ladder takes,
//!   into a ladder that works (or still in atari);
//! - `atari`: atari on an enemy string, and whether a ladder then takes it;
//! - `self_atari`: the new string would be in atari capturing nothing: one stone, or more;
//! - `line`: distance to the nearest edge, 1..=5 (5 and beyond);
//! - `libs`: liberties of the new string, 1..=5 (5 and beyond);
//! - `open_line`: on boards of 13 and more, while fewer than a tenth of the points hold stones,
//!   the distance to the nearest edge again, 1..=5 (0 otherwise): the opening's third and
//!   fourth lines are worth more than `line` alone can say, fitted on every board size;
//! - `near`: on boards of 13 and more, how far the nearest stone of either colour is
//!   (Chebyshev distance 1..=4, 5 when none is that close; 0 on smaller boards): contact
//!   play against a move in the open;
//! - `corner`: on boards of 13 and more, in the opening (as `open_line`), a point within six
//!   lines of two edges: its pair of lines (3-3, 3-4, 4-4, 3-5, 4-5, another pair up to 6-6),
//!   6 more when that corner's 6x6 already holds a stone, 13 for the first or second line;
//!   0 elsewhere. `open_line` cannot tell an empty corner's 3-4 point from a 3rd-line point
//!   on the side, and the corners are where the opening's points are.
//!
//! - `spatial`: on boards of 13 and more, the largest pattern of a fitted dictionary that
//!   matches the point's surroundings ([`crate::eval::go::spatial`]): its level, 1 when none
//!   matches, 0 on smaller boards (a level whose gamma is always 1).
//!
//! The last four are 0 on boards under 13, so a table refitted for them plays 9x9 as before.

use crate::eval::go::ladder::LadderReader;
use crate::eval::go::spatial::{SpatialDict, NO_MATCH, SMALL_BOARD};
use crate::rules::go::board::GoBoard;
use crate::rules::go::nbr3::SLOTS;
use crate::rules::go::Point;

/// The feature groups, in the order of [`Features`].
pub const GROUPS: [&str; GROUP_COUNT] = [
    "pat3",
    "last",
    "prev",
    "capture",
    "escape",
    "atari",
    "self_atari",
    "line",
    "libs",
    "open_line",
    "near",
    "corner",
    "spatial",
];

/// Number of feature groups.
pub const GROUP_COUNT: usize = 13;

/// Index of the `spatial` group, whose levels a [`SpatialDict`] names.
pub const SPATIAL: usize = 12;

/// Number of levels of each group but `pat3` (whose levels are the canonical codes,
/// below [`PAT3_CODES`]) and `spatial` (as many as its dictionary names).
pub const SMALL_LEVELS: [u32; GROUP_COUNT] = [0, 18, 18, 7, 4, 3, 3, 6, 6, 6, 6, 14, 0];

/// Bound of the canonical 3x3 codes (six cell values in each of eight slots).
pub const PAT3_CODES: u32 = 6 * 6 * 6 * 6 * 6 * 6 * 6 * 6;

/// One candidate's level in each group.
pub type Features = [u32; GROUP_COUNT];

/// For each of the eight symmetries, where each slot of [`SLOTS`] goes.
fn slot_maps() -> [[usize; 8]; 8] {
    let mut maps = [[0; 8]; 8];
    for (t, map) in maps.iter_mut().enumerate() {
        for (k, &(dx, dy)) in SLOTS.iter().enumerate() {
            let (x, y) = crate::eval::go::spatial::transform(t, dx as isize, dy as isize);
            map[k] = SLOTS
                .iter()
                .position(|&(sx, sy)| (sx as isize, sy as isize) == (x, y))
                .expect("a symmetry maps slots to slots");
        }
    }
    maps
}

/// The smallest code of the cell values `cells` (in slot order) under the eight symmetries.
pub fn canonical_pat3(cells: [u8; 8]) -> u32 {
    static MAPS: std::sync::OnceLock<[[usize; 8]; 8]> = std::sync::OnceLock::new();
    let maps = MAPS.get_or_init(slot_maps);
    maps.iter()
        .map(|map| {
            let mut moved = [0u8; 8];
            for k in 0..8 {
                moved[map[k]] = cells[k];
            }
            moved.iter().rev().fold(0u32, |c, &v| c * 6 + u32::from(v))
        })
        .min()
        .unwrap_or(0)
}

/// Coulom's distance level between two points (see the module doc).
fn distance_level(board: &GoBoard, p: usize, q: Option<Point>) -> u32 {
    let Some(q) = q else { return 0 };
    let (x, y) = board.xy(Point(p as u16));
    let (qx, qy) = board.xy(q);
    coulom_distance(x.abs_diff(qx), y.abs_diff(qy)) as u32
}

/// Coulom's distance level of two points `dx` and `dy` apart (the playouts' gamma policy
/// measures it too, from padded coordinates).
#[inline(always)]
fn coulom_distance(dx: usize, dy: usize) -> usize {
    (dx + dy + dx.max(dy)).clamp(2, 17)
}

/// What a stone of `me` at empty `p` does to the groups beside it: the stones it captures
/// (and whether a capture frees one of `me`'s groups from atari), whether it runs from atari
/// (a group of `me`'s in atari touches it) and whether it ataris a group of two liberties.
/// Read by the features below.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct NeighbourGroups {
    pub captured: usize,
    pub frees: bool,
    pub runs: bool,
    pub ataris: bool,
}

impl NeighbourGroups {
    /// The capture feature's level: none, one stone, 2-5, more; 3 more when it frees a group.
    #[inline]
    pub fn capture_level(&self) -> usize {
        let size = match self.captured {
            0 => 0,
            1 => 1,
            2..=5 => 2,
            _ => 3,
        };
        size + if self.captured > 0 && self.frees {
            3
        } else {
            0
        }
    }
}

/// [`NeighbourGroups`] of `me` playing at `p` (each neighbouring group counted once).
#[inline]
fn neighbour_groups(board: &GoBoard, p: usize, me: u8) -> NeighbourGroups {
    let opp = 3 - me;
    let mut g = NeighbourGroups::default();
    let mut seen = [0usize; 4];
    for (i, n) in board.neighbors(p).into_iter().enumerate() {
        let v = board.cell(n);
        if v != me && v != opp {
            continue;
        }
        let h = board.head(n);
        if seen[..i].contains(&h) {
            continue;
        }
        seen[i] = h;
        if v == opp {
            if board.in_atari(h) {
                g.captured += board.group_size(h);
                g.frees |= frees_own(board, h, me);
            } else if board.count_liberties(h, 3) == 2 {
                g.ataris = true;
            }
        } else if board.in_atari(h) {
            g.runs = true;
        }
    }
    g
}

/// The features of the legal empty point `p` for `me` (1 black, 2 white) on `board`, its
/// `spatial` level read in `dict`.
pub fn features(
    board: &GoBoard,
    ladders: &mut LadderReader,
    p: usize,
    me: u8,
    dict: &SpatialDict,
) -> Features {
    let mut cells = [0u8; 8];
    for (k, cell) in cells.iter_mut().enumerate() {
        let n = board.slot_neighbor(p, k);
        let v = board.cell(n);
        *cell = match v {
            0 => 0,
            3 => 5,
            _ => {
                let base = if v == me { 1 } else { 3 };
                base + u8::from(board.in_atari(board.head(n)))
            }
        };
    }
    let groups = neighbour_groups(board, p, me);
    let NeighbourGroups {
        captured,
        runs,
        ataris,
        ..
    } = groups;
    let libs = board.liberties_after(p, me, 5);
    let capture = groups.capture_level() as u32;
    let escape = if !runs {
        0
    } else if libs >= 3 {
        1
    } else if libs == 2 && !ladders.run_is_caught(board, p, me) {
        2
    } else {
        3
    };
    let atari = if !ataris {
        0
    } else if ladders.atari_catches(board, p, me) {
        2
    } else {
        1
    };
    let self_atari = if captured == 0 && libs <= 1 {
        let joined: usize = {
            let mut heads = [0usize; 4];
            let mut size = 1;
            for (i, n) in board.neighbors(p).into_iter().enumerate() {
                if board.cell(n) == me {
                    let h = board.head(n);
                    if !heads[..i].contains(&h) {
                        size += board.group_size(h);
                    }
                    heads[i] = h;
                }
            }
            size
        };
        if joined == 1 {
            1
        } else {
            2
        }
    } else {
        0
    };
    let (x, y) = board.xy(Point(p as u16));
    let edge = x
        .min(y)
        .min(board.width() - 1 - x)
        .min(board.height() - 1 - y);
    let line = (edge + 1).min(5) as u32;
    let big = board.width().min(board.height()) >= BIG_BOARD;
    let points = board.width() * board.height();
    let opening = big && board.stone_count() * OPENING_SHARE < points;
    let open_line = if opening { line } else { 0 };
    let corner = if opening {
        corner_level(board, x, y)
    } else {
        0
    };
    let near = if big {
        nearest_stone_level(board, x, y)
    } else {
        0
    };
    let spatial = if !big {
        SMALL_BOARD
    } else if dict.is_empty() {
        NO_MATCH
    } else {
        dict.level_at(board, p, me)
    };
    [
        canonical_pat3(cells),
        distance_level(board, p, board.last_move().map(|(q, _)| q)),
        distance_level(board, p, board.move_before_last()),
        capture,
        escape,
        atari,
        self_atari,
        line,
        libs.clamp(1, 5) as u32,
        open_line,
        near,
        corner,
        spatial,
    ]
}

/// How many lines from each edge a corner reaches.
const CORNER_REACH: usize = 6;

/// The `corner` level of (`x`, `y`) (see the module doc).
fn corner_level(board: &GoBoard, x: usize, y: usize) -> u32 {
    let (w, h) = (board.width(), board.height());
    let (lx, ly) = (x.min(w - 1 - x) + 1, y.min(h - 1 - y) + 1);
    if lx > CORNER_REACH || ly > CORNER_REACH {
        return 0;
    }
    let (lo, hi) = (lx.min(ly), lx.max(ly));
    let shape = match (lo, hi) {
        (1..=2, _) => return 13,
        (3, 3) => 1,
        (3, 4) => 2,
        (4, 4) => 3,
        (3, 5) => 4,
        (4, 5) => 5,
        _ => 6,
    };
    // The corner's CORNER_REACH x CORNER_REACH square, on the point's side of each axis.
    let xs = if x < w / 2 {
        0..CORNER_REACH
    } else {
        w - CORNER_REACH..w
    };
    let ys = if y < h / 2 {
        0..CORNER_REACH
    } else {
        h - CORNER_REACH..h
    };
    let taken = ys.clone().any(|cy| {
        xs.clone()
            .any(|cx| board.point(cx, cy).is_some_and(|q| !board.is_empty(q)))
    });
    shape + if taken { 6 } else { 0 }
}

/// The smallest board side that gets the `open_line`, `near` and `corner` features.
const BIG_BOARD: usize = 13;

/// The opening lasts while fewer than one point in this many holds a stone.
const OPENING_SHARE: usize = 10;

/// The farthest stone `near` tells apart (level 5: none this close).
const NEAR_REACH: usize = 4;

/// The Chebyshev distance from (`x`, `y`) to the nearest stone, 1..=[`NEAR_REACH`], or
/// `NEAR_REACH + 1` when none is that close. Rings are read outwards, so a crowded point costs
/// one ring.
fn nearest_stone_level(board: &GoBoard, x: usize, y: usize) -> u32 {
    let (x, y) = (x as isize, y as isize);
    // `point` refuses the far sides; the near ones are negative here.
    let stone = |cx: isize, cy: isize| {
        cx >= 0
            && cy >= 0
            && board
                .point(cx as usize, cy as usize)
                .is_some_and(|q| !board.is_empty(q))
    };
    for d in 1..=NEAR_REACH as isize {
        for k in -d..=d {
            if stone(x + k, y - d)
                || stone(x + k, y + d)
                || stone(x - d, y + k)
                || stone(x + d, y + k)
            {
                return d as u32;
            }
        }
    }
    NEAR_REACH as u32 + 1
}

/// Whether the enemy string with head `h` (in atari) touches an own string in atari.
fn frees_own(board: &GoBoard, h: usize, me: u8) -> bool {
    let mut s = h;
    loop {
        for n in board.neighbors(s) {
            if board.cell(n) == me && board.in_atari(board.head(n)) {
                return true;
            }
        }
        s = board.next_in_group(s);
        if s == h {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::go::spatial::spatial_hashes;
    use crate::rules::go::{game_with_stones, parse_move, GoMove};
    use crate::rules::Color;

    static NONE: std::sync::LazyLock<SpatialDict> = std::sync::LazyLock::new(SpatialDict::default);

    fn features_at(b: &GoBoard, l: &mut LadderReader, p: usize, me: u8) -> Features {
        features(b, l, p, me, &NONE)
    }

    fn at(board: &GoBoard, s: &str) -> usize {
        match parse_move(board, s).unwrap() {
            GoMove::Play(p) => p.idx(),
            GoMove::Pass => unreachable!(),
        }
    }

    #[test]
    fn canonical_codes_agree_across_symmetries() {
        let cells = [1, 0, 3, 5, 2, 0, 4, 0];
        let c = canonical_pat3(cells);
        for map in slot_maps() {
            let mut moved = [0u8; 8];
            for k in 0..8 {
                moved[map[k]] = cells[k];
            }
            assert_eq!(canonical_pat3(moved), c);
        }
        assert!(c < PAT3_CODES);
        assert_ne!(
            canonical_pat3([0; 8]),
            canonical_pat3([1, 0, 0, 0, 0, 0, 0, 0])
        );
    }

    #[test]
    fn tactics_edges_and_distances_are_read() {
        // Black C3 in atari from white B3, C4, D3: C2 escapes, and white at C2 captures.
        let g = game_with_stones(9, "C3", "B3 C4 D3");
        let b = g.board();
        let mut l = LadderReader::new();
        let black = Color::Black as u8;
        let white = Color::White as u8;
        let f = features_at(b, &mut l, at(b, "C2"), black);
        assert_ne!(f[4], 0, "escape");
        assert_eq!(f[7], 2, "second line");
        let f = features_at(b, &mut l, at(b, "C2"), white);
        assert_eq!(f[3], 1, "captures one stone");
        let f = features_at(b, &mut l, at(b, "A1"), black);
        assert_eq!((f[7], f[3], f[4]), (1, 0, 0));
        let far = features_at(b, &mut l, at(b, "H8"), black);
        assert!(far[8] >= 4);
        for (g, &n) in SMALL_LEVELS.iter().enumerate().take(SPATIAL).skip(1) {
            assert!(far[g] < n && f[g] < n, "group {}", GROUPS[g]);
        }
    }

    #[test]
    fn big_boards_read_the_opening_line_and_the_nearest_stone() {
        let g = game_with_stones(19, "D4 Q16", "Q4");
        let b = g.board();
        let mut l = LadderReader::new();
        let black = Color::Black as u8;
        // (open_line, near) of black's candidates with three stones on the board.
        let mut f = |s: &str| {
            let f = features(b, &mut l, at(b, s), black, &NONE);
            (f[9], f[10])
        };
        assert_eq!(f("C16"), (3, 5), "open third line, nothing within four");
        assert_eq!(f("D5"), (4, 1), "touches D4");
        assert_eq!(f("F4"), (4, 2), "two from D4");
        assert_eq!(f("K10"), (5, 5), "centre: line 5+, open");
        assert_eq!(f("Q8"), (4, 4), "four below Q4's line");
        // Past the opening (a tenth of 361 points), open_line is 0; near stays.
        let mut many = Vec::new();
        for x in [
            "A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M", "N", "O", "P", "Q", "R",
            "S", "T",
        ] {
            for y in [1, 2] {
                many.push(format!("{x}{y}"));
            }
        }
        let g = game_with_stones(19, &many.join(" "), "");
        let b = g.board();
        let far = features_at(b, &mut l, at(b, "K10"), black);
        assert_eq!((far[9], far[10]), (0, 5));
        let close = features_at(b, &mut l, at(b, "K5"), black);
        assert_eq!((close[9], close[10]), (0, 3));
        // 9x9 keeps both at 0, so its priors are those of the table without them.
        let g = game_with_stones(9, "E5", "");
        let b = g.board();
        let f = features_at(b, &mut l, at(b, "E6"), black);
        assert_eq!((f[9], f[10]), (0, 0));
    }

    #[test]
    fn the_corner_feature_reads_the_corner_points_and_whether_the_corner_is_taken() {
        let g = game_with_stones(19, "D4", "Q16");
        let b = g.board();
        let mut l = LadderReader::new();
        let black = Color::Black as u8;
        let mut corner = |s: &str| features(b, &mut l, at(b, s), black, &NONE)[11];
        // Empty corners (top left, bottom right).
        assert_eq!(corner("C17"), 1, "3-3");
        assert_eq!(corner("D17"), 2, "3-4");
        assert_eq!(corner("R4"), 2, "4-3, the other way round");
        assert_eq!(corner("D16"), 3, "4-4");
        assert_eq!(corner("C15"), 4, "3-5");
        assert_eq!(corner("E16"), 5, "5-4");
        assert_eq!(corner("F15"), 6, "6-5");
        assert_eq!(corner("B17"), 13, "second line");
        // Corners that hold a stone (D4's, Q16's).
        assert_eq!(corner("C4"), 2 + 6, "3-4 beside a stone");
        assert_eq!(corner("R17"), 1 + 6, "3-3 under a 4-4");
        // Sides and centre are no corner.
        assert_eq!(corner("K4"), 0);
        assert_eq!(corner("C10"), 0);
        assert_eq!(corner("G17"), 0, "seventh line");
        assert_eq!(corner("K10"), 0);
        // 9x9 has none.
        let g = game_with_stones(9, "", "");
        let b = g.board();
        assert_eq!(features_at(b, &mut l, at(b, "C3"), black)[11], 0);
    }

    #[test]
    fn the_spatial_level_reads_the_dictionary_on_big_boards_only() {
        let mut l = LadderReader::new();
        let black = Color::Black as u8;
        let g = game_with_stones(19, "D4 Q16", "Q4");
        let b = g.board();
        let h = spatial_hashes(b, at(b, "D5"), black);
        // h[2] is not listed: h[3] is not reached.
        let dict = SpatialDict::new([h[0], h[1], h[3]]);
        assert_eq!(features(b, &mut l, at(b, "D5"), black, &dict)[SPATIAL], 3);
        assert_eq!(
            features(b, &mut l, at(b, "K10"), black, &dict)[SPATIAL],
            NO_MATCH
        );
        assert_eq!(
            features_at(b, &mut l, at(b, "D5"), black)[SPATIAL],
            NO_MATCH
        );
        // 9x9: every other group as without a dictionary, spatial 0.
        let g = game_with_stones(9, "E5 C3", "D4");
        let b = g.board();
        let h = spatial_hashes(b, at(b, "E4"), black);
        let dict = SpatialDict::new(h);
        for s in ["E4", "A1", "G7"] {
            let with = features(b, &mut l, at(b, s), black, &dict);
            assert_eq!(with, features_at(b, &mut l, at(b, s), black));
            assert_eq!(with[SPATIAL], SMALL_BOARD);
        }
    }
}
