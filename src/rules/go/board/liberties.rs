//! Reading a group's liberties beyond what the board keeps incrementally: the stones and exact
//! liberties of a group, the liberties a stone would have once played (with the captures it
//! makes), self-atari, and the legality and suicide tests built on them. The board itself
//! ([`super`]) keeps pseudo-liberties only; everything here walks the groups on demand.

use super::{at, GoBoard, Point, PseudoLibs, EMPTY};
use crate::rules::go::nbr3::{slots_holding, ORTH_SLOTS};
use crate::rules::Color;

impl GoBoard {
    /// The stones of the group on `p` (empty when `p` holds no stone). Not for the hot path.
    pub fn group_stones(&self, p: Point) -> Vec<Point> {
        if self.get(p).is_none() {
            return Vec::new();
        }
        let start = p.idx();
        let mut out = vec![p];
        let mut s = at(&self.next, start) as usize;
        while s != start {
            out.push(Point(s as u16));
            s = at(&self.next, s) as usize;
        }
        out
    }

    /// Exact liberties of the group on `p` (0 when `p` holds no stone).
    pub fn liberties(&self, p: Point) -> usize {
        if self.get(p).is_none() {
            return 0;
        }
        let h = at(&self.head, p.idx()) as usize;
        let mut seen = vec![false; self.len];
        let mut count = 0;
        let mut s = h;
        loop {
            for n in self.neighbors(s) {
                if at(&self.cell, n) == EMPTY && !seen[n] {
                    seen[n] = true;
                    count += 1;
                }
            }
            s = at(&self.next, s) as usize;
            if s == h {
                return count;
            }
        }
    }

    /// Distinct liberties of the group with head `h`, counting no further than `limit` (at
    /// most [`LibSet::CAP`]).
    pub(crate) fn count_liberties(&self, h: usize, limit: usize) -> usize {
        self.liberties_found(h, limit).len()
    }

    /// The distinct liberties of the group with head `h`, found walking it until `limit` (at
    /// most [`LibSet::CAP`]).
    pub(crate) fn liberties_found(&self, h: usize, limit: usize) -> LibSet {
        let limit = limit.min(LibSet::CAP);
        let mut found = LibSet::new();
        let mut s = h;
        loop {
            for n in self.neighbors(s) {
                if at(&self.cell, n) == EMPTY && found.insert(n) && found.len() >= limit {
                    return found;
                }
            }
            s = at(&self.next, s) as usize;
            if s == h {
                return found;
            }
        }
    }

    /// Liberties the group holding a new `c` stone on empty `p` would have, counting no further
    /// than `limit` (at most [`LibSet::CAP`]). Captured neighbours count by the point next to `p`
    /// only, which is a lower bound that is exact for the usual one-stone captures.
    #[inline(always)]
    pub(crate) fn liberties_after(&self, p: usize, c: u8, limit: usize) -> usize {
        if limit <= 2 {
            return self.liberties_after2(p, c).min(limit);
        }
        self.liberties_after_walk(p, c, limit)
    }

    /// [`GoBoard::liberties_after`] by walking the friendly groups.
    pub(super) fn liberties_after_walk(&self, p: usize, c: u8, limit: usize) -> usize {
        let limit = limit.min(LibSet::CAP);
        let mut found = LibSet::new();
        let opp = 3 - c;
        for n in self.neighbors(p) {
            let v = at(&self.cell, n);
            if v == EMPTY || (v == opp && self.in_atari(at(&self.head, n) as usize)) {
                found.insert(n);
                if found.len() >= limit {
                    return found.len();
                }
            }
        }
        for n in self.neighbors(p) {
            if at(&self.cell, n) != c {
                continue;
            }
            let h = at(&self.head, n) as usize;
            let mut s = h;
            loop {
                for m in self.neighbors(s) {
                    if m != p
                        && at(&self.cell, m) == EMPTY
                        && found.insert(m)
                        && found.len() >= limit
                    {
                        return found.len();
                    }
                }
                s = at(&self.next, s) as usize;
                if s == h {
                    break;
                }
            }
        }
        found.len()
    }

    /// [`GoBoard::liberties_after`] with a limit of 2, without walking any group: a friendly
    /// group's pseudo-liberties other than `p` are all one point exactly when their count,
    /// sum and sum of squares meet Cauchy-Schwarz with equality (as for atari), and the pairs
    /// with `p` are known (one per stone of the group next to `p`).
    #[inline(always)]
    fn liberties_after2(&self, p: usize, c: u8) -> usize {
        let code = at(&self.nbr3, p);
        let empty = self.nbr3_table.empty_orth(code);
        if empty >= 2 {
            return 2;
        }
        // The first liberty found (0 = none yet: index 0 is a wall); a second one ends it.
        let mut first = self.lone_empty_neighbor(p, code, empty);
        for nb in self.orth_neighbors_holding(p, 3 - c) {
            if self.in_atari(at(&self.head, nb) as usize) {
                if first == 0 {
                    first = nb;
                } else if first != nb {
                    return 2;
                }
            }
        }
        self.friend_liberties2(p, c, first)
    }

