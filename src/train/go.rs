//! `sente go-train`: fits the Go move priors' gammas ([`crate::eval::go::gammas`]) to the moves
//! GNU Go chose in `sente go-data` games, and reports how often they rank that move first
//! (and among the first five) on held-out games, beside the hand priors the tree uses today.
//!
//! The model is Coulom's generalized Bradley-Terry: at each position every candidate move
//! (legal, not filling an own eye) is a team of one feature level per group
//! ([`crate::eval::go::features`]), its strength the product of their gammas, and the move
//! played wins the competition among them with probability strength / sum of strengths. The
//! gammas are fitted by minorization-maximization, one group at a time, each level with a
//! prior of one virtual win and one virtual loss against a gamma of 1 (so rare levels stay
//! near 1), or, with `--init`, against that table's gamma of the level (so a refit on a little
//! new data moves a level away from the table in force only as far as the data says).
//! `--fit` names the groups to fit; the others keep their `--init` gammas. Games are split
//! into training and held-out sets by a hash of (seed, board size, job), so no position of a
//! held-out game is trained on.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::{bail, Context};

use super::{data_line, file_name};
use crate::eval::fnv1a;
use crate::eval::go::features::{features, Features, GROUPS, GROUP_COUNT, SMALL_LEVELS, SPATIAL};
use crate::eval::go::gammas::Gammas;
use crate::eval::go::ladder::LadderReader;
use crate::eval::go::priors::{PriorReader, PriorWeights};
use crate::eval::go::spatial::{spatial_hashes, SpatialDict, SMALL_BOARD};
use crate::rules::go::{GoGame, GoMove};
use crate::selfplay::go_record::{GoGameLine, GO_MAGIC};

/// `sente go-train`: options.
#[derive(clap::Args, Debug, Clone)]
pub struct GoTrainArgs {
    /// Game files (`sente go-data --out`), any board sizes.
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the gammas (e.g. weights/go-gammas.txt).
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub split: super::HoldoutSplit,
    /// Rounds of minorization-maximization (each updates every group once).
    #[arg(long, default_value_t = 20)]
    pub iterations: usize,
    /// Start from this gammas file (the table in force) instead of every gamma 1.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Fit only these groups (comma-separated names of `eval::go::features::GROUPS`); the
    /// others keep their `--init` gammas. Default: every group.
    #[arg(long, value_delimiter = ',')]
    pub fit: Vec<String>,
    /// When fitting `spatial`: a pattern enters the dictionary once the moves played in the
    /// training games (boards of 13 and more) show it this often. Without `spatial` in the
    /// fit, the `--init` table's dictionary is kept.
    #[arg(long, default_value_t = 10)]
    pub spatial_min: u32,
}

/// One position: its candidates' dense feature ids, the move played among them, and the rank
/// the hand priors give that move.
struct Position {
    /// Range in [`Data::cands`].
    first: usize,
    n: usize,
    /// Index of the played move among the candidates.
    played: usize,
    /// The hand priors' rank of the played move (0 = first).
    hand_rank: usize,
    size: usize,
}

/// Every position's candidates, features as dense ids.
#[derive(Default)]
struct Data {
    cands: Vec<[u32; GROUP_COUNT]>,
    train: Vec<Position>,
    held: Vec<Position>,
}

/// Dense ids of feature levels: the small groups' levels and the `spatial` dictionary's
/// first, then each `pat3` code seen.
struct Ids {
    offset: [u32; GROUP_COUNT],
    counts: [u32; GROUP_COUNT],
    pat3: HashMap<u32, u32>,
    next: u32,
}

impl Ids {
    /// Ids for a `spatial` group of `spatial_levels` levels.
    fn new(spatial_levels: u32) -> Ids {
        let mut offset = [0u32; GROUP_COUNT];
        let mut counts = SMALL_LEVELS;
        counts[SPATIAL] = spatial_levels;
        let mut at = 0;
        for g in 1..GROUP_COUNT {
            offset[g] = at;
            at += counts[g];
        }
        Ids {
            offset,
            counts,
            pat3: HashMap::new(),
            next: at,
        }
    }

