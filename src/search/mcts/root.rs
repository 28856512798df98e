//! What the root of the Go tree says: its moves with their statistics and lines
//! ([`Candidate`], the one shape a Go candidate move has from the search up to the protocol's
//! analysis lines; a search's [`SearchResult`]), and the rules that end a search early once
//! the choice is made (a clear lead in visits, or one that the time left cannot overturn).

use std::time::Duration;

use super::tree::{to_move, Arena, Node, ROOT};
use crate::rules::go::GoMove;
use crate::search::clock::TimeManager;

/// Length of a reported principal variation.
const PV_LEN: usize = 12;

/// One candidate move of a Go search or analysis, from the point of view of the side it was
/// searched for. `M` is how its moves are written: [`GoMove`] in the search and the players,
/// the protocol's vertex once the session has named them ([`Candidate::map_moves`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate<M> {
    pub mv: M,
    /// Real (not virtual) visits, or playouts through this move.
    pub visits: u64,
    /// Estimated probability of winning, 0..1: the simulations' through this move (the
    /// prior's when unvisited).
    pub winrate: f64,
    /// The move's prior probability, 0..1.
    pub prior: f64,
    /// A lower confidence bound of `winrate` ([`winrate_lcb`]).
    pub lcb: f64,
    /// Expected final margin in points for the side searched for (area, komi included).
    pub score_lead: f64,
    /// Rank among the candidates, 0 = best.
    pub order: usize,
    /// Principal variation, starting with `mv`.
    pub pv: Vec<M>,
}

impl<M: Copy> Candidate<M> {
    /// The same candidate with its moves written by `name` (the session's GTP vertices).
    pub fn map_moves<N>(&self, mut name: impl FnMut(M) -> N) -> Candidate<N> {
        Candidate {
            mv: name(self.mv),
            visits: self.visits,
            winrate: self.winrate,
            prior: self.prior,
            lcb: self.lcb,
            score_lead: self.score_lead,
            order: self.order,
            pv: self.pv.iter().map(|&m| name(m)).collect(),
        }
    }
}

/// The `lcb` of the analysis commands: the lower end of the 95% Wilson score interval of a
/// winrate measured over `visits` simulations (0 without any). Unlike the normal
/// approximation it stays below the winrate at 0% and 100% and widens as visits get few, so a
/// move seen a handful of times does not look certain.
pub fn winrate_lcb(winrate: f64, visits: u64) -> f64 {
    if visits == 0 {
        return 0.0;
    }
    const Z: f64 = 1.96;
    let n = visits as f64;
    let p = winrate.clamp(0.0, 1.0);
    let z2n = Z * Z / n;
    let centre = p + z2n / 2.0;
    let spread = Z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt();
    ((centre - spread) / (1.0 + z2n)).clamp(0.0, 1.0)
}

/// What a search ends with.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The most visited root move; `None` when the root has no child at all.
    pub best: Option<GoMove>,
    /// Root moves, most visited first (`order` counts from 0 in that order).
    pub moves: Vec<Candidate<GoMove>>,
    /// When [`Reporting::ownership`] asked for it and a simulation ran: each padded point's
    /// mean final owner over this search's simulations, -1 (white's in every one) .. 1
    /// (black's).
    pub ownership: Option<Vec<f32>>,
    /// Simulations run by this search (reused visits not included).
    pub playouts: u64,
    pub elapsed: Duration,
}

impl SearchResult {
    /// The best move's winrate (0.5 when nothing was searched).
    pub fn winrate(&self) -> f64 {
        self.moves.first().map_or(0.5, |m| m.winrate)
    }
    /// The best move's visits.
    pub fn best_visits(&self) -> u64 {
        self.moves.first().map_or(0, |m| m.visits)
    }
    /// Visits of all root moves (reused ones included).
    pub fn total_visits(&self) -> u64 {
        self.moves.iter().map(|m| m.visits).sum()
    }
}

/// Whether the most visited root move has at least `ratio` times the visits of the next.
pub(super) fn clear_choice(arena: &Arena, ratio: u32) -> bool {
    let (first, second, _) = top_two_visits(arena);
    first >= ratio.saturating_mul(second.max(1))
}

/// Whether the most visited root move leads the next by more visits than the `sims` run so
/// far in `tm.elapsed()` say can still be run before the hard deadline.
pub(super) fn decided(arena: &Arena, sims: u64, tm: &TimeManager<'_>) -> bool {
    let Some(hard) = tm.hard_limit() else {
        return false;
    };
    let (first, second, allowed) = top_two_visits(arena);
    allowed <= 1 || cannot_be_overtaken(first - second, sims, tm.elapsed(), hard)
}

