//! The Go session's streaming analysis (`lz-analyze`, `kata-analyze`, and the reports of
//! `*-genmove_analyze`): the `avoid` / `allow` keys as the search's move filter, and each
//! player report passed on in the protocol's shape (candidates best first, ownership row by
//! row from the top left, from the analysed colour's point of view).

use super::{rows_from_top, vertex_of, GoSession};
use crate::players::GoRequest;
use crate::rules::go::{GoGame, GoMove};
use crate::rules::Color;
use crate::search::clock::TimeManager;
use crate::search::mcts::Candidate;
use crate::search::move_filter::{FilterRule, MoveFilter};
use crate::session::gtp_game::{AnalyzeOptions, CandidateSink, MoveRule, Vertex};

impl GoSession {
    /// `lz-analyze` / `kata-analyze`: streams candidates for the side asked about until the
    /// next input line arrives (the stop flag), however early the player finishes.
    pub fn analyze(&mut self, options: AnalyzeOptions, seq: u64, report: CandidateSink<'_>) {
        let color = options.color.unwrap_or_else(|| self.game.to_move());
        self.signal.arm(seq);
        let tm = TimeManager::infinite(self.signal.flag());
        let (game, player) = (&self.game, &mut self.player);
        let filter = move_filter(game, &options.move_rules);
        let mut forward = |cands: &[Candidate<GoMove>], own: Option<&[f32]>| {
            forward_report(game, color, &options, cands, own, report)
        };
        let mut req = GoRequest {
            tm: &tm,
            report: &mut forward,
            report_every: Some(options.interval()),
            ownership: options.ownership,
            filter: &filter,
        };
        player.analyze(game, color, &mut req);
        self.signal.wait_for_stop();
        self.signal.disarm();
    }
}

/// The search's filter for the analysis keys `avoid` / `allow` on `game`'s board. A vertex off
/// the board is left out: it is never a legal move, so closing it changes nothing and an
/// `allow` list without it forbids it all the same.
pub(super) fn move_filter(game: &GoGame, rules: &[MoveRule]) -> MoveFilter {
    let board = game.board();
    MoveFilter::new(
        rules
            .iter()
            .map(|r| FilterRule {
                kind: r.kind,
                color: r.color,
                moves: r
                    .vertices
                    .iter()
                    .filter_map(|&v| match v {
                        Vertex::Pass => Some(GoMove::Pass),
                        Vertex::At { x, y } => board.point(x, y).map(GoMove::Play),
                    })
                    .collect(),
                until_depth: r.until_depth,
            })
            .collect(),
    )
}

/// Passes one player report on to the protocol: the candidates shaped, and the ownership (only
/// when `options` asked for it) in the protocol's order and from `color`'s point of view.
pub(super) fn forward_report(
    game: &GoGame,
    color: Color,
    options: &AnalyzeOptions,
    cands: &[Candidate<GoMove>],
    own: Option<&[f32]>,
    report: CandidateSink<'_>,
) {
    let sign = match color {
        Color::Black => 1.0,
        Color::White => -1.0,
    };
    let own: Option<Vec<f32>> = own.filter(|_| options.ownership).map(|own| {
        rows_from_top(game)
            .map(|p| (sign * own[p.idx()]).clamp(-1.0, 1.0))
            .collect()
    });
    report(&shape(game, cands, options), own.as_deref());
}

