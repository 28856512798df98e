//! `sente train`: fits the learned evaluation (`eval::gomoku::learned`) to self-play data
//! (`selfplay::record`) and writes a weights file.
//!
//! Value: Texel-style logistic regression. A position's value is the learned line sum (the
//! tables summed over its empty cells, see `eval::gomoku::learned`) plus a bias and the threat table's
//! entry for the threats on the board (`PatternBoard::threat_mask`); the model says the mover
//! wins with probability `sigmoid(value / K)`. K is fitted first with the hand tables (so the
//! learned values keep the hand scale the search's margins are tuned to); the target mixes the
//! game result with `sigmoid(search score / K)` (a forced win or loss counts as 1 or 0). The
//! tables start at the hand values and an L2 term pulls them back there, so rare codes and
//! threat masks keep their hand value. Positions where a five is on the board's next move are left out: the
//! search never evaluates them.
//!
//! Policy: softmax over the legal points near a stone of `attack[mover's code] +
//! defend[opponent's code]`, fitted to the move the search played (cross-entropy).
//!
//! `--balance-winners` weights the value fit so that both colours' wins count alike (black
//! wins most self-play games, and unweighted tables learn that share).
//!
//! Full-batch Adam, deterministic; games are split into training and held-out sets by a hash
//! of (seed, job), so no position of a held-out game is trained on.

pub mod go;

use std::path::PathBuf;

use anyhow::{bail, Context};

use crate::eval::gomoku::learned::{
    canonical, fnv1a, patterns_of, Weights, CODES, JOINT, POLICY_ATTACK, POLICY_DEFEND, VALUE_MINE,
    VALUE_THEIRS,
};
use crate::eval::gomoku::patterns::{
    hand_threat, PatternBoard, P4_FIVE, P4_FLEX4, PATTERN_VALUE, THREAT_MASKS,
};
use crate::rules::splitmix::splitmix64;
use crate::rules::{Board, Color, Outcome, Rule};
use crate::selfplay::record::{GameLine, Score, MAGIC};

/// The training / held-out split shared by `sente train` and `sente go-train`: a game is held
/// out by a hash of the seed and its job number, so the split does not depend on file order.
#[derive(Debug, Clone, clap::Args)]
pub struct HoldoutSplit {
    /// Seed of the training / held-out split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// One game in this many is held out.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..))]
    pub holdout: u64,
}

impl HoldoutSplit {
    /// Whether the game of this job (`salt` tells apart job numbers of different files' kinds,
    /// e.g. Go board sizes) is held out.
    pub fn holds_out(&self, job: u64, salt: u64) -> bool {
        let mut h = self.seed ^ job.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt;
        splitmix64(&mut h).is_multiple_of(self.holdout)
    }
}

/// `sente train`: options.
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// Self-play files (`sente selfplay --out`), all of one rule.
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// Rule family of the data and the weights (freestyle or renju).
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Where to write the weights file (e.g. weights/freestyle.sw).
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub split: HoldoutSplit,
    /// Full-batch steps of the value fit (0: write the hand tables).
    #[arg(long, default_value_t = 300)]
    pub epochs: usize,
    /// Full-batch steps of the policy fit.
    #[arg(long, default_value_t = 200)]
    pub policy_epochs: usize,
    /// Weight of the game result in the value target (the rest is the search's score).
    #[arg(long, default_value_t = 0.5)]
    pub result_weight: f64,
    /// L2 pull of the value tables, per position, towards the hand values (towards the
    /// `--init` file's tables when one is given). Fitting from the previous generation's
    /// tables, 0 plays better (freestyle generation 11, renju 10: the default held the fit
    /// near the old tables); the default stays, as the earlier generations' commands read it.
    #[arg(long, default_value_t = 1e-6)]
    pub l2: f64,
    /// Fit the cell tables only, the threat table kept at the hand threat terms and the
    /// joint table at 0 (the model of weights version 1): the ablation that says what the
    /// threat and joint tables add.
    #[arg(long)]
    pub cells_only: bool,
    /// Weights files (e.g. the previous generations') whose held-out figures are reported
    /// beside the new ones, on the same held-out positions.
    #[arg(long, num_args = 1..)]
    pub compare: Vec<PathBuf>,
    /// What the held-out split hashes: `opening` (the opening's stones, so that games from
    /// one opening, which the deterministic self-play repeats move for move, are all on one
    /// side, and repeated games are fitted once) or `job` (the job number, every game kept:
    /// the split of the generation 1-3 weights).
    #[arg(long, value_enum, default_value_t = SplitBy::Opening)]
    pub split_by: SplitBy,
    /// The logistic scale K (evaluation units per logit) instead of fitting it to the hand
    /// evaluation on this data: the learned values come out in units of K, so a K refitted on
    /// other data rescales the whole evaluation against the search's absolute margins; give
    /// the previous generation's (its `k=` provenance line) to keep them meaning the same.
    #[arg(long, value_parser = parse_k)]
    pub k: Option<f64>,
    /// Start from this weights file's tables (the previous generation's) instead of the hand
    /// values, and pull the value tables towards them (`--l2`) instead: codes the new data
    /// rarely shows keep what the previous generation learned rather than falling back to the
    /// hand values.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Weight the value fit's positions so that the games black won and the games white
    /// won count alike (draws keep weight 1): self-play where one colour wins most games
    /// (renju's black) otherwise teaches the tables that colour's share of wins rather than
    /// what the shapes are worth. Losses are reported unweighted, as without it.
    #[arg(long)]
    pub balance_winners: bool,
}

