//! The exact tic-tac-toe solvers: negamax alpha-beta with a transposition table ([`Solver`]),
//! plain negamax as the oracle the tests hold it against ([`negamax_value`]), and the +1/0/-1
//! minimax of SEEDS 002 in docs/sources.md ([`minimax_value`]).

use crate::rules::ttt::{Grid, CODES};
use crate::rules::Color;

/// Value of a finished position for the side to move: a loss scores `-(1 + empties)` so that a
/// later loss (fewer empties) is preferred, and seen from the winner a faster win scores more.
#[inline]
fn terminal_value(g: &Grid) -> Option<i32> {
    let empties = g.empty().count_ones() as i32;
    if let Some(w) = g.winner() {
        // Normally the winner just moved; a set-up position may hand the move to the winner.
        return Some(if w == g.turn {
            1 + empties
        } else {
            -(1 + empties)
        });
    }
    if empties == 0 {
        return Some(0);
    }
    None
}

/// Exact negamax value by plain minimax (no pruning, no table): the oracle the tests compare the
/// alpha-beta solver against. Positive: the side to move wins (larger = sooner).
pub fn negamax_value(g: &Grid) -> i32 {
    if let Some(v) = terminal_value(g) {
        return v;
    }
    g.moves()
        .map(|s| -negamax_value(&g.play(s)))
        .max()
        .unwrap_or(0)
}

/// The minimax score of SEEDS 002 (docs/sources.md) of `g` for `me`: +1 if `me` wins, -1 if it
/// loses, 0 for a draw; max on `me`'s turn, min on the other's.
pub fn minimax_value(g: &Grid, me: Color) -> i32 {
    if let Some(w) = g.winner() {
        return if w == me { 1 } else { -1 };
    }
    if g.empty() == 0 {
        return 0;
    }
    let vals = g.moves().map(|s| minimax_value(&g.play(s), me));
    if g.turn == me {
        vals.max().unwrap_or(0)
    } else {
        vals.min().unwrap_or(0)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    None,
    Exact,
    Lower,
    Upper,
}

/// Squares in the order the solver tries them: centre, corners, sides.
const ORDER: [usize; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];
/// Beyond every value, on either side: the search window before any bound.
pub const INF: i32 = 100;

/// Negamax alpha-beta with a transposition table indexed by [`Grid::code`].
pub struct Solver {
    table: Vec<(i8, Bound)>,
    /// Nodes visited since creation (or the last [`Solver::clear`]).
    pub nodes: u64,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver with an empty table.
    pub fn new() -> Solver {
        Solver {
            table: vec![(0, Bound::None); CODES],
            nodes: 0,
        }
    }

    /// Forgets the table and the node count.
    pub fn clear(&mut self) {
        self.table.fill((0, Bound::None));
        self.nodes = 0;
    }

    /// The exact value of `g` for the side to move (same scale as [`negamax_value`]).
    pub fn value(&mut self, g: &Grid) -> i32 {
        self.search(g, -INF, INF)
    }

    fn search(&mut self, g: &Grid, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if let Some(v) = terminal_value(g) {
            return v;
        }
        let code = g.code();
        let (tv, tb) = self.table[code];
        let tv = tv as i32;
        match tb {
            Bound::Exact => return tv,
            Bound::Lower if tv >= beta => return tv,
            Bound::Upper if tv <= alpha => return tv,
            Bound::Lower => alpha = alpha.max(tv),
            Bound::Upper => beta = beta.min(tv),
            Bound::None => {}
        }
        let (alpha0, beta0) = (alpha, beta);
        let empty = g.empty();
        let mut best = -INF;
        for &s in &ORDER {
            if empty & (1 << s) == 0 {
                continue;
            }
            let v = -self.search(&g.play(s), -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        // Bounds are judged against the window actually searched (after the table narrowed it).
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[code] = (best as i8, bound);
        best
    }

    /// Every legal square with its exact value for the side to move, in square order.
    pub fn move_values(&mut self, g: &Grid) -> Vec<(usize, i32)> {
        if g.is_over() {
            return Vec::new();
        }
        g.moves().map(|s| (s, -self.value(&g.play(s)))).collect()
    }

    /// The optimal squares (all moves of the best exact value), in square order.
    pub fn best_moves(&mut self, g: &Grid) -> Vec<usize> {
        let vals = self.move_values(g);
        let best = vals.iter().map(|&(_, v)| v).max().unwrap_or(0);
        vals.into_iter()
            .filter(|&(_, v)| v == best)
            .map(|(s, _)| s)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ttt::reachable_positions;
    use std::collections::HashMap;

    /// The oracle: plain minimax over the whole tree (memoised only so it runs once per
    /// position), the optimal-move table built from it.
    fn oracle() -> HashMap<Grid, (i32, Vec<usize>)> {
        let mut table = HashMap::new();
        for g in reachable_positions() {
            let v = negamax_value(&g);
            let mut best = Vec::new();
            if !g.is_over() {
                let vals: Vec<(usize, i32)> =
                    g.moves().map(|s| (s, -negamax_value(&g.play(s)))).collect();
                let m = vals.iter().map(|&(_, v)| v).max().unwrap_or(0);
                best = vals
                    .into_iter()
                    .filter(|&(_, x)| x == m)
                    .map(|(s, _)| s)
                    .collect();
                assert_eq!(m, v);
            }
            table.insert(g, (v, best));
        }
        table
    }

    #[test]
    fn alpha_beta_agrees_with_minimax_everywhere() {
        let oracle = oracle();
        assert_eq!(oracle.len(), 5478);
        assert_eq!(oracle[&Grid::EMPTY].0, 0, "tic-tac-toe is a draw");
        let mut solver = Solver::new();
        for (g, (v, best)) in &oracle {
            assert_eq!(solver.value(g), *v, "value of\n{}", g.to_text());
            if !g.is_over() {
                assert_eq!(&solver.best_moves(g), best);
            }
        }
        // A fresh solver per position too: results must not depend on what the table holds.
        for (g, (v, _)) in oracle.iter().take(500) {
            assert_eq!(Solver::new().value(g), *v);
        }
    }
}