/// The player's candidates as the protocol shows them, best first, cut to `maxmoves`.
fn shape(
    game: &GoGame,
    cands: &[Candidate<GoMove>],
    options: &AnalyzeOptions,
) -> Vec<Candidate<Vertex>> {
    let mut v: Vec<Candidate<Vertex>> = cands
        .iter()
        .map(|c| c.map_moves(|m| vertex_of(game, m)))
        .collect();
    v.sort_by_key(|c| c.order);
    if let Some(max) = options.max_moves {
        v.truncate(max.max(options.min_moves));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::super::tests::*;
    use super::super::*;
    use super::*;
    use crate::session::Interrupt;
    use std::sync::Mutex;

    #[test]
    fn analysis_waits_for_the_next_line() {
        let (mut s, seen) = session_with(None, Vec::new(), Some(5));
        s.boardsize(9, 9).unwrap();
        // The scripted player reports three times and returns; the stop comes only after
        // that, so the session has to wait for it (the order is fixed, not timed).
        let stopper = stop_after_the_players_analysis(&s, &seen, 7);
        let mut lines = 0;
        let options = AnalyzeOptions {
            interval_cs: 1,
            ..AnalyzeOptions::default()
        };
        s.analyze(
            options.clone(),
            7,
            &mut |c: &[Candidate<Vertex>], own: Option<&[f32]>| {
                assert_eq!(c[0].mv, at(0, 0));
                assert_eq!(own, None, "not asked");
                lines += 1;
            },
        );
        assert!(
            s.signal.flag().load(std::sync::atomic::Ordering::SeqCst),
            "returned before the stop"
        );
        stopper.join().unwrap();
        assert_eq!(lines, 3);
        assert_eq!(seen.lock().unwrap().reports, 3);
        // Stopped before it starts: the player reports nothing and the session returns.
        s.signal.interrupt(10, Interrupt::Stop);
        s.analyze(
            options,
            9,
            &mut |_: &[Candidate<Vertex>], _: Option<&[f32]>| {
                lines += 1;
            },
        );
        assert_eq!(lines, 3);
        assert_eq!(seen.lock().unwrap().reports, 3);
    }

    /// Runs `kata-analyze`'s session side for `color` (asking for ownership or not) and
    /// returns the ownership of every report.
    fn analysed_ownership(
        s: &mut GoSession,
        seen: &Arc<Mutex<Seen>>,
        color: Color,
        ownership: bool,
        seq: u64,
    ) -> Vec<Option<Vec<f32>>> {
        let stopper = stop_after_the_players_analysis(s, seen, seq);
        let options = AnalyzeOptions {
            color: Some(color),
            interval_cs: 1,
            ownership,
            ..AnalyzeOptions::default()
        };
        let mut reports = Vec::new();
        s.analyze(
            options,
            seq,
            &mut |_: &[Candidate<Vertex>], own: Option<&[f32]>| {
                reports.push(own.map(<[f32]>::to_vec))
            },
        );
        stopper.join().unwrap();
        reports
    }

    #[test]
    fn analysis_ownership_runs_from_the_top_left_from_the_analysed_colours_view() {
        // The test player gives each stone to its colour and the dead ones (B1) to the other.
        let (mut s, seen) = session_with(None, vec![(1, 0)], Some(10));
        s.boardsize(5, 3).unwrap();
        s.play(Color::Black, at(0, 2)).unwrap();
        s.play(Color::White, at(1, 0)).unwrap();
        s.play(Color::White, at(3, 1)).unwrap();
        let mut black_view = vec![0.0; 15];
        // Row-major from the top left: A3 is 0, D2 is 5 + 3, B1 is 10 + 1.
        black_view[0] = 1.0;
        black_view[8] = -1.0;
        black_view[11] = 1.0;
        let white_view: Vec<f32> = black_view.iter().map(|v| -v).collect();
        for (color, want, seq) in [
            (Color::Black, &black_view, 20),
            (Color::White, &white_view, 30),
        ] {
            let reports = analysed_ownership(&mut s, &seen, color, true, seq);
            assert!(!reports.is_empty());
            for own in reports {
                assert_eq!(own.as_ref(), Some(want), "{color:?}");
            }
        }
        // Not asked: none, though the test player sends it.
        let reports = analysed_ownership(&mut s, &seen, Color::Black, false, 40);
        assert!(!reports.is_empty() && reports.iter().all(Option::is_none));
        // genmove_analyze carries it the same way.
        let mut got = Vec::new();
        let mut sink =
            |_: &[Candidate<Vertex>], own: Option<&[f32]>| got.push(own.map(<[f32]>::to_vec));
        let mut req = GtpRequest {
            seq: 50,
            at: Instant::now(),
            analysis: Some((
                &mut sink,
                AnalyzeOptions {
                    ownership: true,
                    ..AnalyzeOptions::default()
                },
            )),
        };
        s.genmove(Color::White, false, &mut req);
        assert_eq!(got, vec![Some(white_view.clone())]);
    }

    #[test]
    fn mcts_genmove_analyze_ownership_of_walls_from_both_sides() {
        // 7x7 walls: black walls column D and owns A-C, white walls column E and owns F-G, and
        // row 4 splits each side's area in two, so that light playouts do not kill the walls
        // (with one area each they keep them in only about 85% of the simulations). Under a
        // playout budget the last report (the one after the search) carries the ownership of
        // all its simulations.
        let config = GoConfig {
            seed: 3,
            nodes: Some(2000),
            ..GoConfig::default()
        };
        let mut s = GoSession::new(config, Arc::new(StopSignal::new())).unwrap();
        s.boardsize(7, 7).unwrap();
        for y in 0..7 {
            s.play(Color::Black, at(3, y)).unwrap();
            s.play(Color::White, at(4, y)).unwrap();
        }
        for x in 0..3 {
            s.play(Color::Black, at(x, 3)).unwrap();
        }
        for x in 5..7 {
            s.play(Color::White, at(x, 3)).unwrap();
        }
        for (color, sign) in [(Color::Black, 1.0), (Color::White, -1.0)] {
            let mut got = Vec::new();
            let mut sink =
                |_: &[Candidate<Vertex>], own: Option<&[f32]>| got.push(own.map(<[f32]>::to_vec));
            let options = AnalyzeOptions {
                ownership: true,
                ..AnalyzeOptions::default()
            };
            let mut req = GtpRequest {
                seq: 0,
                at: Instant::now(),
                analysis: Some((&mut sink, options)),
            };
            s.genmove(color, false, &mut req);
            let own = got
                .last()
                .cloned()
                .flatten()
                .expect("a report with ownership");
            assert_eq!(own.len(), 49);
            for (i, &v) in own.iter().enumerate() {
                assert!((-1.0..=1.0).contains(&v), "{v}");
                // Row-major from the top left: the column is i % 7.
                let black_owns = i % 7 <= 3;
                let mine = sign * if black_owns { v } else { -v };
                assert!(mine > 0.5, "{color:?} point {i}: {v}");
            }
        }
    }
}
