//! The gamma playout policy (heavier than [`super::playout`]'s light one; the tree search uses
//! it with [`super::mcts_config::MctsConfig::gamma_playouts`]): moves near the last two are
//! drawn with probability proportional to a cheap subset of the learned move gammas
//! ([`crate::eval::go_gammas`]), as CrazyStone and Erica draw their playout moves, and the rest
//! of the board is one more candidate, weighed as that many ordinary far moves.
//!
//! Policy for the side to move:
//! 1. capture and atari escape around the last stone, as the light policy does (those tactics
//!    are near certain; a draw would sometimes miss them);
//! 2. otherwise each empty point among the eight neighbours of the last stone and of the one
//!    before it (the mover's own previous stone) that is legal and not an own eye gets the
//!    strength `pat3 x last x prev x capture x escape x atari x self_atari` of Coulom's
//!    features ([`crate::eval::go_features`]), with the ladder reading left out (an escape
//!    to two liberties counts as one no ladder takes; an atari as one that does not catch), and
//!    the empty points not looked at get, together, their number times the strength of a far
//!    move in the open (empty 3x3, farthest from both moves, no tactics);
//! 3. one of them is drawn by strength; the rest of the board means the light policy's random
//!    stage (legal, no own eye, no self-atari of two or more stones; no such point: pass).
//!
//! Cost, kept low: the 3x3 gamma is one lookup in a 64 K table of the neighbourhood code
//! ([`crate::rules::go::nbr3`]) when no stone around is in atari (a canonical pattern
//! and a hash lookup otherwise); a point with four empty orthogonal neighbours has no tactics
//! to read; the liberty walks run only for points touching stones. Nothing is allocated.

use std::sync::OnceLock;

use crate::eval::go_features::{
    canonical_pat3, coulom_distance, neighbour_groups, NeighbourGroups, PAT3_CODES,
};
use crate::eval::go_gammas::{embedded, Gammas};
use crate::rules::go::board::{GoBoard, BLACK, EMPTY, WHITE};
use crate::rules::go::nbr3::{self, slots_holding, Slots};
use crate::rules::Color;
use crate::search::playout::{random_move, respond_to_last, Policy, Rng};

/// Feature groups of [`crate::eval::go_features::GROUPS`] this policy reads.
const LAST: usize = 1;
const PREV: usize = 2;
const CAPTURE: usize = 3;
const ESCAPE: usize = 4;
const ATARI: usize = 5;
const SELF_ATARI: usize = 6;

/// Most candidates: the eight neighbours of two points.
const MAX_CANDIDATES: usize = 16;

/// The gammas the policy reads, laid out for it.
pub struct GammaTable {
    /// The 3x3 gamma of each neighbourhood code for black to move, no stone around in atari
    /// (white reads the colour-swapped code).
    pat: Vec<f32>,
    /// `last` and `prev` gammas by distance level (0..=17).
    last: [f32; 18],
    prev: [f32; 18],
    capture: [f32; 7],
    escape: [f32; 4],
    atari: [f32; 3],
    self_atari: [f32; 3],
    /// The strength of a far move in the open (see the module doc).
    far: f32,
    /// The whole table, for 3x3 shapes with a stone in atari.
    gammas: Gammas,
}

/// A pat3 cell value (see [`crate::eval::go_features`]) of a board cell for black to move.
fn cell_for_black(v: u8) -> u8 {
    match v {
        EMPTY => 0,
        BLACK => 1,
        WHITE => 3,
        _ => 5,
    }
}

/// `code` with black and white exchanged (a wall stays a wall): pairs `01` and `10` flip.
#[inline(always)]
fn swap_colors(code: u16) -> u16 {
    code ^ (((code ^ (code >> 1)) & 0x5555) * 3)
}