    fn dense(&mut self, f: &Features) -> [u32; GROUP_COUNT] {
        let mut d = [0u32; GROUP_COUNT];
        let next = &mut self.next;
        d[0] = *self.pat3.entry(f[0]).or_insert_with(|| {
            *next += 1;
            *next - 1
        });
        for g in 1..GROUP_COUNT {
            d[g] = self.offset[g] + f[g];
        }
        d
    }

    /// (group, level) of every dense id.
    fn levels(&self) -> Vec<(usize, u32)> {
        let mut out = vec![(0, 0); self.next as usize];
        for g in 1..GROUP_COUNT {
            for l in 0..self.counts[g] {
                out[(self.offset[g] + l) as usize] = (g, l);
            }
        }
        for (&code, &id) in &self.pat3 {
            out[id as usize] = (0, code);
        }
        out
    }
}

/// The `sente go-train` command that reproduces `args`, files by name.
fn command_line(args: &GoTrainArgs) -> String {
    let data: Vec<String> = args.data.iter().map(|p| file_name(p)).collect();
    let mut line = format!(
        "sente go-train --data {} --out {} --seed {} --holdout {} --iterations {}",
        data.join(" "),
        file_name(&args.out),
        args.split.seed,
        args.split.holdout,
        args.iterations
    );
    if let Some(init) = &args.init {
        line.push_str(&format!(" --init {}", file_name(init)));
    }
    if !args.fit.is_empty() {
        line.push_str(&format!(" --fit {}", args.fit.join(",")));
    }
    line.push_str(&format!(" --spatial-min {}", args.spatial_min));
    line
}

/// Which groups `--fit` names (every group when it names none).
fn groups_to_fit(names: &[String]) -> anyhow::Result<[bool; GROUP_COUNT]> {
    if names.is_empty() {
        return Ok([true; GROUP_COUNT]);
    }
    let mut fit = [false; GROUP_COUNT];
    for name in names {
        let g = GROUPS.iter().position(|&x| x == name).with_context(|| {
            format!(
                "--fit: no feature group {name:?} (groups: {})",
                GROUPS.join(", ")
            )
        })?;
        fit[g] = true;
    }
    Ok(fit)
}

