//! Tic-tac-toe levels, each a [`Player`] of the 3x3 board as every game's levels are, and
//! their registry ([`TTT_LEVELS`], [`ttt_player`]). A level reads the board as a
//! [`crate::rules::ttt::Grid`] and picks a square ([`decide_square`]); the exact solver is
//! [`crate::search::ttt::Solver`].
//!
//! Levels, strongest first as measured: `perfect` (never loses, wins fastest, loses slowest),
//! `minimax` (002: +1/0/-1, never loses but may dawdle), `rules+heuristic`, `heuristic2`,
//! `dumb`, `dumber`, `heuristic1` (004; heuristic1 adds its own marks and subtracts the
//! opponent's on each line, so a line holding two of the opponent's scores low and it never
//! blocks: it loses 199 of 200 to dumb and splits with dumber). Squares are numbered 0..8 row-major, as in [`crate::rules::ttt`].
//!
//! Entry points for the CLI and the protocols (a tic-tac-toe game is
//! `Board::with_k(3, 3, 3, Rule::Freestyle)`): a level is
//! `ttt_player(name, seed) -> Option<Box<dyn Player<Board>>>`, names and descriptions in
//! [`TTT_LEVELS`] (the first is the default); its decision is `None` when the game is over or
//! the board is not 3 x 3 with k = 3. Choosing is instant (well under a millisecond), so no
//! level looks at the clock.

use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::rules::ttt::{square_pos, twos_made_by, winning_squares, Grid, LINES};
use crate::rules::{Board, Color, Pos};
use crate::search::clock::TimeManager;
use crate::search::ttt::{minimax_value, Solver};

use super::player::{Decision, Player};

/// The decision of a level that picks squares: `choose` gets the grid of `board`, which is not
/// over; none when the game is over or the board is not tic-tac-toe.
pub fn decide_square(
    board: &Board,
    choose: impl FnOnce(&Grid) -> Option<usize>,
) -> Option<Decision<Pos>> {
    let g = Grid::from_board(board)?;
    if g.is_over() {
        return None;
    }
    square_pos(board, choose(&g)?).map(Decision::Play)
}

/// The tic-tac-toe levels, strongest first as measured (a 200-game-per-pairing round robin of
/// the `sente-ttt-*` engines, scores in the README), with a description; the first is the
/// default.
pub const TTT_LEVELS: &[(&str, &str)] = &[
    (
        "perfect",
        "alpha-beta with a transposition table: never loses, wins fastest, loses slowest (default)",
    ),
    (
        "minimax",
        "plain minimax, +1 win / 0 draw / -1 loss: never loses",
    ),
    (
        "rules+heuristic",
        "win, block, fork, block a fork, else heuristic2",
    ),
    (
        "heuristic2",
        "line scores 1000/100/15/10/1 summed per square, ties at random",
    ),
    ("dumb", "win, block, centre, sides 2-4-6-8, corners 1-3-7-9"),
    ("dumber", "the first empty square"),
    (
        "heuristic1",
        "line scores +1 per own mark, -1 per opponent's, summed per square (never blocks: \
         measured no better than dumber)",
    ),
];

/// Makes the tic-tac-toe player named `level` (case-insensitive; `smart` is `minimax`, `rules`
/// is `rules+heuristic`), seeded with `seed` for its tie-breaks.
pub fn ttt_player(level: &str, seed: u64) -> Option<Box<dyn Player<Board>>> {
    let rng = ChaCha8Rng::seed_from_u64(seed);
    let p: Box<dyn Player<Board>> = match level.trim().to_ascii_lowercase().as_str() {
        "perfect" | "default" => Box::new(Perfect {
            solver: Solver::new(),
            rng,
        }),
        "minimax" | "smart" => Box::new(Minimax),
        "rules+heuristic" | "rules" | "rules-heuristic" => Box::new(RulesHeuristic { rng }),
        "heuristic2" => Box::new(Heuristic {
            table: H2,
            name: "heuristic2",
            rng,
        }),
        "heuristic1" => Box::new(Heuristic {
            table: H1,
            name: "heuristic1",
            rng,
        }),
        "dumb" => Box::new(Dumb),
        "dumber" => Box::new(Dumber),
        _ => return None,
    };
    Some(p)
}

/// `perfect`: the exact solver; ties among equally fast results broken at random (seeded).
struct Perfect {
    solver: Solver,
    rng: ChaCha8Rng,
}

impl Player<Board> for Perfect {
    fn set_seed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }
    fn name(&self) -> &'static str {
        "perfect"
    }
    fn decide(&mut self, board: &Board, _tm: &TimeManager<'_>) -> Option<Decision<Pos>> {
        decide_square(board, |g| {
            let best = self.solver.best_moves(g);
            if best.is_empty() {
                return None;
            }
            Some(best[self.rng.gen_range(0..best.len())])
        })
    }
}

