//! Proof-number threat-space search: depth-first proof-number search (df-pn, Nagai 2002) over the
//! same threat model and move generators as the depth-first [`super::threats::Vct`] (attacker:
//! fours, open threes, 4-3 and 3-3 points; defender: the blocks that leave no open-four point,
//! and its own fours), as a second way to prove or refute a forced win by threats.
//!
//! ```text
//!   OR node (attacker to move):   pn = min child pn,   dn = sum child dn
//!   AND node (defender to move):  pn = sum child pn,   dn = min child dn
//!   proven at pn = 0 (the attacker wins), disproven at dn = 0.
//! ```
//! Like the VCT it deepens one attacker move at a time (so the shortest win is found first and
//! the last attacker move may only be a four or a 3-3); within a depth it expands the
//! most-proving node under Nagai's thresholds, a child's threshold being the second-best
//! sibling's plus a quarter (Pawlewicz and Lew's 1 + epsilon), and unexplored children start
//! from counts the pattern board keeps (df-pn+: a defender node as hard as it has answers). The
//! numbers live in a table of two-way buckets (the entry with less work below it replaced
//! first) allocated once and kept between searches of a game; a proof holds at any greater
//! depth and a disproof at any smaller one.
//!
//! Measured on the s23 diagnosis positions (scratch s24 NOTE) it needs more nodes and time than
//! the VCT for the same answers, and an SPRT in its place was not positive, so play uses the
//! VCT; this solver is kept for analysis and as the cross-check of the VCT's verdicts in tests.
//! Renju is respected on both sides; node-budgeted and clock-aware; searching never allocates.

use crate::eval::patterns::{
    PatternBoard, P4_BLOCK4, P4_BLOCK4_FLEX3, P4_FIVE, P4_FLEX3, P4_FLEX4,
};
use crate::rules::mnk::{Color, Pos};
use crate::search::clock::TimeManager;
use crate::search::threat_moves::{open_four_ready, ThreatMoves};
use crate::search::threats::{first_point_at, five_point_near, forbidden_for};
use crate::search::zeroed::{power_of_two_entries, zeroed_slice, Epoch, Zeroable};

/// Proof or disproof number of a settled node ("infinitely many" nodes still to expand).
const INF: u32 = 1 << 30;
/// Deepest line followed (plies); a deeper node counts as a failed attack. No real threat
/// sequence on a 15x15 or 20x20 board comes near it.
const MAX_PLY: usize = 160;
/// Children on the frame stack of all nodes of the current line.
const KIDS_CAPACITY: usize = 1 << 15;
/// A node expands only with this much room left on the frame stack.
const KIDS_MARGIN: usize = 512;
/// Extra proof number guessed for a four that makes nothing else (see [`first_guess`]).
const PLAIN_FOUR: u32 = 3;
/// Fewest table entries, whatever the memory limit.
const MIN_ENTRIES: usize = 1 << 10;

/// Salts that keep attacker and defender nodes of either colour apart in the table.
const SALT: [[u64; 2]; 2] = [
    [0x3C6E_F372_FE94_F82B, 0xA54F_F53A_5F1D_36F1],
    [0x510E_527F_ADE6_82D1, 0x9B05_688C_2B3E_6C1F],
];

/// One table entry: the proof and disproof numbers of a position.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    /// Nodes spent below the entry when it was written (the replacement priority).
    work: u32,
    /// Plies to the win along the proof, for a proven entry.
    len: u16,
    /// Attacker moves the numbers were computed with.
    depth: u8,
    /// The table's [`Epoch`] when written; another epoch means empty.
    epoch: u8,
}

// SAFETY: integers only; all zero is an empty entry (epoch 0 is never current).
unsafe impl Zeroable for Entry {}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The attacker to move (an OR node).
    Attack,
    /// The defender to move after the attacker's threat (an AND node).
    Defend,
}

/// What a node is without search.
enum Status {
    Won,
    Lost,
    /// One move is forced (a block of a five point); the child it leads to is searched.
    Forced(Pos),
    Open,
}

/// A child on the frame stack: the moves that lead to it (a defender's counter-four comes with
/// the attacker's forced block), its kind and its current numbers.
#[derive(Clone, Copy)]
struct Kid {
    moves: [Pos; 2],
    n: u8,
    kind: Kind,
    /// The attacker's threat a defender node answers (where its open-four points are sought).
    hint: Pos,
    key: u64,
    pn: u32,
    dn: u32,
    len: u16,
    /// Attacker moves left at the child.
    depth: u8,
}