/// Runs `sente go-train`.
pub fn run_go_train(args: GoTrainArgs) -> anyhow::Result<()> {
    let command = command_line(&args);
    let fit_groups = groups_to_fit(&args.fit)?;
    let init = match &args.init {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            let table =
                Gammas::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            Some((table, fnv1a(text.as_bytes()), file_name(path)))
        }
        None => None,
    };
    if init.is_none() && fit_groups.contains(&false) {
        bail!("--fit leaves groups unfitted: give their gammas with --init");
    }
    // The table the fit starts from and completes: the --init one, with a dictionary harvested
    // from the training games when `spatial` is fitted.
    let mut base = match &init {
        Some((t, ..)) => t.clone(),
        None => Gammas::neutral(),
    };
    if fit_groups[SPATIAL] {
        let dict = harvest(&args)?;
        eprintln!(
            "spatial dictionary: {} patterns seen at least {} times",
            dict.len(),
            args.spatial_min
        );
        base.set_spatial_dict(dict);
    }
    let dict = base.spatial_dict().clone();
    let mut data = Data::default();
    let mut ids = Ids::new(dict.levels());
    let mut ladders = LadderReader::new();
    let mut games = 0usize;
    let mut data_lines = String::new();
    for path in &args.data {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let before = games;
        for game in games_in(&args, path, &text) {
            let (n, game, held) = game?;
            game.replay(|g, mv, _, chosen| {
                if let (true, GoMove::Play(p)) = (chosen, mv) {
                    add_position(&mut data, &mut ids, &mut ladders, &dict, g, p.idx(), held);
                }
            })
            .map_err(|e| anyhow::anyhow!("{} line {}: {e}", path.display(), n + 1))?;
            games += 1;
        }
        data_lines.push_str(&data_line(path, &text, GO_MAGIC, games - before));
    }
    if data.train.is_empty() || data.held.is_empty() {
        bail!(
            "too little data: {} training and {} held-out positions",
            data.train.len(),
            data.held.len()
        );
    }
    eprintln!(
        "{games} games: {} training positions, {} held out, {} feature levels ({} 3x3 shapes)",
        data.train.len(),
        data.held.len(),
        ids.next,
        ids.pat3.len()
    );
    let levels = ids.levels();
    let start: Vec<f64> = levels
        .iter()
        .map(|&(g, l)| base.gamma(g, l) as f64)
        .collect();
    if init.is_some() {
        eprintln!("--init table: {}", Report::of(&data, &start).text());
    }
    let gammas = fit(&data, &levels, start, &fit_groups, args.iterations);
    let report = Report::of(&data, &gammas);
    eprintln!("{}", report.text());
    // The groups not fitted keep their --init gammas, levels this data never showed included.
    let mut table = base;
    for (id, &(g, l)) in levels.iter().enumerate() {
        if fit_groups[g] {
            table.set(g, l, gammas[id] as f32);
        }
    }
    // The --init table's own provenance follows as init.* lines, so the chain of refits back
    // to the first data stays on record.
    let init_line = match &init {
        Some((t, sum, name)) => {
            let mut s = format!("init={name}: fnv1a {sum:016x}\n");
            for line in t.provenance.lines() {
                s.push_str(&format!("init.{line}\n"));
            }
            s
        }
        None => String::new(),
    };
    table.provenance = format!(
        "command={command}\n{data_lines}{init_line}seed={}\ngames={games}\npositions={}\nheld_out={}\ndate={}\n{}",
        args.split.seed,
        data.train.len(),
        data.held.len(),
        super::utc_now(),
        report.text()
    );
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&args.out, table.to_text())
        .with_context(|| format!("writing {}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(())
}

/// The games of a data file's `text`: each with its line number (from 0) and whether the
/// split holds it out.
fn games_in<'a>(
    args: &'a GoTrainArgs,
    path: &'a std::path::Path,
    text: &'a str,
) -> impl Iterator<Item = anyhow::Result<(usize, GoGameLine, bool)>> + 'a {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.starts_with('#'))
        .map(move |(n, line)| {
            let game = GoGameLine::parse(line)
                .map_err(|e| anyhow::anyhow!("{} line {}: {e}", path.display(), n + 1))?;
            let held = args
                .split
                .holds_out(game.job as u64, (game.size as u64) << 56);
            Ok((n, game, held))
        })
}

/// The `spatial` dictionary of the training games: every pattern size around each move played
/// on a board of 13 or more, kept when seen at least `--spatial-min` times; most seen first.
fn harvest(args: &GoTrainArgs) -> anyhow::Result<SpatialDict> {
    let mut counts: HashMap<u64, u32> = HashMap::new();
    for path in &args.data {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        for game in games_in(args, path, &text) {
            let (n, game, held) = game?;
            if held || game.size < 13 {
                continue;
            }
            game.replay(|g, mv, _, chosen| {
                if let (true, GoMove::Play(p)) = (chosen, mv) {
                    let me = g.to_move() as u8;
                    for h in spatial_hashes(g.board(), p.idx(), me) {
                        *counts.entry(h).or_default() += 1;
                    }
                }
            })
            .map_err(|e| anyhow::anyhow!("{} line {}: {e}", path.display(), n + 1))?;
        }
    }
    Ok(dictionary_of(counts, args.spatial_min))
}

/// The patterns of `counts` seen at least `min` times, most seen first (ties by hash).
fn dictionary_of(counts: HashMap<u64, u32>, min: u32) -> SpatialDict {
    let mut kept: Vec<(u64, u32)> = counts.into_iter().filter(|&(_, c)| c >= min).collect();
    kept.sort_unstable_by_key(|&(h, c)| (std::cmp::Reverse(c), h));
    SpatialDict::new(kept.into_iter().map(|(h, _)| h))
}

