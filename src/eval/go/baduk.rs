//! The seed's Go move scorer (docs/sources.md, SEEDS 003, `getBadukMoveScore(board, x, y, colour,
//! stoneCount)`): the value of one stone of `colour` on one empty point, as a sum of terms. The
//! `heuristic` player plays its maximum; the MCTS uses it for priors.
//!
//! The original gives the structure and the intent of every term but no numbers beyond the
//! phase boundaries; the weights below are ours, chosen so that the original's stated
//! orderings hold (tested): tactics outweigh everything but opening strategy, strategy > tactics
//! in the opening and < tactics in the endgame, corner > side > centre, shape weight low in the
//! opening. How each part of the original is read:
//!
//! 0. **Suicide** (자충수 방지): a move whose stone would have no liberty is refused
//!    ([`move_score`] returns `None`, the original's `-Infinity`) unless it captures.
//! 1. **Tactics** (전술적 평가, "very high weight"), summed:
//!    - *capture* (a): an adjacent enemy group in atari is taken: [`CAPTURE_BASE`] +
//!      [`CAPTURE_PER_STONE`] per stone taken (every distinct group counts);
//!    - *save* (b): an own adjacent group in atari whose liberties the move raises to two or more:
//!      [`SAVE_BASE`] + [`SAVE_PER_STONE`] per stone saved (a move that leaves the group in atari
//!      saves nothing);
//!    - *atari* (c): an adjacent enemy group with exactly two liberties is left with one:
//!      [`ATARI_BASE`] + [`ATARI_PER_STONE`] per stone.
//! 2. **Strategy** (전략적 평가) times the phase multiplier (`phaseMultiplier` from
//!    `stoneCount`: 0-30 opening, high; 31-150 middle game; 151+ endgame, low). The boundaries
//!    are for the seed's 19x19 board; on other sizes they scale with the number of points
//!    (9x9: 0-6, 7-33, 34+), since a 9x9 game never reaches 151 stones. Multipliers
//!    [`PHASE_TENTHS`] = 3.0 / 1.5 / 0.5:
//!    - *corners* (a): in an empty corner, the star point (4-4; 3-3 below 13x13) and the 3-4
//!      points are worth most, other 3rd/4th-line points of the corner less; in a corner held
//!      only by own stones, enclosing (굳힘) at a knight's move or a one/two-space jump from
//!      them on the 3rd/4th line; in a corner held only by the opponent, approaching (걸침) at
//!      the same offsets. A corner is the square of lines 1..=`corner_lines` (6 on 19x19, 4 on
//!      9x9 and 13x13) in one quadrant;
//!    - *side extension* (b): outside corners, the 3rd line (실리선) and the 4th line (세력선),
//!      plus a bonus when an own stone stands 2-4 points away along the same side (an
//!      extension, `getSideExpansionValue`);
//!    - *connectivity* (c, `evaluateConnectivity`): own stones orthogonally and diagonally
//!      adjacent, and one-space jumps, capped.
//! 3. **Shape** (모양), scaled to 3/10 in the opening ("big points first"), full afterwards:
//!    - good (`evaluateGoodPatterns`): 호구 — the original's name says tiger's mouth, its
//!      function name knight's move and its text "one space apart, diagonally connected"; we
//!      reward both the tiger's mouth (the move makes three own stones around an empty point
//!      whose fourth side is not the opponent's) and the knight's move (an own stone a knight's
//!      move away with both points between empty); 쌍립 `checkDoubleWing`, "two stones standing
//!      side by side to extend influence": a two-stone wall parallel to the nearest edge, on
//!      the 3rd line or higher, with the points in front empty; 철주 `checkSolidConnection`,
//!      "a solid connection": the move joins two or more own groups; 눈 만들기
//!      `checkEyeMaking`: an adjacent empty point becomes surrounded by own stones and edge;
//!    - bad (`evaluateBadPatterns`, subtracted): 빈삼각 empty triangle (three own stones in a
//!      2x2 square whose fourth point is empty); 우형 `checkBulkyFive`, bad clumped shape: the
//!      move fills a 2x2 square (dumpling), and a further penalty when five or more own stones
//!      crowd its 3x3 square; 단조로운 연결 `checkHeavyConnection`: three or more own stones
//!      orthogonally adjacent, or two adjacent stones already in one group (a redundant
//!      connection).
//! 4. **Territory** (`evaluateTerritorialValue`, not phase-multiplied; it carries its own
//!    phase logic): location corner > side > centre (1st-line points half); contact with an
//!    enemy stone penalised hard in the opening, mildly in the middle game, not in the
//!    endgame; in the middle game a move 2-3 points from enemy stones without touching them
//!    (견제) gets a bonus; in the endgame an invasion (more enemy than own stones within
//!    Manhattan distance 3, at least two of them) gets a bonus; big points
//!    (`evaluateBigPoints`): an empty corner most, a spacious 3rd/4th-line side point
//!    (`isSpaciousOpeningMove`: no stone within 3 points), and centre points from the middle
//!    game on.
//!
//! Scores are integers so ties are exact; the player breaks them at random.