    /// Whether a `c` stone on empty `p` would be left in atari (or without a liberty) and
    /// capture nothing: [`GoBoard::liberties_after`] below 2 and no enemy neighbour in atari,
    /// with the capture test first, since a capture settles it.
    #[inline(always)]
    pub(crate) fn is_self_atari(&self, p: usize, c: u8) -> bool {
        let code = at(&self.nbr3, p);
        let empty = self.nbr3_table.empty_orth(code);
        if empty >= 2 || self.captures_at(p, c) {
            return false;
        }
        self.friend_liberties2(p, c, self.lone_empty_neighbor(p, code, empty)) < 2
    }

    /// The empty orthogonal neighbour of `p` when `empty` (their number, from `code`) is 1,
    /// else 0.
    #[inline(always)]
    fn lone_empty_neighbor(&self, p: usize, code: u16, empty: u8) -> usize {
        if empty != 1 {
            return 0;
        }
        let slot = (slots_holding(code, EMPTY) & ORTH_SLOTS).trailing_zeros() / 2;
        self.slot_neighbor(p, slot as usize)
    }

    /// Liberties (0, 1 or 2 meaning "two or more") of a `c` stone on `p` given `first`, the one
    /// liberty found so far (0 = none), and the friendly groups it would join.
    #[inline(always)]
    fn friend_liberties2(&self, p: usize, c: u8, mut first: usize) -> usize {
        let mut heads = [0u16; 4];
        let mut n = 0;
        for nb in self.orth_neighbors_holding(p, c) {
            heads[n] = at(&self.head, nb);
            n += 1;
        }
        for i in 0..n {
            let h = heads[i];
            // A group met at an earlier neighbour is done; `a` counts its stones next to p.
            if heads[..i].contains(&h) {
                continue;
            }
            let a = 1 + heads[i + 1..n].iter().filter(|&&g| g == h).count() as u64;
            // The group's pairs other than the `a` it has with p.
            let rest = PseudoLibs(at(&self.libs, h as usize).0 - a * PseudoLibs::one(p));
            if rest.count() == 0 {
                continue;
            }
            if !rest.single() {
                return 2;
            }
            let q = rest.the_point();
            if first == 0 {
                first = q;
            } else if first != q {
                return 2;
            }
        }
        usize::from(first != 0)
    }

    /// [`GoBoard::is_legal`] for an empty on-board point (the caller knows it is).
    #[inline(always)]
    pub(crate) fn legal_empty(&self, p: usize, c: u8) -> bool {
        debug_assert_eq!(at(&self.cell, p), EMPTY);
        !(p == self.ko as usize && c == self.ko_color) && (self.suicide || !self.is_suicide(p, c))
    }

    /// Whether `c` may play on `p` under the board's physics: empty, not the simple-ko point for
    /// `c`, and not suicide (unless allowed). Superko is the game's business.
    #[inline]
    pub fn is_legal(&self, p: Point, c: Color) -> bool {
        let p = p.idx();
        if p >= self.len || at(&self.cell, p) != EMPTY {
            return false;
        }
        let c = c as u8;
        if p == self.ko as usize && c == self.ko_color {
            return false;
        }
        self.suicide || !self.is_suicide(p, c)
    }

    /// Whether a `c` stone on empty `p` would have no liberty after its captures.
    #[inline(always)]
    pub(crate) fn is_suicide(&self, p: usize, c: u8) -> bool {
        if self.nbr3_table.empty_orth(at(&self.nbr3, p)) > 0 {
            return false;
        }
        // A friend with another liberty keeps us alive; an enemy in atari is captured.
        !self
            .orth_neighbors_holding(p, c)
            .any(|n| !self.in_atari(at(&self.head, n) as usize))
            && !self.captures_at(p, c)
    }

    /// Whether a `c` stone on `p` would capture something.
    #[inline]
    pub(crate) fn captures_at(&self, p: usize, c: u8) -> bool {
        self.orth_neighbors_holding(p, 3 - c)
            .any(|n| self.in_atari(at(&self.head, n) as usize))
    }
}

/// A few distinct points, found while walking a group (liberty counting up to a small limit).
pub(crate) struct LibSet {
    pts: [u16; LibSet::CAP],
    n: usize,
}

impl LibSet {
    /// Most points held; counts above it are reported as "at least CAP".
    pub(crate) const CAP: usize = 8;

    #[inline]
    fn new() -> LibSet {
        LibSet {
            pts: [0; LibSet::CAP],
            n: 0,
        }
    }
    /// Adds `p`; whether it was new. Past the capacity every point counts as new.
    #[inline]
    fn insert(&mut self, p: usize) -> bool {
        let p = p as u16;
        if self.pts[..self.n.min(Self::CAP)].contains(&p) {
            return false;
        }
        if self.n < Self::CAP {
            self.pts[self.n] = p;
        }
        self.n += 1;
        true
    }
    /// How many points were found (past the capacity, at least CAP).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.n
    }
    /// The points held, in the order found.
    pub(crate) fn points(&self) -> impl Iterator<Item = usize> + '_ {
        self.pts[..self.n.min(Self::CAP)]
            .iter()
            .map(|&p| p as usize)
    }
}
