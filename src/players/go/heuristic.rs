//! `heuristic`: the seed's Go AI (docs/sources.md, SEEDS 003, `calculateBadukAIMove`): every empty
//! point is scored with [`crate::eval::go::baduk`]'s `getBadukMoveScore` and the best is played, ties
//! broken at random (seeded). One ply, no search.
//!
//! Choices of this implementation, which the seed leaves open:
//! - **Legality**: a point must also pass the game's law (simple ko, superko); when every
//!   point of the best score is illegal, the next score down is tried.
//! - **Own eyes**: a point that fills an own eye (all four neighbours own stones or edge, and
//!   the diagonal test) is left out unless the move has tactical value (it captures or saves
//!   a group): the seed has no pass and would otherwise fill its last eyes and die.
//! - **Passing**: the player passes when no move scores above
//!   [`HeuristicParams::pass_threshold`], when only
//!   own-eye fills remain, or when the opponent has just passed and the board as it stands
//!   (every stone alive, counted under the game's rules with komi) is a win for us — the game is then over in our
//!   favour, and playing on could only spoil it.
//! - **Analysis** reports the best-scoring points with their share of a softmax over scores as
//!   `prior`; the scorer has no winrate, so candidates carry `winrate` 0.5 and one visit.
//! - **Analysis ownership** (when the request asks): there is no search to take it from, so it
//!   is [`GoPlayer::ownership`]'s playout estimate ([`HeuristicParams::dead_stone_playouts`] playouts to the
//!   end), computed once before the one report this level makes: the report never changes, so
//!   spending more playouts while the analysis waits for its stop would show nothing.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Decision, GoDecision, GoPlayer, GoRequest, Player};
use crate::eval::go::baduk::BadukScorer;
use crate::rules::go::{move_name, GoGame, GoMove, Point};
use crate::rules::Color;
use crate::search::clock::TimeManager;
use crate::search::mcts::{winrate_lcb, Candidate};
use crate::search::move_filter::MoveFilter;
use crate::search::playout::{owners, rng::Rng};

/// Candidates reported by `analyze`.
const REPORTED: usize = 10;

crate::tunables! {
    /// The level's settings, set by name like [`super::mcts::MctsParams`].
    #[derive(Copy)]
    pub struct HeuristicParams {
        /// A best score at or below this means nothing is worth a stone: pass.
        pass_threshold: i32 = 0, -2000000000 ..= 2000000000;
        /// Playouts spent on the dead-stone estimate.
        dead_stone_playouts: u32 = 1000, 0 ..= 10000000;
    }
}

/// The seed's one-ply scorer as a player.
pub struct Heuristic {
    params: HeuristicParams,
    rng: ChaCha8Rng,
    seed: u64,
    /// Why the last genmove chose its move ([`GoPlayer::explain_last_move`]).
    last_explanation: String,
}

impl Heuristic {
    /// A player seeded with 0, with the default settings.
    pub fn new() -> Heuristic {
        Heuristic::with_params(HeuristicParams::default())
    }

    /// A player seeded with 0 with `params`.
    pub fn with_params(params: HeuristicParams) -> Heuristic {
        Heuristic {
            params,
            rng: ChaCha8Rng::seed_from_u64(0),
            seed: 0,
            last_explanation: String::new(),
        }
    }

    /// Every acceptable point with its score, best first.
    fn scored(game: &GoGame, color: Color) -> Vec<(i32, Point)> {
        let board = game.board();
        let scorer = BadukScorer::new(board, color);
        let mut out: Vec<(i32, Point)> = board
            .empty_points()
            .iter()
            .filter_map(|&p| {
                let p = Point(p);
                if !board.is_legal(p, color) {
                    return None;
                }
                let b = scorer.breakdown(p)?;
                if board.is_eye(p.idx(), color as u8) && b.capture == 0 && b.save == 0 {
                    return None;
                }
                Some((b.total(), p))
            })
            .collect();
        // Sort by score, then by point so that the order never depends on the empty list's.
        out.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        out
    }

    /// Sends `cands` to the request, with the playout ownership when it asks.
    fn report(&mut self, game: &GoGame, req: &mut GoRequest<'_, '_>, cands: &[Candidate<GoMove>]) {
        let own = req.ownership.then(|| self.ownership(game, req.tm));
        (req.report)(cands, own.as_deref());
    }