impl GammaTable {
    /// The table of `gammas`.
    pub fn new(gammas: &Gammas) -> GammaTable {
        let pat = (0..nbr3::CODES)
            .map(|code| {
                let cells = std::array::from_fn(|k| cell_for_black(nbr3::slot(code as u16, k)));
                gammas.gamma(0, canonical_pat3(cells))
            })
            .collect();
        let group = |g: usize| move |l: usize| gammas.gamma(g, l as u32);
        let last = std::array::from_fn(group(LAST));
        let prev = std::array::from_fn(group(PREV));
        let capture = std::array::from_fn(group(CAPTURE));
        let escape = std::array::from_fn(group(ESCAPE));
        let atari = std::array::from_fn(group(ATARI));
        let self_atari: [f32; 3] = std::array::from_fn(group(SELF_ATARI));
        let far = last[17]
            * prev[17]
            * gammas.gamma(0, canonical_pat3([0; 8]))
            * capture[0]
            * escape[0]
            * atari[0]
            * self_atari[0];
        GammaTable {
            pat,
            last,
            prev,
            capture,
            escape,
            atari,
            self_atari,
            far,
            gammas: gammas.clone(),
        }
    }

    /// The embedded gammas' table, built once (all gammas 1 if the embedded file were refused).
    pub fn embedded() -> &'static GammaTable {
        static TABLE: OnceLock<GammaTable> = OnceLock::new();
        TABLE.get_or_init(|| GammaTable::new(embedded().unwrap_or(&Gammas::neutral())))
    }

    /// The 3x3 gamma of empty `p` for `me`, atari marks included.
    #[inline]
    pub fn pat_gamma(&self, board: &GoBoard, p: usize, me: u8) -> f32 {
        let code = board.nbr3(p);
        let stones = slots_holding(code, BLACK) | slots_holding(code, WHITE);
        let mut atari = 0u8;
        for k in Slots(stones) {
            let n = board.slot_neighbor(p, k);
            atari |= u8::from(board.in_atari(board.head(n))) << k;
        }
        if atari == 0 {
            let key = if me == BLACK { code } else { swap_colors(code) };
            return self.pat[key as usize];
        }
        // Rare: a stone around is in atari, which the 64 K table does not tell.
        let cells = std::array::from_fn(|k| {
            let v = nbr3::slot(code, k);
            match v {
                EMPTY => 0,
                3 => 5,
                _ => (if v == me { 1 } else { 3 }) + ((atari >> k) & 1),
            }
        });
        let c = canonical_pat3(cells);
        debug_assert!(c < PAT3_CODES);
        self.gammas.gamma(0, c)
    }

    /// The capture, escape, atari and self-atari gammas of empty, legal `p` for `me`, with
    /// their levels (for the tests).
    #[inline]
    fn tactics(&self, board: &GoBoard, p: usize, me: u8) -> (f32, [u8; 4]) {
        let code = board.nbr3(p);
        let t = board.nbr3_table();
        let plain = self.capture[0] * self.escape[0] * self.atari[0] * self.self_atari[0];
        if t.empty_orth(code) == 4 {
            return (plain, [0; 4]);
        }
        let groups = neighbour_groups(board, p, me);
        let NeighbourGroups {
            captured,
            runs,
            ataris,
            ..
        } = groups;
        let capture = groups.capture_level();
        let escape = if !runs {
            0
        } else {
            match board.liberties_after(p, me, 3) {
                3.. => 1,
                2 => 2,
                _ => 3,
            }
        };
        let atari = u8::from(ataris);
        let self_atari = if captured == 0 && board.liberties_after(p, me, 2) <= 1 {
            if t.touches(code, me) {
                2
            } else {
                1
            }
        } else {
            0
        };
        let levels = [capture as u8, escape, atari, self_atari];
        let g = self.capture[capture]
            * self.escape[escape as usize]
            * self.atari[atari as usize]
            * self.self_atari[self_atari as usize];
        (g, levels)
    }
}

