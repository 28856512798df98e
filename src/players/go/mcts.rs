//! `mcts`, the default Go level: [`crate::search::mcts`] (UCT + RAVE with the learned move
//! gammas and a ladder reader as prior, light playouts, tree reuse) plus the player's decisions
//! around it:
//!
//! - **Pass** when the opponent has just passed and we win the position, counted under the
//!   game's rules (scoring, komi, handicap bonus), both with every stone on the board alive
//!   (Tromp-Taylor, how our arena and CGOS count: dead enemy stones must be captured first)
//!   and, when the rules lift dead stones ([`crate::rules::go::GoRules::friendly_pass`]),
//!   after removing the stones that Monte Carlo ownership calls dead ([`MctsParams::pass_check_playouts`]
//!   playouts; how GNU Go and gomill count); and when no legal move is left but filling own
//!   eyes.
//! - **Own territory** under territory scoring ([`super::territory`]): a best move inside our
//!   own settled territory (it would cost a point and change nothing) gives way to the most
//!   visited move outside it that is about as good ([`MctsParams::territory_slack`]), else to
//!   a pass.
//! - **Resign** when, after a full search, the best move's winrate is below
//!   [`MctsParams::resign_winrate`] with at least [`MctsParams::resign_min_visits`] visits at the root, and never before half
//!   the board's points have been played as moves; only in `genmove` (never in `reg_genmove`
//!   or cleanup, [`GoPlayer::genmove_playing_on`], which play the best move instead).
//! - **Claim** (only asked by gomill, `gomill-genmove_ex <colour> claim`): under the same
//!   conditions, at or above [`MctsParams::claim_winrate`], the player reports the game won beyond doubt
//!   ([`GoPlayer::certain_win`]); the session then answers `claim`.
//! - **No time at all** (`must_answer_now`): the scorer's best legal move, no search.
//! - **Dead stones**: [`MctsParams::dead_stone_playouts`] ownership playouts from the current position.
//! - **Analysis ownership** (when the request asks): the search's own simulations, averaged
//!   ([`Reporting::ownership`]), not a separate batch of playouts.

use super::territory;
use super::{Decision, GoDecision, GoPlayer, GoRequest, Player};
use crate::eval::go::baduk::BadukScorer;
use crate::rules::go::{move_name, GoGame, GoMove, Point, Scoring};
use crate::rules::Color;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::search::clock::{SearchLimit, TimeManager};
use crate::search::mcts::{
    Mcts, MctsConfig, Mode, Reporting, SearchResult, SearchSpec, NODE_BYTES,
};
use crate::search::move_filter::NO_FILTER;
use crate::search::playout::{owners, rng::Rng};

crate::tunables! {
    /// The level's decisions around the search, and the search's own settings, by name.
    #[derive(Copy)]
    pub struct MctsParams {
        /// Resign below this winrate (with `resign_min_visits` at the root).
        resign_winrate: f64 = 0.05, 0.0 ..= 1.0;
        /// Visits at the root that resigning (and claiming the win) needs.
        resign_min_visits: u64 = 2000, 0 ..= 1e12;
        /// Claim the win (when the controller allows it) at or above this winrate.
        claim_winrate: f64 = 0.99, 0.0 ..= 1.0;
        /// Playouts for the "opponent passed: are we winning?" check.
        pass_check_playouts: u32 = 500, 0 ..= 10000000;
        /// Playouts for the dead-stone estimate.
        dead_stone_playouts: u32 = 2000, 0 ..= 10000000;
        /// Territory scoring: a point no enemy stone touches, ours by at least this ownership, is settled territory we do not fill.
        territory_settled: f32 = 0.8, 0.0 ..= 1.0;
        /// ... instead the most visited move outside it within this winrate of the best, else a pass.
        territory_slack: f64 = 0.05, 0.0 ..= 1.0;
        /// Playouts a ponder runs at most, however long the opponent thinks.
        ponder_max_playouts: u64 = 20_000_000, 0 ..= 1e12;
        nested
        /// The tree search's settings.
        search: MctsConfig;
    }
}

/// Environment variable with `name=value` overrides of the level's settings
/// ([`MctsParams::with_overrides`]), for tuning matches between differently set engines.
pub const TUNING_ENV: &str = "SENTE_MCTS";

