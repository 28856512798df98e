//! Table 2 of SEEDS 000 (docs/sources.md) recomputed, two ways, each with 100,000 simulations and
//! random playouts.
//!
//! * [`flat_line`]: the paper's table. Every row is the average playout result of each move in
//!   one position, the simulations shared equally among the moves; the line takes the best move
//!   for the side to move (black the largest value, white the smallest) and the next row
//!   evaluates the position after it. The paper's first row (.501 centre, .33 corners, .21
//!   sides) is exactly this: the exact random-playout values are .500, .343 and .200.
//! * [`Tree`]: a UCT tree search (UCB1 on the same playouts) and the min-max line through its
//!   average values. UCT spends its visits on the best moves, so its averages are pulled toward
//!   the game's value (a draw, 0) and its first row does not look like the paper's.
//!
//! Values are black's: a playout scores +1 for a black win, 0 for a draw and -1 for a white win,
//! the scale the paper's negative entries (-.171, -.338) imply.

use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::rules::ttt::Grid;
use crate::rules::Color;

/// The paper's simulation count.
pub const SIMULATIONS: usize = 100_000;

/// Table 2's first row as printed in the paper (squares 0..8).
pub const PAPER_FIRST_MOVES: [f64; 9] = [
    0.330, 0.192, 0.346, 0.215, 0.501, 0.211, 0.332, 0.208, 0.336,
];

/// The paper's MCTS best sequence, read from Table 2's rows (black maximises, white minimises).
pub const PAPER_LINE: [u8; 9] = [4, 6, 0, 8, 7, 1, 5, 3, 2];

struct Node {
    grid: Grid,
    /// Children as (square, node index).
    children: Vec<(u8, u32)>,
    /// Squares not expanded yet.
    untried: Vec<u8>,
    visits: u32,
    /// Sum of black's playout scores.
    black_score: f64,
}

impl Node {
    fn new(grid: Grid) -> Node {
        let untried = if grid.is_over() {
            Vec::new()
        } else {
            grid.moves().map(|s| s as u8).collect()
        };
        Node {
            grid,
            children: Vec::new(),
            untried,
            visits: 0,
            black_score: 0.0,
        }
    }

    fn value(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.black_score / self.visits as f64
        }
    }
}

fn playout(mut g: Grid, rng: &mut ChaCha8Rng) -> f64 {
    while !g.is_over() {
        let e = g.empty();
        let pick = rng.gen_range(0..e.count_ones());
        let sq = (0..9)
            .filter(|&s| e & (1 << s) != 0)
            .nth(pick as usize)
            .unwrap_or(0);
        g = g.play(sq);
    }
    score(&g)
}

/// The paper's procedure: from the empty board, `simulations` random playouts per position,
/// shared equally among its moves; the best move for the side to move is played and the next
/// position evaluated, to the end of the game. Deterministic by `seed`.
pub fn flat_line(simulations: usize, seed: u64) -> Vec<LineStep> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = Grid::EMPTY;
    let mut out = Vec::new();
    while !g.is_over() {
        let moves: Vec<usize> = g.moves().collect();
        let per = (simulations / moves.len()).max(1);
        let mut values = [None; 9];
        for &sq in &moves {
            let after = g.play(sq);
            let sum: f64 = (0..per).map(|_| playout(after, &mut rng)).sum();
            values[sq] = Some(sum / per as f64);
        }
        let black = g.turn == Color::Black;
        let key = |sq: usize| {
            let v = values[sq].unwrap_or(0.0);
            if black {
                v
            } else {
                -v
            }
        };
        let Some(&chosen) = moves
            .iter()
            .max_by(|&&a, &&b| key(a).total_cmp(&key(b)).then(b.cmp(&a)))
        else {
            break;
        };
        out.push(LineStep {
            values,
            chosen: chosen as u8,
        });
        g = g.play(chosen);
    }
    out
}

/// A searched tree.
pub struct Tree {
    nodes: Vec<Node>,
}

/// One move of the min-max line: the position's children values and the square chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct LineStep {
    /// Black's value of each square played here (`None`: taken or never expanded).
    pub values: [Option<f64>; 9],
    /// The square the line plays.
    pub chosen: u8,
}

fn score(g: &Grid) -> f64 {
    match g.winner() {
        Some(Color::Black) => 1.0,
        Some(Color::White) => -1.0,
        None => 0.0,
    }
}

