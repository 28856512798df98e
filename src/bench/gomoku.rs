//! `sente bench` (gomoku and go): fixed positions searched to a fixed depth (gomoku) or a fixed
//! number of playouts (Go) on one thread. Prints nodes, nodes per second (per wall-clock and
//! per CPU second, [`crate::cpu_time`]) and a signature (a hash of every best move, score and
//! node count) that changes only when search behaviour changes — compare it across commits to
//! tell a speed-up from a change of play. `--threads N` (gomoku) also searches each position
//! on N threads right after the one-thread search and reports the time-to-depth speed-up;
//! `--hash MB` sizes the one table the positions share (emptied between them). The
//! other benches live with what they measure:
//! `bench ttt` in [`crate::search::ttt`], `bench kernels` in [`crate::study::kernel_bench`],
//! `bench go --vs` in [`crate::arena::go_levels`].

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::cpu_time::thread_cpu_time;
use crate::eval::gomoku::patterns::PatternBoard;
use crate::rules::mnk::{splitmix64, Board, Rule};
use crate::rules::notation::{gomocup_name, parse_gomocup_name};
use crate::search::ab::smp;
use crate::search::ab::tt::TranspositionTable;
use crate::search::clock::{SearchLimit, TimeManager};
use crate::search::threats::Threats;

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

/// A bench move in Gomocup-order notation ([`crate::rules::notation::parse_gomocup_name`]).
pub fn parse_pos(board: &Board, s: &str) -> Option<crate::rules::Pos> {
    let (x, y) = parse_gomocup_name(s)?;
    board.pos(x as i64, y as i64)
}

/// The transposition table's size when `--hash` is not given: 16 MB, the size every recorded
/// signature and nodes/s figure was measured with.
pub const DEFAULT_HASH_MB: usize = 16;

/// The one table of a bench run.
fn table_of(hash_mb: usize) -> Arc<TranspositionTable> {
    Arc::new(TranspositionTable::new(hash_mb << 20))
}

/// Searches every bench position to `depth` (plies) on this thread, with a table of `hash_mb`
/// MB.
pub fn run_gomoku(depth: u32, hash_mb: usize) -> BenchReport {
    let mut report = BenchReport::new();
    let mut tt = table_of(hash_mb);
    for bp in POSITIONS {
        report.add(bench_position(bp, depth, 1, &mut tt));
    }
    report
}

/// `bp` searched to `depth` on `threads` threads, with `tt` emptied first.
fn bench_position(
    bp: &BenchPosition,
    depth: u32,
    threads: usize,
    tt: &mut Arc<TranspositionTable>,
) -> (BenchLine, u64, u64, i32) {
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
        gomocup_name(x, y)
    });
    let line = BenchLine {
        name: bp.name,
        depth: result.info.depth,
        best,
        score: result.info.score,
        nodes: result.info.nodes,
        time,
        cpu,
    };
    let mv = result.best.map_or(0, |p| p.0 as u64);
    (line, mv, result.info.nodes, result.info.score)
}

impl BenchReport {
    fn new() -> BenchReport {
        BenchReport {
            lines: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            cpu: Duration::ZERO,
            signature: 0x00B3_A7C4_u64,
        }
    }

    /// Adds one position's line and folds its move, score and nodes into the signature.
    fn add(&mut self, (line, mv, nodes, score): (BenchLine, u64, u64, i32)) {
        for v in [mv, score as u64, nodes] {
            self.signature ^= v;
            self.signature = splitmix64(&mut self.signature);
        }
        self.nodes += line.nodes;
        self.time += line.time;
        self.cpu += line.cpu;
        self.lines.push(line);
    }
}

