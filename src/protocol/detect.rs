//! Which protocol is speaking: the first meaningful input line decides, unless the command line
//! forced one. Gomocup is the default for anything that does not look like GTP, so that a
//! strange first line still gets a Gomocup `UNKNOWN` rather than silence.

use crate::protocol::gomocup::parse::is_gomocup_word;
use crate::protocol::gtp::commands::{is_supported, GtpGameKind};

/// A protocol the loop can speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detected {
    Gomocup,
    Gtp,
}

/// GTP command words a controller may open with that we do not answer ourselves (they still
/// mean the controller speaks GTP); the ones we answer come from
/// [`crate::protocol::gtp::commands::command_names`].
const OTHER_GTP_WORDS: &[&str] = &[
    "kgs-genmove_cleanup",
    "gogui-analyze_commands",
    "gomill-describe_engine",
    "gomill-cpu_time",
];

/// Whether `word` (lower case) is a GTP command name.
fn is_gtp_word(word: &str) -> bool {
    is_supported(word, GtpGameKind::Go) || OTHER_GTP_WORDS.contains(&word)
}

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
    if !is_gomocup_word(first) && is_gtp_word(&lower) {
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
