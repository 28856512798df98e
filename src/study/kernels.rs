//! `sente study kernels`: the experiment of SEEDS 001 (Table 2, Fig. 4 and 5). On a 13x13
//! freestyle board, black's first stone in the centre, the `learner` plays black against the
//! rule-only player (white, ties broken by its seeded generator), learning after every game.
//! For each kernel size K (1x1 .. 15x15, each with its own, initially empty store) it plays
//! `rounds` rounds of `games` games and prints black's win rate per round in Table 2's layout
//! (rows: rounds, columns: kernel sizes), the paper's figures beside ours for the rounds the paper
//! prints (7..14), the average game length per round (Fig. 5's quantity; the paper gives no
//! figures), and writes an SVG plot of both.
//!
//! Rule map: both players use the literal reading of 001 by default, the plain count of adjacent
//! stones ([`RuleWeights::LINEAR`]); `--rule-map steep` gives them the `learner` level's default
//! weights instead. Under steep weights a single four is always blocked and a five always taken,
//! so every game black loses is lost to two five points at once; 001's lesson (the point the
//! opponent won on, at the move before) cannot prevent that, and every kernel size plays the
//! rule-only games: the curves are flat.
//!
//! Reproducibility: game g of round r uses the same seeds for both players at every kernel size
//! (common random numbers), so the sizes differ only by what their kernels make black do, and a
//! 1x1 learner (whose mark can never lie in its window) plays exactly the rule-only games. Sizes
//! run on parallel threads; the result does not depend on the thread count.
//!
//! Nothing printed in an "ours" column comes from the paper; [`PAPER`] is printed as "paper".

use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use crate::eval::kernels::{Anchor, MatchOptions, MatchStats, KERNEL_SIZES, REWARD};
use crate::eval::rulemap::RuleWeights;
use crate::players::learner::Learner;
use crate::players::GomokuPlayer;
use crate::rules::mnk::splitmix64;
use crate::rules::{Board, Color, Rule};

/// 001's Table 2: black's win rate (%) in rounds 7..14 (rows) for kernel sizes 1x1..15x15
/// (columns). Rounds 1..6 are not in the table.
pub const PAPER: [[u32; 8]; 8] = [
    [58, 52, 58, 72, 72, 74, 74, 74],
    [58, 52, 58, 72, 72, 78, 78, 78],
    [58, 52, 58, 72, 72, 74, 74, 74],
    [58, 52, 58, 72, 72, 76, 76, 76],
    [58, 52, 58, 72, 72, 76, 74, 74],
    [58, 52, 58, 72, 72, 76, 80, 80],
    [58, 52, 58, 72, 72, 76, 82, 82],
    [58, 52, 58, 72, 72, 76, 82, 82],
];
/// The first round [`PAPER`] covers.
pub const PAPER_FIRST_ROUND: usize = 7;
/// 001's board side.
pub const BOARD_SIZE: usize = 13;

/// What to run.
#[derive(Clone, Debug)]
pub struct StudyConfig {
    /// Seed of every game's seeds.
    pub seed: u64,
    /// Rounds per kernel size (001: 14).
    pub rounds: usize,
    /// Games per round (001: 50).
    pub games: usize,
    /// Kernel sides to run (odd, 1..=15).
    pub sizes: Vec<usize>,
    /// Matching options besides the size (anchor, symmetry, near; the size is overwritten).
    pub matching: MatchOptions,
    /// Rule-map weights of both players (default: the literal reading, plain counts).
    pub weights: RuleWeights,
    /// Worker threads (at least 1).
    pub threads: usize,
}

