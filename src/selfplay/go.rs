//! `sente go-data`: an engine plays itself from seeded random openings, and every move it
//! chooses becomes a training target for the Go move priors (format in [`super::go_record`]).
//! Two engines: GNU Go over GTP (`--engine gnugo`, the default), and sente's own `mcts` at
//! `--playouts` a move (`--engine sente`), whose moves carry the search's visit counts: the
//! trainer fits those (expert iteration: the search improves on the priors, the priors learn
//! what the search found).
//!
//! Job j of the schedule draws its opening (a few random stones away from the edge, colours
//! alternating) from a generator seeded by (`--seed`, j) alone and seeds the engine (GNU Go's
//! `set_random_seed`, sente's search) from the same pair, so a job plays the same game in any
//! shard and any run. One GNU Go process plays both colours and is restarted after a crash or
//! a hang (the job is then skipped and a rerun plays it). Re-running the same command on an
//! existing file continues it, as `sente selfplay` does.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::go_record::{GoGameLine, Vertex, Visits, GO_MAGIC};
use super::{job_seed, open_run, parse_min_max};
use crate::arena::gtp::gtp_random_seed;
use crate::arena::manifest::CommandLine;
use crate::arena::process::Process;
use crate::arena::shard::Shard;
use crate::players::go::{go_player, GoRequest};
use crate::players::player::Decision;
use crate::rules::go::{margin_text, GoGame, GoMove, GoRules};
use crate::rules::notation::{gtp_point_name, parse_gtp_point};
use crate::rules::Color;
use crate::search::clock::{SearchLimit, TimeManager};
use crate::search::mcts::Candidate;
use crate::search::move_filter::NO_FILTER;

/// `sente go-data`: options.
#[derive(clap::Args, Debug, Clone)]
pub struct GoDataArgs {
    /// File the games are appended to (created if missing; an existing one is continued).
    #[arg(long)]
    pub out: PathBuf,
    /// Board side.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u8).range(5..=19))]
    pub size: u8,
    /// Games in the whole schedule (all shards).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Seed of the openings and of GNU Go.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random opening moves, MIN-MAX (drawn uniformly; the stones avoid the first two lines).
    #[arg(long, default_value = "2-6")]
    pub random: String,
    /// The engine that plays the games: gnugo, or sente (its `mcts` at --playouts a move,
    /// recording each move's visit counts).
    #[arg(long, default_value = "gnugo", value_parser = ["gnugo", "sente"])]
    pub engine: String,
    /// sente's playouts a move (`--engine sente`).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: u64,
    /// The GNU Go executable.
    #[arg(long, default_value = "/usr/games/gnugo")]
    pub gnugo: PathBuf,
    /// GNU Go's level (its effort per move; it keeps no clock).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(0..=10))]
    pub level: u8,
    /// Komi.
    #[arg(long, default_value_t = 7.5)]
    pub komi: f32,
    /// Play only part K of N of the schedule (K/N).
    #[arg(long, default_value = "1/1")]
    pub shard: Shard,
}

/// Longest wait for one GNU Go reply before it counts as hung.
const REPLY_TIMEOUT: Duration = Duration::from_secs(300);

/// Most root moves a recorded move's visits list.
const VISITS_LISTED: usize = 16;

/// The settings a file's games depend on, as its header line states them.
fn header(args: &GoDataArgs, random: (usize, usize)) -> String {
    let engine = if sente_plays(args) {
        format!("engine=sente playouts={}", args.playouts)
    } else {
        format!("engine=gnugo level={}", args.level)
    };
    format!(
        "{GO_MAGIC} size={} komi={} {engine} seed={} random={}-{}",
        args.size, args.komi, args.seed, random.0, random.1
    )
}

fn sente_plays(args: &GoDataArgs) -> bool {
    args.engine == "sente"
}

