//! `sente study kernels`: the experiment of SEEDS 001 in docs/sources.md (Table 2, Fig. 4 and 5).
//! On a 13x13 freestyle board, black's first stone in the centre, the `learner` plays black against
//! the rule-only player (white), learning after every game. For each kernel size K (1x1 .. 15x15,
//! each with its own, initially empty store) it plays `rounds` rounds of `games` games and prints
//! black's win rate per round in Table 2's layout (rows: rounds, columns: kernel sizes), the
//! paper's figures beside ours for the rounds the paper prints (7..14), the average game length per
//! round (Fig. 5's quantity; the paper gives no figures), kernel matches per round, how much the
//! games vary and recur, and an SVG plot. `seeds` > 1 adds a table per seed and pools them.
//!
//! # The set-up, read from the paper
//!
//! * **Win rate** is black's wins out of the round's 50 games (every figure is even).
//! * **Opponent**: the rule-only player, what a 1x1 learner amounts to (001: "1x1 gives the
//!   same result as the rule-only AI"); its mark never fits a 1x1 window.
//! * **Ties and replays**: Table 2 prints exactly the same rate in all eight rounds for 1x1
//!   (58), and for every size once it stalls. Fifty games with independent random ties scatter
//!   by about 7 points a round, so 001's rounds replayed the same random numbers: one stream
//!   (C's `rand()`) shared by both sides through the round's games and restarted each round
//!   ([`Replay::Stream`], the default). A round then replays the previous one game for game until
//!   a stored kernel changes a move; the games after that draw other numbers.
//! * **Kernels** are cut around the move before the winning move, marking the winning point, and
//!   compared with the board at the place they were cut (001's pseudo code); see
//!   [`crate::eval::learner::kernels`]. A 13x13 or 15x15 window on a 13x13 board holds most of the board,
//!   so it matches only a position that comes back stone for stone: that happens because rounds
//!   replay (in the default set-up, over seeds 1..8, half of black's positions in round 5 and 92%
//!   in round 14 were met in an earlier round), and almost never with fresh random ties
//!   ([`Replay::Fresh`], this study's first set-up: 23-67 matches in 700 games at 13x13, no rise).
//!   [`Replay::Game`] (seeds per game, the same every round) replays more and stalls by round 6.
//!
//! Rule map: both players use the literal reading of 001 by default, the plain count of adjacent
//! stones ([`RuleWeights::LINEAR`]); `--rule-map steep` gives them the `learner` level's default
//! weights instead. Under steep weights a single four is always blocked and a five always taken,
//! so every game black loses is lost to two five points at once; 001's lesson (the point the
//! opponent won on, at the move before) cannot prevent that, and the curves stay flat.
//!
//! Reproducibility: every size sees the same random numbers (a 1x1 learner plays exactly the
//! rule-only games); sizes run on parallel threads and the result does not depend on the thread
//! count.
//!
//! Nothing printed in an "ours" column comes from the paper; [`PAPER`] is printed as "paper".

use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use std::collections::HashSet;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::eval::learner::kernels::{
    lessons, Anchor, MatchOptions, MatchStats, KERNEL_SIZES, REWARD,
};
use crate::eval::learner::rulemap::RuleWeights;
use crate::players::learner::Learner;
use crate::players::Player;
use crate::rules::splitmix::splitmix64;
use crate::rules::{Board, Color, Pos, Rule};

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
    /// Seed of every game's seeds (the first seed when `seeds` > 1).
    pub seed: u64,
    /// Seeds to run, `seed`, `seed + 1`, ...: more than one prints a table per seed and the
    /// rounds pooled over the seeds.
    pub seeds: usize,
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
    /// Where each round's randomness comes from (default: 001's, one stream per round).
    pub replay: Replay,
    /// Worker threads (at least 1).
    pub threads: usize,
}

/// Where the tie-breaks of each round's games come from. 001 prints the same win rate in every
/// round for the rule-only player (1x1: 58% eight times) and for the sizes that stalled; 50
/// games of random ties would scatter by about 7 points a round, so its rounds must have
/// replayed the same random numbers: a stream started afresh each round (a C program's `rand()`
/// restarts with every run), shared by both sides for the round's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replay {
    /// One stream per round, the same every round, shared by both players over the round's
    /// games in order: a round replays the previous one until a learned kernel changes a move,
    /// and from there on the rest of the round draws other numbers (001's set-up).
    Stream,
    /// Each game its own seeds, the same every round: game g replays until a kernel changes one
    /// of its moves; the other games are untouched.
    Game,
    /// New seeds every round and game: no game is played twice (this study's first set-up).
    Fresh,
}

