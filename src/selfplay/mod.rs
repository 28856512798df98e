//! `sente selfplay`: fixed-node games of a gomoku level against itself from seeded balanced
//! openings, written as training data (format in [`record`]).
//!
//! The schedule is `--games` numbered jobs; job j's opening comes from a generator seeded by
//! (`--seed`, j) alone, so a job plays the same game in any shard and any run (the search is
//! deterministic under a node limit on one thread). `--shard K/N` plays the K-th block of jobs
//! ([`Shard`]): the parts' files concatenate to the whole run's games, none twice. Re-running
//! the same command on an existing file continues it: the jobs already there are skipped and a
//! last line cut short by a crash is dropped first.

pub mod go;
pub mod go_record;
pub mod record;

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{bail, Context};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::arena::balance::{self, Balance, Judge};
use crate::arena::coords::Mv;
use crate::arena::engine::GameSetup;
use crate::arena::manifest::GameName;
use crate::arena::openings::{self, Seen};
use crate::arena::shard::Shard;
use crate::arena::tc::TimeControl;
use crate::players::{gomoku_player, GomokuPlayer, MoveRequest, SearchInfo};
use crate::rules::splitmix::splitmix64;
use crate::rules::{Board, Outcome, Rule};
use crate::search::clock::{SearchLimit, TimeManager};
use record::{GameLine, Score, Searched, MAGIC};

/// `sente selfplay`: options.
#[derive(clap::Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// File the games are appended to (created if missing; an existing one is continued).
    #[arg(long)]
    pub out: PathBuf,
    /// Rule: freestyle, standard, renju, caro (the names `INFO rule` takes).
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Board side.
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u8).range(5..=32))]
    pub size: u8,
    /// Games in the whole schedule (all shards).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// The level that plays both sides (`strong` with the embedded weights, `strong-hand`).
    #[arg(long, default_value = "strong")]
    pub level: String,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stones of a generated opening, MIN-MAX.
    #[arg(long, default_value = "2-4")]
    pub stones: String,
    /// Play only part K of N of the schedule (K/N).
    #[arg(long, default_value = "1/1")]
    pub shard: Shard,
    /// Keep only openings a search of this many nodes scores near even (as `sente match
    /// --balance`): the positions then come from the games a balanced match plays.
    #[arg(long = "balance", value_name = "NODES")]
    pub balance: Option<u64>,
    /// Vary each move's node budget by up to this many percent either way (drawn from the
    /// job's seed): the search at fixed nodes is deterministic, so without it every job that
    /// draws an opening already played repeats that game move for move (balanced runs draw
    /// from few openings: 42% of 10,000 freestyle games were repeats).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=90))]
    pub jitter: u8,
}

/// The settings a file's games depend on, as its header line states them.
fn header(args: &SelfplayArgs, rule: Rule, stones: (usize, usize)) -> String {
    let mut head = format!(
        "{MAGIC} rule={} size={} level={} nodes={} seed={} stones={}-{}",
        rule.name(),
        args.size,
        args.level,
        args.nodes,
        args.seed,
        stones.0,
        stones.1
    );
    // Named only when given, so that the files of unbalanced runs keep their header.
    if let Some(b) = balance_of(args) {
        head += &format!(" balance={}/{}", b.nodes, b.margin);
    }
    if args.jitter > 0 {
        head += &format!(" jitter={}", args.jitter);
    }
    head
}

/// A move's node budget: `nodes` changed by a uniform draw within +-`jitter` percent.
fn jittered(nodes: u64, jitter: u8, rng: &mut ChaCha8Rng) -> u64 {
    if jitter == 0 {
        return nodes;
    }
    let j = jitter as i64;
    let pct = 100 + rng.gen_range(-j..=j);
    (nodes as i64 * pct / 100).max(1) as u64
}

/// The judging settings of `--balance` (the margin is `sente match`'s default).
fn balance_of(args: &SelfplayArgs) -> Option<Balance> {
    args.balance.map(|nodes| Balance {
        nodes,
        margin: balance::DEFAULT_MARGIN,
    })
}

