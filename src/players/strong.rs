//! `strong`, the default gomoku level: iterative-deepening PVS over incremental line patterns,
//! a transposition table kept between moves, and VCF threat search (see `search::alphabeta`),
//! on as many threads as the manager gives (Lazy SMP, `search::smp`).

use super::{Decision, GomokuPlayer, MoveRequest, Player};
use crate::eval::patterns::PatternBoard;
use crate::rules::{Board, Pos};
use crate::search::clock::TimeManager;
use crate::search::params::SearchParams;
use std::sync::{Arc, OnceLock};

use crate::search::smp::{self, Helpers, HELPER_STACK_BYTES};
use crate::search::threats::{Threats, Vct};
use crate::search::tt::TranspositionTable;
use crate::search::MAX_THREADS;

/// Table size when no memory limit is given.
const DEFAULT_TT_BYTES: usize = 64 << 20;
/// VCT cache size when no memory limit is given.
const DEFAULT_VCT_BYTES: usize = 4 << 20;
/// Memory the rest of the engine needs besides the two caches (pattern tables, the VCF fail
/// cache, buffers, stacks).
const RESERVED_BYTES: u64 = 24 << 20;
/// VCT cache of a helper thread: helpers do not run the root threat searches, so the smallest.
const HELPER_VCT_BYTES: usize = 0;
/// Memory one helper thread needs besides the shared caches: its stack (reserved address
/// space, which GomocupJudge counts) and its own threat caches and buffers.
const HELPER_BYTES: u64 = HELPER_STACK_BYTES as u64 + (2 << 20);

/// Environment variable with `name=value` overrides of the search's scalar constants
/// ([`SearchParams::with_overrides`]), for tuning matches between differently set engines
/// built from one binary (as `SENTE_MCTS` is for the Go player).
pub const TUNING_ENV: &str = "SENTE_SEARCH";

/// The search constants: the defaults, changed by [`TUNING_ENV`] when it is set (read once
/// per process; a bad setting is logged and ignored).
pub fn search_params() -> &'static SearchParams {
    static TUNED: OnceLock<SearchParams> = OnceLock::new();
    TUNED.get_or_init(|| {
        let Ok(text) = std::env::var(TUNING_ENV) else {
            return SearchParams::default();
        };
        match SearchParams::default().with_overrides(&text) {
            Ok(p) => {
                log::info!("gomoku search settings from {TUNING_ENV}: {p:?}");
                p
            }
            Err(e) => {
                log::warn!("{TUNING_ENV} ignored: {e}");
                SearchParams::default()
            }
        }
    })
}

/// The default search player.
pub struct Strong {
    /// Shared with the helper threads while they search.
    tt: Arc<TranspositionTable>,
    threats: Threats,
    /// The helper threads (one per thread beyond the first) and their threat caches.
    helpers: Helpers,
    /// The memory limit the caches were sized for (0 = none), once sized: from a memory limit,
    /// else (no limit came before the first search) the defaults.
    limit: Option<u64>,
    /// Evaluate with the embedded learned tables (`eval::learned`) where the rule has them.
    learned: bool,
    /// The search's constants ([`search_params`]).
    params: SearchParams,
}

impl Strong {
    /// A player whose caches get their size from the memory limit, or the defaults at the
    /// first search. Allocating the defaults at once would put them in the process's peak
    /// (virtual) size before `INFO max_memory` arrives, which is what GomocupJudge checks.
    pub fn new() -> Strong {
        // The pattern tables of every rule, built off the clock (see `warm_up`).
        crate::eval::patterns::warm_up();
        Strong {
            tt: Arc::new(TranspositionTable::new(0)),
            threats: Threats::new(0),
            helpers: Helpers::new(0, HELPER_VCT_BYTES),
            limit: None,
            learned: true,
            params: search_params().clone(),
        }
    }

    /// The `strong-hand` level: the same search over the hand-set evaluation (what `strong`
    /// was before the learned tables beat it; the baseline of the next generation's SPRT).
    pub fn hand() -> Strong {
        Strong {
            learned: false,
            ..Strong::new()
        }
    }
}