/// The bench on one thread and on `threads` threads, position by position (the N-thread search
/// right after the one-thread one, so both see the same load).
pub struct ThreadBench {
    pub threads: usize,
    pub one: BenchReport,
    pub many: BenchReport,
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
pub fn run_gomoku_threads(depth: u32, threads: usize, hash_mb: usize) -> ThreadBench {
    let mut one = BenchReport::new();
    let mut many = BenchReport::new();
    let mut tt = table_of(hash_mb);
    for bp in POSITIONS {
        one.add(bench_position(bp, depth, 1, &mut tt));
        many.add(bench_position(bp, depth, threads, &mut tt));
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

/// A Go bench position: size and GTP vertices played alternately from black.
struct GoBenchPosition {
    name: &'static str,
    size: usize,
    moves: &'static str,
}

const GO_POSITIONS: &[GoBenchPosition] = &[
    GoBenchPosition {
        name: "9x9-empty",
        size: 9,
        moves: "",
    },
    GoBenchPosition {
        name: "9x9-middle",
        size: 9,
        moves: "E5 C5 G4 D3 C7 F6 E7 D6 G6 F7 G3 C3 F3 E3 B6 F8",
    },
    GoBenchPosition {
        name: "19x19-empty",
        size: 19,
        moves: "",
    },
    GoBenchPosition {
        name: "19x19-middle",
        size: 19,
        moves: "D4 Q16 Q4 D16 R10 C10 K10 F3 O17 Q6 C14 J16 K4 R14 F17 C6 O3 M16 H10 E12",
    },
];

/// One Go position's result: raw playouts, then an MCTS search of the same budget.
#[derive(Clone, Debug)]
pub struct GoBenchLine {
    pub name: &'static str,
    pub size: usize,
    pub playouts: u64,
    pub playout_time: Duration,
    /// CPU time of the playouts (differs from the wall time on a loaded machine).
    pub playout_cpu: Option<Duration>,
    pub search_playouts: u64,
    pub search_time: Duration,
    pub search_cpu: Option<Duration>,
    pub best: String,
}

/// Every Go position's result, with per-size rates and a signature.
#[derive(Clone, Debug)]
pub struct GoBenchReport {
    pub lines: Vec<GoBenchLine>,
    pub signature: u64,
}

fn per_second(n: u64, t: Duration) -> u64 {
    n * 1_000_000 / t.as_micros().max(1) as u64
}

/// Wall and CPU time of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration, Option<Duration>) {
    let cpu0 = thread_cpu_time();
    let start = Instant::now();
    let out = f();
    let wall = start.elapsed();
    let cpu = match (cpu0, thread_cpu_time()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    (out, wall, cpu)
}

impl GoBenchReport {
    /// Raw playouts per wall-clock second over the positions of one board size.
    pub fn playouts_per_second(&self, size: usize) -> u64 {
        self.rate(size, |l| (l.playouts, l.playout_time))
    }
    /// Raw playouts per CPU second (the figure to quote on a shared machine).
    pub fn playouts_per_cpu_second(&self, size: usize) -> u64 {
        self.rate(size, |l| {
            (l.playouts, l.playout_cpu.unwrap_or(l.playout_time))
        })
    }
    /// MCTS simulations per wall-clock second (tree, priors and playouts).
    pub fn search_per_second(&self, size: usize) -> u64 {
        self.rate(size, |l| (l.search_playouts, l.search_time))
    }
    /// MCTS simulations per CPU second.
    pub fn search_per_cpu_second(&self, size: usize) -> u64 {
        self.rate(size, |l| {
            (l.search_playouts, l.search_cpu.unwrap_or(l.search_time))
        })
    }
    fn rate(&self, size: usize, f: impl Fn(&GoBenchLine) -> (u64, Duration)) -> u64 {
        let (n, t) = self
            .lines
            .iter()
            .filter(|l| l.size == size)
            .map(f)
            .fold((0, Duration::ZERO), |(n, t), (a, b)| (n + a, t + b));
        per_second(n, t)
    }
}

impl fmt::Display for GoBenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<14} {:>9} {:>8} {:>11} {:>11} {:>6}",
            "position", "playouts", "ms", "playouts/s", "mcts sims/s", "best"
        )?;
        for l in &self.lines {
            writeln!(
                f,
                "{:<14} {:>9} {:>8} {:>11} {:>11} {:>6}",
                l.name,
                l.playouts,
                l.playout_time.as_millis(),
                per_second(l.playouts, l.playout_time),
                per_second(l.search_playouts, l.search_time),
                l.best
            )?;
        }
        for size in [9, 19] {
            writeln!(
                f,
                "{size}x{size}: {} playouts/s, {} mcts simulations/s (one thread, wall clock); \
                 per CPU second: {} playouts, {} simulations",
                self.playouts_per_second(size),
                self.search_per_second(size),
                self.playouts_per_cpu_second(size),
                self.search_per_cpu_second(size)
            )?;
        }
        write!(f, "signature: {:016x}", self.signature)
    }
}

