//! Writing GTP: typed session results become responses, each ended by the empty line GTP
//! asks for ([`format_response`]), and streaming analysis becomes `info` lines in Leela Zero's
//! or KataGo's dialect ([`format_info`]).

use std::time::Duration;

use crate::rules::notation::gtp_point_name;
use crate::rules::Color;
use crate::search::mcts::Candidate;
use crate::session::gtp_game::{AnalyzeKind, FinalScore, Genmove, Vertex};

/// A vertex in upper case (`D4`), or `pass`.
pub fn format_vertex(v: Vertex) -> String {
    match v {
        Vertex::Pass => "pass".to_string(),
        Vertex::At { x, y } => gtp_point_name(x, y).unwrap_or_else(|| format!("?{x},{y}")),
    }
}

/// Space-separated vertices.
pub fn format_vertices(vs: &[Vertex]) -> String {
    vs.iter()
        .map(|&v| format_vertex(v))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `genmove`'s answer.
pub fn format_genmove(m: Genmove) -> String {
    match m {
        Genmove::Move(v) => format_vertex(v),
        Genmove::Resign => "resign".to_string(),
        Genmove::Claim => "claim".to_string(),
    }
}

/// The `gomill-genmove_ex` keywords we act on.
pub const GENMOVE_EX_KEYWORDS: &[&str] = &["claim"];

/// A CPU time as gomill and GoGui read it: seconds, in decimal, to the millisecond.
pub fn format_cpu_time(t: Duration) -> String {
    format!("{:.3}", t.as_secs_f64())
}

/// `final_score`'s answer: `B+2.5`, `W+31`, `0`.
pub fn format_score(s: FinalScore) -> String {
    match s.winner {
        None => "0".to_string(),
        Some(Color::Black) => format!("B+{}", s.margin),
        Some(Color::White) => format!("W+{}", s.margin),
    }
}

/// GoGui's analyze commands (`type/label/command` lines): the ownership map, and the dead
/// stones of `final_status_list` marked on the board.
pub const GOGUI_ANALYZE_COMMANDS: &[&str] = &[
    "gfx/Ownership/sente-ownership",
    "plist/Dead stones/final_status_list dead",
];

/// `sente-ownership`'s answer, in GoGui's `gfx` language: `INFLUENCE` with every point and its
/// owner (-1 white .. 1 black), then a `TEXT` line with black's expected area margin.
pub fn format_influence(points: &[(Vertex, f32)], margin: f32) -> String {
    let mut s = String::from("INFLUENCE");
    for &(v, own) in points {
        s.push_str(&format!(" {} {:.2}", format_vertex(v), own));
    }
    let lead = FinalScore::from_black_lead((margin * 10.0).round() / 10.0);
    s.push_str(&format!(
        "\nTEXT estimate {} (area, komi included)",
        format_score(lead)
    ));
    s
}

/// A full response: `=id result` or `?id message`, then the empty line that ends every
/// response. A multi-line result must not hold an empty line (the controller would take it for
/// the end), so blank lines are dropped; a result that starts with a newline (a board drawing)
/// begins on the line after the `=`.
pub fn format_response(id: Option<&str>, result: Result<&str, &str>) -> String {
    let (mark, body) = match result {
        Ok(b) => ('=', b),
        Err(m) => ('?', m),
    };
    let mut s = String::with_capacity(body.len() + 8);
    s.push(mark);
    s.push_str(id.unwrap_or(""));
    let starts_new_line = body.starts_with('\n');
    let mut first = true;
    for line in body.lines() {
        let line = line.trim_end();
        if line.trim().is_empty() {
            continue;
        }
        if first && !starts_new_line {
            s.push(' ');
        } else {
            s.push('\n');
        }
        s.push_str(line);
        first = false;
    }
    s.push_str("\n\n");
    s
}

/// The first line of a streaming response (`=` or `=12`).
pub fn format_stream_start(id: Option<&str>) -> String {
    format!("={}", id.unwrap_or(""))
}

/// One `info` line holding every candidate, in the dialect of `kind`, ended by `ownership` and
/// the values of `ownership` when given (in the order given: the session sends them row by row
/// from the top left). `None` when there is no candidate yet.
pub fn format_info(
    kind: AnalyzeKind,
    candidates: &[Candidate<Vertex>],
    ownership: Option<&[f32]>,
) -> Option<String> {
    if candidates.is_empty() {
        return None;
    }
    let mut parts = Vec::with_capacity(candidates.len());
    for c in candidates {
        let mut s = format!("info move {} visits {}", format_vertex(c.mv), c.visits);
        match kind {
            AnalyzeKind::Lz => s.push_str(&format!(
                " winrate {} prior {} lcb {}",
                per_ten_thousand(c.winrate),
                per_ten_thousand(c.prior),
                per_ten_thousand(c.lcb)
            )),
            AnalyzeKind::Kata => s.push_str(&format!(
                " winrate {:.6} scoreLead {:.6} prior {:.6} lcb {:.6}",
                c.winrate.clamp(0.0, 1.0),
                c.score_lead,
                c.prior.clamp(0.0, 1.0),
                c.lcb.clamp(0.0, 1.0)
            )),
        }
        s.push_str(&format!(" order {} pv", c.order));
        let pv: &[Vertex] = if c.pv.is_empty() {
            std::slice::from_ref(&c.mv)
        } else {
            &c.pv
        };
        for &v in pv {
            s.push(' ');
            s.push_str(&format_vertex(v));
        }
        parts.push(s);
    }
    let mut line = parts.join(" ");
    if let Some(own) = ownership {
        line.reserve(own.len() * 7 + 10);
        line.push_str(" ownership");
        for &v in own {
            line.push(' ');
            line.push_str(&format_owner(v));
        }
    }
    Some(line)
}

/// An ownership value with three decimals, in -1..1, never `-0.000` nor `NaN`.
fn format_owner(v: f32) -> String {
    let v = if v.is_nan() { 0.0 } else { v.clamp(-1.0, 1.0) };
    let rounded = (v * 1000.0).round() / 1000.0;
    // `rounded + 0.0` turns -0.0 into 0.0.
    format!("{:.3}", rounded + 0.0)
}

/// A probability as an integer in 0..=10000 (Leela Zero's unit).
fn per_ten_thousand(p: f64) -> u32 {
    (p.clamp(0.0, 1.0) * 10000.0).round() as u32
}

/// The last line of a genmove_analyze response.
pub fn format_play_line(m: Genmove) -> String {
    format!("play {}", format_genmove(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: usize, y: usize) -> Vertex {
        Vertex::At { x, y }
    }

    #[test]
    fn responses() {
        assert_eq!(format_response(Some("12"), Ok("")), "=12\n\n");
        assert_eq!(format_response(None, Ok("")), "=\n\n");
        assert_eq!(format_response(None, Ok("D4")), "= D4\n\n");
        assert_eq!(
            format_response(Some("3"), Err("illegal move")),
            "?3 illegal move\n\n"
        );
        assert_eq!(format_response(None, Ok("a\n\nb\n")), "= a\nb\n\n");
        assert_eq!(
            format_response(None, Ok("\n  A B\n1 . .")),
            "=\n  A B\n1 . .\n\n"
        );
        assert_eq!(
            format_score(FinalScore {
                winner: Some(Color::White),
                margin: 2.5
            }),
            "W+2.5"
        );
        assert_eq!(
            format_score(FinalScore {
                winner: Some(Color::Black),
                margin: 31.0
            }),
            "B+31"
        );
        assert_eq!(format_score(FinalScore::from_black_lead(0.0)), "0");
        assert_eq!(
            format_influence(
                &[(at(0, 1), 0.875), (at(1, 1), -1.0), (at(0, 0), 0.0)],
                -3.46
            ),
            "INFLUENCE A2 0.88 B2 -1.00 A1 0.00\nTEXT estimate W+3.5 (area, komi included)"
        );
        assert_eq!(
            format_influence(&[], 0.04),
            "INFLUENCE\nTEXT estimate 0 (area, komi included)"
        );
        assert_eq!(format_cpu_time(Duration::from_micros(1_234_567)), "1.235");
        assert_eq!(format_cpu_time(Duration::ZERO), "0.000");
        assert_eq!(format_genmove(Genmove::Resign), "resign");
        assert_eq!(format_genmove(Genmove::Claim), "claim");
        assert_eq!(format_play_line(Genmove::Move(at(2, 3))), "play C4");
    }

    #[test]
    fn info_lines() {
        let c = |v, visits, order| Candidate {
            mv: v,
            visits,
            winrate: 0.4656,
            prior: 0.0839,
            lcb: 0.43215,
            score_lead: -1.25,
            order,
            pv: vec![v, at(15, 15)],
        };
        let cands = [c(at(3, 3), 836, 0), c(at(3, 15), 20, 1)];
        assert_eq!(
            format_info(AnalyzeKind::Lz, &cands, None).unwrap(),
            "info move D4 visits 836 winrate 4656 prior 839 lcb 4322 order 0 pv D4 Q16 \
             info move D16 visits 20 winrate 4656 prior 839 lcb 4322 order 1 pv D16 Q16"
        );
        assert_eq!(
            format_info(AnalyzeKind::Kata, &cands[..1], None).unwrap(),
            "info move D4 visits 836 winrate 0.465600 scoreLead -1.250000 prior 0.083900 \
             lcb 0.432150 order 0 pv D4 Q16"
        );
        assert_eq!(format_info(AnalyzeKind::Lz, &[], None), None);
        assert_eq!(format_info(AnalyzeKind::Kata, &[], Some(&[0.5])), None);
    }

    #[test]
    fn the_ownership_tail_ends_the_line_once_with_every_value_in_order() {
        let c = |v, order| Candidate {
            mv: v,
            visits: 5,
            winrate: 0.5,
            prior: 0.1,
            lcb: 0.4,
            score_lead: 0.0,
            order,
            pv: vec![v],
        };
        let cands = [c(at(0, 1), 0), c(at(1, 0), 1)];
        // A 3x2 board's six values, row by row from the top left, as the session sends them;
        // clamped to -1..1, three decimals, no -0.000, no exponent, NaN as 0.
        let own = [1.0, -0.25, 0.0004, -0.0004, 1.5, f32::NAN];
        let line = format_info(AnalyzeKind::Kata, &cands, Some(&own)).unwrap();
        let (infos, tail) = line.split_once(" ownership ").unwrap();
        assert_eq!(infos, format_info(AnalyzeKind::Kata, &cands, None).unwrap());
        assert_eq!(tail, "1.000 -0.250 0.000 0.000 1.000 0.000");
        assert_eq!(line.matches("ownership").count(), 1);
        assert!(line.rfind("info move").unwrap() < line.find("ownership").unwrap());
        for (v, want) in [
            (1e-9_f32, "0.000"),
            (-1e-9, "0.000"),
            (-0.9996, "-1.000"),
            (0.1235, "0.124"),
            (-f32::INFINITY, "-1.000"),
        ] {
            assert_eq!(format_owner(v), want, "{v}");
        }
        let n = 19 * 19;
        let own: Vec<f32> = (0..n).map(|i| i as f32 / n as f32).collect();
        let line = format_info(AnalyzeKind::Kata, &cands[..1], Some(&own)).unwrap();
        let values: Vec<&str> = line
            .split(" ownership ")
            .nth(1)
            .unwrap()
            .split(' ')
            .collect();
        assert_eq!(values.len(), n);
        assert_eq!(
            (values[0], values[1], values[n - 1]),
            ("0.000", "0.003", "0.997")
        );
    }
}
