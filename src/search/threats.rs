//! Threat-space search for gomoku: VCF (victory by continuous fours). The attacker only plays
//! moves that make a four; the defender's reply is then forced (the single five point), so the
//! tree is narrow and can be searched far deeper than the main alpha-beta.
//!
//! ```text
//!   attacker: make a four  ──▶  defender: block the five point  ──▶  attacker: ...
//!   wins when the attacker reaches an open four / double four (two five points) or a five.
//! ```
//! Renju is respected on both sides: black never plays a forbidden point, and a black defender
//! whose only block is forbidden has lost.

use crate::eval::patterns::{PatternBoard, P4_BLOCK4, P4_BLOCK4_FLEX3, P4_FIVE, P4_FLEX4};
use crate::rules::mnk::{Color, Pos};
use crate::rules::renju;
use crate::search::clock::TimeManager;

/// Entries in the cache of positions already shown to have no VCF.
const FAIL_CACHE: usize = 1 << 16;

/// A reusable VCF searcher (its cache is allocated once).
pub struct Vcf {
    fail_cache: Vec<u64>,
    nodes: u64,
    node_budget: u64,
    points: Vec<Pos>,
}

impl Default for Vcf {
    fn default() -> Self {
        Vcf::new()
    }
}

/// Whether black may not play `p` in the current position of `pb` (renju only).
pub fn forbidden_for(pb: &PatternBoard, color: Color, p: Pos) -> bool {
    if color != Color::Black || !pb.board().rule().renju() {
        return false;
    }
    let level = pb.p4(Color::Black, p);
    if level == P4_FIVE {
        return false;
    }
    let suspicious = pb.overline_at(Color::Black, p)
        || level == P4_FLEX4
        || level == P4_BLOCK4_FLEX3
        || level == crate::eval::patterns::P4_FLEX3_2X;
    suspicious && renju::forbidden(pb.board(), p).is_some()
}

/// The first of `points` that is empty and where `c` reaches threat `level`; with `playable`,
/// also one that `c` may legally play (renju).
pub fn first_point_at(
    pb: &PatternBoard,
    points: &[Pos],
    c: Color,
    level: u8,
    playable: bool,
) -> Option<Pos> {
    points.iter().copied().find(|&p| {
        pb.board().is_empty(p) && pb.p4(c, p) == level && (!playable || !forbidden_for(pb, c, p))
    })
}

/// The empty point where `color` would make five, looking along the four lines through `p`.
pub fn five_point_near(pb: &PatternBoard, color: Color, p: Pos) -> Option<Pos> {
    let dirs = pb.board().dirs();
    for d in dirs {
        for off in -4isize..=4 {
            if off == 0 {
                continue;
            }
            let q = p.step(d, off);
            if pb.board().is_empty(q) && pb.p4(color, q) == P4_FIVE {
                return Some(q);
            }
        }
    }
    None
}

impl Vcf {
    /// A searcher with an empty cache.
    pub fn new() -> Vcf {
        Vcf {
            fail_cache: vec![0; FAIL_CACHE],
            nodes: 0,
            node_budget: 0,
            points: Vec::new(),
        }
    }

    /// Nodes visited by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets cached results (new game: hashes may repeat with other meanings only by chance,
    /// but a fresh game should not pay for the last one's entries).
    pub fn clear(&mut self) {
        self.fail_cache.iter_mut().for_each(|e| *e = 0);
    }

    /// Searches for a VCF for the side to move, at most `max_plies` attacker moves deep and
    /// `node_budget` nodes. Returns the attacker's winning line (attacker moves and forced
    /// replies interleaved), or `None`.
    pub fn find(
        &mut self,
        pb: &mut PatternBoard,
        max_plies: u32,
        node_budget: u64,
        tm: &TimeManager<'_>,
    ) -> Option<Vec<Pos>> {
        self.nodes = 0;
        self.node_budget = node_budget;
        if self.points.len() != pb.board().width() * pb.board().height() {
            self.points = pb.board().points().collect();
        }
        let attacker = pb.to_move();
        let mut line = Vec::with_capacity(2 * max_plies as usize + 2);
        if self.attack(pb, attacker, max_plies, tm, &mut line) {
            Some(line)
        } else {
            None
        }
    }