use crate::rules::go::board::{GoBoard, Point, EMPTY, WALL};
use crate::rules::Color;

/// Capture: base value.
pub const CAPTURE_BASE: i32 = 500;
/// Capture: per stone taken.
pub const CAPTURE_PER_STONE: i32 = 100;
/// Saving an own group from atari: base value.
pub const SAVE_BASE: i32 = 400;
/// Saving: per stone saved.
pub const SAVE_PER_STONE: i32 = 100;
/// Putting an enemy group in atari: base value.
pub const ATARI_BASE: i32 = 150;
/// Atari: per stone of the group.
pub const ATARI_PER_STONE: i32 = 20;

/// Strategy multiplier per phase, in tenths (opening, middle game, endgame).
pub const PHASE_TENTHS: [i32; 3] = [30, 15, 5];
/// Shape weight per phase, in tenths.
pub const SHAPE_TENTHS: [i32; 3] = [3, 10, 10];
/// The seed's phase boundaries on 19x19: stone counts up to 30 are the opening, up to 150 the
/// middle game.
pub const OPENING_STONES_19: usize = 30;
pub const MIDDLE_STONES_19: usize = 150;

const STAR_POINT: i32 = 100;
const THREE_FOUR_POINT: i32 = 90;
const OTHER_EMPTY_CORNER: i32 = 30;
const ENCLOSE: i32 = 70;
const APPROACH: i32 = 70;
const THIRD_LINE: i32 = 40;
const FOURTH_LINE: i32 = 30;
const SIDE_EXTENSION: i32 = 30;
const CONNECT_ORTHO: i32 = 12;
const CONNECT_DIAG: i32 = 8;
const CONNECT_JUMP: i32 = 6;
const CONNECT_CAP: i32 = 40;

const TIGERS_MOUTH: i32 = 25;
const KNIGHTS_MOVE: i32 = 15;
const TWO_STONE_WALL: i32 = 20;
const SOLID_CONNECTION: i32 = 30;
const EYE_MAKING: i32 = 25;
const EMPTY_TRIANGLE: i32 = 25;
const DUMPLING: i32 = 35;
const CLUMP: i32 = 20;
const HEAVY_THREE: i32 = 30;
const REDUNDANT_CONNECTION: i32 = 15;

const LOCATION_CORNER: i32 = 30;
const LOCATION_SIDE: i32 = 20;
const LOCATION_CENTRE: i32 = 10;
const CONTACT_TENTHS: [i32; 3] = [-600, -100, 0];
const PRESSURE: i32 = 15;
const INVASION: i32 = 30;
const BIG_EMPTY_CORNER: i32 = 50;
const BIG_SPACIOUS_SIDE: i32 = 30;
const BIG_CENTRE: i32 = 15;

/// Game phase from the stone count.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    Opening = 0,
    Middle = 1,
    Endgame = 2,
}

/// The phase of a game with `stones` on a board of `points` points: the seed's 19x19
/// boundaries (30, 150) scaled to the board's area.
pub fn phase(stones: usize, points: usize) -> Phase {
    let opening = OPENING_STONES_19 * points / 361;
    let middle = MIDDLE_STONES_19 * points / 361;
    if stones <= opening {
        Phase::Opening
    } else if stones <= middle {
        Phase::Middle
    } else {
        Phase::Endgame
    }
}

/// The score of one move, term by term.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    pub capture: i32,
    pub save: i32,
    pub atari: i32,
    /// Corners, side extension and connectivity, already multiplied by the phase.
    pub strategy: i32,
    /// Good shape, already scaled by the phase's shape weight.
    pub good_shape: i32,
    /// Bad shape (a positive number, subtracted), scaled likewise.
    pub bad_shape: i32,
    pub territory: i32,
}

impl Breakdown {
    /// The sum the player maximises.
    pub fn total(&self) -> i32 {
        self.tactics() + self.strategy + self.good_shape - self.bad_shape + self.territory
    }
    /// Capture + save + atari.
    pub fn tactics(&self) -> i32 {
        self.capture + self.save + self.atari
    }
}

/// What a corner holds, computed once per position.
#[derive(Clone, Copy, Debug, Default)]
struct Corner {
    /// Stones per colour (index 0 black, 1 white) in the corner square.
    count: [u16; 2],
    /// A few of those stones, (x, y), per colour.
    stones: [[(i16, i16); 4]; 2],
}

/// Scores moves for one colour on one position; building it costs one pass over the board.
pub struct BadukScorer<'b> {
    board: &'b GoBoard,
    me: u8,
    opp: u8,
    phase: Phase,
    w: i32,
    h: i32,
    corner_lines: i32,
    star_line: i32,
    corners: [Corner; 4],
}

