//! Lazy SMP: the gomoku alpha-beta search on several threads that share one transposition
//! table and nothing else.
//!
//! The leading thread (thread 0) does everything a search alone does: the forced answers and
//! the root threat analysis ([`Searcher::prepare`]), then iterative deepening under the clock,
//! with the reports. Only then do the helpers start, each with its own board, killers, history
//! and move lists, deepening the same root moves; what one thread stores in the table (scores,
//! bounds, best moves) the others read, so together they reach a depth sooner than one thread
//! alone, and sometimes find a move it would not. A helper deepens one depth after another as
//! the leader does, ignores the clock, and stops the moment the leader finishes. What sets the
//! threads apart is a simplified ABDADA: at the root and at nodes at least
//! [`SearchParams::smp_split`] plies from the leaves, a thread marks the move it is searching
//! ([`Shared::enter`]), and a thread that comes to a move (not a node's first) another thread
//! is on defers it to the end of its list, by when the table usually holds the other's result.
//! Without it the threads, searching the same depth in the same order at the same moment, find
//! little of each other's work in the table in time. Skipping depths by thread (Stockfish 7's
//! pattern) was measured and dropped (`docs/experiments/results.tsv`). The answer is the
//! deepest iteration any thread completed (the leader's on a tie), or a proven win. A helper
//! offers each of its iterations as it completes it (or an interrupted one once decided, as
//! the leader reports them), and the leader answers with what it has when it stops, without
//! waiting for the helpers to notice the stop ([`Helpers`]).
//!
//! A `--nodes` budget counts every thread's nodes (each publishes its count when it polls, every
//! 1,024 nodes), and the root threat analysis gets one thread's share of it, as on a clock it
//! gets the same time whatever the threads. With one thread nothing is spawned and the search
//! is exactly the one-thread search; with more, which thread reads what depends on their
//! timing, so node-limited play no longer repeats itself.
//!
//! With `RUST_LOG=sente::search::ab::smp=debug` every search logs each thread's CPU time, nodes
//! and deepest completed iteration, when the helpers began and when the answer went out
//! (`sente::search::ab::alphabeta=trace` adds one line per completed iteration).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::cpu_time::thread_cpu_time;
use crate::eval::gomoku::patterns::PatternBoard;
use crate::search::ab::alphabeta::{SearchResult, Searcher, MATE_BOUND};
use crate::search::ab::params::SearchParams;
use crate::search::ab::tt::TranspositionTable;
use crate::search::clock::{SearchLimit, TimeManager};
use crate::search::threats::Threats;
use crate::search::SearchInfo;

/// Stack of a helper thread: as the main thread's, which the searches' recursion (alpha-beta,
/// quiescence, the renju tests) is known to fit. Reserved as address space, committed only as
/// far as it is used.
pub const HELPER_STACK_BYTES: usize = 8 << 20;

/// What the threads of one search share besides the table.
#[derive(Debug)]
pub struct Shared {
    stop: AtomicBool,
    nodes: AtomicU64,
    /// How many threads search (a node budget's threat analysis gets one thread's share).
    threads: u64,
    /// The best answer a helper has reported so far (see [`better`]).
    answer: Mutex<Option<SearchResult>>,
    /// The moves some thread is searching now, by [`move_key`] (0: free slot); see
    /// [`Shared::busy`].
    searching: Box<[AtomicU64]>,
    /// Nodes at least this far from the leaves (and the root) mark and defer their moves
    /// (`i32::MAX`: none do).
    split_depth: i32,
}

/// Slots of [`Shared::searching`]: each thread marks at most one move per ply of its path at
/// once, so a few thousand slots keep collisions rare.
const SEARCHING_SLOTS: usize = 1 << 12;

