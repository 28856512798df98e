//! `sente bench`: fixed positions searched to a fixed depth on one thread. Prints nodes, nodes
//! per second and a signature (a hash of every best move, score and node count) that changes only
//! when search behaviour changes — compare it across commits to tell a speed-up from a change
//! of play.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::eval::patterns::PatternBoard;
use crate::rules::mnk::{splitmix64, Board, Rule};
use crate::search::alphabeta::Searcher;
use crate::search::clock::{SearchLimit, TimeManager};
use crate::search::threats::Vcf;
use crate::search::tt::TranspositionTable;

/// A bench position: board size, rule, and moves in "h8" notation played alternately from black.
struct BenchPosition {
    name: &'static str,
    size: usize,
    rule: Rule,
    moves: &'static str,
}

const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        name: "freestyle-opening",
        size: 15,
        rule: Rule::Freestyle,
        moves: "h8 i9 i7 g9 j8 h9",
    },
    BenchPosition {
        name: "freestyle-middle",
        size: 15,
        rule: Rule::Freestyle,
        moves: "h8 i9 g9 i7 i8 g7 f10 j6 k5 j8 h10 e11",
    },
    BenchPosition {
        name: "freestyle-20",
        size: 20,
        rule: Rule::Freestyle,
        moves: "k10 l11 j11 l9 l10 j10 m12 k12",
    },
    BenchPosition {
        name: "standard-middle",
        size: 15,
        rule: Rule::Standard,
        moves: "h8 h9 g9 i7 i8 g10 j9 f8 k10 h7",
    },
    BenchPosition {
        name: "standard-20",
        size: 20,
        rule: Rule::Standard,
        moves: "k10 k11 l11 j9 m12 n13 j11 l9",
    },
    BenchPosition {
        name: "renju-opening",
        size: 15,
        rule: Rule::Renju,
        moves: "h8 h9 j10 g7 i9 g9",
    },
    BenchPosition {
        name: "renju-middle",
        size: 15,
        rule: Rule::Renju,
        moves: "h8 i9 i7 g9 h9 h10 j8 g7 g8 k8",
    },
    BenchPosition {
        name: "caro-middle",
        size: 15,
        rule: Rule::Caro,
        moves: "h8 i9 i8 g8 h7 h9 j9 g6",
    },
];

/// One position's result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub name: &'static str,
    pub depth: u32,
    pub best: String,
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
}

/// Every position's result, with totals.
#[derive(Clone, Debug)]
pub struct BenchReport {
    pub lines: Vec<BenchLine>,
    pub nodes: u64,
    pub time: Duration,
    pub signature: u64,
}

impl BenchReport {
    /// Nodes per second over the whole run.
    pub fn nps(&self) -> u64 {
        let us = self.time.as_micros().max(1) as u64;
        self.nodes * 1_000_000 / us
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<20} {:>5} {:>6} {:>8} {:>12} {:>9} {:>11}",
            "position", "depth", "best", "score", "nodes", "ms", "nodes/s"
        )?;
        for l in &self.lines {
            let us = l.time.as_micros().max(1) as u64;
            writeln!(
                f,
                "{:<20} {:>5} {:>6} {:>8} {:>12} {:>9} {:>11}",
                l.name,
                l.depth,
                l.best,
                l.score,
                l.nodes,
                l.time.as_millis(),
                l.nodes * 1_000_000 / us
            )?;
        }
        writeln!(
            f,
            "total: {} nodes in {} ms = {} nodes/s",
            self.nodes,
            self.time.as_millis(),
            self.nps()
        )?;
        write!(f, "signature: {:016x}", self.signature)
    }
}

/// Parses "h8"-style notation (letter = x from `a`, number = y + 1), the inverse of
/// [`crate::protocol::gomocup::pos_name`] for boards up to 26 wide.
pub fn parse_pos(board: &Board, s: &str) -> Option<crate::rules::Pos> {
    let mut chars = s.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let x = (letter as u8 - b'a') as i64;
    let y: i64 = chars.as_str().parse().ok()?;
    board.pos(x, y - 1)
}

/// Searches every bench position to `depth` (plies) on this thread.
pub fn run_gomoku(depth: u32) -> BenchReport {
    let mut lines = Vec::new();
    let mut signature = 0x00B3_A7C4_u64;
    let mut total_nodes = 0;
    let mut total_time = Duration::ZERO;
    for bp in POSITIONS {
        let mut board = Board::new(bp.size, bp.size, bp.rule).expect("bench sizes are valid");
        for mv in bp.moves.split_whitespace() {
            let p = parse_pos(&board, mv).expect("bench moves are on the board");
            board.play(p).expect("bench moves are legal");
        }
        // Build this rule's pattern tables before the clock starts: a one-off cost per process.
        let warm = PatternBoard::new(&board);
        drop(warm);
        let stop = AtomicBool::new(false);
        let limit = SearchLimit::depth(depth);
        let start = Instant::now();
        let tm = TimeManager::new(&limit, start, &stop);
        let mut tt = TranspositionTable::new(16 << 20);
        let mut vcf = Vcf::new();
        let mut searcher = Searcher::new(PatternBoard::new(&board), &mut tt, &mut vcf, &tm);
        let result = searcher.run(1, &mut |_| {});
        let time = start.elapsed();
        let best = result.best.map_or("none".to_string(), |p| {
            let (x, y) = board.xy(p);
            crate::protocol::gomocup::pos_name(x, y)
        });
        for v in [
            result.best.map_or(0, |p| p.0 as u64),
            result.info.score as u64,
            result.info.nodes,
        ] {
            signature ^= v;
            signature = splitmix64(&mut signature);
        }
        total_nodes += result.info.nodes;
        total_time += time;
        lines.push(BenchLine {
            name: bp.name,
            depth: result.info.depth,
            best,
            score: result.info.score,
            nodes: result.info.nodes,
            time,
        });
    }
    BenchReport {
        lines,
        nodes: total_nodes,
        time: total_time,
        signature,
    }
}