/// The MCTS player.
pub struct MctsPlayer {
    /// The search, on one tree however many threads grow it ([`Player::set_threads`]).
    search: Mcts,
    /// The decisions around it (the search keeps its own settings, [`MctsParams::search`]).
    params: MctsParams,
    seed: u64,
    /// Whether [`TUNING_ENV`] changed the search settings (said by `describe`).
    tuned: bool,
    /// Why the last genmove decided what it did ([`GoPlayer::explain_last_move`]).
    last_explanation: String,
    /// Whether the last genmove's search found the game won beyond doubt.
    certain_win: bool,
    /// The memory cap from the controller in bytes (0 = none).
    memory_limit: u64,
}

impl MctsPlayer {
    /// A player seeded with 0, with the default settings changed by the [`TUNING_ENV`]
    /// environment variable when it is set (tuning matches).
    pub fn new() -> MctsPlayer {
        let mut params = MctsParams::default();
        let mut tuned = false;
        if let Ok(text) = std::env::var(TUNING_ENV) {
            match params.with_overrides(&text) {
                Ok(p) => {
                    log::info!("mcts settings from {TUNING_ENV}: {p:?}");
                    params = p;
                    tuned = true;
                }
                Err(e) => log::warn!("{TUNING_ENV} ignored: {e}"),
            }
        }
        MctsPlayer::with_params(params, tuned)
    }

    /// A player seeded with 0 with `params`; `tuned` says (in `describe`) that they came from
    /// [`TUNING_ENV`].
    fn with_params(params: MctsParams, tuned: bool) -> MctsPlayer {
        MctsPlayer {
            search: Mcts::with_config(params.search, 0),
            params,
            seed: 0,
            tuned,
            last_explanation: String::new(),
            certain_win: false,
            memory_limit: 0,
        }
    }

    /// Sizes the tree (one, whatever the threads) to half the memory cap (the rest is boards,
    /// history and buffers).
    fn fit_tree_in_memory(&mut self) {
        if self.memory_limit == 0 {
            return;
        }
        let mut cfg = *self.search.config();
        cfg.max_nodes = ((self.memory_limit / 2) as usize / NODE_BYTES).max(10_000);
        if cfg != *self.search.config() {
            self.search.set_config(cfg);
        }
    }

    /// The settings in force: the level's own and the search's (whose node cap the memory
    /// limit may have set).
    fn current_params(&self) -> MctsParams {
        MctsParams {
            search: *self.search.config(),
            ..self.params
        }
    }

    fn rng(&self, game: &GoGame) -> Rng {
        Rng::new(self.seed ^ game.board().hash().rotate_left(17) ^ game.moves().len() as u64)
    }

    /// Whether the opponent just passed and the position is ours under the game's rules both
    /// as it stands (every stone alive, as Tromp-Taylor referees such as our arena and CGOS
    /// count) and, unless the rules count every stone as alive, with the stones Monte Carlo
    /// ownership calls dead removed (as GNU Go and gomill count). When only the second holds,
    /// dead stones are left to capture and the game goes on.
    fn game_won_after_pass(&self, game: &GoGame, color: Color, tm: &TimeManager<'_>) -> bool {
        match game.moves().last() {
            Some(&(GoMove::Pass, c)) if c != color => {}
            _ => return false,
        }
        let ours = |s: f32| match color {
            Color::Black => s > 0.0,
            Color::White => s < 0.0,
        };
        if !ours(game.score(&[], &[])) {
            return false;
        }
        if !game.rules().friendly_pass {
            // Every stone on the board counts as alive: that count is the result.
            return true;
        }
        let mut rng = self.rng(game);
        let dead = owners::dead_stones(game, self.params.pass_check_playouts, &mut rng, tm);
        ours(game.score(&dead, &[]))
    }