    /// The decision and the scored list it came from, without the moves `filter` closes at
    /// the first ply.
    fn choose(
        &mut self,
        game: &GoGame,
        color: Color,
        filter: &MoveFilter,
    ) -> (GoMove, Vec<(i32, Point)>) {
        let mut scored = Self::scored(game, color);
        scored.retain(|&(_, p)| !filter.forbids(1, color, GoMove::Play(p)));
        if opponent_passed_and_we_win(game, color) {
            return (GoMove::Pass, scored);
        }
        let mut i = 0;
        while i < scored.len() && scored[i].0 > self.params.pass_threshold {
            let best = scored[i].0;
            let ties: Vec<Point> = scored[i..]
                .iter()
                .take_while(|s| s.0 == best)
                .map(|s| s.1)
                .filter(|&p| game.is_legal(p, color))
                .collect();
            if let Some(&p) = ties.choose(&mut self.rng) {
                return (GoMove::Play(p), scored);
            }
            i += scored[i..].iter().take_while(|s| s.0 == best).count();
        }
        (GoMove::Pass, scored)
    }
}

impl Default for Heuristic {
    fn default() -> Self {
        Heuristic::new()
    }
}

/// Whether the last move was the opponent's pass and the board as it stands (all stones
/// alive) wins for `color` under the game's rules.
pub fn opponent_passed_and_we_win(game: &GoGame, color: Color) -> bool {
    match game.moves().last() {
        Some(&(GoMove::Pass, c)) if c != color => {
            let s = game.score(&[], &[]);
            match color {
                Color::Black => s > 0.0,
                Color::White => s < 0.0,
            }
        }
        _ => false,
    }
}

/// Softmax shares of the scores (temperature 50 points), in the list's order.
fn priors(scored: &[(i32, Point)]) -> Vec<f64> {
    let Some(&(top, _)) = scored.first() else {
        return Vec::new();
    };
    let w: Vec<f64> = scored
        .iter()
        .map(|&(s, _)| ((s - top) as f64 / 50.0).exp())
        .collect();
    let sum: f64 = w.iter().sum();
    w.into_iter().map(|x| x / sum).collect()
}

fn candidates(scored: &[(i32, Point)], chosen: GoMove) -> Vec<Candidate<GoMove>> {
    let pri = priors(scored);
    let mut out: Vec<Candidate<GoMove>> = Vec::new();
    if chosen == GoMove::Pass {
        out.push(Candidate {
            mv: GoMove::Pass,
            visits: 1,
            winrate: 0.5,
            prior: 0.0,
            lcb: winrate_lcb(0.5, 1),
            score_lead: 0.0,
            order: 0,
            pv: vec![GoMove::Pass],
        });
    }
    for (i, &(_, p)) in scored.iter().enumerate().take(REPORTED) {
        let mv = GoMove::Play(p);
        out.push(Candidate {
            mv,
            visits: 1,
            winrate: 0.5,
            prior: pri[i],
            lcb: winrate_lcb(0.5, 1),
            score_lead: 0.0,
            order: out.len(),
            pv: vec![mv],
        });
    }
    out
}

impl Player<GoGame> for Heuristic {
    fn name(&self) -> &'static str {
        "heuristic"
    }
    fn new_game(&mut self, _start: &GoGame) {
        self.last_explanation.clear();
    }
    fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }
    fn decide(&mut self, pos: &GoGame, tm: &TimeManager<'_>) -> Option<Decision<GoMove>> {
        super::decide_quietly(self, pos, tm)
    }
}

