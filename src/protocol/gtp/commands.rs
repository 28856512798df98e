//! Which GTP commands exist: the ones every game answers and the ones only Go answers, for
//! `list_commands`, `known_command` and the loop's refusal of another game's commands.

/// Which game a GTP session plays; it decides which commands exist.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GtpGameKind {
    /// Go / baduk (the default).
    #[default]
    Go,
    /// Tic-tac-toe on `boardsize 3`.
    Ttt,
}

/// Commands every game answers.
pub const COMMON_COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "sente-level",
    "cputime",
    "gomill-cpu_time",
    "gomill-describe_engine",
    "set_random_seed",
];

/// Commands only Go answers.
pub const GO_ONLY_COMMANDS: &[&str] = &[
    "rectangular_boardsize",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "final_status_list",
    "loadsgf",
    "printsgf",
    "lz-analyze",
    "kata-analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "gogui-analyze_commands",
    "sente-ownership",
    "gomill-explain_last_move",
    "gomill-genmove_ex",
    "kgs-genmove_cleanup",
    "kata-get-rules",
    "kata-set-rules",
    "kata-set-rule",
    "kgs-rules",
    "clear_cache",
    "stop",
    "sente-ponder",
    "kata-list-params",
    "kata-get-param",
    "kata-set-param",
    "get_komi",
    "is_legal",
    "gogui-interrupt",
];

/// Every command `game` answers, in `list_commands` order.
pub fn command_names(game: GtpGameKind) -> Vec<&'static str> {
    let mut v = COMMON_COMMANDS.to_vec();
    if game == GtpGameKind::Go {
        v.extend_from_slice(GO_ONLY_COMMANDS);
    }
    v
}

/// Whether `game` answers the command `name` (exact, case-sensitive).
pub fn is_supported(name: &str, game: GtpGameKind) -> bool {
    COMMON_COMMANDS.contains(&name) || (game == GtpGameKind::Go && GO_ONLY_COMMANDS.contains(&name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::gtp::parse::{parse_command, LineError};

    #[test]
    fn every_listed_command_parses_and_nothing_else_does() {
        for name in command_names(GtpGameKind::Go) {
            assert_ne!(
                parse_command(name, &[]).err(),
                Some(LineError::Unknown),
                "{name}"
            );
            assert!(is_supported(name, GtpGameKind::Go));
        }
        for name in GO_ONLY_COMMANDS {
            assert!(!is_supported(name, GtpGameKind::Ttt));
        }
        // What gomill's ringmaster and GoGui's twogtp ask of any engine.
        for name in ["gomill-cpu_time", "cputime", "gomill-describe_engine"] {
            assert!(is_supported(name, GtpGameKind::Ttt), "{name}");
        }
        assert!(is_supported("play", GtpGameKind::Ttt));
        assert!(!is_supported("playout", GtpGameKind::Go));
    }
}