impl Default for StudyConfig {
    fn default() -> Self {
        StudyConfig {
            seed: 1,
            rounds: 14,
            games: 50,
            sizes: KERNEL_SIZES.to_vec(),
            matching: MatchOptions::default(),
            weights: RuleWeights::LINEAR,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// One kernel size's results.
#[derive(Clone, Debug)]
pub struct SizeResult {
    /// Kernel side.
    pub size: usize,
    /// Black's wins per round.
    pub wins: Vec<usize>,
    /// Draws (full board) per round.
    pub draws: Vec<usize>,
    /// Stones on the board at the end of each game, summed per round.
    pub moves: Vec<usize>,
    /// Distinct kernels stored at the end.
    pub kernels: usize,
    /// Of those, the ones whose mark fits the KxK window (the only ones that can act).
    pub usable: usize,
    /// Lessons learned (with repeats).
    pub lessons: usize,
    /// Matching work of the learner.
    pub stats: MatchStats,
    /// Time taken.
    pub elapsed: Duration,
}

/// The seed of one player in one game.
fn game_seed(seed: u64, round: usize, game: usize, color: Color) -> u64 {
    let mut s = seed ^ ((round as u64) << 40) ^ ((game as u64) << 8) ^ color as u64;
    splitmix64(&mut s)
}

/// Plays one game from black's centre stone to a five or a full board.
pub fn play_game(black: &mut Learner, white: &mut Learner) -> Board {
    let mut b = Board::new(BOARD_SIZE, BOARD_SIZE, Rule::Freestyle).expect("13x13 is valid");
    b.play(b.centre()).expect("empty centre");
    while !b.is_over() {
        let player = if b.to_move() == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        let Some((p, _)) = player.pick(&b) else {
            break;
        };
        if b.play(p).is_err() {
            break;
        }
    }
    b
}

/// Runs every round for one kernel size; `tick` is called after each game.
pub fn run_size(cfg: &StudyConfig, size: usize, tick: &(dyn Fn() + Sync)) -> SizeResult {
    let t0 = Instant::now();
    let mut learner = Learner::with_options(MatchOptions {
        size,
        ..cfg.matching
    });
    let mut rule_only = Learner::rule_only();
    learner.set_weights(cfg.weights);
    rule_only.set_weights(cfg.weights);
    let mut res = SizeResult {
        size,
        wins: vec![0; cfg.rounds],
        draws: vec![0; cfg.rounds],
        moves: vec![0; cfg.rounds],
        kernels: 0,
        usable: 0,
        lessons: 0,
        stats: MatchStats::default(),
        elapsed: Duration::ZERO,
    };
    for round in 0..cfg.rounds {
        for game in 0..cfg.games {
            learner.set_seed(game_seed(cfg.seed, round, game, Color::Black));
            rule_only.set_seed(game_seed(cfg.seed, round, game, Color::White));
            let end = play_game(&mut learner, &mut rule_only);
            match end.winner() {
                Some(Color::Black) => res.wins[round] += 1,
                Some(Color::White) => {}
                None => res.draws[round] += 1,
            }
            res.moves[round] += end.stones();
            res.lessons += learner.learn(&end, Color::Black);
            tick();
        }
    }
    res.kernels = learner.store().len();
    res.usable = learner.usable_kernels();
    res.stats = learner.match_stats();
    res.elapsed = t0.elapsed();
    res
}

/// Runs every size of `cfg` on `cfg.threads` threads, in the order of `cfg.sizes`.
pub fn run_all(cfg: &StudyConfig, tick: &(dyn Fn() + Sync)) -> Vec<SizeResult> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.clamp(1, cfg.sizes.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&size) = cfg.sizes.get(i) else {
                    break;
                };
                let r = run_size(cfg, size, tick);
                results.lock().expect("no panics").push((i, r));
            });
        }
    });
    let mut results = results.into_inner().expect("no panics");
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// The paper's figure for `round` (1-based) and kernel `size`, if Table 2 has one.
pub fn paper(round: usize, size: usize) -> Option<u32> {
    let col = KERNEL_SIZES.iter().position(|&k| k == size)?;
    let row = round.checked_sub(PAPER_FIRST_ROUND)?;
    PAPER.get(row).map(|r| r[col])
}

fn pct(n: usize, d: usize) -> f64 {
    if d == 0 {
        0.0
    } else {
        100.0 * n as f64 / d as f64
    }
}

