//! The engine loop's command line, shared by `sente` (no subcommand, or `sente engine`) and
//! `pbrain-sente`: the engine options, their conversion into [`RunOptions`], and the start of
//! the protocol loop.

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, ValueEnum};

use crate::players::ttt::TTT_LEVELS;
use crate::players::{GOMOKU_LEVELS, GO_LEVELS};
use crate::protocol::gtp::commands::GtpGameKind;
use crate::protocol::gtp::GtpOptions;
use crate::protocol::{ProtocolChoice, RunOptions};
use crate::rules::Rule;
use crate::search::MAX_THREADS;
use crate::session::gomoku::SessionConfig;
use crate::session::options::{help, value_name};

/// Options of the engine loop. Each flag's help and value name come from the options table
/// ([`crate::session::options`]), as do the Gomocup `INFO` keys and the README's table.
#[derive(Args, Clone, Debug)]
pub struct EngineArgs {
    /// `--level`.
    #[arg(long, value_parser = level_parser(), help = help("level"), value_name = value_name("level"))]
    pub level: Option<String>,
    /// `--game`.
    #[arg(long, value_enum, default_value_t = GameArg::Go, help = help("game"))]
    pub game: GameArg,
    /// `--seed`.
    #[arg(long, default_value_t = 0, help = help("seed"), value_name = value_name("seed"))]
    pub seed: u64,
    /// `--nodes`.
    #[arg(long, help = help("nodes"), value_name = value_name("nodes"))]
    pub nodes: Option<u64>,
    /// `--ponder`.
    #[arg(long, help = help("ponder"))]
    pub ponder: bool,
    /// `--time-middle`.
    #[arg(long, help = help("time-middle"))]
    pub time_middle: bool,
    /// `--depth`.
    #[arg(long, help = help("depth"), value_name = value_name("depth"))]
    pub depth: Option<u32>,
    /// `--threads`.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64),
          help = help("threads"), value_name = value_name("threads"))]
    pub threads: Option<u16>,
    /// `--memory`.
    #[arg(long, help = help("memory"), value_name = value_name("memory"))]
    pub memory: Option<std::path::PathBuf>,
    /// `--kernel`.
    #[arg(long, value_parser = kernel_size, help = help("kernel"), value_name = value_name("kernel"))]
    pub kernel: Option<usize>,
    /// `--rule`.
    #[arg(long, value_parser = rule_name, help = help("rule"), value_name = value_name("rule"))]
    pub rule: Option<Rule>,
    /// `--set`, each `name=value` checked against the search constants.
    #[arg(long = "set", value_parser = search_setting, help = help("set"), value_name = value_name("set"))]
    pub set: Vec<(String, String)>,
}

/// `--set`: `name=value` for a search constant the value suits.
fn search_setting(s: &str) -> Result<(String, String), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?}: expected NAME=VALUE"))?;
    crate::search::ab::params::SearchParams::default().set(name, value)?;
    Ok((name.to_string(), value.to_string()))
}

/// `--rule`: a rule by name (or Gomocup number).
fn rule_name(s: &str) -> Result<Rule, String> {
    Rule::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Rule::NAMED.iter().map(|r| r.name()).collect();
        format!("{s:?} is not a rule ({})", names.join(", "))
    })
}

/// `--kernel`: an odd side 1..=15.
fn kernel_size(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(k) if k >= 1 && crate::eval::learner::kernels::valid_size(k) => Ok(k),
        _ => Err(format!("{s:?} is not an odd kernel size 1..15")),
    }
}

/// Every game's levels, with the game and description for `--help`.
fn level_parser() -> PossibleValuesParser {
    let games: [(&str, &[(&str, &str)]); 3] = [
        ("gomoku", GOMOKU_LEVELS),
        ("go", GO_LEVELS),
        ("ttt", TTT_LEVELS),
    ];
    PossibleValuesParser::new(games.into_iter().flat_map(|(game, levels)| {
        levels
            .iter()
            .map(move |&(name, help)| PossibleValue::new(name).help(format!("{game}: {help}")))
    }))
}

/// `--game`.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameArg {
    /// Go / baduk.
    #[default]
    Go,
    /// Tic-tac-toe (`boardsize 3`).
    Ttt,
}

/// `sente engine`'s arguments, and `sente`'s without a subcommand: the engine options and the
/// protocol to speak.
#[derive(Args, Clone, Debug)]
pub struct EngineCmdArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    /// `--protocol`.
    #[arg(long, value_enum, default_value_t = ProtocolArg::Auto, help = help("protocol"))]
    pub protocol: ProtocolArg,
}

