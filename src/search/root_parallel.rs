//! Root parallelism for the Go MCTS: several independent trees ([`Mcts`]), one per thread,
//! search the same position from different seeds, and their root moves' statistics are added
//! up. No tree is shared, so there are no locks on the hot path; each tree keeps its own
//! subtree between moves. With one tree, [`RootParallel::search`] is exactly
//! [`Mcts::search`], move for move.
//!
//! - **Budget.** A node budget (`--nodes`) is split evenly between the trees, each runs its
//!   share to the end, and the merged answer is the same on every run: a parallel search
//!   under `--nodes` replays exactly, like a single one.
//! - **Stopping.** The first tree (on the caller's thread) makes every decision a single search
//!   makes: the clock's deadlines, the early stop once the choice is clear, the stop flag. When
//!   it stops before its share of the budget, it stops the others through a flag of their
//!   own; they also watch the deadlines themselves.
//! - **Reports** (analysis) merge the first tree's live root moves with the others' latest
//!   published ones, at most one report interval old.
//! - **Merging.** Visits add up; a move's winrate and score lead are the visit-weighted means
//!   over the trees; its line is the one from the tree that visited it most; ownership maps are
//!   weighted by each tree's simulations.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use super::clock::TimeManager;
use super::mcts::{Mcts, MctsConfig, Mode, RootMove, SearchReport, SearchResult, SearchSpec};
use crate::rules::go::{GoGame, GoMove};
use crate::rules::Color;

/// Most trees (threads) one search may use.
pub const MAX_THREADS: usize = 64;

/// A tree's latest report: its root moves and, when asked, its ownership map.
type Snapshot = (Vec<RootMove>, Option<Vec<f32>>);

/// One search tree per thread.
#[derive(Clone)]
pub struct RootParallel {
    /// The first runs on the caller's thread and leads; the rest are helpers.
    trees: Vec<Mcts>,
    seed: u64,
}

impl RootParallel {
    /// One tree (one thread) with `cfg`.
    pub fn new(cfg: MctsConfig, seed: u64) -> RootParallel {
        RootParallel {
            trees: vec![Mcts::with_config(cfg, seed)],
            seed,
        }
    }