/// `--k`: a positive, finite scale.
fn parse_k(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(k) if k.is_finite() && k >= 1.0 => Ok(k),
        _ => Err(format!("--k {s:?}: expected a number >= 1")),
    }
}

/// See [`TrainArgs::split_by`].
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitBy {
    Opening,
    Job,
}

/// The key of a game's opening: its black stones and its white stones as sets (the same
/// stones played in another order are the same position, and the same game follows).
fn opening_key(opening: &[(usize, usize)]) -> u64 {
    let mut sides: [Vec<(usize, usize)>; 2] = [Vec::new(), Vec::new()];
    for (i, &xy) in opening.iter().enumerate() {
        sides[i % 2].push(xy);
    }
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for side in &mut sides {
        side.sort_unstable();
        for &(x, y) in side.iter() {
            h = (h ^ (x * 32 + y) as u64).wrapping_mul(0x100_0000_01b3);
        }
        h = (h ^ 0xff).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// One position's features.
struct Sample {
    /// (feature, count): value-table entries summed over the empty cells.
    value: Vec<(u16, u16)>,
    /// The threat-table parameter of the position (see [`threat_feature`]).
    threat: usize,
    /// The hand evaluation (the baseline).
    hand: f64,
    /// Mover's colour index (bias feature).
    mover: usize,
    /// Value target in [0, 1].
    target: f64,
    /// The game result alone (1 the mover won, 0 lost, 0.5 a draw; a forced result counts as
    /// that): the target every mix of `--result-weight` is compared on.
    result: f64,
    /// Which `--data` file the position came from.
    file: usize,
    /// Who won the game the position came from.
    outcome: Outcome,
    /// The position's weight in the value fit (see `--balance-winners`).
    weight: f64,
    /// Whether the game's first searched score lies within `sente match --balance`'s margin
    /// of even: the games a balanced match plays, where an SPRT is decided.
    balanced: bool,
    /// Whether the search had found a forced result in the game by this position (then the
    /// search, not the evaluation, decides the moves).
    decided: bool,
    /// Candidate moves as (attack feature, defend feature); the played one first.
    policy: Vec<(u16, u16)>,
    /// Whether the hand baseline (largest sum of both colours' line values) ranks the played
    /// move first.
    hand_top1: bool,
}

/// Index of a feature in the flat parameter vector: colour slot, table, code.
fn feature(slot: usize, table: usize, code: usize) -> usize {
    (slot * 4 + table) * CODES + code
}

/// Where the value biases start in the flat parameter vector (black, white to move).
const BIAS_AT: usize = 2 * 4 * CODES;
/// Where the threat tables start (per colour slot to move, [`THREAT_MASKS`] each).
const THREAT_AT: usize = BIAS_AT + 2;
/// Where the joint cell tables start (per colour slot to move, [`JOINT`] each).
const JOINT_AT: usize = THREAT_AT + 2 * THREAT_MASKS;
/// Length of the flat value parameter vector.
const VALUE_PARAMS: usize = JOINT_AT + 2 * JOINT;

/// Index of the threat-table entry of colour slot `slot` to move and threat mask `mask`.
fn threat_feature(slot: usize, mask: usize) -> usize {
    THREAT_AT + slot * THREAT_MASKS + mask
}

/// The file name of `path` (provenance names data files, not where they were kept).
pub(crate) fn file_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The `data=` provenance line of a data file: its name, games, checksum and header (the
/// settings it was generated with), so a table says exactly which data it was fitted to.
pub(crate) fn data_line(path: &std::path::Path, text: &str, magic: &str, games: usize) -> String {
    let head = text.lines().next().filter(|l| l.starts_with(magic));
    format!(
        "data={}: {games} games; fnv1a {:016x}; {}\n",
        file_name(path),
        fnv1a(text.as_bytes()),
        head.unwrap_or("no header")
    )
}

/// The `sente train` command that reproduces `args`, every option spelled out, files by name.
fn command_line(args: &TrainArgs) -> String {
    let data: Vec<String> = args.data.iter().map(|p| file_name(p)).collect();
    format!(
        "sente train --rule {} --data {} --out {} --seed {} --holdout {} --split-by {} --epochs {} --policy-epochs {} --result-weight {} --l2 {:e}{}",
        args.rule,
        data.join(" "),
        file_name(&args.out),
        args.split.seed,
        args.split.holdout,
        match args.split_by {
            SplitBy::Opening => "opening",
            SplitBy::Job => "job",
        },
        args.epochs,
        args.policy_epochs,
        args.result_weight,
        args.l2,
        if args.cells_only {
            " --cells-only"
        } else {
            ""
        }
    ) + if args.balance_winners {
        " --balance-winners"
    } else {
        ""
    } + &args.k.map_or(String::new(), |k| format!(" --k {k}"))
        + &args
            .init
            .as_ref()
            .map_or(String::new(), |p| format!(" --init {}", file_name(p)))
}

/// Runs `sente train`.
pub fn run_train(args: TrainArgs) -> anyhow::Result<()> {
    let command = command_line(&args);
    let rule =
        Rule::from_name(&args.rule).with_context(|| format!("unknown rule {:?}", args.rule))?;
    if !matches!(rule, Rule::Freestyle | Rule::Renju) {
        bail!("weights exist for freestyle and renju only");
    }
    // Colours differ only under renju.
    let slot = |c: Color| if rule == Rule::Renju { c.index() } else { 0 };
    let mut train = Vec::new();
    let mut held = Vec::new();
    let mut games = 0usize;
    // Games already read (opening and moves), to fit a repeated game once.
    let mut seen = std::collections::HashSet::new();
    let mut repeated = 0usize;
    // Training games by outcome (black won, white won, draw; for `--balance-winners`).
    let mut training_games = [0usize; 3];
    // One `data=` provenance line per file: its name, header (the self-play settings), games
    // and checksum, so the weights say exactly which data they were fitted to.
    let mut data_lines = String::new();
    for (file, path) in args.data.iter().enumerate() {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let games_before = games;
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') {
                if line.starts_with(MAGIC) && !line.contains(&format!(" rule={} ", rule.name())) {
                    bail!("{}: not {} games: {line}", path.display(), rule.name());
                }
                continue;
            }
            let game = GameLine::parse(line)
                .map_err(|e| anyhow::anyhow!("{} line {}: {e}", path.display(), n + 1))?;
            let key = match args.split_by {
                SplitBy::Opening => {
                    let moves: Vec<_> = game.moves.iter().map(|m| m.mv).collect();
                    if !seen.insert((game.opening.clone(), moves)) {
                        games += 1;
                        repeated += 1;
                        continue;
                    }
                    opening_key(&game.opening)
                }
                SplitBy::Job => game.job as u64,
            };
            let holdout = args.split.holds_out(key, 0);
            let into = if holdout { &mut held } else { &mut train };
            let balanced = matches!(game.moves.first(), Some(m)
                if matches!(m.score, Score::Eval(v) if v.abs() <= crate::arena::balance::DEFAULT_MARGIN));
            let mut decided = false;
            let mut board = Board::new(15, 15, rule).map_err(|e| anyhow::anyhow!("{e}"))?;
            game.replay(&mut board, &mut |b, p, m| {
                decided |= matches!(m.score, Score::Mate(_));
                if let Some(s) = sample(b, p, m.score, game.outcome, &slot) {
                    into.push(Sample {
                        file,
                        balanced,
                        decided,
                        ..s
                    });
                }
            })
            .map_err(|e| anyhow::anyhow!("{} line {}: {e}", path.display(), n + 1))?;
            games += 1;
            if !holdout {
                training_games[game.outcome.index()] += 1;
            }
        }
        data_lines.push_str(&data_line(path, &text, MAGIC, games - games_before));
    }
    if train.is_empty() || held.is_empty() {
        bail!(
            "too little data: {} training and {} held-out positions",
            train.len(),
            held.len()
        );
    }
    eprintln!(
        "{games} games ({repeated} repeats of an earlier game left out): {} training positions, {} held out",
        train.len(),
        held.len()
    );

    let mut params = hand_params();
    let k = match args.k {
        Some(k) => {
            eprintln!(
                "K = {k:.1} (given; fitted here it would be {:.1})",
                fit_k(&train, &params)
            );
            k
        }
        None => {
            let k = fit_k(&train, &params);
            eprintln!("K = {k:.1} (logistic scale of the hand evaluation against the results)");
            k
        }
    };
    if args.balance_winners {
        eprintln!("{}", balance_winners(&mut train, training_games));
    }
    for s in train.iter_mut().chain(held.iter_mut()) {
        s.target = mix(s.target, s.hand, k, args.result_weight);
    }
    // `mix` needs the search score: it was parked in `hand` only for the positions that had
    // one; restore the real hand evaluation.
    for s in train.iter_mut().chain(held.iter_mut()) {
        s.hand = value_of(s, &params);
    }
    let mut policy = vec![0.0f64; 2 * 2 * CODES];
    let start = match &args.init {
        Some(path) => {
            let w = read_weights(path, rule)?;
            data_lines.push_str(&format!(
                "init={}: fnv1a {:016x}\n",
                file_name(path),
                w.checksum()
            ));
            (params, policy) = params_of(&w, rule);
            file_name(path)
        }
        None => "hand".to_string(),
    };
    let before = (loss(&train, &params, k), loss(&held, &params, k));
    let result_before = loss_against(&held, &params, k, |s| s.result);
    fit_value(&train, &mut params, k, &args);
    let after = (loss(&train, &params, k), loss(&held, &params, k));
    let result_after = loss_against(&held, &params, k, |s| s.result);
    println!(
        "value loss (cross-entropy vs the mixed target), {start} -> learned: training {:.5} -> {:.5}, held-out {:.5} -> {:.5}",
        before.0, after.0, before.1, after.1
    );
    println!(
        "held-out loss vs the game results alone (comparable across --result-weight): {start} {result_before:.5} -> learned {result_after:.5}"
    );
    if args.data.len() > 1 {
        // Per file, so that a window of generations and the newest alone can be compared on
        // the same held-out games (the split depends on the job number only).
        for (file, path) in args.data.iter().enumerate() {
            let part: Vec<&Sample> = held.iter().filter(|s| s.file == file).collect();
            let l = |params: &[f64]| {
                part.iter()
                    .map(|s| xent(sigmoid(value_of(s, params) / k), s.result))
                    .sum::<f64>()
                    / part.len().max(1) as f64
            };
            println!(
                "  held-out of {} ({} positions) vs the results: hand {:.5} -> learned {:.5}",
                file_name(path),
                part.len(),
                l(&hand_params()),
                l(&params)
            );
        }
    }
    fit_policy(&train, &mut policy, args.policy_epochs);
    let (hand_top1, learned_top1) = top1(&held, &policy);
    println!(
        "held-out policy scores (logits x 100; the search's thresholds read these units), {}",
        policy_spread(&held, &policy)
    );
    println!(
        "held-out measures, {}",
        measures(&held, &params, &policy, k)
    );
    for path in &args.compare {
        let (old_params, old_policy) = params_of(&read_weights(path, rule)?, rule);
        println!(
            "{} on the same held-out positions: value loss {:.5} (vs results {:.5}), top-1 {:.1}%",
            file_name(path),
            loss(&held, &old_params, k),
            loss_against(&held, &old_params, k, |s| s.result),
            100.0 * top1(&held, &old_policy).1
        );
        println!(
            "{} held-out measures, {}",
            file_name(path),
            measures(&held, &old_params, &old_policy, k)
        );
        println!(
            "{} held-out policy scores, {}",
            file_name(path),
            policy_spread(&held, &old_policy)
        );
    }
    println!(
        "move prediction on held-out positions (top-1 against the search's move): hand line values {:.1}%, learned policy {:.1}%",
        100.0 * hand_top1,
        100.0 * learned_top1
    );

    let provenance = format!(
        "rule={}\ncommand={command}\n{data_lines}seed={}\ngames={games}\npositions={}\nheld_out={}\ndate={}\nk={k:.1}\nvalue_loss_held_out={:.5} ({start} {:.5})\nresult_loss_held_out={:.5} ({start} {:.5})\npolicy_top1_held_out={:.3} (hand {:.3})\n",
        rule.name(),
        args.split.seed,
        train.len(),
        held.len(),
        utc_now(),
        after.1,
        before.1,
        result_after,
        result_before,
        learned_top1,
        hand_top1
    );
    let w = weights_of(&params, &policy, rule, provenance);
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&args.out, w.to_bytes())
        .with_context(|| format!("writing {}", args.out.display()))?;
    println!("wrote {} (fnv1a {:016x})", args.out.display(), w.checksum());
    Ok(())
}

