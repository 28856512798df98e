//! Keeping out of one's own territory under territory scoring (Japanese rules): there a stone
//! played inside one's own settled territory costs a point and changes nothing else, while
//! under area scoring it is free. A point counts as such when no enemy stone touches it, even
//! diagonally, and Monte Carlo ownership gives it to the player beyond a threshold
//! ([`super::mcts::MctsParams::territory_settled`]): a point the opponent can still contest is
//! near an enemy stone or shared in the playouts. [`instead`] picks what to play in its place.

use crate::rules::go::{GoBoard, GoMove, Point};
use crate::rules::Color;
use crate::search::mcts::Candidate;

/// Whether no stone of `color`'s opponent touches `p`, orthogonally or diagonally: the first
/// test of a point inside `color`'s territory, cheap enough to run before any ownership.
pub fn enclosed(board: &GoBoard, p: Point, color: Color) -> bool {
    let theirs = color.opponent() as u8;
    let i = p.idx();
    board
        .neighbors(i)
        .into_iter()
        .chain(board.diagonals(i))
        .all(|q| board.cell(q) != theirs)
}

/// Whether `p` is inside `color`'s settled territory: [`enclosed`], and `own` (ownership by
/// padded point, -1 white .. 1 black) gives it to `color` at least `settled`.
pub fn in_own_territory(
    board: &GoBoard,
    own: &[f32],
    p: Point,
    color: Color,
    settled: f32,
) -> bool {
    let share = match color {
        Color::Black => own[p.idx()],
        Color::White => -own[p.idx()],
    };
    enclosed(board, p, color) && share >= settled
}

/// What to play instead of a move inside one's own territory: the first of `moves` (most
/// visited first) that the search tried, that is not inside `color`'s territory by
/// `in_territory`, and whose winrate is within `slack` of the best's; a pass when none is.
pub fn instead(
    moves: &[Candidate<GoMove>],
    slack: f64,
    in_territory: impl Fn(Point) -> bool,
) -> GoMove {
    let Some(best) = moves.first() else {
        return GoMove::Pass;
    };
    moves
        .iter()
        .filter(|m| m.visits > 0 && m.winrate >= best.winrate - slack)
        .find(|m| match m.mv {
            GoMove::Play(p) => !in_territory(p),
            GoMove::Pass => true,
        })
        .map_or(GoMove::Pass, |m| m.mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::{parse_point, GoGame, GoRules};

    fn cand(mv: GoMove, visits: u64, winrate: f64) -> Candidate<GoMove> {
        Candidate {
            mv,
            visits,
            winrate,
            prior: 0.0,
            lcb: 0.0,
            score_lead: 0.0,
            order: 0,
            pv: vec![mv],
        }
    }

    #[test]
    fn a_point_is_enclosed_when_no_enemy_stone_touches_it() {
        let g = crate::rules::go::game_with_stones(9, "C3", "E5");
        let b = g.board();
        let p = |s| parse_point(b, s).unwrap();
        assert!(enclosed(b, p("B2"), Color::Black));
        assert!(enclosed(b, p("A1"), Color::Black));
        assert!(!enclosed(b, p("D4"), Color::Black), "diagonal to E5");
        assert!(!enclosed(b, p("E4"), Color::Black));
        assert!(enclosed(b, p("E4"), Color::White));
    }

    #[test]
    fn the_replacement_is_a_near_move_outside_the_territory_or_a_pass() {
        let g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let p = |s| parse_point(g.board(), s).unwrap();
        let (a, b, c) = (p("A1"), p("B1"), p("J9"));
        let inside = |q: Point| q == a || q == b;
        let moves = [
            cand(GoMove::Play(a), 900, 0.97),
            cand(GoMove::Play(b), 50, 0.97),
            cand(GoMove::Play(c), 40, 0.95),
        ];
        assert_eq!(instead(&moves, 0.05, inside), GoMove::Play(c));
        // Too much worse: pass.
        assert_eq!(instead(&moves, 0.01, inside), GoMove::Pass);
        assert_eq!(instead(&moves[..2], 0.05, inside), GoMove::Pass);
        assert_eq!(instead(&[], 0.05, inside), GoMove::Pass);
    }
}
