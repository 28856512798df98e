//! The engine's options in one table: each option once, with its command-line flag, its Gomocup
//! `INFO` key(s) (and how a key's value is typed), the GTP command that sets it, and what it
//! does. Everything else is derived from [`ENGINE_OPTIONS`]:
//! * the command line's help (`crate::cli::engine::EngineArgs` takes each flag's text from
//!   [`help`]);
//! * the Gomocup `INFO` handler (`crate::protocol::gomocup::parse::parse_info` types a value by
//!   the key's [`InfoValue`]; keys of kind [`InfoValue::Player`] and unknown keys go to the player);
//! * the README's "Levels, options and INFO keys" table ([`readme_table`]).
//!
//! The tests (`tests/options.rs`) hold the README equal to [`readme_table`], the command line's
//! flags equal to [`flags`] with the table's help, every `INFO` key read by the parser or a
//! player, and every GTP form a command GTP answers.

use crate::session::gomoku::Setting;

/// How an `INFO` key's value is read, and the setting it becomes.
#[derive(Clone, Copy, Debug)]
pub enum InfoValue {
    /// A whole number, sign allowed.
    Integer(fn(i64) -> Setting),
    /// A whole number without a sign.
    Unsigned(fn(u64) -> Setting),
    /// One token (no white space).
    Word(fn(String) -> Setting),
    /// The rest of the line, as it is (a folder may hold spaces).
    Text(fn(String) -> Setting),
    /// `x,y`.
    Point(fn(i64, i64) -> Setting),
    /// The player's own option ([`crate::players::GomokuPlayer::set_option`]): passed on as
    /// [`Setting::Other`].
    Player,
}

/// One Gomocup `INFO` key.
#[derive(Clone, Copy, Debug)]
pub struct InfoKey {
    /// The key, lower case (keys are case-insensitive).
    pub key: &'static str,
    /// The value as the README shows it (`ms`, `N`, `0|1`).
    pub value: &'static str,
    /// How the value is read.
    pub kind: InfoValue,
}

/// One command-line flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    /// The long name without its dashes.
    pub long: &'static str,
    /// The value as the README and `--help` show it.
    pub value: &'static str,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct EngineOption {
    /// The command-line flag, if any.
    pub flag: Option<Flag>,
    /// The Gomocup `INFO` keys that set it (none: empty).
    pub info: &'static [InfoKey],
    /// The GTP command that sets it, as the README shows it (empty: none).
    pub gtp: &'static str,
    /// What it does (Markdown: backticks are dropped for `--help`).
    pub doc: &'static str,
}

const fn flag(long: &'static str, value: &'static str) -> Option<Flag> {
    Some(Flag { long, value })
}

const fn key(key: &'static str, value: &'static str, kind: InfoValue) -> InfoKey {
    InfoKey { key, value, kind }
}

