//! How the Go session counts and judges a position: `final_score`, `final_status_list` and
//! `sente-ownership`, from the player's dead stones and ownership (asked under a scoring clock
//! of their own) and the rules' count and seki.

use std::collections::HashSet;
use std::time::Instant;

use super::{rows_from_top, GoSession};
use crate::players::GoPlayer;
use crate::rules::go::seki::seki_stones;
use crate::rules::go::{GoGame, GoMove, Point, Tax};
use crate::search::clock::{SearchLimit, TimeManager};
use crate::session::gtp_game::{FinalScore, Status, Vertex};

/// Time the player may spend finding dead stones for `final_score` / `final_status_list`.
pub const SCORING_MS: u64 = 2_000;
/// The hang guard of a dead-stone estimate in deterministic (`--nodes`) mode.
pub const SCORING_SAFETY_MS: u64 = 30_000;

impl GoSession {
    /// The limit for a dead-stone estimate: the player's own playout count decides; the clock
    /// only guards against a hang (loosely under `--nodes`, so that load does not change the
    /// answer of a deterministic run).
    fn scoring_limit(&self) -> SearchLimit {
        match self.config.nodes {
            Some(_) => SearchLimit::move_time(SCORING_SAFETY_MS),
            None => SearchLimit::move_time(SCORING_MS),
        }
    }

    /// Asks the player a scoring question (dead stones, ownership) under the scoring clock.
    fn ask_scoring<T>(
        &mut self,
        ask: impl FnOnce(&mut dyn GoPlayer, &GoGame, &TimeManager<'_>) -> T,
    ) -> T {
        let limit = self.scoring_limit();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let tm = TimeManager::new(&limit, Instant::now(), &stop);
        ask(self.player.as_mut(), &self.game, &tm)
    }

    /// Dead stones by the player's estimate.
    pub(super) fn dead(&mut self) -> Vec<Point> {
        let mut dead = self.ask_scoring(|player, game, tm| player.dead_stones(game, tm));
        let b = self.game.board();
        dead.retain(|&p| b.get(p).is_some());
        dead
    }

    /// `sente-ownership`: every point with its owner by the player's estimate (-1 white .. 1
    /// black), row by row from the top left as GoGui draws them, and black's expected area
    /// margin with komi (and white's handicap bonus).
    pub fn ownership(&mut self) -> (Vec<(Vertex, f32)>, f32) {
        let own = self.ask_scoring(|player, game, tm| player.ownership(game, tm));
        let points: Vec<(Vertex, f32)> = rows_from_top(&self.game)
            .map(|p| (self.vertex(GoMove::Play(p)), own[p.idx()]))
            .collect();
        let margin = points.iter().map(|&(_, v)| v).sum::<f32>() - self.game.effective_komi();
        (points, margin)
    }

    /// Dead stones for the count: the player's estimate, or none when the rules count every
    /// stone on the board as alive (`friendlyPassOk` false, Tromp-Taylor).
    fn dead_for_count(&mut self) -> Vec<Point> {
        if self.game.rules().friendly_pass {
            self.dead()
        } else {
            Vec::new()
        }
    }

    /// `final_status_list alive|dead|seki`: one group per line.
    pub fn final_status_list(&mut self, status: Status) -> Vec<Vec<Vertex>> {
        let dead: HashSet<Point> = self.dead_for_count().into_iter().collect();
        let b = self.game.board();
        let mut seen = HashSet::new();
        let mut groups = Vec::new();
        let seki = seki_stones(self.game.board(), &dead);
        for p in b.points() {
            if b.get(p).is_none() || seen.contains(&p) {
                continue;
            }
            let stones = b.group_stones(p);
            seen.extend(stones.iter().copied());
            let class = if dead.contains(&p) {
                Status::Dead
            } else if seki.contains(&p) {
                Status::Seki
            } else {
                Status::Alive
            };
            if class == status {
                groups.push(
                    stones
                        .iter()
                        .map(|&q| self.vertex(GoMove::Play(q)))
                        .collect(),
                );
            }
        }
        groups
    }

    /// `final_score`: the count under the rules in force, with the player's dead stones lifted
    /// when the rules lift them, and no territory in seki when they tax it.
    pub(super) fn count(&mut self) -> FinalScore {
        let dead = self.dead_for_count();
        let seki: Vec<Point> = match self.game.rules().tax {
            Tax::Seki => {
                let dead: HashSet<Point> = dead.iter().copied().collect();
                seki_stones(self.game.board(), &dead).into_iter().collect()
            }
            Tax::None => Vec::new(),
        };
        FinalScore::from_black_lead(self.game.score(&dead, &seki))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::*;
    use super::super::*;
    use super::*;

    #[test]
    fn scoring_with_dead_stones() {
        // White's lone stone at E5 is called dead.
        let (mut s, _) = session_with(None, vec![(4, 4)], Some(10));
        s.boardsize(5, 5).unwrap();
        s.komi(0.5);
        for x in 0..5 {
            s.play(Color::Black, at(x, 1)).unwrap();
        }
        s.play(Color::White, at(4, 4)).unwrap();
        // Black owns everything: 25 points, minus komi.
        assert_eq!(s.final_score(), Ok(FinalScore::from_black_lead(24.5)));
        let dead = s.final_status_list(Status::Dead);
        assert_eq!(dead, vec![vec![at(4, 4)]]);
        let alive = s.final_status_list(Status::Alive);
        assert_eq!(alive.len(), 1);
        assert_eq!(alive[0].len(), 5);
        assert!(s.final_status_list(Status::Seki).is_empty());
    }

    #[test]
    fn ownership_runs_row_by_row_from_the_top_left_with_the_players_values() {
        // The test player gives each stone to its colour, and the ones it calls dead (B1 here)
        // to the other.
        let (mut s, _) = session_with(None, vec![(1, 0)], Some(10));
        s.boardsize(5, 3).unwrap();
        s.komi(0.5);
        s.play(Color::Black, at(0, 2)).unwrap();
        s.play(Color::White, at(1, 0)).unwrap();
        s.play(Color::White, at(3, 1)).unwrap();
        let (points, margin) = s.ownership();
        let order: Vec<Vertex> = points.iter().map(|&(v, _)| v).collect();
        let expected: Vec<Vertex> = (0..3)
            .rev()
            .flat_map(|y| (0..5).map(move |x| at(x, y)))
            .collect();
        assert_eq!(order, expected);
        assert_eq!(points[0], (at(0, 2), 1.0));
        assert_eq!(points[8], (at(3, 1), -1.0));
        assert_eq!(points[11], (at(1, 0), 1.0));
        assert_eq!(points.iter().filter(|p| p.1 == 0.0).count(), 12);
        // A3 and the dead B1 for black, D2 for white, komi 0.5.
        assert_eq!(margin, 0.5);
    }

    #[test]
    fn seki_is_live_groups_sharing_a_neutral_region_without_two_eyes() {
        let mut s = session();
        s.boardsize(7, 7).unwrap();
        let stones = crate::rules::go::seki::tests::seki_example(s.game.board(), false);
        s.game.place_setup(&stones).unwrap();
        // One eye each (A1, G7) and the shared column D: both groups in seki.
        let seki = s.final_status_list(Status::Seki);
        assert_eq!(seki.len(), 2);
        assert_eq!(seki[0].len() + seki[1].len(), 40);
        assert!(seki.iter().any(|g| g.contains(&at(4, 0))));
        assert!(s.final_status_list(Status::Alive).is_empty());
    }
}