/// The weights file of fitted value parameters and policy (rounded to the stored integers).
fn weights_of(params: &[f64], policy: &[f64], rule: Rule, provenance: String) -> Weights {
    let mut tables = vec![[[0i16; CODES]; 4]; 2];
    let threat = [0, 1].map(|c| {
        let s = if rule == Rule::Renju { c } else { 0 };
        (0..THREAT_MASKS)
            .map(|m| to_i16(params[threat_feature(s, m)]))
            .collect::<Vec<i16>>()
    });
    let joint = [0, 1].map(|c| {
        let s = if rule == Rule::Renju { c } else { 0 };
        (0..JOINT)
            .map(|j| to_i16(params[JOINT_AT + s * JOINT + j]))
            .collect::<Vec<i16>>()
    });
    for (c, colour) in tables.iter_mut().enumerate() {
        let s = if rule == Rule::Renju { c } else { 0 };
        for code in 0..CODES {
            for t in [VALUE_MINE, VALUE_THEIRS] {
                colour[t][code] = to_i16(params[feature(s, t, code)]);
            }
            for (t, i) in [(POLICY_ATTACK, 0), (POLICY_DEFEND, 1)] {
                colour[t][code] = to_i16(100.0 * policy[(s * 2 + i) * CODES + code]);
            }
        }
    }
    Weights {
        provenance,
        tables,
        bias: [
            params[BIAS_AT].round() as i32,
            params[BIAS_AT + 1].round() as i32,
        ],
        threat,
        joint,
    }
}

