//! `sente bench` (gomoku): fixed positions searched to a fixed depth on one thread. Prints
//! nodes, nodes per second (per wall-clock and per CPU second, [`crate::cpu_time`]) and a
//! signature (a hash of every best move, score and node count). `--threads N` also searches
//! each position on N threads right after the one-thread search and reports the time-to-depth
//! speed-up; `--hash MB` sizes the one table the positions share (emptied between them).

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::report::{per_second, BenchLine, BenchReport};
use crate::cpu_time::thread_cpu_time;
use crate::eval::gomoku::patterns::PatternBoard;
use crate::rules::notation::{parse_renju_name, renju_name};
use crate::rules::{Board, Rule};
use crate::search::ab::smp;
use crate::search::ab::tt::TranspositionTable;
use crate::search::clock::{SearchLimit, TimeManager};
use crate::search::threats::Threats;

/// A bench position: board size, rule, and moves in renju notation (`h8`, a1 at the lower
/// left) played alternately from black.
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
        moves: "h8 i7 i9 g7 j8 h7",
    },
    BenchPosition {
        name: "freestyle-middle",
        size: 15,
        rule: Rule::Freestyle,
        moves: "h8 i7 g7 i9 i8 g9 f6 j10 k11 j8 h6 e5",
    },
    BenchPosition {
        name: "freestyle-20",
        size: 20,
        rule: Rule::Freestyle,
        moves: "k11 l10 j10 l12 l11 j11 m9 k9",
    },
    BenchPosition {
        name: "standard-middle",
        size: 15,
        rule: Rule::Standard,
        moves: "h8 h7 g7 i9 i8 g6 j7 f8 k6 h9",
    },
    BenchPosition {
        name: "standard-20",
        size: 20,
        rule: Rule::Standard,
        moves: "k11 k10 l10 j12 m9 n8 j10 l12",
    },
    BenchPosition {
        name: "renju-opening",
        size: 15,
        rule: Rule::Renju,
        moves: "h8 h7 j6 g9 i7 g7",
    },
    BenchPosition {
        name: "renju-middle",
        size: 15,
        rule: Rule::Renju,
        moves: "h8 i7 i9 g7 h7 h6 j8 g9 g8 k8",
    },
    BenchPosition {
        name: "caro-middle",
        size: 15,
        rule: Rule::Caro,
        moves: "h8 i7 i8 g8 h9 h7 j7 g10",
    },
];

/// One position's result.
#[derive(Clone, Debug)]
pub struct GomokuLine {
    pub name: &'static str,
    pub depth: u32,
    pub best: String,
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    /// CPU time of the searching thread (unlike `time`, not inflated by other processes).
    pub cpu: Duration,
}

impl BenchLine for GomokuLine {
    fn heading(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<20} {:>5} {:>6} {:>8} {:>12} {:>9} {:>11} {:>9} {:>11}",
            "position", "depth", "best", "score", "nodes", "ms", "nodes/s", "cpu ms", "nodes/cpu-s"
        )
    }

    fn row(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<20} {:>5} {:>6} {:>8} {:>12} {:>9} {:>11} {:>9} {:>11}",
            self.name,
            self.depth,
            self.best,
            self.score,
            self.nodes,
            self.time.as_millis(),
            per_second(self.nodes, self.time),
            self.cpu.as_millis(),
            per_second(self.nodes, self.cpu)
        )
    }

    /// Nodes per second of wall time over the whole run, and of the threads' CPU time: the
    /// one-core speed even on a busy machine.
    fn totals(lines: &[GomokuLine], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nodes = total_nodes(lines);
        let time: Duration = lines.iter().map(|l| l.time).sum();
        let cpu: Duration = lines.iter().map(|l| l.cpu).sum();
        writeln!(
            f,
            "total: {} nodes in {} ms = {} nodes/s; {} ms of CPU = {} nodes/cpu-s",
            nodes,
            time.as_millis(),
            per_second(nodes, time),
            cpu.as_millis(),
            per_second(nodes, cpu)
        )
    }
}

/// Nodes over every position.
fn total_nodes(lines: &[GomokuLine]) -> u64 {
    lines.iter().map(|l| l.nodes).sum()
}

/// A bench move in renju notation ([`parse_renju_name`]).
fn parse_pos(board: &Board, s: &str) -> Option<crate::rules::Pos> {
    let (x, y) = parse_renju_name(s, board.height())?;
    board.pos(x as i64, y as i64)
}

/// The transposition table's size when `--hash` is not given: 16 MB, the size every recorded
/// signature and nodes/s figure was measured with.
pub const DEFAULT_HASH_MB: usize = 16;

/// The one table of a bench run.
fn table_of(hash_mb: usize) -> Arc<TranspositionTable> {
    Arc::new(TranspositionTable::new(hash_mb << 20))
}

/// The signature's start.
const SEED: u64 = 0x00B3_A7C4;

/// Searches every bench position to `depth` (plies) on this thread, with a table of `hash_mb`
/// MB.
pub fn run(depth: u32, hash_mb: usize) -> BenchReport<GomokuLine> {
    let mut report = BenchReport::new(SEED);
    let mut tt = table_of(hash_mb);
    for bp in POSITIONS {
        let (line, answer) = bench_position(bp, depth, 1, &mut tt);
        report.add(line, &answer);
    }
    report
}

