//! Which protocol is speaking: the first meaningful input line decides, unless the command line
//! forced one. Gomocup is the default for anything that does not look like GTP, so that a
//! strange first line still gets a Gomocup `UNKNOWN` rather than silence.

use crate::protocol::gomocup::is_gomocup_word;

/// A protocol the loop can speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detected {
    Gomocup,
    Gtp,
}

/// GTP v2 command words (standard and common extensions) that no Gomocup line starts with.
const GTP_WORDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "time_settings",
    "time_left",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "loadsgf",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "kgs-time_settings",
    "lz-analyze",
    "kata-analyze",
    "gogui-analyze_commands",
];

/// The protocol a line belongs to, or `None` when the line says nothing (a GTP comment).
pub fn detect(line: &str) -> Option<Detected> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let mut tokens = line.split_whitespace();
    let mut first = tokens.next()?;
    // A GTP command may carry a numeric id; a Gomocup stone line has a comma instead.
    if first.bytes().all(|b| b.is_ascii_digit()) {
        match tokens.next() {
            Some(next) => first = next,
            None => return Some(Detected::Gomocup),
        }
    }
    let rest: Vec<&str> = tokens.collect();
    let lower = first.to_ascii_lowercase();
    if lower == "play" {
        // Gomocup: `PLAY x,y`; GTP: `play black d4`.
        return Some(if rest.first().is_some_and(|a| a.contains(',')) {
            Detected::Gomocup
        } else {
            Detected::Gtp
        });
    }
    if !is_gomocup_word(first) && GTP_WORDS.contains(&lower.as_str()) {
        return Some(Detected::Gtp);
    }
    Some(Detected::Gomocup)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gomocup_lines() {
        for l in [
            "START 15",
            "start 15",
            "ABOUT",
            "INFO timeout_turn 5",
            "7,7,1",
            "FOO",
            "PLAY 1,2",
            "BOARD",
        ] {
            assert_eq!(detect(l), Some(Detected::Gomocup), "{l}");
        }
    }

    #[test]
    fn gtp_lines() {
        for l in [
            "protocol_version",
            "name",
            "1 boardsize 19",
            "12 name",
            "play black d4",
            "quit",
            "genmove b",
            "list_commands",
        ] {
            assert_eq!(detect(l), Some(Detected::Gtp), "{l}");
        }
    }

    #[test]
    fn comments_say_nothing() {
        assert_eq!(detect("# a comment"), None);
        assert_eq!(detect("   "), None);
    }
}
