//! The move generators of threat-space search used by [`super::Vct`], kept apart so that
//! another solver of the same threat model can share them: the attacker's threats (fours, open
//! threes, 4-3 and 3-3 points) and the defender's real answers to a three (the blocks that can kill every
//! open-four point, and its own fours). Moves are pushed on one scratch stack that callers
//! truncate back, so generating never allocates once the stack has grown to its working size.

use crate::eval::gomoku::patterns::{
    levels, PatternBoard, FOURS, P4_BLOCK4, P4_BLOCK4_FLEX3, P4_BLOCK4_PLUS, P4_FLEX3, P4_FLEX3_2X,
    P4_FLEX3_PLUS, P4_FLEX4,
};
use crate::rules::{Color, Pos};
use crate::search::threats::{first_point_at, forbidden_for};

/// Moves kept on the scratch stack before it would have to grow.
const STACK_CAPACITY: usize = 8192;

/// Whether `att` has an open-four point it may play.
pub fn open_four_ready(pb: &mut PatternBoard, att: Color) -> bool {
    if pb.count(att, P4_FLEX4) == 0 {
        return false;
    }
    if att == Color::Black && pb.board().rule().restricts_black() {
        return first_point_at(pb, att, P4_FLEX4, true).is_some();
    }
    true
}

/// The generators' scratch: a move stack and per-point marks (for de-duplicating blocks).
pub struct ThreatMoves {
    /// Generated moves; each generator pushes on top and the caller truncates back.
    pub stack: Vec<Pos>,
    mark: Vec<u32>,
    stamp: u32,
}

impl Default for ThreatMoves {
    fn default() -> Self {
        ThreatMoves::new()
    }
}

impl ThreatMoves {
    /// An empty scratch stack of the working size.
    pub fn new() -> ThreatMoves {
        ThreatMoves {
            stack: Vec::with_capacity(STACK_CAPACITY),
            mark: Vec::new(),
            stamp: 0,
        }
    }

    /// Bytes held by the scratch buffers.
    pub fn bytes(&self) -> usize {
        self.stack.capacity() * std::mem::size_of::<Pos>()
            + self.mark.capacity() * std::mem::size_of::<u32>()
    }

    /// Sizes the marks for `pb`'s board (once per board size; call before generating).
    pub fn prepare(&mut self, pb: &PatternBoard) {
        let board = pb.board();
        if self.mark.len() != board.array_len() {
            self.mark = vec![0; board.array_len()];
        }
    }

    /// Pushes the attacker's threat moves, strongest first: 4-3 and 3-3 points, then fours,
    /// then threes (only with `threes`: with one attacker move left only fours and 3-3 points
    /// can still win, a single three needs a follow-up). Renju-forbidden points are dropped.
    pub fn attack_moves(&mut self, pb: &mut PatternBoard, att: Color, threes: bool) {
        let base = self.stack.len();
        const STRONG: u32 = FOURS | levels(&[P4_FLEX3_2X]);
        const THREES: u32 = levels(&[P4_FLEX3, P4_FLEX3_PLUS]);
        let wanted = if threes { STRONG | THREES } else { STRONG };
        self.stack.extend(pb.cells_at(att, wanted));
        // Order: 4-3 first, then 3-3, then fours, then threes; ties by line weight.
        let rank = |p: Pos| -> i32 {
            let level = pb.p4(att, p);
            let class = match level {
                P4_BLOCK4_FLEX3 => 5,
                P4_FLEX3_2X => 4,
                P4_BLOCK4_PLUS => 3,
                P4_BLOCK4 => 2,
                P4_FLEX3_PLUS => 1,
                _ => 0,
            };
            class * 10_000 + pb.cell_value(att, p) + pb.cell_value(att.opponent(), p) / 2
        };
        self.stack[base..].sort_unstable_by_key(|&p| (std::cmp::Reverse(rank(p)), p.0));
        if att == Color::Black && pb.board().rule().restricts_black() {
            // Drop forbidden points (tested only for the few suspicious levels).
            let mut keep = base;
            for i in base..self.stack.len() {
                let p = self.stack[i];
                if !forbidden_for(pb, att, p) {
                    self.stack[keep] = p;
                    keep += 1;
                }
            }
            self.stack.truncate(keep);
        }
    }

    /// Pushes the defender's candidate moves after the attacker's three at `m` and returns how
    /// many of them are blocks; the rest (after them) are the defender's fours. Blocks are the
    /// attacker's open-four points and the points on the lines that make them, within four
    /// cells; whether a block really kills every open-four point is tested when it is played.
    pub fn defence_moves(&mut self, pb: &PatternBoard, att: Color, m: Pos) -> usize {
        let def = att.opponent();
        let base = self.stack.len();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|x| *x = 0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let dirs = pb.board().dirs();
        // The open-four points: on m's lines, unless some lie elsewhere (then scan everything).
        let mut found = 0u16;
        let total = pb.count(att, P4_FLEX4);
        let flex_base = self.stack.len();
        for d in dirs {
            for off in -5isize..=5 {
                let q = m.step(d, off);
                if pb.board().is_empty(q)
                    && pb.p4(att, q) == P4_FLEX4
                    && self.mark[q.idx()] != stamp
                {
                    self.mark[q.idx()] = stamp;
                    self.stack.push(q);
                    found += 1;
                }
            }
        }
        if found < total {
            for q in pb.cells_at(att, levels(&[P4_FLEX4])) {
                if self.mark[q.idx()] != stamp {
                    self.mark[q.idx()] = stamp;
                    self.stack.push(q);
                }
            }
        }
        let flex_end = self.stack.len();
        for i in flex_base..flex_end {
            let q = self.stack[i];
            for (di, &d) in dirs.iter().enumerate() {
                if pb.pattern(att, q, di) < crate::eval::gomoku::patterns::BLOCK4 {
                    continue;
                }
                for off in -4isize..=4 {
                    let r = q.step(d, off);
                    if off != 0 && pb.board().is_empty(r) && self.mark[r.idx()] != stamp {
                        self.mark[r.idx()] = stamp;
                        self.stack.push(r);
                    }
                }
            }
        }
        let blocks = self.stack.len() - base;
        // Counter-fours, blocks or not: a four that only half-blocks still forces a reply.
        let fours = pb.count(def, P4_BLOCK4)
            + pb.count(def, P4_BLOCK4_PLUS)
            + pb.count(def, P4_BLOCK4_FLEX3);
        if fours > 0 {
            self.stack.extend(pb.cells_at(def, FOURS));
        }
        blocks
    }
}
