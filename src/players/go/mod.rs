//! Go players (levels): each is a [`Player`] of [`GoGame`] (what any game's consumer asks: a
//! name, a seed, a decision) extended by [`GoPlayer`] (what only GTP asks: analysis,
//! ownership, cleanup, pondering). A player turns a [`GoGame`] and a time manager into a
//! [`GoDecision`]; it never prints: analysis goes out through the request's `report` callback
//! as [`Candidate`] lists (with an ownership map when the request asks) that the GTP layer
//! formats (`lz-analyze`, `kata-analyze`).

pub mod cleanup;
pub mod heuristic;
pub mod mcts;
pub mod territory;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::player::{Decision, Player};
use crate::rules::go::{GoGame, GoMove, Point};
use crate::rules::Color;
use crate::search::clock::{SearchLimit, TimeManager};
use crate::search::mcts::Candidate;
use crate::search::move_filter::MoveFilter;
use crate::search::tunables::Tunable;

/// What a player answers to genmove: the one [`Decision`] every game's players make.
pub type GoDecision = Decision<GoMove>;

/// Receives candidate lists and, when [`GoRequest::ownership`] asks, the ownership map: by
/// padded point, -1 (white's) .. 1 (black's), as [`GoPlayer::ownership`] gives it.
pub type GoReport<'r> = &'r mut dyn FnMut(&[Candidate<GoMove>], Option<&[f32]>);

/// A request for a move or an analysis.
pub struct GoRequest<'r, 's> {
    /// Deadlines, playout budget (`SearchLimit::nodes`) and the stop flag.
    pub tm: &'r TimeManager<'s>,
    /// Receives the reports; called from the searching thread.
    pub report: GoReport<'r>,
    /// How often to report during analysis (and genmove_analyze); `None` = never.
    pub report_every: Option<Duration>,
    /// Whether reports carry ownership (`kata-analyze ... ownership true`). A player reports
    /// `None` when this is false, and otherwise `Some` whenever it can.
    pub ownership: bool,
    /// Moves the player may not consider (analysis `avoid` / `allow`): a searching player keeps
    /// them out of its tree up to each rule's depth, a one-ply player out of its choice.
    pub filter: &'r MoveFilter,
}

