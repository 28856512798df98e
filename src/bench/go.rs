//! `sente bench go`: raw playouts, then an MCTS search of the same budget, from fixed Go
//! positions on one thread: playouts and simulations per second (per wall-clock and per CPU
//! second, [`crate::cpu_time`]) and a signature.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::report::{per_second, BenchLine, BenchReport};
use crate::cpu_time::thread_cpu_time;
use crate::rules::go::{move_name, parse_move, GoGame, GoMove, GoRules};
use crate::search::clock::{SearchLimit, TimeManager};
use crate::search::mcts::{Mcts, MctsConfig, Mode, Reporting, SearchSpec};
use crate::search::move_filter::NO_FILTER;
use crate::search::playout::{playout, rng::Rng, Ending};

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
pub struct GoLine {
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

/// The rate `f` measures (a count and its time) over the positions of one board size.
fn rate(lines: &[GoLine], size: usize, f: impl Fn(&GoLine) -> (u64, Duration)) -> u64 {
    let (n, t) = lines
        .iter()
        .filter(|l| l.size == size)
        .map(f)
        .fold((0, Duration::ZERO), |(n, t), (a, b)| (n + a, t + b));
    per_second(n, t)
}

impl BenchLine for GoLine {
    fn heading(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<14} {:>9} {:>8} {:>11} {:>11} {:>6}",
            "position", "playouts", "ms", "playouts/s", "mcts sims/s", "best"
        )
    }

    fn row(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<14} {:>9} {:>8} {:>11} {:>11} {:>6}",
            self.name,
            self.playouts,
            self.playout_time.as_millis(),
            per_second(self.playouts, self.playout_time),
            per_second(self.search_playouts, self.search_time),
            self.best
        )
    }

    /// Per board size: raw playouts and MCTS simulations (tree, priors and playouts) per
    /// wall-clock second, then per CPU second (the figures to quote on a shared machine).
    fn totals(lines: &[GoLine], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for size in [9, 19] {
            writeln!(
                f,
                "{size}x{size}: {} playouts/s, {} mcts simulations/s (one thread, wall clock); \
                 per CPU second: {} playouts, {} simulations",
                rate(lines, size, |l| (l.playouts, l.playout_time)),
                rate(lines, size, |l| (l.search_playouts, l.search_time)),
                rate(lines, size, |l| {
                    (l.playouts, l.playout_cpu.unwrap_or(l.playout_time))
                }),
                rate(lines, size, |l| {
                    (l.search_playouts, l.search_cpu.unwrap_or(l.search_time))
                })
            )?;
        }
        Ok(())
    }
}

/// Runs `playouts` raw playouts and then an MCTS search of `playouts` simulations from every Go
/// bench position (19x19 positions get a quarter of the count), on this thread.
pub fn run(playouts: u64) -> BenchReport<GoLine> {
    run_with(playouts, &MctsConfig::default())
}

/// [`run`] with the search set as `cfg` says.
pub fn run_with(playouts: u64, cfg: &MctsConfig) -> BenchReport<GoLine> {
    let mut report = BenchReport::new(0x0060_BE4C_u64);
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
        let answer = [
            margin_sum as u64,
            result.best.map_or(0, |m| match m {
                GoMove::Play(p) => p.0 as u64,
                GoMove::Pass => 1 << 20,
            }),
            result.best_visits(),
        ];
        let line = GoLine {
            name: bp.name,
            size: bp.size,
            playouts: n,
            playout_time,
            playout_cpu,
            search_playouts: result.playouts,
            search_time,
            search_cpu,
            best,
        };
        report.add(line, &answer);
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_bench_positions_are_legal_and_the_signature_is_stable() {
        let a = run(200);
        let b = run(200);
        assert_eq!(a.lines.len(), GO_POSITIONS.len());
        assert_eq!(a.signature, b.signature);
        assert!(a.lines.iter().all(|l| l.search_playouts == l.playouts));
    }
}