    /// Searches with `threads` trees from now on (1..=[`MAX_THREADS`], clamped). New trees
    /// start empty; dropped ones take their subtrees with them.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, MAX_THREADS);
        let cfg = *self.config();
        self.trees.truncate(threads);
        while self.trees.len() < threads {
            let seed = tree_seed(self.seed, self.trees.len());
            self.trees.push(Mcts::with_config(cfg, seed));
        }
    }

    /// Trees searched at once.
    pub fn threads(&self) -> usize {
        self.trees.len()
    }

    /// The configuration (every tree has the same).
    pub fn config(&self) -> &MctsConfig {
        self.trees[0].config()
    }

    /// Changes every tree's configuration (the trees are dropped).
    pub fn set_config(&mut self, cfg: MctsConfig) {
        for t in &mut self.trees {
            t.set_config(cfg);
        }
    }

    /// Changes the seed: the first tree takes `seed`, the others seeds derived from it.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        for (i, t) in self.trees.iter_mut().enumerate() {
            t.set_seed(tree_seed(seed, i));
        }
    }

    /// Forgets every tree.
    pub fn clear(&mut self) {
        for t in &mut self.trees {
            t.clear();
        }
    }

    /// Nodes in all the trees.
    pub fn tree_size(&self) -> usize {
        self.trees.iter().map(Mcts::tree_size).sum()
    }

    /// [`Mcts::search`] on every tree at once, one thread each, merged (see the module notes).
    pub fn search(
        &mut self,
        game: &GoGame,
        color: Color,
        tm: &TimeManager<'_>,
        spec: SearchSpec<'_>,
        report: SearchReport<'_>,
    ) -> SearchResult {
        let SearchSpec {
            mode,
            reporting,
            filter,
        } = spec;
        let k = self.trees.len();
        let (lead, helpers) = self.trees.split_first_mut().expect("at least one tree");
        if helpers.is_empty() {
            return lead.search(
                game,
                color,
                tm,
                SearchSpec {
                    mode,
                    reporting,
                    filter,
                },
                report,
            );
        }
        let budget = tm.max_nodes();
        let lead_share = budget.map(|n| share(n, k, 0));
        let lead_tm = tm.share(lead_share, tm.stop_flag());
        let helpers_stop = AtomicBool::new(false);
        let published: Vec<Mutex<Option<Snapshot>>> =
            helpers.iter().map(|_| Mutex::new(None)).collect();
        std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .zip(&published)
                .enumerate()
                .map(|(i, (tree, slot))| {
                    let helper_tm = tm.share(budget.map(|n| share(n, k, i + 1)), &helpers_stop);
                    scope.spawn(move || {
                        let mut publish = |moves: &[RootMove], own: Option<&[f32]>| {
                            if let Ok(mut s) = slot.lock() {
                                *s = Some((moves.to_vec(), own.map(<[f32]>::to_vec)));
                            }
                        };
                        // Helpers never stop on their own judgement: the lead decides.
                        tree.search(
                            game,
                            color,
                            &helper_tm,
                            SearchSpec {
                                mode: Mode::Analyze,
                                reporting,
                                filter,
                            },
                            &mut publish,
                        )
                    })
                })
                .collect();
            let lead_result = lead.search(
                game,
                color,
                &lead_tm,
                SearchSpec {
                    mode,
                    reporting,
                    filter,
                },
                &mut |m, o| {
                    let mut parts: Vec<Snapshot> = vec![(m.to_vec(), o.map(<[f32]>::to_vec))];
                    parts.extend(published.iter().filter_map(|s| s.lock().ok()?.clone()));
                    let moves: Vec<&[RootMove]> = parts.iter().map(|p| p.0.as_slice()).collect();
                    let own = merge_ownership(parts.iter().filter_map(|(mv, own)| {
                        Some((own.as_deref()?, mv.iter().map(|r| r.visits).sum::<u64>()))
                    }));
                    report(&merge_moves(&moves), own.as_deref());
                },
            );
            // Stopped before its share (clock, stop flag, a clear choice): so do the others.
            // Otherwise they finish their own shares, so that the answer does not depend on
            // which thread ran faster.
            if lead_share.is_none_or(|n| lead_result.playouts < n) {
                helpers_stop.store(true, Ordering::Relaxed);
            }
            while !handles.iter().all(|h| h.is_finished()) {
                if tm.stop_requested() {
                    helpers_stop.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            let mut results = vec![lead_result];
            for h in handles {
                match h.join() {
                    Ok(r) => results.push(r),
                    Err(_) => log::error!("a search thread panicked; its tree is left out"),
                }
            }
            merge_results(&results, tm)
        })
    }
}