/// The seed's `getBadukMoveScore`: `None` when the move is refused (occupied, or suicide
/// without capture), otherwise the summed score. `stone_count` decides the phase.
pub fn move_score(board: &GoBoard, p: Point, color: Color, stone_count: usize) -> Option<i32> {
    BadukScorer::with_stone_count(board, color, stone_count)
        .breakdown(p)
        .map(|b| b.total())
}

impl<'b> BadukScorer<'b> {
    /// A scorer for `color` on `board`, phase from the board's stone count.
    pub fn new(board: &'b GoBoard, color: Color) -> BadukScorer<'b> {
        BadukScorer::with_stone_count(board, color, board.stone_count())
    }

    /// A scorer whose phase comes from `stone_count` (the seed's `stoneCount` argument).
    pub fn with_stone_count(
        board: &'b GoBoard,
        color: Color,
        stone_count: usize,
    ) -> BadukScorer<'b> {
        let (w, h) = (board.width() as i32, board.height() as i32);
        let side = w.min(h);
        let mut s = BadukScorer {
            board,
            me: color as u8,
            opp: color.opponent() as u8,
            phase: phase(stone_count, (w * h) as usize),
            w,
            h,
            corner_lines: (side / 3).max(4),
            star_line: if side >= 13 { 4 } else { 3 },
            corners: [Corner::default(); 4],
        };
        for y in 0..h {
            for x in 0..w {
                let v = s.at(x, y);
                if v == EMPTY {
                    continue;
                }
                if let Some(k) = s.corner_of(x, y) {
                    let c = &mut s.corners[k];
                    let i = (v - 1) as usize;
                    let n = c.count[i] as usize;
                    if n < 4 {
                        c.stones[i][n] = (x as i16, y as i16);
                    }
                    c.count[i] += 1;
                }
            }
        }
        s
    }

    /// The phase the scorer works in.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The summed score of playing `p`, or `None` when refused.
    #[inline]
    pub fn score(&self, p: Point) -> Option<i32> {
        self.breakdown(p).map(|b| b.total())
    }

    /// Every term of the score of playing `p`, or `None` when refused.
    pub fn breakdown(&self, p: Point) -> Option<Breakdown> {
        let b = self.board;
        if !b.is_empty(p) {
            return None;
        }
        let pi = p.idx();
        // 0. Suicide is refused unless it captures (is_suicide already counts captures).
        if b.is_suicide(pi, self.me) {
            return None;
        }
        let (x, y) = b.xy(p);
        let (x, y) = (x as i32, y as i32);
        let mut out = Breakdown::default();
        self.tactics(pi, &mut out);
        let ph = self.phase as usize;
        let strategy = self.corner_value(x, y) + self.side_value(x, y) + self.connectivity(x, y);
        out.strategy = strategy * PHASE_TENTHS[ph] / 10;
        out.good_shape = self.good_shape(pi, x, y) * SHAPE_TENTHS[ph] / 10;
        out.bad_shape = self.bad_shape(pi, x, y) * SHAPE_TENTHS[ph] / 10;
        out.territory = self.territory(x, y);
        Some(out)
    }

    // ---- geometry -------------------------------------------------------------------------

    /// The cell at (x, y), WALL off the board.
    #[inline]
    fn at(&self, x: i32, y: i32) -> u8 {
        match self.board.point(x as usize, y as usize) {
            Some(p) if x >= 0 && y >= 0 => self.board.cell(p.idx()),
            _ => WALL,
        }
    }

    /// Line number (1 = edge) of a coordinate along an axis of length `n`.
    #[inline]
    fn line(c: i32, n: i32) -> i32 {
        c.min(n - 1 - c) + 1
    }

    /// Distance to the nearest edge, as a line number.
    #[inline]
    fn min_line(&self, x: i32, y: i32) -> i32 {
        Self::line(x, self.w).min(Self::line(y, self.h))
    }

    /// Which corner square (0..4) holds (x, y), if any.
    fn corner_of(&self, x: i32, y: i32) -> Option<usize> {
        let (lx, ly) = (Self::line(x, self.w), Self::line(y, self.h));
        if lx > self.corner_lines || ly > self.corner_lines {
            return None;
        }
        let qx = if 2 * x + 1 < self.w {
            0
        } else if 2 * x + 1 > self.w {
            1
        } else {
            return None;
        };
        let qy = if 2 * y + 1 < self.h {
            0
        } else if 2 * y + 1 > self.h {
            2
        } else {
            return None;
        };
        Some(qx + qy)
    }

    // ---- 1. tactics -------------------------------------------------------------------------