impl Default for Strong {
    fn default() -> Self {
        Strong::new()
    }
}

/// Transposition-table bytes allowed under a memory limit (0 = no limit) for a search on
/// `threads` threads.
pub fn table_bytes_for(limit: u64, threads: usize) -> usize {
    if limit == 0 {
        return DEFAULT_TT_BYTES;
    }
    (spare_for(limit, threads) / 8 * 7).clamp(1 << 16, 256 << 20)
}

/// VCT cache bytes allowed under a memory limit (0 = no limit): an eighth of the share the
/// transposition table gets the rest of.
pub fn vct_bytes_for(limit: u64, threads: usize) -> usize {
    if limit == 0 {
        return DEFAULT_VCT_BYTES;
    }
    (spare_for(limit, threads) / 8).clamp(1 << 14, 32 << 20)
}

/// What the two caches may share: half of what the reserve and the helper threads leave (the
/// other half is headroom for the old caches while new ones are built and for the allocator).
fn spare_for(limit: u64, threads: usize) -> usize {
    let helpers = threads.saturating_sub(1) as u64 * HELPER_BYTES;
    (limit.saturating_sub(RESERVED_BYTES + helpers) / 2) as usize
}

impl Strong {
    /// Sizes the caches for `limit` (0 = the defaults) and the current thread count; keeps
    /// them when their size would not change.
    fn size_caches(&mut self, limit: u64) {
        self.limit = Some(limit);
        let threads = self.helpers.len() + 1;
        // Managers send `INFO max_memory` before every game, with the next move request
        // already on the clock: compare with the size the tables would get (rounded to a power
        // of two), or every game would reallocate (and lose the tables' contents) for nothing.
        let want = table_bytes_for(limit, threads);
        if TranspositionTable::bytes_for(want) != self.tt.bytes() {
            // Free the old table first so the peak stays under the limit (no helper may still
            // hold it).
            self.helpers.settle();
            self.tt = Arc::new(TranspositionTable::new(1 << 16));
            self.tt = Arc::new(TranspositionTable::new(want));
        }
        let want = vct_bytes_for(limit, threads);
        if Vct::cache_bytes_for(want) != self.threats.vct.cache_bytes() {
            self.threats = Threats::new(1 << 14);
            self.threats = Threats::new(want);
        }
    }
}

impl Player<Board> for Strong {
    fn name(&self) -> &'static str {
        if self.learned {
            "strong"
        } else {
            "strong-hand"
        }
    }
    fn new_game(&mut self, start: &Board) {
        self.helpers.clear();
        TranspositionTable::clear_shared(&mut self.tt);
        self.threats.clear();
        self.prepare(start.rule());
    }
    fn set_memory_limit(&mut self, bytes: u64) {
        self.size_caches(bytes);
    }
    fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, MAX_THREADS);
        if threads == self.helpers.len() + 1 {
            return;
        }
        self.helpers.resize(threads - 1);
        // The helpers' stacks come out of the caches' share of the memory limit.
        if let Some(limit) = self.limit {
            self.size_caches(limit);
        }
    }
    fn decide(&mut self, pos: &Board, tm: &TimeManager<'_>) -> Option<Decision<Pos>> {
        super::decide_quietly(self, pos, tm)
    }
}