fn to_i16(v: f64) -> i16 {
    v.round().clamp(-32000.0, 32000.0) as i16
}

/// The features of the position on `b` whose searched move was `played`, or `None` when the
/// static evaluation never sees it (a five to make or to block, an open four to make).
fn sample(
    b: &Board,
    played: crate::rules::Pos,
    score: Score,
    outcome: Outcome,
    slot: &dyn Fn(Color) -> usize,
) -> Option<Sample> {
    let pb = PatternBoard::new(b);
    let me = b.to_move();
    let op = me.opponent();
    if pb.count(me, P4_FIVE) > 0 || pb.count(op, P4_FIVE) > 0 || pb.count(me, P4_FLEX4) > 0 {
        return None;
    }
    let mut counts = std::collections::BTreeMap::<u16, u16>::new();
    let mut policy = Vec::new();
    let mut hand_best = (i32::MIN, false);
    for p in b.empty_points() {
        let (cm, co) = (canonical(pb.code(me, p)), canonical(pb.code(op, p)));
        *counts
            .entry(feature(slot(me), VALUE_MINE, cm) as u16)
            .or_default() += 1;
        *counts
            .entry(feature(slot(op), VALUE_THEIRS, co) as u16)
            .or_default() += 1;
        let joint = pb.eval_level(me, p) as usize * 16 + pb.eval_level(op, p) as usize;
        *counts
            .entry((JOINT_AT + slot(me) * JOINT + joint) as u16)
            .or_default() += 1;
        if pb.is_near(p) && b.check(p).is_ok() {
            let f = (
                ((slot(me) * 2) * CODES + cm) as u16,
                ((slot(me) * 2 + 1) * CODES + co) as u16,
            );
            let hv = pb.cell_value(me, p) + pb.cell_value(op, p);
            if hv > hand_best.0 {
                hand_best = (hv, p == played);
            }
            if p == played {
                policy.insert(0, f);
            } else {
                policy.push(f);
            }
        }
    }
    if !pb.board().is_empty(played) || policy.is_empty() {
        return None;
    }
    let played_is_candidate = pb.is_near(played);
    let result = outcome.score_for(me) as f64;
    // The target is finished in `run_train` once K is known; the search's score waits in
    // `hand` until then (NaN: none).
    let (target, parked) = match score {
        Score::Mate(n) => (if n > 0 { 1.0 } else { 0.0 }, f64::NAN),
        Score::Eval(v) => (result, v as f64),
        Score::Unknown => (result, f64::NAN),
    };
    Some(Sample {
        value: counts.into_iter().collect(),
        threat: threat_feature(slot(me), pb.threat_mask()),
        hand: parked,
        mover: me.index(),
        target,
        result: target,
        file: 0,
        outcome,
        weight: 1.0,
        balanced: false,
        decided: false,
        policy: if played_is_candidate {
            policy
        } else {
            Vec::new()
        },
        hand_top1: hand_best.1,
    })
}

