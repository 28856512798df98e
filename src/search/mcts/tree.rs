//! The node arena of the Go MCTS ([`super::mcts`]): one tree that every search thread reads and
//! grows at once, without locks.
//!
//! - **Storage**: one slice of [`SharedNode`]s, allocated zeroed at the node cap (the kernel
//!   commits pages as the tree reaches them, so an unused cap costs address space, not memory),
//!   and an atomic cursor. A node's children are contiguous: an expansion reserves its whole
//!   block with one `fetch_add` on the cursor.
//! - **Statistics** are atomics read and written with `Relaxed` ordering (`f32` as its bits). A
//!   sum is a plain load and store, so two threads adding at once may lose one addition (as
//!   Fuego's lock-free search accepts); on x86 these are ordinary moves, as fast as the plain
//!   fields they replace. Visits alone may use a locked `fetch_add` ([`SharedNode::add_visit`])
//!   when several threads search, so the root's visits add up to the simulations exactly.
//! - **Expansion** is claimed by one thread: a compare-exchange of the node's `kids` word from
//!   leaf to "expanding". The claimer writes the children into their reserved block, then
//!   publishes `(first child, count)` with a `Release` store that readers load with `Acquire`,
//!   so whoever sees the children sees them written. A thread that finds a node being expanded
//!   plays out from it instead of waiting.
//! - **Exclusive work** (a new root, rerooting, cloning) takes `&mut self` or copies, so it
//!   never meets a running search.

use std::ops::Range;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicU8, AtomicUsize};

use crate::rules::go::{GoMove, Point};
use crate::search::zeroed::{zeroed_slice, Zeroable};

/// Point index used for a pass child.
pub(super) const PASS: u16 = 0;
/// Index of the root in the arena.
pub(super) const ROOT: u32 = 0;

/// The move a node's point code stands for.
pub(super) fn to_move(code: u16) -> GoMove {
    if code == PASS {
        GoMove::Pass
    } else {
        GoMove::Play(Point(code))
    }
}

/// `kids` while another thread writes the children.
const EXPANDING: u64 = 1 << 63;
/// Set in `kids` once the children are published (so that a published word is never 0).
const PUBLISHED: u64 = 1 << 62;

/// One node's contents as plain values: what an expansion builds and what rerooting and
/// cloning copy.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Node {
    /// Point played to reach this node (0 for a pass).
    pub mv: u16,
    /// Colour that played `mv` (1 black, 2 white).
    pub color: u8,
    pub expanded: bool,
    /// Root children only: false when the game's law (superko) or the move filter forbids
    /// the move.
    pub allowed: bool,
    pub n_children: u16,
    pub first_child: u32,
    pub visits: u32,
    pub wins: f32,
    pub amaf_visits: u32,
    pub amaf_wins: f32,
    /// Prior winrate (virtual visits) and prior probability (for reports).
    pub prior_q: f32,
    pub prior_p: f32,
    /// Sum of final margins from `color`'s side.
    pub score_sum: f32,
}

/// What a node's children are, as one thread sees them now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kids {
    /// Not expanded.
    Leaf,
    /// Another thread is writing them.
    Expanding,
    /// `n` children from index `first`.
    Published { first: u32, n: u16 },
}

/// One node of the shared tree (see the module notes for the orderings).
#[derive(Debug, Default)]
pub(super) struct SharedNode {
    /// 0 = leaf, [`EXPANDING`], or [`PUBLISHED`] | count << 32 | first child.
    kids: AtomicU64,
    visits: AtomicU32,
    wins: AtomicU32,
    amaf_visits: AtomicU32,
    amaf_wins: AtomicU32,
    prior_q: AtomicU32,
    prior_p: AtomicU32,
    score_sum: AtomicU32,
    mv: AtomicU16,
    color: AtomicU8,
    allowed: AtomicBool,
}

// SAFETY: `SharedNode` is made of atomic integers (and one `AtomicBool`) only, each documented
// to have the same in-memory representation as its plain type, for which all-zero bits are a
// valid value (0, or false); it has no `Drop`. Zeroed memory is therefore a valid node: a leaf
// with no statistics. Tested by `a_zeroed_arena_reads_as_empty_leaves`.
unsafe impl Zeroable for SharedNode {}