impl GoPlayer for Heuristic {
    fn params(&self) -> Vec<crate::search::tunables::Tunable> {
        HeuristicParams::all_tunables()
    }
    fn get_param(&self, name: &str) -> Option<String> {
        self.params.get(name)
    }
    fn set_param(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        self.params.set_known(name, value)
    }
    fn genmove(&mut self, game: &GoGame, color: Color, req: &mut GoRequest<'_, '_>) -> GoDecision {
        let (mv, scored) = self.choose(game, color, req.filter);
        if req.report_every.is_some() {
            self.report(game, req, &candidates(&scored, mv));
        }
        self.last_explanation = explain(game, color, mv, &scored, self.params.pass_threshold);
        GoDecision::Play(mv)
    }
    fn reg_genmove(
        &mut self,
        game: &GoGame,
        color: Color,
        req: &mut GoRequest<'_, '_>,
    ) -> GoDecision {
        // Ties are broken at random: the generator must not move on.
        let kept = self.rng.clone();
        let decision = self.genmove(game, color, req);
        self.rng = kept;
        decision
    }
    fn analyze(&mut self, game: &GoGame, color: Color, req: &mut GoRequest<'_, '_>) {
        // One ply is all there is: report once, then wait for the stop like any analysis.
        let (mv, scored) = self.choose(game, color, req.filter);
        self.report(game, req, &candidates(&scored, mv));
        while !req.tm.should_stop(0) {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
    fn ownership(&mut self, game: &GoGame, tm: &TimeManager<'_>) -> Vec<f32> {
        let mut rng = Rng::new(self.seed ^ game.board().hash());
        owners::ownership(game, self.params.dead_stone_playouts, &mut rng, tm).0
    }
    fn explain_last_move(&self) -> String {
        self.last_explanation.clone()
    }
    /// A one-ply scorer has no estimate of the outcome, so it never claims a win.
    fn certain_win(&self) -> bool {
        false
    }
    fn describe(&self) -> String {
        format!(
            "heuristic: scores every move one ply deep, ties broken at random; passes \
             when no move scores above {}",
            self.params.pass_threshold
        )
    }
}

/// Why `mv` was chosen from `scored` (`pass_threshold` being the level's), in words.
fn explain(
    game: &GoGame,
    color: Color,
    mv: GoMove,
    scored: &[(i32, Point)],
    pass_threshold: i32,
) -> String {
    let GoMove::Play(p) = mv else {
        return if opponent_passed_and_we_win(game, color) {
            "pass: the opponent passed and the board as it stands wins by area".to_string()
        } else {
            format!("pass: no legal move scores above {pass_threshold}")
        };
    };
    let value = scored.iter().find(|s| s.1 == p).map_or(0, |s| s.0);
    let tied = scored.iter().filter(|s| s.0 == value).count();
    format!(
        "{}: scorer value {value} (one ply), {tied} point(s) tied at that value",
        move_name(game.board(), mv)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::go::genmove_with_limit;
    use crate::rules::go::{parse_point, GoRules};
    use crate::search::clock::SearchLimit;

    fn pt(g: &GoGame, s: &str) -> Point {
        parse_point(g.board(), s).unwrap()
    }

    #[test]
    fn settings_are_set_by_name_or_refused() {
        let mut p = Heuristic::new();
        assert_eq!(p.params().len(), 2);
        assert_eq!(p.set_param("pass_threshold", "-5"), Some(Ok(())));
        assert_eq!(p.get_param("pass_threshold").as_deref(), Some("-5"));
        assert!(matches!(
            p.set_param("dead_stone_playouts", "-1"),
            Some(Err(_))
        ));
        assert_eq!(p.get_param("dead_stone_playouts").as_deref(), Some("1000"));
        assert_eq!(p.set_param("explore", "1"), None);
    }

    fn gen(p: &mut Heuristic, g: &GoGame, c: Color) -> GoDecision {
        genmove_with_limit(p, g, c, &SearchLimit::default())
    }

    #[test]
    fn opens_on_a_star_point_and_ties_depend_on_the_seed() {
        let g = GoGame::new(19, 19, GoRules::default()).unwrap();
        let stars = ["D4", "Q4", "D16", "Q16"].map(|s| GoMove::Play(pt(&g, s)));
        let mut seen = std::collections::HashSet::new();
        for seed in 0..12 {
            let mut p = Heuristic::new();
            p.set_seed(seed);
            let GoDecision::Play(mv) = gen(&mut p, &g, Color::Black) else {
                panic!("resigned")
            };
            assert!(stars.contains(&mv), "{mv:?}");
            seen.insert(mv);
            // Same seed, same move.
            let mut q = Heuristic::new();
            q.set_seed(seed);
            assert_eq!(gen(&mut q, &g, Color::Black), GoDecision::Play(mv));
        }
        assert!(seen.len() > 1, "ties are broken at random");
    }

    #[test]
    fn captures_when_it_can() {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        for (s, c) in [
            ("D4", Color::Black),
            ("E4", Color::White),
            ("F4", Color::Black),
            ("J9", Color::White),
            ("E3", Color::Black),
            ("J8", Color::White),
        ] {
            g.play(GoMove::Play(pt(&g, s)), c).unwrap();
        }
        let mut p = Heuristic::new();
        assert_eq!(
            gen(&mut p, &g, Color::Black),
            GoDecision::Play(GoMove::Play(pt(&g, "E5")))
        );
        let why = p.explain_last_move();
        assert!(why.starts_with("E5: scorer value "), "{why}");
        assert!(why.ends_with(" 1 point(s) tied at that value"), "{why}");
    }

    #[test]
    fn passes_when_only_own_eyes_remain_or_the_opponent_passed_while_we_win() {
        // 5x5: black owns everything but two eyes; white has nothing.
        let mut g = GoGame::new(5, 5, GoRules::default()).unwrap();
        let eyes = ["B2", "D4"];
        let stones: Vec<(Point, Color)> = g
            .board()
            .points()
            .filter(|&p| !eyes.iter().any(|&e| pt(&g, e) == p))
            .map(|p| (p, Color::Black))
            .collect();
        g.place_setup(&stones).unwrap();
        let mut p = Heuristic::new();
        assert_eq!(
            gen(&mut p, &g, Color::Black),
            GoDecision::Play(GoMove::Pass)
        );
        // White has only suicides: it passes too.
        assert_eq!(
            gen(&mut p, &g, Color::White),
            GoDecision::Play(GoMove::Pass)
        );
        assert_eq!(p.explain_last_move(), "pass: no legal move scores above 0");

        // After a white pass on a board where black leads, black passes.
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        for row in 1..=9 {
            g.play(GoMove::Play(pt(&g, &format!("F{row}"))), Color::Black)
                .unwrap();
        }
        g.play(GoMove::Pass, Color::White).unwrap();
        assert_eq!(
            gen(&mut p, &g, Color::Black),
            GoDecision::Play(GoMove::Pass)
        );
        assert!(p
            .explain_last_move()
            .starts_with("pass: the opponent passed"));
        // White, behind, does not pass just because black passed.
        g.play(GoMove::Pass, Color::Black).unwrap();
        assert_ne!(
            gen(&mut p, &g, Color::White),
            GoDecision::Play(GoMove::Pass)
        );
    }

    #[test]
    fn reports_playout_ownership_only_when_asked() {
        // 9x9: black walls column D, white column E, and row 5 splits each area in two; black
        // owns A-D, white E-J.
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let mut setup = Vec::new();
        for row in 1..=9 {
            setup.push((pt(&g, &format!("D{row}")), Color::Black));
            setup.push((pt(&g, &format!("E{row}")), Color::White));
        }
        for (cols, c) in [("ABC", Color::Black), ("FGHJ", Color::White)] {
            for col in cols.chars() {
                setup.push((pt(&g, &format!("{col}5")), c));
            }
        }
        g.place_setup(&setup).unwrap();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let limit = SearchLimit::nodes(300);
        for ownership in [false, true] {
            let tm = TimeManager::new(&limit, std::time::Instant::now(), &stop);
            let mut got = Vec::new();
            let mut sink = |c: &[Candidate<GoMove>], own: Option<&[f32]>| {
                assert!(!c.is_empty());
                got.push(own.map(<[f32]>::to_vec));
            };
            let mut req = GoRequest {
                tm: &tm,
                report: &mut sink,
                report_every: Some(std::time::Duration::from_millis(10)),
                ownership,
                filter: &crate::search::move_filter::MoveFilter::default(),
            };
            Heuristic::new().genmove(&g, Color::White, &mut req);
            assert_eq!(got.len(), 1);
            let Some(own) = got.pop().unwrap() else {
                assert!(!ownership, "asked, not given");
                continue;
            };
            assert!(ownership, "given unasked");
            // The player's convention: padded points, black positive.
            let b = g.board();
            assert_eq!(own.len(), b.array_len());
            for p in b.points() {
                let black_side = b.xy(p).0 <= 3;
                let v = own[p.idx()];
                assert!((-1.0..=1.0).contains(&v));
                assert!(if black_side { v > 0.5 } else { v < -0.5 }, "{v}");
            }
        }
    }

    #[test]
    fn respects_superko() {
        // The position of the superko test in rules::go::game: black's retake at C2 is a
        // superko violation, so the heuristic must not play it even though it captures.
        let mut g = GoGame::new(5, 5, GoRules::default()).unwrap();
        for s in "B3 C3 A2 D2 B1 C1 C2 B2".split_whitespace() {
            let c = g.to_move();
            g.play(GoMove::Play(pt(&g, s)), c).unwrap();
        }
        g.play(GoMove::Pass, Color::Black).unwrap();
        g.play(GoMove::Pass, Color::White).unwrap();
        let mut p = Heuristic::new();
        let d = gen(&mut p, &g, Color::Black);
        assert_ne!(d, GoDecision::Play(GoMove::Play(pt(&g, "C2"))));
        if let GoDecision::Play(mv) = d {
            assert!(g.check(mv, Color::Black).is_ok());
        }
    }

    #[test]
    fn settings_by_name_and_a_threshold_that_passes() {
        let d = HeuristicParams::default();
        let p = d
            .with_overrides("pass_threshold=-5, dead_stone_playouts=40")
            .unwrap();
        assert_eq!((p.pass_threshold, p.dead_stone_playouts), (-5, 40));
        assert!(d.with_overrides("nosuch=1").is_err());
        assert!(d.with_overrides("pass_threshold=x").is_err());
        // Nothing on an empty board scores above a threshold this high: pass.
        let g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let high = d.with_overrides("pass_threshold=1000000000").unwrap();
        let mut p = Heuristic::with_params(high);
        assert_eq!(
            gen(&mut p, &g, Color::Black),
            GoDecision::Play(GoMove::Pass)
        );
        assert!(p.explain_last_move().contains("1000000000"));
    }
}