    /// Under territory scoring, when the search's `best` move is inside `color`'s own settled
    /// territory ([`territory::in_own_territory`], by [`MctsParams::pass_check_playouts`]
    /// ownership playouts), what to play instead and why; `None` when it is not, under area
    /// scoring, and when the request forbids a pass (cleanup captures dead stones inside
    /// territory and may not pass).
    fn out_of_own_territory(
        &self,
        game: &GoGame,
        color: Color,
        req: &GoRequest<'_, '_>,
        result: &SearchResult,
        best: GoMove,
    ) -> Option<(GoMove, String)> {
        let GoMove::Play(p) = best else {
            return None;
        };
        if game.rules().scoring != Scoring::Territory
            || req.filter.forbids(1, color, GoMove::Pass)
            || !territory::enclosed(game.board(), p, color)
        {
            return None;
        }
        let mut rng = self.rng(game);
        let (own, _) = owners::ownership(game, self.params.pass_check_playouts, &mut rng, req.tm);
        let settled = self.params.territory_settled;
        let inside = |q| territory::in_own_territory(game.board(), &own, q, color, settled);
        if !inside(p) {
            return None;
        }
        let mv = territory::instead(&result.moves, self.params.territory_slack, inside);
        let board = game.board();
        let why = format!(
            "{}: {} is inside our own territory, which costs a point under territory scoring",
            move_name(board, mv),
            move_name(board, best)
        );
        Some((mv, why))
    }

    /// The search for `color` under `req` (its clock, reports and filter) in `mode`, its root
    /// moves reported as candidates while it runs.
    fn run_search(
        &mut self,
        game: &GoGame,
        color: Color,
        req: &mut GoRequest<'_, '_>,
        mode: Mode,
    ) -> SearchResult {
        let spec = SearchSpec {
            mode,
            reporting: Reporting {
                every: req.report_every,
                ownership: req.ownership,
            },
            filter: req.filter,
        };
        self.search
            .search(game, color, req.tm, spec, &mut *req.report)
    }

    /// The decision for `color` and, in words, why (for `gomill-explain_last_move`). With
    /// `may_resign` false (`reg_genmove`, cleanup) a hopeless position still gets its best move.
    fn choose(
        &mut self,
        game: &GoGame,
        color: Color,
        req: &mut GoRequest<'_, '_>,
        may_resign: bool,
    ) -> (GoDecision, String) {
        if req.tm.must_answer_now() {
            let mv = quick_move(game, color);
            let why = format!(
                "{}: no time to search, the scorer's best move",
                move_name(game.board(), mv)
            );
            return (GoDecision::Play(mv), why);
        }
        // A pass the request forbids (cleanup, `avoid pass`) is not ours to play, won or not.
        if !req.filter.forbids(1, color, GoMove::Pass)
            && self.game_won_after_pass(game, color, req.tm)
        {
            let why = "pass: the opponent passed and the game is won by area, both with every \
                       stone alive and with the stones Monte Carlo ownership calls dead removed";
            return (GoDecision::Play(GoMove::Pass), why.to_string());
        }
        let mode = if req.tm.time_is_per_move() {
            Mode::PlayTurn
        } else {
            Mode::Play
        };
        let result = self.run_search(game, color, req, mode);
        if req.report_every.is_some() {
            (req.report)(&result.moves, result.ownership.as_deref());
        }
        let Some(best) = result.best else {
            let why = if req.filter.is_empty() {
                "pass: no legal move is left but filling own eyes"
            } else {
                "pass: no legal move is left that avoid / allow leave open, but filling own eyes"
            };
            return (GoDecision::Play(GoMove::Pass), why.to_string());
        };
        let summary = search_summary(game, &result);
        let area = game.board().width() * game.board().height();
        let p = &self.params;
        let settled =
            result.total_visits() >= p.resign_min_visits && game.moves().len() >= area / 2;
        self.certain_win = settled && result.winrate() >= p.claim_winrate;
        if may_resign && settled && result.winrate() < p.resign_winrate {
            log::info!(
                "resigning: winrate {:.3} over {} visits",
                result.winrate(),
                result.total_visits()
            );
            return (GoDecision::Resign, format!("resign: {summary}"));
        }
        if let Some((mv, why)) = self.out_of_own_territory(game, color, req, &result, best) {
            return (GoDecision::Play(mv), format!("{why}; {summary}"));
        }
        log::debug!(
            "mcts: {} playouts in {:?}, best {:?} winrate {:.3}, tree {} nodes",
            result.playouts,
            result.elapsed,
            best,
            result.winrate(),
            self.search.tree_size()
        );
        (GoDecision::Play(best), summary)
    }
}

/// The search's verdict in words: the best move's winrate, visits and score lead, the work
/// done, and the line it expects.
fn search_summary(game: &GoGame, result: &SearchResult) -> String {
    let board = game.board();
    let Some(best) = result.moves.first() else {
        return "no move searched".to_string();
    };
    let pv: Vec<String> = best.pv.iter().map(|&m| move_name(board, m)).collect();
    format!(
        "{} wins {:.1}% of {} visits (score lead {:+.1}); {} playouts in {:.2} s; pv {}",
        move_name(board, best.mv),
        100.0 * best.winrate,
        best.visits,
        best.score_lead,
        result.playouts,
        result.elapsed.as_secs_f64(),
        pv.join(" ")
    )
}