/// `sente bench kernels`: how the learned map's cost grows with the store. Kernels are cut from
/// real positions (rule-only self-play on 13x13, at random stones, marking random empty points
/// within 7), then the learned map is computed for 400 positions of other games, with the hash
/// index (anchored and free, exact and near) and with 001's literal loop (compare every kernel
/// at its place) for reference. Prints microseconds per move and matches found.
pub fn run_kernels() -> String {
    use crate::eval::kernels::{Anchor, Kernel, KernelIndex, KernelStore, MatchOptions};
    use crate::players::learner::Learner;
    use crate::players::GomokuPlayer;
    use crate::rules::Color;
    use crate::study::kernels::play_game;
    use std::fmt::Write as _;

    // Positions at black's turns from seeded games.
    let positions = |first: u64, games: u64| -> Vec<Board> {
        let mut out = Vec::new();
        let (mut b, mut w) = (Learner::rule_only(), Learner::rule_only());
        for g in first..first + games {
            b.set_seed(2 * g);
            w.set_seed(2 * g + 1);
            let end = play_game(&mut b, &mut w);
            let mut pos = end.clone();
            while pos.stones() > 1 {
                pos.undo();
                if pos.to_move() == Color::Black {
                    out.push(pos.clone());
                }
            }
        }
        out
    };
    let source = positions(0, 2_000);
    let tests: Vec<Board> = positions(1_000_000, 40).into_iter().take(400).collect();
    let mut state = 0x6b62_656e_6368u64;
    let mut kernels = Vec::new();
    while kernels.len() < 100_000 {
        let b = &source[(splitmix64(&mut state) % source.len() as u64) as usize];
        let h = b.history();
        let centre = h[(splitmix64(&mut state) % h.len() as u64) as usize].0;
        let (cx, cy) = b.xy(centre);
        let dx = (splitmix64(&mut state) % 15) as i64 - 7;
        let dy = (splitmix64(&mut state) % 15) as i64 - 7;
        let Some(mark) = b
            .pos(cx as i64 + dx, cy as i64 + dy)
            .filter(|&p| b.is_empty(p))
        else {
            continue;
        };
        kernels.extend(Kernel::extract(b, centre, Color::Black, mark));
    }
    let mut t = String::new();
    let _ = writeln!(
        t,
        "learned-map cost per move over {} test positions (13x13); kernels cut from {} positions",
        tests.len(),
        source.len()
    );
    let _ = writeln!(
        t,
        "{:>8} {:>4} {:<26} {:>10} {:>12} {:>9}",
        "kernels", "K", "matching", "build ms", "us per move", "matches"
    );
    let mut values = vec![0i32; tests[0].array_len()];
    for &n in &[1_000usize, 10_000, 100_000] {
        let mut store = KernelStore::new();
        for k in &kernels[..n] {
            store.add(k.clone(), 1);
        }
        for size in [5usize, 15] {
            let variants = [
                ("hash, anchored, exact", Anchor::Board, false, 0),
                ("hash, anywhere, exact", Anchor::Anywhere, false, 0),
                ("hash, anchored, symmetry", Anchor::Board, true, 0),
                ("hash, anchored, near 2", Anchor::Board, false, 2),
            ];
            for (name, anchor, symmetry, near) in variants {
                let opts = MatchOptions {
                    size,
                    anchor,
                    symmetry,
                    near,
                    ..MatchOptions::default()
                };
                let t0 = Instant::now();
                let mut index = KernelIndex::build(opts, &store);
                let build = t0.elapsed();
                let t1 = Instant::now();
                let mut matches = 0;
                for b in &tests {
                    values.fill(0);
                    matches += index.add_learned(b, Color::Black, &mut values);
                }
                let per = t1.elapsed().as_secs_f64() * 1e6 / tests.len() as f64;
                let _ = writeln!(
                    t,
                    "{n:>8} {size:>4} {name:<26} {:>10.1} {per:>12.1} {matches:>9}",
                    build.as_secs_f64() * 1e3
                );
            }
            // 001's loop: every kernel compared with the board at its place.
            let r = (size / 2) as i64;
            let t1 = Instant::now();
            let mut matches = 0;
            for b in &tests {
                for e in store.entries() {
                    let k = &e.kernel;
                    if k.mark.0.abs() as i64 > r || k.mark.1.abs() as i64 > r {
                        continue;
                    }
                    let (cx, cy) = (k.centre.0 as i64, k.centre.1 as i64);
                    let same = (-r..=r).all(|dy| {
                        (-r..=r).all(|dx| {
                            let c = b.get(cx + dx, cy + dy);
                            let code = match c {
                                crate::rules::Cell::Empty => 0,
                                crate::rules::Cell::Black => 1,
                                crate::rules::Cell::White => 2,
                                crate::rules::Cell::Wall => 3,
                            };
                            k.cell(dx, dy) == code
                        })
                    });
                    // A kernel learned n times is n of 001's data.
                    matches += if same { e.count as usize } else { 0 };
                }
            }
            let per = t1.elapsed().as_secs_f64() * 1e6 / tests.len() as f64;
            let _ = writeln!(
                t,
                "{n:>8} {size:>4} {:<26} {:>10} {per:>12.1} {matches:>9}",
                "scan every kernel (001)", "-"
            );
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal_and_the_signature_is_stable() {
        let a = run_gomoku(2);
        let b = run_gomoku(2);
        assert_eq!(a.lines.len(), POSITIONS.len());
        assert_eq!(a.signature, b.signature);
        assert!(a.nodes > 0);
    }
}