    fn attack(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        plies: u32,
        tm: &TimeManager<'_>,
        line: &mut Vec<Pos>,
    ) -> bool {
        self.nodes += 1;
        if self.nodes > self.node_budget || (self.nodes & 255 == 0 && tm.should_stop(0)) {
            return false;
        }
        let def = att.opponent();
        if pb.count(att, P4_FIVE) > 0 {
            if let Some(p) = first_point_at(pb, &self.points, att, P4_FIVE, false) {
                line.push(p);
            }
            return true;
        }
        if pb.count(def, P4_FIVE) > 0 {
            // The defender threatens five: we may only go on if blocking it is itself a four.
            if pb.count(def, P4_FIVE) > 1 {
                return false;
            }
            let Some(b) = first_point_at(pb, &self.points, def, P4_FIVE, false) else {
                return false;
            };
            let level = pb.p4(att, b);
            if !(P4_BLOCK4..=P4_FLEX4).contains(&level) || forbidden_for(pb, att, b) {
                return false;
            }
            return self.try_four(pb, att, b, plies, tm, line);
        }
        if pb.count(att, P4_FLEX4) > 0 {
            if let Some(p) = first_point_at(pb, &self.points, att, P4_FLEX4, true) {
                line.push(p);
                return true;
            }
        }
        if plies == 0 {
            return false;
        }
        let key = pb.hash() ^ (plies as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = (key as usize) & (FAIL_CACHE - 1);
        if self.fail_cache[slot] == key {
            return false;
        }
        let fours = pb.count(att, P4_BLOCK4)
            + pb.count(att, P4_BLOCK4 + 1)
            + pb.count(att, P4_BLOCK4_FLEX3);
        if fours > 0 {
            // Strongest fours first: a 4-3 usually ends it at once.
            for level in (P4_BLOCK4..=P4_BLOCK4_FLEX3).rev() {
                let mut i = 0;
                while i < self.points.len() {
                    let p = self.points[i];
                    i += 1;
                    if !pb.board().is_empty(p) || pb.p4(att, p) != level {
                        continue;
                    }
                    if forbidden_for(pb, att, p) {
                        continue;
                    }
                    if self.try_four(pb, att, p, plies, tm, line) {
                        return true;
                    }
                    if self.nodes > self.node_budget {
                        return false;
                    }
                }
            }
        }
        self.fail_cache[slot] = key;
        false
    }

    /// Plays the attacker's four at `p`, the defender's forced block, and recurses.
    fn try_four(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        p: Pos,
        plies: u32,
        tm: &TimeManager<'_>,
        line: &mut Vec<Pos>,
    ) -> bool {
        let def = att.opponent();
        pb.play(p);
        let mut won = false;
        if pb.count(def, P4_FIVE) == 0 {
            if let Some(block) = five_point_near(pb, att, p) {
                if pb.count(att, P4_FIVE) > 1 || forbidden_for(pb, def, block) {
                    // Two five points, or the only block is forbidden for black.
                    line.push(p);
                    pb.undo();
                    return true;
                }
                pb.play(block);
                line.push(p);
                line.push(block);
                won = self.attack(pb, att, plies.saturating_sub(1), tm, line);
                if !won {
                    line.truncate(line.len() - 2);
                }
                pb.undo();
            }
        }
        pb.undo();
        won
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::mnk::{Board, Rule};
    use std::sync::atomic::AtomicBool;

    fn setup(black: &[(i64, i64)], white: &[(i64, i64)], to_move: Color) -> PatternBoard {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for &(x, y) in black {
            b.place(b.pos(x, y).unwrap(), Color::Black);
        }
        for &(x, y) in white {
            b.place(b.pos(x, y).unwrap(), Color::White);
        }
        b.set_to_move(to_move);
        PatternBoard::new(&b)
    }

    #[test]
    fn finds_a_four_three_win() {
        // Black: a closed three on row 7 (white at its left end) and an open two in column 10 that becomes an open three
        // that the four's block does not touch.
        let mut pb = setup(
            &[(7, 7), (8, 7), (9, 7), (10, 5), (10, 6)],
            &[(6, 7), (0, 0), (0, 2), (0, 4), (14, 14)],
            Color::Black,
        );
        let stop = AtomicBool::new(false);
        let tm = TimeManager::infinite(&stop);
        let mut vcf = Vcf::new();
        let line = vcf.find(&mut pb, 10, 100_000, &tm).expect("VCF exists");
        assert!(!line.is_empty());
        // The board is restored.
        pb.validate();
    }

    #[test]
    fn no_vcf_without_fours() {
        let mut pb = setup(&[(7, 7)], &[(8, 8)], Color::Black);
        let stop = AtomicBool::new(false);
        let tm = TimeManager::infinite(&stop);
        assert!(Vcf::new().find(&mut pb, 10, 100_000, &tm).is_none());
    }
}