/// A reusable df-pn threat solver; its table and buffers are allocated at construction.
pub struct Dfpn {
    table: Box<[Entry]>,
    mask: usize,
    epoch: Epoch,
    gen: ThreatMoves,
    kids: Vec<Kid>,
    nodes: u64,
    budget: u64,
    next_poll: u64,
    aborted: bool,
    /// The root's proving move and the proof's length, once found.
    win: Option<(Pos, u16)>,
}

impl Default for Dfpn {
    fn default() -> Self {
        Dfpn::with_bytes(1 << 20)
    }
}

impl Dfpn {
    /// A solver whose table takes at most `bytes` bytes (at least a small minimum).
    pub fn with_bytes(bytes: usize) -> Dfpn {
        let n = power_of_two_entries(bytes, std::mem::size_of::<Entry>(), MIN_ENTRIES);
        Dfpn {
            table: zeroed_slice(n),
            mask: n - 1,
            epoch: Epoch::default(),
            gen: ThreatMoves::new(),
            kids: Vec::with_capacity(KIDS_CAPACITY),
            nodes: 0,
            budget: 0,
            next_poll: 0,
            aborted: false,
            win: None,
        }
    }

    /// Bytes held by the table and scratch buffers (for the memory limit).
    pub fn bytes(&self) -> usize {
        self.cache_bytes() + self.gen.bytes() + self.kids.capacity() * std::mem::size_of::<Kid>()
    }

    /// Bytes of the table alone (what [`Dfpn::with_bytes`] was asked to bound).
    pub fn cache_bytes(&self) -> usize {
        self.table.len() * std::mem::size_of::<Entry>()
    }

    /// What [`Dfpn::cache_bytes`] will be for a solver built with [`Dfpn::with_bytes`]`(bytes)`.
    pub fn cache_bytes_for(bytes: usize) -> usize {
        power_of_two_entries(bytes, std::mem::size_of::<Entry>(), MIN_ENTRIES)
            * std::mem::size_of::<Entry>()
    }

    /// Nodes visited by the last call (each node entered and each child looked at; the last
    /// expansion may take it a little past the budget).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the last call ran out of nodes or time before it could answer for certain.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Forgets the table (O(1) but once in 255 calls).
    pub fn clear(&mut self) {
        if self.epoch.advance() {
            self.table.fill(Entry::default());
        }
    }