    fn tactics(&self, p: usize, out: &mut Breakdown) {
        let b = self.board;
        let mut seen = [0usize; 4];
        let mut n_seen = 0;
        let mut own_in_atari = 0;
        for n in b.neighbors(p) {
            let v = b.cell(n);
            if v != self.me && v != self.opp {
                continue;
            }
            let h = b.head(n);
            if seen[..n_seen].contains(&h) {
                continue;
            }
            seen[n_seen] = h;
            n_seen += 1;
            let size = b.group_size(h) as i32;
            if v == self.opp {
                if b.in_atari(h) {
                    out.capture += CAPTURE_BASE + CAPTURE_PER_STONE * size;
                } else if b.count_liberties(h, 3) == 2 {
                    out.atari += ATARI_BASE + ATARI_PER_STONE * size;
                }
            } else if b.in_atari(h) {
                own_in_atari += size;
            }
        }
        if own_in_atari > 0 && b.liberties_after(p, self.me, 2) >= 2 {
            out.save = SAVE_BASE + SAVE_PER_STONE * own_in_atari;
        }
    }

    // ---- 2. strategy ------------------------------------------------------------------------

    fn corner_value(&self, x: i32, y: i32) -> i32 {
        let Some(k) = self.corner_of(x, y) else {
            return 0;
        };
        let c = &self.corners[k];
        let (lx, ly) = (Self::line(x, self.w), Self::line(y, self.h));
        let mine = c.count[(self.me - 1) as usize];
        let theirs = c.count[(self.opp - 1) as usize];
        let third_or_fourth = (3..=4).contains(&lx.min(ly)) && lx.max(ly) <= self.corner_lines;
        if mine == 0 && theirs == 0 {
            let s = self.star_line;
            if lx == s && ly == s {
                STAR_POINT
            } else if (lx, ly) == (3, 4) || (lx, ly) == (4, 3) {
                THREE_FOUR_POINT
            } else if third_or_fourth {
                OTHER_EMPTY_CORNER
            } else {
                0
            }
        } else if !third_or_fourth {
            0
        } else if theirs == 0 && mine <= 2 {
            if self.corner_offset_from(c, self.me, x, y) {
                ENCLOSE
            } else {
                0
            }
        } else if mine == 0 && theirs <= 2 {
            if self.corner_offset_from(c, self.opp, x, y) {
                APPROACH
            } else {
                0
            }
        } else {
            0
        }
    }

    /// Whether (x, y) is a knight's move or a one/two-space jump from a `color` stone of the
    /// corner.
    fn corner_offset_from(&self, c: &Corner, color: u8, x: i32, y: i32) -> bool {
        let i = (color - 1) as usize;
        let n = (c.count[i] as usize).min(4);
        c.stones[i][..n].iter().any(|&(sx, sy)| {
            let (dx, dy) = ((x - sx as i32).abs(), (y - sy as i32).abs());
            let (a, b) = (dx.min(dy), dx.max(dy));
            matches!((a, b), (1, 2) | (0, 2) | (0, 3))
        })
    }

