//! `strong`, the default gomoku level: iterative-deepening PVS over incremental line patterns,
//! a transposition table kept between moves, and VCF threat search (see `search::alphabeta`).

use super::{GomokuPlayer, MoveRequest};
use crate::eval::patterns::PatternBoard;
use crate::rules::{Board, Pos};
use crate::search::alphabeta::Searcher;
use crate::search::threats::Threats;
use crate::search::tt::TranspositionTable;

/// Table size when no memory limit is given.
const DEFAULT_TT_BYTES: usize = 64 << 20;
/// Memory the rest of the engine needs besides the table (pattern tables, buffers, stacks).
const RESERVED_BYTES: u64 = 24 << 20;

/// The default search player.
pub struct Strong {
    tt: TranspositionTable,
    threats: Threats,
}

impl Strong {
    /// A player with the default table size.
    pub fn new() -> Strong {
        Strong {
            tt: TranspositionTable::new(DEFAULT_TT_BYTES),
            threats: Threats::default(),
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
    let spare = limit.saturating_sub(RESERVED_BYTES) / 2;
    (spare as usize).clamp(1 << 16, 256 << 20)
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
        let want = table_bytes_for(bytes);
        if want != self.tt.bytes() {
            // Free the old table first so the peak stays under the limit.
            self.tt = TranspositionTable::new(1 << 16);
            self.tt = TranspositionTable::new(want);
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
}
