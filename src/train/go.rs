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
//!
//! A move recorded with its search's visit counts (`go-data --engine sente`) is fitted as a
//! soft target: the position's one win is shared among the visited candidates in proportion
//! to their visits (fractional wins, for which MM is unchanged), unless `--target played`.
//! The held-out figures are per board size and, with several files, per file: a source is
//! judged by how well its table predicts another source's held-out moves.

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
use crate::selfplay::go_record::{GoGameLine, Vertex, GO_MAGIC};

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
    /// What a position is fitted to: the recorded visit counts where a move has them
    /// (`visits`), or always the move played (`played`).
    #[arg(long, default_value = "visits", value_parser = ["visits", "played"])]
    pub target: String,
}

/// One position: its candidates' dense feature ids, the move played among them, the rank
/// the hand priors give that move, and what it is fitted to.
struct Position {
    /// Range in [`Data::cands`].
    first: usize,
    n: usize,
    /// Index of the played move among the candidates.
    played: usize,
    /// The hand priors' rank of the played move (0 = first).
    hand_rank: usize,
    size: usize,
    /// Which data file (in `--data` order) it comes from.
    file: usize,
    /// Range in [`Data::targets`].
    target_first: usize,
    target_n: usize,
}

/// Every position's candidates, features as dense ids, and targets.
#[derive(Default)]
struct Data {
    cands: Vec<[u32; GROUP_COUNT]>,
    /// (candidate index within its position, share of the position's win), shares summing
    /// to 1 per position.
    targets: Vec<(u32, f64)>,
    train: Vec<Position>,
    held: Vec<Position>,
}

