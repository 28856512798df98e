//! `strong`, the default gomoku level: iterative-deepening PVS over incremental line patterns,
//! a transposition table kept between moves, and VCF threat search (see `search::alphabeta`).

use super::{GomokuPlayer, MoveRequest};
use crate::eval::patterns::PatternBoard;
use crate::rules::{Board, Pos};
use crate::search::alphabeta::Searcher;
use crate::search::threats::{Threats, Vct};
use crate::search::tt::TranspositionTable;

/// Table size when no memory limit is given.
const DEFAULT_TT_BYTES: usize = 64 << 20;
/// VCT cache size when no memory limit is given.
const DEFAULT_VCT_BYTES: usize = 4 << 20;
/// Memory the rest of the engine needs besides the two caches (pattern tables, the VCF fail
/// cache, buffers, stacks).
const RESERVED_BYTES: u64 = 24 << 20;

/// The default search player.
pub struct Strong {
    tt: TranspositionTable,
    threats: Threats,
}

impl Strong {
    /// A player with the default table size.
    pub fn new() -> Strong {
        // The pattern tables of every rule, built off the clock (see `warm_up`).
        crate::eval::patterns::warm_up();
        Strong {
            tt: TranspositionTable::new(DEFAULT_TT_BYTES),
            threats: Threats::new(DEFAULT_VCT_BYTES),
        }
    }
}

impl Default for Strong {
    fn default() -> Self {
        Strong::new()
    }
}

/// Transposition-table bytes allowed under a memory limit (0 = no limit).
pub fn table_bytes_for(limit: u64) -> usize {
    if limit == 0 {
        return DEFAULT_TT_BYTES;
    }
    (spare_for(limit) / 8 * 7).clamp(1 << 16, 256 << 20)
}

/// VCT cache bytes allowed under a memory limit (0 = no limit): an eighth of the share the
/// transposition table gets the rest of.
pub fn vct_bytes_for(limit: u64) -> usize {
    if limit == 0 {
        return DEFAULT_VCT_BYTES;
    }
    (spare_for(limit) / 8).clamp(1 << 14, 32 << 20)
}

/// What the two caches may share: half of what the reserve leaves (the other half is headroom
/// for the old caches while new ones are built and for the allocator).
fn spare_for(limit: u64) -> usize {
    (limit.saturating_sub(RESERVED_BYTES) / 2) as usize
}

impl GomokuPlayer for Strong {
    fn name(&self) -> &'static str {
        "strong"
    }
    fn new_game(&mut self) {
        self.tt.clear();
        self.threats.clear();
    }
    fn set_memory_limit(&mut self, bytes: u64) {
        // Managers send `INFO max_memory` before every game, with the next move request
        // already on the clock: compare with the size the tables would get (rounded to a power
        // of two), or every game would reallocate (and lose the tables' contents) for nothing.
        let want = table_bytes_for(bytes);
        if TranspositionTable::bytes_for(want) != self.tt.bytes() {
            // Free the old table first so the peak stays under the limit.
            self.tt = TranspositionTable::new(1 << 16);
            self.tt = TranspositionTable::new(want);
        }
        let want = vct_bytes_for(bytes);
        if Vct::cache_bytes_for(want) != self.threats.vct.cache_bytes() {
            self.threats = Threats::new(1 << 14);
            self.threats = Threats::new(want);
        }
    }
    fn prepare(&mut self, rule: crate::rules::Rule) {
        crate::eval::patterns::prepare(rule);
    }
    fn choose(&mut self, board: &Board, req: &mut MoveRequest<'_, '_>) -> Option<Pos> {
        if board.k() != 5 {
            return board.empty_points().find(|&p| board.check(p).is_ok());
        }
        let pb = PatternBoard::new(board);
        let mut searcher = Searcher::new(pb, &mut self.tt, &mut self.threats, req.tm);
        let result = searcher.run(req.nbest, req.report);
        result.best.filter(|&p| board.check(p).is_ok()).or_else(|| {
            log::warn!("search returned no playable move; falling back to the first legal point");
            board.empty_points().find(|&p| board.check(p).is_ok())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_respects_the_memory_limit() {
        assert_eq!(table_bytes_for(0), DEFAULT_TT_BYTES);
        let gomocup = 350 * 1024 * 1024;
        assert!((table_bytes_for(gomocup) as u64) < gomocup / 2);
        assert!(table_bytes_for(1) >= 1 << 16);
    }

    #[test]
    fn caches_fit_the_memory_limit_together() {
        for limit in [64u64 << 20, 350 << 20, 367_001_600, 2_147_483_647] {
            let mut p = Strong::new();
            p.set_memory_limit(limit);
            let caches = (p.tt.bytes() + p.threats.bytes()) as u64;
            assert!(
                caches + RESERVED_BYTES <= limit,
                "{caches} bytes of caches under a {limit} limit"
            );
            assert!(p.threats.vct.cache_bytes() <= vct_bytes_for(limit));
            assert!(p.threats.vct.cache_bytes() * 2 > vct_bytes_for(limit));
        }
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