/// Adds the position of `game` in which the engine played `played` (a point), unless that
/// move is not a candidate (it filled an own eye).
fn add_position(
    data: &mut Data,
    ids: &mut Ids,
    ladders: &mut LadderReader,
    dict: &SpatialDict,
    game: &GoGame,
    played: usize,
    held: bool,
) {
    let board = game.board();
    let color = game.to_move();
    let me = color as u8;
    let cands: Vec<u16> = board
        .empty_points()
        .iter()
        .copied()
        .filter(|&p| {
            game.is_legal(crate::rules::go::Point(p), color) && !board.is_eye(p as usize, me)
        })
        .collect();
    let Some(at) = cands.iter().position(|&p| p as usize == played) else {
        return;
    };
    let first = data.cands.len();
    for &p in &cands {
        let f = features(board, ladders, p as usize, me, dict);
        data.cands.push(ids.dense(&f));
    }
    // The hand priors as the tree computes them: the scorer's score gap below the best good
    // move, bonus and bad flag through PriorWeights::prior_of; ruled-out moves rank last.
    let weights = PriorWeights::default();
    let reader = PriorReader::new(board, color, weights);
    let raws: Vec<_> = cands.iter().map(|&p| reader.raw(ladders, p)).collect();
    let top = raws
        .iter()
        .flatten()
        .filter(|r| !r.bad)
        .map(|r| r.score)
        .max()
        .or_else(|| raws.iter().flatten().map(|r| r.score).max())
        .unwrap_or(0) as f32;
    let keys: Vec<(f32, f32)> = raws
        .iter()
        .map(|r| match r {
            Some(r) => weights.prior_of((r.score as f32 - top).min(0.0), r.bonus, r.bad),
            None => (-1.0, -1.0),
        })
        .collect();
    let hand_rank = rank_of(&keys, at, |a, b| {
        a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1))
    });
    let pos = Position {
        first,
        n: cands.len(),
        played: at,
        hand_rank,
        size: board.width(),
    };
    if held {
        data.held.push(pos);
    } else {
        data.train.push(pos);
    }
}

/// The rank of `keys[at]` (0 = best): the keys above it, and the equal ones listed before it.
fn rank_of<K>(keys: &[K], at: usize, cmp: impl Fn(&K, &K) -> std::cmp::Ordering) -> usize {
    keys.iter()
        .enumerate()
        .filter(|&(i, k)| match cmp(k, &keys[at]) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Equal => i < at,
            std::cmp::Ordering::Less => false,
        })
        .count()
}

fn strength(gammas: &[f64], c: &[u32; GROUP_COUNT]) -> f64 {
    c.iter().map(|&i| gammas[i as usize]).product()
}

/// Minorization-maximization over the training positions (see the module doc).
fn fit(
    data: &Data,
    levels: &[(usize, u32)],
    start: Vec<f64>,
    groups: &[bool; GROUP_COUNT],
    iterations: usize,
) -> Vec<f64> {
    let n = levels.len();
    let anchor = start.clone();
    let mut gammas = start;
    let mut wins = vec![0.0f64; n];
    for p in &data.train {
        for &i in &data.cands[p.first + p.played] {
            wins[i as usize] += 1.0;
        }
    }
    let mut den = vec![0.0f64; n];
    for it in 0..iterations {
        for g in (0..GROUP_COUNT).filter(|&g| groups[g]) {
            den.fill(0.0);
            for p in &data.train {
                let cands = &data.cands[p.first..p.first + p.n];
                let total: f64 = cands.iter().map(|c| strength(&gammas, c)).sum();
                for c in cands {
                    let i = c[g] as usize;
                    den[i] += strength(&gammas, c) / gammas[i] / total;
                }
            }
            for (i, &(group, level)) in levels.iter().enumerate() {
                // `spatial`'s small-board level is every candidate's there: it stays 1.
                if group == g && !(g == SPATIAL && level == SMALL_BOARD) {
                    // One virtual win and one virtual loss against the starting gamma (1
                    // without --init): alone, they hold the level there.
                    gammas[i] = (wins[i] + 1.0) / (den[i] + 2.0 / (anchor[i] + gammas[i]));
                }
            }
        }
        if it % 5 == 4 || it + 1 == iterations {
            eprintln!(
                "round {}: training log-loss {:.4}",
                it + 1,
                log_loss(&data.train, &data.cands, &gammas)
            );
        }
    }
    gammas
}