impl GomokuPlayer for Strong {
    fn prepare(&mut self, rule: crate::rules::Rule) {
        crate::eval::patterns::prepare(rule);
    }
    fn choose(&mut self, board: &Board, req: &mut MoveRequest<'_, '_>) -> Option<Pos> {
        if board.k() != 5 {
            return board.empty_points().find(|&p| board.check(p).is_ok());
        }
        if self.limit.is_none() {
            // Cheap on the clock: the tables are allocated zeroed (see `search::zeroed`).
            self.set_memory_limit(0);
        }
        let mut pb = PatternBoard::new(board);
        if self.learned {
            pb.set_learned(crate::eval::learned::value_tables(board.rule()));
            pb.set_policy(crate::eval::learned::policy_tables(board.rule()));
        }
        let result = smp::search(
            &pb,
            &self.tt,
            &mut self.threats,
            &mut self.helpers,
            req.tm,
            &self.params,
            req.nbest,
            req.report,
        );
        result.best.filter(|&p| board.check(p).is_ok()).or_else(|| {
            let fallback = board.empty_points().find(|&p| board.check(p).is_ok());
            // No legal point at all (renju: black's last empty points all forbidden) is the
            // game's end, not a search fault: the caller reports it.
            if fallback.is_some() {
                log::warn!(
                    "search returned no playable move ({:?}) after {}; falling back to the first legal point",
                    result.best.map(|p| board.xy(p)),
                    history_text(board)
                );
            }
            fallback
        })
    }
}