/// Tree `i`'s seed: the player's seed for the first, decorrelated ones for the others.
fn tree_seed(seed: u64, i: usize) -> u64 {
    seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Tree `i`'s share of a budget of `total` nodes over `k` trees (the first ones take the
/// remainder).
fn share(total: u64, k: usize, i: usize) -> u64 {
    let k = k as u64;
    total / k + u64::from((i as u64) < total % k)
}

/// The trees' results as one: root moves merged, simulations added, ownership weighted.
fn merge_results(results: &[SearchResult], tm: &TimeManager<'_>) -> SearchResult {
    let lists: Vec<&[RootMove]> = results.iter().map(|r| r.moves.as_slice()).collect();
    let moves = merge_moves(&lists);
    let ownership = merge_ownership(
        results
            .iter()
            .filter_map(|r| Some((r.ownership.as_deref()?, r.playouts))),
    );
    SearchResult {
        best: moves.first().map(|m| m.mv),
        moves,
        ownership,
        playouts: results.iter().map(|r| r.playouts).sum(),
        elapsed: tm.elapsed(),
    }
}

/// Root move lists of several trees as one, most visited first (then higher prior, then the
/// first list's order): visits added, winrate and score lead weighted by visits (the first
/// list's values for a move no tree visited), the line of the tree that visited it most.
pub fn merge_moves(lists: &[&[RootMove]]) -> Vec<RootMove> {
    struct Acc {
        merged: RootMove,
        win_sum: f64,
        lead_sum: f64,
        pv_visits: u64,
        first_seen: usize,
    }
    let mut by_move: HashMap<GoMove, Acc> = HashMap::new();
    let mut seen = 0;
    for m in lists.iter().flat_map(|l| l.iter()) {
        let v = m.visits as f64;
        let acc = by_move.entry(m.mv).or_insert_with(|| {
            seen += 1;
            Acc {
                merged: RootMove {
                    visits: 0,
                    ..m.clone()
                },
                win_sum: 0.0,
                lead_sum: 0.0,
                pv_visits: m.visits,
                first_seen: seen,
            }
        });
        acc.merged.visits += m.visits;
        acc.win_sum += v * m.winrate;
        acc.lead_sum += v * m.score_lead;
        if m.visits > acc.pv_visits {
            acc.pv_visits = m.visits;
            acc.merged.pv = m.pv.clone();
        }
    }
    let mut out: Vec<Acc> = by_move.into_values().collect();
    for a in &mut out {
        if a.merged.visits > 0 {
            let n = a.merged.visits as f64;
            a.merged.winrate = a.win_sum / n;
            a.merged.score_lead = a.lead_sum / n;
        }
    }
    out.sort_by(|a, b| {
        b.merged
            .visits
            .cmp(&a.merged.visits)
            .then(b.merged.prior.total_cmp(&a.merged.prior))
            .then(a.first_seen.cmp(&b.first_seen))
    });
    out.into_iter().map(|a| a.merged).collect()
}

/// Ownership maps weighted by their simulations; `None` when there is none.
fn merge_ownership<'m>(maps: impl Iterator<Item = (&'m [f32], u64)>) -> Option<Vec<f32>> {
    let mut sum: Option<Vec<f64>> = None;
    let mut weight = 0u64;
    for (own, n) in maps {
        let s = sum.get_or_insert_with(|| vec![0.0; own.len()]);
        if s.len() != own.len() {
            continue;
        }
        for (acc, &v) in s.iter_mut().zip(own) {
            *acc += n as f64 * f64::from(v);
        }
        weight += n;
    }
    let w = weight.max(1) as f64;
    sum.map(|s| s.into_iter().map(|v| (v / w) as f32).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::{parse_move, GoRules, Point};
    use crate::search::clock::SearchLimit;
    use crate::search::mcts::Reporting;
    use crate::search::move_filter::NO_FILTER;
    use std::time::Instant;

    fn rm(p: u16, visits: u64, winrate: f64, lead: f64, prior: f64, pv: &[u16]) -> RootMove {
        RootMove {
            mv: GoMove::Play(Point(p)),
            visits,
            winrate,
            prior,
            score_lead: lead,
            pv: pv.iter().map(|&q| GoMove::Play(Point(q))).collect(),
        }
    }

    #[test]
    fn merged_moves_add_visits_and_weigh_winrates_by_them() {
        let a = vec![
            rm(11, 30, 0.6, 2.0, 0.2, &[11, 12]),
            rm(13, 10, 0.4, -1.0, 0.5, &[13]),
        ];
        let b = vec![
            rm(13, 50, 0.5, 1.0, 0.5, &[13, 14]),
            rm(11, 10, 0.2, -2.0, 0.2, &[11]),
        ];
        let m = merge_moves(&[&a, &b]);
        assert_eq!(m.len(), 2);
        // 13: 60 visits, winrate (10 x 0.4 + 50 x 0.5) / 60, the line of the tree with 50.
        assert_eq!(m[0].mv, GoMove::Play(Point(13)));
        assert_eq!(m[0].visits, 60);
        assert!((m[0].winrate - 29.0 / 60.0).abs() < 1e-12);
        assert!((m[0].score_lead - 40.0 / 60.0).abs() < 1e-12);
        assert_eq!(m[0].pv.len(), 2);
        // 11: 40 visits, (30 x 0.6 + 10 x 0.2) / 40 = 0.5, its line from the first tree.
        assert_eq!(m[1].visits, 40);
        assert!((m[1].winrate - 0.5).abs() < 1e-12);
        assert_eq!(m[1].pv, a[0].pv);
    }

    #[test]
    fn unvisited_moves_keep_their_prior_values_and_rank_by_prior() {
        let a = vec![
            rm(11, 0, 0.55, 0.0, 0.1, &[11]),
            rm(12, 0, 0.45, 0.0, 0.3, &[12]),
        ];
        let m = merge_moves(&[&a, &a]);
        assert_eq!(m[0].mv, GoMove::Play(Point(12)));
        assert_eq!((m[0].visits, m[0].winrate), (0, 0.45));
        assert_eq!((m[1].visits, m[1].winrate), (0, 0.55));
    }

    #[test]
    fn ownership_is_weighted_by_simulations() {
        let own = merge_ownership([(&[1.0f32, 0.0][..], 3), (&[-1.0f32, 1.0][..], 1)].into_iter());
        assert_eq!(own, Some(vec![0.5, 0.25]));
        assert_eq!(merge_ownership(std::iter::empty()), None);
    }

    #[test]
    fn budgets_split_evenly_and_add_up() {
        assert_eq!(
            (0..3).map(|i| share(10, 3, i)).collect::<Vec<_>>(),
            [4, 3, 3]
        );
        assert_eq!((0..4).map(|i| share(2, 4, i)).sum::<u64>(), 2);
    }

    fn opening() -> GoGame {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        for v in ["E5", "C3"] {
            let mv = parse_move(g.board(), v).unwrap();
            let c = g.to_move();
            g.play(mv, c).unwrap();
        }
        g
    }

    /// Runs `search` (a plain tree or the parallel trees) on `g` under `limit`, without reports.
    fn under(
        limit: &SearchLimit,
        search: impl FnOnce(&TimeManager<'_>, SearchSpec<'_>, SearchReport<'_>) -> SearchResult,
    ) -> SearchResult {
        let stop = AtomicBool::new(false);
        let tm = TimeManager::new(limit, Instant::now(), &stop);
        let spec = SearchSpec {
            mode: Mode::Play,
            reporting: Reporting::default(),
            filter: &NO_FILTER,
        };
        search(&tm, spec, &mut |_, _| {})
    }

    fn run(search: &mut RootParallel, g: &GoGame, limit: &SearchLimit) -> SearchResult {
        under(limit, |tm, spec, sink| {
            search.search(g, g.to_move(), tm, spec, sink)
        })
    }

    #[test]
    fn one_thread_is_the_plain_search() {
        let g = opening();
        let limit = SearchLimit::nodes(1500);
        let mut plain = Mcts::new(7);
        let a = under(&limit, |tm, spec, sink| {
            plain.search(&g, g.to_move(), tm, spec, sink)
        });
        let mut rp = RootParallel::new(MctsConfig::default(), 7);
        let b = run(&mut rp, &g, &limit);
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.playouts, b.playouts);
    }

    #[test]
    fn parallel_trees_share_the_budget_and_replay_exactly() {
        let g = opening();
        let limit = SearchLimit::nodes(3001);
        let mut rp = RootParallel::new(MctsConfig::default(), 3);
        rp.set_threads(3);
        let a = run(&mut rp, &g, &limit);
        assert_eq!(a.playouts, 3001);
        // The root visits are the budget (no tree to reuse yet).
        assert_eq!(a.total_visits(), 3001);
        rp.clear();
        let b = run(&mut rp, &g, &limit);
        assert_eq!(a.moves, b.moves);
        // The trees do differ: the merged result is not three copies of one search.
        let mut one = RootParallel::new(MctsConfig::default(), 3);
        let c = run(&mut one, &g, &SearchLimit::nodes(1001));
        assert_ne!(
            a.moves.iter().map(|m| m.visits).collect::<Vec<_>>(),
            c.moves.iter().map(|m| 3 * m.visits).collect::<Vec<_>>()
        );
        // Dropping back to one thread gives the plain search again.
        rp.set_threads(1);
        rp.clear();
        let d = run(&mut rp, &g, &SearchLimit::nodes(1001));
        assert_eq!(d.moves, c.moves);
    }

    #[test]
    fn the_stop_flag_stops_every_thread() {
        let g = opening();
        let mut rp = RootParallel::new(MctsConfig::default(), 1);
        rp.set_threads(2);
        let stop = AtomicBool::new(false);
        let tm = TimeManager::infinite(&stop);
        let mut reports = 0;
        let mut last_total = 0;
        let result = {
            let mut on_report = |moves: &[RootMove], _: Option<&[f32]>| {
                reports += 1;
                last_total = moves.iter().map(|m| m.visits).sum::<u64>();
                if reports == 5 {
                    stop.store(true, Ordering::Relaxed);
                }
            };
            rp.search(
                &g,
                g.to_move(),
                &tm,
                SearchSpec {
                    mode: Mode::Analyze,
                    reporting: Reporting {
                        every: Some(Duration::from_millis(10)),
                        ownership: false,
                    },
                    filter: &NO_FILTER,
                },
                &mut on_report,
            )
        };
        assert!(reports >= 5);
        assert!(last_total > 0);
        // Both trees' work is in the answer.
        assert_eq!(result.total_visits(), result.playouts);
        assert!(result.playouts >= last_total);
    }
}