/// Weights the positions of games black won and of games white won (`games`: how many
/// games ended each way, in [`Outcome::index`] order) so that each colour's won games weigh as
/// much as the other's, a game weighing what its positions do (a colour that wins quickly
/// has fewer positions per game and so weighs less than its share of games even so); draws
/// keep weight 1. Says what it did.
fn balance_winners(data: &mut [Sample], games: [usize; 3]) -> String {
    let [black, white, _] = games.map(|n| n as f64);
    if black == 0.0 || white == 0.0 {
        return format!(
            "--balance-winners: training games won by black {black}, by white {white}: one colour never won, weights left at 1"
        );
    }
    let half = (black + white) / 2.0;
    let weight = [half / black, half / white, 1.0];
    let (wb, ww) = (weight[0], weight[1]);
    for s in data.iter_mut() {
        s.weight = weight[s.outcome.index()];
    }
    format!(
        "--balance-winners: training games won by black {black} (weight {wb:.3}), by white {white} (weight {ww:.3})"
    )
}

/// The value target: a game result mixed with the search's score (when there is one).
fn mix(result: f64, score: f64, k: f64, result_weight: f64) -> f64 {
    if score.is_nan() {
        result
    } else {
        result_weight * result + (1.0 - result_weight) * sigmoid(score / k)
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The hand tables as parameters: `mine` = the code's line-value sum, `theirs` = its negation,
/// biases 0, the threat tables the hand threat terms.
fn hand_params() -> Vec<f64> {
    let mut p = vec![0.0; VALUE_PARAMS];
    for slot in 0..2 {
        for code in 0..CODES {
            let v: i32 = patterns_of(code).iter().map(|&q| PATTERN_VALUE[q]).sum();
            p[feature(slot, VALUE_MINE, code)] = v as f64;
            p[feature(slot, VALUE_THEIRS, code)] = -v as f64;
        }
        for m in 0..THREAT_MASKS {
            p[threat_feature(slot, m)] = hand_threat(m) as f64;
        }
    }
    p
}

fn value_of(s: &Sample, params: &[f64]) -> f64 {
    params[BIAS_AT + s.mover]
        + params[s.threat]
        + s.value
            .iter()
            .map(|&(f, n)| params[f as usize] * n as f64)
            .sum::<f64>()
}

/// Mean cross-entropy of `sigmoid(value / k)` against the targets.
fn loss(data: &[Sample], params: &[f64], k: f64) -> f64 {
    loss_against(data, params, k, |s| s.target)
}

/// Mean cross-entropy of `sigmoid(value / k)` against `target` of each sample.
fn loss_against(data: &[Sample], params: &[f64], k: f64, target: impl Fn(&Sample) -> f64) -> f64 {
    let total: f64 = data
        .iter()
        .map(|s| xent(sigmoid(value_of(s, params) / k), target(s)))
        .sum();
    total / data.len() as f64
}

/// Cross-entropy of probability `p` against target `t`.
fn xent(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The K that fits the hand evaluation best to the game results (golden-section search).
fn fit_k(data: &[Sample], params: &[f64]) -> f64 {
    let values: Vec<f64> = data.iter().map(|s| value_of(s, params)).collect();
    let f = |k: f64| -> f64 {
        data.iter()
            .zip(&values)
            .map(|(s, &v)| xent(sigmoid(v / k), s.target))
            .sum()
    };
    let (mut a, mut b) = (10.0f64, 5000.0f64);
    let g = 0.618_033_988_75;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Full-batch Adam over the value tables and biases.
fn fit_value(data: &[Sample], params: &mut [f64], k: f64, args: &TrainArgs) {
    let init = params.to_vec();
    let n = params.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, lr) = (0.9, 0.999, 1.0);
    // The weights sum to the number of positions when every position counts once.
    let scale = 1.0 / data.iter().map(|s| s.weight).sum::<f64>();
    for step in 1..=args.epochs {
        let mut grad = vec![0.0; n];
        for s in data {
            let p = sigmoid(value_of(s, params) / k);
            let d = (p - s.target) / k * s.weight * scale;
            for &(f, c) in &s.value {
                grad[f as usize] += d * c as f64;
            }
            grad[BIAS_AT + s.mover] += d;
            grad[s.threat] += d;
        }
        for i in 0..n {
            let g = grad[i] + 2.0 * args.l2 * (params[i] - init[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(step as i32));
            let vh = v[i] / (1.0 - b2.powi(step as i32));
            let frozen = args.cells_only && i >= THREAT_AT;
            if !frozen && (grad[i] != 0.0 || params[i] != init[i]) {
                params[i] -= lr * mh / (vh.sqrt() + 1e-12);
            }
        }
        if step % 50 == 0 {
            log::info!(
                "value step {step}: training loss {:.5}",
                loss(data, params, k)
            );
        }
    }
}

/// Full-batch Adam over the policy tables (softmax cross-entropy, played move first).
fn fit_policy(data: &[Sample], policy: &mut [f64], epochs: usize) {
    let n = policy.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, lr) = (0.9, 0.999, 0.05);
    let used: Vec<&Sample> = data.iter().filter(|s| !s.policy.is_empty()).collect();
    let scale = 1.0 / used.len().max(1) as f64;
    let mut probs = Vec::new();
    for step in 1..=epochs {
        let mut grad = vec![0.0; n];
        for s in &used {
            probs.clear();
            probs.extend(
                s.policy
                    .iter()
                    .map(|&(a, d)| policy[a as usize] + policy[d as usize]),
            );
            let top = probs.iter().cloned().fold(f64::MIN, f64::max);
            let z: f64 = probs.iter().map(|x| (x - top).exp()).sum();
            for (i, &(a, d)) in s.policy.iter().enumerate() {
                let p = (probs[i] - top).exp() / z;
                let g = (p - if i == 0 { 1.0 } else { 0.0 }) * scale;
                grad[a as usize] += g;
                grad[d as usize] += g;
            }
        }
        for i in 0..n {
            let g = grad[i];
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(step as i32));
            let vh = v[i] / (1.0 - b2.powi(step as i32));
            policy[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
    }
}

/// A weights file of `rule`, checked.
fn read_weights(path: &std::path::Path, rule: Rule) -> anyhow::Result<Weights> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    crate::eval::gomoku::learned::check(&bytes, rule)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// A weights file's tables as the trainer's value parameters and policy.
fn params_of(w: &Weights, rule: Rule) -> (Vec<f64>, Vec<f64>) {
    let mut params = vec![0.0; VALUE_PARAMS];
    let mut policy = vec![0.0; 2 * 2 * CODES];
    let slots = if rule == Rule::Renju { 2 } else { 1 };
    for s in 0..slots {
        for code in 0..CODES {
            for t in [VALUE_MINE, VALUE_THEIRS] {
                params[feature(s, t, code)] = w.tables[s][t][code] as f64;
            }
            for (t, i) in [(POLICY_ATTACK, 0), (POLICY_DEFEND, 1)] {
                policy[(s * 2 + i) * CODES + code] = w.tables[s][t][code] as f64 / 100.0;
            }
        }
    }
    params[BIAS_AT] = w.bias[0] as f64;
    params[BIAS_AT + 1] = w.bias[1] as f64;
    for s in 0..slots {
        for (m, &v) in w.threat[s].iter().enumerate() {
            params[threat_feature(s, m)] = v as f64;
        }
        for (j, &v) in w.joint[s].iter().enumerate() {
            params[JOINT_AT + s * JOINT + j] = v as f64;
        }
    }
    (params, policy)
}

/// The held-out figures that speak for play in a balanced match (the SPRT's games), beside
/// the loss over all held-out positions, which the unbalanced self-play openings (three
/// games in four won by black) and forced endings dominate: the loss against the results on
/// the positions of balanced games before the search found a forced result, and the top-1
/// there.
fn measures(held: &[Sample], params: &[f64], policy: &[f64], k: f64) -> String {
    let part: Vec<&Sample> = held.iter().filter(|s| s.balanced && !s.decided).collect();
    let n = part.len().max(1) as f64;
    let l = part
        .iter()
        .map(|s| xent(sigmoid(value_of(s, params) / k), s.result))
        .sum::<f64>()
        / n;
    let used: Vec<&&Sample> = part.iter().filter(|s| !s.policy.is_empty()).collect();
    let score = |&(a, d): &(u16, u16)| policy[a as usize] + policy[d as usize];
    let hits = used
        .iter()
        .filter(|s| {
            let first = score(&s.policy[0]);
            s.policy[1..].iter().all(|f| score(f) < first)
        })
        .count();
    // The search's margins are absolute evaluation units: a table whose values spread less
    // (or more) than the previous generation's prunes and reduces differently.
    let spread = part.iter().map(|s| value_of(s, params).abs()).sum::<f64>() / n;
    format!(
        "balanced games before a forced result ({} positions): loss vs results {l:.5}, top-1 {:.1}%, mean |value| {spread:.0}",
        part.len(),
        100.0 * hits as f64 / used.len().max(1) as f64
    )
}

/// Deciles 10, 50 and 90 of the policy score (as stored: logits x 100) of the played moves and
/// of the other candidates on `data`: how the policy's scale moves between generations.
fn policy_spread(data: &[Sample], policy: &[f64]) -> String {
    let (mut played, mut others) = (Vec::new(), Vec::new());
    for s in data.iter().filter(|s| !s.policy.is_empty()) {
        for (i, &(a, d)) in s.policy.iter().enumerate() {
            let v = (100.0 * policy[a as usize]).round() + (100.0 * policy[d as usize]).round();
            if i == 0 {
                played.push(v);
            } else {
                others.push(v);
            }
        }
    }
    let deciles = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let at = |q: usize| {
            v.get(v.len().saturating_sub(1) * q / 100)
                .copied()
                .unwrap_or(0.0)
        };
        format!("{:.0} / {:.0} / {:.0}", at(10), at(50), at(90))
    };
    format!(
        "deciles 10/50/90: played {}, others {}",
        deciles(&mut played),
        deciles(&mut others)
    )
}

/// Top-1 rates on `data` of the hand baseline and of the policy (ties count against).
fn top1(data: &[Sample], policy: &[f64]) -> (f64, f64) {
    let used: Vec<&Sample> = data.iter().filter(|s| !s.policy.is_empty()).collect();
    let hand = used.iter().filter(|s| s.hand_top1).count();
    let learned = used
        .iter()
        .filter(|s| {
            let score = |&(a, d): &(u16, u16)| policy[a as usize] + policy[d as usize];
            let first = score(&s.policy[0]);
            s.policy[1..].iter().all(|f| score(f) < first)
        })
        .count();
    let n = used.len().max(1) as f64;
    (hand as f64 / n, learned as f64 / n)
}

/// The current UTC date and time, ISO 8601 (civil-from-days; no calendar crate needed).
pub(crate) fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mo = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(mo <= 2);
    format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sente train`'s defaults for freestyle, `epochs` steps of both fits, half the games
    /// held out.
    fn freestyle_args(
        data: Vec<PathBuf>,
        out: PathBuf,
        epochs: usize,
        init: Option<PathBuf>,
    ) -> TrainArgs {
        TrainArgs {
            data,
            rule: "freestyle".into(),
            out,
            split: HoldoutSplit {
                seed: 1,
                holdout: 2,
            },
            epochs,
            policy_epochs: epochs,
            result_weight: 0.5,
            l2: 1e-6,
            cells_only: false,
            compare: Vec::new(),
            split_by: SplitBy::Opening,
            k: None,
            init,
            balance_winners: false,
        }
    }

    /// A position of a game ending `outcome`, with no features.
    fn bare(outcome: Outcome) -> Sample {
        Sample {
            value: Vec::new(),
            threat: 0,
            hand: 0.0,
            mover: 0,
            target: 0.5,
            result: 0.5,
            file: 0,
            outcome,
            weight: 1.0,
            balanced: false,
            decided: false,
            policy: Vec::new(),
            hand_top1: false,
        }
    }

    #[test]
    fn balanced_winners_weigh_alike_per_game() {
        // Three games black won (6 positions), one white won (2), a draw (1).
        let mut data: Vec<Sample> = [
            (Outcome::Win(Color::Black), 6),
            (Outcome::Win(Color::White), 2),
            (Outcome::Draw, 1),
        ]
        .iter()
        .flat_map(|&(o, n)| (0..n).map(move |_| bare(o)))
        .collect();
        balance_winners(&mut data, [3, 1, 1]);
        let weight = |o: Outcome| data.iter().find(|s| s.outcome == o).unwrap().weight;
        // Each colour's games together weigh what two unweighted games would.
        assert!((weight(Outcome::Win(Color::Black)) * 3.0 - 2.0).abs() < 1e-12);
        assert!((weight(Outcome::Win(Color::White)) * 1.0 - 2.0).abs() < 1e-12);
        assert_eq!(weight(Outcome::Draw), 1.0);
        // One colour never won: nothing to balance against, weights stay 1.
        let mut one_sided: Vec<Sample> = (0..3).map(|_| bare(Outcome::Win(Color::Black))).collect();
        let said = balance_winners(&mut one_sided, [3, 0, 0]);
        assert!(one_sided.iter().all(|s| s.weight == 1.0), "{said}");
    }

    #[test]
    fn balanced_winners_pull_the_mover_bias_to_even() {
        // Black to move in every position; black won three games, white one.
        let data = |balance: bool| {
            let mut d: Vec<Sample> = [
                Outcome::Win(Color::Black),
                Outcome::Win(Color::Black),
                Outcome::Win(Color::Black),
                Outcome::Win(Color::White),
            ]
            .iter()
            .map(|&o| Sample {
                target: o.score_for(Color::Black) as f64,
                ..bare(o)
            })
            .collect();
            if balance {
                balance_winners(&mut d, [3, 1, 0]);
            }
            d
        };
        let args = TrainArgs {
            epochs: 300,
            result_weight: 1.0,
            l2: 0.0,
            ..freestyle_args(Vec::new(), PathBuf::new(), 0, None)
        };
        // The value the fit gives these positions (bias and threat entry share it).
        let value = |balance: bool| {
            let mut params = vec![0.0; VALUE_PARAMS];
            fit_value(&data(balance), &mut params, 100.0, &args);
            value_of(&bare(Outcome::Draw), &params)
        };
        // Unweighted, black wins 3 in 4: the value learns logit(0.75) (110 at K = 100).
        assert!(
            (value(false) - 100.0 * 3f64.ln()).abs() < 5.0,
            "{}",
            value(false)
        );
        // Each colour's wins weighing alike: even.
        assert!(value(true).abs() < 5.0, "{}", value(true));
    }

    #[test]
    fn a_fit_from_init_starts_at_that_files_tables_and_names_it() {
        let dir = std::env::temp_dir().join(format!("sente-train-init-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("games.txt");
        crate::selfplay::run_selfplay(crate::selfplay::SelfplayArgs {
            out: data.clone(),
            rule: "freestyle".into(),
            size: 15,
            games: 12,
            nodes: 300,
            level: "strong".into(),
            seed: 3,
            stones: "2-4".into(),
            shard: "1/1".parse().unwrap(),
            balance: None,
            jitter: 0,
        })
        .unwrap();
        let init = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/freestyle.sw");
        let out = dir.join("out.sw");
        let args = |epochs, init: Option<PathBuf>| TrainArgs {
            k: Some(313.2),
            ..freestyle_args(vec![data.clone()], out.clone(), epochs, init)
        };
        let read = || read_weights(&out, Rule::Freestyle).unwrap();
        // No steps: the init file's tables come out as they went in.
        run_train(args(0, Some(init.clone()))).unwrap();
        let old = read_weights(&init, Rule::Freestyle).unwrap();
        let kept = read();
        assert_eq!(kept.tables, old.tables);
        assert_eq!(
            (&kept.bias, &kept.threat, &kept.joint),
            (&old.bias, &old.threat, &old.joint)
        );
        assert!(kept.provenance.contains(" --init freestyle.sw"));
        assert!(kept
            .provenance
            .contains(&format!("init=freestyle.sw: fnv1a {:016x}", old.checksum())));
        // From the hand values instead, no steps: other tables.
        run_train(args(0, None)).unwrap();
        assert_ne!(read().tables, old.tables);
        // Steps from the init move the tables, but not far on a dozen games.
        run_train(args(20, Some(init.clone()))).unwrap();
        let moved = read();
        assert_ne!(moved.tables, old.tables);
        let drift = moved.tables[0][VALUE_MINE]
            .iter()
            .zip(old.tables[0][VALUE_MINE].iter())
            .map(|(a, b)| (*a as i32 - *b as i32).abs())
            .max()
            .unwrap();
        assert!(drift <= 25, "a value moved by {drift} in 20 steps");
        // The weighing is named in the provenance (what it does: `balanced_winners_...`).
        run_train(TrainArgs {
            balance_winners: true,
            ..args(20, Some(init.clone()))
        })
        .unwrap();
        let balanced = read();
        assert!(balanced.provenance.contains(" --balance-winners"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn hand_parameters_reproduce_the_hand_evaluation() {
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let mut b2 = b.clone();
        for (x, y) in [(7, 7), (8, 8), (7, 8), (6, 6), (9, 7)] {
            b2.play(b2.pos(x, y).unwrap()).unwrap();
        }
        let p = b2.pos(7, 6).unwrap();
        let s = sample(&b2, p, Score::Eval(0), Outcome::Draw, &|_| 0).unwrap();
        let hand = PatternBoard::new(&b2).evaluate() as f64;
        assert_eq!(value_of(&s, &hand_params()), hand);
        assert!(s.policy.len() > 5);
    }

    /// The run-time evaluation with fitted tables (cell, threat and joint tables, kept
    /// incrementally on play and undo) is exactly the trainer's value of the same parameters.
    #[test]
    fn learned_tables_evaluate_as_the_trainer_values_them() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let slot = |c: Color| if rule == Rule::Renju { c.index() } else { 0 };
            let mut h = 7u64;
            let mut params = hand_params();
            for v in params.iter_mut() {
                *v = (*v + (splitmix64(&mut h) % 401) as f64 - 200.0).round();
            }
            let policy = vec![0.0; 2 * 2 * CODES];
            let w = weights_of(&params, &policy, rule, format!("rule={}\n", rule.name()));
            let tables: &'static crate::eval::gomoku::learned::ValueTables =
                Box::leak(Box::new(crate::eval::gomoku::learned::ValueTables::new(&w)));
            let mut pb = PatternBoard::new(&Board::new(15, 15, rule).unwrap());
            pb.set_learned(Some(tables));
            let mut compared = 0;
            let mut threats = 0;
            for game in 0..6 {
                let centre = pb.board().centre();
                pb.play(centre);
                while !pb.board().is_over() {
                    let b = pb.board();
                    let moves: Vec<_> = b
                        .empty_points()
                        .filter(|&p| pb.is_near(p) && b.check(p).is_ok())
                        .collect();
                    if moves.is_empty() {
                        break;
                    }
                    let p = moves[(splitmix64(&mut h) % moves.len() as u64) as usize];
                    if let Some(s) = sample(b, p, Score::Eval(0), Outcome::Draw, &slot) {
                        assert_eq!(pb.evaluate() as f64, value_of(&s, &params), "game {game}");
                        compared += 1;
                        threats += usize::from(pb.threat_mask() != 0);
                    }
                    pb.play(p);
                    pb.validate();
                }
                while pb.board().stones() > 0 {
                    pb.undo();
                }
                pb.validate();
            }
            assert!(
                compared > 50 && threats > 10,
                "{compared} positions, {threats} with threats"
            );
        }
    }

    #[test]
    fn opening_keys_are_the_stones_of_each_colour() {
        let a = [(7, 7), (8, 8), (6, 7), (9, 9)];
        // The same stones of each colour in another order: the same position.
        assert_eq!(
            opening_key(&a),
            opening_key(&[(6, 7), (9, 9), (7, 7), (8, 8)])
        );
        // The colours swapped: another position.
        assert_ne!(
            opening_key(&a),
            opening_key(&[(8, 8), (7, 7), (9, 9), (6, 7)])
        );
        assert_ne!(opening_key(&a), opening_key(&a[..3]));
    }

    #[test]
    fn utc_dates_are_iso() {
        let d = utc_now();
        assert_eq!(d.len(), 20, "{d}");
        assert!(d.starts_with("20") && d.ends_with('Z'));
    }
}