    fn side_value(&self, x: i32, y: i32) -> i32 {
        if self.corner_of(x, y).is_some() {
            return 0;
        }
        let line = self.min_line(x, y);
        let base = match line {
            3 => THIRD_LINE,
            4 => FOURTH_LINE,
            _ => return 0,
        };
        // Along the nearest edge: if the x edge is nearer, the side runs along y.
        let along_y = Self::line(x, self.w) <= Self::line(y, self.h);
        let mut ext = 0;
        'search: for d in 2..=4 {
            for sign in [-1, 1] {
                for off in -1..=1 {
                    let (sx, sy) = if along_y {
                        (x + off, y + sign * d)
                    } else {
                        (x + sign * d, y + off)
                    };
                    if self.at(sx, sy) == self.me {
                        ext = SIDE_EXTENSION;
                        break 'search;
                    }
                }
            }
        }
        base + ext
    }

    fn connectivity(&self, x: i32, y: i32) -> i32 {
        let mut s = 0;
        for (dx, dy) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
            if self.at(x + dx, y + dy) == self.me {
                s += CONNECT_ORTHO;
            } else if self.at(x + dx, y + dy) == EMPTY && self.at(x + 2 * dx, y + 2 * dy) == self.me
            {
                s += CONNECT_JUMP;
            }
        }
        for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            if self.at(x + dx, y + dy) == self.me {
                s += CONNECT_DIAG;
            }
        }
        s.min(CONNECT_CAP)
    }

    // ---- 3. shape ---------------------------------------------------------------------------

    fn good_shape(&self, p: usize, x: i32, y: i32) -> i32 {
        let b = self.board;
        let me = self.me;
        let mut s = 0;
        // Tiger's mouth and eye-making look at the empty neighbours of the move.
        let mut tiger = false;
        let mut eyes = 0;
        for (dx, dy) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
            let (ex, ey) = (x + dx, y + dy);
            if self.at(ex, ey) != EMPTY {
                continue;
            }
            let (mut own, mut enemy, mut wall) = (0, 0, 0);
            for (fx, fy) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                let (nx, ny) = (ex + fx, ey + fy);
                if (nx, ny) == (x, y) {
                    own += 1;
                    continue;
                }
                match self.at(nx, ny) {
                    WALL => wall += 1,
                    v if v == me => own += 1,
                    v if v == self.opp => enemy += 1,
                    _ => {}
                }
            }
            if own + wall == 4 {
                eyes += 1;
            } else if own == 3 && enemy == 0 {
                tiger = true;
            }
        }
        if tiger {
            s += TIGERS_MOUTH;
        }
        s += EYE_MAKING * eyes.min(2);
        let mut knights = 0;
        for (dx, dy) in [
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ] {
            if self.at(x + dx, y + dy) != me {
                continue;
            }
            // The two points between: one step along the long axis, then the diagonal.
            let (ax, ay) = if dx.abs() == 2 {
                (dx / 2, 0)
            } else {
                (0, dy / 2)
            };
            if self.at(x + ax, y + ay) == EMPTY && self.at(x + dx - ax, y + dy - ay) == EMPTY {
                knights += 1;
            }
        }
        s += KNIGHTS_MOVE * knights.min(2);
        if self.two_stone_wall(x, y) {
            s += TWO_STONE_WALL;
        }
        // Solid connection: two or more different own groups touch the move.
        let mut heads = [0usize; 4];
        let mut n = 0;
        for q in b.neighbors(p) {
            if b.cell(q) == me {
                let h = b.head(q);
                if !heads[..n].contains(&h) {
                    heads[n] = h;
                    n += 1;
                }
            }
        }
        if n >= 2 {
            s += SOLID_CONNECTION;
        }
        s
    }

    /// An own stone beside the move, parallel to the nearest edge, both on the 3rd line or
    /// above, with the two points in front (towards the centre) empty.
    fn two_stone_wall(&self, x: i32, y: i32) -> bool {
        let (lx, ly) = (Self::line(x, self.w), Self::line(y, self.h));
        if lx.min(ly) < 3 {
            return false;
        }
        // The nearest edge decides the wall's direction and the front.
        let (along, front) = if lx <= ly {
            ((0, 1), (if 2 * x < self.w { 1 } else { -1 }, 0))
        } else {
            ((1, 0), (0, if 2 * y < self.h { 1 } else { -1 }))
        };
        [1, -1].into_iter().any(|sign| {
            let (fx, fy) = (x + sign * along.0, y + sign * along.1);
            self.at(fx, fy) == self.me
                && self.min_line(fx, fy) >= 3
                && self.at(x + front.0, y + front.1) == EMPTY
                && self.at(fx + front.0, fy + front.1) == EMPTY
        })
    }

    fn bad_shape(&self, p: usize, x: i32, y: i32) -> i32 {
        let b = self.board;
        let me = self.me;
        let mut s = 0;
        for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let others = [
                self.at(x + dx, y),
                self.at(x, y + dy),
                self.at(x + dx, y + dy),
            ];
            let own = others.iter().filter(|&&v| v == me).count();
            let empty = others.iter().filter(|&&v| v == EMPTY).count();
            if own == 3 {
                s += DUMPLING;
            } else if own == 2 && empty == 1 {
                s += EMPTY_TRIANGLE;
            }
        }
        let mut crowd = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) != (0, 0) && self.at(x + dx, y + dy) == me {
                    crowd += 1;
                }
            }
        }
        if crowd + 1 >= 5 {
            s += CLUMP;
        }
        let mut ortho = 0;
        let mut heads = [0usize; 4];
        let mut redundant = false;
        for q in b.neighbors(p) {
            if b.cell(q) == me {
                let h = b.head(q);
                if heads[..ortho].contains(&h) {
                    redundant = true;
                }
                heads[ortho] = h;
                ortho += 1;
            }
        }
        if ortho >= 3 {
            s += HEAVY_THREE;
        } else if redundant {
            s += REDUNDANT_CONNECTION;
        }
        s
    }

    // ---- 4. territory -----------------------------------------------------------------------

    fn territory(&self, x: i32, y: i32) -> i32 {
        let line = self.min_line(x, y);
        let in_corner = self.corner_of(x, y).is_some();
        let mut s = if in_corner {
            LOCATION_CORNER
        } else if line <= 4 {
            LOCATION_SIDE
        } else {
            LOCATION_CENTRE
        };
        if line == 1 {
            s /= 2;
        }
        let contact = [(0, 1), (1, 0), (0, -1), (-1, 0)]
            .iter()
            .any(|&(dx, dy)| self.at(x + dx, y + dy) == self.opp);
        let ph = self.phase as usize;
        if contact {
            s += CONTACT_TENTHS[ph] / 10;
        }
        // Stones around, for pressure, invasion and spaciousness.
        let (mut near_enemy, mut near_any, mut own3, mut enemy3) = (false, false, 0, 0);
        for dy in -3i32..=3 {
            for dx in -3i32..=3 {
                let v = self.at(x + dx, y + dy);
                if v != self.me && v != self.opp {
                    continue;
                }
                near_any = true;
                let cheb = dx.abs().max(dy.abs());
                if v == self.opp && (2..=3).contains(&cheb) {
                    near_enemy = true;
                }
                if dx.abs() + dy.abs() <= 3 {
                    if v == self.me {
                        own3 += 1;
                    } else {
                        enemy3 += 1;
                    }
                }
            }
        }
        match self.phase {
            Phase::Opening => {}
            Phase::Middle => {
                if near_enemy && !contact {
                    s += PRESSURE;
                }
            }
            Phase::Endgame => {
                if enemy3 >= 2 && enemy3 > own3 {
                    s += INVASION;
                }
            }
        }
        // Big points.
        if let Some(k) = self.corner_of(x, y) {
            if self.corners[k].count == [0, 0] {
                s += BIG_EMPTY_CORNER;
            }
        } else if (3..=4).contains(&line) && !near_any {
            s += BIG_SPACIOUS_SIDE;
        } else if line >= 5 && self.phase != Phase::Opening {
            s += BIG_CENTRE;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::{parse_point, GoGame, GoRules};

    fn pt(b: &GoBoard, s: &str) -> Point {
        parse_point(b, s).unwrap()
    }

    /// A board with set-up stones: `black` and `white` are space-separated vertices.
    fn board(size: usize, black: &str, white: &str) -> GoBoard {
        let mut g = GoGame::new(size, size, GoRules::default()).unwrap();
        let mut stones = Vec::new();
        for s in black.split_whitespace() {
            stones.push((pt(g.board(), s), Color::Black));
        }
        for s in white.split_whitespace() {
            stones.push((pt(g.board(), s), Color::White));
        }
        g.place_setup(&stones).unwrap();
        g.board().clone()
    }

    fn bd(b: &GoBoard, c: Color, s: &str) -> Breakdown {
        BadukScorer::new(b, c).breakdown(pt(b, s)).unwrap()
    }

    #[test]
    fn phases_follow_the_seed_on_19x19_and_scale_elsewhere() {
        assert_eq!(phase(0, 361), Phase::Opening);
        assert_eq!(phase(30, 361), Phase::Opening);
        assert_eq!(phase(31, 361), Phase::Middle);
        assert_eq!(phase(150, 361), Phase::Middle);
        assert_eq!(phase(151, 361), Phase::Endgame);
        assert_eq!(phase(6, 81), Phase::Opening);
        assert_eq!(phase(7, 81), Phase::Middle);
        assert_eq!(phase(33, 81), Phase::Middle);
        assert_eq!(phase(34, 81), Phase::Endgame);
    }

    #[test]
    fn suicide_is_refused_unless_it_captures() {
        // White A1 would be suicide among black A2 B1.
        let b = board(9, "A2 B1", "");
        assert_eq!(move_score(&b, pt(&b, "A1"), Color::White, 2), None);
        assert!(move_score(&b, pt(&b, "A1"), Color::Black, 2).is_some());
        // Occupied points are refused too.
        assert_eq!(move_score(&b, pt(&b, "A2"), Color::White, 2), None);
        // A "suicide" that captures is allowed: black A1 takes white B1 (white B1 in atari).
        let b = board(9, "C1 B2", "B1 A2 A3");
        // White A2 A3 have liberties; B1 white: neighbours A1, C1 black, B2 black -> atari.
        let s = bd(&b, Color::Black, "A1");
        assert_eq!(s.capture, CAPTURE_BASE + CAPTURE_PER_STONE);
    }

    #[test]
    fn capture_scales_with_the_stones_taken() {
        let one = board(9, "D4 F4 E3", "E4");
        let two = board(9, "D4 D5 F4 F5 E3", "E4 E5");
        let c1 = bd(&one, Color::Black, "E5").capture;
        let c2 = bd(&two, Color::Black, "E6").capture;
        assert_eq!(c1, CAPTURE_BASE + CAPTURE_PER_STONE);
        assert_eq!(c2, CAPTURE_BASE + 2 * CAPTURE_PER_STONE);
        assert!(c2 > c1);
    }

    #[test]
    fn saving_own_group_in_atari() {
        // Black E4 in atari (white D4 F4 E3); E5 extends to three liberties.
        let b = board(9, "E4", "D4 F4 E3");
        let s = bd(&b, Color::Black, "E5");
        assert_eq!(s.save, SAVE_BASE + SAVE_PER_STONE);
        // Extending into a dead end saves nothing: black A2 in atari (white A3 B2); A1 leaves
        // the pair with the single liberty B1.
        let b = board(9, "A2", "A3 B2");
        assert_eq!(bd(&b, Color::Black, "A1").save, 0);
    }

    #[test]
    fn atari_on_a_two_liberty_group() {
        let b = board(9, "D4 F4", "E4");
        // White E4 has liberties E5 E3: black E3 puts it in atari.
        let s = bd(&b, Color::Black, "E3");
        assert_eq!(s.atari, ATARI_BASE + ATARI_PER_STONE);
        // Three liberties: no atari.
        let b = board(9, "D4", "E4");
        assert_eq!(bd(&b, Color::Black, "E3").atari, 0);
    }

    #[test]
    fn empty_corners_star_and_three_four_points_first() {
        let b = board(19, "", "");
        let star = bd(&b, Color::Black, "D16");
        let komoku = bd(&b, Color::Black, "C16");
        let other = bd(&b, Color::Black, "C15");
        let centre = bd(&b, Color::Black, "K10");
        assert_eq!(star.strategy, STAR_POINT * PHASE_TENTHS[0] / 10);
        assert_eq!(komoku.strategy, THREE_FOUR_POINT * PHASE_TENTHS[0] / 10);
        assert!(star.total() > komoku.total());
        assert!(komoku.total() > other.total());
        assert!(other.total() > centre.total());
        // On 9x9 the star point is the 3-3 point.
        let b9 = board(9, "", "");
        assert_eq!(
            bd(&b9, Color::Black, "C3").strategy,
            STAR_POINT * PHASE_TENTHS[0] / 10
        );
    }

    #[test]
    fn enclosure_and_approach() {
        // Black holds the lower-left corner with D4 (19x19 star point).
        let b = board(19, "D4", "");
        // Black: enclosing at a knight's move (C6? that is lines 3 and 6): use F3 (lines 6, 3).
        assert_eq!(
            bd(&b, Color::Black, "F3").strategy,
            ENCLOSE * PHASE_TENTHS[0] / 10
        );
        // White: approaching at the same point.
        assert_eq!(
            bd(&b, Color::White, "F3").strategy,
            APPROACH * PHASE_TENTHS[0] / 10
        );
        // A point of that corner that is no such offset gets no corner value.
        assert_eq!(bd(&b, Color::White, "E5").strategy, 0);
    }

    #[test]
    fn third_and_fourth_line_extension() {
        let b = board(19, "D4 D16", "");
        let third = bd(&b, Color::Black, "C10");
        let fourth = bd(&b, Color::Black, "D10");
        let fifth = bd(&b, Color::Black, "E10");
        assert_eq!(third.strategy, THIRD_LINE * PHASE_TENTHS[0] / 10);
        assert_eq!(fourth.strategy, FOURTH_LINE * PHASE_TENTHS[0] / 10);
        assert_eq!(fifth.strategy, 0);
        // An own stone 3 points along the side adds the extension bonus.
        let b = board(19, "C7", "");
        assert_eq!(
            bd(&b, Color::Black, "C10").strategy,
            (THIRD_LINE + SIDE_EXTENSION) * PHASE_TENTHS[0] / 10
        );
    }

    #[test]
    fn connectivity_counts_neighbours_and_is_capped() {
        // 13x13 middle game (15+ stones, multiplier 1.5), centre points (no side value), the
        // filler on the top edge.
        let fill = "A13 B13 C13 D13 E13 F13 G13 H13 J13 K13 L13 M13 N13 A12 N12";
        let b = board(13, &format!("G7 {fill}"), "");
        assert_eq!(BadukScorer::new(&b, Color::Black).phase(), Phase::Middle);
        let strat = |b: &GoBoard, s: &str| bd(b, Color::Black, s).strategy;
        assert_eq!(strat(&b, "G6"), CONNECT_ORTHO * PHASE_TENTHS[1] / 10);
        assert_eq!(strat(&b, "H6"), CONNECT_DIAG * PHASE_TENTHS[1] / 10);
        assert_eq!(strat(&b, "G5"), CONNECT_JUMP * PHASE_TENTHS[1] / 10);
        let crowded = board(13, &format!("F6 F7 F8 G8 H8 H7 H6 {fill}"), "");
        assert_eq!(strat(&crowded, "G7"), CONNECT_CAP * PHASE_TENTHS[1] / 10);
    }

    /// Middle-game boards (>= 7 stones on 9x9) give shape its full weight; filler stones sit
    /// on the top edge, away from the tested spot.
    const FILL: &str = "A9 C9 E9 G9 J9 A7 J7";

    #[test]
    fn good_shapes() {
        // Tiger's mouth: black D4 E5, the move F4 makes three stones around E4.
        let b = board(9, &format!("D4 E5 {FILL}"), "");
        let s = bd(&b, Color::Black, "F4");
        assert!(s.good_shape >= TIGERS_MOUTH, "{s:?}");
        // Knight's move from D4 to E6 with D5 E5 empty.
        let b = board(9, &format!("D4 {FILL}"), "");
        assert_eq!(bd(&b, Color::Black, "E6").good_shape, KNIGHTS_MOVE);
        // Solid connection: D4 and F4 joined by E4.
        let b = board(9, &format!("D4 F4 {FILL}"), "");
        assert!(bd(&b, Color::Black, "E4").good_shape >= SOLID_CONNECTION);
        // Eye-making: black B1 A2... the move B2? Make A1 an eye: black A2, the move B1.
        let b = board(9, &format!("A2 {FILL}"), "");
        assert!(bd(&b, Color::Black, "B1").good_shape >= EYE_MAKING);
        // Two-stone wall on the 3rd line, front empty: black C5, move C4 (edge on the left).
        let b = board(9, &format!("C5 {FILL}"), "");
        assert!(bd(&b, Color::Black, "C4").good_shape >= TWO_STONE_WALL);
        // In the opening, shape counts 3/10.
        let b = board(19, "D4", "");
        assert_eq!(
            bd(&b, Color::Black, "E6").good_shape,
            KNIGHTS_MOVE * SHAPE_TENTHS[0] / 10
        );
    }

    #[test]
    fn bad_shapes() {
        // Empty triangle: D4 E4, the move D5 with E5 empty.
        let b = board(9, &format!("D4 E4 {FILL}"), "");
        assert_eq!(bd(&b, Color::Black, "D5").bad_shape, EMPTY_TRIANGLE);
        // Dumpling: D4 E4 D5, the move E5 fills the square (and joins three of one group).
        let b = board(9, &format!("D4 E4 D5 {FILL}"), "");
        let s = bd(&b, Color::Black, "E5");
        assert!(s.bad_shape >= DUMPLING + REDUNDANT_CONNECTION, "{s:?}");
        // Heavy: three own stones orthogonally adjacent.
        let b = board(9, &format!("D5 F5 E6 {FILL}"), "");
        assert!(bd(&b, Color::Black, "E5").bad_shape >= HEAVY_THREE);
        // No bad shape in open space.
        let b = board(9, FILL, "");
        assert_eq!(bd(&b, Color::Black, "E4").bad_shape, 0);
    }

    #[test]
    fn territory_prefers_corner_then_side_then_centre() {
        // Each tested point has a stone two points away (no big-point bonus, no contact).
        let b = board(19, "D4 Q4 D16 Q16 E10 L10", "");
        let corner = bd(&b, Color::White, "C3").territory;
        let side = bd(&b, Color::White, "C10").territory;
        let centre = bd(&b, Color::White, "J10").territory;
        assert_eq!(
            (corner, side, centre),
            (LOCATION_CORNER, LOCATION_SIDE, LOCATION_CENTRE)
        );
        // Big points: an empty corner and a spacious side point add their bonus.
        let empty = board(19, "", "");
        assert_eq!(
            bd(&empty, Color::White, "C3").territory,
            LOCATION_CORNER + BIG_EMPTY_CORNER
        );
        assert_eq!(
            bd(&empty, Color::White, "C10").territory,
            LOCATION_SIDE + BIG_SPACIOUS_SIDE
        );
    }

    #[test]
    fn contact_penalised_early_invasion_rewarded_late() {
        let early = board(19, "K10", "");
        let touch = bd(&early, Color::White, "K11").territory;
        let apart = bd(&early, Color::White, "K13").territory;
        assert_eq!(touch, apart + CONTACT_TENTHS[0] / 10);
        // Middle game: 2-3 points from an enemy stone without contact is pressure.
        let fill = "A19 C19 E19 G19 J19 L19 N19 O19 Q19 S19 A17 C17 E17 G17 J17 L17 \
                    N17 O17 Q17 S17 A1 C1 E1 G1 J1 L1 N1 O1 Q1 S1";
        let middle = board(19, &format!("K10 {fill}"), "");
        assert_eq!(
            BadukScorer::new(&middle, Color::White).phase(),
            Phase::Middle
        );
        let near = bd(&middle, Color::White, "K12").territory;
        let far = bd(&middle, Color::White, "F10").territory;
        assert_eq!(near, far + PRESSURE);
        // Endgame on 9x9 (34+ stones): black rows 1-2, white rows 8-9. White E3 invades
        // (black stones dominate around it); white E6 sits by its own stones.
        let black: String = "ABCDEFGHJ".chars().map(|c| format!("{c}1 {c}2 ")).collect();
        let white: String = "ABCDEFGHJ".chars().map(|c| format!("{c}8 {c}9 ")).collect();
        let late = board(9, &black, &white);
        assert_eq!(
            BadukScorer::new(&late, Color::White).phase(),
            Phase::Endgame
        );
        let inv = bd(&late, Color::White, "E3").territory;
        let home = bd(&late, Color::White, "E6").territory;
        assert_eq!((inv, home), (LOCATION_SIDE + INVASION, LOCATION_SIDE));
    }

    #[test]
    fn tactics_outweigh_opening_strategy_for_captures() {
        // A capture beats the best empty-corner move in the opening.
        let b = board(19, "D4 F4 E3", "E4");
        let cap = bd(&b, Color::Black, "E5").total();
        let corner = bd(&b, Color::Black, "Q16").total();
        assert!(cap > corner, "{cap} {corner}");
        // In the opening an empty corner beats a plain atari; in the endgame strategy is small.
        let b = board(19, "D4 F4", "E4");
        let atari = bd(&b, Color::Black, "E3").total();
        let corner = bd(&b, Color::Black, "Q16").total();
        assert!(corner > atari, "{corner} {atari}");
    }
}