/// `minimax`: 002's +1/0/-1 minimax; the first square of the best score, as the blog's loop
/// keeps the first maximum it meets.
struct Minimax;

impl Player<Board> for Minimax {
    fn name(&self) -> &'static str {
        "minimax"
    }
    fn decide(&mut self, board: &Board, _tm: &TimeManager<'_>) -> Option<Decision<Pos>> {
        decide_square(board, |g| {
            let me = g.turn;
            let mut best: Option<(usize, i32)> = None;
            for s in g.moves() {
                let v = minimax_value(&g.play(s), me);
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((s, v));
                }
            }
            best.map(|(s, _)| s)
        })
    }
}

/// `dumber`: the first empty square.
struct Dumber;

impl Player<Board> for Dumber {
    fn name(&self) -> &'static str {
        "dumber"
    }
    fn decide(&mut self, board: &Board, _tm: &TimeManager<'_>) -> Option<Decision<Pos>> {
        decide_square(board, |g| g.moves().next())
    }
}

fn first_in(mask: u16) -> Option<usize> {
    (mask != 0).then(|| mask.trailing_zeros() as usize)
}

/// `dumb`: the lecture's five rules in order.
struct Dumb;

/// Sides 2, 4, 6, 8 then corners 1, 3, 7, 9 of the lecture, as 0-based squares.
const DUMB_SIDES: [usize; 4] = [1, 3, 5, 7];
const DUMB_CORNERS: [usize; 4] = [0, 2, 6, 8];

impl Player<Board> for Dumb {
    fn name(&self) -> &'static str {
        "dumb"
    }
    fn decide(&mut self, board: &Board, _tm: &TimeManager<'_>) -> Option<Decision<Pos>> {
        decide_square(board, |g| {
            let me = g.turn;
            let e = g.empty();
            first_in(winning_squares(g, me))
                .or_else(|| first_in(winning_squares(g, me.opponent())))
                .or_else(|| (e & (1 << 4) != 0).then_some(4))
                .or_else(|| DUMB_SIDES.iter().copied().find(|&s| e & (1 << s) != 0))
                .or_else(|| DUMB_CORNERS.iter().copied().find(|&s| e & (1 << s) != 0))
        })
    }
}

/// Per-line scores of a heuristic: indexed by (my marks, their marks) on the line.
type LineTable = fn(u32, u32) -> i32;

/// Heuristic 1: +1 per own mark, -1 per opponent mark.
fn h1(mine: u32, theirs: u32) -> i32 {
    mine as i32 - theirs as i32
}

/// Heuristic 2: only my two 1000, only their two 100, only my one 15, only their one 10, empty 1;
/// a line holding both colours is dead and scores 0.
fn h2(mine: u32, theirs: u32) -> i32 {
    match (mine, theirs) {
        (2, 0) => 1000,
        (0, 2) => 100,
        (1, 0) => 15,
        (0, 1) => 10,
        (0, 0) => 1,
        _ => 0,
    }
}

const H1: LineTable = h1;
const H2: LineTable = h2;

/// Each empty square's score: the sum of its lines' scores for the side to move.
pub fn heuristic_scores(g: &Grid, table: fn(u32, u32) -> i32) -> [Option<i32>; 9] {
    let me = g.stones(g.turn);
    let them = g.stones(g.turn.opponent());
    let empty = g.empty();
    let mut out = [None; 9];
    for (s, slot) in out.iter_mut().enumerate() {
        if empty & (1 << s) != 0 {
            *slot = Some(0);
        }
    }
    for &l in &LINES {
        let v = table((me & l).count_ones(), (them & l).count_ones());
        for (s, slot) in out.iter_mut().enumerate() {
            if l & (1 << s) != 0 {
                if let Some(x) = slot {
                    *x += v;
                }
            }
        }
    }
    out
}

fn pick_max(scores: &[Option<i32>; 9], rng: &mut ChaCha8Rng) -> Option<usize> {
    let best = scores.iter().flatten().copied().max()?;
    let ties: Vec<usize> = (0..9).filter(|&s| scores[s] == Some(best)).collect();
    Some(ties[rng.gen_range(0..ties.len())])
}

/// `heuristic1` / `heuristic2`: the highest-scoring empty square, ties at random.
struct Heuristic {
    table: LineTable,
    name: &'static str,
    rng: ChaCha8Rng,
}

impl Player<Board> for Heuristic {
    fn set_seed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }
    fn name(&self) -> &'static str {
        self.name
    }
    fn decide(&mut self, board: &Board, _tm: &TimeManager<'_>) -> Option<Decision<Pos>> {
        decide_square(board, |g| {
            pick_max(&heuristic_scores(g, self.table), &mut self.rng)
        })
    }
}