/// The key of move `m` at the position of hash `hash` in [`Shared::searching`] (never 0).
#[inline]
pub fn move_key(hash: u64, m: crate::rules::Pos) -> u64 {
    (hash ^ (m.0 as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
}

impl Shared {
    /// Nothing searched, nothing stopped, for `threads` threads, with nodes `split_depth` or
    /// more plies from the leaves marking and deferring moves (`i32::MAX`: none).
    pub fn new(threads: usize, split_depth: i32) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            threads: threads.max(1) as u64,
            answer: Mutex::new(None),
            searching: (0..SEARCHING_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            split_depth,
        }
    }
    /// Nodes at least this far from the leaves (and the root) mark and defer their moves
    /// (`i32::MAX`: none do).
    #[inline]
    pub fn split_depth(&self) -> i32 {
        self.split_depth
    }
    /// Whether some thread is searching the move of `key` ([`move_key`]) now. A thread that
    /// finds a move busy defers it to the end of its list (simplified ABDADA): by then the
    /// other thread has usually stored its result, so the two threads split a node's moves
    /// instead of searching the same ones at the same moment.
    #[inline]
    pub fn busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }
    /// Marks the move of `key` as being searched (a slot held by another move is taken over:
    /// a lost mark only costs the other thread a duplicated search).
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }
    /// The move of `key` is searched: its mark, if still there, is cleared.
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.searching[(key >> 20) as usize & (SEARCHING_SLOTS - 1)]
    }
    /// Adds a thread's newly searched nodes; returns every thread's total so far.
    #[inline]
    pub fn add_nodes(&self, n: u64) -> u64 {
        self.nodes.fetch_add(n, Ordering::Relaxed) + n
    }
    /// Every thread's nodes, as far as they have told.
    #[inline]
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
    /// How many threads search.
    #[inline]
    pub fn threads(&self) -> u64 {
        self.threads
    }
    /// Whether the helpers must stop.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// Stops the helpers.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// A helper's iteration (finished, or interrupted once decided): kept if it beats the
    /// helpers' best so far. Once the search has stopped nothing is taken any more.
    fn offer(&self, best: Option<crate::rules::Pos>, info: &SearchInfo) {
        if best.is_none() || self.stopped() {
            return;
        }
        let mut answer = self.answer.lock().unwrap_or_else(|e| e.into_inner());
        if answer.as_ref().is_none_or(|a| better(info, &a.info)) {
            *answer = Some(SearchResult {
                best,
                info: info.clone(),
            });
        }
    }
    /// The helpers' best answer so far.
    fn take_answer(&self) -> Option<SearchResult> {
        self.answer.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// Stops the helpers when the leader leaves the search, however it leaves (a panic too).
struct StopOnDrop<'a>(&'a Shared);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// A player's helper threads: each one's threat caches, and the threads of the last search
/// that may still be winding down. The leader answers the moment it stops, without waiting
/// for the helpers to notice the stop (a helper the scheduler has put aside may take tens of
/// milliseconds on a loaded machine, and every millisecond past the deadline also widens the
/// clock's lateness margin for the next moves); they are joined at the start of the next
/// search, or before the table is cleared or resized ([`Helpers::settle`]).
pub struct Helpers {
    idle: Vec<Threats>,
    running: Vec<JoinHandle<Threats>>,
    /// How many helpers there are (a thread that could not start or panicked is replaced).
    count: usize,
    /// Each helper's VCT cache size.
    vct_bytes: usize,
}