/// Every engine option, in the README's order.
pub const ENGINE_OPTIONS: &[EngineOption] = &[
    EngineOption {
        flag: flag("level", "NAME"),
        info: &[key("level", "NAME", InfoValue::Word(Setting::Level))],
        gtp: "sente-level NAME",
        doc: "the player; the default is the game's first and strongest (gomoku `strong`, Go \
              `mcts`, tic-tac-toe `perfect`); `sente --help` describes each game's levels",
    },
    EngineOption {
        flag: flag("seed", "N"),
        info: &[key("seed", "N", InfoValue::Unsigned(Setting::Seed))],
        gtp: "",
        doc: "seed for every random choice (SWAP2 openings, player variety), so a game can be \
              replayed",
    },
    EngineOption {
        flag: flag("nodes", "N"),
        info: &[key("max_node", "N", InfoValue::Integer(Setting::MaxNode))],
        gtp: "",
        doc: "node budget per move, playouts for Go (0 or negative: none; Yixin-Board sends -1); \
              `--nodes` also switches the clock off (deterministic play)",
    },
    EngineOption {
        flag: flag("depth", "N"),
        info: &[key("max_depth", "N", InfoValue::Integer(Setting::MaxDepth))],
        gtp: "",
        doc: "depth cap per move (0 or negative: none)",
    },
    EngineOption {
        flag: flag("threads", "N"),
        info: &[key(
            "thread_num",
            "N",
            InfoValue::Integer(Setting::ThreadNum),
        )],
        gtp: "",
        doc: "search threads (default 1, at most 64; 0 or negative: 1); `--threads` outranks \
              `INFO thread_num`. `strong` runs a Lazy SMP search: one shared lock-free hash \
              table, the first thread keeps the clock and answers; Go's `mcts` grows one shared \
              tree; tic-tac-toe ignores it. A `--nodes` budget counts every thread's nodes, but \
              only one thread replays a node-limited game exactly",
    },
    EngineOption {
        flag: flag("memory", "PATH"),
        info: &[key("folder", "DIR", InfoValue::Text(Setting::Folder))],
        gtp: "",
        doc: "where `learner` keeps its kernels: `PATH`, else `DIR/sente/learner.kernels`, else \
              nowhere (learning lasts as long as the process)",
    },
    EngineOption {
        flag: flag("kernel", "K"),
        info: &[key("kernel", "K", InfoValue::Player)],
        gtp: "",
        doc: "`learner`'s kernel side: 1, 3, ..., 15 (default 15)",
    },
    EngineOption {
        flag: None,
        info: &[
            key("kernel_anchor", "board|anywhere", InfoValue::Player),
            key("kernel_symmetry", "0|1", InfoValue::Player),
            key("kernel_near", "0..4", InfoValue::Player),
            key("kernel_learn", "0|1", InfoValue::Player),
            key("rule_map", "steep|linear", InfoValue::Player),
        ],
        gtp: "",
        doc: "`learner`'s matching: where a kernel matches, its 8 symmetries, approximate \
              matching radius, learning on/off, rule-map weights",
    },
    EngineOption {
        flag: flag("set", "NAME=VALUE"),
        info: &[],
        gtp: "",
        doc: "`strong`'s search constant NAME (repeatable; Gomocup also `INFO NAME VALUE`; \
              `SENTE_SEARCH=\"NAME=VALUE,...\"` is an alias); Go's levels take theirs by GTP \
              `kata-set-param NAME VALUE` (`SENTE_MCTS` is the alias); `sente params` lists \
              the names, defaults and ranges",
    },
    EngineOption {
        flag: flag("protocol", "auto|gomocup|gtp"),
        info: &[],
        gtp: "",
        doc: "force a protocol (`sente` only; `auto` decides from the first line)",
    },
    EngineOption {
        flag: flag("game", "go|ttt"),
        info: &[],
        gtp: "",
        doc: "the game GTP plays (default go; Gomocup picks gomoku or tic-tac-toe from `START`)",
    },
    EngineOption {
        flag: flag("ponder", ""),
        info: &[key(
            "pondering",
            "0|1",
            InfoValue::Integer(Setting::Pondering),
        )],
        gtp: "",
        doc: "think on the opponent's time, from our move's answer until the next command: Go \
              and gomoku with `--ponder` (GTP `sente-ponder on` or `off` and Gomocup `INFO \
              pondering 1` or `0` switch it; off by default); replies stay the same, the moves then \
              depend on the opponent's time, even under `--nodes`",
    },
    EngineOption {
        flag: flag("time-middle", ""),
        info: &[],
        gtp: "",
        doc: "Go: share main time by the game's phase, more than an even share in the middle \
              game and less in the opening and endgame (default: an even share of the moves \
              left); overtime periods are shared as before",
    },
    EngineOption {
        flag: None,
        info: &[key(
            "timeout_turn",
            "ms",
            InfoValue::Integer(Setting::TimeoutTurn),
        )],
        gtp: "",
        doc: "time per move (0 = answer at once)",
    },
    EngineOption {
        flag: None,
        info: &[key(
            "time_left",
            "ms",
            InfoValue::Integer(Setting::TimeLeft),
        )],
        gtp: "",
        doc: "remaining match time (2147483647 = unlimited)",
    },
    EngineOption {
        flag: None,
        info: &[key(
            "timeout_match",
            "ms",
            InfoValue::Integer(Setting::TimeoutMatch),
        )],
        gtp: "",
        doc: "recorded; time is managed from `time_left`",
    },
    EngineOption {
        flag: None,
        info: &[key(
            "time_increment",
            "ms",
            InfoValue::Integer(Setting::TimeIncrement),
        )],
        gtp: "",
        doc: "increment added after each move",
    },
    EngineOption {
        flag: None,
        info: &[key("rule", "N", InfoValue::Integer(Setting::Rule))],
        gtp: "",
        doc: "0 freestyle, 1 standard, 4 renju, 8 caro, 9 caro + exact five; 2 alone is renju, \
              as Yixin-Board sends it (Rapfi reads it so too); otherwise bit 2, continuous \
              game, is accepted and ignored",
    },
    EngineOption {
        flag: flag("rule", "R"),
        info: &[key("rule_name", "R", InfoValue::Word(Setting::RuleName))],
        gtp: "",
        doc: "the gomoku rule by name: `freestyle`, `standard`, `renju`, `caro`, \
              `caro-standard`, or `no-double-three`, which has no Gomocup number (the rule of \
              the wiki page `classic` comes from: black may not make two open threes with one \
              stone; four-fours and overlines are allowed, five or more wins, a five is never \
              forbidden); `--rule` outranks every `INFO rule` and `INFO rule_name`, for \
              managers that cannot send the key (Piskvork)",
    },
    EngineOption {
        flag: None,
        info: &[key(
            "max_memory",
            "bytes",
            InfoValue::Integer(Setting::MaxMemory),
        )],
        gtp: "",
        doc: "passed to the player",
    },
    EngineOption {
        flag: None,
        info: &[
            key("game_type", "N", InfoValue::Integer(Setting::GameType)),
            key("evaluate", "X,Y", InfoValue::Point(Setting::Evaluate)),
        ],
        gtp: "",
        doc: "recorded",
    },
];

