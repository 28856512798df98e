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
use crate::search::threats::Threats;
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
    /// CPU time of the searching thread (unlike `time`, not inflated by other processes).
    pub cpu: Duration,
}

/// Every position's result, with totals.
#[derive(Clone, Debug)]
pub struct BenchReport {
    pub lines: Vec<BenchLine>,
    pub nodes: u64,
    pub time: Duration,
    pub cpu: Duration,
    pub signature: u64,
}

fn per_second(nodes: u64, time: Duration) -> u64 {
    nodes * 1_000_000 / time.as_micros().max(1) as u64
}

impl BenchReport {
    /// Nodes per second of wall time over the whole run.
    pub fn nps(&self) -> u64 {
        per_second(self.nodes, self.time)
    }
    /// Nodes per second of the thread's CPU time: the one-core speed even on a busy machine.
    pub fn cpu_nps(&self) -> u64 {
        per_second(self.nodes, self.cpu)
    }
}

/// CPU time consumed so far by the calling thread (zero where the clock is unavailable).
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes into it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<20} {:>5} {:>6} {:>8} {:>12} {:>9} {:>11} {:>9} {:>11}",
            "position", "depth", "best", "score", "nodes", "ms", "nodes/s", "cpu ms", "nodes/cpu-s"
        )?;
        for l in &self.lines {
            writeln!(
                f,
                "{:<20} {:>5} {:>6} {:>8} {:>12} {:>9} {:>11} {:>9} {:>11}",
                l.name,
                l.depth,
                l.best,
                l.score,
                l.nodes,
                l.time.as_millis(),
                per_second(l.nodes, l.time),
                l.cpu.as_millis(),
                per_second(l.nodes, l.cpu)
            )?;
        }
        writeln!(
            f,
            "total: {} nodes in {} ms = {} nodes/s; {} ms of CPU = {} nodes/cpu-s",
            self.nodes,
            self.time.as_millis(),
            self.nps(),
            self.cpu.as_millis(),
            self.cpu_nps()
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
    let mut total_cpu = Duration::ZERO;
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
        let cpu_start = thread_cpu_time();
        let tm = TimeManager::new(&limit, start, &stop);
        let mut tt = TranspositionTable::new(16 << 20);
        let mut threats = Threats::default();
        let mut searcher = Searcher::new(PatternBoard::new(&board), &mut tt, &mut threats, &tm);
        let result = searcher.run(1, &mut |_| {});
        let time = start.elapsed();
        let cpu = thread_cpu_time().saturating_sub(cpu_start);
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
        total_cpu += cpu;
        lines.push(BenchLine {
            name: bp.name,
            depth: result.info.depth,
            best,
            score: result.info.score,
            nodes: result.info.nodes,
            time,
            cpu,
        });
    }
    BenchReport {
        lines,
        nodes: total_nodes,
        time: total_time,
        cpu: total_cpu,
        signature,
    }
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