/// Runs `sente go-data`.
pub fn run_go_data(args: GoDataArgs) -> anyhow::Result<()> {
    let random = parse_min_max("--random", &args.random).map_err(anyhow::Error::msg)?;
    let head = header(&args, random);
    let (mut file, jobs, bar) =
        open_run(&args.out, &head, GO_MAGIC, args.shard, args.games, |l| {
            GoGameLine::parse(l).map(|g| g.job)
        })?;
    let mut gnugo: Option<Gtp> = None;
    let (mut positions, mut failed) = (0usize, 0usize);
    for job in jobs {
        let played = if sente_plays(&args) {
            play_job_sente(&args, random, job)
        } else {
            let engine = match gnugo.as_mut() {
                Some(e) => e,
                None => gnugo.insert(Gtp::start(&args)?),
            };
            play_job(&args, random, job, engine)
        };
        match played {
            Ok(game) => {
                positions += game.moves.len() - game.random;
                file.write_all(game.to_line().as_bytes())?;
                file.flush()?;
            }
            Err(e) => {
                // The engine may be in any state: start a fresh one for the next job.
                log::warn!("job {job}: {e:#}; skipped (a rerun plays it)");
                if let Some(mut g) = gnugo.take() {
                    g.proc.kill();
                }
                failed += 1;
            }
        }
        bar.inc(1);
        bar.set_message(format!("{positions} positions, {failed} failed"));
    }
    bar.finish();
    if let Some(g) = gnugo {
        g.proc.close(Duration::from_secs(1));
    }
    eprintln!(
        "{}: {positions} new positions, {failed} jobs failed",
        args.out.display()
    );
    Ok(())
}

/// A GNU Go process spoken to in GTP.
struct Gtp {
    proc: Process,
}

