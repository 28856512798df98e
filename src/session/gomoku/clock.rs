//! The limit of a Gomocup session's next search, from the command line and the `INFO` time
//! settings, and the lateness it learns from when each searched reply was written.

use std::time::Instant;

use super::GomokuSession;
use crate::search::clock::{GameClock, SearchLimit, UNLIMITED_MS};

/// Per-move time used when the manager gave no clock, depth or node limit at all, so that a
/// searching player still answers (Gomocup's fast-game limit).
pub const DEFAULT_TURN_MS: u64 = 5_000;

impl GomokuSession {
    /// The protocol loop wrote the reply to the last search at `at`: learn how late it was.
    pub fn reply_written(&mut self, at: Instant) {
        if let Some((start, hard)) = self.pending_reply.take() {
            let took = at.saturating_duration_since(start);
            self.lateness.observe(hard, took);
            log::debug!(
                "reply {} ms after the request (hard deadline {:?} ms); lag margin now {} ms",
                took.as_millis(),
                hard.map(|h| h.as_millis()),
                self.lateness.lag_ms()
            );
        }
    }

    /// The extra safety margin that observed lateness currently adds (ms).
    pub fn lag_ms(&self) -> u64 {
        self.lateness.lag_ms()
    }

    /// The limit for the next search, from the CLI and the `INFO` values.
    pub fn limit(&self) -> SearchLimit {
        let s = &self.settings;
        let nodes = self.config.nodes.or(s.max_node);
        let depth = self.config.depth.or(s.max_depth);
        if self.config.nodes.is_some() {
            // A fixed node budget is the deterministic mode: the clock would make it vary.
            return SearchLimit {
                depth,
                nodes,
                clock: GameClock::default(),
            };
        }
        let left_ms = s.time_left.filter(|&l| l < UNLIMITED_MS);
        let mut turn_ms = s.timeout_turn;
        if turn_ms.is_none() && left_ms.is_none() && nodes.is_none() && depth.is_none() {
            turn_ms = Some(DEFAULT_TURN_MS);
        }
        SearchLimit {
            depth,
            nodes,
            clock: GameClock {
                turn_ms,
                left_ms,
                moves_to_go: None,
                increment_ms: s.time_increment,
                lag_ms: self.lateness.lag_ms(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::*;
    use super::super::*;
    use super::*;

    #[test]
    fn limits_from_settings() {
        let mut s = session();
        let l = s.limit();
        assert_eq!(l.clock.turn_ms, Some(DEFAULT_TURN_MS));
        s.info(Setting::TimeoutTurn(100));
        s.info(Setting::TimeLeft(UNLIMITED_MS));
        s.info(Setting::MaxNode(0));
        let l = s.limit();
        assert_eq!(l.clock.turn_ms, Some(100));
        assert_eq!(l.clock.left_ms, None);
        assert_eq!(l.nodes, None);
        s.info(Setting::TimeLeft(900));
        s.info(Setting::MaxDepth(7));
        let l = s.limit();
        assert_eq!(l.clock.left_ms, Some(900));
        assert_eq!(l.depth, Some(7));
        // Yixin-Board's "unlimited" is -1; a depth past u32 is no limit either. Neither is a
        // complaint that would refuse the next move.
        s.info(Setting::MaxNode(5000));
        s.info(Setting::MaxNode(-1));
        s.info(Setting::MaxDepth(-1));
        assert_eq!((s.limit().nodes, s.limit().depth), (None, None));
        s.info(Setting::MaxDepth(7));
        s.info(Setting::MaxDepth(i64::MAX));
        assert_eq!(s.limit().depth, None);
        s.info(Setting::ThreadNum(-3));
        assert_eq!(s.settings().thread_num, Some(1));
        s.info(Setting::ThreadNum(i64::MAX));
        assert_eq!(s.settings().thread_num, Some(u32::MAX));
        assert!(s.pending_complaint().is_none());
        let det = GomokuSession::new(
            SessionConfig {
                nodes: Some(5000),
                ..SessionConfig::default()
            },
            Arc::new(StopSignal::new()),
        );
        let l = det.limit();
        assert_eq!(l.nodes, Some(5000));
        assert_eq!(l.clock, GameClock::default());
    }
}