/// A Go player: the one [`Player`] interface (name, seed, threads, memory, new game, a quiet
/// decision through [`decide_quietly`]) and what GTP asks besides.
pub trait GoPlayer: Player<GoGame> {
    /// Forget what the search keeps between moves (its tree), so that the next search starts
    /// afresh; what the player said about its last move stays. Also called when the rules
    /// change, since a tree grown under other rules holds moves they may forbid.
    fn clear_cache(&mut self) {}
    /// The player's tunable settings, with their docs and ranges (GTP `kata-list-params`).
    fn params(&self) -> Vec<Tunable> {
        Vec::new()
    }
    /// The value of the setting `name` (GTP `kata-get-param`), `None` when it has none.
    fn get_param(&self, _name: &str) -> Option<String> {
        None
    }
    /// Sets the setting `name` (GTP `kata-set-param`, `--set`): `None` when the player has no
    /// such setting, else whether `value` was taken (a refused value changes nothing).
    fn set_param(&mut self, _name: &str, _value: &str) -> Option<Result<(), String>> {
        None
    }
    /// The move for `color` (need not be `game.to_move()`); must return in time.
    fn genmove(&mut self, game: &GoGame, color: Color, req: &mut GoRequest<'_, '_>) -> GoDecision;
    /// The move [`GoPlayer::genmove`] would choose were resigning not an option (GTP's
    /// cleanup phase, `kgs-genmove_cleanup`, where the game is over but for dead stones): a
    /// move or a pass, never [`GoDecision::Resign`]. Players that never resign need not
    /// override it.
    fn genmove_playing_on(
        &mut self,
        game: &GoGame,
        color: Color,
        req: &mut GoRequest<'_, '_>,
    ) -> GoDecision {
        self.genmove(game, color, req)
    }
    /// The move of the cleanup phase (`kgs-genmove_cleanup`), `dead` being the opponent's
    /// stones the game's estimate calls dead: capture them before passing, never resign
    /// ([`cleanup::genmove_cleanup`]).
    fn genmove_cleanup(
        &mut self,
        game: &GoGame,
        color: Color,
        dead: &[Point],
        req: &mut GoRequest<'_, '_>,
    ) -> GoDecision {
        cleanup::genmove_cleanup(self, game, color, dead, req)
    }
    /// GTP's `reg_genmove`: the best move as [`GoPlayer::genmove_playing_on`] finds it (a
    /// regression probe asks for a move, so never `resign`), leaving no trace that could
    /// change a later answer (a search tree kept for reuse, a random generator moved on).
    /// Players whose genmove keeps no such state and never resigns need not override it.
    fn reg_genmove(
        &mut self,
        game: &GoGame,
        color: Color,
        req: &mut GoRequest<'_, '_>,
    ) -> GoDecision {
        self.genmove_playing_on(game, color, req)
    }
    /// Think on the opponent's time: search the position for `color` (the opponent, after our
    /// move) until `stop` is raised or the player's own cap is reached, keeping what it finds
    /// for the next genmove, reporting nothing. Players that keep nothing between moves do
    /// nothing.
    fn ponder(&mut self, _game: &GoGame, _color: Color, _stop: &AtomicBool) {}
    /// Analyse for `color` until `req.tm` says stop, calling `req.report` every `report_every`.
    fn analyze(&mut self, game: &GoGame, color: Color, req: &mut GoRequest<'_, '_>);
    /// Who owns each point at the end, by the player's estimate: indexed by padded point, from
    /// -1 (white's in every playout) to 1 (black's). Must return when `tm` says stop.
    fn ownership(&mut self, game: &GoGame, tm: &TimeManager<'_>) -> Vec<f32>;
    /// Dead stones at the end of the game, for final_score / final_status_list: the stones
    /// [`GoPlayer::ownership`] gives to the opponent.
    fn dead_stones(&mut self, game: &GoGame, tm: &TimeManager<'_>) -> Vec<Point> {
        let own = self.ownership(game, tm);
        crate::search::playout::owners::dead_in(game, &own)
    }
    /// In words, why the last `genmove` chose what it chose (winrate, visits, line), for
    /// `gomill-explain_last_move`; empty when the player has decided nothing in this game.
    fn explain_last_move(&self) -> String;
    /// The settings that decide how the player plays, in words (one line), for
    /// `gomill-describe_engine`.
    fn describe(&self) -> String;
    /// Whether the last `genmove` found the game won beyond doubt, so that the engine may
    /// claim the win (gomill's `gomill-genmove_ex <colour> claim`).
    fn certain_win(&self) -> bool;
}

/// Asks `player` for `color`'s move under `limit`, starting the clock now, without reports
/// (in-process matches and tests).
pub fn genmove_with_limit(
    player: &mut dyn GoPlayer,
    game: &GoGame,
    color: Color,
    limit: &SearchLimit,
) -> GoDecision {
    let stop = std::sync::atomic::AtomicBool::new(false);
    let tm = TimeManager::new(limit, std::time::Instant::now(), &stop);
    genmove_quietly(player, game, color, &tm)
}

/// `color`'s genmove within `tm`, reporting nothing and filtering nothing.
fn genmove_quietly<G: GoPlayer + ?Sized>(
    player: &mut G,
    game: &GoGame,
    color: Color,
    tm: &TimeManager<'_>,
) -> GoDecision {
    let mut sink = |_: &[Candidate<GoMove>], _: Option<&[f32]>| {};
    let mut req = GoRequest {
        tm,
        report: &mut sink,
        report_every: None,
        ownership: false,
        filter: &MoveFilter::default(),
    };
    player.genmove(game, color, &mut req)
}

/// [`Player::decide`] for every Go player: the side to move's genmove without reports.
pub fn decide_quietly<G: GoPlayer + ?Sized>(
    player: &mut G,
    game: &GoGame,
    tm: &TimeManager<'_>,
) -> Option<Decision<GoMove>> {
    Some(genmove_quietly(player, game, game.to_move(), tm))
}

/// The Go levels, strongest first; the first is the default.
pub const GO_LEVELS: &[(&str, &str)] = &[
    (
        "mcts",
        "Monte Carlo tree search (UCT with RAVE) guided by learned move gammas and a ladder \
         reader, light playouts, tree reuse (default)",
    ),
    (
        "heuristic",
        "scores every move one ply deep: captures and ataris, openings and extensions weighted by \
         the game's phase, good and bad shapes, territory",
    ),
];

/// Makes the Go player named `level` (case-insensitive), seeded with `seed`; `None` for an
/// unknown level.
pub fn go_player(level: &str, seed: u64) -> Option<Box<dyn GoPlayer>> {
    let mut player: Box<dyn GoPlayer> = match level.to_ascii_lowercase().as_str() {
        "mcts" | "default" => Box::new(mcts::MctsPlayer::new()),
        "heuristic" => Box::new(heuristic::Heuristic::new()),
        _ => return None,
    };
    player.set_seed(seed);
    Some(player)
}
