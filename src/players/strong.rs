//! `strong`, the default gomoku level: iterative-deepening PVS over incremental line patterns,
//! a transposition table kept between moves, and VCF threat search (see `search::ab::alphabeta`),
//! on as many threads as the manager gives (Lazy SMP, `search::ab::smp`).

use super::{Decision, GomokuPlayer, MoveRequest, Player};
use crate::eval::gomoku::patterns::PatternBoard;
use crate::rules::{Board, Pos};
use crate::search::ab::params::SearchParams;
use crate::search::clock::TimeManager;
use std::sync::{Arc, OnceLock};

use crate::search::ab::smp::{self, Helpers, HELPER_STACK_BYTES};
use crate::search::ab::tt::TranspositionTable;
use crate::search::threats::{Threats, Vct};
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

/// Environment variable with `name=value` overrides of the search's constants
/// ([`SearchParams::with_overrides`]), for tuning matches between differently set engines
/// built from one binary (an alias of `--set`; as `SENTE_MCTS` is for the Go player).
pub const TUNING_ENV: &str = "SENTE_SEARCH";

/// The search constants for an evaluation with a learned policy (`policy`) or the hand-set
/// one: [`SearchParams::default`] or [`SearchParams::hand`], changed by [`TUNING_ENV`] when it
/// is set (read once per process; a bad setting is logged and ignored).
pub fn search_params(policy: bool) -> &'static SearchParams {
    static TUNED: OnceLock<[SearchParams; 2]> = OnceLock::new();
    let sets = TUNED.get_or_init(|| {
        let base = [SearchParams::hand(), SearchParams::default()];
        let Ok(text) = std::env::var(TUNING_ENV) else {
            return base;
        };
        let tuned = base.clone().map(|p| p.with_overrides(&text));
        match tuned {
            [Ok(hand), Ok(learned)] => {
                log::info!("gomoku search settings from {TUNING_ENV}: {text}");
                [hand, learned]
            }
            [Err(e), _] | [_, Err(e)] => {
                log::warn!("{TUNING_ENV} ignored: {e}");
                base
            }
        }
    });
    &sets[policy as usize]
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
    /// Evaluate with the embedded learned tables (`eval::gomoku::learned`) where the rule has them.
    learned: bool,
    /// The search's constants for the hand evaluation and for a learned policy
    /// ([`search_params`], then this player's own `set_option`s).
    params: [SearchParams; 2],
}

impl Strong {
    /// A player whose caches get their size from the memory limit, or the defaults at the
    /// first search. Allocating the defaults at once would put them in the process's peak
    /// (virtual) size before `INFO max_memory` arrives, which is what GomocupJudge checks.
    pub fn new() -> Strong {
        // The pattern tables of every rule, built off the clock (see `warm_up`).
        crate::eval::gomoku::patterns::warm_up();
        Strong {
            tt: Arc::new(TranspositionTable::new(0)),
            threats: Threats::new(0),
            helpers: Helpers::new(0, HELPER_VCT_BYTES),
            limit: None,
            learned: true,
            params: [search_params(false).clone(), search_params(true).clone()],
        }
    }

    /// The `strong-hand` level: the same search over the hand-set evaluation, with the hand
    /// constants ([`SearchParams::hand`]); the baseline a new generation of tables is
    /// measured against.
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
        crate::eval::gomoku::patterns::prepare(rule);
    }
    /// A search constant by name (`--set name=value`, `INFO name value`), in both sets.
    fn set_option(&mut self, key: &str, value: &str) -> Option<Result<(), String>> {
        let mut params = self.params.clone();
        for p in &mut params {
            if let Err(e) = p.set_known(key, value)? {
                return Some(Err(e));
            }
        }
        self.params = params;
        Some(Ok(()))
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
            pb.set_learned(crate::eval::gomoku::learned::value_tables(board.rule()));
            pb.set_policy(crate::eval::gomoku::learned::policy_tables(board.rule()));
        }
        let result = smp::search(
            &pb,
            &self.tt,
            &mut self.threats,
            &mut self.helpers,
            req.tm,
            &self.params[pb.has_policy() as usize],
            req.nbest,
            req.excluded,
            req.report,
        );
        // The search answers a legal point whenever there is one (its fallback before the
        // first iteration is the best-ordered legal candidate); a caller that must never play
        // an illegal point (the Gomocup session) has its own fallback.
        debug_assert!(
            result.best.is_none_or(|p| board.check(p).is_ok()),
            "the search chose an illegal point {:?} after {}",
            result.best.map(|p| board.xy(p)),
            history_text(board)
        );
        result.best
    }
}

