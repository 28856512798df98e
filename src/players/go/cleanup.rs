//! The cleanup phase's move choice (`kgs-genmove_cleanup`, sent by KGS and OGS bridges when
//! the players disagree on dead stones): while any of the opponent's stones are dead by the
//! estimate, only the liberties of those groups are searched, so each move works on a capture
//! and the search picks the safe one, and a pass is never answered while one is left (the
//! search's pass is replaced by [`cleanup_capture_move`]). With no dead stone left it is
//! genmove playing on. Never resigns.

use log::info;

use super::{GoDecision, GoPlayer, GoRequest};
use crate::rules::go::{move_name, GoGame, GoMove, Point};
use crate::rules::Color;
use crate::search::move_filter::{FilterKind, FilterRule, MoveFilter};

/// [`GoPlayer::genmove_cleanup`] for any player: `dead` are the opponent's stones to capture.
pub fn genmove_cleanup<P: GoPlayer + ?Sized>(
    player: &mut P,
    game: &GoGame,
    color: Color,
    dead: &[Point],
    req: &mut GoRequest<'_, '_>,
) -> GoDecision {
    if dead.is_empty() {
        return player.genmove_playing_on(game, color, req);
    }
    let targets = dead_group_liberties(game, color, dead);
    let filter = MoveFilter::new(vec![FilterRule {
        kind: if targets.is_empty() {
            FilterKind::Avoid
        } else {
            FilterKind::Allow
        },
        color,
        moves: if targets.is_empty() {
            vec![GoMove::Pass]
        } else {
            targets.iter().map(|&p| GoMove::Play(p)).collect()
        },
        until_depth: 1,
    }]);
    let mut cleanup_req = GoRequest {
        tm: req.tm,
        report: &mut *req.report,
        report_every: req.report_every,
        ownership: req.ownership,
        filter: &filter,
    };
    let decision = player.genmove_playing_on(game, color, &mut cleanup_req);
    if decision == GoDecision::Play(GoMove::Pass) {
        if let Some(p) = cleanup_capture_move(game, color, &targets) {
            info!(
                "cleanup: the player passed with {} dead stones left; playing {}",
                dead.len(),
                move_name(game.board(), GoMove::Play(p))
            );
            return GoDecision::Play(GoMove::Play(p));
        }
    }
    decision
}

/// The points next to `dead` groups where `color` may legally play: where capturing them
/// starts.
fn dead_group_liberties(game: &GoGame, color: Color, dead: &[Point]) -> Vec<Point> {
    let b = game.board();
    let mut libs = Vec::new();
    for &p in dead {
        for n in b.neighbors(p.idx()) {
            let q = Point(n as u16);
            if b.on_board(q) && b.is_empty(q) && !libs.contains(&q) && game.is_legal(q, color) {
                libs.push(q);
            }
        }
    }
    libs.sort();
    libs
}

/// A capturing move for cleanup when the search would pass: among `targets` (liberties of
/// dead groups), one that captures, else one that leaves the mover's own group at least two
/// liberties (never a self-atari), fewest liberties of the attacked group first; `None` when
/// every target is a self-atari.
fn cleanup_capture_move(game: &GoGame, color: Color, targets: &[Point]) -> Option<Point> {
    let b = game.board();
    let mut best: Option<(usize, Point)> = None;
    for &q in targets {
        let mut after = b.clone();
        let captured = after.play(q, color);
        if captured == 0 && after.liberties(q) < 2 {
            continue;
        }
        // The attacked group's liberties before the move, fewest first; a capture ranks 0.
        let attacked = if captured > 0 {
            0
        } else {
            b.neighbors(q.idx())
                .iter()
                .map(|&n| Point(n as u16))
                .filter(|&n| b.on_board(n) && b.get(n) == Some(color.opponent()))
                .map(|n| b.liberties(n))
                .min()
                .unwrap_or(usize::MAX)
        };
        if best.is_none_or(|(a, p)| attacked < a || (attacked == a && q < p)) {
            best = Some((attacked, q));
        }
    }
    best.map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::GoRules;

    #[test]
    fn the_cleanup_fallback_captures_first_and_never_self_ataris() {
        // 5x5: a white stone at C3 with one liberty left (C4); white A1 and B2 whose
        // liberties A2 and B1 would each be a black self-atari that captures nothing.
        let mut g = GoGame::new(5, 5, GoRules::default()).unwrap();
        let board = g.board().clone();
        let p = |s: &str| crate::rules::go::parse_point(&board, s).unwrap();
        let setup: Vec<(Point, Color)> = [
            ("B3", Color::Black),
            ("C2", Color::Black),
            ("D3", Color::Black),
            ("C3", Color::White),
            ("A1", Color::White),
            ("B2", Color::White),
        ]
        .iter()
        .map(|&(s, c)| (p(s), c))
        .collect();
        g.place_setup(&setup).unwrap();
        let targets = dead_group_liberties(&g, Color::Black, &[p("C3"), p("A1")]);
        let mut expected = vec![p("C4"), p("A2"), p("B1")];
        expected.sort();
        assert_eq!(targets, expected);
        assert_eq!(
            cleanup_capture_move(&g, Color::Black, &targets),
            Some(p("C4"))
        );
        assert_eq!(
            cleanup_capture_move(&g, Color::Black, &[p("A2"), p("B1")]),
            None
        );
    }
}
