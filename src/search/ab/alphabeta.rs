//! Iterative-deepening principal-variation search for gomoku-family boards (k = 5), over the
//! incremental [`PatternBoard`]. Departure from the design's "generic over the game": the
//! threat logic (five points, forced blocks, four-only quiescence) is what makes gomoku search
//! strong and it is specific to five-in-a-row, so this searcher is too; tic-tac-toe has its own
//! exact solver.
//!
//! At every node, before anything else:
//! ```text
//!   we can make five            -> win now
//!   they can make five          -> the block is the only move (two five points: lost)
//!   we can make an open four    -> win in three plies
//!   they threaten an open four  -> only our fours and the points that defend
//! ```
//! Leaves are resolved by a quiescence search over fours only (a VCF at every leaf), so a
//! horizon never hides a forced win by fours.
//!
//! Selectivity: the weakest candidates are not searched at all (`move_limit*`), unless every
//! move searched loses by force: a loss is only claimed once the moves left out (and those the
//! pruning skipped) lose too, since a defence past the limit otherwise becomes a false win for
//! the other side, which the search then plays for. Near the leaves a non-PV node far above
//! beta returns its static value (reverse futility) and low-policy quiet moves are skipped
//! (move-count pruning), both in [`crate::search::ab::pruning`]; late quiet moves are reduced by
//! ln(depth) * ln(index) / 2, one ply more off the PV and one ply less or more by their history
//! ([`Searcher::update_history`]) and policy. Nothing is pruned while the opponent threatens a
//! forced win (an open three, a 4-3 or 3-3 point), and the answers to an open three are
//! searched a ply deeper, at most twice on a path (so long threat sequences of the opponent
//! come into view). The constants are [`SearchParams`]'s: one set for an evaluation with a
//! learned policy, one for the hand evaluation ([`SearchParams::hand`]).

use std::time::{Duration, Instant};

use crate::eval::gomoku::patterns::{
    PatternBoard, FOURS, P4_BLOCK4, P4_BLOCK4_FLEX3, P4_FIVE, P4_FLEX3, P4_FLEX3_2X, P4_FLEX4,
};
use crate::rules::{Color, Pos};
use crate::search::ab::params::{LmrTable, SearchParams, ORDER_ATTACK, ORDER_DEFEND};
use crate::search::ab::pruning::{corrected_static_value, move_count_prunes, reverse_futile};
use crate::search::ab::root_threats::RootThreatStats;
use crate::search::ab::smp::{move_key, Shared};
use crate::search::ab::tt::{Bound, TranspositionTable};
use crate::search::clock::{Stability, TimeManager};
use crate::search::threats::{first_point_at, forbidden_for, open_four_point, Threats};
use crate::search::SearchInfo;

/// Score of a win at the root; a win in n plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = MATE + 1;
const MAX_PLY: usize = 96;
/// Aspiration windows start at this iteration (shallower ones are too cheap to gain).
const ASPIRATION_DEPTH: u32 = 5;

/// A score as stored in the table: mate distances from this node instead of the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The result of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// Move to play (None only when no legal move exists).
    pub best: Option<Pos>,
    /// Final report (score from the mover's view, depth, nodes, PV).
    pub info: SearchInfo,
}

#[derive(Clone, Copy)]
pub struct RootMove {
    pub(super) pos: Pos,
    score: i32,
    order: i32,
}

/// The root's moves once the forced answers and the root threat analysis are done: what every
/// thread of a parallel search deepens ([`Searcher::prepare`], [`Searcher::deepen`]).
#[derive(Clone)]
pub struct RootMoves(Vec<RootMove>);

impl RootMoves {
    /// The points of the moves, in order.
    pub fn points(&self) -> impl Iterator<Item = Pos> + '_ {
        self.0.iter().map(|rm| rm.pos)
    }
}

/// One search over a position; borrows the player's long-lived table and threat caches.
pub struct Searcher<'a, 'm, 's> {
    pub(super) pb: PatternBoard,
    tt: &'a TranspositionTable,
    pub(super) threats: &'a mut Threats,
    pub(super) tm: &'m TimeManager<'s>,
    points: Vec<Pos>,
    pub(super) nodes: u64,
    stopped: bool,
    seldepth: u32,
    killers: Vec<[Pos; 2]>,
    /// Defence extensions on the path to each ply (see [`Searcher::search`]).
    extensions: Vec<i32>,
    /// Per colour (index [`hist_at`]), kept within +-`hist_max`: how often a quiet move at
    /// a point caused a cut-off lately (up) or was tried before the one that did (down).
    history: Vec<i32>,
    /// Points on the board's padded array (the stride of a colour's half of `history`).
    cells: usize,
    moves: Vec<Vec<(Pos, i32)>>,
    started: Instant,
    /// This searcher's thread in a parallel search: 0 leads (owns the clock and reports),
    /// others are helpers that ignore the clock and stop when told ([`super::smp`]).
    thread: usize,
    /// What the threads of a parallel search share (none: a search alone).
    shared: Option<&'a Shared>,
    /// Nodes of ours already added to `shared`'s count.
    published: u64,
    /// The deepest iteration this searcher completed (0: none).
    completed: u32,
    /// Moves this searcher deferred because another thread was searching them.
    deferred: u64,
    /// The search's constants.
    pub(super) params: SearchParams,
    /// Late-move reductions from `params`.
    lmr: LmrTable,
    /// What the last root threat analysis spent ([`super::root_threats`]).
    pub(super) threat_stats: RootThreatStats,
    /// Whether that analysis reads the thread's CPU time (a system call per part).
    pub(super) measure_cpu: bool,
    /// The analysis's node budget, instead of the one the limit implies (for measurement).
    pub(super) threat_budget_override: Option<u64>,
}