/// The report: Table 2 with the paper's figures beside ours, game lengths, kernels stored.
pub fn report(cfg: &StudyConfig, results: &[SizeResult]) -> String {
    let mut t = String::new();
    let m = cfg.matching;
    let _ = writeln!(
        t,
        "Kernel study (Table 2 of the 2022 conference paper on a rule-based, semi-supervised gomoku AI): \
         {BOARD_SIZE}x{BOARD_SIZE} freestyle, black opens in the centre."
    );
    let _ = writeln!(
        t,
        "Black = learner (rule map + learned kernels, reward {REWARD}); white = the rule-only player \
         (seeded ties)."
    );
    let _ = writeln!(
        t,
        "{} rounds of {} games per kernel size, learning after every game; rule map {}; kernels {}, {}, {}; seed {}.",
        cfg.rounds,
        cfg.games,
        cfg.weights.name(),
        if m.anchor == Anchor::Board {
            "anchored where cut (the paper's)"
        } else {
            "matched anywhere"
        },
        if m.near == 0 {
            "exact match".to_string()
        } else {
            format!("near match within {} cells", m.near)
        },
        if m.symmetry {
            "with the 8 symmetries"
        } else {
            "no symmetry"
        },
        cfg.seed
    );
    let _ = writeln!(t);
    let _ = writeln!(
        t,
        "Black's win rate, % per round: ours, and (paper) where the paper's Table 2 prints the round"
    );
    let head = |t: &mut String| {
        let _ = write!(t, "round");
        for r in results {
            let _ = write!(t, "{:>10}", format!("{0}x{0}", r.size));
        }
        let _ = writeln!(t);
    };
    head(&mut t);
    for round in 0..cfg.rounds {
        let _ = write!(t, "{:>5}", round + 1);
        for r in results {
            let ours = format!("{:.0}", pct(r.wins[round], cfg.games));
            let cell = match paper(round + 1, r.size) {
                Some(p) => format!("{ours} ({p})"),
                None => ours,
            };
            let _ = write!(t, "{cell:>10}");
        }
        let _ = writeln!(t);
    }
    let total = cfg.rounds * cfg.games;
    let _ = write!(t, "  all");
    for r in results {
        let w: usize = r.wins.iter().sum();
        let _ = write!(t, "{:>10}", format!("{:.1}", pct(w, total)));
    }
    let _ = writeln!(t);
    let _ = write!(t, "draws");
    for r in results {
        let _ = write!(t, "{:>10}", r.draws.iter().sum::<usize>());
    }
    let _ = writeln!(t);
    let _ = writeln!(t);
    let _ = writeln!(
        t,
        "Average game length, stones on the board at the end (Fig. 5's quantity; the paper prints no figures)"
    );
    head(&mut t);
    for round in 0..cfg.rounds {
        let _ = write!(t, "{:>5}", round + 1);
        for r in results {
            let avg = r.moves[round] as f64 / cfg.games.max(1) as f64;
            let _ = write!(t, "{:>10}", format!("{avg:.1}"));
        }
        let _ = writeln!(t);
    }
    let _ = writeln!(t);
    let _ = write!(t, "lessons");
    for r in results {
        let _ = write!(t, "{:>8}", r.lessons);
    }
    let _ = writeln!(t, "   (kernels learned, repeats included)");
    let _ = write!(t, "kernels");
    for r in results {
        let _ = write!(t, "{:>8}", r.kernels);
    }
    let _ = writeln!(t, "   (distinct kernels stored at the end)");
    let _ = write!(t, "usable ");
    for r in results {
        let _ = write!(t, "{:>8}", r.usable);
    }
    let _ = writeln!(
        t,
        "   (KxK kernels whose mark fits the window: only these can act)"
    );
    let _ = write!(t, "matches");
    for r in results {
        let _ = write!(t, "{:>8}", r.stats.matched);
    }
    let _ = writeln!(t, "   (kernel matches that added a reward, all games)");
    let _ = write!(t, "seconds");
    for r in results {
        let _ = write!(t, "{:>8}", format!("{:.1}", r.elapsed.as_secs_f64()));
    }
    let _ = writeln!(t, "   (per size, wall clock, sizes run in parallel)");
    t
}

/// Colours of the curves, one per kernel size in [`KERNEL_SIZES`] order.
const COLOURS: [&str; 8] = [
    "#7f7f7f", "#1f77b4", "#2ca02c", "#bcbd22", "#ff7f0e", "#9467bd", "#d62728", "#17becf",
];