/// Runs `sente selfplay`.
pub fn run_selfplay(args: SelfplayArgs) -> anyhow::Result<()> {
    let rule =
        Rule::from_name(&args.rule).with_context(|| format!("unknown rule {:?}", args.rule))?;
    let stones = parse_min_max("--stones", &args.stones).map_err(anyhow::Error::msg)?;
    if gomoku_player(&args.level, 0).is_none() {
        bail!("unknown level {:?}", args.level);
    }
    let head = header(&args, rule, stones);
    let (mut file, jobs, bar) = open_run(&args.out, &head, MAGIC, args.shard, args.games, |l| {
        GameLine::parse(l).map(|g| g.job)
    })?;
    let mut player = gomoku_player(&args.level, args.seed).context("level")?;
    let mut judge = balance_of(&args).map(Judge::new);
    let (mut positions, mut wins) = (0usize, [0usize; 3]);
    for job in jobs {
        let game = play_job(&args, rule, stones, job, player.as_mut(), judge.as_mut())?;
        positions += game.moves.len();
        wins[game.outcome.index()] += 1;
        file.write_all(game.to_line().as_bytes())?;
        file.flush()?;
        bar.inc(1);
        bar.set_message(format!(
            "{positions} positions, B {} W {} D {}",
            wins[0], wins[1], wins[2]
        ));
    }
    bar.finish();
    eprintln!(
        "{}: {positions} new positions (black {} white {} draws {})",
        args.out.display(),
        wins[0],
        wins[1],
        wins[2]
    );
    Ok(())
}

/// Opens a run's output `out` (continuing it: see [`resume`]; a new file gets the header
/// `head`) and returns it, the jobs of `shard` of `games` still to play, and a progress bar
/// already counting the others.
pub(crate) fn open_run(
    out: &Path,
    head: &str,
    magic: &str,
    shard: Shard,
    games: usize,
    job_of: impl Fn(&str) -> Result<usize, String>,
) -> anyhow::Result<(std::fs::File, Vec<usize>, indicatif::ProgressBar)> {
    let done = resume(out, head, magic, job_of)?;
    let jobs: Vec<usize> = shard.range(games).filter(|j| !done.contains(j)).collect();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .with_context(|| format!("opening {}", out.display()))?;
    if std::fs::metadata(out)?.len() == 0 {
        writeln!(file, "{head}")?;
    }
    let total = shard.range(games).len();
    let bar = indicatif::ProgressBar::new(total as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed}<{eta} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_position((total - jobs.len()) as u64);
    Ok((file, jobs, bar))
}

/// `MIN-MAX` (or one number, at most 40) given to option `flag`.
pub(crate) fn parse_min_max(flag: &str, s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{flag} {s:?}: expected MIN-MAX, e.g. 2-4");
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    let (a, b): (usize, usize) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a > b || b > 40 {
        return Err(bad());
    }
    Ok((a, b))
}

/// The jobs already in `path` (missing: none), read from each game line by `job_of`. Checks
/// the file's headers that start with `magic` against `head` and cuts an unterminated last
/// line (a run killed mid-write) off the file.
pub(crate) fn resume(
    path: &Path,
    head: &str,
    magic: &str,
    job_of: impl Fn(&str) -> Result<usize, String>,
) -> anyhow::Result<HashSet<usize>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashSet::new()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    if complete < text.len() {
        log::warn!(
            "{}: dropping an unfinished last line ({} bytes)",
            path.display(),
            text.len() - complete
        );
        let f = std::fs::OpenOptions::new().write(true).open(path)?;
        f.set_len(complete as u64)?;
    }
    let mut done = HashSet::new();
    for (n, line) in text[..complete].lines().enumerate() {
        if line.starts_with('#') {
            if line.starts_with(magic) && line != head {
                bail!(
                    "{} was written with other settings:\n  {line}\nthis run:\n  {head}",
                    path.display()
                );
            }
            continue;
        }
        let job =
            job_of(line).map_err(|e| anyhow::anyhow!("{} line {}: {e}", path.display(), n + 1))?;
        done.insert(job);
    }
    Ok(done)
}

