//! `sente match`: its command-line arguments, their translation into a tournament, the
//! progress bar and the results table on stdout (the files of `--out` and `sente match merge`
//! are [`super::match_out`]'s).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use anyhow::{anyhow, bail, Context};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::match_out::{run_merge, write_outputs, write_tables, wrote, TABLE_EVERY};
use super::openings::{balanced_openings, BalanceArgs};
use super::progress_bar;
use super::setup::{parse_range, setup_of};
use crate::arena::engine::GameSetup;
use crate::arena::manifest::{self, GameName, ManifestError, Protocol};
use crate::arena::openings;
use crate::arena::record::ResultFile;
use crate::arena::report::{game_line, sgf};
use crate::arena::shard::Shard;
use crate::arena::tc::TimeControl;
use crate::arena::tournament::{
    self, report_so_far, schedule_len, Entrant, Schedule, TournamentConfig,
};
use crate::arena::Sprt;

/// `sente match`: engines play each other over their protocols, the runner referees.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MatchArgs {
    /// `merge DIR...`: one report from the `--out` directories of parts of a match.
    #[command(subcommand)]
    pub merge: Option<MatchCmd>,
    /// Game: gomoku (any non-renju rule, see --rule), renju, go, ttt.
    #[arg(long, value_parser = ["gomoku", "renju", "go", "ttt"], default_value = "gomoku")]
    pub game: String,
    /// Engines: manifest names from --engines-dir (e.g. sente-strong), paths to .toml files,
    /// or internal:LEVEL for one of our levels played in-process.
    #[arg(long, num_args = 2.., required = true)]
    pub engines: Vec<String>,
    /// Play only part K of N of the schedule (`2/3`): disjoint parts whose `--out` directories
    /// `sente match merge` adds up to the whole match. A part plays all its games: its SPRT is
    /// decided on the merge.
    #[arg(long)]
    pub shard: Option<String>,
    /// Print the schedule's size as JSON (`{"games": N, ...}`) and play nothing.
    #[arg(long)]
    pub plan: bool,
    /// Where manifests are looked up (default: ./engines, else the source tree's engines/).
    #[arg(long)]
    pub engines_dir: Option<PathBuf>,
    /// Play the first engine against each other one instead of a round-robin.
    #[arg(long)]
    pub gauntlet: bool,
    /// Games per pairing (rounded up to even: each opening with both colours).
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Time control GAME[+INC][/MOVE] in seconds, 0 = no limit: 0/0.5 is 0.5 s per move,
    /// 60/5 is 60 s per game and at most 5 s per move, 10+0.1 adds 0.1 s per move. Default:
    /// 0/0.5, or 0/1 when an engine speaks GTP (GTP tells time in whole seconds).
    #[arg(long)]
    // The text is clap's help, where `[/MOVE]` is the syntax, not a link.
    #[allow(rustdoc::broken_intra_doc_links)]
    pub tc: Option<String>,
    /// Grace in ms past a move's budget before the engine loses on time (and is killed).
    #[arg(long, default_value_t = 1000)]
    pub tolerance: u64,
    /// Board size, `15` or `20x15` (default: gomoku/renju 15, go 9, ttt 3).
    #[arg(long)]
    pub size: Option<String>,
    /// Gomoku rule: freestyle, standard, caro, caro-standard, no-double-three (black may not
    /// make two open threes at once; engines are told `INFO rule 0` then `INFO rule_name
    /// no-double-three`) (renju: use --game renju).
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Komi for Go (area scoring).
    #[arg(long, default_value_t = 7.5)]
    pub komi: f32,
    /// Go handicap: black gets this many stones on GTP's fixed handicap points (2-9; engines
    /// are told `fixed_handicap`) and white moves first. Set --komi too (0.5 is usual): the
    /// count gives white no bonus for the stones, as GNU Go's Chinese rules do not.
    #[arg(long, default_value_t = 0)]
    pub handicap: usize,
    /// Openings file: one opening per line (`h8 i9`, `7,7 8,8`, Go: `D4 F6`).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Stones of a generated opening, `MIN-MAX` or `N` (default: gomoku 2-4, ttt 1, go 0).
    #[arg(long)]
    pub opening_stones: Option<String>,
    #[command(flatten)]
    pub balance: BalanceArgs,
    /// Seed for openings and engine seeds.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (each has its own engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Moves after the opening before the game is drawn (default: gomoku until the board is
    /// full, go 3 x the board's points).
    #[arg(long)]
    pub max_moves: Option<usize>,
    /// Stop early with a sequential probability ratio test of elo0 against elo1 (two engines).
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    pub sprt: Option<Vec<f64>>,
    /// SPRT error rates alpha and beta.
    #[arg(long, default_value_t = 0.05)]
    pub sprt_error: f64,
    /// Directory for one SGF per game, games.pgn (BayesElo/Ordo) and results.txt (both kept
    /// up to date while the match runs, at most 5 s behind) and, at the end, result.json.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Node budget per move of internal:LEVEL engines (deterministic play).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Print a line per finished game.
    #[arg(long)]
    pub verbose: bool,
}