fn colour(size: usize) -> &'static str {
    COLOURS[(size / 2).min(COLOURS.len() - 1)]
}

/// A curve: label, colour, points (round, value), dashed.
type Series<'a> = (String, &'a str, Vec<(usize, f64)>, bool);

/// One line chart as an SVG group at vertical offset `top`: x = rounds, y in `[lo, hi]`.
/// Each series is (label, colour, points (round, value), dashed).
fn chart(
    svg: &mut String,
    top: f64,
    title: &str,
    rounds: usize,
    (lo, hi, step): (f64, f64, f64),
    series: &[Series<'_>],
) {
    let (left, width, height) = (60.0, 620.0, 260.0);
    let x = |r: usize| left + width * (r as f64 - 1.0) / (rounds.max(2) - 1) as f64;
    let y = |v: f64| top + height * (1.0 - (v - lo) / (hi - lo));
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" font-size="15" font-weight="bold">{title}</text>"#,
        left,
        top - 12.0
    );
    let mut v = lo;
    while v <= hi + 1e-9 {
        let _ = writeln!(
            svg,
            r##"<line x1="{left}" x2="{}" y1="{yv:.1}" y2="{yv:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" font-size="11" text-anchor="end">{v}</text>"##,
            left + width,
            left - 6.0,
            y(v) + 4.0,
            yv = y(v)
        );
        v += step;
    }
    for r in 1..=rounds {
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle">{r}</text>"#,
            x(r),
            top + height + 16.0
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle">round</text>"#,
        left + width / 2.0,
        top + height + 32.0
    );
    let _ = writeln!(
        svg,
        r##"<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#333"/>"##
    );
    for (label, col, pts, dashed) in series {
        let path: Vec<String> = pts
            .iter()
            .map(|&(r, v)| format!("{:.1},{:.1}", x(r), y(v.clamp(lo, hi))))
            .collect();
        let dash = if *dashed {
            r#" stroke-dasharray="5,4""#
        } else {
            ""
        };
        let _ = writeln!(
            svg,
            r#"<polyline fill="none" stroke="{col}" stroke-width="2"{dash} points="{}"><title>{label}</title></polyline>"#,
            path.join(" ")
        );
    }
    // Legend: the solid series (ours), one per size, right of the chart.
    let mut ly = top + 10.0;
    for (label, col, _, _) in series.iter().filter(|s| !s.3) {
        let _ = writeln!(
            svg,
            r#"<line x1="700" x2="725" y1="{ly:.1}" y2="{ly:.1}" stroke="{col}" stroke-width="3"/><text x="731" y="{:.1}" font-size="12">{label}</text>"#,
            ly + 4.0
        );
        ly += 18.0;
    }
    if series.iter().any(|s| s.3) {
        let _ = writeln!(
            svg,
            r##"<line x1="700" x2="725" y1="{ly:.1}" y2="{ly:.1}" stroke="#333" stroke-width="2" stroke-dasharray="5,4"/><text x="731" y="{:.1}" font-size="12">paper</text>"##,
            ly + 4.0
        );
    }
}