/// `--protocol`.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProtocolArg {
    /// Decide from the first line (GTP words vs Gomocup words).
    #[default]
    Auto,
    /// Gomocup / Piskvork.
    Gomocup,
    /// GTP (Go; tic-tac-toe with `--game ttt`).
    Gtp,
}

impl EngineArgs {
    /// Refuses a `--level` that the game it would drive does not have (`--game ttt` with a
    /// gomoku level, or a tic-tac-toe level for Gomocup).
    pub fn check(&self, protocol: ProtocolArg) -> Result<(), String> {
        let Some(level) = &self.level else {
            return Ok(());
        };
        let has = |levels: &[(&str, &str)]| levels.iter().any(|l| l.0 == level);
        let (ok, game) = match (protocol, self.game) {
            // Gomocup plays gomoku, and tic-tac-toe after `START 3`.
            (ProtocolArg::Gomocup, _) => (has(GOMOKU_LEVELS) || has(TTT_LEVELS), "gomoku or ttt"),
            (ProtocolArg::Gtp, GameArg::Ttt) => (has(TTT_LEVELS), "ttt"),
            (ProtocolArg::Gtp, GameArg::Go) => (has(GO_LEVELS), "go"),
            // Auto: the level must fit one of the games the first line may choose.
            (_, GameArg::Ttt) => (has(GOMOKU_LEVELS) || has(TTT_LEVELS), "gomoku or ttt"),
            (_, GameArg::Go) => (
                has(GOMOKU_LEVELS) || has(TTT_LEVELS) || has(GO_LEVELS),
                "gomoku, ttt or go",
            ),
        };
        if ok {
            Ok(())
        } else {
            Err(format!("level '{level}' is not a {game} level"))
        }
    }

    /// The loop's options with `protocol`.
    pub fn run_options(&self, protocol: ProtocolArg) -> RunOptions {
        // The Gomocup session takes gomoku and tic-tac-toe levels (START 3).
        let gomoku_level = self
            .level
            .clone()
            .filter(|l| GOMOKU_LEVELS.iter().chain(TTT_LEVELS).any(|g| g.0 == l))
            .unwrap_or_else(|| GOMOKU_LEVELS[0].0.to_string());
        RunOptions {
            protocol: match protocol {
                ProtocolArg::Auto => ProtocolChoice::Auto,
                ProtocolArg::Gomocup => ProtocolChoice::Gomocup,
                ProtocolArg::Gtp => ProtocolChoice::Gtp,
            },
            session: SessionConfig {
                level: gomoku_level,
                seed: self.seed,
                nodes: self.nodes,
                depth: self.depth,
                threads: self.threads.map(usize::from),
                rule: self.rule,
                memory: self.memory.clone(),
                player_options: self
                    .kernel
                    .iter()
                    .map(|k| ("kernel".to_string(), k.to_string()))
                    .chain(self.set.iter().cloned())
                    .collect(),
                ponder: self.ponder,
            },
            gtp: GtpOptions {
                game: match self.game {
                    GameArg::Go => GtpGameKind::Go,
                    GameArg::Ttt => GtpGameKind::Ttt,
                },
                level: self
                    .level
                    .clone()
                    .filter(|l| !GOMOKU_LEVELS.iter().any(|g| g.0 == l)),
                seed: self.seed,
                nodes: self.nodes,
                threads: self.threads.map_or(1, usize::from),
                ponder: self.ponder,
                time_middle: self.time_middle,
            },
        }
    }
}

/// Runs the protocol loop of `program` (`sente` or `pbrain-sente`, named in the terminal hint)
/// with `engine`'s options, after refusing a level that `protocol` cannot play.
pub fn run(engine: &EngineArgs, protocol: ProtocolArg, program: &str) -> anyhow::Result<()> {
    engine.check(protocol).map_err(anyhow::Error::msg)?;
    hint_if_terminal(program);
    one_heap_arena();
    crate::protocol::run(engine.run_options(protocol))?;
    Ok(())
}