impl Helpers {
    /// `count` helpers, each with a VCT cache of `vct_bytes`.
    pub fn new(count: usize, vct_bytes: usize) -> Helpers {
        Helpers {
            idle: (0..count).map(|_| Threats::new(vct_bytes)).collect(),
            running: Vec::new(),
            count,
            vct_bytes,
        }
    }
    /// How many helpers there are.
    pub fn len(&self) -> usize {
        self.count
    }
    /// Whether there are none (one thread searches).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
    /// Waits for the threads of the last search to end (they were told to stop when it
    /// answered); afterwards no helper holds the table.
    pub fn settle(&mut self) {
        for h in self.running.drain(..) {
            match h.join() {
                Ok(threats) => self.idle.push(threats),
                Err(_) => log::warn!("a search thread panicked; its caches are rebuilt"),
            }
        }
        let vct_bytes = self.vct_bytes;
        self.idle.truncate(self.count);
        while self.idle.len() < self.count {
            self.idle.push(Threats::new(vct_bytes));
        }
    }
    /// Makes them `count` helpers.
    pub fn resize(&mut self, count: usize) {
        self.settle();
        self.count = count;
        self.settle();
    }
    /// Forgets every helper's cached threat results (new game).
    pub fn clear(&mut self) {
        self.settle();
        for t in &mut self.idle {
            t.clear();
        }
    }
    /// Bytes the helpers' caches hold.
    pub fn bytes(&mut self) -> usize {
        self.settle();
        self.idle.iter().map(Threats::bytes).sum()
    }
}

impl Drop for Helpers {
    fn drop(&mut self) {
        self.settle();
    }
}

/// Searches `pb` on `1 + helpers.len()` threads and returns the move to play (see the module
/// notes). `report` hears the leader's iterations, and the chosen result again when a
/// helper's was chosen. Every thread searches with the constants `params`; the answer is
/// none of `excluded` while another legal point exists ([`Searcher::excluding`]).
#[allow(clippy::too_many_arguments)]
pub fn search(
    pb: &PatternBoard,
    tt: &Arc<TranspositionTable>,
    threats: &mut Threats,
    helpers: &mut Helpers,
    tm: &TimeManager<'_>,
    params: &SearchParams,
    nbest: usize,
    excluded: &[crate::rules::Pos],
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    helpers.settle();
    let debug = log::log_enabled!(log::Level::Debug);
    let lead_cpu = if debug { thread_cpu_time() } else { None };
    let stones = pb.board().stones();
    if helpers.is_empty() {
        let mut alone = Searcher::new(pb.clone(), tt, threats, tm, params).excluding(excluded);
        let result = alone.run(nbest, report);
        if debug {
            let work = Work::since(lead_cpu, Duration::ZERO, &alone, result.info.depth);
            log::debug!(
                "smp: stones {stones} one thread, done {} us, depth {}; {work}",
                tm.elapsed().as_micros(),
                result.info.depth
            );
        }
        return result;
    }
    let shared = Arc::new(Shared::new(helpers.len() + 1, params.smp_split_depth()));
    let mut lead = Searcher::new(pb.clone(), tt, threats, tm, params)
        .in_parallel(0, &shared)
        .excluding(excluded);
    let root = match lead.prepare(nbest, report) {
        Ok(root) => root,
        Err(answer) => return answer,
    };
    let started = tm.elapsed();
    let stop = StopOnDrop(&shared);
    // What binds a helper: the node budget and the depth; the leader keeps the clock.
    let limit = SearchLimit {
        depth: tm.max_depth(),
        nodes: tm.max_nodes(),
        ..SearchLimit::default()
    };
    let start = tm.start();
    for (i, threats) in std::mem::take(&mut helpers.idle).into_iter().enumerate() {
        let (root, shared, pb, tt, params) = (
            root.clone(),
            Arc::clone(&shared),
            pb.clone(),
            Arc::clone(tt),
            params.clone(),
        );
        let spawned = std::thread::Builder::new()
            .name(format!("search-{}", i + 1))
            .stack_size(HELPER_STACK_BYTES)
            .spawn(move || {
                let cpu = if debug { thread_cpu_time() } else { None };
                let never = AtomicBool::new(false);
                let tm = TimeManager::new(&limit, start, &never);
                let begun = tm.elapsed();
                let mut threats = threats;
                let mut helper =
                    Searcher::new(pb, &tt, &mut threats, &tm, &params).in_parallel(i + 1, &shared);
                let mut offer = |info: &SearchInfo| shared.offer(info.pv.first().copied(), info);
                let result = helper.deepen(root, 1, &mut offer);
                shared.offer(result.best, &result.info);
                if debug {
                    let work = Work::since(cpu, begun, &helper, result.info.depth);
                    log::debug!(
                        "smp: stones {stones} helper {} exits at {} us; {work}",
                        i + 1,
                        tm.elapsed().as_micros()
                    );
                }
                drop(helper);
                threats
            });
        match spawned {
            Ok(h) => helpers.running.push(h),
            Err(e) => log::warn!("could not start search thread {}: {e}", i + 1),
        }
    }
    let lead_result = lead.deepen(root, nbest, report);
    drop(stop);
    let mut best = lead_result;
    let mut from_helper = false;
    // N best moves are the leader's analysis: its answer stays with its lines.
    if let Some(r) = shared.take_answer().filter(|_| nbest <= 1) {
        if better(&r.info, &best.info) {
            best = r;
            from_helper = true;
        }
    }
    best.info.nodes = lead.all_nodes().max(shared.nodes());
    best.info.elapsed = tm.elapsed();
    if from_helper {
        report(&best.info);
    }
    if debug {
        let work = Work::since(lead_cpu, started, &lead, best.info.depth);
        log::debug!(
            "smp: stones {stones} helpers from {} us, answered {} us from {} depth {}; {work}",
            started.as_micros(),
            tm.elapsed().as_micros(),
            if from_helper {
                "a helper"
            } else {
                "the leader"
            },
            best.info.depth,
        );
    }
    best
}