/// `bp` searched to `depth` on `threads` threads, with `tt` emptied first: its line, and its
/// answer for the signature (best move, score, nodes).
fn bench_position(
    bp: &BenchPosition,
    depth: u32,
    threads: usize,
    tt: &mut Arc<TranspositionTable>,
) -> (GomokuLine, [u64; 3]) {
    // Emptied as a player empties its table for a new game: the memory stays committed, as it
    // is in a match after the first moves (a fresh table per position would time the kernel
    // committing pages instead), and the search is the one a fresh table gives (entries of an
    // older epoch read as empty), so sharing it does not change the signature.
    TranspositionTable::clear_shared(tt);
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
    let mut threats = Threats::default();
    let mut helpers = smp::Helpers::new(threads - 1, 0);
    let mut pb = PatternBoard::new(&board);
    // The default level's evaluation: the embedded learned tables where the rule has them.
    pb.set_learned(crate::eval::gomoku::learned::value_tables(bp.rule));
    pb.set_policy(crate::eval::gomoku::learned::policy_tables(bp.rule));
    // One thread: that thread's CPU time; more: the process's, every thread included.
    let cpu_now = || {
        if threads > 1 {
            crate::cpu_time::process_cpu_time()
        } else {
            thread_cpu_time()
        }
    };
    let start = Instant::now();
    let cpu_start = cpu_now();
    let tm = TimeManager::new(&limit, start, &stop);
    let result = smp::search(
        &pb,
        tt,
        &mut threats,
        &mut helpers,
        &tm,
        crate::players::strong::search_params(pb.has_policy()),
        1,
        &[],
        &mut |_| {},
    );
    let time = start.elapsed();
    // The helpers' last nodes count in the CPU time.
    helpers.settle();
    // Where the CPU clock is unavailable, wall time stands in for it.
    let cpu = cpu_now()
        .zip(cpu_start)
        .map_or(time, |(end, begin)| end.saturating_sub(begin));
    let best = result.best.map_or("none".to_string(), |p| {
        let (x, y) = board.xy(p);
        renju_name(x, y, board.height())
    });
    let line = GomokuLine {
        name: bp.name,
        depth: result.info.depth,
        best,
        score: result.info.score,
        nodes: result.info.nodes,
        time,
        cpu,
    };
    let mv = result.best.map_or(0, |p| p.0 as u64);
    (line, [mv, result.info.score as u64, result.info.nodes])
}

/// The bench on one thread and on `threads` threads, position by position (the N-thread search
/// right after the one-thread one, so both see the same load).
pub struct ThreadBench {
    pub threads: usize,
    pub one: BenchReport<GomokuLine>,
    pub many: BenchReport<GomokuLine>,
}

impl ThreadBench {
    /// Wall time to depth on one thread over wall time on `threads` threads, summed over the
    /// positions that were searched (those answered before depth 1 are left out).
    pub fn speedup(&self) -> f64 {
        let (mut one, mut many) = (Duration::ZERO, Duration::ZERO);
        for (a, b) in self.one.lines.iter().zip(&self.many.lines) {
            if a.depth > 1 {
                one += a.time;
                many += b.time;
            }
        }
        one.as_secs_f64() / many.as_secs_f64().max(1e-9)
    }
}

/// Searches every bench position to `depth` on one thread, then on `threads` threads.
pub fn run_threads(depth: u32, threads: usize, hash_mb: usize) -> ThreadBench {
    let mut one = BenchReport::new(SEED);
    let mut many = BenchReport::new(SEED);
    let mut tt = table_of(hash_mb);
    for bp in POSITIONS {
        let (line, answer) = bench_position(bp, depth, 1, &mut tt);
        one.add(line, &answer);
        let (line, answer) = bench_position(bp, depth, threads, &mut tt);
        many.add(line, &answer);
    }
    ThreadBench { threads, one, many }
}

impl fmt::Display for ThreadBench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "1 thread:\n{}\n", self.one)?;
        writeln!(
            f,
            "{} threads (nodes, scores and the signature vary from run to run):\n{}\n",
            self.threads, self.many
        )?;
        writeln!(
            f,
            "{:<20} {:>10} {:>10} {:>8}",
            "time to depth",
            "1 thread",
            format!("{} threads", self.threads),
            "speed-up"
        )?;
        for (a, b) in self.one.lines.iter().zip(&self.many.lines) {
            writeln!(
                f,
                "{:<20} {:>7} ms {:>7} ms {:>8.2}",
                a.name,
                a.time.as_millis(),
                b.time.as_millis(),
                a.time.as_secs_f64() / b.time.as_secs_f64().max(1e-9)
            )?;
        }
        write!(
            f,
            "speed-up (total time to depth of the searched positions): {:.2}x; load average {}",
            self.speedup(),
            load_average().map_or("unknown".into(), |l| format!("{l:.2}"))
        )
    }
}

/// The one-minute load average (Linux), to say how busy the machine was.
fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal_and_the_signature_is_stable() {
        let a = run(2, DEFAULT_HASH_MB);
        let b = run(2, DEFAULT_HASH_MB);
        assert_eq!(a.lines.len(), POSITIONS.len());
        assert_eq!(a.signature, b.signature);
        assert!(total_nodes(&a.lines) > 0);
    }

    #[test]
    fn a_shared_table_emptied_between_positions_searches_as_fresh_ones_do() {
        let shared = run(3, 1);
        let mut fresh = BenchReport::new(SEED);
        for bp in POSITIONS {
            let mut tt = Arc::new(TranspositionTable::new(1 << 20));
            let (line, answer) = bench_position(bp, 3, 1, &mut tt);
            fresh.add(line, &answer);
        }
        assert_eq!(shared.signature, fresh.signature);
        assert_eq!(total_nodes(&shared.lines), total_nodes(&fresh.lines));
    }
}