/// Makes every thread of an engine process allocate from the main heap (glibc only; elsewhere
/// nothing to do). Called before the protocol loop.
///
/// Why: glibc gives each new thread that allocates its own arena, reserving 64 MB of address
/// space each. With the stdin thread and the pattern warm-up thread that was 128 MB of virtual
/// size for a few kilobytes of use, and GomocupJudge enforces `max_memory` on the peak
/// *virtual* size of the process (measured: 296 MB -> 170 MB at the Gomocup 350 MB limit). The
/// threads other than the search allocate little, so sharing one arena costs nothing.
fn one_heap_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt takes no pointers and only sets an allocator parameter (thread-safe in
    // glibc); a value it does not accept is reported through the return value.
    unsafe {
        if libc::mallopt(libc::M_ARENA_MAX, 1) != 1 {
            log::warn!("mallopt(M_ARENA_MAX, 1) refused; threads keep their own heap arenas");
        }
    }
}

/// A one-line hint on stderr when a human runs the engine in a terminal.
fn hint_if_terminal(program: &str) {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() {
        eprintln!(
            "{program} {}: reading protocol commands on stdin: Gomocup (try `START 15`, `BEGIN`, `ABOUT`, `END`){}; `--help` for options",
            env!("CARGO_PKG_VERSION"),
            if program == "sente" {
                " or GTP (try `boardsize 9`, `genmove b`, `showboard`, `quit`)"
            } else {
                ""
            }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(level: Option<&str>, game: GameArg) -> EngineArgs {
        EngineArgs {
            level: level.map(String::from),
            game,
            seed: 0,
            nodes: None,
            ponder: false,
            time_middle: false,
            depth: None,
            threads: None,
            memory: None,
            kernel: None,
            rule: None,
            set: Vec::new(),
        }
    }

    #[test]
    fn set_takes_search_constants_by_name_and_refuses_others() {
        assert_eq!(
            search_setting("rfp_margin=90"),
            Ok(("rfp_margin".to_string(), "90".to_string()))
        );
        for bad in [
            "rfp_margin",
            "rfp_margin=x",
            "lmr_divisor=0",
            "nosuch=1",
            "nmp_depth=3",
        ] {
            assert!(search_setting(bad).is_err(), "{bad}");
        }
        // They reach the gomoku player as its options, after `--kernel`'s.
        let mut a = args(None, GameArg::Go);
        a.kernel = Some(7);
        a.set = vec![("rfp_margin".to_string(), "90".to_string())];
        let opts = a.run_options(ProtocolArg::Gomocup).session.player_options;
        assert_eq!(
            opts,
            [("kernel", "7"), ("rfp_margin", "90")].map(|(k, v)| (k.to_string(), v.to_string()))
        );
    }

    #[test]
    fn rule_names_every_rule_and_refuses_others() {
        for r in Rule::NAMED {
            assert_eq!(rule_name(r.name()), Ok(r));
        }
        let e = rule_name("three-three").unwrap_err();
        assert!(e.contains("no-double-three"), "{e}");
        let mut a = args(None, GameArg::Go);
        a.rule = Some(Rule::NoDoubleThree);
        assert_eq!(
            a.run_options(ProtocolArg::Gomocup).session.rule,
            Some(Rule::NoDoubleThree)
        );
    }

    #[test]
    fn levels_must_fit_the_game() {
        let ttt = args(Some("perfect"), GameArg::Ttt);
        assert!(ttt.check(ProtocolArg::Gtp).is_ok());
        // Gomocup plays tic-tac-toe after START 3, but never Go.
        assert!(ttt.check(ProtocolArg::Gomocup).is_ok());
        assert!(args(Some("mcts"), GameArg::Go)
            .check(ProtocolArg::Gomocup)
            .is_err());
        assert!(args(Some("strong"), GameArg::Ttt)
            .check(ProtocolArg::Gtp)
            .is_err());
        assert!(args(Some("perfect"), GameArg::Go)
            .check(ProtocolArg::Gtp)
            .is_err());
        assert!(args(Some("strong"), GameArg::Go)
            .check(ProtocolArg::Auto)
            .is_ok());
        assert!(args(None, GameArg::Go).check(ProtocolArg::Gtp).is_ok());
        let o = args(Some("perfect"), GameArg::Ttt).run_options(ProtocolArg::Gtp);
        assert_eq!(o.gtp.level.as_deref(), Some("perfect"));
        assert_eq!(o.gtp.game, GtpGameKind::Ttt);
        assert_eq!(o.session.level, "perfect");
        let o = args(Some("mcts"), GameArg::Go).run_options(ProtocolArg::Auto);
        assert_eq!(o.session.level, GOMOKU_LEVELS[0].0);
        let o = args(Some("classic"), GameArg::Go).run_options(ProtocolArg::Auto);
        assert_eq!((o.session.level.as_str(), o.gtp.level), ("classic", None));
    }
}