impl<'a, 'm, 's> Searcher<'a, 'm, 's> {
    /// A searcher for `pb`'s position with the search constants `params`.
    pub fn new(
        pb: PatternBoard,
        tt: &'a TranspositionTable,
        threats: &'a mut Threats,
        tm: &'m TimeManager<'s>,
        params: &SearchParams,
    ) -> Self {
        let points: Vec<Pos> = pb.board().points().collect();
        let cells = pb.board().array_len();
        let capacity = points.len();
        let params = params.clone();
        let lmr = params.lmr_table();
        Searcher {
            pb,
            tt,
            threats,
            tm,
            points,
            nodes: 0,
            stopped: false,
            seldepth: 0,
            killers: vec![[Pos(0); 2]; MAX_PLY + 2],
            extensions: vec![0; MAX_PLY + 2],
            history: vec![0; 2 * cells],
            cells,
            moves: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(capacity))
                .collect(),
            started: Instant::now(),
            thread: 0,
            shared: None,
            published: 0,
            completed: 0,
            deferred: 0,
            params,
            lmr,
            threat_stats: RootThreatStats::default(),
            measure_cpu: false,
            threat_budget_override: None,
        }
    }

    /// A searcher with the default constants (for tests).
    #[cfg(test)]
    pub(crate) fn with_defaults(
        pb: PatternBoard,
        tt: &'a TranspositionTable,
        threats: &'a mut Threats,
        tm: &'m TimeManager<'s>,
    ) -> Self {
        Self::new(pb, tt, threats, tm, &SearchParams::default())
    }

    /// Gives the root threat analysis `nodes` whatever the limit (to measure what a timed
    /// move's analysis costs under a node limit), and reads the thread's CPU time per part.
    pub fn measuring_threats(mut self, nodes: Option<u64>) -> Self {
        self.threat_budget_override = nodes;
        self.measure_cpu = true;
        self
    }

    /// What the last root threat analysis spent and found, part by part.
    pub fn threat_stats(&self) -> &RootThreatStats {
        &self.threat_stats
    }

    /// Makes this searcher thread `thread` of a parallel search sharing `shared` (and the
    /// table): thread 0 leads, the others help.
    pub fn in_parallel(mut self, thread: usize, shared: &'a Shared) -> Self {
        self.thread = thread;
        self.shared = Some(shared);
        self
    }

    /// Nodes searched by this searcher.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The deepest iteration this searcher completed (0: none).
    pub fn completed_depth(&self) -> u32 {
        self.completed
    }

    /// How many moves this searcher deferred because another thread was searching them.
    pub fn deferred(&self) -> u64 {
        self.deferred
    }

    /// How many threads search (1: alone).
    pub(super) fn threads(&self) -> u64 {
        self.shared.map_or(1, |s| s.threads())
    }

    /// Nodes searched by every thread, as far as the others have told (ours exactly).
    pub(super) fn all_nodes(&self) -> u64 {
        self.shared.map_or(0, |s| s.nodes() - self.published) + self.nodes
    }

    #[inline]
    fn poll(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            let stop = match self.shared {
                None => self.tm.should_stop(self.nodes),
                Some(shared) => {
                    let total = shared.add_nodes(self.nodes - self.published);
                    self.published = self.nodes;
                    if self.thread == 0 {
                        self.tm.should_stop(total)
                    } else {
                        // The leader keeps the clock; a node budget binds every thread.
                        shared.stopped() || self.tm.max_nodes().is_some_and(|max| total >= max)
                    }
                }
            };
            self.stopped |= stop;
        }
        self.stopped
    }

    /// First empty point where `c` reaches `level` (and may play, for the mover).
    fn find(&mut self, c: Color, level: u8, playable: bool) -> Option<Pos> {
        first_point_at(&mut self.pb, c, level, playable)
    }

    /// Whether `c` can make an open four with its next move ([`open_four_point`]). A black
    /// three whose open-four points are all forbidden is no threat: answering it as one kept
    /// white's real moves out of the search (a white three that won was never tried, and
    /// black claimed a forced win it did not have).
    fn threatens_open_four(&mut self, c: Color) -> bool {
        open_four_point(&mut self.pb, c).is_some()
    }

    /// The value of a node with no move to search. With an open three of the opponent's to
    /// answer, every answer and every four is forbidden to black (renju): whatever black
    /// plays, the open four comes and then the five, four moves from here. Else the near
    /// points are all taken or forbidden, and the game is as good as drawn.
    fn no_move_score(&mut self, ply: usize) -> i32 {
        let o = self.pb.to_move().opponent();
        if self.threatens_open_four(o) {
            -(MATE - (ply as i32 + 4))
        } else {
            0
        }
    }

    /// Fills `self.moves[ply]` with ordered candidates; returns how many to search.
    fn generate(&mut self, ply: usize, tt_move: Option<Pos>, limit: usize) -> usize {
        let c = self.pb.to_move();
        let o = c.opponent();
        let mut list = std::mem::take(&mut self.moves[ply]);
        list.clear();
        let must_defend = self.threatens_open_four(o);
        // The empty points near a stone (every point on an empty board); the order does not
        // matter, the selection below orders them totally.
        let all = self.pb.board().stones() == 0;
        let points = self.points.iter().copied().filter(|_| all);
        let params = &self.params;
        let policy = self.uses_policy();
        for p in self.pb.candidates().chain(points) {
            let a = self.pb.p4(c, p);
            let d = self.pb.p4(o, p);
            if must_defend && a < P4_BLOCK4 && d < P4_BLOCK4 {
                continue;
            }
            // The threat classes first; then the learned policy where there is one (it has
            // learned what the shapes are worth), else the hand line values.
            let shape = if policy {
                self.pb.policy_score(p) * params.policy_weight / 16
            } else {
                self.pb.cell_value(c, p) + self.pb.cell_value(o, p) * 3 / 4
            };
            let mut score = ORDER_ATTACK[a as usize]
                + ORDER_DEFEND[d as usize]
                + shape
                + self.history[hist_at(c, p, self.cells)] / params.hist_scale;
            if Some(p) == tt_move {
                score += 1 << 24;
            } else if self.killers[ply].contains(&p) {
                score += params.killer_bonus;
            }
            list.push((p, score));
        }
        if c == Color::Black && self.pb.board().rule().restricts_black() {
            let pb = &mut self.pb;
            list.retain(|&(p, _)| !forbidden_for(pb, c, p));
        }
        let n = if must_defend {
            list.len()
        } else {
            list.len().min(limit)
        };
        // Only the first `n` are searched: select them, then order just those. The order is
        // total (ties by point), so this equals a full sort's first `n`.
        if n > 0 && n < list.len() {
            list.select_nth_unstable_by(n - 1, by_order);
        }
        list[..n].sort_unstable_by(by_order);
        self.moves[ply] = list;
        n
    }

    /// The threat checks every node starts with. `Some(score)` ends the node.
    fn threats(&mut self, alpha: i32, beta: i32, depth: i32, ply: usize, qply: u32) -> Option<i32> {
        let c = self.pb.to_move();
        let o = c.opponent();
        if self.pb.count(c, P4_FIVE) > 0 {
            return Some(MATE - (ply as i32 + 1));
        }
        let their_fives = self.pb.count(o, P4_FIVE);
        if their_fives > 0 {
            if their_fives > 1 {
                return Some(-(MATE - (ply as i32 + 2)));
            }
            let block = self.find(o, P4_FIVE, false)?;
            if forbidden_for(&mut self.pb, c, block) {
                return Some(-(MATE - (ply as i32 + 2)));
            }
            self.pb.play(block);
            let score = if depth > 0 {
                -self.search(depth, -beta, -alpha, ply + 1)
            } else {
                -self.quiesce(-beta, -alpha, ply + 1, qply)
            };
            self.pb.undo();
            return Some(score);
        }
        if self.threatens_open_four(c) {
            return Some(MATE - (ply as i32 + 3));
        }
        if self.pb.board().is_full() {
            return Some(0);
        }
        None
    }

    fn search(&mut self, mut depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.poll() {
            return 0;
        }
        self.inherit_extensions(ply);
        self.seldepth = self.seldepth.max(ply as u32);
        if let Some(score) = self.threats(alpha, beta, depth, ply, 0) {
            return score;
        }
        // The opponent threatens an open four: the answers are few (our fours and the points
        // that stop it), so they are searched a ply deeper, down to the leaves. A threat
        // sequence then costs the attacker one ply per three instead of two, which is what
        // lets the search see the long ones (VCTs of 8-20 moves decided most lost games).
        // At most `defend_extension_max` on a path: an open three that stands while the
        // defender plays fours would otherwise extend every node of the chain.
        if self.params.defend_extension > 0
            && ply + 2 * (depth.max(0) as usize) < MAX_PLY
            && self.extensions[ply + 1] < self.params.defend_extension_max
            && self.threatens_open_four(self.pb.to_move().opponent())
        {
            depth = depth.max(0) + self.params.defend_extension;
            self.extensions[ply + 1] += 1;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(alpha, beta, ply, 0);
        }
        // Mate-distance pruning: nothing here can beat a win already found nearer the root.
        let best_possible = MATE - (ply as i32 + 1);
        if alpha >= best_possible {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let hash = self.pb.hash();
        let mut tt_move = None;
        let mut tt_bound = None;
        if let Some(hit) = self.tt.probe(hash) {
            tt_move = hit.mv.filter(|&m| self.pb.board().is_empty(m));
            let s = from_tt(hit.score, ply);
            tt_bound = Some((hit.bound, s));
            if !pv_node && hit.depth >= depth {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return s;
                }
            }
        }
        let c = self.pb.to_move();
        let o = c.opponent();
        // The opponent threatens to win by force next move (an open three, a 4-3 or 3-3
        // point): the static value says nothing about this node, so nothing is pruned here.
        let danger = self.pb.count(o, P4_FLEX4) > 0
            || self.pb.count(o, P4_BLOCK4_FLEX3) > 0
            || self.pb.count(o, P4_FLEX3_2X) > 0;
        let prunable = !pv_node && !danger && alpha.abs() < MATE_BOUND && beta.abs() < MATE_BOUND;
        let mut static_eval = if prunable { self.pb.evaluate() } else { 0 };
        // A searched bound says more than the static value: use it where it is tighter (the
        // static value misjudges threats a search has already read).
        if let (true, Some((bound, s))) = (prunable && self.params.tt_eval, tt_bound) {
            static_eval = corrected_static_value(static_eval, bound, s);
        }
        // Reverse futility: this far above beta so near the leaves, the opponent's replies
        // will not bring it down.
        if prunable && reverse_futile(&self.params, depth, static_eval, beta) {
            return static_eval;
        }
        let n = self.generate(ply, tt_move, self.params.move_limit(depth));
        if n == 0 {
            return self.no_move_score(ply);
        }
        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = None;
        // With other threads, a move one of them is searching now is deferred to the end
        // (see [`Shared::busy`]); alone, `deferred` stays empty and the moves go in order.
        let splits = self.shared.filter(|s| depth >= s.split_depth());
        let mut queue = MoveQueue::new(n);
        // Moves of the first `n` that the pruning rules skipped (the first 64), and whether
        // the rest of the list is being searched because every move tried so far loses.
        let mut pruned = 0u64;
        let mut rescue = false;
        loop {
            let Some(i) = queue.pop() else {
                // A loss is proven only when no move holds: if every move searched loses
                // by force, the moves the limit left out or the pruning skipped are searched
                // too before the node says so. Else a defence the list had no room for (a
                // far block, a counter-threat the order ranks low) turns into a false mate
                // that the search then steers for (renju games against Rapfi: a "mate in 11"
                // gone the next move, and the game lost).
                let len = self.moves[ply].len();
                if rescue || best > -MATE_BOUND || self.stopped || (pruned == 0 && len == n) {
                    break;
                }
                rescue = true;
                self.moves[ply][n..].sort_unstable_by(by_order);
                queue = MoveQueue::new(len);
                continue;
            };
            if rescue && i < n && (i >= 64 || pruned & (1 << i) == 0) {
                continue;
            }
            let (m, order) = self.moves[ply][i];
            let quiet = self.quiet(m);
            // Not stored as a killer: the table's move and threats (ordered first anyway).
            let forcing = if self.uses_policy() {
                Some(m) == tt_move || !quiet
            } else {
                order >= ORDER_ATTACK[P4_FLEX3 as usize]
            };
            let policy = if quiet && self.uses_policy() {
                self.pb.policy_score(m)
            } else {
                0
            };
            // Move-count pruning: late quiet moves the policy rates low are not searched near
            // the leaves.
            if prunable && !rescue && quiet && move_count_prunes(&self.params, depth, i, policy) {
                pruned |= 1 << i;
                continue;
            }
            let Some(key) = claim(splits, &mut queue, i, hash, m) else {
                self.deferred += 1;
                continue;
            };
            let new_depth = depth - 1;
            self.pb.play(m);
            let mut score;
            if i == 0 {
                score = -self.search(new_depth, -beta, -alpha, ply + 1);
            } else {
                // Late quiet moves are searched shallower first (and again at full depth only
                // if they beat alpha): more so late in the list, off the PV, and for points
                // whose history is bad.
                let reduction = if depth >= 2 && i >= 2 && quiet {
                    let p = &self.params;
                    let mut r = self.lmr.get(depth, i) + (!pv_node as i32) * p.lmr_non_pv;
                    let h = self.history[hist_at(c, m, self.cells)];
                    let h_step = p.hist_max / p.hist_lmr_fraction;
                    if h > h_step {
                        r -= 1;
                    } else if h < -h_step {
                        r += 1;
                    }
                    if policy < p.lmr_policy_low {
                        r += 1;
                    } else if policy > p.lmr_policy_high {
                        r -= 1;
                    }
                    r.clamp(0, new_depth.max(0))
                } else {
                    0
                };
                score = -self.search(new_depth - reduction, -alpha - 1, -alpha, ply + 1);
                if score > alpha && reduction > 0 {
                    score = -self.search(new_depth, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta {
                    score = -self.search(new_depth, -beta, -alpha, ply + 1);
                }
            }
            self.pb.undo();
            if let (Some(shared), Some(key)) = (splits, key) {
                shared.leave(key);
            }
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if !forcing && self.killers[ply][0] != m {
                            self.killers[ply][1] = self.killers[ply][0];
                            self.killers[ply][0] = m;
                        }
                        if quiet {
                            let bonus = (depth * depth).min(400);
                            self.update_history(c, m, bonus);
                            for j in 0..i {
                                let (q, _) = self.moves[ply][j];
                                if self.quiet(q) {
                                    self.update_history(c, q, -bonus);
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(hash, best_move, to_tt(best, ply), depth, bound);
        best
    }

    /// The children of a node at `ply` start with its count of defence extensions. (Chains of
    /// forced blocks can run past the arrays' end; there nothing is extended any more.)
    #[inline]
    fn inherit_extensions(&mut self, ply: usize) {
        let here = self.extensions.get(ply).copied().unwrap_or(i32::MAX);
        if let Some(next) = self.extensions.get_mut(ply + 1) {
            *next = here;
        }
    }

    /// Whether moves are ordered by the learned policy.
    #[inline]
    fn uses_policy(&self) -> bool {
        self.params.use_policy && self.pb.has_policy()
    }

    /// Whether a move neither makes nor blocks a three or more (for the side to move).
    #[inline]
    fn quiet(&self, p: Pos) -> bool {
        let c = self.pb.to_move();
        self.pb.p4(c, p) < P4_FLEX3 && self.pb.p4(c.opponent(), p) < P4_FLEX3
    }

    /// Moves a colour's history entry towards `bonus`'s sign (gravity keeps it bounded).
    fn update_history(&mut self, c: Color, p: Pos, bonus: i32) {
        let (gain, max) = (self.params.hist_gain, self.params.hist_max);
        let h = &mut self.history[hist_at(c, p, self.cells)];
        *h += bonus * gain - *h * bonus.abs() * gain / max;
    }

    /// Stand pat on the static evaluation, or play on with our fours (the opponent's reply is
    /// forced), so that any forced win by fours is seen at the leaves.
    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        self.nodes += 1;
        if self.poll() {
            return 0;
        }
        self.inherit_extensions(ply);
        self.seldepth = self.seldepth.max(ply as u32);
        if let Some(score) = self.threats(alpha, beta, 0, ply, qply) {
            return score;
        }
        let stand = self.pb.evaluate();
        if stand >= beta || qply >= self.params.quiescence_plies || ply >= MAX_PLY {
            return stand;
        }
        alpha = alpha.max(stand);
        let c = self.pb.to_move();
        let fours = (P4_BLOCK4..=P4_BLOCK4_FLEX3)
            .map(|l| self.pb.count(c, l) as u32)
            .sum::<u32>();
        if fours == 0 {
            return stand;
        }
        let mut best = stand;
        let mut list = std::mem::take(&mut self.moves[ply]);
        list.clear();
        for p in self.pb.cells_at(c, FOURS) {
            list.push((p, self.pb.p4(c, p) as i32));
        }
        list.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        self.moves[ply] = list;
        for i in 0..self.moves[ply].len() {
            let m = self.moves[ply][i].0;
            if forbidden_for(&mut self.pb, c, m) {
                continue;
            }
            self.pb.play(m);
            let score = -self.quiesce(-beta, -alpha, ply + 1, qply + 1);
            self.pb.undo();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The principal variation from the table, starting with `first`.
    fn principal_variation(&mut self, first: Pos, max_len: usize) -> Vec<Pos> {
        let mut pv = vec![first];
        self.pb.play(first);
        while pv.len() < max_len {
            let Some(hit) = self.tt.probe(self.pb.hash()) else {
                break;
            };
            let Some(m) = hit.mv else { break };
            if !self.pb.board().is_empty(m) || self.pb.board().is_over() {
                break;
            }
            pv.push(m);
            self.pb.play(m);
        }
        for _ in 0..pv.len() {
            self.pb.undo();
        }
        pv
    }

    pub(super) fn info(&self, depth: u32, score: i32, pv: Vec<Pos>, multipv: usize) -> SearchInfo {
        let mate = if score >= MATE_BOUND {
            Some(MATE - score)
        } else if score <= -MATE_BOUND {
            Some(-(MATE + score))
        } else {
            None
        };
        SearchInfo {
            depth,
            seldepth: self.seldepth,
            score,
            mate,
            nodes: self.all_nodes(),
            elapsed: self.tm.elapsed(),
            pv,
            multipv,
        }
    }

    /// Whether a forced move, or a position proven lost, is searched anyway (see
    /// [`TimeManager::may_deepen`]): when the time of this move is lost if unused.
    fn thinks_when_forced(&self) -> bool {
        self.tm.turn_binds() && self.tm.hard_limit().is_some() && !self.tm.must_answer_now()
    }

    /// Whether iteration `depth` may start: the clock's decision for the leading thread; for a
    /// helper, any depth up to the cap until it is stopped.
    fn may_deepen(&self, depth: u32, last_iteration: Duration, stable: &Stability) -> bool {
        if self.thread == 0 {
            let nodes = self.all_nodes();
            return self.tm.may_deepen(depth, nodes, last_iteration, stable);
        }
        let stopped = self.shared.is_some_and(|s| s.stopped()) || self.tm.stop_requested();
        !stopped && (depth as usize) < MAX_PLY && self.tm.max_depth().is_none_or(|max| depth <= max)
    }

    /// Runs the search: forced replies and VCF first, then iterative deepening. Reports each
    /// finished iteration (and each of the `nbest` best moves) through `report`.
    pub fn run(&mut self, nbest: usize, report: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        match self.prepare(report) {
            Ok(root) => self.deepen(root, nbest, report),
            Err(answer) => answer,
        }
    }

    /// The first part of [`Searcher::run`]: the answers that need no search (reported), else
    /// the root moves to deepen, narrowed by the root threat analysis.
    pub fn prepare(
        &mut self,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Result<RootMoves, SearchResult> {
        self.started = Instant::now();
        self.tt.new_search();
        let c = self.pb.to_move();
        let o = c.opponent();

        // Immediate answers that need no search.
        let forced = if self.pb.board().stones() == 0 {
            Some((self.pb.board().centre(), 0))
        } else if self.pb.count(c, P4_FIVE) > 0 {
            self.find(c, P4_FIVE, true).map(|p| (p, MATE - 1))
        } else if self.pb.count(o, P4_FIVE) > 0 {
            // Block (if two five points exist, the game is lost: block one anyway).
            self.find(o, P4_FIVE, false)
                .filter(|&p| !forbidden_for(&mut self.pb, c, p))
                .map(|p| {
                    let lost = self.pb.count(o, P4_FIVE) > 1;
                    (p, if lost { -(MATE - 2) } else { 0 })
                })
        } else {
            open_four_point(&mut self.pb, c).map(|p| (p, MATE - 3))
        };
        if let Some((p, score)) = forced {
            // A block that does not lose, when the time of this move is lost if unused: think
            // about the position after it (the table keeps what is found for the next move).
            if score == 0 && self.pb.board().stones() > 0 && self.thinks_when_forced() {
                return Ok(RootMoves(vec![RootMove {
                    pos: p,
                    score: -INF,
                    order: 0,
                }]));
            }
            let info = self.info(1, score, vec![p], 1);
            report(&info);
            return Err(SearchResult {
                best: Some(p),
                info,
            });
        }

        // Legal fallback before any iteration finishes: the best-ordered candidate.
        let n = self.generate(0, None, usize::MAX);
        let mut root: Vec<RootMove> = self.moves[0][..n]
            .iter()
            .map(|&(pos, order)| RootMove {
                pos,
                score: -INF,
                order,
            })
            .collect();
        if root.is_empty() {
            // Every near point is forbidden or taken: any legal point at all.
            let c = self.pb.to_move();
            let any = self
                .points
                .iter()
                .copied()
                .find(|&p| self.pb.board().is_empty(p) && !forbidden_for(&mut self.pb, c, p));
            let score = self.no_move_score(0);
            let info = self.info(0, score, any.into_iter().collect(), 1);
            return Err(SearchResult { best: any, info });
        }
        if root.len() == 1 && self.thinks_when_forced() {
            return Ok(RootMoves(root));
        }
        if self.tm.must_answer_now() || root.len() == 1 {
            let info = self.info(0, 0, vec![root[0].pos], 1);
            report(&info);
            return Err(SearchResult {
                best: Some(root[0].pos),
                info,
            });
        }

        // A forced win by threats ends the game faster than any search; a forced win the
        // opponent holds narrows the root to the moves that refute it.
        if let Some(won) = self.root_threats(&mut root) {
            report(&won.info);
            return Err(won);
        }
        Ok(RootMoves(root))
    }

    /// The second part of [`Searcher::run`]: iterative deepening over `root`. A helper thread
    /// (see [`Searcher::in_parallel`]) ignores the clock and runs until the
    /// leading thread stops it; only the leader should be given a `report` that prints.
    pub fn deepen(
        &mut self,
        root: RootMoves,
        nbest: usize,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let nbest = nbest.max(1);
        let mut root = root.0;
        let mut best = root[0].pos;
        let mut best_info = self.info(0, 0, vec![best], 1);

        let mut depth = 1u32;
        let mut last_iteration = Duration::ZERO;
        let mut stability = Stability::default();
        if root.len() == 1 {
            // One reply (a forced block, or the only move the threats leave): nothing to
            // choose, the clock spends little or nothing on it.
            stability.force();
        }
        while self.may_deepen(depth, last_iteration, &stability) {
            let iteration_start = Instant::now();
            // Aspiration: a window around the last iteration's score, widened (and the
            // iteration searched again) when the best score falls outside it.
            let (mut lo, mut hi) = (-INF, INF);
            let mut delta = self.params.aspiration;
            let last = best_info.score;
            if nbest == 1 && delta > 0 && depth >= ASPIRATION_DEPTH && last.abs() < MATE_BOUND {
                (lo, hi) = (last - delta, last + delta);
            }
            loop {
                let mut alpha = lo;
                let beta = hi;
                let mut failed_high = None;
                // With other threads, a root move another thread is on is deferred to the
                // end, as in the tree ([`Shared::busy`]; never with N best moves).
                let splits = self
                    .shared
                    .filter(|s| nbest == 1 && s.split_depth() < i32::MAX);
                let root_hash = self.pb.hash();
                let mut queue = MoveQueue::new(root.len());
                while let Some(i) = queue.pop() {
                    let m = root[i].pos;
                    let Some(key) = claim(splits, &mut queue, i, root_hash, m) else {
                        self.deferred += 1;
                        continue;
                    };
                    self.pb.play(m);
                    let score = if i < nbest {
                        -self.search(depth as i32 - 1, -beta, -alpha, 1)
                    } else {
                        let s = -self.search(depth as i32 - 1, -alpha - 1, -alpha, 1);
                        if s > alpha && !self.stopped {
                            -self.search(depth as i32 - 1, -beta, -alpha, 1)
                        } else {
                            s
                        }
                    };
                    self.pb.undo();
                    if let (Some(shared), Some(key)) = (splits, key) {
                        shared.leave(key);
                    }
                    if self.stopped {
                        break;
                    }
                    root[i].score = score;
                    if i + 1 >= nbest || score > alpha {
                        // With N best moves, the window opens only after N exact scores.
                        let kth = if i + 1 >= nbest {
                            let mut scores: Vec<i32> = root[..=i].iter().map(|r| r.score).collect();
                            scores.sort_unstable_by(|a, b| b.cmp(a));
                            scores[nbest - 1]
                        } else {
                            -INF
                        };
                        alpha = alpha.max(kth);
                    }
                    if score >= beta {
                        failed_high = Some(i);
                        break;
                    }
                }
                if self.stopped {
                    break;
                }
                let top = root.iter().map(|r| r.score).max().unwrap_or(-INF);
                if let Some(i) = failed_high {
                    // The move that failed high is searched first again.
                    root[..=i].rotate_right(1);
                    hi = if top + delta >= MATE_BOUND {
                        INF
                    } else {
                        top + delta
                    };
                } else if top <= lo {
                    hi = (lo + hi) / 2;
                    lo = if top - delta <= -MATE_BOUND {
                        -INF
                    } else {
                        top - delta
                    };
                } else {
                    break;
                }
                delta *= 2;
                for r in root.iter_mut() {
                    r.score = -INF;
                }
            }
            // An interrupted re-search whose first move failed low knows only a bound.
            if self.stopped && root[0].score <= lo && lo > -INF {
                root[0].score = -INF;
            }
            if self.stopped && root.iter().all(|r| r.score == -INF) {
                break;
            }
            // Moves not reached in an interrupted iteration keep their previous order.
            let finished = !self.stopped;
            let first_done = root[0].score != -INF;
            root.sort_by(|a, b| b.score.cmp(&a.score).then(b.order.cmp(&a.order)));
            if finished {
                stability.iteration(root[0].pos != best, root[0].score);
                self.completed = depth;
                if log::log_enabled!(log::Level::Trace) {
                    let cpu = crate::cpu_time::thread_cpu_time().unwrap_or_default();
                    log::trace!(
                        "iteration thread {} depth {} wall_us {} cpu_us {} nodes {} all {} best {:?} score {}",
                        self.thread,
                        depth,
                        self.tm.elapsed().as_micros(),
                        cpu.as_micros(),
                        self.nodes,
                        self.all_nodes(),
                        root[0].pos,
                        root[0].score
                    );
                }
            }
            // An interrupted iteration counts once the previous best move has its score at
            // this depth: the moves scored after it were searched against that score, so the
            // best of them is at least as good. Scores of different depths are never
            // compared (they differ by parity and horizon, not only by merit).
            if finished || first_done {
                best = root[0].pos;
                let score = root[0].score;
                self.tt.store(
                    self.pb.hash(),
                    Some(best),
                    to_tt(score, 0),
                    depth as i32,
                    Bound::Exact,
                );
                let pv = self.principal_variation(best, depth as usize + 8);
                best_info = self.info(depth, score, pv, 1);
                // Reported even when interrupted, so the last PV shown starts with the move
                // played.
                report(&best_info);
                if finished {
                    for (k, rm) in root.iter().enumerate().take(nbest).skip(1) {
                        let pv = self.principal_variation(rm.pos, depth as usize + 4);
                        report(&self.info(depth, rm.score, pv, k + 1));
                    }
                }
            }
            if self.stopped {
                break;
            }
            // A win proven within the horizon ends the search. So does a proven loss, unless
            // the time of this move is lost if unused: the search is selective (near the
            // leaves the weakest moves are not tried), so a deeper and wider iteration may yet
            // find a defence, or a longer one; up to twice the mate's distance, beyond which
            // every node of its lines is searched as widely as any.
            let distance = (MATE - best_info.score.abs()) as u32;
            if best_info.score.abs() >= MATE_BOUND
                && distance <= depth
                && (best_info.score > 0 || !self.thinks_when_forced() || 2 * distance <= depth)
            {
                break;
            }
            for r in root.iter_mut() {
                r.order = r.score;
                r.score = -INF;
            }
            last_iteration = iteration_start.elapsed();
            depth += 1;
            if depth as usize >= MAX_PLY {
                break;
            }
        }
        best_info.nodes = self.all_nodes();
        best_info.elapsed = self.tm.elapsed();
        SearchResult {
            best: Some(best),
            info: best_info,
        }
    }
}

/// Takes move `m` (entry `i` of `queue`, in the position with hash `hash`) for this thread when
/// the threads split the work (`splits`): `None` when another thread is on it and it was put
/// off to the end of the queue, else the mark to clear after searching it (`Some(None)` when
/// not splitting). The node's and the root's loops share it.
fn claim(
    splits: Option<&Shared>,
    queue: &mut MoveQueue,
    i: usize,
    hash: u64,
    m: Pos,
) -> Option<Option<u64>> {
    let Some(shared) = splits else {
        return Some(None);
    };
    let key = move_key(hash, m);
    if queue.may_defer(i) && shared.busy(key) {
        queue.defer(i);
        return None;
    }
    shared.enter(key);
    Some(Some(key))
}

/// The order a node's moves are searched in with other threads: the list, then the moves
/// put off because another thread was on them (first pass only; never the first move, and
/// only the first 64, the width of the mask).
struct MoveQueue {
    len: usize,
    next: usize,
    deferred: u64,
}

impl MoveQueue {
    fn new(len: usize) -> MoveQueue {
        MoveQueue {
            len,
            next: 0,
            deferred: 0,
        }
    }

    /// The next move's index, or `None` when the list and the deferred moves are done.
    fn pop(&mut self) -> Option<usize> {
        if self.next < self.len {
            self.next += 1;
            return Some(self.next - 1);
        }
        if self.deferred == 0 {
            return None;
        }
        let i = self.deferred.trailing_zeros() as usize;
        self.deferred &= self.deferred - 1;
        self.next = usize::MAX;
        Some(i)
    }

    /// Whether move `i`, just popped, may be put off.
    fn may_defer(&self, i: usize) -> bool {
        self.next != usize::MAX && i > 0 && i < 64
    }

    fn defer(&mut self, i: usize) {
        self.deferred |= 1 << i;
    }
}

/// The order of a node's candidates: higher score first, ties by point (a total order, so
/// selecting the first `n` equals a full sort's first `n`).
fn by_order(a: &(Pos, i32), b: &(Pos, i32)) -> std::cmp::Ordering {
    b.1.cmp(&a.1).then(a.0.cmp(&b.0))
}

/// The index of colour `c`'s entry for point `p` in [`Searcher::history`].
#[inline]
fn hist_at(c: Color, p: Pos, cells: usize) -> usize {
    c.index() * cells + p.idx()
}

#[cfg(test)]
mod tests;