/// The gamma playout policy ([`Policy`]) over a table.
#[derive(Clone, Copy)]
pub struct GammaPolicy {
    table: &'static GammaTable,
    /// Factor on the strength of the rest of the board (1: the gammas' own weight).
    rest_scale: f32,
}

impl GammaPolicy {
    /// The policy of the embedded gammas.
    pub fn embedded() -> GammaPolicy {
        GammaPolicy::with_rest(1.0)
    }

    /// The policy of the embedded gammas, the rest of the board weighed `rest_scale` times
    /// its gammas' weight (0: a local candidate whenever there is one, as the light policy's
    /// shape stage; more: more random moves).
    pub fn with_rest(rest_scale: f32) -> GammaPolicy {
        GammaPolicy {
            table: GammaTable::embedded(),
            rest_scale,
        }
    }

    /// The local candidates of `c` and their strengths, and the strength of the rest of the
    /// board: stage 2 of the module doc. Returns the number of candidates written.
    #[inline]
    fn candidates(
        &self,
        board: &GoBoard,
        me: u8,
        pts: &mut [u16; MAX_CANDIDATES],
        w: &mut [f32; MAX_CANDIDATES],
    ) -> (usize, f32) {
        let t = self.table;
        let nt = board.nbr3_table();
        let stride = board.stride();
        // Padded coordinates of the last two moves, found once: a candidate's are its
        // centre's plus a slot offset, which spares two divisions per distance.
        let at = |p: usize| (p != 0).then(|| ((p % stride) as isize, (p / stride) as isize));
        let last = at(board.last_move().map_or(0, |(p, _)| p.idx()));
        let prev = at(board.move_before_last().map_or(0, |p| p.idx()));
        let level = |q: (isize, isize), c: Option<(isize, isize)>| {
            c.map_or(0, |c| coulom_distance(q.0.abs_diff(c.0), q.1.abs_diff(c.1)))
        };
        let mut n = 0;
        let mut looked = 0;
        for (i, centre) in [last, prev].into_iter().enumerate() {
            let Some((cx, cy)) = centre else { continue };
            let c = (cy * stride as isize + cx) as usize;
            for k in Slots(slots_holding(board.nbr3(c), EMPTY)) {
                let (dx, dy) = nbr3::SLOTS[k];
                let xy = (cx + isize::from(dx), cy + isize::from(dy));
                let d_last = level(xy, last);
                // Around the move before last, the last move's neighbours are done.
                if i == 1 && last.is_some() && d_last <= 3 {
                    continue;
                }
                looked += 1;
                let q = board.slot_neighbor(c, k);
                let code = board.nbr3(q);
                if nt.empty_orth(code) == 0 && (nt.is_eye(code, me) || !board.legal_empty(q, me)) {
                    continue;
                }
                pts[n] = q as u16;
                w[n] = t.pat_gamma(board, q, me)
                    * t.tactics(board, q, me).0
                    * t.last[d_last]
                    * t.prev[level(xy, prev)];
                n += 1;
            }
        }
        let rest = board.empty_points().len().saturating_sub(looked) as f32 * t.far;
        (n, rest * self.rest_scale)
    }
}