/// The moves played so far as Gomocup `x,y` pairs, for a log line that names the position.
fn history_text(board: &Board) -> String {
    let moves: Vec<String> = board
        .history()
        .iter()
        .map(|&(p, _)| {
            let (x, y) = board.xy(p);
            format!("{x},{y}")
        })
        .collect();
    moves.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_respects_the_memory_limit() {
        assert_eq!(table_bytes_for(0, 1), DEFAULT_TT_BYTES);
        let gomocup = 350 * 1024 * 1024;
        assert!((table_bytes_for(gomocup, 1) as u64) < gomocup / 2);
        assert!(table_bytes_for(1, 1) >= 1 << 16);
        assert!(table_bytes_for(gomocup, 4) < table_bytes_for(gomocup, 1));
    }

    #[test]
    fn caches_fit_the_memory_limit_together() {
        for limit in [64u64 << 20, 350 << 20, 367_001_600, 2_147_483_647] {
            for threads in [1, 2, 4] {
                let mut p = Strong::new();
                // Either order of INFO max_memory and INFO thread_num.
                if threads % 2 == 0 {
                    p.set_threads(threads);
                    p.set_memory_limit(limit);
                } else {
                    p.set_memory_limit(limit);
                    p.set_threads(threads);
                }
                let helpers: usize = p.helpers.bytes();
                let caches = (p.tt.bytes() + p.threats.bytes() + helpers) as u64;
                let stacks = (threads as u64 - 1) * HELPER_STACK_BYTES as u64;
                assert!(
                    caches + stacks + RESERVED_BYTES <= limit,
                    "{caches} bytes of caches under a {limit} limit, {threads} threads"
                );
                assert!(p.threats.vct.cache_bytes() <= vct_bytes_for(limit, threads));
                assert!(p.threats.vct.cache_bytes() * 2 > vct_bytes_for(limit, threads));
            }
        }
    }

    /// A renju self-play game (seed 261) that filled the board but for one point, which
    /// renju forbids black: black has no legal move, and the player says so (no fallback).
    const FULL_BUT_FORBIDDEN: &str = "\
        9,6 6,8 8,9 6,9 9,9 6,7 6,6 8,8 10,9 6,10 6,11 11,9 10,7 9,8 10,8 10,6 11,7 7,8 5,8 8,10
        9,7 8,7 9,10 11,8 12,6 13,5 10,11 10,10 11,12 12,13 9,11 7,11 7,10 9,13 5,9 5,7 7,9 4,7
        7,7 5,12 5,10 13,7 10,14 7,12 2,7 6,12 4,12 4,9 4,10 4,5 5,6 4,6 4,8 7,6 6,5 13,6 13,8
        14,6 12,8 13,4 13,3 4,4 4,3 9,12 8,12 5,4 6,4 6,3 7,2 9,4 8,5 10,5 12,9 12,7 14,7 11,10
        8,3 10,2 11,3 10,13 11,13 3,5 2,4 10,4 10,3 11,4 12,4 7,3 8,4 8,2 12,11 13,11 9,2 7,4
        11,11 8,11 12,3 14,3 2,6 2,8 3,3 1,5 7,5 8,6 5,5 9,5 2,5 2,3 3,4 5,2 3,0 3,10 5,1 4,11 2,9
        3,1 12,5 12,2 5,13 3,11 7,14 7,1 6,0 4,2 11,5 3,9 3,12 12,10 5,0 4,0 2,2 1,6 1,12 2,11
        1,11 3,7 3,8 1,9 0,10 13,10 14,10 13,12 0,12 2,12 13,14 3,2 11,14 13,9 13,13 12,14 0,11
        1,7 1,8 1,4 1,3 0,13 0,5 3,14 9,0 14,0 11,2 14,2 14,4 5,3 6,2 1,13 9,14 8,14 9,1 13,1 4,13
        0,1 14,11 14,8 0,9 0,8 14,12 14,14 6,13 3,13 14,9 14,13 8,0 7,0 8,13 7,13 8,1 14,1 2,10
        0,2 1,0 2,0 14,5 13,0 11,6 1,1 2,1 0,3 0,6 6,14 0,0 1,14 6,1 2,14 4,14 4,1 13,2 11,0 10,0
        0,14 12,0 0,7 10,12 1,2 2,13 12,12 10,1 11,1 12,1 0,4 3,6 1,10 5,11 5,14";

    #[test]
    fn no_legal_move_is_no_move() {
        let mut b = Board::new(15, 15, crate::rules::Rule::Renju).unwrap();
        for xy in FULL_BUT_FORBIDDEN.split_whitespace() {
            let (x, y) = xy.split_once(',').unwrap();
            let p = b.pos(x.parse().unwrap(), y.parse().unwrap()).unwrap();
            assert_eq!(b.play(p), Ok(false), "{xy}");
        }
        assert_eq!(b.to_move(), crate::rules::Color::Black);
        let last: Vec<Pos> = b.empty_points().collect();
        assert_eq!(last.len(), 1);
        assert!(b.check(last[0]).is_err(), "the last point is forbidden");
        let stop = std::sync::atomic::AtomicBool::new(false);
        let tm = crate::search::clock::TimeManager::new(
            &crate::search::clock::SearchLimit::nodes(1000),
            std::time::Instant::now(),
            &stop,
        );
        let mut report = |_: &crate::players::SearchInfo| {};
        let mut req = MoveRequest {
            tm: &tm,
            nbest: 1,
            report: &mut report,
        };
        assert_eq!(Strong::new().choose(&b, &mut req), None);
    }

    #[test]
    fn default_tables_wait_for_the_first_search() {
        let mut p = Strong::new();
        assert!(p.tt.bytes() + p.threats.bytes() < 1 << 20);
        let mut b = Board::new(15, 15, crate::rules::Rule::Freestyle).unwrap();
        b.place(b.pos(7, 7).unwrap(), crate::rules::Color::Black);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let tm = crate::search::clock::TimeManager::new(
            &crate::search::clock::SearchLimit::depth(1),
            std::time::Instant::now(),
            &stop,
        );
        let mut report = |_: &crate::players::SearchInfo| {};
        let mut req = MoveRequest {
            tm: &tm,
            nbest: 1,
            report: &mut report,
        };
        assert!(p.choose(&b, &mut req).is_some());
        assert_eq!(p.tt.bytes(), DEFAULT_TT_BYTES);
        let mut q = Strong::new();
        q.set_memory_limit(64 << 20);
        assert!(q.choose(&b, &mut req).is_some());
        assert_eq!(
            q.tt.bytes(),
            TranspositionTable::bytes_for(table_bytes_for(64 << 20, 1))
        );
    }

    #[test]
    fn the_same_limit_again_keeps_the_tables() {
        let mut p = Strong::new();
        p.set_memory_limit(367_001_600);
        let key = 0xDEAD_BEEF;
        p.tt.store(key, None, 5, 3, crate::search::tt::Bound::Exact);
        p.set_memory_limit(367_001_600);
        assert!(
            p.tt.probe(key).is_some(),
            "a repeated max_memory reallocated the table"
        );
        p.set_memory_limit(64 << 20);
        assert!(p.tt.probe(key).is_none());
    }
}
