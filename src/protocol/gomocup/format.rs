//! Writing Gomocup: typed session replies become output lines (`OK`, `x,y`, `ERROR ...`,
//! `FORBID ...`, the `ABOUT` line) and search progress becomes Rapfi-like `MESSAGE` lines.

use crate::rules::notation::renju_name;
use crate::search::format_eval;
use crate::session::gomoku::{Progress, Reply};

/// A move as `x,y`.
pub fn format_move(x: usize, y: usize) -> String {
    format!("{x},{y}")
}

/// The ABOUT line; `version` names the embedded weights too (see
/// `learned::version_with_weights`).
pub fn about_line() -> String {
    format!(
        "name=\"sente\", version=\"{}\", author=\"sente developers\", country=\"International\"",
        crate::eval::gomoku::learned::version_with_weights()
    )
}

/// `FORBID xxyy...` with two digits for X then two for Y per point, ended by `.`.
pub fn format_forbid(points: &[(usize, usize)]) -> String {
    let mut s = String::from("FORBID ");
    for &(x, y) in points {
        s.push_str(&format!("{x:02}{y:02}"));
    }
    s.push('.');
    s
}

/// The output line for a reply, if it has one.
pub fn format_reply(reply: &Reply) -> Option<String> {
    Some(match reply {
        Reply::Nothing => return None,
        Reply::Ok => "OK".to_string(),
        Reply::Move(x, y) => format_move(*x, *y),
        Reply::Moves(ms) => ms
            .iter()
            .map(|&(x, y)| format_move(x, y))
            .collect::<Vec<_>>()
            .join(" "),
        Reply::Swap => "SWAP".to_string(),
        Reply::Error(m) => format!("ERROR {}", one_line(m)),
        Reply::Unknown(m) => format!("UNKNOWN {}", one_line(m)),
        Reply::Forbid(ps) => format_forbid(ps),
        Reply::About => about_line(),
        Reply::Messages(lines) => messages(lines),
        Reply::Annotated(lines, reply) => match format_reply(reply) {
            Some(r) if lines.is_empty() => r,
            Some(r) => format!("{}\n{r}", messages(lines)),
            None => messages(lines),
        },
    })
}

/// `MESSAGE` lines, one per text.
fn messages(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| format!("MESSAGE {}", one_line(l)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The longest `ERROR`/`UNKNOWN` text we send (in characters): they echo the input, and a
/// manager that sent a megabyte of garbage should not get it back.
const MAX_ECHO_CHARS: usize = 1000;

/// Replies are one line each, whatever a message contains, and of bounded length.
fn one_line(s: &str) -> String {
    let flat = s.replace(['\r', '\n'], " ");
    match flat.char_indices().nth(MAX_ECHO_CHARS) {
        Some((cut, _)) => format!("{}...", &flat[..cut]),
        None => flat,
    }
}

/// `1234`, `56.7K`, `1.2M`, `3.4G`.
fn si(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{:.1}K", n as f64 / 1e3),
        1_000_000..=999_999_999 => format!("{:.1}M", n as f64 / 1e6),
        _ => format!("{:.1}G", n as f64 / 1e9),
    }
}

/// A `MESSAGE` line for search progress, laid out as Rapfi's, its pv in renju notation (rows
/// from the bottom, as Yixin-Board labels them; [`renju_name`]):
/// `MESSAGE depth 9-17 | eval 35 | nodes 123456 | nps 1.2M | time 120 | pv h8 i7 j6`.
pub fn format_progress(p: &Progress) -> String {
    let mut s = format!("MESSAGE depth {}-{}", p.depth, p.seldepth.max(p.depth));
    if p.multipv > 1 {
        s.push_str(&format!(" | multipv {}", p.multipv));
    }
    s.push_str(&format!(
        " | eval {} | nodes {} | nps {} | time {}",
        format_eval(p.score, p.mate),
        p.nodes,
        si(p.nps),
        p.elapsed.as_millis()
    ));
    if !p.pv.is_empty() {
        let pv: Vec<String> =
            p.pv.iter()
                .map(|&(x, y)| renju_name(x, y, p.height))
                .collect();
        s.push_str(" | pv ");
        s.push_str(&pv.join(" "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn replies_format() {
        assert_eq!(format_reply(&Reply::Ok).unwrap(), "OK");
        assert_eq!(format_reply(&Reply::Move(7, 12)).unwrap(), "7,12");
        assert_eq!(
            format_reply(&Reply::Moves(vec![(7, 7), (8, 7), (7, 9)])).unwrap(),
            "7,7 8,7 7,9"
        );
        assert_eq!(format_reply(&Reply::Swap).unwrap(), "SWAP");
        assert_eq!(
            format_reply(&Reply::Messages(vec!["a\nb".into(), "c".into()])).unwrap(),
            "MESSAGE a b\nMESSAGE c"
        );
        let annotated = |lines: Vec<String>| Reply::Annotated(lines, Box::new(Reply::Move(3, 4)));
        assert_eq!(
            format_reply(&annotated(vec!["defend 3,4".into()])).unwrap(),
            "MESSAGE defend 3,4\n3,4"
        );
        assert_eq!(format_reply(&annotated(Vec::new())).unwrap(), "3,4");
        assert_eq!(
            format_reply(&Reply::Error("bad\nthing".into())).unwrap(),
            "ERROR bad thing"
        );
        assert_eq!(
            format_reply(&Reply::Unknown("FOO".into())).unwrap(),
            "UNKNOWN FOO"
        );
        assert_eq!(format_reply(&Reply::Nothing), None);
        let long = format_reply(&Reply::Unknown("é".repeat(5000))).unwrap();
        assert_eq!(long.chars().count(), "UNKNOWN ".len() + MAX_ECHO_CHARS + 3);
        assert!(long.ends_with("é..."));
        assert_eq!(format_forbid(&[]), "FORBID .");
        assert_eq!(format_forbid(&[(7, 8), (10, 3)]), "FORBID 07081003.");
        let about = format_reply(&Reply::About).unwrap();
        assert!(about.starts_with("name=\"sente\", version=\""));
        assert!(about.contains(env!("CARGO_PKG_VERSION")));
    }

    #[test]
    fn progress_formats_like_rapfi() {
        let p = Progress {
            depth: 9,
            seldepth: 17,
            score: 35,
            mate: None,
            nodes: 123456,
            nps: 1_234_000,
            elapsed: Duration::from_millis(120),
            pv: vec![(7, 7), (8, 8), (9, 9), (0, 14), (14, 0)],
            multipv: 1,
            height: 15,
        };
        // Gomocup's 7,8 is one row below the centre: h7 (a1 is the lower left).
        assert_eq!(
            format_progress(&p),
            "MESSAGE depth 9-17 | eval 35 | nodes 123456 | nps 1.2M | time 120 | pv h8 i7 j6 a1 o15"
        );
        let rect = Progress {
            pv: vec![(0, 0), (19, 5)],
            height: 6,
            ..p.clone()
        };
        assert!(format_progress(&rect).ends_with("| pv a6 t1"));
        let m = Progress {
            mate: Some(-4),
            multipv: 2,
            pv: vec![],
            ..p.clone()
        };
        assert_eq!(
            format_progress(&m),
            "MESSAGE depth 9-17 | multipv 2 | eval -M4 | nodes 123456 | nps 1.2M | time 120"
        );
        assert_eq!(format_eval(0, Some(7)), "+M7");
        assert_eq!(si(999), "999");
        assert_eq!(si(35_000), "35.0K");
    }
}