/// What one thread of a search did, for the debug log: CPU time (not wall time, so that a
/// loaded machine shows as less CPU rather than as a slower search), when it began, its nodes,
/// deepest completed iteration and the depth of its answer.
struct Work {
    cpu: Option<Duration>,
    begun: Duration,
    nodes: u64,
    completed: u32,
    depth: u32,
    deferred: u64,
}

impl Work {
    fn since(cpu: Option<Duration>, begun: Duration, s: &Searcher<'_, '_, '_>, depth: u32) -> Work {
        Work {
            cpu: cpu.zip(thread_cpu_time()).map(|(a, b)| b.saturating_sub(a)),
            begun,
            nodes: s.nodes(),
            completed: s.completed_depth(),
            depth,
            deferred: s.deferred(),
        }
    }
}

impl std::fmt::Display for Work {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.cpu {
            Some(cpu) => write!(f, "cpu {} us", cpu.as_micros())?,
            None => write!(f, "cpu ?")?,
        }
        write!(
            f,
            " begun {} us nodes {} completed {} answer {} deferred {}",
            self.begun.as_micros(),
            self.nodes,
            self.completed,
            self.depth,
            self.deferred
        )
    }
}

/// Whether a helper's result `r` beats the one chosen so far: a proven win where there was
/// none, else a deeper iteration.
fn better(r: &SearchInfo, so_far: &SearchInfo) -> bool {
    let won = |i: &SearchInfo| i.score >= MATE_BOUND;
    match (won(r), won(so_far)) {
        (true, true) => r.score > so_far.score,
        (true, false) => true,
        (false, true) => false,
        (false, false) => r.depth > so_far.depth,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Color, Pos, Rule};
    use std::time::Instant;

    fn position() -> Board {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 8), (6, 8), (7, 8), (8, 7)] {
            b.play(b.pos(x, y).unwrap()).unwrap();
        }
        b
    }

    fn run(b: &Board, limit: SearchLimit, threads: usize) -> SearchResult {
        let stop = AtomicBool::new(false);
        let tm = TimeManager::new(&limit, Instant::now(), &stop);
        let tt = Arc::new(TranspositionTable::new(1 << 20));
        let mut threats = Threats::default();
        let mut helpers = Helpers::new(threads - 1, 0);
        searched(&PatternBoard::new(b), &tt, &mut threats, &mut helpers, &tm)
    }

    /// [`search`] with the default constants, one line, no reports.
    fn searched(
        pb: &PatternBoard,
        tt: &Arc<TranspositionTable>,
        threats: &mut Threats,
        helpers: &mut Helpers,
        tm: &TimeManager<'_>,
    ) -> SearchResult {
        search(
            pb,
            tt,
            threats,
            helpers,
            tm,
            &SearchParams::default(),
            1,
            &[],
            &mut |_| {},
        )
    }

    #[test]
    fn one_thread_is_the_plain_search() {
        let b = position();
        let stop = AtomicBool::new(false);
        let limit = SearchLimit::nodes(30_000);
        let tm = TimeManager::new(&limit, Instant::now(), &stop);
        let tt = TranspositionTable::new(1 << 20);
        let mut threats = Threats::default();
        let plain = Searcher::with_defaults(PatternBoard::new(&b), &tt, &mut threats, &tm)
            .run(1, &mut |_| {});
        let one = run(&b, limit, 1);
        assert_eq!(one.best, plain.best);
        assert_eq!(one.info.nodes, plain.info.nodes);
        assert_eq!(one.info.score, plain.info.score);
        assert_eq!(one.info.pv, plain.info.pv);
    }

    #[test]
    fn threads_share_the_node_budget_and_answer_legally() {
        let b = position();
        for threads in [2, 3] {
            let r = run(&b, SearchLimit::nodes(60_000), threads);
            let p = r.best.expect("a move");
            assert!(b.is_empty(p));
            // Each thread overshoots by less than one poll interval.
            assert!(
                r.info.nodes >= 60_000,
                "{threads} threads: {}",
                r.info.nodes
            );
            assert!(
                r.info.nodes < 60_000 + 2_048 * threads as u64,
                "{threads} threads: {}",
                r.info.nodes
            );
        }
    }

    #[test]
    fn threads_reach_the_depth_limit_and_find_wins() {
        let b = position();
        let r = run(&b, SearchLimit::depth(6), 2);
        assert_eq!(r.info.depth, 6);
        // Black to move with an open four ready after one more stone: the threads agree on
        // the forced win any one thread finds.
        let mut w = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 7), (9, 7), (10, 5), (10, 6)] {
            w.place(w.pos(x, y).unwrap(), Color::Black);
        }
        for (x, y) in [(6, 7), (0, 0), (0, 2), (0, 4), (14, 14)] {
            w.place(w.pos(x, y).unwrap(), Color::White);
        }
        w.set_to_move(Color::Black);
        let r = run(&w, SearchLimit::depth(6), 2);
        assert!(r.info.mate.is_some_and(|m| m > 0), "{:?}", r.info);
    }

    #[test]
    fn helpers_outlive_the_answer_and_are_settled_before_the_next_search() {
        let b = position();
        let stop = AtomicBool::new(false);
        let tt = Arc::new(TranspositionTable::new(1 << 20));
        let mut threats = Threats::default();
        let mut helpers = Helpers::new(1, 0);
        let pb = PatternBoard::new(&b);
        for nodes in [30_000, 60_000] {
            let limit = SearchLimit::nodes(nodes);
            let tm = TimeManager::new(&limit, Instant::now(), &stop);
            let r = searched(&pb, &tt, &mut threats, &mut helpers, &tm);
            assert!(b.is_empty(r.best.expect("a move")));
            assert!(r.info.nodes >= nodes, "{:?}", r.info);
            // The answer came without waiting for the helper, which holds the table until it
            // has noticed the stop; settled, the table is the caller's alone again.
            helpers.settle();
            assert_eq!(Arc::strong_count(&tt), 1);
            assert_eq!(helpers.len(), 1);
            assert_eq!(helpers.idle.len(), 1);
            assert!(helpers.running.is_empty());
        }
        helpers.resize(3);
        assert_eq!((helpers.len(), helpers.idle.len()), (3, 3));
        helpers.resize(0);
        assert!(helpers.is_empty() && helpers.idle.is_empty());
    }

    #[test]
    fn a_helpers_answer_is_kept_while_the_search_runs() {
        let shared = Shared::new(2, SearchParams::default().smp_split_depth());
        let info = |depth, score| SearchInfo {
            depth,
            score,
            ..SearchInfo::default()
        };
        shared.offer(Some(Pos(40)), &info(5, 10));
        shared.offer(Some(Pos(41)), &info(4, 90));
        shared.offer(None, &info(9, 90));
        let kept = shared.take_answer().expect("an answer");
        assert_eq!((kept.best, kept.info.depth), (Some(Pos(40)), 5));
        shared.offer(Some(Pos(42)), &info(6, 0));
        shared.stop();
        shared.offer(Some(Pos(43)), &info(7, 0));
        assert_eq!(shared.take_answer().map(|r| r.best), Some(Some(Pos(42))));
        assert!(shared.take_answer().is_none());
    }

    #[test]
    fn a_move_is_busy_while_marked() {
        let shared = Shared::new(2, SearchParams::default().smp_split_depth());
        let (a, b) = (
            move_key(0x1234_5678_9abc, Pos(40)),
            move_key(0x1234_5678_9abc, Pos(41)),
        );
        assert_ne!(a, b);
        assert_ne!(move_key(0, Pos(0)), 0);
        assert!(!shared.busy(a));
        shared.enter(a);
        assert!(shared.busy(a) && !shared.busy(b));
        shared.leave(b);
        assert!(shared.busy(a));
        shared.leave(a);
        assert!(!shared.busy(a));
    }

    #[test]
    fn a_move_another_thread_searches_is_deferred_and_still_searched() {
        let b = position();
        let pb = PatternBoard::new(&b);
        let stop = AtomicBool::new(false);
        let limit = SearchLimit::depth(5);
        let tm = TimeManager::new(&limit, Instant::now(), &stop);
        let tt = TranspositionTable::new(1 << 20);
        let mut threats = Threats::default();
        let shared = Shared::new(2, SearchParams::default().smp_split_depth());
        let mut lead =
            Searcher::with_defaults(pb.clone(), &tt, &mut threats, &tm).in_parallel(0, &shared);
        let root = lead.prepare(1, &mut |_| {}).expect("root moves to search");
        let points: Vec<Pos> = root.points().collect();
        assert!(points.len() > 2, "{points:?}");
        // "Another thread" is on the second root move for the whole search.
        let other = move_key(pb.hash(), points[1]);
        shared.enter(other);
        let r = lead.deepen(root, 1, &mut |_| {});
        assert_eq!(r.info.depth, 5);
        assert!(b.is_empty(r.best.expect("a move")));
        assert!(lead.deferred() > 0);
        // Every mark is cleared: the search's own, and the other thread's too once the
        // deferred move was searched here (a lost mark only risks a duplicated search).
        assert!(shared
            .searching
            .iter()
            .all(|s| s.load(Ordering::Relaxed) == 0));
        // Alone, or with deferring off, nothing is deferred.
        let mut threats = Threats::default();
        let mut alone = Searcher::with_defaults(pb.clone(), &tt, &mut threats, &tm);
        alone.run(1, &mut |_| {});
        assert_eq!(alone.deferred(), 0);
        let off = Shared::new(2, i32::MAX);
        off.enter(other);
        let mut threats = Threats::default();
        let mut lead = Searcher::with_defaults(pb, &tt, &mut threats, &tm).in_parallel(0, &off);
        lead.run(1, &mut |_| {});
        assert_eq!(lead.deferred(), 0);
    }

    #[test]
    fn the_answer_prefers_wins_then_depth() {
        let info = |depth, score| SearchInfo {
            depth,
            score,
            ..SearchInfo::default()
        };
        assert!(better(&info(9, 10), &info(8, 50)));
        assert!(!better(&info(8, 90), &info(8, 50)));
        assert!(better(&info(3, MATE_BOUND + 5), &info(12, 50)));
        assert!(!better(&info(14, 50), &info(3, MATE_BOUND + 5)));
        assert!(better(&info(3, MATE_BOUND + 9), &info(5, MATE_BOUND + 5)));
    }
}