/// Runs `playouts` raw playouts and then an MCTS search of `playouts` simulations from every Go
/// bench position (19x19 positions get a quarter of the count), on this thread.
pub fn run_go(playouts: u64) -> GoBenchReport {
    run_go_with(playouts, &crate::search::mcts::MctsConfig::default())
}

/// [`run_go`] with the search set as `cfg` says.
pub fn run_go_with(playouts: u64, cfg: &crate::search::mcts::MctsConfig) -> GoBenchReport {
    use crate::rules::go::{move_name, parse_move, GoGame, GoRules};
    use crate::search::mcts::{Mcts, Mode, Reporting, SearchSpec};
    use crate::search::move_filter::NO_FILTER;
    use crate::search::playout::{playout, Ending, Rng};

    let mut lines = Vec::new();
    let mut signature = 0x0060_BE4C_u64;
    for bp in GO_POSITIONS {
        let mut game =
            GoGame::new(bp.size, bp.size, GoRules::default()).expect("bench sizes are valid");
        for v in bp.moves.split_whitespace() {
            let mv = parse_move(game.board(), v).expect("bench moves are on the board");
            let c = game.to_move();
            game.play(mv, c).expect("bench moves are legal");
        }
        let n = if bp.size > 9 {
            (playouts / 4).max(1)
        } else {
            playouts.max(1)
        };
        let color = game.to_move();
        let komi = game.rules().komi;
        let start_board = game.board().clone();
        let mut scratch = start_board.clone();
        let mut rng = Rng::new(1);
        let (margin_sum, playout_time, playout_cpu) = timed(|| {
            let mut sum = 0i64;
            for _ in 0..n {
                scratch.copy_from(&start_board);
                let (b, r) = (&mut scratch, &mut rng);
                sum += playout(b, color, komi, r, None, Ending::Mercy) as i64;
            }
            sum
        });
        let stop = AtomicBool::new(false);
        let limit = SearchLimit::nodes(n);
        let (result, search_time, search_cpu) = timed(|| {
            let tm = TimeManager::new(&limit, Instant::now(), &stop);
            let mut mcts = Mcts::with_config(*cfg, 1);
            mcts.search(
                &game,
                color,
                &tm,
                SearchSpec {
                    mode: Mode::Play,
                    reporting: Reporting::default(),
                    filter: &NO_FILTER,
                },
                &mut |_, _| {},
            )
        });
        let best = result
            .best
            .map_or("none".to_string(), |m| move_name(game.board(), m));
        for v in [
            margin_sum as u64,
            result.best.map_or(0, |m| match m {
                crate::rules::go::GoMove::Play(p) => p.0 as u64,
                crate::rules::go::GoMove::Pass => 1 << 20,
            }),
            result.best_visits(),
        ] {
            signature ^= v;
            signature = splitmix64(&mut signature);
        }
        lines.push(GoBenchLine {
            name: bp.name,
            size: bp.size,
            playouts: n,
            playout_time,
            playout_cpu,
            search_playouts: result.playouts,
            search_time,
            search_cpu,
            best,
        });
    }
    GoBenchReport { lines, signature }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal_and_the_signature_is_stable() {
        let a = run_gomoku(2, DEFAULT_HASH_MB);
        let b = run_gomoku(2, DEFAULT_HASH_MB);
        assert_eq!(a.lines.len(), POSITIONS.len());
        assert_eq!(a.signature, b.signature);
        assert!(a.nodes > 0);
    }

    #[test]
    fn a_shared_table_emptied_between_positions_searches_as_fresh_ones_do() {
        let shared = run_gomoku(3, 1);
        let mut fresh = BenchReport::new();
        for bp in POSITIONS {
            let mut tt = Arc::new(TranspositionTable::new(1 << 20));
            fresh.add(bench_position(bp, 3, 1, &mut tt));
        }
        assert_eq!(shared.signature, fresh.signature);
        assert_eq!(shared.nodes, fresh.nodes);
    }

    #[test]
    fn go_bench_positions_are_legal_and_the_signature_is_stable() {
        let a = run_go(200);
        let b = run_go(200);
        assert_eq!(a.lines.len(), GO_POSITIONS.len());
        assert_eq!(a.signature, b.signature);
        assert!(a.lines.iter().all(|l| l.search_playouts == l.playouts));
    }
}