/// Mean negative log-probability of the played moves.
fn log_loss(positions: &[Position], cands: &[[u32; GROUP_COUNT]], gammas: &[f64]) -> f64 {
    let sum: f64 = positions
        .iter()
        .map(|p| {
            let c = &cands[p.first..p.first + p.n];
            let total: f64 = c.iter().map(|c| strength(gammas, c)).sum();
            -(strength(gammas, &c[p.played]) / total).ln()
        })
        .sum();
    sum / positions.len().max(1) as f64
}

/// Held-out prediction rates.
struct Report {
    /// (board size, positions, learned top-1, top-5, hand top-1, top-5), all sizes first (0).
    rows: Vec<(usize, usize, f64, f64, f64, f64)>,
    loss: f64,
}

impl Report {
    fn of(data: &Data, gammas: &[f64]) -> Report {
        let mut sizes: Vec<usize> = data.held.iter().map(|p| p.size).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let mut rows = Vec::new();
        for size in std::iter::once(0).chain(sizes) {
            let (mut n, mut l1, mut l5, mut h1, mut h5) = (0usize, 0, 0, 0, 0);
            for p in data.held.iter().filter(|p| size == 0 || p.size == size) {
                let c = &data.cands[p.first..p.first + p.n];
                let s: Vec<f64> = c.iter().map(|c| strength(gammas, c)).collect();
                let r = rank_of(&s, p.played, |a, b| a.total_cmp(b));
                n += 1;
                l1 += usize::from(r < 1);
                l5 += usize::from(r < 5);
                h1 += usize::from(p.hand_rank < 1);
                h5 += usize::from(p.hand_rank < 5);
            }
            let f = |k: usize| k as f64 / n.max(1) as f64;
            rows.push((size, n, f(l1), f(l5), f(h1), f(h5)));
        }
        Report {
            rows,
            loss: log_loss(&data.held, &data.cands, gammas),
        }
    }

