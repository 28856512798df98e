//! The engine's options in one table: each option once, with its command-line flag, its Gomocup
//! `INFO` key(s) and what it does. The README's "Levels, options and INFO keys" table is
//! [`readme_table`] (a test holds the two equal), and the tests check the table against what
//! reads the options: every flag is one the command line (`crate::cli::EngineArgs`) declares and
//! every flag it declares is here; every `INFO` key here is one the Gomocup parser or a gomoku
//! player takes.
//!
//! GTP has no option command of its own: `sente-level` switches levels ([`crate::session::go`])
//! and the rest comes from the command line.

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Command-line forms, as the README shows them (empty: none).
    pub cli: &'static str,
    /// Gomocup `INFO` forms, as the README shows them (empty: none).
    pub info: &'static str,
    /// What it does.
    pub doc: &'static str,
}

/// Every engine option, in the README's order.
pub const ENGINE_OPTIONS: &[EngineOption] = &[
    EngineOption {
        cli: "`--level strong` / `--level classic` / `--level learner`",
        info: "`INFO level <name>`",
        doc: "the player (strongest first; `sente --help` lists them)",
    },
    EngineOption {
        cli: "`--seed N`",
        info: "`INFO seed N`",
        doc: "seed for every random choice (SWAP2 openings, player variety)",
    },
    EngineOption {
        cli: "`--nodes N`",
        info: "`INFO max_node N`",
        doc: "node budget per move (0 or negative: none; Yixin-Board sends -1); `--nodes` also \
              switches the clock off (deterministic play)",
    },
    EngineOption {
        cli: "`--depth N`",
        info: "`INFO max_depth N`",
        doc: "depth cap per move (0 or negative: none)",
    },
    EngineOption {
        cli: "`--threads N`",
        info: "`INFO thread_num N`",
        doc: "search threads (default 1, at most 64; 0 or negative: 1); `--threads` outranks \
              `INFO thread_num`. `strong` runs a Lazy SMP search: one shared lock-free hash \
              table, the first thread keeps the clock and answers. A `--nodes` budget counts \
              every thread's nodes, but only one thread replays a node-limited game exactly",
    },
    EngineOption {
        cli: "`--memory PATH`",
        info: "`INFO folder DIR`",
        doc: "where `learner` keeps its kernels: `PATH`, else `DIR/sente/learner.kernels`, else \
              nowhere (learning lasts as long as the process)",
    },
    EngineOption {
        cli: "`--kernel K`",
        info: "`INFO kernel K`",
        doc: "`learner`'s kernel side: 1, 3, ..., 15 (default 15)",
    },
    EngineOption {
        cli: "",
        info: "`INFO kernel_anchor board\\|anywhere`, `INFO kernel_symmetry 0\\|1`, \
               `INFO kernel_near 0..4`, `INFO kernel_learn 0\\|1`, `INFO rule_map steep\\|linear`",
        doc: "`learner`'s matching: where a kernel matches, its 8 symmetries, approximate \
              matching radius, learning on/off, rule-map weights",
    },
    EngineOption {
        cli: "`--protocol auto\\|gomocup\\|gtp`",
        info: "",
        doc: "force a protocol (`sente` only)",
    },
    EngineOption {
        cli: "`--game go\\|ttt`",
        info: "",
        doc: "the game GTP plays (default go); GTP switches levels with `sente-level <name>`",
    },
    EngineOption {
        cli: "",
        info: "`INFO timeout_turn ms`",
        doc: "time per move (0 = answer at once)",
    },
    EngineOption {
        cli: "",
        info: "`INFO time_left ms`",
        doc: "remaining match time (2147483647 = unlimited)",
    },
    EngineOption {
        cli: "",
        info: "`INFO timeout_match ms`",
        doc: "recorded; time is managed from `time_left`",
    },
    EngineOption {
        cli: "",
        info: "`INFO time_increment ms`",
        doc: "increment added after each move",
    },
    EngineOption {
        cli: "",
        info: "`INFO rule N`",
        doc: "0 freestyle, 1 standard, 4 renju, 8 caro, 9 caro + exact five; 2 alone is renju, \
              as Yixin-Board sends it (Rapfi reads it so too); otherwise bit 2, continuous \
              game, is accepted and ignored",
    },
    EngineOption {
        cli: "`--rule R`",
        info: "`INFO rule_name R`",
        doc: "the rule by name: `freestyle`, `standard`, `renju`, `caro`, `caro-standard`, or \
              `no-double-three`, which has no Gomocup number (the rule of the wiki page \
              `classic` comes from: black may not make two open threes with one stone; four-fours and overlines are allowed, five \
              or more wins, a five is never forbidden); `--rule` outranks every `INFO rule` \
              and `INFO rule_name`, for managers that cannot send the key (Piskvork)",
    },
    EngineOption {
        cli: "",
        info: "`INFO max_memory bytes`",
        doc: "passed to the player",
    },
    EngineOption {
        cli: "",
        info: "`game_type`, `evaluate`",
        doc: "recorded",
    },
];

/// The README's table of [`ENGINE_OPTIONS`] (header included, one line per row).
pub fn readme_table() -> String {
    let mut t = String::from("| command line | INFO key | meaning |\n|---|---|---|\n");
    for o in ENGINE_OPTIONS {
        t.push_str(&format!("| {} | {} | {} |\n", o.cli, o.info, o.doc).replace("|  |", "| |"));
    }
    t
}

/// The command-line flags of the table (`--level`, ...), each once.
pub fn flags() -> Vec<&'static str> {
    let mut out: Vec<&str> = ENGINE_OPTIONS
        .iter()
        .flat_map(|o| o.cli.split(['`', ' ']))
        .filter(|w| w.starts_with("--"))
        .collect();
    out.dedup();
    out
}

/// The Gomocup `INFO` keys of the table (`level`, `max_node`, ...), each once.
pub fn info_keys() -> Vec<&'static str> {
    let mut out = Vec::new();
    for o in ENGINE_OPTIONS {
        for form in o.info.split('`').skip(1).step_by(2) {
            let key = form.strip_prefix("INFO ").unwrap_or(form);
            let key = key.split(' ').next().unwrap_or(key);
            if !out.contains(&key) {
                out.push(key);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_keys_are_read_from_the_rows() {
        let f = flags();
        assert_eq!(f[..3], ["--level", "--seed", "--nodes"]);
        assert!(f.contains(&"--protocol") && f.contains(&"--game"));
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
        let t = readme_table();
        assert!(t.starts_with("| command line | INFO key | meaning |\n|---|---|---|\n| `--level"));
        assert!(t.contains("\n| | `INFO timeout_turn ms` | time per move (0 = answer at once) |\n"));
    }
}