/// Visits of the two most visited allowed root moves, and how many root moves are allowed.
fn top_two_visits(arena: &Arena) -> (u32, u32, usize) {
    let (mut first, mut second, mut allowed) = (0u32, 0u32, 0usize);
    for i in arena.children(ROOT) {
        let ch = arena.get(i);
        if !ch.allowed() {
            continue;
        }
        allowed += 1;
        let v = ch.visits();
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    (first, second, allowed)
}

/// The allowed root moves, most visited first (prior breaks ties), ranked in that order.
/// Safe to call while other threads search: each node is read once, then sorted.
pub(super) fn root_moves(arena: &Arena) -> Vec<Candidate<GoMove>> {
    if arena.is_empty() {
        return Vec::new();
    }
    let mut kids: Vec<(u32, Node)> = arena
        .children(ROOT)
        .map(|i| (i, arena.get(i).load()))
        .filter(|(_, n)| n.allowed)
        .collect();
    kids.sort_by(|(a, x), (b, y)| {
        y.visits
            .cmp(&x.visits)
            .then(y.prior_p.total_cmp(&x.prior_p))
            .then(a.cmp(b))
    });
    kids.into_iter()
        .enumerate()
        .map(|(order, (i, n))| {
            let (winrate, lead) = if n.visits > 0 {
                (
                    (n.wins / n.visits as f32) as f64,
                    (n.score_sum / n.visits as f32) as f64,
                )
            } else {
                (n.prior_q as f64, 0.0)
            };
            let visits = n.visits as u64;
            Candidate {
                mv: to_move(n.mv),
                visits,
                winrate,
                prior: n.prior_p as f64,
                lcb: winrate_lcb(winrate, visits),
                score_lead: lead,
                order,
                pv: pv_from(arena, i),
            }
        })
        .collect()
}

/// The most visited line from node `i` (its move first).
fn pv_from(arena: &Arena, mut i: u32) -> Vec<GoMove> {
    let mut pv = vec![to_move(arena.get(i).mv())];
    while pv.len() < PV_LEN {
        let best = arena.children(i).max_by_key(|&c| arena.get(c).visits());
        match best {
            Some(c) if arena.get(c).visits() > 0 => {
                pv.push(to_move(arena.get(c).mv()));
                i = c;
            }
            _ => break,
        }
    }
    pv
}

/// Whether a lead of `lead` visits is more than the simulations still to come before `hard`,
/// at the rate of `sims` in `elapsed`.
fn cannot_be_overtaken(lead: u32, sims: u64, elapsed: Duration, hard: Duration) -> bool {
    if sims == 0 || elapsed.is_zero() {
        return false;
    }
    let left = hard.saturating_sub(elapsed).as_secs_f64() / elapsed.as_secs_f64();
    lead as f64 > sims as f64 * left
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lcb_is_below_the_winrate_and_closes_in_with_visits() {
        assert_eq!(winrate_lcb(0.7, 0), 0.0);
        let few = winrate_lcb(0.7, 10);
        let many = winrate_lcb(0.7, 10_000);
        assert!(few < many && many < 0.7, "{few} {many}");
        // 95% Wilson interval of 70 wins in 100: lower end 0.6042.
        assert!((winrate_lcb(0.7, 100) - 0.6042).abs() < 1e-4);
        // Certain-looking winrates keep a margin; no visit count makes it negative.
        assert!(winrate_lcb(1.0, 5) < 0.6);
        assert!(winrate_lcb(1.0, 1_000_000) < 1.0);
        assert_eq!(winrate_lcb(0.0, 50), 0.0);
    }

    #[test]
    fn a_lead_counts_against_the_simulations_still_to_come() {
        let ms = Duration::from_millis;
        // 1000 simulations in 100 ms, 900 ms left: about 9000 more to come.
        assert!(!cannot_be_overtaken(8000, 1000, ms(100), ms(1000)));
        assert!(cannot_be_overtaken(9500, 1000, ms(100), ms(1000)));
        // Past the deadline any lead is final; before any simulation nothing is.
        assert!(cannot_be_overtaken(1, 1000, ms(1200), ms(1000)));
        assert!(!cannot_be_overtaken(0, 0, ms(10), ms(1000)));
    }
}
