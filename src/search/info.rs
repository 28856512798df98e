//! [`SearchInfo`]: what a search reports while it runs (depth, score, nodes, time, principal
//! variation), from the side to move's point of view. Players pass it on through their `report`
//! callback; the protocol layer formats it (Gomocup `MESSAGE`, GTP `info`).

use std::time::Duration;

use crate::rules::Pos;

/// A snapshot of search progress, scored from the side to move's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    /// Nominal depth of the finished (or current) iteration.
    pub depth: u32,
    /// Deepest ply reached, extensions and threat search included.
    pub seldepth: u32,
    /// Score in evaluation units (centi-stones); see `mate`.
    pub score: i32,
    /// `Some(n)`: a forced win in n plies (negative: a forced loss).
    pub mate: Option<i32>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the request.
    pub elapsed: Duration,
    /// Principal variation, the move to play first.
    pub pv: Vec<Pos>,
    /// 1-based rank among the N best moves (YXNBEST); 1 otherwise.
    pub multipv: usize,
}

impl SearchInfo {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        let ms = self.elapsed.as_millis() as u64;
        (self.nodes * 1000)
            .checked_div(ms)
            .unwrap_or(self.nodes * 1000)
    }
}

/// The evaluation as printed: centi-stones, or `+M7` / `-M4` for a forced win / loss in plies.
pub fn format_eval(score: i32, mate: Option<i32>) -> String {
    match mate {
        Some(m) if m >= 0 => format!("+M{m}"),
        Some(m) => format!("-M{}", m.unsigned_abs()),
        None => score.to_string(),
    }
}