/// Subcommands of `sente match`.
#[derive(clap::Subcommand, Debug)]
pub enum MatchCmd {
    /// Merge the `--out` directories (their result.json) of parts of one match into the report,
    /// Elo, SPRT state and records of the whole match; a game number met twice counts once.
    Merge {
        /// Directories written by `sente match --out` (or files named result.json).
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Write the merged SGF files, games.pgn, results.txt and result.json here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print the state as one line of JSON (games, score, Elo, SPRT) instead of the table.
        #[arg(long)]
        json: bool,
    },
}

/// `--tc`'s default: half a second a move.
pub const DEFAULT_TC: &str = "0/0.5";
/// `--tc`'s default when an engine speaks GTP, which tells time in whole seconds.
pub const DEFAULT_GTP_TC: &str = "0/1";

/// The time control of a match: `--tc` as given, else the default that every engine can be
/// told.
fn match_tc(given: Option<&str>, any_gtp: bool) -> &str {
    match (given, any_gtp) {
        (Some(tc), _) => tc,
        (None, true) => DEFAULT_GTP_TC,
        (None, false) => DEFAULT_TC,
    }
}

/// The game setup the arguments describe (under `--tc`'s default for non-GTP engines when it
/// is not given; [`run`] replaces it once the engines are known).
fn setup(args: &MatchArgs) -> anyhow::Result<GameSetup> {
    setup_of(
        &args.game,
        args.size.as_deref(),
        &args.rule,
        args.komi,
        args.handicap,
        match_tc(args.tc.as_deref(), false),
    )
}

/// The names of the engine processes that speak GTP.
fn gtp_engines(entrants: &[Entrant]) -> Vec<String> {
    entrants
        .iter()
        .filter(|e| matches!(e, Entrant::Process(spec) if spec.manifest.protocol == Protocol::Gtp))
        .map(Entrant::name)
        .collect()
}

/// Resolves the engine arguments; engines whose executable is missing are skipped with a
/// message on stderr.
fn entrants(args: &MatchArgs, game: GameName) -> anyhow::Result<Vec<Entrant>> {
    let dir = args
        .engines_dir
        .clone()
        .unwrap_or_else(manifest::default_engines_dir);
    let mut out = Vec::new();
    for name in &args.engines {
        if let Some(level) = name.strip_prefix("internal:") {
            out.push(Entrant::Internal {
                level: level.to_string(),
                nodes: args.nodes,
            });
            continue;
        }
        let spec = manifest::find(name, &dir).map_err(|e| anyhow!("{e}"))?;
        if !spec.plays(game) {
            let games: Vec<&str> = spec.manifest.games.iter().map(|g| g.name()).collect();
            bail!(
                "engine {} does not play {} (its manifest lists: {})",
                spec.name(),
                game.name(),
                games.join(", ")
            );
        }
        match spec.check_available() {
            Ok(()) => out.push(Entrant::Process(Box::new(spec))),
            Err(ManifestError::Missing(msg)) => eprintln!("{msg}"),
            Err(e) => bail!("{e}"),
        }
    }
    if out.len() < 2 {
        bail!("fewer than two engines are available; nothing to play");
    }
    Ok(out)
}

/// Refuses a time control GTP engines cannot be told, and says on stderr what they are told
/// and what not.
fn tell_gtp_engines(tc: &TimeControl, entrants: &[Entrant]) -> anyhow::Result<()> {
    let gtp = gtp_engines(entrants);
    if gtp.is_empty() {
        return Ok(());
    }
    let terms = tc
        .gtp_terms()
        .map_err(|e| anyhow!("--tc: {e} (GTP engines here: {})", gtp.join(", ")))?;
    eprintln!(
        "GTP engines ({}) are told: {}",
        gtp.join(", "),
        terms.time_settings
    );
    for what in terms.untold {
        eprintln!("  not told (still enforced): {what}");
    }
    Ok(())
}