    /// Searches for a forced win by threats for the side to move with at most `max_depth`
    /// attacker moves and `node_budget` nodes, deepening one attacker move at a time (each
    /// depth a df-pn search; the table carries proofs to deeper and disproofs to shallower
    /// iterations). Returns the first move of the win and the depth it needed.
    pub fn find(
        &mut self,
        pb: &mut PatternBoard,
        max_depth: u32,
        node_budget: u64,
        tm: &TimeManager<'_>,
    ) -> Option<(Pos, u32)> {
        self.nodes = 0;
        self.budget = node_budget;
        self.next_poll = 256;
        self.aborted = false;
        self.win = None;
        self.gen.prepare(pb);
        let att = pb.to_move();
        if let Status::Won = attack_status(pb, att) {
            let m = first_point_at(pb, att, P4_FIVE, false)
                .or_else(|| first_point_at(pb, att, P4_FLEX4, true))?;
            return Some((m, 1));
        }
        let key = key_of(pb, Kind::Attack, att);
        for depth in 1..=max_depth.min(255) {
            let (pn, _, _) = self.mid(pb, att, Kind::Attack, Pos(0), key, depth, INF, INF, 0, tm);
            if pn == 0 {
                let (m, _) = self.win?;
                return Some((m, depth));
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    /// Whether the side *not* to move would have a forced win by threats if it could move now
    /// (a null move): the threat the side to move has to answer.
    pub fn threatened(
        &mut self,
        pb: &mut PatternBoard,
        max_depth: u32,
        node_budget: u64,
        tm: &TimeManager<'_>,
    ) -> Option<(Pos, u32)> {
        let me = pb.to_move();
        pb.set_to_move(me.opponent());
        let found = self.find(pb, max_depth, node_budget, tm);
        pb.set_to_move(me);
        found
    }

    /// Counts a node; true once the budget or the clock says stop.
    #[inline]
    fn spend(&mut self, tm: &TimeManager<'_>) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
        } else if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + 256;
            self.aborted |= tm.should_stop(0);
        }
        self.aborted
    }

    /// The numbers of a position with `depth` attacker moves left: those stored at that depth,
    /// or a proof found with fewer moves, or a disproof with more.
    fn probe(&self, key: u64, depth: u32) -> Option<(u32, u32, u16)> {
        let i = key as usize & self.mask & !1;
        let stamp = self.epoch.stamp();
        let e = self.table[i..i + 2]
            .iter()
            .find(|e| e.key == key && e.epoch == stamp)?;
        let d = u32::from(e.depth);
        let usable = d == depth || (e.pn == 0 && d <= depth) || (e.dn == 0 && d >= depth);
        usable.then_some((e.pn, e.dn, e.len))
    }

    fn store(&mut self, key: u64, depth: u32, pn: u32, dn: u32, len: u16, work: u64) {
        let i = key as usize & self.mask & !1;
        let stamp = self.epoch.stamp();
        let pair = &mut self.table[i..i + 2];
        let slot = if let Some(j) = pair.iter().position(|e| e.key == key && e.epoch == stamp) {
            j
        } else if pair[0].epoch != stamp {
            0
        } else if pair[1].epoch != stamp {
            1
        } else if pair[0].work <= pair[1].work {
            0
        } else {
            1
        };
        pair[slot] = Entry {
            key,
            pn,
            dn,
            work: work.min(u64::from(u32::MAX)) as u32,
            len,
            depth: depth.min(255) as u8,
            epoch: stamp,
        };
    }

    /// Nagai's MID: searches the node at `pb` until its proof number reaches `th_pn` or its
    /// disproof number `th_dn` (or it is settled, or the search aborts); stores and returns its
    /// numbers and, when proven, the proof's length in plies.
    #[allow(clippy::too_many_arguments)]
    fn mid(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        kind: Kind,
        hint: Pos,
        key: u64,
        depth: u32,
        th_pn: u32,
        th_dn: u32,
        ply: usize,
        tm: &TimeManager<'_>,
    ) -> (u32, u32, u16) {
        if self.spend(tm) {
            return (1, 1, 0);
        }
        let status = match kind {
            Kind::Attack => attack_status(pb, att),
            Kind::Defend => defend_status(pb, att, hint),
        };
        match status {
            Status::Won => return (0, INF, 1),
            Status::Lost => return (INF, 0, 0),
            _ if kind == Kind::Attack && depth == 0 => return (INF, 0, 0),
            _ if ply >= MAX_PLY || self.kids.len() + KIDS_MARGIN > self.kids.capacity() => {
                return (INF, 0, 0)
            }
            _ => {}
        }
        let start = self.nodes;
        let base = self.kids.len();
        match status {
            Status::Forced(b) => match kind {
                Kind::Attack => self.push_kid(pb, att, [b, b], 1, Kind::Defend, b, depth - 1),
                Kind::Defend => self.push_kid(pb, att, [b, b], 1, Kind::Attack, b, depth),
            },
            _ if kind == Kind::Attack => self.expand_attack(pb, att, depth),
            _ => self.expand_defence(pb, att, hint, depth),
        }
        let or = kind == Kind::Attack;
        let (mut pn, mut dn, mut best, mut second) = self.summary(base, or);
        while pn != 0 && dn != 0 && pn < th_pn && dn < th_dn && !self.aborted {
            let kid = self.kids[best];
            let (c_pn, c_dn) = if or {
                (
                    th_pn.min(epsilon_step(second)),
                    (u64::from(th_dn) - u64::from(dn) + u64::from(kid.dn)).min(u64::from(INF))
                        as u32,
                )
            } else {
                (
                    (u64::from(th_pn) - u64::from(pn) + u64::from(kid.pn)).min(u64::from(INF))
                        as u32,
                    th_dn.min(epsilon_step(second)),
                )
            };
            for &m in &kid.moves[..kid.n as usize] {
                pb.play(m);
            }
            let next_ply = ply + kid.n as usize;
            let (k_pn, k_dn, k_len) = self.mid(
                pb,
                att,
                kid.kind,
                kid.hint,
                kid.key,
                u32::from(kid.depth),
                c_pn,
                c_dn,
                next_ply,
                tm,
            );
            for _ in 0..kid.n {
                pb.undo();
            }
            let slot = &mut self.kids[best];
            (slot.pn, slot.dn, slot.len) = (k_pn, k_dn, k_len);
            (pn, dn, best, second) = self.summary(base, or);
        }
        let mut len = 0u16;
        if pn == 0 {
            // The proof's length: the quickest proven child of an OR node, the slowest child
            // of an AND node (all are proven).
            let kids = &self.kids[base..];
            let lens = kids
                .iter()
                .filter(|k| k.pn == 0)
                .map(|k| k.len.saturating_add(u16::from(k.n)));
            len = if or { lens.min() } else { lens.max() }.unwrap_or(1);
            if ply == 0 {
                let proving = kids
                    .iter()
                    .filter(|k| k.pn == 0)
                    .min_by_key(|k| k.len.saturating_add(u16::from(k.n)));
                self.win = proving.map(|k| (k.moves[0], len));
            }
        }
        self.kids.truncate(base);
        self.store(key, depth, pn, dn, len, self.nodes - start);
        (pn, dn, len)
    }

    /// The node's numbers from its children on the frame stack from `base`: (pn, dn, the child
    /// to search next, the second-best child's deciding number).
    fn summary(&self, base: usize, or: bool) -> (u32, u32, usize, u32) {
        let mut best = base;
        let mut first = INF;
        let mut second = INF;
        let mut sum = 0u64;
        for (i, k) in self.kids[base..].iter().enumerate() {
            let (decide, add) = if or { (k.pn, k.dn) } else { (k.dn, k.pn) };
            sum += u64::from(add);
            if decide < first {
                second = first;
                first = decide;
                best = base + i;
            } else if decide < second {
                second = decide;
            }
        }
        let other = if first == 0 {
            INF
        } else {
            sum.min(u64::from(INF - 1)) as u32
        };
        if or {
            (first, other, best, second)
        } else {
            (other, first, best, second)
        }
    }

    /// Pushes the child reached by `moves[..n]` (played and taken back here) with its numbers:
    /// settled if it needs no search, else from the table, else a first guess.
    #[allow(clippy::too_many_arguments)]
    fn push_kid(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        moves: [Pos; 2],
        n: u8,
        kind: Kind,
        hint: Pos,
        depth: u32,
    ) {
        self.nodes += 1;
        for &m in &moves[..n as usize] {
            pb.play(m);
        }
        let key = key_of(pb, kind, att);
        let status = match kind {
            Kind::Attack => attack_status(pb, att),
            Kind::Defend => defend_status(pb, att, hint),
        };
        let (pn, dn, len) = match status {
            Status::Won => (0, INF, 1),
            Status::Lost => (INF, 0, 0),
            _ if kind == Kind::Attack && depth == 0 => (INF, 0, 0),
            _ => self
                .probe(key, depth)
                .unwrap_or_else(|| first_guess(pb, att, kind, &status)),
        };
        for _ in 0..n {
            pb.undo();
        }
        self.kids.push(Kid {
            moves,
            n,
            kind,
            hint,
            key,
            pn,
            dn,
            len,
            depth: depth as u8,
        });
    }

    /// The children of an attacker node: every threat, strongest first.
    fn expand_attack(&mut self, pb: &mut PatternBoard, att: Color, depth: u32) {
        let base = self.gen.stack.len();
        // With one attacker move left only a four or a 3-3 can still win.
        self.gen.attack_moves(pb, att, depth >= 2);
        for i in base..self.gen.stack.len() {
            let m = self.gen.stack[i];
            self.push_kid(pb, att, [m, m], 1, Kind::Defend, m, depth - 1);
        }
        self.gen.stack.truncate(base);
    }

    /// The children of a defender node answering the threat at `hint`: the blocks after which
    /// the attacker has no open-four point, and the counter-fours with the attacker's block.
    fn expand_defence(&mut self, pb: &mut PatternBoard, att: Color, hint: Pos, depth: u32) {
        let def = att.opponent();
        let base = self.gen.stack.len();
        let blocks = self.gen.defence_moves(pb, att, hint);
        for i in base..self.gen.stack.len() {
            let q = self.gen.stack[i];
            if forbidden_for(pb, def, q) {
                continue;
            }
            pb.play(q);
            let stops = !open_four_ready(pb, att);
            if i < base + blocks {
                pb.undo();
                if stops {
                    self.push_kid(pb, att, [q, q], 1, Kind::Attack, q, depth);
                }
                continue;
            }
            // A counter-four that also blocks was judged among the blocks; otherwise the
            // attacker must block it and the defender faces the same threat again.
            let block = if stops || pb.count(def, P4_FIVE) > 1 {
                None
            } else {
                Some(five_point_near(pb, def, q).filter(|&b| !forbidden_for(pb, att, b)))
            };
            pb.undo();
            match block {
                None if stops => {}
                Some(Some(b)) => self.push_kid(pb, att, [q, b], 2, Kind::Defend, hint, depth),
                // Two five points, or a block the attacker may not play: the defence holds.
                _ => self.kids.push(Kid {
                    moves: [q, q],
                    n: 1,
                    kind: Kind::Attack,
                    hint,
                    key: 0,
                    pn: INF,
                    dn: 0,
                    len: 0,
                    depth: depth as u8,
                }),
            }
        }
        self.gen.stack.truncate(base);
    }
}

/// The numbers of a node not searched yet, from counts the pattern board keeps (df-pn+'s
/// heuristic initialisation): an attacker node is as hard to disprove as it has threats; a
/// defender node is as hard to prove as it has answers (one for a four; for a three about one
/// per open-four point, plus its ends, plus every counter-four).
fn first_guess(pb: &PatternBoard, att: Color, kind: Kind, status: &Status) -> (u32, u32, u16) {
    if matches!(status, Status::Forced(_)) {
        // A four: one answer. A plain one (no three beside it) rarely wins, and chains of
        // them would otherwise all look like proofs in one step and be followed first.
        let plain = kind == Kind::Defend && pb.count(att, P4_FLEX4) == 0;
        return (1 + PLAIN_FOUR * plain as u32, 1, 0);
    }
    match kind {
        Kind::Attack => {
            let threats: u32 = (P4_FLEX3..=P4_FLEX4)
                .map(|l| u32::from(pb.count(att, l)))
                .sum();
            (1, threats.max(1), 0)
        }
        Kind::Defend => {
            let def = att.opponent();
            let fours: u32 = (P4_BLOCK4..=P4_BLOCK4_FLEX3)
                .map(|l| u32::from(pb.count(def, l)))
                .sum();
            (1 + u32::from(pb.count(att, P4_FLEX4)) + fours, 1, 0)
        }
    }
}

/// The next threshold above `second`: a quarter more (and at least one more), at most [`INF`].
#[inline]
fn epsilon_step(second: u32) -> u32 {
    (u64::from(second) + u64::from(second) / 4 + 1).min(u64::from(INF)) as u32
}

#[inline]
fn key_of(pb: &PatternBoard, kind: Kind, att: Color) -> u64 {
    pb.hash() ^ SALT[kind as usize][att.index()]
}

/// An attacker node without search: a five or a playable open four wins; a five point of the
/// defender must be blocked, and the block must itself be a threat (else the attack is over).
fn attack_status(pb: &mut PatternBoard, att: Color) -> Status {
    let def = att.opponent();
    if pb.count(att, P4_FIVE) > 0 {
        return Status::Won;
    }
    if pb.count(def, P4_FIVE) > 0 {
        if pb.count(def, P4_FIVE) > 1 {
            return Status::Lost;
        }
        let Some(b) = first_point_at(pb, def, P4_FIVE, false) else {
            return Status::Lost;
        };
        let level = pb.p4(att, b);
        if !(P4_FLEX3..P4_FIVE).contains(&level) || forbidden_for(pb, att, b) {
            return Status::Lost;
        }
        return Status::Forced(b);
    }
    if open_four_ready(pb, att) {
        return Status::Won;
    }
    Status::Open
}

/// A defender node after the attacker's threat at `m`, without search: the defender's five
/// wins; the attacker's four forces the block (two five points, or a block forbidden to black,
/// win); a three that leaves no playable open-four point is no threat; the defender's own open
/// four is faster than the attacker's.
fn defend_status(pb: &mut PatternBoard, att: Color, m: Pos) -> Status {
    let def = att.opponent();
    if pb.count(def, P4_FIVE) > 0 {
        return Status::Lost;
    }
    let fives = pb.count(att, P4_FIVE);
    if fives > 0 {
        if fives > 1 {
            return Status::Won;
        }
        let Some(b) =
            five_point_near(pb, att, m).or_else(|| first_point_at(pb, att, P4_FIVE, false))
        else {
            return Status::Lost;
        };
        if forbidden_for(pb, def, b) {
            return Status::Won;
        }
        return Status::Forced(b);
    }
    if !open_four_ready(pb, att) {
        return Status::Lost;
    }
    if pb.count(def, P4_FLEX4) > 0 && first_point_at(pb, def, P4_FLEX4, true).is_some() {
        return Status::Lost;
    }
    Status::Open
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::mnk::{splitmix64, Board, Rule};
    use crate::search::threats::Vct;
    use std::sync::atomic::AtomicBool;

    fn stones(rule: Rule, black: &[(i64, i64)], white: &[(i64, i64)], to_move: Color) -> Board {
        let mut b = Board::new(15, 15, rule).unwrap();
        for &(x, y) in black {
            b.place(b.pos(x, y).unwrap(), Color::Black);
        }
        for &(x, y) in white {
            b.place(b.pos(x, y).unwrap(), Color::White);
        }
        b.set_to_move(to_move);
        b
    }

    fn game(moves: &[(i64, i64)]) -> Board {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for &(x, y) in moves {
            b.play(b.pos(x, y).unwrap()).unwrap();
        }
        b
    }

    /// df-pn on `b` (side to move attacks): the win's first move and depth; asserts that the
    /// search finished (proof or disproof) and left the board as it was.
    fn solve(b: &Board, depth: u32, budget: u64) -> Option<((usize, usize), u32)> {
        let stop = AtomicBool::new(false);
        let tm = TimeManager::infinite(&stop);
        let mut pb = PatternBoard::new(b);
        let hash = pb.hash();
        let mut d = Dfpn::with_bytes(8 << 20);
        let found = d.find(&mut pb, depth, budget, &tm);
        assert!(!d.aborted(), "the budget is ample for this position");
        assert_eq!(pb.hash(), hash, "the board is restored");
        pb.validate();
        found.map(|(p, depth)| (b.xy(p), depth))
    }

    /// A lost game of sente against Rapfi (freestyle, s23 diagnosis game 38): after black's
    /// 49th stone at (3,10) white (Rapfi: +M31) wins by a threat sequence of 8 attacker moves.
    const GAME_38: [(i64, i64); 49] = [
        (7, 9),
        (9, 8),
        (9, 7),
        (8, 8),
        (10, 8),
        (8, 6),
        (8, 7),
        (10, 7),
        (8, 9),
        (6, 9),
        (6, 8),
        (5, 7),
        (10, 10),
        (9, 10),
        (9, 11),
        (11, 9),
        (8, 10),
        (10, 12),
        (7, 11),
        (6, 12),
        (8, 11),
        (6, 11),
        (8, 12),
        (8, 13),
        (6, 10),
        (5, 9),
        (5, 8),
        (4, 9),
        (5, 10),
        (3, 9),
        (2, 9),
        (4, 10),
        (7, 13),
        (6, 14),
        (4, 8),
        (2, 8),
        (5, 11),
        (7, 8),
        (11, 11),
        (10, 11),
        (11, 10),
        (4, 12),
        (4, 11),
        (3, 7),
        (12, 12),
        (9, 9),
        (5, 5),
        (4, 6),
        (3, 10),
    ];

    #[test]
    fn finds_the_eight_move_win_of_a_lost_game() {
        let b = game(&GAME_38);
        let (_, depth) = solve(&b, 12, 2_000_000).expect("white wins by threats");
        assert_eq!(depth, 8);
        // Seven attacker moves are not enough: disproven, not merely out of budget.
        assert_eq!(solve(&b, 7, 2_000_000), None);
        // Rapfi's own move there instead (11,13) leaves white no such win.
        let b = game(&[&GAME_38[..48], &[(11, 13)]].concat());
        assert_eq!(solve(&b, 8, 2_000_000), None);
    }

    /// Black: a horizontal two on row 7 and a vertical two in column 8 that meet at (8,7).
    const THREE_THREE: [(i64, i64); 4] = [(6, 7), (7, 7), (8, 5), (8, 6)];
    const FAR: [(i64, i64); 4] = [(0, 0), (14, 0), (0, 14), (14, 14)];

    #[test]
    fn a_double_three_wins_unless_the_defender_has_an_open_three() {
        let b = stones(Rule::Freestyle, &THREE_THREE, &FAR, Color::Black);
        assert_eq!(solve(&b, 4, 100_000), Some(((8, 7), 1)));
        // White's open three on row 12 becomes an open four as soon as black plays a quiet
        // threat: refuted.
        let white = [(2, 12), (3, 12), (4, 12), (14, 0)];
        let b = stones(Rule::Freestyle, &THREE_THREE, &white, Color::Black);
        assert_eq!(solve(&b, 4, 100_000), None);
    }

    #[test]
    fn renju_black_may_not_attack_or_defend_on_a_forbidden_point() {
        // Black's 3-3 at (8,7) is forbidden: no win through it (white's is allowed).
        let b = stones(Rule::Renju, &THREE_THREE, &FAR, Color::Black);
        assert!(solve(&b, 4, 100_000).is_none_or(|(p, _)| p != (8, 7)));
        let b = stones(Rule::Renju, &FAR, &THREE_THREE, Color::White);
        assert_eq!(solve(&b, 4, 100_000), Some(((8, 7), 1)));
        // White's closed three on row 10 (black at its left end): the four at (7,10) leaves
        // black one block, (8,10), which is black's 3-3 (column 8 and a diagonal) and so
        // forbidden: white wins at once under renju, not in freestyle.
        let black = [(3, 10), (8, 11), (8, 12), (9, 11), (10, 12), (14, 0)];
        let white = [(4, 10), (5, 10), (6, 10), (0, 14), (14, 14)];
        let b = stones(Rule::Renju, &black, &white, Color::White);
        assert_eq!(solve(&b, 4, 100_000), Some(((7, 10), 1)));
        let b = stones(Rule::Freestyle, &black, &white, Color::White);
        assert_eq!(solve(&b, 4, 100_000), None);
    }

    #[test]
    fn stops_within_its_budget() {
        let b = game(&GAME_38);
        let stop = AtomicBool::new(false);
        let tm = TimeManager::infinite(&stop);
        let mut pb = PatternBoard::new(&b);
        let mut d = Dfpn::with_bytes(1 << 20);
        assert_eq!(d.find(&mut pb, 12, 1_000, &tm), None);
        assert!(d.aborted());
        // The budget is checked as each node is entered; the children it looks at on the way
        // can take it past by one expansion at most.
        assert!(d.nodes() <= 1_000 + KIDS_MARGIN as u64, "{}", d.nodes());
        pb.validate();
    }

    #[test]
    fn agrees_with_the_depth_first_vct() {
        // The same threat model searched two ways: at every depth limit both must reach the
        // same verdict on random crowded centres, under freestyle and renju.
        let stop = AtomicBool::new(false);
        let tm = TimeManager::infinite(&stop);
        let mut state = 2024u64;
        let mut wins = [0u32; 4];
        let mut d = Dfpn::with_bytes(4 << 20);
        for rule in [Rule::Freestyle, Rule::Renju] {
            for _ in 0..120 {
                let mut b = Board::new(15, 15, rule).unwrap();
                let n = 8 + (splitmix64(&mut state) % 10) as usize;
                let mut placed = 0;
                while placed < n {
                    let r = splitmix64(&mut state);
                    let p = b.pos(4 + (r % 7) as i64, 4 + (r / 7 % 7) as i64).unwrap();
                    if b.is_empty(p) && b.play(p).is_ok() {
                        placed += 1;
                    }
                }
                if b.is_over() {
                    continue;
                }
                let mut pb = PatternBoard::new(&b);
                for depth in 1..=3 {
                    let mut v = Vct::with_bytes(1 << 16);
                    let old = v.find(&mut pb, depth, 5_000_000, &tm);
                    let new = d.find(&mut pb, depth, 5_000_000, &tm);
                    assert!(!v.aborted() && !d.aborted());
                    assert_eq!(
                        old.map(|(_, k)| k),
                        new.map(|(_, k)| k),
                        "{rule:?} depth {depth}:\n{}",
                        b.to_text()
                    );
                    wins[depth as usize] += new.is_some() as u32;
                }
                pb.validate();
            }
        }
        eprintln!("wins at depth 1..3: {:?}", &wins[1..]);
        assert!(
            wins[1] >= 10 && wins[3] > wins[1],
            "too few wins to test: {wins:?}"
        );
    }
}