/// The SVG plot: win rate per round (ours solid, 001's Table 2 dashed) and game length.
pub fn svg(cfg: &StudyConfig, results: &[SizeResult]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="820" height="720" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r#"<rect width="820" height="720" fill="white"/>"#);
    let games = cfg.games.max(1) as f64;
    let mut wins = Vec::new();
    for r in results {
        let pts = (0..cfg.rounds)
            .map(|i| (i + 1, 100.0 * r.wins[i] as f64 / games))
            .collect();
        wins.push((format!("{0}x{0}", r.size), colour(r.size), pts, false));
    }
    for r in results {
        let pts: Vec<(usize, f64)> = (1..=cfg.rounds)
            .filter_map(|round| paper(round, r.size).map(|p| (round, p as f64)))
            .collect();
        if !pts.is_empty() {
            wins.push((format!("{0}x{0} paper", r.size), colour(r.size), pts, true));
        }
    }
    chart(
        &mut s,
        50.0,
        "Black's win rate (%) by round and kernel size",
        cfg.rounds,
        (0.0, 100.0, 10.0),
        &wins,
    );
    let mut lengths = Vec::new();
    let mut top = 0.0f64;
    for r in results {
        let pts: Vec<(usize, f64)> = (0..cfg.rounds)
            .map(|i| (i + 1, r.moves[i] as f64 / games))
            .collect();
        top = pts.iter().map(|p| p.1).fold(top, f64::max);
        lengths.push((format!("{0}x{0}", r.size), colour(r.size), pts, false));
    }
    let hi = ((top / 10.0).ceil() * 10.0).max(10.0);
    chart(
        &mut s,
        420.0,
        "Average game length (stones) by round and kernel size",
        cfg.rounds,
        (0.0, hi, (hi / 5.0).max(1.0)),
        &lengths,
    );
    let _ = writeln!(s, "</svg>");
    s
}

/// Runs the study, prints the report to `out` and writes the SVG to `svg_path`.
pub fn run(
    cfg: &StudyConfig,
    svg_path: &std::path::Path,
    tick: &(dyn Fn() + Sync),
    out: &mut dyn Write,
) -> io::Result<()> {
    let t0 = Instant::now();
    let results = run_all(cfg, tick);
    let elapsed = t0.elapsed();
    write!(out, "{}", report(cfg, &results))?;
    std::fs::write(svg_path, svg(cfg, &results))?;
    writeln!(
        out,
        "run time {:.1} s for {} games on {} thread(s); plot written to {}",
        elapsed.as_secs_f64(),
        cfg.rounds * cfg.games * results.len(),
        cfg.threads,
        svg_path.display()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_lookup_follows_table_2() {
        assert_eq!(paper(7, 1), Some(58));
        assert_eq!(paper(6, 1), None);
        assert_eq!(paper(14, 13), Some(82));
        assert_eq!(paper(7, 13), Some(74));
        assert_eq!(paper(8, 11), Some(78));
        assert_eq!(paper(14, 3), Some(52));
        assert_eq!(paper(15, 3), None);
        assert_eq!(paper(10, 4), None);
    }

    #[test]
    fn a_one_by_one_learner_plays_the_rule_only_games() {
        let cfg = StudyConfig {
            rounds: 2,
            games: 4,
            sizes: vec![1, 15],
            threads: 2,
            ..StudyConfig::default()
        };
        let results = run_all(&cfg, &|| {});
        assert_eq!(results[0].size, 1);
        assert_eq!(results[0].usable, 0, "no mark fits a 1x1 window");
        assert!(
            results[0].kernels > 0,
            "lessons are stored at full size all the same"
        );
        assert_eq!(results[0].stats.matched, 0);
        // The same seeds with learning switched off give the same games.
        let mut rule_black = Learner::rule_only();
        let mut white = Learner::rule_only();
        rule_black.set_weights(cfg.weights);
        white.set_weights(cfg.weights);
        let mut wins = vec![0; 2];
        for (round, w) in wins.iter_mut().enumerate() {
            for game in 0..4 {
                rule_black.set_seed(game_seed(cfg.seed, round, game, Color::Black));
                white.set_seed(game_seed(cfg.seed, round, game, Color::White));
                let b = play_game(&mut rule_black, &mut white);
                assert_eq!(b.history()[0].0, b.centre());
                *w += usize::from(b.winner() == Some(Color::Black));
            }
        }
        assert_eq!(results[0].wins, wins);
        // Reruns are identical whatever the thread count.
        let again = run_all(
            &StudyConfig {
                threads: 1,
                ..cfg.clone()
            },
            &|| {},
        );
        for (a, b) in results.iter().zip(&again) {
            assert_eq!((a.size, &a.wins, &a.moves), (b.size, &b.wins, &b.moves));
        }
        let text = report(&cfg, &results);
        assert!(text.contains("round       1x1     15x15"));
        let plot = svg(&cfg, &results);
        assert!(plot.starts_with("<svg") && plot.trim_end().ends_with("</svg>"));
    }
}