impl Policy for GammaPolicy {
    #[inline]
    fn choose(&self, board: &GoBoard, c: Color, rng: &mut Rng) -> Option<usize> {
        let me = c as u8;
        if let Some((last, _)) = board.last_move() {
            if let Some(p) = respond_to_last(board, last.idx(), me) {
                return Some(p);
            }
        }
        let mut pts = [0u16; MAX_CANDIDATES];
        let mut w = [0f32; MAX_CANDIDATES];
        let (n, rest) = self.candidates(board, me, &mut pts, &mut w);
        if n > 0 {
            let local: f32 = w[..n].iter().sum();
            let mut r = rng.unit() as f32 * (local + rest);
            for (i, (&p, &wp)) in pts[..n].iter().zip(&w[..n]).enumerate() {
                // (Without the rest, rounding must not leave a draw to it.)
                if r < wp || (rest <= 0.0 && i + 1 == n) {
                    return Some(usize::from(p));
                }
                r -= wp;
            }
        }
        random_move(board, me, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::go_features::features;
    use crate::eval::go_ladder::LadderReader;
    use crate::rules::go::parse_point;
    use crate::search::playout::{
        acceptable_moves_left, area_margin, mercy_lead, playout_with, step, Ending,
    };

    /// Boards along light playouts of random length on 9x9 and 13x13.
    fn boards(count: usize, seed: u64) -> Vec<GoBoard> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        for i in 0..count {
            let size = if i % 2 == 0 { 9 } else { 13 };
            let mut b = GoBoard::new(size, size).unwrap();
            let mut c = Color::Black;
            for _ in 0..rng.below(size * size * 2) {
                step(&mut b, c, &mut rng);
                c = c.opponent();
            }
            out.push(b);
        }
        out
    }

    #[test]
    fn colour_swap_exchanges_black_and_white_only() {
        let mut rng = Rng::new(3);
        for _ in 0..2000 {
            let code = rng.next_u64() as u16;
            assert_eq!(swap_colors(code), nbr3::symmetry::swap_colors(code));
        }
    }

    #[test]
    fn the_cheap_features_agree_with_the_learned_features() {
        // The 3x3 gamma and the tactics levels against eval::go_features on every empty legal
        // point of many boards, for both colours; the ladder reading aside.
        let table = GammaTable::embedded();
        let gammas = embedded().unwrap();
        let mut ladders = LadderReader::new();
        let (mut checked, mut in_atari, mut tactical) = (0, 0, 0);
        for b in boards(60, 5) {
            for &q in b.empty_points() {
                let q = q as usize;
                for me in [BLACK, WHITE] {
                    if !b.legal_empty(q, me) {
                        continue;
                    }
                    let f = features(&b, &mut ladders, q, me);
                    assert_eq!(table.pat_gamma(&b, q, me), gammas.gamma(0, f[0]));
                    let (_, [capture, escape, atari, self_atari]) = table.tactics(&b, q, me);
                    assert_eq!(u32::from(capture), f[3], "capture\n{}", b.to_text());
                    assert_eq!(u32::from(self_atari), f[6], "self-atari\n{}", b.to_text());
                    // No ladder reading: escapes to two liberties and ataris are the
                    // uncaught kind; the rest agrees.
                    assert_eq!(escape == 0, f[4] == 0);
                    if f[4] != 3 || escape != 2 {
                        assert_eq!(u32::from(escape), f[4], "escape\n{}", b.to_text());
                    }
                    assert_eq!(atari, u8::from(f[5] != 0), "atari\n{}", b.to_text());
                    checked += 1;
                    in_atari += usize::from(
                        b.neighbors(q)
                            .iter()
                            .chain(b.diagonals(q).iter())
                            .any(|&n| matches!(b.cell(n), BLACK | WHITE) && b.in_atari(b.head(n))),
                    );
                    tactical += usize::from(capture + escape + atari + self_atari > 0);
                }
            }
        }
        // Each candidate's strength: its features' gammas, distances to the last two moves
        // included.
        let policy = GammaPolicy::embedded();
        let (mut pts, mut w) = ([0u16; MAX_CANDIDATES], [0f32; MAX_CANDIDATES]);
        let mut candidates = 0;
        for b in boards(60, 6) {
            let me = match b.last_move() {
                Some((_, c)) => c.opponent() as u8,
                None => continue,
            };
            let (n, _) = policy.candidates(&b, me, &mut pts, &mut w);
            for (&q, &wq) in pts[..n].iter().zip(&w[..n]) {
                let q = usize::from(q);
                let f = features(&b, &mut ladders, q, me);
                let want = table.pat_gamma(&b, q, me)
                    * table.tactics(&b, q, me).0
                    * table.last[f[1] as usize]
                    * table.prev[f[2] as usize];
                assert_eq!(wq, want, "{q}\n{}", b.to_text());
                candidates += 1;
            }
        }
        assert!(candidates > 100, "{candidates}");
        assert!(
            checked > 3000 && in_atari > 100 && tactical > 300,
            "{checked} {in_atari} {tactical}"
        );
    }

    #[test]
    fn draws_follow_the_strengths() {
        // Black to move after white E5 next to black D5: the candidates are E5's and D5's
        // empty neighbours; each is drawn about as often as its share of the total strength.
        let mut b = GoBoard::new(9, 9).unwrap();
        b.play(parse_point(&b, "D5").unwrap(), Color::Black);
        b.play(parse_point(&b, "E5").unwrap(), Color::White);
        let policy = GammaPolicy::embedded();
        let mut pts = [0u16; MAX_CANDIDATES];
        let mut w = [0f32; MAX_CANDIDATES];
        let (n, rest) = policy.candidates(&b, BLACK, &mut pts, &mut w);
        // E5's seven empty neighbours, and D5's three not next to E5 (C4, C5, C6).
        assert_eq!(n, 10);
        let total: f32 = w[..n].iter().sum::<f32>() + rest;
        let mut rng = Rng::new(9);
        let draws = 40_000;
        let mut hits = vec![0usize; b.array_len()];
        for _ in 0..draws {
            hits[policy.choose(&b, Color::Black, &mut rng).unwrap()] += 1;
        }
        for (i, (&q, &wq)) in pts[..n].iter().zip(&w[..n]).enumerate() {
            let p = f64::from(wq / total);
            let seen = hits[usize::from(q)] as f64 / draws as f64;
            // The random stage lands on candidates too, on an open board as often as on any of
            // the 79 empty points.
            let extra = f64::from(rest / total) / 79.0;
            let sigma = (p * (1.0 - p) / draws as f64).sqrt();
            assert!(
                (seen - p - extra).abs() < 4.0 * sigma + 0.002,
                "{i}: drawn {seen:.4}, strength share {p:.4}"
            );
        }
        // The shapes differ: not all candidates weigh the same.
        let (lo, hi) = w[..n]
            .iter()
            .fold((f32::MAX, 0f32), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        assert!(hi > 2.0 * lo, "{lo} {hi}");
        // Without the rest's weight every draw is a candidate.
        let local = GammaPolicy::with_rest(0.0);
        assert_eq!(local.candidates(&b, BLACK, &mut pts, &mut w), (n, 0.0));
        for _ in 0..1000 {
            let p = local.choose(&b, Color::Black, &mut rng).unwrap() as u16;
            assert!(pts[..n].contains(&p));
        }
    }

    #[test]
    fn gamma_playouts_end_with_legal_boards_and_fill_no_eyes() {
        let policy = GammaPolicy::embedded();
        let mut rng = Rng::new(17);
        let mut mercy = 0;
        for size in [5usize, 9, 13, 19] {
            let start = GoBoard::new(size, size).unwrap();
            let mut b = start.clone();
            for _ in 0..20 {
                b.copy_from(&start);
                let margin = playout_with(
                    &policy,
                    &mut b,
                    Color::Black,
                    0.0,
                    &mut rng,
                    None,
                    Ending::Mercy,
                );
                b.validate();
                assert!(margin.abs() <= (size * size) as f32);
                let lead = b.stones_of(Color::Black) as i32 - b.stones_of(Color::White) as i32;
                if lead.abs() > mercy_lead(size * size) {
                    assert_eq!(margin > 0.0, lead > 0);
                    mercy += 1;
                    continue;
                }
                assert_eq!(margin, area_margin(&b) as f32);
                let left = acceptable_moves_left(&b);
                assert!(
                    left.contains(&0) && left.iter().all(|&n| n <= 1),
                    "{size}x{size} {left:?}\n{}",
                    b.to_text()
                );
            }
        }
        assert!(mercy > 0);
    }
}