/// `--nodes` reaches only the in-process levels: says so (stderr) when engine processes would
/// otherwise silently play on the clock, the usual surprise when a node-limited SPRT crawls.
fn warn_unlimited_processes(nodes: Option<u64>, entrants: &[Entrant]) {
    if nodes.is_none() {
        return;
    }
    let processes: Vec<String> = entrants
        .iter()
        .filter(|e| {
            matches!(e, Entrant::Process(_)) && Entrant::node_budget(&e.describe()).is_none()
        })
        .map(Entrant::name)
        .collect();
    if !processes.is_empty() {
        eprintln!(
            "--nodes limits only internal: engines; {} play on the clock unless their manifest \
             sets a limit (args \"--nodes\", \"20000\", or a Gomocup [info] max_node)",
            processes.join(", ")
        );
    }
}

/// Runs `sente match`.
pub fn run(args: MatchArgs) -> anyhow::Result<()> {
    if let Some(MatchCmd::Merge { dirs, out, json }) = &args.merge {
        return run_merge(dirs, out.as_deref(), *json);
    }
    let shard: Shard = match &args.shard {
        Some(s) => s.parse().map_err(|e: String| anyhow!("--shard: {e}"))?,
        None => Shard::WHOLE,
    };
    let mut setup = setup(&args)?;
    let entrants = entrants(&args, setup.game)?;
    if args.tc.is_none() {
        let tc = match_tc(None, !gtp_engines(&entrants).is_empty());
        setup.tc = tc.parse().map_err(|e: String| anyhow!("--tc: {e}"))?;
    }
    tell_gtp_engines(&setup.tc, &entrants)?;
    warn_unlimited_processes(args.nodes, &entrants);
    let schedule = if args.gauntlet {
        Schedule::Gauntlet
    } else {
        Schedule::RoundRobin
    };
    let total = schedule_len(entrants.len(), schedule, args.games);
    if args.plan {
        println!(
            "{}",
            serde_json::json!({
                "games": total,
                "engines": entrants.iter().map(Entrant::name).collect::<Vec<_>>(),
                "pairings": tournament::pairings(entrants.len(), schedule).len(),
            })
        );
        return Ok(());
    }
    let pairs = args.games.div_ceil(2).max(1);
    let openings = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            openings::parse_file(&text, &setup).map_err(|e| anyhow!("{}: {e}", path.display()))?
        }
        None => {
            let stones = match &args.opening_stones {
                Some(s) => parse_range(s).context("--opening-stones takes MIN-MAX or N")?,
                None => openings::default_stones(setup.game),
            };
            let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
            balanced_openings(&setup, stones, pairs, &mut rng, args.balance.get())?
                .into_iter()
                .map(|(moves, _)| moves)
                .collect()
        }
    };
    if let Some(warning) = openings_reused(pairs, openings.len()) {
        log::warn!("{warning}");
    }
    let sprt = match &args.sprt {
        Some(v) if entrants.len() != 2 => {
            bail!("--sprt needs exactly two engines, not {}", v.len())
        }
        Some(v) => Some(Sprt::new(v[0], v[1], args.sprt_error, args.sprt_error)),
        None => None,
    };
    let cfg = TournamentConfig {
        setup,
        schedule,
        games: args.games,
        openings,
        concurrency: args.concurrency.max(1),
        tolerance_ms: args.tolerance,
        max_moves: args.max_moves,
        seed: args.seed,
        sprt,
        shard,
        commands: entrants.iter().map(Entrant::describe).collect(),
    };
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let bar = progress_bar(
        shard.range(total).len() as u64,
        "{bar:40} {pos}/{len} games, {prefix} moves, {elapsed} {msg}",
    );
    bar.set_prefix("0");
    let pairs = tournament::pairings(entrants.len(), cfg.schedule);
    let names: Vec<String> = entrants.iter().map(Entrant::name).collect();
    let mut write_error: Option<anyhow::Error> = None;
    let started = std::time::Instant::now();
    let mut last_table: Option<std::time::Instant> = None;
    let moves_played = AtomicUsize::new(0);
    let finished = AtomicBool::new(false);
    let report = std::thread::scope(|scope| {
        // The bar moves within long games too: the moves played so far, a few times a second.
        scope.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                bar.set_prefix(moves_played.load(Ordering::Relaxed).to_string());
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
        });
        let report = tournament::run(
            &cfg,
            &entrants,
            &mut |game, done| {
                bar.inc(1);
                // cutechess-cli's line, which scripts look for: the pairing's score so far.
                let (first, second) = pairs[game.pairing];
                let mut pw = crate::arena::Wdl::default();
                for g in done.iter().filter(|g| g.pairing == game.pairing) {
                    pw += g.wdl_for(first);
                }
                bar.suspend(|| {
                    println!(
                        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
                        names[first],
                        names[second],
                        pw.wins,
                        pw.losses,
                        pw.draws,
                        pw.score().unwrap_or(0.0),
                        pw.games()
                    )
                });
                let mut w = crate::arena::Wdl::default();
                for g in done {
                    w += g.wdl_for(0);
                }
                bar.set_message(format!(
                    "{}: +{} -{} ={}",
                    names[0], w.wins, w.losses, w.draws
                ));
                if args.verbose {
                    bar.suspend(|| {
                        println!("game {}: {}", game.index + 1, game_line(&names, game))
                    });
                }
                if let Some(dir) = &args.out {
                    let path = dir.join(format!("game-{:04}.sgf", game.index + 1));
                    if let Err(e) = std::fs::write(&path, sgf(&names, &cfg.setup, game)) {
                        write_error.get_or_insert(anyhow!("writing {}: {e}", path.display()));
                    }
                    // The table so far, so that a match stopped early keeps one (result.json, which
                    // marks a finished part for `merge`, waits for the end).
                    if last_table.is_none_or(|t| t.elapsed() >= TABLE_EVERY) {
                        last_table = Some(std::time::Instant::now());
                        let so_far = report_so_far(&cfg, &names, done, started.elapsed());
                        if let Err(e) = write_tables(dir, &so_far) {
                            write_error.get_or_insert(e);
                        }
                    }
                }
            },
            &moves_played,
        );
        finished.store(true, Ordering::Relaxed);
        report
    })
    .map_err(|e| anyhow!(e))?;
    bar.finish_and_clear();
    println!("{report}");
    if !shard.is_whole() {
        println!(
            "part {shard} of the schedule: games {} to {}{}",
            shard.range(total).start + 1,
            shard.range(total).end,
            if cfg.sprt.is_some() {
                "; the SPRT is decided by `sente match merge` over all parts"
            } else {
                ""
            }
        );
    }
    if let Some(dir) = &args.out {
        write_outputs(dir, &report, &ResultFile::new(&report), false)?;
        println!("{}", wrote(&report, dir));
    }
    if let Some(e) = write_error {
        return Err(e);
    }
    Ok(())
}