impl Default for MctsPlayer {
    fn default() -> Self {
        MctsPlayer::new()
    }
}

/// The scorer's best move that the game allows (no search), or a pass.
fn quick_move(game: &GoGame, color: Color) -> GoMove {
    let board = game.board();
    let scorer = BadukScorer::new(board, color);
    let mut best: Option<(i32, Point)> = None;
    for &p in board.empty_points() {
        let p = Point(p);
        if board.is_eye(p.idx(), color as u8) || !board.is_legal(p, color) {
            continue;
        }
        if let Some(s) = scorer.score(p) {
            if best.is_none_or(|(b, q)| s > b || (s == b && p < q)) && game.is_legal(p, color) {
                best = Some((s, p));
            }
        }
    }
    best.map_or(GoMove::Pass, |(_, p)| GoMove::Play(p))
}

impl Player<GoGame> for MctsPlayer {
    fn name(&self) -> &'static str {
        "mcts"
    }
    fn new_game(&mut self, _start: &GoGame) {
        self.search.clear();
        self.last_explanation.clear();
        self.certain_win = false;
    }
    fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.search.set_seed(seed);
    }
    fn set_memory_limit(&mut self, bytes: u64) {
        if bytes > 0 {
            self.memory_limit = bytes;
            self.fit_tree_in_memory();
        }
    }
    fn set_threads(&mut self, threads: usize) {
        self.search.set_threads(threads);
    }
    fn decide(&mut self, pos: &GoGame, tm: &TimeManager<'_>) -> Option<Decision<GoMove>> {
        super::decide_quietly(self, pos, tm)
    }
}

