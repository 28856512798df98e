//! `sente match`: its command-line arguments, their translation into a tournament, the
//! progress bar, the results table on stdout and the files written to `--out`; and
//! `sente match merge`, which turns the `--out` directories of a schedule's parts into the
//! output of one whole run.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::arena::balance::{self, Balance};
use crate::arena::coords::Mv;
use crate::arena::engine::GameSetup;
use crate::arena::manifest::{self, GameName, ManifestError, Protocol};
use crate::arena::merge::merge;
use crate::arena::record::ResultFile;
use crate::arena::report::{game_line, pgn, sgf};
use crate::arena::shard::Shard;
use crate::arena::tc::TimeControl;
use crate::arena::tournament::{
    report_so_far, run, schedule_len, Entrant, Schedule, TournamentConfig, TournamentReport,
};
use crate::arena::{openings, Sprt};
use crate::cli::progress_bar;
use crate::rules::game::{with_game, GamePosition, GameVisitor};

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

fn parse_size(s: &str) -> anyhow::Result<(usize, usize)> {
    Ok(match s.split_once(['x', 'X']) {
        Some((w, h)) => (w.trim().parse()?, h.trim().parse()?),
        None => {
            let n: usize = s.trim().parse()?;
            (n, n)
        }
    })
}

fn parse_range(s: &str) -> anyhow::Result<(usize, usize)> {
    Ok(match s.split_once('-') {
        Some((a, b)) => (a.trim().parse()?, b.trim().parse()?),
        None => {
            let n: usize = s.trim().parse()?;
            (n, n)
        }
    })
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
/// is not given; [`run_match`] replaces it once the engines are known).
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

/// The game setup of a game name, `--size`, `--rule`, komi, handicap and `--tc`.
fn setup_of(
    game: &str,
    size: Option<&str>,
    rule: &str,
    komi: f32,
    handicap: usize,
    tc: &str,
) -> anyhow::Result<GameSetup> {
    let game = GameName::from_name(game).ok_or_else(|| anyhow!("unknown game"))?;
    /// The game's own defaults and checks.
    struct Checked<'a>(GameName, Option<&'a str>, &'a str, f32, usize, &'a str);
    impl GameVisitor for Checked<'_> {
        type Out = anyhow::Result<GameSetup>;
        fn visit<P: GamePosition>(self) -> Self::Out {
            let Checked(game, size, rule, komi, handicap, tc) = self;
            let (width, height) = match size {
                Some(s) => parse_size(s).context("--size takes N or WxH")?,
                None => (P::default_side(game), P::default_side(game)),
            };
            let rule = P::rule_for(game, rule).map_err(|e| anyhow!(e))?;
            let tc: TimeControl = tc.parse().map_err(|e: String| anyhow!("--tc: {e}"))?;
            let setup = GameSetup {
                game,
                rule,
                width,
                height,
                komi,
                handicap: 0,
                tc,
            };
            if P::start(&setup.board()).is_none() {
                bail!("{} cannot be played on {width}x{height}", game.name());
            }
            if handicap == 0 {
                return Ok(setup);
            }
            if game != GameName::Go {
                bail!("--handicap: only Go takes a handicap");
            }
            let setup = GameSetup { handicap, ..setup };
            if P::start(&setup.board()).is_none() {
                bail!(
                    "--handicap: {width}x{height} has no fixed handicap of {handicap} stones \
                     (GTP's fixed_handicap: 2-9 on boards with star points)"
                );
            }
            Ok(setup)
        }
    }
    with_game(game, Checked(game, size, rule, komi, handicap, tc))
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
        .filter(|e| matches!(e, Entrant::Process(_)))
        .map(Entrant::name)
        .collect();
    if !processes.is_empty() {
        eprintln!(
            "--nodes limits only internal: engines; {} play on the clock unless their manifest \
             args set a limit (e.g. \"--nodes\", \"20000\")",
            processes.join(", ")
        );
    }
}