impl Tree {
    /// Runs `simulations` UCT iterations from the empty board, deterministic by `seed`.
    pub fn search(simulations: usize, seed: u64) -> Tree {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut tree = Tree {
            nodes: vec![Node::new(Grid::EMPTY)],
        };
        let mut path = Vec::with_capacity(10);
        for _ in 0..simulations {
            path.clear();
            let mut at = 0usize;
            path.push(at);
            // Selection: descend through fully expanded nodes by UCB1 for the side to move.
            while tree.nodes[at].untried.is_empty() && !tree.nodes[at].children.is_empty() {
                at = tree.select(at);
                path.push(at);
            }
            // Expansion: one untried square, chosen at random.
            if !tree.nodes[at].untried.is_empty() {
                let k = rng.gen_range(0..tree.nodes[at].untried.len());
                let sq = tree.nodes[at].untried.swap_remove(k);
                let child = Node::new(tree.nodes[at].grid.play(sq as usize));
                let id = tree.nodes.len() as u32;
                tree.nodes.push(child);
                tree.nodes[at].children.push((sq, id));
                at = id as usize;
                path.push(at);
            }
            let s = playout(tree.nodes[at].grid, &mut rng);
            for &i in &path {
                tree.nodes[i].visits += 1;
                tree.nodes[i].black_score += s;
            }
        }
        tree
    }

    fn select(&self, at: usize) -> usize {
        let node = &self.nodes[at];
        let ln = (node.visits.max(1) as f64).ln();
        let black = node.grid.turn == Color::Black;
        let mut best = (f64::NEG_INFINITY, node.children[0].1 as usize);
        for &(_, c) in &node.children {
            let child = &self.nodes[c as usize];
            let n = child.visits.max(1) as f64;
            // The mover's share of the score range, in [0, 1] as UCB1 assumes.
            let v = if black { child.value() } else { -child.value() };
            let v = (v + 1.0) / 2.0;
            let ucb = v + (2.0 * ln / n).sqrt();
            if ucb > best.0 {
                best = (ucb, c as usize);
            }
        }
        best.1
    }

    fn child_values(&self, at: usize) -> [Option<f64>; 9] {
        let mut v = [None; 9];
        for &(sq, c) in &self.nodes[at].children {
            v[sq as usize] = Some(self.nodes[c as usize].value());
        }
        v
    }

    /// Black's value of each first move.
    pub fn first_moves(&self) -> [Option<f64>; 9] {
        self.child_values(0)
    }

    /// The line from the root choosing, at each node, the child with the best average value for
    /// the side to move (black the largest, white the smallest), until the game ends or the
    /// tree does.
    pub fn minmax_line(&self) -> Vec<LineStep> {
        let mut out = Vec::new();
        let mut at = 0usize;
        while !self.nodes[at].children.is_empty() {
            let node = &self.nodes[at];
            let black = node.grid.turn == Color::Black;
            let key = |c: u32| {
                let v = self.nodes[c as usize].value();
                if black {
                    v
                } else {
                    -v
                }
            };
            let Some(&(sq, c)) = node
                .children
                .iter()
                .max_by(|a, b| key(a.1).total_cmp(&key(b.1)).then(b.0.cmp(&a.0)))
            else {
                break;
            };
            out.push(LineStep {
                values: self.child_values(at),
                chosen: sq,
            });
            at = c as usize;
        }
        out
    }

    /// Nodes in the tree.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_is_the_best_first_move_and_the_search_is_deterministic() {
        let a = Tree::search(20_000, 3);
        let b = Tree::search(20_000, 3);
        assert_eq!(a.first_moves(), b.first_moves());
        let first = a.first_moves();
        let centre = first[4].unwrap();
        for (sq, v) in first.iter().enumerate() {
            if sq != 4 {
                assert!(v.unwrap() < centre, "{sq}: {v:?} vs centre {centre}");
            }
        }
        // The paper's procedure gives its first row: the exact random-playout values are
        // .500 (centre), .343 (corners), .200 (sides).
        let flat = flat_line(SIMULATIONS, 1);
        let first = flat[0].values;
        assert!((first[4].unwrap() - 0.5).abs() < 0.03);
        for c in [0, 2, 6, 8] {
            assert!((first[c].unwrap() - 0.343).abs() < 0.03, "{first:?}");
        }
        for e in [1, 3, 5, 7] {
            assert!((first[e].unwrap() - 0.2).abs() < 0.03, "{first:?}");
        }
        assert_eq!(flat[0].chosen, 4);
        let line = a.minmax_line();
        assert_eq!(line[0].chosen, 4);
        // The line is a legal game.
        let mut g = Grid::EMPTY;
        for step in &line {
            assert!(g.empty() & (1 << step.chosen) != 0);
            g = g.play(step.chosen as usize);
        }
    }
}