/// `rules+heuristic`: win; block; fork (a square making two twos); block their fork; else
/// heuristic2.
struct RulesHeuristic {
    rng: ChaCha8Rng,
}

fn fork_square(g: &Grid, c: Color) -> Option<usize> {
    g.moves().find(|&s| twos_made_by(g, s, c) >= 2)
}

impl Player<Board> for RulesHeuristic {
    fn set_seed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }
    fn name(&self) -> &'static str {
        "rules+heuristic"
    }
    fn decide(&mut self, board: &Board, _tm: &TimeManager<'_>) -> Option<Decision<Pos>> {
        decide_square(board, |g| {
            let me = g.turn;
            first_in(winning_squares(g, me))
                .or_else(|| first_in(winning_squares(g, me.opponent())))
                .or_else(|| fork_square(g, me))
                .or_else(|| fork_square(g, me.opponent()))
                .or_else(|| pick_max(&heuristic_scores(g, H2), &mut self.rng))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ttt::reachable_positions;
    use crate::rules::Rule;
    use std::collections::HashMap;

    fn ttt_board() -> Board {
        Board::with_k(3, 3, 3, Rule::Freestyle)
    }

    /// The square `p` picks in `g` (a grid that is not over), asked through its board.
    fn square(p: &mut dyn Player<Board>, g: &Grid) -> Option<usize> {
        let mut b = ttt_board();
        let (xs, os) = (g.stones(Color::Black), g.stones(Color::White));
        let stones = |m: u16| (0..9).filter(move |s| m & (1 << s) != 0);
        // Alternately, X first: no line is made on the way to a grid that is not over.
        let (mut x, mut o) = (stones(xs), stones(os));
        while let Some(s) = if b.to_move() == Color::Black {
            x.next()
        } else {
            o.next()
        } {
            b.play(square_pos(&b, s).unwrap()).unwrap();
        }
        assert_eq!(Grid::from_board(&b), Some(*g));
        let stop = std::sync::atomic::AtomicBool::new(false);
        let limit = crate::search::clock::SearchLimit::default();
        let tm = TimeManager::new(&limit, std::time::Instant::now(), &stop);
        match p.decide(&b, &tm)? {
            Decision::Play(pos) => {
                let (x, y) = b.xy(pos);
                Some(y * 3 + x)
            }
            Decision::Resign => None,
        }
    }

    /// Exact values and optimal squares of every reachable position, from the solver (which
    /// `search::ttt`'s tests hold against plain minimax).
    fn oracle() -> HashMap<Grid, (i32, Vec<usize>)> {
        let mut solver = Solver::new();
        reachable_positions()
            .into_iter()
            .map(|g| (g, (solver.value(&g), solver.best_moves(&g))))
            .collect()
    }

    #[test]
    fn perfect_is_optimal_everywhere() {
        let oracle = oracle();
        assert_eq!(oracle.len(), 5478);
        for seed in [1u64, 2] {
            let mut perfect = ttt_player("perfect", seed).unwrap();
            for (g, (_, best)) in &oracle {
                if g.is_over() {
                    continue;
                }
                let s = square(perfect.as_mut(), g).unwrap();
                assert!(best.contains(&s), "{s} not optimal in\n{}", g.to_text());
            }
        }
    }

    #[test]
    fn perfect_wins_fastest_and_never_loses() {
        // X: 0, 1 ; O: 3, 4 ; X to move. Taking 2 wins at once; the slow wins are not chosen.
        let g = Grid {
            x: 0b011,
            o: 0b11000,
            turn: Color::Black,
        };
        for seed in 0..10 {
            assert_eq!(
                square(ttt_player("perfect", seed).unwrap().as_mut(), &g),
                Some(2)
            );
        }
        // Against every level from both sides, perfect never loses.
        for &(level, _) in TTT_LEVELS {
            for seed in 0..4 {
                for perfect_first in [true, false] {
                    let mut p = ttt_player("perfect", seed).unwrap();
                    let mut q = ttt_player(level, seed + 100).unwrap();
                    let mut g = Grid::EMPTY;
                    let perfect_color = if perfect_first {
                        Color::Black
                    } else {
                        Color::White
                    };
                    while !g.is_over() {
                        let s = if g.turn == perfect_color {
                            square(p.as_mut(), &g)
                        } else {
                            square(q.as_mut(), &g)
                        }
                        .unwrap();
                        assert!(g.empty() & (1 << s) != 0);
                        g = g.play(s);
                    }
                    assert_ne!(g.winner(), Some(perfect_color.opponent()), "vs {level}");
                }
            }
        }
    }

    #[test]
    fn minimax_never_loses_and_matches_its_values() {
        let oracle = oracle();
        let mut m = ttt_player("minimax", 0).unwrap();
        for (g, (v, _)) in &oracle {
            if g.is_over() {
                continue;
            }
            let s = square(m.as_mut(), g).unwrap();
            // The +1/0/-1 result of the chosen move equals the sign of the exact value.
            let after = -oracle[&g.play(s)].0;
            assert_eq!(after.signum(), v.signum(), "\n{}", g.to_text());
        }
    }

    #[test]
    fn lecture_heuristic_examples() {
        // X O . / . X . / . . O with X to move (004's worked example).
        let g = Grid {
            x: (1 << 0) | (1 << 4),
            o: (1 << 1) | (1 << 8),
            turn: Color::Black,
        };
        let h1 = heuristic_scores(&g, H1);
        assert_eq!(
            h1,
            [
                None,
                None,
                Some(0),
                Some(2),
                None,
                Some(0),
                Some(1),
                Some(-1),
                None
            ]
        );
        // The lecture picks square 4 (1-based), i.e. 3 here.
        assert_eq!(
            square(ttt_player("heuristic1", 0).unwrap().as_mut(), &g),
            Some(3)
        );
        let h2 = heuristic_scores(&g, H2);
        assert_eq!(
            h2,
            [
                None,
                None,
                Some(25),
                Some(30),
                None,
                Some(25),
                Some(40),
                Some(10),
                None
            ]
        );
        assert_eq!(
            square(ttt_player("heuristic2", 0).unwrap().as_mut(), &g),
            Some(6)
        );
    }

    #[test]
    fn dumb_and_dumber_follow_their_rules() {
        let mut dumb = ttt_player("dumb", 0).unwrap();
        let mut dumber = ttt_player("dumber", 0).unwrap();
        assert_eq!(square(dumb.as_mut(), &Grid::EMPTY), Some(4));
        assert_eq!(square(dumber.as_mut(), &Grid::EMPTY), Some(0));
        let g = Grid::EMPTY.play(4).play(0); // X centre, O corner: sides next, 2 first.
        assert_eq!(square(dumb.as_mut(), &g), Some(1));
        let g = Grid::EMPTY.play(4).play(1).play(0); // X threatens 8: O blocks.
        assert_eq!(square(dumb.as_mut(), &g), Some(8));
        // X can win at 7 (1-4-7) while O threatens 6 (0-3-6): winning comes first.
        let g = Grid {
            x: (1 << 1) | (1 << 4),
            o: (1 << 0) | (1 << 3),
            turn: Color::Black,
        };
        assert_eq!(square(dumb.as_mut(), &g), Some(7));
        assert_eq!(
            square(ttt_player("rules+heuristic", 0).unwrap().as_mut(), &g),
            Some(7)
        );
    }

    #[test]
    fn rules_heuristic_forks_and_blocks_forks() {
        let mut p = ttt_player("rules+heuristic", 0).unwrap();
        // X on opposite corners 0 and 8, O on the centre, O to move: no twos anywhere, O has
        // no fork square (its lines meet only at 4), X forks at 2 or 6: O takes the first, 2.
        let g = Grid {
            x: (1 << 0) | (1 << 8),
            o: 1 << 4,
            turn: Color::White,
        };
        assert_eq!(square(p.as_mut(), &g), Some(2));
        // X to move could fork at 2 or 6, but O threatens 7 (1-4-7): the block comes first.
        let g = Grid {
            x: (1 << 0) | (1 << 8),
            o: (1 << 1) | (1 << 4),
            turn: Color::Black,
        };
        assert_eq!(square(p.as_mut(), &g), Some(7));
    }

    #[test]
    fn players_never_panic_on_odd_boards() {
        let big = Board::with_k(15, 15, 5, Rule::Freestyle);
        let mut over = ttt_board();
        for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)] {
            over.play(over.pos(x, y).unwrap()).unwrap();
        }
        for &(level, _) in TTT_LEVELS {
            let mut p = ttt_player(level, 7).unwrap();
            assert_eq!(p.name(), level);
            let stop = std::sync::atomic::AtomicBool::new(false);
            let limit = crate::search::clock::SearchLimit::default();
            let tm = TimeManager::new(&limit, std::time::Instant::now(), &stop);
            assert_eq!(p.decide(&big, &tm), None);
            assert_eq!(p.decide(&over, &tm), None);
            let b = ttt_board();
            let Some(Decision::Play(mv)) = p.decide(&b, &tm) else {
                panic!("{level} found no move");
            };
            assert!(b.check(mv).is_ok());
        }
        assert!(ttt_player("nonsense", 0).is_none());
        assert!(ttt_player("SMART", 0).is_some());
    }
}