fn load_f32(a: &AtomicU32) -> f32 {
    f32::from_bits(a.load(Relaxed))
}

/// Adds `v` to `a` (not atomically: a concurrent addition may be lost, see the module notes).
fn add_f32(a: &AtomicU32, v: f32) {
    a.store((load_f32(a) + v).to_bits(), Relaxed);
}

impl SharedNode {
    /// The children as published (`Acquire`: their contents are visible once seen).
    #[inline]
    pub fn kids(&self) -> Kids {
        let k = self.kids.load(Acquire);
        if k & PUBLISHED != 0 {
            Kids::Published {
                first: k as u32,
                n: (k >> 32) as u16,
            }
        } else if k == EXPANDING {
            Kids::Expanding
        } else {
            Kids::Leaf
        }
    }
    #[inline]
    pub fn mv(&self) -> u16 {
        self.mv.load(Relaxed)
    }
    #[inline]
    pub fn color(&self) -> u8 {
        self.color.load(Relaxed)
    }
    #[inline]
    pub fn allowed(&self) -> bool {
        self.allowed.load(Relaxed)
    }
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }
    #[inline]
    pub fn wins(&self) -> f32 {
        load_f32(&self.wins)
    }
    #[inline]
    pub fn amaf_visits(&self) -> u32 {
        self.amaf_visits.load(Relaxed)
    }
    #[inline]
    pub fn amaf_wins(&self) -> f32 {
        load_f32(&self.amaf_wins)
    }
    #[inline]
    pub fn prior_q(&self) -> f32 {
        load_f32(&self.prior_q)
    }
    #[inline]
    pub fn prior_p(&self) -> f32 {
        load_f32(&self.prior_p)
    }
    #[inline]
    pub fn score_sum(&self) -> f32 {
        load_f32(&self.score_sum)
    }
    pub fn set_allowed(&self, allowed: bool) {
        self.allowed.store(allowed, Relaxed);
    }

    /// Counts a visit. With `shared` (several threads) a locked `fetch_add`, so no visit is
    /// lost; alone a plain load and store.
    #[inline]
    pub fn add_visit(&self, shared: bool) {
        if shared {
            self.visits.fetch_add(1, Relaxed);
        } else {
            self.visits.store(self.visits() + 1, Relaxed);
        }
    }

    /// Adds a simulation's result (its visit was counted on the way down).
    #[inline]
    pub fn add_result(&self, win: f32, margin: f32) {
        add_f32(&self.wins, win);
        add_f32(&self.score_sum, margin);
    }

    /// Adds an all-moves-as-first result.
    #[inline]
    pub fn add_amaf(&self, win: f32) {
        self.amaf_visits.store(self.amaf_visits() + 1, Relaxed);
        add_f32(&self.amaf_wins, win);
    }

    /// The node's contents now.
    pub fn load(&self) -> Node {
        let (expanded, first_child, n_children) = match self.kids() {
            Kids::Published { first, n } => (true, first, n),
            Kids::Leaf | Kids::Expanding => (false, 0, 0),
        };
        Node {
            mv: self.mv(),
            color: self.color(),
            expanded,
            allowed: self.allowed(),
            n_children,
            first_child,
            visits: self.visits(),
            wins: self.wins(),
            amaf_visits: self.amaf_visits(),
            amaf_wins: self.amaf_wins(),
            prior_q: self.prior_q(),
            prior_p: self.prior_p(),
            score_sum: self.score_sum(),
        }
    }

    /// Overwrites the node with `n` (a node no other thread can reach yet, or under `&mut`).
    fn store(&self, n: &Node) {
        let kids = if n.expanded {
            PUBLISHED | (n.n_children as u64) << 32 | n.first_child as u64
        } else {
            0
        };
        self.mv.store(n.mv, Relaxed);
        self.color.store(n.color, Relaxed);
        self.allowed.store(n.allowed, Relaxed);
        self.visits.store(n.visits, Relaxed);
        self.wins.store(n.wins.to_bits(), Relaxed);
        self.amaf_visits.store(n.amaf_visits, Relaxed);
        self.amaf_wins.store(n.amaf_wins.to_bits(), Relaxed);
        self.prior_q.store(n.prior_q.to_bits(), Relaxed);
        self.prior_p.store(n.prior_p.to_bits(), Relaxed);
        self.score_sum.store(n.score_sum.to_bits(), Relaxed);
        self.kids.store(kids, Release);
    }
}

