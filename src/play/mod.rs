//! Terminal UIs for humans. They read and write the streams they are given, never stdout directly.

pub mod go;
pub mod gomoku;
pub mod menu;
pub mod ttt;

/// `1 s`, `0.5 s`.
pub fn seconds(ms: u64) -> String {
    format!("{} s", ms as f64 / 1000.0)
}

/// Parses a positive number of seconds (at most an hour) into milliseconds.
pub fn parse_seconds(s: &str) -> Result<u64, String> {
    match s.trim().trim_end_matches('s').trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 3600.0 => Ok((v * 1000.0).round().max(1.0) as u64),
        _ => Err(format!(
            "{s:?} is not a time per move in seconds (more than 0, at most 3600)."
        )),
    }
}