/// What to tell the user when a pairing's `rounds` (pairs of games, one per opening) outnumber
/// the `openings`: the schedule cycles them, and an engine that plays the same position the same
/// way (a fixed node budget: `strong` whatever its seed) replays games it has already played,
/// which the score and an SPRT count again as if they were new evidence.
fn openings_reused(rounds: usize, openings: usize) -> Option<String> {
    (rounds > openings).then(|| {
        format!(
            "{openings} openings for {rounds} games a colour: from game {} on the openings \
             repeat, and deterministic engines (a node budget) replay the same games, counted \
             again by the score and the SPRT; give at most {} games or more openings",
            2 * openings + 1,
            2 * openings
        )
    })
}

#[cfg(test)]
mod tests {
    use super::{match_tc, openings_reused, setup_of, TimeControl, DEFAULT_GTP_TC, DEFAULT_TC};

    #[test]
    fn the_default_time_control_can_be_told_to_every_engine() {
        // GTP engines (a Go match: sente-mcts against GNU Go) get a default GTP can say.
        let go = setup_of("go", Some("9"), "freestyle", 7.5, 0, match_tc(None, true)).unwrap();
        assert!(go.tc.gtp_terms().is_ok(), "{:?}", go.tc);
        assert_eq!(match_tc(None, true), DEFAULT_GTP_TC);
        // Others keep half a second a move, which GTP could not say.
        assert_eq!(match_tc(None, false), DEFAULT_TC);
        let tc: TimeControl = DEFAULT_TC.parse().unwrap();
        assert!(tc.gtp_terms().is_err());
        // A --tc given is used as given (and refused later if GTP cannot say it).
        assert_eq!(match_tc(Some("0/0.5"), true), "0/0.5");
        assert_eq!(match_tc(Some("60/5"), false), "60/5");
    }

    #[test]
    fn reused_openings_are_reported_from_the_first_repeated_game() {
        // 1,000 openings hold 2,000 distinct games of one pairing (each with both colours).
        assert_eq!(openings_reused(1000, 1000), None);
        let warning = openings_reused(2000, 1000).expect("4,000 games on 1,000 openings repeat");
        assert!(warning.contains("from game 2001 on"), "{warning}");
        assert!(warning.contains("at most 2000 games"), "{warning}");
    }
}
