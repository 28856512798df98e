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

pub mod defend;
pub mod moves;

use crate::eval::gomoku::patterns::{
    PatternBoard, P4_BLOCK4, P4_BLOCK4_FLEX3, P4_FIVE, P4_FLEX3, P4_FLEX3_2X, P4_FLEX4,
};
use crate::rules::gomoku::{renju, three_three};
use crate::rules::{Color, Pos};
use crate::search::clock::TimeManager;
use crate::search::threats::moves::{open_four_ready, ThreatMoves};
use crate::search::zeroed::{power_of_two_entries, zeroed_slice, Epoch, Zeroable};

/// Entries in the cache of positions already shown to have no VCF.
const FAIL_CACHE: usize = 1 << 16;

/// A reusable VCF searcher (its cache is allocated once).
pub struct Vcf {
    fail_cache: Vec<u64>,
    nodes: u64,
    node_budget: u64,
    /// Out of nodes or time: every node on the way back up fails at once, and no failure is
    /// cached (it was not proven).
    aborted: bool,
}

impl Default for Vcf {
    fn default() -> Self {
        Vcf::new()
    }
}

/// Whether black may not play `p` in the current position of `pb` (renju, no-double-three). The few points
/// that need the full test get it in place (hypothetical stones put on `pb`'s board and taken
/// off again), so the search never allocates for it.
pub fn forbidden_for(pb: &mut PatternBoard, color: Color, p: Pos) -> bool {
    if color != Color::Black || !pb.board().rule().restricts_black() {
        return false;
    }
    let level = pb.p4(Color::Black, p);
    if level == P4_FIVE {
        return false;
    }
    if !pb.board().rule().renju() {
        // No-double-three (freestyle patterns): two open threes combine into 3-3 or above, so
        // only those levels get the read-only scan of the four lines through p.
        let suspicious = matches!(level, P4_FLEX3_2X | P4_BLOCK4_FLEX3 | P4_FLEX4);
        return suspicious && three_three::forbidden(pb.board(), p).is_some();
    }
    let suspicious = pb.overline_at(Color::Black, p)
        || level == P4_FLEX4
        || level == P4_BLOCK4_FLEX3
        || level == P4_FLEX3_2X;
    suspicious && renju::forbidden_in_place(pb.board_mut(), p).is_some()
}

/// A point where `c` makes an open four and may play (renju: black's may all be forbidden,
/// and then its "three" is no threat). The count first: most positions have none.
pub fn open_four_point(pb: &mut PatternBoard, c: Color) -> Option<Pos> {
    if pb.count(c, P4_FLEX4) == 0 {
        return None;
    }
    first_point_at(pb, c, P4_FLEX4, true)
}