impl Gtp {
    fn start(args: &GoDataArgs) -> anyhow::Result<Gtp> {
        let cmd = CommandLine {
            program: args.gnugo.clone(),
            args: [
                "--mode",
                "gtp",
                "--level",
                &args.level.to_string(),
                "--chinese-rules",
                "--positional-superko",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            cwd: None,
        };
        let proc = Process::spawn(&cmd, "gnugo")
            .with_context(|| format!("starting {}", args.gnugo.display()))?;
        Ok(Gtp { proc })
    }

    /// Sends `command` and returns the text of its success reply; a `?` reply is an error.
    fn ask(&mut self, command: &str) -> anyhow::Result<String> {
        self.proc.send(command).context("GNU Go is gone")?;
        let deadline = Instant::now() + REPLY_TIMEOUT;
        let mut reply = String::new();
        loop {
            let line = self
                .proc
                .recv(deadline)
                .map_err(|s| anyhow::anyhow!("no reply to {command:?} ({s:?})"))?;
            let line = line.trim_end();
            if line.is_empty() {
                if reply.is_empty() {
                    continue;
                }
                break;
            }
            if !reply.is_empty() {
                reply.push('\n');
            }
            reply.push_str(line);
        }
        match reply.strip_prefix('=') {
            Some(ok) => Ok(ok.trim().to_string()),
            None => bail!("{command:?} answered {reply:?}"),
        }
    }
}

/// A new game of `args`' size and komi.
fn new_game(args: &GoDataArgs) -> anyhow::Result<GoGame> {
    let size = args.size as usize;
    GoGame::new(
        size,
        size,
        GoRules {
            komi: args.komi,
            ..GoRules::default()
        },
    )
    .map_err(|e| anyhow::anyhow!("{e:?}"))
}

/// Plays job `job`'s random opening (drawn from `rng`) on `game`, telling each move to
/// `tell(colour, x, y)`; the moves played.
fn play_opening(
    game: &mut GoGame,
    random: (usize, usize),
    rng: &mut ChaCha8Rng,
    mut tell: impl FnMut(Color, usize, usize) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<Vertex>> {
    let size = game.board().width();
    let n_random = rng.gen_range(random.0..=random.1);
    let margin = if size >= 9 { 2 } else { 0 };
    let mut moves = Vec::new();
    for _ in 0..n_random {
        let color = game.to_move();
        let candidates: Vec<(usize, usize)> = (margin..size - margin)
            .flat_map(|x| (margin..size - margin).map(move |y| (x, y)))
            .filter(|&(x, y)| {
                game.board()
                    .point(x, y)
                    .is_some_and(|p| game.is_legal(p, color))
            })
            .collect();
        if candidates.is_empty() {
            break;
        }
        let (x, y) = candidates[rng.gen_range(0..candidates.len())];
        let p = game.board().point(x, y).context("opening point")?;
        game.play(GoMove::Play(p), color)
            .map_err(|e| anyhow::anyhow!("opening: {e:?}"))?;
        tell(color, x, y)?;
        moves.push(Some((x, y)));
    }
    Ok(moves)
}

/// Draws job `job`'s opening, then lets GNU Go play both colours until two passes in a row, a
/// resignation or the move cap (four times the board's points).
fn play_job(
    args: &GoDataArgs,
    random: (usize, usize),
    job: usize,
    gnugo: &mut Gtp,
) -> anyhow::Result<GoGameLine> {
    let size = args.size as usize;
    let seed = job_seed(args.seed, job);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = new_game(args)?;
    gnugo.ask(&format!("boardsize {size}"))?;
    gnugo.ask("clear_board")?;
    gnugo.ask(&format!("komi {}", args.komi))?;
    gnugo.ask(&format!("set_random_seed {}", gtp_random_seed(seed)))?;
    let mut moves = play_opening(&mut game, random, &mut rng, |color, x, y| {
        gnugo
            .ask(&format!("play {} {}", color_word(color), vertex(x, y)))
            .map(drop)
    })?;
    let opening = moves.len();
    let cap = 4 * size * size;
    let mut result = "?".to_string();
    while moves.len() < cap {
        let color = game.to_move();
        let reply = gnugo.ask(&format!("genmove {}", color_word(color)))?;
        if reply.eq_ignore_ascii_case("resign") {
            result = resigned(color);
            break;
        }
        let mv = if reply.eq_ignore_ascii_case("pass") {
            None
        } else {
            let (x, y) = parse_gtp_point(&reply)
                .filter(|&(x, y)| x < size && y < size)
                .with_context(|| format!("GNU Go played {reply:?}"))?;
            Some((x, y))
        };
        let gm = match mv {
            None => GoMove::Pass,
            Some((x, y)) => GoMove::Play(game.board().point(x, y).context("off the board")?),
        };
        game.play(gm, color)
            .map_err(|e| anyhow::anyhow!("GNU Go's {reply} is illegal here: {e:?}"))?;
        moves.push(mv);
        if game.consecutive_passes() >= 2 {
            result = gnugo.ask("final_score")?;
            break;
        }
    }
    Ok(GoGameLine {
        job,
        size,
        result,
        random: opening,
        moves,
        visits: Vec::new(),
    })
}

/// Draws job `job`'s opening, then lets sente's `mcts` (seeded by the job, `--playouts` a
/// move, one thread) play both colours, as [`play_job`] does GNU Go, recording each move's
/// root visits. A game ended by two passes is scored by area with every stone on the board
/// alive (sente captures the dead ones before it passes).
fn play_job_sente(
    args: &GoDataArgs,
    random: (usize, usize),
    job: usize,
) -> anyhow::Result<GoGameLine> {
    let size = args.size as usize;
    let seed = job_seed(args.seed, job);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = new_game(args)?;
    let mut moves = play_opening(&mut game, random, &mut rng, |_, _, _| Ok(()))?;
    let opening = moves.len();
    let mut visits = vec![Vec::new(); opening];
    let mut player = go_player("mcts", seed).context("no mcts level")?;
    player.new_game(&game);
    let limit = SearchLimit::nodes(args.playouts);
    let stop = AtomicBool::new(false);
    let cap = 4 * size * size;
    let mut result = "?".to_string();
    while moves.len() < cap {
        let color = game.to_move();
        let mut root: Vec<Candidate<GoMove>> = Vec::new();
        let tm = TimeManager::new(&limit, Instant::now(), &stop);
        let mut req = GoRequest {
            tm: &tm,
            report: &mut |m: &[Candidate<GoMove>], _: Option<&[f32]>| root = m.to_vec(),
            // Only the final report is wanted: the search's own interval never comes first.
            report_every: Some(Duration::from_secs(1 << 20)),
            ownership: false,
            filter: &NO_FILTER,
        };
        let gm = match player.genmove(&game, color, &mut req) {
            Decision::Resign => {
                result = resigned(color);
                break;
            }
            Decision::Play(gm) => gm,
        };
        let board = game.board();
        let xy = |m: GoMove| match m {
            GoMove::Pass => None,
            GoMove::Play(p) => Some(board.xy(p)),
        };
        let mv = xy(gm);
        let listed: Visits = root
            .iter()
            .filter(|c| c.visits > 0)
            .take(VISITS_LISTED)
            .map(|c| (xy(c.mv), c.visits.min(u32::MAX as u64) as u32))
            .collect();
        game.play(gm, color)
            .map_err(|e| anyhow::anyhow!("sente's {mv:?} is illegal here: {e:?}"))?;
        moves.push(mv);
        visits.push(listed);
        if game.consecutive_passes() >= 2 {
            result = margin_text(game.score(&[], &[]));
            break;
        }
    }
    Ok(GoGameLine {
        job,
        size,
        result,
        random: opening,
        moves,
        visits,
    })
}

/// The result of a game `loser` resigned, as GTP and SGF write it.
fn resigned(loser: Color) -> String {
    format!("{}+R", if loser == Color::Black { "W" } else { "B" })
}

fn color_word(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn vertex(x: usize, y: usize) -> String {
    gtp_point_name(x, y).unwrap_or_else(|| "pass".into())
}

#[cfg(test)]
mod tests {
    use super::super::resume;
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn sente_plays_a_seeded_game_whose_moves_carry_their_visits() {
        let args = <Cli as clap::Parser>::try_parse_from([
            "go-data",
            "--out",
            "unused",
            "--engine",
            "sente",
            "--playouts",
            "60",
            "--random",
            "2-3",
        ])
        .unwrap()
        .args;
        assert!(header(&args, (2, 3)).contains(" engine=sente playouts=60 seed=1 random=2-3"));
        let game = play_job_sente(&args, (2, 3), 4).unwrap();
        assert_eq!(
            game,
            play_job_sente(&args, (2, 3), 4).unwrap(),
            "not replayed"
        );
        assert_ne!(game, play_job_sente(&args, (2, 3), 5).unwrap());
        assert!((2..=3).contains(&game.random));
        assert!(game.result != "?" && game.moves.len() > 20, "{game:?}");
        for i in 0..game.moves.len() {
            let v = game.visits_of(i);
            if i < game.random {
                assert!(v.is_empty());
                continue;
            }
            // Most visited first, at most VISITS_LISTED of them.
            assert!(v.len() <= VISITS_LISTED && v.windows(2).all(|w| w[0].1 >= w[1].1));
        }
        let with_visits = (0..game.moves.len())
            .filter(|&i| !game.visits_of(i).is_empty())
            .count();
        assert!(with_visits > game.moves.len() / 2, "{with_visits}");
        let back = GoGameLine::parse(&game.to_line()).unwrap();
        assert_eq!(back, game);
        back.replay(|_, _, _, _| {}).unwrap();
    }

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: GoDataArgs,
    }

    #[test]
    fn a_resumed_file_keeps_its_jobs_and_loses_a_cut_line() {
        let dir = std::env::temp_dir().join(format!("sente-go-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("d.txt");
        let head = "# sente-go-data v1 size=9 x";
        std::fs::write(
            &path,
            format!("{head}\n0 9 B+R 1 E5\n2 9 ? 1 E5 C3\n5 9 ? 0 E"),
        )
        .unwrap();
        let job = |l: &str| GoGameLine::parse(l).map(|g| g.job);
        let done = resume(&path, head, GO_MAGIC, job).unwrap();
        assert_eq!(done, HashSet::from([0, 2]));
        assert!(std::fs::read_to_string(&path).unwrap().ends_with("C3\n"));
        assert!(resume(&path, "# sente-go-data v1 size=13 x", GO_MAGIC, job).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