/// A table cell: Markdown code, with `|` escaped.
fn code(text: &str) -> String {
    format!("`{}`", text.replace('|', "\\|"))
}

/// The README's table of [`ENGINE_OPTIONS`] (header included, one line per row).
pub fn readme_table() -> String {
    let mut t = String::from("| command line | INFO key | GTP | meaning |\n|---|---|---|---|\n");
    for o in ENGINE_OPTIONS {
        let cli = o
            .flag
            .map(|f| code(format!("--{} {}", f.long, f.value).trim_end()))
            .unwrap_or_default();
        let info: Vec<String> = o
            .info
            .iter()
            .map(|k| code(&format!("INFO {} {}", k.key, k.value)))
            .collect();
        let gtp = if o.gtp.is_empty() {
            String::new()
        } else {
            code(o.gtp)
        };
        let row = format!("| {cli} | {} | {gtp} | {} |\n", info.join(", "), o.doc);
        t.push_str(&row.replace("|  |", "| |").replace("|  |", "| |"));
    }
    t
}

/// The command-line flags of the table (`--level`, ...).
pub fn flags() -> Vec<String> {
    ENGINE_OPTIONS
        .iter()
        .filter_map(|o| o.flag.map(|f| format!("--{}", f.long)))
        .collect()
}

/// The row of the flag `--long`.
fn by_flag(long: &str) -> Option<&'static EngineOption> {
    ENGINE_OPTIONS
        .iter()
        .find(|o| o.flag.is_some_and(|f| f.long == long))
}

/// `--help`'s text for the flag `--long`: the row's doc without its Markdown.
///
/// # Panics
/// When the table has no such flag: a programming error that the first `--help` (and the
/// tests) show.
pub fn help(long: &str) -> String {
    let o = by_flag(long).unwrap_or_else(|| panic!("--{long} is not in ENGINE_OPTIONS"));
    o.doc.replace('`', "")
}

/// The value name `--help` shows for the flag `--long`.
pub fn value_name(long: &str) -> &'static str {
    by_flag(long)
        .and_then(|o| o.flag)
        .map_or("VALUE", |f| f.value)
}

/// The Gomocup `INFO` keys of the table (`level`, `max_node`, ...), each once.
pub fn info_keys() -> Vec<&'static str> {
    ENGINE_OPTIONS
        .iter()
        .flat_map(|o| o.info.iter().map(|k| k.key))
        .collect()
}

/// How the `INFO` key `key` (lower case) is read; `None` for a key the table does not have.
pub fn info_value(key: &str) -> Option<InfoValue> {
    ENGINE_OPTIONS
        .iter()
        .flat_map(|o| o.info)
        .find(|k| k.key == key)
        .map(|k| k.kind)
}

/// The GTP commands of the table (`sente-level`, ...).
pub fn gtp_commands() -> Vec<&'static str> {
    ENGINE_OPTIONS
        .iter()
        .filter_map(|o| o.gtp.split(' ').next().filter(|c| !c.is_empty()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_keys_and_commands_are_read_from_the_rows() {
        let f = flags();
        assert_eq!(f[..3], ["--level", "--seed", "--nodes"]);
        assert!(f.contains(&"--protocol".to_string()) && f.contains(&"--game".to_string()));
        let k = info_keys();
        for key in [
            "level",
            "max_node",
            "kernel_near",
            "rule_map",
            "game_type",
            "evaluate",
        ] {
            assert!(k.contains(&key), "{key}: {k:?}");
        }
        let mut unique = k.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), k.len(), "an INFO key twice: {k:?}");
        assert!(matches!(info_value("rule"), Some(InfoValue::Integer(_))));
        assert!(matches!(info_value("kernel"), Some(InfoValue::Player)));
        assert!(info_value("nonesuch").is_none());
        assert_eq!(gtp_commands(), ["sente-level"]);
        assert_eq!(help("depth"), "depth cap per move (0 or negative: none)");
        assert_eq!(value_name("memory"), "PATH");
        let t = readme_table();
        assert!(t.starts_with(
            "| command line | INFO key | GTP | meaning |\n|---|---|---|---|\n| `--level NAME` | \
             `INFO level NAME` | `sente-level NAME` |"
        ));
        assert!(
            t.contains("\n| | `INFO timeout_turn ms` | | time per move (0 = answer at once) |\n")
        );
        assert!(t.contains("`INFO kernel_anchor board\\|anywhere`, `INFO kernel_symmetry 0\\|1`"));
    }
}