/// The first empty point, row by row, where `c` reaches threat `level`; with `playable`, the
/// first that `c` may also legally play (renju).
pub fn first_point_at(pb: &mut PatternBoard, c: Color, level: u8, playable: bool) -> Option<Pos> {
    let mut from = Pos(0);
    while let Some(p) = pb.next_at(c, level, from) {
        if !playable || !forbidden_for(pb, c, p) {
            return Some(p);
        }
        from = Pos(p.0 + 1);
    }
    None
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
            aborted: false,
        }
    }

    /// Nodes visited by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the last call ran out of nodes or time before it could answer for certain.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Bytes held by the fail cache.
    pub fn bytes(&self) -> usize {
        self.fail_cache.capacity() * std::mem::size_of::<u64>()
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
        self.aborted = false;
        let mut line = Vec::with_capacity(2 * max_plies as usize + 2);
        let attacker = pb.to_move();
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
        // The clock is polled every 256 nodes (~0.1-0.3 ms; renju nodes cost more). Once the
        // deadline has passed the whole search unwinds: before, only the polling node failed
        // and its parent went on with the next four, so a VCF ran on past the hard deadline
        // until its node budget ran out, caching unproven failures on the way.
        if self.aborted
            || self.nodes > self.node_budget
            || (self.nodes & 255 == 0 && tm.should_stop(0))
        {
            self.aborted = true;
            return false;
        }
        let def = att.opponent();
        if pb.count(att, P4_FIVE) > 0 {
            if let Some(p) = first_point_at(pb, att, P4_FIVE, false) {
                line.push(p);
            }
            return true;
        }
        if pb.count(def, P4_FIVE) > 0 {
            // The defender threatens five: we may only go on if blocking it is itself a four.
            if pb.count(def, P4_FIVE) > 1 {
                return false;
            }
            let Some(b) = first_point_at(pb, def, P4_FIVE, false) else {
                return false;
            };
            let level = pb.p4(att, b);
            if !(P4_BLOCK4..=P4_FLEX4).contains(&level) || forbidden_for(pb, att, b) {
                return false;
            }
            return self.try_four(pb, att, b, plies, tm, line);
        }
        if let Some(p) = open_four_point(pb, att) {
            line.push(p);
            return true;
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
            // Strongest fours first: a 4-3 usually ends it at once. The point set is read
            // live: each try plays and undoes, leaving it as it was.
            for level in (P4_BLOCK4..=P4_BLOCK4_FLEX3).rev() {
                let mut from = Pos(0);
                while let Some(p) = pb.next_at(att, level, from) {
                    from = Pos(p.0 + 1);
                    if forbidden_for(pb, att, p) {
                        continue;
                    }
                    if self.try_four(pb, att, p, plies, tm, line) {
                        return true;
                    }
                    if self.aborted {
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

/// The threat searches a player keeps between moves: VCF and VCT with their caches.
pub struct Threats {
    /// Victory by continuous fours.
    pub vcf: Vcf,
    /// Victory by continuous threats (fours and threes).
    pub vct: Vct,
}

impl Threats {
    /// Both searches, the VCT cache taking at most `vct_bytes`.
    pub fn new(vct_bytes: usize) -> Threats {
        Threats {
            vcf: Vcf::new(),
            vct: Vct::with_bytes(vct_bytes),
        }
    }

    /// Bytes held by both caches.
    pub fn bytes(&self) -> usize {
        self.vcf.bytes() + self.vct.bytes()
    }

    /// Forgets cached results (new game).
    pub fn clear(&mut self) {
        self.vcf.clear();
        self.vct.clear();
    }
}

impl Default for Threats {
    fn default() -> Self {
        Threats::new(1 << 20)
    }
}

/// One entry of the VCT result cache: a proven win or a proven failure at some depth.
#[derive(Clone, Copy, Default)]
struct VctEntry {
    key: u64,
    depth: u8,
    /// 1 = proven win, 0 = proven failure (an integer so that zeroed memory is valid).
    win: u8,
    /// The cache's [`Epoch`] when written; another epoch means empty.
    epoch: u8,
}

// SAFETY: integers only; all zero is an empty entry (epoch 0 is never current).
unsafe impl Zeroable for VctEntry {}

/// Salts that keep attacker and defender nodes of either colour apart in the cache.
const SALT_ATTACK: [u64; 2] = [0x51AF_D7ED_558C_CD1D, 0xC4CE_B9FE_1A85_EC53];
const SALT_DEFEND: [u64; 2] = [0x9FB2_1C65_1E98_DF25, 0x2545_F491_4F6C_DD1D];

/// Fewest cache entries, whatever the memory limit.
const VCT_MIN_ENTRIES: usize = 1 << 10;

/// VCT: victory by continuous threats, fours *and* open threes. After a four the defender's
/// reply is forced; after an open three the defender may try every move that leaves the attacker
/// no open-four point, and every four of its own (which the attacker must answer first). The
/// attacker wins when every defence loses.
///
/// ```text
///   attack(d):  five / open four ready -> win;  d = 0 -> fail
///               for m in fours and threes of the attacker: play m; defend(d - 1) -> win
///   defend(d):  attacker's four  -> the single block, then attack(d)
///               attacker's three -> every block that kills all its open-four points, then
///                                   attack(d); every defender four, the attacker's forced
///                                   block, then defend(d) again. Win only if all of them win.
/// ```
/// Results are cached (a win at depth d holds at any depth >= d, a failure at any depth <= d);
/// a search cut short by its node budget or the clock caches no failure. Renju is respected on
/// both sides through [`forbidden_for`]. All buffers are allocated at construction, sized from a
/// byte budget ([`Vct::with_bytes`]), so searching never allocates.
pub struct Vct {
    cache: Box<[VctEntry]>,
    mask: usize,
    epoch: Epoch,
    nodes: u64,
    budget: u64,
    aborted: bool,
    gen: ThreatMoves,
}

impl Default for Vct {
    fn default() -> Self {
        Vct::with_bytes(1 << 20)
    }
}

impl Vct {
    /// A searcher whose cache takes at most `bytes` bytes (at least a small minimum).
    pub fn with_bytes(bytes: usize) -> Vct {
        let n = power_of_two_entries(bytes, std::mem::size_of::<VctEntry>(), VCT_MIN_ENTRIES);
        Vct {
            cache: zeroed_slice(n),
            mask: n - 1,
            epoch: Epoch::default(),
            nodes: 0,
            budget: 0,
            aborted: false,
            gen: ThreatMoves::new(),
        }
    }

    /// Bytes held by the cache and scratch buffers (for the memory limit).
    pub fn bytes(&self) -> usize {
        self.cache.len() * std::mem::size_of::<VctEntry>() + self.gen.bytes()
    }

    /// Bytes of the result cache alone (what [`Vct::with_bytes`] was asked to bound).
    pub fn cache_bytes(&self) -> usize {
        self.cache.len() * std::mem::size_of::<VctEntry>()
    }

    /// What [`Vct::cache_bytes`] will be for a searcher built with [`Vct::with_bytes`]`(bytes)`.
    pub fn cache_bytes_for(bytes: usize) -> usize {
        power_of_two_entries(bytes, std::mem::size_of::<VctEntry>(), VCT_MIN_ENTRIES)
            * std::mem::size_of::<VctEntry>()
    }

    /// Nodes visited by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the last call ran out of nodes or time before it could answer for certain.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Forgets every cached result (O(1) but once in 255 calls).
    pub fn clear(&mut self) {
        if self.epoch.advance() {
            self.cache.fill(VctEntry::default());
        }
    }

    /// Searches for a VCT for the side to move with at most `max_depth` attacker moves and
    /// `node_budget` nodes, deepening one attacker move at a time so the shortest win found is
    /// returned. Returns the first move of the win and the depth it needed.
    pub fn find(
        &mut self,
        pb: &mut PatternBoard,
        max_depth: u32,
        node_budget: u64,
        tm: &TimeManager<'_>,
    ) -> Option<(Pos, u32)> {
        self.nodes = 0;
        self.budget = node_budget;
        self.aborted = false;
        self.gen.prepare(pb);
        let att = pb.to_move();
        for depth in 1..=max_depth {
            if let Some(m) = self.root(pb, att, depth, tm) {
                return Some((m, depth));
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    /// Whether the side *not* to move would have a VCT if it could move now (a null move): the
    /// threat the side to move has to answer.
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

    /// The root of one deepening step: like [`Vct::attack`] but remembers the winning move.
    fn root(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        depth: u32,
        tm: &TimeManager<'_>,
    ) -> Option<Pos> {
        if let Some(m) = self.immediate(pb, att) {
            return Some(m);
        }
        if pb.count(att.opponent(), P4_FIVE) > 0 {
            return self.forced_block(pb, att, depth, tm);
        }
        self.winning_threat(pb, att, depth, tm)
    }

    /// The defender threatens five, so the block is forced; it keeps the attack going only if
    /// it is itself a threat. Returns the block when it wins.
    fn forced_block(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        depth: u32,
        tm: &TimeManager<'_>,
    ) -> Option<Pos> {
        let def = att.opponent();
        if pb.count(def, P4_FIVE) > 1 || depth == 0 {
            return None;
        }
        let b = first_point_at(pb, def, P4_FIVE, false)?;
        let level = pb.p4(att, b);
        if !(P4_FLEX3..P4_FIVE).contains(&level) || forbidden_for(pb, att, b) {
            return None;
        }
        self.try_threat(pb, att, b, depth, tm).then_some(b)
    }

    /// The first of the attacker's threat moves after which every defence loses.
    fn winning_threat(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        depth: u32,
        tm: &TimeManager<'_>,
    ) -> Option<Pos> {
        let base = self.gen.stack.len();
        self.gen.attack_moves(pb, att, depth >= 2);
        let mut found = None;
        for i in base..self.gen.stack.len() {
            let m = self.gen.stack[i];
            if self.try_threat(pb, att, m, depth, tm) {
                found = Some(m);
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.gen.stack.truncate(base);
        found
    }

    /// A win that needs no search: a five, or an open four (for renju black: a legal one). The
    /// defender's own five point is not checked here; [`Vct::attack`] handles it first.
    fn immediate(&self, pb: &mut PatternBoard, att: Color) -> Option<Pos> {
        if pb.count(att, P4_FIVE) > 0 {
            return first_point_at(pb, att, P4_FIVE, false);
        }
        if pb.count(att.opponent(), P4_FIVE) > 0 {
            return None;
        }
        open_four_point(pb, att)
    }

    #[inline]
    fn spend(&mut self, tm: &TimeManager<'_>) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget || (self.nodes & 255 == 0 && tm.should_stop(0)) {
            self.aborted = true;
        }
        self.aborted
    }

    fn probe(&self, key: u64, depth: u32) -> Option<bool> {
        let e = &self.cache[key as usize & self.mask];
        if e.key != key || e.epoch != self.epoch.stamp() {
            return None;
        }
        let win = e.win != 0;
        if win && u32::from(e.depth) <= depth {
            Some(true)
        } else if !win && u32::from(e.depth) >= depth {
            Some(false)
        } else {
            None
        }
    }

    fn store(&mut self, key: u64, depth: u32, win: bool) {
        if !win && self.aborted {
            return;
        }
        let e = &mut self.cache[key as usize & self.mask];
        *e = VctEntry {
            key,
            depth: depth.min(255) as u8,
            win: win as u8,
            epoch: self.epoch.stamp(),
        };
    }

    /// Attacker to move with `depth` threat moves left: can it force a win?
    fn attack(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        depth: u32,
        tm: &TimeManager<'_>,
    ) -> bool {
        if self.spend(tm) {
            return false;
        }
        let def = att.opponent();
        if pb.count(att, P4_FIVE) > 0 {
            return true;
        }
        if pb.count(def, P4_FIVE) > 0 {
            return self.forced_block(pb, att, depth, tm).is_some();
        }
        if open_four_point(pb, att).is_some() {
            return true;
        }
        if depth == 0 {
            return false;
        }
        let key = pb.hash() ^ SALT_ATTACK[att.index()];
        if let Some(known) = self.probe(key, depth) {
            return known;
        }
        let won = self.winning_threat(pb, att, depth, tm).is_some();
        self.store(key, depth, won);
        won
    }

    /// Plays the attacker's threat `m` and asks whether every defence loses.
    fn try_threat(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        m: Pos,
        depth: u32,
        tm: &TimeManager<'_>,
    ) -> bool {
        pb.play(m);
        let won = self.defend(pb, att, m, depth - 1, tm);
        pb.undo();
        won
    }

    /// Defender to move after the attacker's threat at `m`: does the attacker win whatever the
    /// defender does?
    fn defend(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        m: Pos,
        depth: u32,
        tm: &TimeManager<'_>,
    ) -> bool {
        if self.spend(tm) {
            return false;
        }
        let def = att.opponent();
        if pb.count(def, P4_FIVE) > 0 {
            return false;
        }
        let fives = pb.count(att, P4_FIVE);
        if fives > 0 {
            if fives > 1 {
                return true;
            }
            let b = match five_point_near(pb, att, m) {
                Some(b) => b,
                None => match first_point_at(pb, att, P4_FIVE, false) {
                    Some(b) => b,
                    None => return false,
                },
            };
            if forbidden_for(pb, def, b) {
                return true;
            }
            pb.play(b);
            let won = self.attack(pb, att, depth, tm);
            pb.undo();
            return won;
        }
        if !open_four_ready(pb, att) {
            // Not a real threat (renju: its open-four points are forbidden).
            return false;
        }
        if open_four_point(pb, def).is_some() {
            // The defender's own open four is faster than the attacker's.
            return false;
        }
        let key = pb.hash() ^ SALT_DEFEND[att.index()];
        if let Some(known) = self.probe(key, depth) {
            return known;
        }
        let base = self.gen.stack.len();
        let blocks = self.gen.defence_moves(pb, att, m);
        let mut won = true;
        // Blocks: each must leave no open-four point, then the attacker goes on.
        for i in base..base + blocks {
            let q = self.gen.stack[i];
            if forbidden_for(pb, def, q) {
                continue;
            }
            pb.play(q);
            let result = if open_four_ready(pb, att) {
                None
            } else {
                Some(self.attack(pb, att, depth, tm))
            };
            pb.undo();
            if result == Some(false) || self.aborted {
                won = false;
                break;
            }
        }
        // Counter-fours: the attacker must block, then the defender faces the threat again.
        if won {
            for i in base + blocks..self.gen.stack.len() {
                let d = self.gen.stack[i];
                if forbidden_for(pb, def, d) {
                    continue;
                }
                pb.play(d);
                let result = if !open_four_ready(pb, att) {
                    // A four that also blocks was judged among the blocks.
                    true
                } else if pb.count(def, P4_FIVE) > 1 {
                    false
                } else {
                    match five_point_near(pb, def, d) {
                        Some(b) if !forbidden_for(pb, att, b) => {
                            pb.play(b);
                            let r = self.defend(pb, att, m, depth, tm);
                            pb.undo();
                            r
                        }
                        _ => false,
                    }
                };
                pb.undo();
                if !result || self.aborted {
                    won = false;
                    break;
                }
            }
        }
        self.gen.stack.truncate(base);
        self.store(key, depth, won);
        won
    }

    /// The defender's real answers to the attacker's three at `m` (the side to move is the
    /// defender): the blocks that leave no open-four point, then its own fours. For analysis and
    /// tests; the search uses the same candidates without collecting them.
    pub fn defences(&mut self, pb: &mut PatternBoard, m: Pos) -> Vec<Pos> {
        self.gen.prepare(pb);
        let def = pb.to_move();
        let att = def.opponent();
        let base = self.gen.stack.len();
        let blocks = self.gen.defence_moves(pb, att, m);
        let mut out = Vec::new();
        for i in base..self.gen.stack.len() {
            let q = self.gen.stack[i];
            if forbidden_for(pb, def, q) {
                continue;
            }
            pb.play(q);
            let keeps = i >= base + blocks || !open_four_ready(pb, att);
            pb.undo();
            if keeps && !out.contains(&q) {
                out.push(q);
            }
        }
        self.gen.stack.truncate(base);
        out
    }
}

#[cfg(test)]
mod tests;