impl Data {
    fn targets_of(&self, p: &Position) -> &[(u32, f64)] {
        &self.targets[p.target_first..p.target_first + p.target_n]
    }
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
    line.push_str(&format!(" --target {}", args.target));
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
    let soft = args.target == "visits";
    for (file, path) in args.data.iter().enumerate() {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let before = games;
        for game in games_in(&args, path, &text) {
            let (n, game, held) = game?;
            let mut i = 0;
            game.replay(|g, mv, _, chosen| {
                if let (true, GoMove::Play(p)) = (chosen, mv) {
                    let visits = if soft { game.visits_of(i) } else { &[] };
                    let at = Source { file, held };
                    add_position(
                        &mut data,
                        &mut ids,
                        &mut ladders,
                        &dict,
                        g,
                        p.idx(),
                        visits,
                        at,
                    );
                }
                i += 1;
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
        eprintln!(
            "--init table: {}",
            Report::of(&data, &start, &file_names(&args)).text()
        );
    }
    let gammas = fit(&data, &levels, start, &fit_groups, args.iterations);
    let report = Report::of(&data, &gammas, &file_names(&args));
    eprintln!("{}", report.text());
    eprint!("{}", ablation_text(&data, &levels, &gammas));
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

/// The data files' names, in `--data` order, when there are several (none for one file).
fn file_names(args: &GoTrainArgs) -> Vec<String> {
    if args.data.len() < 2 {
        return Vec::new();
    }
    args.data.iter().map(|p| file_name(p)).collect()
}

/// Where a position comes from: its file, and whether the split holds its game out.
#[derive(Clone, Copy)]
struct Source {
    file: usize,
    held: bool,
}

/// Adds the position of `game` in which the engine played `played` (a point), unless that
/// move is not a candidate (it filled an own eye); its target is `visits` (recorded root
/// moves and their visits) where any of them is a candidate, else the move played.
#[allow(clippy::too_many_arguments)]
fn add_position(
    data: &mut Data,
    ids: &mut Ids,
    ladders: &mut LadderReader,
    dict: &SpatialDict,
    game: &GoGame,
    played: usize,
    visits: &[(Vertex, u32)],
    source: Source,
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
    let target_first = data.targets.len();
    for &(mv, n) in visits {
        let index = mv
            .and_then(|(x, y)| board.point(x, y))
            .and_then(|q| cands.iter().position(|&p| p == q.0));
        if let (Some(i), true) = (index, n > 0) {
            data.targets.push((i as u32, n as f64));
        }
    }
    let total: f64 = data.targets[target_first..].iter().map(|t| t.1).sum();
    if total > 0.0 {
        for t in &mut data.targets[target_first..] {
            t.1 /= total;
        }
    } else {
        data.targets.push((at as u32, 1.0));
    }
    let pos = Position {
        first,
        n: cands.len(),
        played: at,
        hand_rank,
        size: board.width(),
        file: source.file,
        target_first,
        target_n: data.targets.len() - target_first,
    };
    if source.held {
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
        for &(c, share) in data.targets_of(p) {
            for &i in &data.cands[p.first + c as usize] {
                wins[i as usize] += share;
            }
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
                log_loss(data, &data.train, &gammas)
            );
        }
    }
    gammas
}

/// Mean cross-entropy of the targets (the negative log-probability of the played move where
/// that is the target).
fn log_loss<'a>(
    data: &Data,
    positions: impl IntoIterator<Item = &'a Position>,
    gammas: &[f64],
) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for p in positions {
        let c = &data.cands[p.first..p.first + p.n];
        let total: f64 = c.iter().map(|c| strength(gammas, c)).sum();
        for &(i, share) in data.targets_of(p) {
            sum -= share * (strength(gammas, &c[i as usize]) / total).ln();
        }
        n += 1;
    }
    sum / n.max(1) as f64
}

/// What each feature group adds: the held-out figures (all sizes, then each size; only the
/// size when there is one) of the fitted table with that group's gammas put back to 1, one
/// group at a time, one line per group and row, for the groups whose gammas are not all 1.
fn ablation_text(data: &Data, levels: &[(usize, u32)], gammas: &[f64]) -> String {
    let mut s = String::new();
    for (g, name) in GROUPS.iter().enumerate() {
        let ids: Vec<usize> = (0..levels.len()).filter(|&i| levels[i].0 == g).collect();
        if ids.iter().all(|&i| gammas[i] == 1.0) {
            continue;
        }
        let mut without = gammas.to_vec();
        for &i in &ids {
            without[i] = 1.0;
        }
        let rows = Report::of(data, &without, &[]).rows;
        // With one board size its row repeats `all`.
        let skip = usize::from(rows.len() == 2);
        for r in rows.into_iter().skip(skip) {
            s.push_str(&format!(
                "without {name}: held_out_{}={} positions: top1 {:.3} top5 {:.3} log-loss {:.4}\n",
                r.name, r.n, r.top1, r.top5, r.loss
            ));
        }
    }
    s
}

/// One row of held-out figures: its positions, learned top-1 and top-5, hand priors' top-1
/// and top-5, and the learned table's log-loss of the targets.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    /// `all`, `19x19`, or a data file's name.
    name: String,
    n: usize,
    top1: f64,
    top5: f64,
    hand1: f64,
    hand5: f64,
    loss: f64,
}

/// Held-out prediction rates: over all positions, per board size and, with several data
/// files, per file.
struct Report {
    rows: Vec<Row>,
    loss: f64,
}