    /// `key=value` lines.
    fn text(&self) -> String {
        let mut s = format!("held_out_log_loss={:.4}\n", self.loss);
        for &(size, n, l1, l5, h1, h5) in &self.rows {
            let name = if size == 0 {
                "all".to_string()
            } else {
                format!("{size}x{size}")
            };
            s.push_str(&format!(
                "held_out_{name}={n} positions: top1 {l1:.3} top5 {l5:.3} (hand priors top1 {h1:.3} top5 {h5:.3})\n"
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_ties_listed_first() {
        let keys = [3.0, 5.0, 3.0, 1.0];
        let cmp = |a: &f64, b: &f64| a.total_cmp(b);
        assert_eq!(rank_of(&keys, 1, cmp), 0);
        assert_eq!(rank_of(&keys, 0, cmp), 1);
        assert_eq!(rank_of(&keys, 2, cmp), 2);
        assert_eq!(rank_of(&keys, 3, cmp), 3);
    }

    /// Forty two-candidate positions on a `size` board: the played one always has `capture`
    /// level 1, `libs` varies; every fourth position is held out.
    fn capture_always_wins(size: usize) -> (Data, Ids) {
        let mut data = Data::default();
        let mut ids = Ids::new(2);
        for k in 0..40 {
            let first = data.cands.len();
            let mut a: Features = [5, 0, 0, 1, 0, 0, 0, 3, 3, 0, 0, 0, 0];
            let b: Features = [5, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0];
            a[8] = 1 + k % 3;
            data.cands.push(ids.dense(&a));
            data.cands.push(ids.dense(&b));
            let pos = Position {
                first,
                n: 2,
                played: 0,
                hand_rank: 1,
                size,
            };
            if k % 4 == 0 {
                data.held.push(pos);
            } else {
                data.train.push(pos);
            }
        }
        (data, ids)
    }

    #[test]
    fn the_fit_learns_that_the_played_feature_wins() {
        let (data, ids) = capture_always_wins(9);
        let levels = ids.levels();
        let gammas = fit(
            &data,
            &levels,
            vec![1.0; levels.len()],
            &[true; GROUP_COUNT],
            10,
        );
        let capture = |l: u32| gammas[(ids.offset[3] + l) as usize];
        assert!(capture(1) > 10.0 * capture(0));
        let r = Report::of(&data, &gammas);
        assert_eq!(r.rows[0].1, 10);
        assert_eq!((r.rows[0].2, r.rows[0].4), (1.0, 0.0));
        assert!(r.loss < 0.2);
    }

    #[test]
    fn a_refit_of_some_groups_keeps_the_others_and_leans_on_the_init_table() {
        let (data, ids) = capture_always_wins(19);
        let levels = ids.levels();
        let start: Vec<f64> = levels
            .iter()
            .map(|&(g, _)| if g == 8 { 2.0 } else { 1.0 })
            .collect();
        let mut only_capture = [false; GROUP_COUNT];
        only_capture[3] = true;
        let gammas = fit(&data, &levels, start.clone(), &only_capture, 10);
        for (i, &(g, _)) in levels.iter().enumerate() {
            if g != 3 {
                assert_eq!(gammas[i], start[i], "group {} moved", GROUPS[g]);
            }
        }
        let capture = |gammas: &[f64], l: u32| gammas[(ids.offset[3] + l) as usize];
        assert!(capture(&gammas, 1) > 10.0 * capture(&gammas, 0));
        // A level the data never shows stays at its starting gamma, not at 1.
        let mut anchored = start.clone();
        anchored[(ids.offset[3] + 5) as usize] = 4.0;
        let gammas = fit(&data, &levels, anchored, &only_capture, 10);
        assert!((capture(&gammas, 5) - 4.0).abs() < 1e-9);
        assert!(groups_to_fit(&["near".into(), "pat3".into()]).unwrap()[10]);
        assert!(groups_to_fit(&["nearby".into()]).is_err());
        assert_eq!(groups_to_fit(&[]).unwrap(), [true; GROUP_COUNT]);
    }

    #[test]
    fn the_dictionary_keeps_patterns_seen_often_enough_most_seen_first() {
        let counts = HashMap::from([(7, 3), (9, 12), (4, 10), (5, 9), (8, 10)]);
        let d = dictionary_of(counts, 10);
        assert_eq!(d.hashes(), &[9, 4, 8]);
    }

    /// The board lookup (`SpatialDict::level_at`) stops at the first size not listed: right only
    /// if a harvested dictionary lists, for each move, a run of sizes from the smallest.
    #[test]
    fn a_harvested_dictionary_lists_every_smaller_pattern_of_a_listed_one() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: GoTrainArgs,
        }
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/data/go19-l4-s22.txt");
        let cli = <Cli as clap::Parser>::try_parse_from([
            "go-train",
            "--data",
            data,
            "--out",
            "unused",
            "--spatial-min",
            "2",
        ])
        .unwrap();
        let dict = harvest(&cli.args).unwrap();
        assert!(dict.len() > 100, "{} patterns", dict.len());
        let text = std::fs::read_to_string(data).unwrap();
        let (mut moves, mut deep) = (0, 0);
        for game in games_in(&cli.args, data.as_ref(), &text) {
            let (_, game, _) = game.unwrap();
            game.replay(|g, mv, _, chosen| {
                if let (true, GoMove::Play(p)) = (chosen, mv) {
                    let h = spatial_hashes(g.board(), p.idx(), g.to_move() as u8);
                    let listed: Vec<bool> = h.iter().map(|&k| dict.contains(k)).collect();
                    let run = listed.iter().take_while(|&&l| l).count();
                    assert!(listed[run..].iter().all(|&l| !l), "{listed:?}");
                    moves += 1;
                    deep += usize::from(run >= 3);
                }
            })
            .unwrap();
        }
        assert!(
            moves > 1000 && deep > 0,
            "{moves} moves, {deep} with 3 sizes or more"
        );
    }
}