impl Replay {
    /// Parses `stream`, `game` or `fresh`.
    pub fn from_name(s: &str) -> Option<Replay> {
        match s.to_ascii_lowercase().as_str() {
            "stream" => Some(Replay::Stream),
            "game" => Some(Replay::Game),
            "fresh" => Some(Replay::Fresh),
            _ => None,
        }
    }
    /// The name [`Replay::from_name`] reads.
    pub fn name(self) -> &'static str {
        match self {
            Replay::Stream => "stream",
            Replay::Game => "game",
            Replay::Fresh => "fresh",
        }
    }
}

impl Default for StudyConfig {
    fn default() -> Self {
        StudyConfig {
            seed: 1,
            seeds: 1,
            rounds: 14,
            games: 50,
            sizes: KERNEL_SIZES.to_vec(),
            matching: MatchOptions::default(),
            weights: RuleWeights::LINEAR,
            replay: Replay::Stream,
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
    /// Per round: kernel matches that added a reward (a kernel learned n times counts n).
    pub matches: Vec<u64>,
    /// Per round: games that repeat, move for move, the same game of the round before.
    pub replayed: Vec<usize>,
    /// Per round: distinct positions at black's turn (stones and side to move).
    pub positions: Vec<usize>,
    /// Per round: of those, the ones black met in an earlier round.
    pub recurring: Vec<usize>,
    /// Per round: lessons already in the store (the same position, window and mark again).
    pub repeats: Vec<usize>,
    /// Time taken.
    pub elapsed: Duration,
}

/// The seed of one player in one game (`round` is 0 when rounds replay their games).
fn game_seed(seed: u64, round: usize, game: usize, color: Color) -> u64 {
    let mut s = seed ^ ((round as u64) << 40) ^ ((game as u64) << 8) ^ color as u64;
    splitmix64(&mut s)
}

/// The seed of the stream every round of [`Replay::Stream`] starts from.
fn stream_seed(seed: u64) -> u64 {
    let mut s = seed ^ 0x7374_7265_616d;
    splitmix64(&mut s)
}

/// Plays one game from black's centre stone to a five or a full board, each player breaking
/// ties with its own generator.
pub fn play_game(black: &mut Learner, white: &mut Learner) -> Board {
    play_game_with(black, white, None)
}

/// [`play_game`], with ties broken by `stream` for both players when it is given.
pub fn play_game_with(
    black: &mut Learner,
    white: &mut Learner,
    mut stream: Option<&mut ChaCha8Rng>,
) -> Board {
    let mut b = Board::new(BOARD_SIZE, BOARD_SIZE, Rule::Freestyle).expect("13x13 is valid");
    b.play(b.centre()).expect("empty centre");
    while !b.is_over() {
        let player = if b.to_move() == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        let picked = match stream.as_deref_mut() {
            Some(r) => player.pick_with(&b, r),
            None => player.pick(&b),
        };
        let Some((p, _)) = picked else {
            break;
        };
        if b.play(p).is_err() {
            break;
        }
    }
    b
}

/// The distinct positions at black's turn in `game`, hashed.
fn black_positions(game: &Board, into: &mut HashSet<u64>) {
    let mut b = Board::new(BOARD_SIZE, BOARD_SIZE, Rule::Freestyle).expect("13x13 is valid");
    for &(p, _) in game.history() {
        if b.to_move() == Color::Black {
            into.insert(b.hash());
        }
        b.play_unchecked(p);
    }
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
    let per_round = vec![0; cfg.rounds];
    let mut res = SizeResult {
        size,
        wins: per_round.clone(),
        draws: per_round.clone(),
        moves: per_round.clone(),
        kernels: 0,
        usable: 0,
        lessons: 0,
        stats: MatchStats::default(),
        matches: vec![0; cfg.rounds],
        replayed: per_round.clone(),
        positions: per_round.clone(),
        recurring: per_round.clone(),
        repeats: per_round,
        elapsed: Duration::ZERO,
    };
    let mut seen_before: HashSet<u64> = HashSet::new();
    let mut previous: Vec<Vec<(Pos, Color)>> = Vec::new();
    for round in 0..cfg.rounds {
        let seed_round = if cfg.replay == Replay::Fresh {
            round
        } else {
            0
        };
        let mut stream = ChaCha8Rng::seed_from_u64(stream_seed(cfg.seed));
        let matched_before = learner.match_stats().matched;
        let mut positions = HashSet::new();
        let mut games = Vec::with_capacity(cfg.games);
        for game in 0..cfg.games {
            learner.set_seed(game_seed(cfg.seed, seed_round, game, Color::Black));
            rule_only.set_seed(game_seed(cfg.seed, seed_round, game, Color::White));
            let shared = (cfg.replay == Replay::Stream).then_some(&mut stream);
            let end = play_game_with(&mut learner, &mut rule_only, shared);
            match end.winner() {
                Some(Color::Black) => res.wins[round] += 1,
                Some(Color::White) => {}
                None => res.draws[round] += 1,
            }
            res.moves[round] += end.stones();
            for k in lessons(&end, Color::Black) {
                res.repeats[round] += usize::from(learner.store().contains(&k));
            }
            res.lessons += learner.learn(&end, Color::Black);
            black_positions(&end, &mut positions);
            if previous
                .get(game)
                .is_some_and(|h| h.as_slice() == end.history())
            {
                res.replayed[round] += 1;
            }
            games.push(end.history().to_vec());
            tick();
        }
        res.matches[round] = learner.match_stats().matched - matched_before;
        res.positions[round] = positions.len();
        res.recurring[round] = positions.intersection(&seen_before).count();
        seen_before.extend(positions);
        previous = games;
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
        "{} rounds of {} games per kernel size, learning after every game; ties: {}; rule map {}; kernels {}, {}, {}; {}.",
        cfg.rounds,
        cfg.games / cfg.seeds.max(1),
        match cfg.replay {
            Replay::Stream => "one random stream for both sides, restarted every round (001's)",
            Replay::Game => "seeds per game, the same every round",
            Replay::Fresh => "new seeds every round and game",
        },
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
        if cfg.seeds > 1 {
            format!(
                "seeds {}..{} pooled (every figure below sums or averages {} runs)",
                cfg.seed,
                cfg.seed + cfg.seeds as u64 - 1,
                cfg.seeds
            )
        } else {
            format!("seed {}", cfg.seed)
        }
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
            let digits = usize::from(cfg.seeds > 1);
            let ours = format!("{:.digits$}", pct(r.wins[round], cfg.games));
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
    let per_round = |t: &mut String, title: &str, cell: &dyn Fn(&SizeResult, usize) -> String| {
        let _ = writeln!(t, "{title}");
        let cells: Vec<Vec<String>> = (0..cfg.rounds)
            .map(|round| results.iter().map(|r| cell(r, round)).collect())
            .collect();
        let width = cells
            .iter()
            .flatten()
            .map(|c| c.len() + 1)
            .max()
            .unwrap_or(0)
            .max(10);
        let _ = write!(t, "round");
        for r in results {
            let _ = write!(t, "{:>width$}", format!("{0}x{0}", r.size));
        }
        let _ = writeln!(t);
        for (round, row) in cells.iter().enumerate() {
            let _ = write!(t, "{:>5}", round + 1);
            for c in row {
                let _ = write!(t, "{c:>width$}");
            }
            let _ = writeln!(t);
        }
        let _ = writeln!(t);
    };
    per_round(
        &mut t,
        "Kernel matches that added a reward, per round (a kernel learned n times counts n)",
        &|r, i| r.matches[i].to_string(),
    );
    per_round(
        &mut t,
        &format!(
            "Variety: distinct positions at black's turn in the round / met in an earlier round / games \
             identical to the round before's (of {})",
            cfg.games
        ),
        &|r, i| format!("{}/{}/{}", r.positions[i], r.recurring[i], r.replayed[i]),
    );
    per_round(
        &mut t,
        "Lessons whose kernel was already stored (the position recurred), per round",
        &|r, i| r.repeats[i].to_string(),
    );
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

/// The results of several seeds as one run of `seeds` times the games: win, draw, move, match
/// and variety counts summed, so rates over `cfg.games * seeds` games are the seeds' mean.
pub fn pool(per_seed: &[Vec<SizeResult>]) -> Vec<SizeResult> {
    let Some(first) = per_seed.first() else {
        return Vec::new();
    };
    let add = |a: &mut Vec<usize>, b: &[usize]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
    let mut out = first.clone();
    for seed in &per_seed[1..] {
        for (o, r) in out.iter_mut().zip(seed) {
            add(&mut o.wins, &r.wins);
            add(&mut o.draws, &r.draws);
            add(&mut o.moves, &r.moves);
            add(&mut o.replayed, &r.replayed);
            add(&mut o.positions, &r.positions);
            add(&mut o.recurring, &r.recurring);
            add(&mut o.repeats, &r.repeats);
            o.matches
                .iter_mut()
                .zip(&r.matches)
                .for_each(|(x, y)| *x += y);
            o.kernels += r.kernels;
            o.usable += r.usable;
            o.lessons += r.lessons;
            o.stats.windows += r.stats.windows;
            o.stats.compared += r.stats.compared;
            o.stats.matched += r.stats.matched;
            o.elapsed += r.elapsed;
        }
    }
    out
}

/// Black's win rate (%) of `r` in `round` (0-based).
fn rate(r: &SizeResult, round: usize, games: usize) -> f64 {
    pct(r.wins[round], games)
}

/// The per-seed table: each seed's win rate per size in the first round and the last, the
/// 13x13 - 1x1 gap (the learning signal) when both are run, and the matches per size.
pub fn seed_table(cfg: &StudyConfig, per_seed: &[Vec<SizeResult>]) -> String {
    let mut t = String::new();
    let Some(first) = per_seed.first() else {
        return t;
    };
    let last = cfg.rounds - 1;
    let col = |size: usize| first.iter().position(|r| r.size == size);
    let gap_cols = col(13).zip(col(1));
    let head = |t: &mut String, gap: bool| {
        let _ = write!(t, " seed");
        for r in first {
            let _ = write!(t, "{:>8}", format!("{0}x{0}", r.size));
        }
        if gap && gap_cols.is_some() {
            let _ = write!(t, "  13x13-1x1");
        }
        let _ = writeln!(t);
    };
    for (title, round) in [("first", 0), ("last", last)] {
        let _ = writeln!(
            t,
            "Black's win rate (%) per seed in the {title} round ({}){}",
            round + 1,
            if round == last {
                "; paper: Table 2's last row"
            } else {
                ""
            }
        );
        head(&mut t, true);
        let mut gaps = Vec::new();
        for (i, results) in per_seed.iter().enumerate() {
            let _ = write!(t, "{:>5}", cfg.seed + i as u64);
            for r in results {
                let _ = write!(t, "{:>8}", format!("{:.0}", rate(r, round, cfg.games)));
            }
            if let Some((big, one)) = gap_cols {
                let g =
                    rate(&results[big], round, cfg.games) - rate(&results[one], round, cfg.games);
                gaps.push(g);
                let _ = write!(t, "{:>11}", format!("{g:+.0}"));
            }
            let _ = writeln!(t);
        }
        let n = per_seed.len() as f64;
        let _ = write!(t, " mean");
        for j in 0..first.len() {
            let m: f64 = per_seed
                .iter()
                .map(|rs| rate(&rs[j], round, cfg.games))
                .sum::<f64>()
                / n;
            let _ = write!(t, "{:>8}", format!("{m:.1}"));
        }
        if !gaps.is_empty() {
            let _ = write!(t, "{:>11}", format!("{:+.1}", gaps.iter().sum::<f64>() / n));
        }
        let _ = writeln!(t);
        if round == last {
            let _ = write!(t, "paper");
            for r in first {
                let p = paper(PAPER_FIRST_ROUND + PAPER.len() - 1, r.size);
                let _ = write!(t, "{:>8}", p.map_or("-".to_string(), |p| p.to_string()));
            }
            if gap_cols.is_some() {
                let _ = write!(
                    t,
                    "{:>11}",
                    format!(
                        "{:+}",
                        PAPER[PAPER.len() - 1][6] as i32 - PAPER[PAPER.len() - 1][0] as i32
                    )
                );
            }
            let _ = writeln!(t);
        }
        let _ = writeln!(t);
    }
    let _ = writeln!(t, "Kernel matches per seed, all rounds");
    head(&mut t, false);
    for (i, results) in per_seed.iter().enumerate() {
        let _ = write!(t, "{:>5}", cfg.seed + i as u64);
        for r in results {
            let _ = write!(t, "{:>8}", r.stats.matched);
        }
        let _ = writeln!(t);
    }
    let _ = writeln!(t);
    t
}

/// Runs the study, prints the report to `out` and writes the SVG to `svg_path`.
pub fn run(
    cfg: &StudyConfig,
    svg_path: &std::path::Path,
    tick: &(dyn Fn() + Sync),
    out: &mut dyn Write,
) -> io::Result<()> {
    let t0 = Instant::now();
    let n = cfg.seeds.max(1);
    let per_seed: Vec<Vec<SizeResult>> = (0..n as u64)
        .map(|i| {
            run_all(
                &StudyConfig {
                    seed: cfg.seed + i,
                    ..cfg.clone()
                },
                tick,
            )
        })
        .collect();
    let elapsed = t0.elapsed();
    let pooled_cfg = StudyConfig {
        games: cfg.games * n,
        seeds: n,
        ..cfg.clone()
    };
    let results = pool(&per_seed);
    if n > 1 {
        write!(out, "{}", seed_table(cfg, &per_seed))?;
    }
    write!(out, "{}", report(&pooled_cfg, &results))?;
    std::fs::write(svg_path, svg(&pooled_cfg, &results))?;
    let written = std::fs::canonicalize(svg_path).unwrap_or_else(|_| svg_path.to_path_buf());
    writeln!(
        out,
        "run time {:.1} s for {} games on {} thread(s); plot written to {} (--out to choose)",
        elapsed.as_secs_f64(),
        cfg.rounds * pooled_cfg.games * results.len(),
        cfg.threads,
        written.display()
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

    /// The rule-only games of `cfg` (black unable to learn), black's wins per round.
    fn rule_only_wins(cfg: &StudyConfig) -> Vec<usize> {
        let mut rule_black = Learner::rule_only();
        let mut white = Learner::rule_only();
        rule_black.set_weights(cfg.weights);
        white.set_weights(cfg.weights);
        let mut wins = vec![0; cfg.rounds];
        for (round, w) in wins.iter_mut().enumerate() {
            let seed_round = if cfg.replay == Replay::Fresh {
                round
            } else {
                0
            };
            let mut stream = ChaCha8Rng::seed_from_u64(stream_seed(cfg.seed));
            for game in 0..cfg.games {
                rule_black.set_seed(game_seed(cfg.seed, seed_round, game, Color::Black));
                white.set_seed(game_seed(cfg.seed, seed_round, game, Color::White));
                let shared = (cfg.replay == Replay::Stream).then_some(&mut stream);
                let b = play_game_with(&mut rule_black, &mut white, shared);
                assert_eq!(b.history()[0].0, b.centre());
                *w += usize::from(b.winner() == Some(Color::Black));
            }
        }
        wins
    }

    #[test]
    fn a_one_by_one_learner_plays_the_rule_only_games() {
        for replay in [Replay::Stream, Replay::Game, Replay::Fresh] {
            let cfg = StudyConfig {
                rounds: 3,
                games: 6,
                sizes: vec![1, 15],
                replay,
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
            // The same random numbers with learning switched off give the same games.
            let wins = rule_only_wins(&cfg);
            assert_eq!(results[0].wins, wins, "{replay:?}");
            if replay == Replay::Fresh {
                assert_eq!(results[0].replayed, vec![0; 3]);
            } else {
                // Rounds replay: a flat rate, every game again, every lesson known.
                assert!(wins.iter().all(|&w| w == wins[0]), "{replay:?}");
                assert_eq!(results[0].replayed, vec![0, 6, 6]);
                let per_round = results[0].lessons / 3;
                assert_eq!(results[0].repeats, vec![0, per_round, per_round]);
            }
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

    /// 001's learning signal in the default set-up, on a small fixed seed: 13x13 kernels win
    /// clearly more than the rule-only player by the last round, because the stored positions
    /// come back; with fresh random ties they do not, and the signal is gone.
    #[test]
    fn large_kernels_learn_when_rounds_replay() {
        let cfg = StudyConfig {
            rounds: 8,
            games: 25,
            sizes: vec![1, 13],
            threads: 2,
            ..StudyConfig::default()
        };
        let res = run_all(&cfg, &|| {});
        let (one, big) = (&res[0], &res[1]);
        let last = cfg.rounds - 1;
        assert!(
            big.wins[last] >= one.wins[last] + 3,
            "13x13 {:?} vs 1x1 {:?}",
            big.wins,
            one.wins
        );
        assert!(big.matches[1..].iter().all(|&m| m > 0), "{:?}", big.matches);
        assert!(big.repeats[last] > 0 && big.recurring[last] > big.positions[last] / 2);
        let fresh = run_all(
            &StudyConfig {
                replay: Replay::Fresh,
                ..cfg.clone()
            },
            &|| {},
        );
        let matched: u64 = fresh[1].matches.iter().sum();
        assert!(
            matched * 10 < big.matches.iter().sum::<u64>(),
            "fresh ties: {matched} matches"
        );
        // Several seeds pool into one table of seeds x games per round.
        let pooled = pool(&[res.clone(), fresh.clone()]);
        assert_eq!(pooled[1].wins[0], res[1].wins[0] + fresh[1].wins[0]);
        let table = seed_table(&cfg, &[res, fresh]);
        assert!(table.contains("13x13-1x1"));
    }
}