/// Runs `sente match`.
pub fn run_match(args: MatchArgs) -> anyhow::Result<()> {
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
                "pairings": crate::arena::tournament::pairings(entrants.len(), schedule).len(),
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
        "{bar:40} {pos}/{len} games {elapsed} {msg}",
    );
    let names: Vec<String> = entrants.iter().map(Entrant::name).collect();
    let mut write_error: Option<anyhow::Error> = None;
    let started = std::time::Instant::now();
    let mut last_table: Option<std::time::Instant> = None;
    let report = run(&cfg, &entrants, &mut |game, done| {
        bar.inc(1);
        let mut w = crate::arena::Wdl::default();
        for g in done {
            w += g.wdl_for(0);
        }
        bar.set_message(format!(
            "{}: +{} -{} ={}",
            names[0], w.wins, w.losses, w.draws
        ));
        if args.verbose {
            bar.suspend(|| println!("game {}: {}", game.index + 1, game_line(&names, game)));
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

/// games.pgn, results.txt and result.json (and with `sgf`, one SGF per game) in `dir`.
fn write_outputs(
    dir: &Path,
    report: &TournamentReport,
    file: &ResultFile,
    sgfs: bool,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let write = |name: &str, text: String| write_in(dir, name, text);
    if sgfs {
        for g in &report.games {
            write(
                &format!("game-{:04}.sgf", g.index + 1),
                sgf(&report.names, &report.config.setup, g),
            )?;
        }
    }
    write_tables(dir, report)?;
    // Written last and whole: a directory with a result.json is a finished part.
    let tmp = dir.join("result.json.tmp");
    std::fs::write(&tmp, file.to_json()).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, dir.join("result.json"))
        .with_context(|| format!("writing {}", dir.join("result.json").display()))?;
    Ok(())
}

/// How often a running match rewrites its table: every game would rewrite games.pgn in full
/// after each of thousands of SPRT games.
const TABLE_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// games.pgn and results.txt for `report` in `dir`.
fn write_tables(dir: &Path, report: &TournamentReport) -> anyhow::Result<()> {
    write_in(dir, "games.pgn", pgn(report))?;
    write_in(dir, "results.txt", format!("{report}\n"))
}

/// Writes `text` to the file `name` in `dir`.
fn write_in(dir: &Path, name: &str, text: String) -> anyhow::Result<()> {
    let path = dir.join(name);
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
}

fn wrote(report: &TournamentReport, dir: &Path) -> String {
    format!(
        "wrote {} SGF files, games.pgn, results.txt and result.json to {}",
        report.games.len(),
        dir.display()
    )
}

/// `sente match merge`.
fn run_merge(dirs: &[PathBuf], out: Option<&Path>, json: bool) -> anyhow::Result<()> {
    let mut files = Vec::with_capacity(dirs.len());
    for d in dirs {
        let path = if d.is_dir() {
            d.join("result.json")
        } else {
            d.clone()
        };
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        files.push(ResultFile::parse(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?);
    }
    let merged = merge(&files).map_err(|e| anyhow!(e))?;
    if json {
        println!("{}", serde_json::to_string(&merged.summary())?);
    } else {
        println!("{}", merged.report);
        let s = merged.summary();
        if s.pending + s.surplus + s.duplicates > 0 {
            println!(
                "merged {} parts: {} games waiting for an earlier one (the SPRT reads in schedule order), {} played after the SPRT decided (not counted), {} met twice (counted once)",
                files.len(),
                s.pending,
                s.surplus,
                s.duplicates
            );
        }
    }
    if let Some(dir) = out {
        write_outputs(dir, &merged.report, &merged.file, true)?;
        // stdout carries only the JSON line under --json.
        if json {
            eprintln!("{}", wrote(&merged.report, dir));
        } else {
            println!("{}", wrote(&merged.report, dir));
        }
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

/// `sente openings`: writes generated gomoku/renju openings, one per line in the glued `h8i9j7`
/// form that both `sente match --openings` and c-gomoku-cli (`-openings type=pos`) read.
#[derive(clap::Args, Debug)]
pub struct OpeningsArgs {
    /// Game: gomoku (any non-renju rule, see --rule) or renju.
    #[arg(long, value_parser = ["gomoku", "renju"], default_value = "gomoku")]
    pub game: String,
    /// Board size, `15` or `20x15`.
    #[arg(long, default_value = "15")]
    pub size: String,
    /// Gomoku rule (see `sente match --help`).
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// How many openings.
    #[arg(long, default_value_t = 50)]
    pub count: usize,
    /// Stones of an opening, `MIN-MAX` or `N`.
    #[arg(long, default_value = "2-4")]
    pub stones: String,
    #[command(flatten)]
    pub balance: BalanceArgs,
    /// Seed of the generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Append `# black +35` (the judging search's score, black's view) to each line.
    #[arg(long)]
    pub scores: bool,
}

/// Runs `sente openings`.
pub fn run_openings(args: OpeningsArgs) -> anyhow::Result<()> {
    let setup = setup_of(&args.game, Some(&args.size), &args.rule, 0.0, 0, "0/1")?;
    let stones = parse_range(&args.stones).context("--stones takes MIN-MAX or N")?;
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let openings = balanced_openings(&setup, stones, args.count, &mut rng, args.balance.get())?;
    for (moves, score) in openings {
        let mut line = opening_line(&moves);
        if let (true, Some(s)) = (args.scores, score) {
            line.push_str(&format!(" # black {s:+}"));
        }
        println!("{line}");
    }
    Ok(())
}

/// [`balance::openings`] with a progress bar on stderr while a balance judge searches each
/// candidate (a thousand openings take minutes before the first game or line).
fn balanced_openings(
    setup: &GameSetup,
    stones: (usize, usize),
    count: usize,
    rng: &mut ChaCha8Rng,
    balance: Option<Balance>,
) -> anyhow::Result<balance::ScoredOpenings> {
    let bar = match balance {
        Some(b) => progress_bar(
            count as u64,
            &format!(
                "{{bar:40}} {{pos}}/{{len}} balanced openings ({} nodes) {{elapsed}}",
                b.nodes
            ),
        ),
        None => indicatif::ProgressBar::hidden(),
    };
    let found = balance::openings(setup, stones, count, rng, balance, &mut |kept| {
        bar.set_position(kept as u64)
    });
    bar.finish_and_clear();
    found.map_err(|e| anyhow!(e))
}

/// `h8i9j7`: the Gomocup-order names of an opening's moves, glued; `x,y` pairs apart when a
/// column has no letter (boards wider than 26).
fn opening_line(moves: &[Mv]) -> String {
    let names: Vec<String> = moves
        .iter()
        .filter_map(|&mv| match mv {
            Mv::At(x, y) => Some(crate::rules::notation::gomocup_name(x, y)),
            Mv::Pass => None,
        })
        .collect();
    if names.iter().all(|n| !n.contains(',')) {
        names.concat()
    } else {
        names.join(" ")
    }
}

/// `--balance NODES [--balance-margin CP]`, shared by `sente match` and `sente openings`.
#[derive(clap::Args, Debug)]
pub struct BalanceArgs {
    /// Gomoku/renju: keep only generated openings that a `strong` search of this many nodes
    /// scores near even (within --balance-margin), so that fewer pairs split 1-1.
    #[arg(long = "balance", id = "balance", value_name = "NODES")]
    pub nodes: Option<u64>,
    /// Largest |score| (evaluation units, about 300 per logit of the expected score) of a
    /// balanced opening.
    #[arg(long, default_value_t = balance::DEFAULT_MARGIN)]
    pub balance_margin: i32,
}

impl BalanceArgs {
    /// The judging settings, when `--balance` was given.
    fn get(&self) -> Option<Balance> {
        self.nodes.map(|nodes| Balance {
            nodes,
            margin: self.balance_margin,
        })
    }
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