/// The tree's nodes (see the module notes).
#[derive(Debug)]
pub(super) struct Arena {
    nodes: Box<[SharedNode]>,
    /// Nodes handed out; may pass the capacity when an allocation fails (then `len` clamps).
    len: AtomicUsize,
}

impl Default for Arena {
    fn default() -> Self {
        Arena {
            nodes: Box::default(),
            len: AtomicUsize::new(0),
        }
    }
}

impl Clone for Arena {
    fn clone(&self) -> Arena {
        let copy = Arena {
            nodes: zeroed_slice(self.nodes.len()),
            len: AtomicUsize::new(self.len()),
        };
        for (to, from) in copy.nodes.iter().zip(&self.nodes[..self.len()]) {
            to.store(&from.load());
        }
        copy
    }
}

impl Arena {
    /// Room for `capacity` nodes, the tree emptied (a new allocation only when the capacity
    /// changes).
    pub fn reset(&mut self, capacity: usize) {
        if self.nodes.len() != capacity {
            self.nodes = zeroed_slice(capacity);
        }
        *self.len.get_mut() = 0;
    }

    /// Gives the memory back.
    pub fn release(&mut self) {
        *self = Arena::default();
    }

    /// Nodes in the tree.
    #[inline]
    pub fn len(&self) -> usize {
        self.len.load(Relaxed).min(self.nodes.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline]
    pub fn get(&self, i: u32) -> &SharedNode {
        &self.nodes[i as usize]
    }

    /// Starts the tree with `root` (after [`Arena::reset`]).
    pub fn push_root(&mut self, root: Node) {
        assert!(self.is_empty() && !self.nodes.is_empty(), "reset first");
        self.nodes[0].store(&root);
        *self.len.get_mut() = 1;
    }

    /// The indices of node `i`'s published children (none for a leaf).
    #[inline]
    pub fn children(&self, i: u32) -> Range<u32> {
        match self.get(i).kids() {
            Kids::Published { first, n } => first..first + n as u32,
            Kids::Leaf | Kids::Expanding => 0..0,
        }
    }

    /// The `n` nodes from `first` (a block of children), bounds checked once.
    #[inline]
    pub fn block(&self, first: u32, n: u16) -> &[SharedNode] {
        &self.nodes[first as usize..first as usize + n as usize]
    }

    /// Node `i`'s published children (none for a leaf).
    #[inline]
    pub fn child_nodes(&self, i: u32) -> &[SharedNode] {
        match self.get(i).kids() {
            Kids::Published { first, n } => self.block(first, n),
            Kids::Leaf | Kids::Expanding => &[],
        }
    }

    /// Claims the expansion of leaf `i` for this thread; false when it is no longer a leaf.
    pub fn try_claim(&self, i: u32) -> bool {
        self.get(i)
            .kids
            .compare_exchange(0, EXPANDING, Acquire, Relaxed)
            .is_ok()
    }

    /// Gives the claimed node `i` the children `kids` and publishes them; returns the first
    /// child's index. When the arena is full the node is a leaf again and `None` comes back.
    pub fn attach(&self, i: u32, kids: &[Node]) -> Option<u32> {
        let first = self.len.fetch_add(kids.len(), Relaxed);
        let node = self.get(i);
        if first + kids.len() > self.nodes.len() {
            node.kids.store(0, Release);
            return None;
        }
        for (slot, k) in self.nodes[first..].iter().zip(kids) {
            slot.store(k);
        }
        let word = PUBLISHED | (kids.len() as u64) << 32 | first as u64;
        node.kids.store(word, Release);
        Some(first as u32)
    }

    /// Makes node `idx` the root: its subtree is copied to the front, breadth-first (each
    /// node's children stay contiguous), and the rest is dropped.
    pub fn reroot(&mut self, idx: u32) {
        let mut kept: Vec<Node> = Vec::with_capacity(self.len() / 2);
        let mut root = self.get(idx).load();
        root.allowed = true;
        kept.push(root);
        let mut i = 0;
        while i < kept.len() {
            let n = kept[i];
            if n.expanded {
                let first = kept.len() as u32;
                let s = n.first_child;
                kept.extend((s..s + n.n_children as u32).map(|c| self.get(c).load()));
                kept[i].first_child = first;
            }
            i += 1;
        }
        for (slot, n) in self.nodes.iter().zip(&kept) {
            slot.store(n);
        }
        *self.len.get_mut() = kept.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(mv: u16) -> Node {
        Node {
            mv,
            color: 1,
            allowed: true,
            ..Node::default()
        }
    }

    #[test]
    fn a_zeroed_arena_reads_as_empty_leaves() {
        let mut a = Arena::default();
        a.reset(1000);
        assert!(a.is_empty());
        for i in [0, 500, 999] {
            let n = a.get(i);
            assert_eq!(n.kids(), Kids::Leaf);
            assert_eq!(
                (n.visits(), n.wins(), n.mv(), n.allowed()),
                (0, 0.0, 0, false)
            );
        }
    }

    #[test]
    fn children_are_claimed_once_published_and_copied() {
        let mut a = Arena::default();
        a.reset(8);
        a.push_root(leaf(0));
        assert!(a.try_claim(0));
        assert!(!a.try_claim(0), "a second claim fails");
        assert_eq!(a.get(0).kids(), Kids::Expanding);
        assert_eq!(a.children(0), 0..0);
        assert_eq!(a.attach(0, &[leaf(5), leaf(6), leaf(7)]), Some(1));
        assert_eq!(a.children(0), 1..4);
        assert_eq!(a.get(2).mv(), 6);
        // A clone copies the tree; rerooting keeps a subtree with its children contiguous.
        let mut b = a.clone();
        assert_eq!(b.children(0), 1..4);
        b.get(2).add_visit(false);
        b.get(2).add_result(1.0, 3.0);
        assert!(b.try_claim(2));
        b.attach(2, &[leaf(9)]).unwrap();
        b.reroot(2);
        assert_eq!(b.len(), 2);
        let root = b.get(0).load();
        assert_eq!(
            (root.mv, root.visits, root.wins, root.score_sum),
            (6, 1, 1.0, 3.0)
        );
        assert_eq!(b.children(0), 1..2);
        assert_eq!(b.get(1).mv(), 9);
        assert_eq!(a.get(2).visits(), 0, "the original is untouched");
        // Full: the node stays a leaf and can be claimed again.
        assert!(a.try_claim(3));
        assert_eq!(a.attach(3, &[leaf(1); 5]), None);
        assert_eq!(a.get(3).kids(), Kids::Leaf);
        assert_eq!(a.len(), 8);
        assert!(a.try_claim(3));
    }

    #[test]
    fn concurrent_expansions_get_disjoint_blocks() {
        let mut a = Arena::default();
        a.reset(10_000);
        a.push_root(leaf(0));
        assert!(a.try_claim(0));
        a.attach(0, &[leaf(1); 64]).unwrap();
        std::thread::scope(|s| {
            for t in 0..4 {
                let a = &a;
                s.spawn(move || {
                    for i in (1 + t..65).step_by(4) {
                        assert!(a.try_claim(i));
                        a.attach(i, &[leaf(i as u16); 10]).unwrap();
                        a.get(0).add_visit(true);
                    }
                });
            }
        });
        assert_eq!(a.len(), 65 + 640);
        assert_eq!(a.get(0).visits(), 64);
        let mut blocks: Vec<u32> = (1..65).map(|i| a.children(i).start).collect();
        blocks.sort_unstable();
        assert!(blocks.windows(2).all(|w| w[1] - w[0] == 10));
        for i in 1..65 {
            assert!(a.children(i).all(|c| a.get(c).mv() == i as u16));
        }
    }
}