/// The moves played so far in renju notation (`h8 i7 ...`, the form `sente match --openings`
/// reads), for a message that names the position.
fn history_text(board: &Board) -> String {
    let names: Vec<String> = board
        .history()
        .iter()
        .map(|&(p, _)| {
            let (x, y) = board.xy(p);
            crate::rules::notation::renju_name(x, y, board.height())
        })
        .collect();
    names.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::clock::SearchLimit;

    #[test]
    fn a_search_constant_is_set_by_name_in_both_sets_or_refused_whole() {
        let mut p = Strong::new();
        assert_eq!(p.set_option("rfp_margin", "90"), Some(Ok(())));
        assert_eq!((p.params[0].rfp_margin, p.params[1].rfp_margin), (90, 90));
        // The sets keep what tells them apart.
        assert_eq!((p.params[0].rfp_depth, p.params[1].rfp_depth), (3, 6));
        let before = p.params.clone();
        assert!(matches!(p.set_option("rfp_margin", "x"), Some(Err(_))));
        assert!(matches!(p.set_option("lmr_divisor", "0"), Some(Err(_))));
        assert_eq!(p.params, before);
        // Not a search constant: not this player's option.
        assert_eq!(p.set_option("kernel", "7"), None);
        assert_eq!(p.set_option("nmp_depth", "3"), None);
    }

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

    /// A renju self-play game (seed 261, in renju notation) that filled the board but for one
    /// point, which renju forbids black: black has no legal move, and the player says so (no
    /// fallback).
    const FULL_BUT_FORBIDDEN: &str = "\
        j9 g7 i6 g6 j6 g8 g9 i7 k6 g5 g4 l6 k8 j7 k7 k9 l8 h7 f7 i5 j8 i8 j5 l7 m9 n10 k4
        k5 l3 m2 j4 h4 h5 j2 f6 f8 h6 e8 h8 f3 f5 n8 k1 h3 c8 g3 e3 e6 e5 e10 f9
        e9 e7 h9 g10 n9 n7 o9 m7 n11 n12 e11 e12 j3 i3 f11 g11 g12 h13 j11 i10 k10 m6 m8 o8 l5 i12 k13 l12
        k2 l2 d10 c11 k11 k12 l11 m11 h12 i11 i13 m4 n4 j13 h11 l4 i4 m12 o12 c9 c7 d12 b10 h10 i9 f10 j10 c10
        c12 d11 f13 d15 d5 f14 e4 c6 d14 m10 m13 f2 d4 h1 h14 g15 e13 l10 d6 d3 m5 f15 e15 c13 b9 b3
        c4 b4 d8 d7 b6 a5 n5 o5 n3 a3 c3 n1 d13 l1 n6 n2 m1 a4 b8 b7 b11 b12 a2 a10
        d1 j15 o15 l13 o13 o11 f12 g13 b2 j1 i1 j14 n14 e2 a14 o4 o7 a6 a7 o3 o1 g2 d2 o6 o2 i15
        h15 i2 h2 i14 o14 c5 a13 b15 c15 o10 n15 l9 b14 c14 a12 a9 g1 a15 b1 g14 c1 e1 e14 n13 l15 k15 a1
        m15 a8 k3 b13 c2 m3 k14 l14 m14 a11 d9 b5 f4 f1";

    /// `player`'s move in `board` under `limit`, one best move, reports dropped.
    fn choose_under(player: &mut Strong, board: &Board, limit: SearchLimit) -> Option<Pos> {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let tm = TimeManager::new(&limit, std::time::Instant::now(), &stop);
        let mut report = |_: &crate::players::SearchInfo| {};
        let mut req = MoveRequest {
            tm: &tm,
            nbest: 1,
            excluded: &[],
            report: &mut report,
        };
        player.choose(board, &mut req)
    }

    /// `player`'s move in `board` under `limit`, never one of `excluded` if it can help it.
    fn choose_excluding(board: &Board, limit: SearchLimit, excluded: &[Pos]) -> Option<Pos> {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let tm = TimeManager::new(&limit, std::time::Instant::now(), &stop);
        let mut report = |_: &crate::players::SearchInfo| {};
        let mut req = MoveRequest {
            tm: &tm,
            nbest: 1,
            excluded,
            report: &mut report,
        };
        Strong::new().choose(board, &mut req)
    }

    #[test]
    fn a_blocked_centre_is_answered_next_to_it() {
        // Issue 62, point 9: one field-3 point at the centre was answered 0,0.
        for size in [15, 20] {
            let mut b = Board::new(size, size, crate::rules::Rule::Freestyle).unwrap();
            let c = b.centre();
            assert!(b.block(c));
            let p = choose_under(&mut Strong::new(), &b, SearchLimit::nodes(2000)).unwrap();
            let ((x, y), (cx, cy)) = (b.xy(p), b.xy(c));
            assert_ne!(p, c);
            assert!(
                x.abs_diff(cx) <= 2 && y.abs_diff(cy) <= 2,
                "{x},{y} on {size}"
            );
        }
    }

    #[test]
    fn a_five_through_a_blocked_point_is_no_win() {
        // Black to move with X X X X on row 7 from 3 to 6: the five point at 7 is blocked and 2
        // is white's, so there is no win in one; a win elsewhere is not there either.
        let mut b = Board::new(15, 15, crate::rules::Rule::Freestyle).unwrap();
        b.block(b.pos(7, 7).unwrap());
        for (x, y, c) in [
            (3, 7, 0),
            (4, 7, 0),
            (5, 7, 0),
            (6, 7, 0),
            (2, 7, 1),
            (0, 0, 1),
        ] {
            let colour = [crate::rules::Color::Black, crate::rules::Color::White][c];
            b.place(b.pos(x, y).unwrap(), colour);
        }
        b.place(b.pos(14, 14).unwrap(), crate::rules::Color::White);
        b.place(b.pos(14, 0).unwrap(), crate::rules::Color::White);
        let pb = PatternBoard::new(&b);
        assert_eq!(
            pb.count(
                crate::rules::Color::Black,
                crate::eval::gomoku::patterns::P4_FIVE
            ),
            0
        );
        let p = choose_under(&mut Strong::new(), &b, SearchLimit::nodes(2000)).unwrap();
        assert!(b.check(p).is_ok());
    }

    #[test]
    fn excluded_points_are_never_the_answer() {
        // Black to move wins at 7,7 (X X X X from 3 to 6, 2 white's): excluded, another point.
        let mut b = Board::new(15, 15, crate::rules::Rule::Freestyle).unwrap();
        for (x, y, c) in [
            (3, 7, 0),
            (4, 7, 0),
            (5, 7, 0),
            (6, 7, 0),
            (2, 7, 1),
            (0, 0, 1),
        ] {
            let colour = [crate::rules::Color::Black, crate::rules::Color::White][c];
            b.place(b.pos(x, y).unwrap(), colour);
        }
        for (x, y) in [(14, 14), (14, 0)] {
            b.place(b.pos(x, y).unwrap(), crate::rules::Color::White);
        }
        let win = b.pos(7, 7).unwrap();
        let limit = SearchLimit::nodes(2000);
        assert_eq!(choose_excluding(&b, limit, &[]), Some(win));
        let p = choose_excluding(&b, limit, &[win]).unwrap();
        assert_ne!(p, win);
        // The empty board's centre, and every near point: the answer is elsewhere.
        let empty = Board::new(15, 15, crate::rules::Rule::Freestyle).unwrap();
        let centre = empty.centre();
        let p = choose_excluding(&empty, limit, &[centre]).unwrap();
        assert_ne!(p, centre);
        let mut one = empty.clone();
        one.play(centre).unwrap();
        let near: Vec<Pos> = one
            .empty_points()
            .filter(|&q| {
                let ((x, y), (cx, cy)) = (one.xy(q), one.xy(centre));
                x.abs_diff(cx) <= 2 && y.abs_diff(cy) <= 2
            })
            .collect();
        let p = choose_excluding(&one, limit, &near).unwrap();
        assert!(!near.contains(&p) && one.check(p).is_ok());
    }

    #[test]
    fn no_legal_move_is_no_move() {
        let mut b = Board::new(15, 15, crate::rules::Rule::Renju).unwrap();
        for name in FULL_BUT_FORBIDDEN.split_whitespace() {
            let (x, y) = crate::rules::notation::parse_renju_name(name, 15).unwrap();
            let p = b.pos(x as i64, y as i64).unwrap();
            assert_eq!(b.play(p), Ok(false), "{name}");
        }
        assert_eq!(b.to_move(), crate::rules::Color::Black);
        let last: Vec<Pos> = b.empty_points().collect();
        assert_eq!(last.len(), 1);
        assert!(b.check(last[0]).is_err(), "the last point is forbidden");
        assert_eq!(
            choose_under(&mut Strong::new(), &b, SearchLimit::nodes(1000)),
            None
        );
    }

    #[test]
    fn default_tables_wait_for_the_first_search() {
        let mut p = Strong::new();
        assert!(p.tt.bytes() + p.threats.bytes() < 1 << 20);
        let mut b = Board::new(15, 15, crate::rules::Rule::Freestyle).unwrap();
        b.place(b.pos(7, 7).unwrap(), crate::rules::Color::Black);
        assert!(choose_under(&mut p, &b, SearchLimit::depth(1)).is_some());
        assert_eq!(p.tt.bytes(), DEFAULT_TT_BYTES);
        let mut q = Strong::new();
        q.set_memory_limit(64 << 20);
        assert!(choose_under(&mut q, &b, SearchLimit::depth(1)).is_some());
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
        p.tt.store(key, None, 5, 3, crate::search::ab::tt::Bound::Exact);
        p.set_memory_limit(367_001_600);
        assert!(
            p.tt.probe(key).is_some(),
            "a repeated max_memory reallocated the table"
        );
        p.set_memory_limit(64 << 20);
        assert!(p.tt.probe(key).is_none());
    }
}