impl GoPlayer for MctsPlayer {
    fn params(&self) -> Vec<crate::search::tunables::Tunable> {
        MctsParams::all_tunables()
    }
    fn get_param(&self, name: &str) -> Option<String> {
        self.current_params().get(name)
    }
    fn set_param(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        let mut p = self.current_params();
        if let Err(e) = p.set_known(name, value)? {
            return Some(Err(e));
        }
        self.params = p;
        if p.search != *self.search.config() {
            self.search.set_config(p.search);
        }
        Some(Ok(()))
    }
    fn clear_cache(&mut self) {
        self.search.clear();
    }
    fn genmove(&mut self, game: &GoGame, color: Color, req: &mut GoRequest<'_, '_>) -> GoDecision {
        self.certain_win = false;
        let (decision, why) = self.choose(game, color, req, true);
        self.last_explanation = why;
        decision
    }
    fn reg_genmove(
        &mut self,
        game: &GoGame,
        color: Color,
        req: &mut GoRequest<'_, '_>,
    ) -> GoDecision {
        // The tree this search grows would be reused by the next genmove and change its
        // answer: put the old one back.
        let kept = self.search.clone();
        let decision = self.genmove_playing_on(game, color, req);
        self.search = kept;
        decision
    }
    fn genmove_playing_on(
        &mut self,
        game: &GoGame,
        color: Color,
        req: &mut GoRequest<'_, '_>,
    ) -> GoDecision {
        self.certain_win = false;
        let (decision, why) = self.choose(game, color, req, false);
        self.last_explanation = why;
        decision
    }
    fn ponder(&mut self, game: &GoGame, color: Color, stop: &AtomicBool) {
        // The tree grown here is the one the next genmove reuses (the opponent's move is
        // one of its root's children), so pondering is worth what it adds there.
        let limit = SearchLimit::nodes(self.params.ponder_max_playouts);
        let tm = &TimeManager::new(&limit, Instant::now(), stop);
        let spec = SearchSpec {
            mode: Mode::Analyze,
            reporting: Reporting {
                every: None,
                ownership: false,
            },
            filter: &NO_FILTER,
        };
        let result = self.search.search(game, color, tm, spec, &mut |_, _| {});
        log::debug!(
            "pondered {} playouts in {:?}; tree {} nodes",
            result.playouts,
            result.elapsed,
            self.search.tree_size()
        );
    }
    fn analyze(&mut self, game: &GoGame, color: Color, req: &mut GoRequest<'_, '_>) {
        let result = self.run_search(game, color, req, Mode::Analyze);
        if req.report_every.is_none() {
            (req.report)(&result.moves, result.ownership.as_deref());
        }
    }
    fn ownership(&mut self, game: &GoGame, tm: &TimeManager<'_>) -> Vec<f32> {
        let mut rng = self.rng(game);
        owners::ownership(game, self.params.dead_stone_playouts, &mut rng, tm).0
    }
    fn explain_last_move(&self) -> String {
        self.last_explanation.clone()
    }
    fn certain_win(&self) -> bool {
        self.certain_win
    }
    fn describe(&self) -> String {
        format!(
            "mcts: UCT with RAVE, the learned move gammas and a ladder reader as prior, light \
             playouts, tree reuse; {}; resigns below {:.0}% (claims above {:.0}% when allowed) after \
             {} visits; search settings{}: {}",
            match self.search.threads() {
                1 => "one thread".to_string(),
                n => format!("{n} threads sharing one tree (tree parallel, virtual loss)"),
            },
            100.0 * self.params.resign_winrate,
            100.0 * self.params.claim_winrate,
            self.params.resign_min_visits,
            if self.tuned {
                format!(" (from {TUNING_ENV})")
            } else {
                String::new()
            },
            self.search.config().settings_text()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::go::genmove_with_limit;
    use crate::rules::go::{parse_point, GoRules};
    use crate::search::clock::SearchLimit;
    use crate::search::mcts::Candidate;

    fn gen(p: &mut MctsPlayer, g: &GoGame, c: Color, limit: SearchLimit) -> GoDecision {
        genmove_with_limit(p, g, c, &limit)
    }

    #[test]
    fn settings_are_listed_read_and_set_by_name_for_the_level_and_its_search() {
        let mut p = MctsPlayer::with_params(MctsParams::default(), false);
        let names: Vec<&str> = p.params().iter().map(|t| t.name).collect();
        assert!(names.contains(&"resign_winrate") && names.contains(&"explore"));
        assert_eq!(p.get_param("explore").as_deref(), Some("0.1"));
        assert_eq!(p.set_param("explore", "0.25"), Some(Ok(())));
        assert_eq!(p.search.config().explore, 0.25);
        assert_eq!(p.set_param("resign_winrate", "0.1"), Some(Ok(())));
        assert_eq!(p.get_param("resign_winrate").as_deref(), Some("0.1"));
        let before = p.current_params();
        assert!(matches!(p.set_param("explore", "x"), Some(Err(_))));
        assert!(matches!(p.set_param("resign_winrate", "2"), Some(Err(_))));
        assert_eq!(p.current_params(), before);
        assert_eq!(p.set_param("rfp_margin", "1"), None);
        assert_eq!(p.get_param("nosuch"), None);
    }

    fn pt(g: &GoGame, s: &str) -> Point {
        parse_point(g.board(), s).unwrap()
    }

    /// 9x9 split by a wall: black on column E and the left half of row 5, white on column F
    /// and the right half of row 5, white stones on `extra_white`; white has just passed.
    fn split_board(extra_white: &[&str]) -> GoGame {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let mut setup: Vec<_> = extra_white
            .iter()
            .map(|s| (pt(&g, s), Color::White))
            .collect();
        for row in 1..=9 {
            setup.push((pt(&g, &format!("E{row}")), Color::Black));
            setup.push((pt(&g, &format!("F{row}")), Color::White));
        }
        for col in ["A", "B", "C", "D"] {
            setup.push((pt(&g, &format!("{col}5")), Color::Black));
        }
        for col in ["G", "H", "J"] {
            setup.push((pt(&g, &format!("{col}5")), Color::White));
        }
        g.place_setup(&setup).unwrap();
        g.play(GoMove::Pass, Color::White).unwrap();
        g
    }

    #[test]
    fn passes_after_the_opponent_passes_when_ahead() {
        // Black owns the left five columns of 9x9 (wall on E, split by row 5), white the rest.
        let mut g = split_board(&[]);
        let mut p = MctsPlayer::new();
        // Black 45 - white 36 - 7.5 > 0: black passes.
        assert_eq!(
            gen(&mut p, &g, Color::Black, SearchLimit::nodes(500)),
            GoDecision::Play(GoMove::Pass)
        );
        assert!(
            p.explain_last_move()
                .starts_with("pass: the opponent passed"),
            "{}",
            p.explain_last_move()
        );
        // White, behind after black's pass, plays on.
        g.play(GoMove::Pass, Color::Black).unwrap();
        let d = gen(&mut p, &g, Color::White, SearchLimit::nodes(500));
        assert_ne!(d, GoDecision::Play(GoMove::Pass));
        // The explanation names the move played and the search's budget.
        let GoDecision::Play(mv) = d else {
            panic!("{d:?}")
        };
        let why = p.explain_last_move();
        let name = crate::rules::go::move_name(g.board(), mv);
        assert!(why.starts_with(&format!("{name} wins ")), "{why}");
        assert!(why.contains("; 500 playouts in "), "{why}");
        assert!(why.contains(&format!("; pv {name}")), "{why}");
        p.new_game(&g);
        assert_eq!(p.explain_last_move(), "");
    }

    /// The 9x9 position of issue 64 (komi 5.5, black to move), its stones as SGF points. C9 is
    /// no eye: it is the last liberty of black's A9 B9 B8, shared with white's C8. B2 secures
    /// the lower left group (8 empty points) but white takes the three stones at C9: W+0.5 by
    /// area. C9 saves them; white's B2 then reduces the lower left, and after B1 A2 C2 C1 D1 the
    /// count is B+1.5 (an exhaustive search of those nine points, every other point settled, finds
    /// nothing better for either side). GNU Go 3.8 answers B2; the winning move is C9.
    fn seki_or_three_stones() -> GoGame {
        let white =
            "ab cb ac bc cc ad cd ed ae be ce ee fe cf df ef ff gf hf if eg gg fh gh hh ih fi";
        let black = "aa ba da bb db fb gb hb ib dc ec fc dd fd de ge he ie af bf bg cg dg dh eh ei";
        let rules = GoRules {
            komi: 5.5,
            ..GoRules::default()
        };
        let mut g = GoGame::new(9, 9, rules).unwrap();
        let mut setup = Vec::new();
        for (list, c) in [(black, Color::Black), (white, Color::White)] {
            for s in list.split_whitespace() {
                let b = s.as_bytes();
                let (x, y) = ((b[0] - b'a') as usize, (b[1] - b'a') as usize);
                setup.push((g.board().point(x, 8 - y).unwrap(), c));
            }
        }
        g.place_setup(&setup).unwrap();
        g
    }

    #[test]
    fn saves_the_three_stones_that_win_rather_than_the_group_that_lives_anyway() {
        let g = seki_or_three_stones();
        assert_eq!(g.to_move(), Color::Black);
        let mut p = MctsPlayer::new();
        let d = gen(&mut p, &g, Color::Black, SearchLimit::nodes(10_000));
        assert_eq!(
            d,
            GoDecision::Play(GoMove::Play(pt(&g, "C9"))),
            "{}",
            p.explain_last_move()
        );
    }

    #[test]
    fn under_territory_scoring_it_does_not_fill_its_own_territory() {
        use crate::rules::go::kata_rules::KataRules;
        // The split board, white's pass taken back: black to move, every boundary closed.
        let mut g = split_board(&[]);
        assert!(g.undo());
        let own = |g: &GoGame, d: &GoDecision| match d {
            GoDecision::Play(GoMove::Play(q)) => g.board().xy(*q).0 < 4,
            _ => false,
        };
        let mut p = MctsPlayer::new();
        // Under area scoring a stone inside costs nothing, and the search plays one there.
        let d = gen(&mut p, &g, Color::Black, SearchLimit::nodes(1000));
        assert!(own(&g, &d), "{d:?}: {}", p.explain_last_move());
        let japanese = KataRules::named("japanese").unwrap().to_go_rules(7.5);
        g.set_rules(japanese.unwrap());
        let d = gen(&mut p, &g, Color::Black, SearchLimit::nodes(1000));
        assert!(!own(&g, &d), "{d:?}: {}", p.explain_last_move());
        assert!(
            p.explain_last_move()
                .contains("is inside our own territory"),
            "{}",
            p.explain_last_move()
        );
    }

    #[test]
    fn captures_dead_stones_before_passing() {
        // As above, plus a dead white stone at B2 in black's area: counted with every stone
        // alive, black's lower-left region is nobody's and black loses, so black plays on
        // (to capture it) instead of passing.
        let g = split_board(&["B2"]);
        let mut p = MctsPlayer::new();
        let d = gen(&mut p, &g, Color::Black, SearchLimit::nodes(2000));
        let GoDecision::Play(GoMove::Play(q)) = d else {
            panic!("black should play on, not {d:?}")
        };
        // The move is inside black's lower-left region, where the dead stone is.
        let (x, y) = g.board().xy(q);
        assert!(
            x < 4 && y < 4,
            "{}",
            crate::rules::go::move_name(g.board(), GoMove::Play(q))
        );
    }

    #[test]
    fn resigns_a_hopeless_game_but_not_early() {
        // Black builds walls on 7x7 while white passes: 26 moves, white has nothing.
        let mut g = GoGame::new(7, 7, GoRules::default()).unwrap();
        let black = "A4 B4 C4 D4 E4 F4 G4 B2 D2 F2 B6 D6 F6";
        for s in black.split_whitespace() {
            g.play(GoMove::Play(pt(&g, s)), Color::Black).unwrap();
            g.play(GoMove::Pass, Color::White).unwrap();
        }
        g.play(GoMove::Pass, Color::Black).unwrap();
        let mut p = MctsPlayer::new();
        // 27 moves on 49 points: past half the board.
        let d = gen(&mut p, &g, Color::White, SearchLimit::nodes(6000));
        assert_eq!(d, GoDecision::Resign);
        assert!(
            p.explain_last_move().starts_with("resign: "),
            "{}",
            p.explain_last_move()
        );
        assert!(!p.certain_win());
        // Black, on the same board, is certain to win: it may claim.
        let d = gen(&mut p, &g, Color::Black, SearchLimit::nodes(6000));
        assert!(matches!(d, GoDecision::Play(_)), "{d:?}");
        assert!(p.certain_win(), "{}", p.explain_last_move());
        // In the opening it never resigns, however bad.
        let mut h = GoGame::new(7, 7, GoRules::default()).unwrap();
        for s in ["D4", "C4", "E4"] {
            h.play(GoMove::Play(pt(&h, s)), Color::Black).unwrap();
        }
        assert_ne!(
            gen(&mut p, &h, Color::White, SearchLimit::nodes(6000)),
            GoDecision::Resign
        );
        // Nor does black claim there, however good its position.
        gen(&mut p, &h, Color::Black, SearchLimit::nodes(6000));
        assert!(!p.certain_win(), "{}", p.explain_last_move());
    }

    #[test]
    fn reg_genmove_answers_a_move_where_genmove_resigns() {
        // The hopeless 7x7 position of the test above, white to move.
        let mut g = GoGame::new(7, 7, GoRules::default()).unwrap();
        for s in "A4 B4 C4 D4 E4 F4 G4 B2 D2 F2 B6 D6 F6".split_whitespace() {
            g.play(GoMove::Play(pt(&g, s)), Color::Black).unwrap();
            g.play(GoMove::Pass, Color::White).unwrap();
        }
        g.play(GoMove::Pass, Color::Black).unwrap();
        let mut p = MctsPlayer::new();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let limit = SearchLimit::nodes(6000);
        let tm = TimeManager::new(&limit, std::time::Instant::now(), &stop);
        let mut sink = |_: &[Candidate<GoMove>], _: Option<&[f32]>| {};
        let filter = crate::search::move_filter::MoveFilter::default();
        let mut req = GoRequest {
            tm: &tm,
            report: &mut sink,
            report_every: None,
            ownership: false,
            filter: &filter,
        };
        let d = p.reg_genmove(&g, Color::White, &mut req);
        let GoDecision::Play(mv) = d else {
            panic!("reg_genmove must answer a move, not {d:?}")
        };
        assert!(g.check(mv, Color::White).is_ok());
        // The real game still resigns there.
        assert_eq!(
            gen(&mut p, &g, Color::White, SearchLimit::nodes(6000)),
            GoDecision::Resign
        );
    }

    /// 7x7, no eyes: black fills A-C and D1-D3, white E-G and D6-D7; D4 and D5 are both
    /// groups' only liberties (a seki: whoever fills one is captured). Black leads by one
    /// stone; komi 0.5.
    fn no_eye_seki() -> GoGame {
        let cols = |cs: &str, extra: &[&str]| {
            let mut v: Vec<String> = cs
                .chars()
                .flat_map(|c| (1..=7).map(move |y| format!("{c}{y}")))
                .collect();
            v.extend(extra.iter().map(|s| s.to_string()));
            v.join(" ")
        };
        let mut g = crate::rules::go::game_with_stones(
            7,
            &cols("ABC", &["D1", "D2", "D3"]),
            &cols("EFG", &["D6", "D7"]),
        );
        g.set_komi(0.5);
        g
    }

    #[test]
    fn keeps_a_seki_by_passing_and_never_resigns_it() {
        let g = no_eye_seki();
        let mut p = MctsPlayer::new();
        // Black wins by 0.5 as it stands; D4 and D5 each lose everything. The search used to
        // have no pass child there (every move a self-atari) and resigned.
        assert_eq!(
            gen(&mut p, &g, Color::Black, SearchLimit::nodes(3000)),
            GoDecision::Play(GoMove::Pass),
            "{}",
            p.explain_last_move()
        );
        // Its playouts keep the seki: both groups live and D4, D5 stay nobody's.
        let stop = std::sync::atomic::AtomicBool::new(false);
        let tm = TimeManager::new(&SearchLimit::nodes(1000), std::time::Instant::now(), &stop);
        let own = p.ownership(&g, &tm);
        let b = g.board();
        for s in ["A1", "C7", "D3"] {
            assert!(own[pt(&g, s).idx()] > 0.9, "{s}: {}", own[pt(&g, s).idx()]);
        }
        for s in ["E1", "G7", "D6"] {
            assert!(own[pt(&g, s).idx()] < -0.9, "{s}: {}", own[pt(&g, s).idx()]);
        }
        for s in ["D4", "D5"] {
            assert!(
                own[pt(&g, s).idx()].abs() < 0.1,
                "{s}: {}",
                own[pt(&g, s).idx()]
            );
        }
        assert!(p.dead_stones(&g, &tm).is_empty());
        assert_eq!(b.stone_count(), 47);
    }

    #[test]
    fn pondering_grows_the_tree_the_next_genmove_reuses() {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let mut p = MctsPlayer::new();
        let GoDecision::Play(mv) = gen(&mut p, &g, Color::Black, SearchLimit::nodes(500)) else {
            panic!("black plays")
        };
        g.play(mv, Color::Black).unwrap();
        let stop = std::sync::atomic::AtomicBool::new(false);
        p.params.ponder_max_playouts = 3000;
        p.ponder(&g, Color::White, &stop);
        assert!(p.search.root_visits() >= 3000, "{}", p.search.root_visits());
        // White's answer comes from the pondered tree, so its root holds the ponder's visits.
        let before = p.search.root_visits();
        gen(&mut p, &g, Color::White, SearchLimit::nodes(100));
        assert!(p.search.root_visits() >= before + 100);
        // A raised stop flag ends a ponder at once.
        let raised = std::sync::atomic::AtomicBool::new(true);
        p.params.ponder_max_playouts = u64::MAX;
        let t = std::time::Instant::now();
        p.ponder(&g, Color::White, &raised);
        assert!(t.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn the_threads_share_one_tree_under_the_memory_cap() {
        let mut p = MctsPlayer::new();
        let cap = 400 * NODE_BYTES as u64 * 1000;
        p.set_memory_limit(cap);
        assert_eq!(p.search.config().max_nodes, 200_000);
        p.set_threads(4);
        assert_eq!(p.search.threads(), 4);
        assert_eq!(p.search.config().max_nodes, 200_000);
        assert!(
            p.describe().contains("; 4 threads sharing one tree"),
            "{}",
            p.describe()
        );
        p.set_threads(1);
        assert_eq!(p.search.config().max_nodes, 200_000);
        assert!(p.describe().contains("; one thread; "), "{}", p.describe());
    }

    #[test]
    fn answers_at_once_without_time() {
        let g = GoGame::new(19, 19, GoRules::default()).unwrap();
        let mut p = MctsPlayer::new();
        let d = gen(&mut p, &g, Color::Black, SearchLimit::move_time(0));
        let GoDecision::Play(GoMove::Play(q)) = d else {
            panic!("{d:?}")
        };
        assert!(g.check(GoMove::Play(q), Color::Black).is_ok());
        assert!(p
            .explain_last_move()
            .ends_with(": no time to search, the scorer's best move"));
    }
}