/// The seed of job `job`'s opening: a function of the run's seed and the job number only.
pub(crate) fn job_seed(seed: u64, job: usize) -> u64 {
    let mut s = seed ^ (job as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    splitmix64(&mut s)
}

/// Plays job `job`: its opening (the first generated one `judge`, when given, finds balanced),
/// then `player` on both sides at `args.nodes` per move until a five, a full board or no legal
/// move (a draw).
fn play_job(
    args: &SelfplayArgs,
    rule: Rule,
    stones: (usize, usize),
    job: usize,
    player: &mut dyn GomokuPlayer,
    judge: Option<&mut Judge>,
) -> anyhow::Result<GameLine> {
    let size = args.size as usize;
    let setup = GameSetup {
        game: if rule.renju() {
            GameName::Renju
        } else {
            GameName::Gomoku
        },
        rule,
        width: size,
        height: size,
        komi: 0.0,
        handicap: 0,
        tc: TimeControl {
            game_ms: None,
            increment_ms: 0,
            move_ms: None,
        },
    };
    let mut rng = ChaCha8Rng::seed_from_u64(job_seed(args.seed, job));
    let opening = match judge {
        None => openings::generate(&setup, stones, &mut rng),
        // Each job's opening is a function of its own seed (so shards and resumed runs agree):
        // repeats across jobs are not refused here.
        Some(judge) => balance::generate(&setup, stones, &mut rng, judge, &Seen::new(&setup))
            .map(|(moves, _)| moves),
    }
    .with_context(|| {
        format!(
            "no {}-{} stone opening on {size}x{size}{}",
            stones.0,
            stones.1,
            if args.balance.is_some() {
                " near even"
            } else {
                ""
            }
        )
    })?;
    let mut board = Board::new(size, size, rule).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut xy = Vec::with_capacity(opening.len());
    for mv in opening {
        let Mv::At(x, y) = mv else {
            bail!("a pass in a gomoku opening")
        };
        let p = board
            .pos(x as i64, y as i64)
            .context("opening off the board")?;
        board.play(p).map_err(|e| anyhow::anyhow!("opening: {e}"))?;
        xy.push((x, y));
    }
    player.new_game(&board);
    let mut moves = Vec::new();
    let stop = AtomicBool::new(false);
    while !board.is_over() {
        let budget = jittered(args.nodes, args.jitter, &mut rng);
        let tm = TimeManager::new(&SearchLimit::nodes(budget), Instant::now(), &stop);
        let mut last: Option<(i32, Option<i32>)> = None;
        let mut report = |i: &SearchInfo| {
            // Depth 0: the one candidate was answered without a search.
            last = (i.depth > 0).then_some((i.score, i.mate))
        };
        let mut req = MoveRequest {
            tm: &tm,
            nbest: 1,
            excluded: &[],
            report: &mut report,
        };
        // A block of the opponent's five is answered without a search (reported as 0): its
        // score says nothing about the position, so it is recorded as unknown.
        let opponent = board.to_move().opponent();
        let must_block = board.empty_points().any(|q| board.makes_win(q, opponent));
        let Some(p) = player.choose(&board, &mut req) else {
            break;
        };
        let score = match last {
            Some((_, Some(n))) => Score::Mate(n),
            Some((v, None)) if !must_block => Score::Eval(v),
            _ => Score::Unknown,
        };
        board
            .play(p)
            .map_err(|e| anyhow::anyhow!("job {job}: the player chose an illegal move: {e}"))?;
        moves.push(Searched {
            mv: board.xy(p),
            score,
        });
    }
    let outcome = board.winner().map_or(Outcome::Draw, Outcome::Win);
    Ok(GameLine {
        job,
        outcome,
        opening: xy,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(out: &Path, games: usize, shard: &str) -> SelfplayArgs {
        SelfplayArgs {
            out: out.to_path_buf(),
            rule: "renju".into(),
            size: 15,
            games,
            nodes: 300,
            level: "strong".into(),
            seed: 5,
            stones: "2-4".into(),
            shard: shard.parse().unwrap(),
            balance: None,
            jitter: 0,
        }
    }

    fn games_of(path: &Path) -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect()
    }

    #[test]
    fn shards_concatenate_to_the_whole_run_and_resume_never_duplicates() {
        let dir = std::env::temp_dir().join(format!("sente-selfplay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let whole = dir.join("whole.txt");
        let _ = std::fs::remove_file(&whole);
        run_selfplay(args(&whole, 5, "1/1")).unwrap();
        let all = games_of(&whole);
        assert_eq!(all.len(), 5);
        // Each game replays under the rules and ends as recorded.
        for line in &all {
            let g = GameLine::parse(line).unwrap();
            let mut b = Board::new(15, 15, Rule::Renju).unwrap();
            g.replay(&mut b, &mut |_, _, _| {}).unwrap();
            assert_eq!(b.winner(), g.outcome.winner());
        }
        // Two shards, the second cut mid-line and resumed.
        let mut parts = Vec::new();
        for k in 1..=2 {
            let part = dir.join(format!("part{k}.txt"));
            let _ = std::fs::remove_file(&part);
            run_selfplay(args(&part, 5, &format!("{k}/2"))).unwrap();
            parts.extend(games_of(&part));
            if k == 2 {
                let text = std::fs::read_to_string(&part).unwrap();
                let cut = text.trim_end().rfind('\n').unwrap() + 10;
                std::fs::write(&part, &text[..cut]).unwrap();
                run_selfplay(args(&part, 5, "2/2")).unwrap();
                run_selfplay(args(&part, 5, "2/2")).unwrap();
                let again = games_of(&part);
                assert_eq!(again.len(), 3, "resumed part holds each of its jobs once");
            }
        }
        parts.sort();
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(parts, sorted, "the parts are the whole run's games");
        // Other settings on the same file are refused.
        let mut other = args(&whole, 5, "1/1");
        other.nodes = 301;
        assert!(run_selfplay(other).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn balanced_runs_play_only_openings_the_judge_finds_near_even() {
        let out =
            std::env::temp_dir().join(format!("sente-selfplay-bal-{}.txt", std::process::id()));
        let _ = std::fs::remove_file(&out);
        let mut a = args(&out, 2, "1/1");
        a.rule = "freestyle".into();
        a.balance = Some(400);
        run_selfplay(a.clone()).unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.starts_with(&format!("{MAGIC} rule=freestyle")));
        assert!(text.lines().next().unwrap().ends_with(" balance=400/100"));
        let setup = GameSetup {
            game: GameName::Gomoku,
            rule: Rule::Freestyle,
            width: 15,
            height: 15,
            komi: 0.0,
            handicap: 0,
            tc: TimeControl {
                game_ms: None,
                increment_ms: 0,
                move_ms: None,
            },
        };
        let mut judge = Judge::new(balance_of(&a).unwrap());
        let games = games_of(&out);
        assert_eq!(games.len(), 2);
        for line in &games {
            let g = GameLine::parse(line).unwrap();
            let moves: Vec<Mv> = g.opening.iter().map(|&(x, y)| Mv::At(x, y)).collect();
            let score = judge.score(&setup, &moves).expect("a judged opening");
            assert!(judge.accepts(score), "{line}: {score}");
        }
        // The same file without --balance is another run's: refused.
        a.balance = None;
        assert!(run_selfplay(a).is_err());
        std::fs::remove_file(&out).unwrap();
    }

    #[test]
    fn jitter_varies_the_budgets_within_bounds_and_changes_the_games() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let budgets: Vec<u64> = (0..200).map(|_| jittered(1000, 30, &mut rng)).collect();
        assert!(budgets.iter().all(|&b| (700..=1300).contains(&b)));
        assert!(budgets.iter().any(|&b| b < 900) && budgets.iter().any(|&b| b > 1100));
        assert_eq!(jittered(1000, 0, &mut rng), 1000);
        // The same jobs (same openings) with and without jitter: other games (a short forced
        // game may come out the same, so several jobs), and the header names the setting so
        // the two runs never share a file.
        let mut a = args(Path::new("unused"), 1, "1/1");
        let mut player = gomoku_player(&a.level, a.seed).unwrap();
        let mut play_jobs = |a: &SelfplayArgs| -> Vec<GameLine> {
            (4..10)
                .map(|job| play_job(a, Rule::Renju, (2, 4), job, player.as_mut(), None).unwrap())
                .collect()
        };
        let plain = play_jobs(&a);
        a.jitter = 50;
        let varied = play_jobs(&a);
        let pairs = || plain.iter().zip(&varied);
        assert!(pairs().all(|(p, v)| p.opening == v.opening));
        let changed = pairs().filter(|(p, v)| p.moves != v.moves).count();
        assert!(changed >= 2, "jitter changed too few of the games");
        let moves = |games: &[GameLine]| games.iter().map(|g| g.moves.clone()).collect::<Vec<_>>();
        assert_eq!(
            moves(&varied),
            moves(&play_jobs(&a)),
            "jitter is drawn from the job's seed"
        );
        assert!(header(&a, Rule::Renju, (2, 4)).ends_with(" jitter=50"));
    }

    #[test]
    fn bad_options_are_refused() {
        let out = std::env::temp_dir().join("sente-selfplay-never-written.txt");
        let mut a = args(&out, 1, "1/1");
        a.rule = "nosuch".into();
        assert!(run_selfplay(a).is_err());
        let mut a = args(&out, 1, "1/1");
        a.level = "nosuch".into();
        assert!(run_selfplay(a).is_err());
        for bad in ["", "4-2", "a-b", "1-99"] {
            assert!(parse_min_max("--stones", bad).is_err(), "{bad}");
        }
        assert_eq!(parse_min_max("--stones", "3").unwrap(), (3, 3));
        assert!(!out.exists());
    }
}