impl Report {
    fn of(data: &Data, gammas: &[f64], files: &[String]) -> Report {
        let mut sizes: Vec<usize> = data.held.iter().map(|p| p.size).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let row = |name: String, keep: &dyn Fn(&Position) -> bool| {
            let (mut n, mut l1, mut l5, mut h1, mut h5) = (0usize, 0, 0, 0, 0);
            for p in data.held.iter().filter(|p| keep(p)) {
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
            let loss = log_loss(data, data.held.iter().filter(|p| keep(p)), gammas);
            Row {
                name,
                n,
                top1: f(l1),
                top5: f(l5),
                hand1: f(h1),
                hand5: f(h5),
                loss,
            }
        };
        let mut rows = vec![row("all".into(), &|_| true)];
        for size in sizes {
            rows.push(row(format!("{size}x{size}"), &|p| p.size == size));
        }
        for (i, name) in files.iter().enumerate() {
            rows.push(row(name.clone(), &|p| p.file == i));
        }
        Report {
            rows,
            loss: log_loss(data, &data.held, gammas),
        }
    }

    /// `key=value` lines.
    fn text(&self) -> String {
        let mut s = format!("held_out_log_loss={:.4}\n", self.loss);
        for r in &self.rows {
            s.push_str(&format!(
                "held_out_{}={} positions: top1 {:.3} top5 {:.3} (hand priors top1 {:.3} top5 {:.3}) log-loss {:.4}\n",
                r.name, r.n, r.top1, r.top5, r.hand1, r.hand5, r.loss
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

    /// `count` two-candidate positions on a `size` board: the played one always has `capture`
    /// level 1, `libs` varies; the first candidate takes `share` of the win (the played
    /// move's share 1: a hard target), the other the rest; every fourth position is held out.
    fn capture_wins(size: usize, count: usize, share: f64) -> (Data, Ids) {
        let mut data = Data::default();
        let mut ids = Ids::new(2);
        for k in 0..count {
            let first = data.cands.len();
            let mut a: Features = [5, 0, 0, 1, 0, 0, 0, 3, 3, 0, 0, 0, 0];
            let b: Features = [5, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0];
            a[8] = 1 + (k % 3) as u32;
            data.cands.push(ids.dense(&a));
            data.cands.push(ids.dense(&b));
            let target_first = data.targets.len();
            data.targets.push((0, share));
            if share < 1.0 {
                data.targets.push((1, 1.0 - share));
            }
            let pos = Position {
                first,
                n: 2,
                played: 0,
                hand_rank: 1,
                size,
                file: k % 2,
                target_first,
                target_n: data.targets.len() - target_first,
            };
            if k % 4 == 0 {
                data.held.push(pos);
            } else {
                data.train.push(pos);
            }
        }
        (data, ids)
    }

    fn capture_always_wins(size: usize) -> (Data, Ids) {
        capture_wins(size, 40, 1.0)
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
        let r = Report::of(&data, &gammas, &[]);
        assert_eq!(r.rows[0].n, 10);
        assert_eq!((r.rows[0].top1, r.rows[0].hand1), (1.0, 0.0));
        assert!(r.loss < 0.2);
    }

    #[test]
    fn a_soft_target_fits_the_strengths_to_the_visit_shares() {
        // Three visits in four to the capture: its gamma ends about three times the other's.
        let (data, ids) = capture_wins(9, 400, 0.75);
        let levels = ids.levels();
        let groups: [bool; GROUP_COUNT] = std::array::from_fn(|g| g == 3);
        let gammas = fit(&data, &levels, vec![1.0; levels.len()], &groups, 30);
        let capture = |l: u32| gammas[(ids.offset[3] + l) as usize];
        let ratio = capture(1) / capture(0);
        assert!((2.8..3.2).contains(&ratio), "{ratio}");
        // The held-out loss is the targets' cross-entropy, at its floor there (0.562).
        let r = Report::of(&data, &gammas, &["a.txt".into(), "b.txt".into()]);
        assert!((r.loss - 0.5623).abs() < 0.01, "{}", r.loss);
        let names: Vec<&str> = r.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["all", "9x9", "a.txt", "b.txt"]);
        // Every fourth position held out, files alternating: all of them in a.txt.
        assert_eq!((r.rows[2].n, r.rows[3].n), (100, 0));
        assert!(r
            .text()
            .contains("held_out_a.txt=100 positions: top1 1.000"));
    }

    #[test]
    fn the_ablation_puts_one_fitted_group_back_at_a_time() {
        let (data, ids) = capture_wins(9, 40, 1.0);
        let levels = ids.levels();
        let groups: [bool; GROUP_COUNT] = std::array::from_fn(|g| g == 3);
        let gammas = fit(&data, &levels, vec![1.0; levels.len()], &groups, 10);
        let text = ablation_text(&data, &levels, &gammas);
        // Only `capture` was fitted; without it the two candidates tie: top-1 by order, the
        // loss ln 2.
        assert_eq!(
            text,
            "without capture: held_out_9x9=10 positions: top1 1.000 top5 1.000 log-loss 0.6931\n"
        );
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
