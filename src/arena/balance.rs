//! Balanced gomoku openings: a generated opening is kept only when a fixed-node search of the
//! `strong` player scores it close to even.
//!
//! Why: on 15x15 freestyle and renju, black wins three games in four from the random 2-4 stone
//! openings of [`super::openings`] (measured in self-play and against Rapfi). Both colours of every
//! opening are played, so the score stays fair, but most pairs split 1-1 and carry no
//! information: a match needs far more games to separate two engines. Tournament openings
//! (Gomocup's, Rapfi's test books) are chosen to be near even for this reason; here the judge is
//! our own search, at a node count the caller picks.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand_chacha::ChaCha8Rng;

use super::coords::Mv;
use super::engine::GameSetup;
use super::manifest::GameName;
use super::openings::{self, Seen};
use crate::players::strong::Strong;
use crate::players::{GomokuPlayer, MoveRequest, Player, SearchInfo};
use crate::rules::{Board, Color};
use crate::search::clock::{SearchLimit, TimeManager};

/// Default largest |score| (evaluation units, black's point of view) of a balanced opening. With
/// the learned evaluation's scale (a logistic of score / ~300 fits the game results) this keeps
/// openings whose expected score for black lies within about 0.42-0.58.
pub const DEFAULT_MARGIN: i32 = 100;

/// Generated openings tried per balanced opening kept before giving up.
const TRIES_PER_OPENING: usize = 400;

/// How openings are judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Balance {
    /// Nodes of the judging search.
    pub nodes: u64,
    /// Largest |score| kept.
    pub margin: i32,
}

/// A judge: one `strong` player reused across openings (its tables are cleared per opening, so
/// the verdict on an opening does not depend on the ones before it).
pub struct Judge {
    balance: Balance,
    player: Strong,
}

impl Judge {
    /// A judge for `balance`.
    pub fn new(balance: Balance) -> Judge {
        let mut player = Strong::new();
        player.set_threads(1);
        Judge { balance, player }
    }

    /// Black's score of `moves` on `setup`'s board by the judging search, or `None` when the
    /// opening is illegal, over, or the search finds a forced win for either side.
    pub fn score(&mut self, setup: &GameSetup, moves: &[Mv]) -> Option<i32> {
        let mut board = Board::new(setup.width, setup.height, setup.rule)
            .map_err(|_| ())
            .ok()?;
        for &mv in moves {
            let Mv::At(x, y) = mv else { return None };
            let p = board.pos(x as i64, y as i64)?;
            board.play(p).ok()?;
        }
        if board.is_over() {
            return None;
        }
        self.player.new_game(&board);
        let stop = AtomicBool::new(false);
        let tm = TimeManager::new(
            &SearchLimit::nodes(self.balance.nodes),
            Instant::now(),
            &stop,
        );
        let mut last: Option<(i32, Option<i32>)> = None;
        let mut report = |i: &SearchInfo| last = Some((i.score, i.mate));
        let mut req = MoveRequest {
            tm: &tm,
            nbest: 1,
            excluded: &[],
            report: &mut report,
        };
        self.player.choose(&board, &mut req)?;
        let (score, mate) = last?;
        if mate.is_some() {
            return None;
        }
        Some(match board.to_move() {
            Color::Black => score,
            Color::White => -score,
        })
    }

    /// Whether `score` (black's view) is within the margin.
    pub fn accepts(&self, score: i32) -> bool {
        score.abs() <= self.balance.margin
    }
}

/// A generated opening (see [`openings::generate`]) that `judge` finds balanced, with its score
/// (black's view), or `None` when none was found in a few hundred tries. A draw that `seen`
/// already holds is skipped before it is judged; the one returned is not added to it.
pub fn generate(
    setup: &GameSetup,
    stones: (usize, usize),
    rng: &mut ChaCha8Rng,
    judge: &mut Judge,
    seen: &Seen,
) -> Option<(Vec<Mv>, i32)> {
    for _ in 0..TRIES_PER_OPENING {
        let moves = openings::generate(setup, stones, rng)?;
        if !seen.is_new(&moves) {
            continue;
        }
        if let Some(score) = judge.score(setup, &moves) {
            if judge.accepts(score) {
                return Some((moves, score));
            }
        }
    }
    None
}

/// Openings with the judging search's score (black's view) when they were judged.
pub type ScoredOpenings = Vec<(Vec<Mv>, Option<i32>)>;

/// `pairs` openings for `setup`, all from `rng`: balanced ones with their score (black's view)
/// when `balance` is given, else plain generated ones (see [`openings::generate_many`]).
/// Balanced openings are all distinct, so the square they are drawn from can run out of new
/// ones (at 2-4 stones on 15x15 and 20,000 nodes, somewhere between 700 and 1,500): then the
/// ones found are returned with a warning (a match plays them again in turn), and an error
/// only when there is none. `progress` hears the count kept after each balanced one (judging
/// takes a search per candidate, minutes for a thousand openings, so a caller shows it).
pub fn openings(
    setup: &GameSetup,
    stones: (usize, usize),
    pairs: usize,
    rng: &mut ChaCha8Rng,
    balance: Option<Balance>,
    progress: &mut dyn FnMut(usize),
) -> Result<ScoredOpenings, String> {
    let Some(balance) = balance else {
        let plain = openings::generate_many(setup, stones, pairs, rng)?;
        return Ok(plain.into_iter().map(|moves| (moves, None)).collect());
    };
    if !matches!(setup.game, GameName::Gomoku | GameName::Renju) {
        return Err("balanced openings are for gomoku and renju only".into());
    }
    let mut judge = Judge::new(balance);
    let mut seen = Seen::new(setup);
    let mut kept = Vec::with_capacity(pairs);
    while kept.len() < pairs {
        let Some((moves, score)) = generate(setup, stones, rng, &mut judge, &seen) else {
            let what = format!(
                "{}-{} stone opening within {} of even at {} nodes in {TRIES_PER_OPENING} tries",
                stones.0, stones.1, balance.margin, balance.nodes
            );
            if kept.is_empty() {
                return Err(format!("no {what}"));
            }
            log::warn!(
                "{} balanced openings of the {pairs} asked for: no new {what}; they repeat",
                kept.len()
            );
            break;
        };
        seen.insert(&moves);
        kept.push((moves, Some(score)));
        progress(kept.len());
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::tc::TimeControl;
    use crate::rules::Rule;
    use rand::SeedableRng;

    fn setup(game: GameName, rule: Rule) -> GameSetup {
        GameSetup {
            game,
            rule,
            width: 15,
            height: 15,
            komi: 7.5,
            handicap: 0,
            tc: TimeControl {
                game_ms: None,
                increment_ms: 0,
                move_ms: Some(100),
            },
        }
    }

    #[test]
    fn kept_openings_score_within_the_margin_and_replay_by_seed() {
        let s = setup(GameName::Gomoku, Rule::Freestyle);
        let balance = Balance {
            nodes: 3000,
            margin: 120,
        };
        let mut heard = Vec::new();
        let a = openings(
            &s,
            (2, 4),
            3,
            &mut ChaCha8Rng::seed_from_u64(5),
            Some(balance),
            &mut |kept| heard.push(kept),
        )
        .unwrap();
        assert_eq!(heard, [1, 2, 3], "progress after each opening kept");
        let b = openings(
            &s,
            (2, 4),
            3,
            &mut ChaCha8Rng::seed_from_u64(5),
            Some(balance),
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(a, b, "same seed, same openings");
        let mut judge = Judge::new(balance);
        for (moves, score) in &a {
            assert!(score.is_some_and(|v| v.abs() <= 120));
            assert_eq!(
                judge.score(&s, moves),
                *score,
                "the verdict is reproducible"
            );
        }
    }

    #[test]
    fn running_out_of_new_openings_keeps_the_ones_found() {
        // On 7x7 the openings come from the 3x3 centre: two stones there have few distinct
        // shapes (up to symmetry), far fewer than asked for.
        let mut s = setup(GameName::Gomoku, Rule::Freestyle);
        s.width = 7;
        s.height = 7;
        let balance = Balance {
            nodes: 200,
            margin: 10_000,
        };
        let found = openings(
            &s,
            (2, 2),
            100,
            &mut ChaCha8Rng::seed_from_u64(3),
            Some(balance),
            &mut |_| {},
        )
        .unwrap();
        assert!(!found.is_empty() && found.len() < 100, "{}", found.len());
        let mut seen = Seen::new(&s);
        for (moves, _) in &found {
            assert!(seen.is_new(moves), "{moves:?} twice");
            seen.insert(moves);
        }
        // None at all is still an error: no opening is within a margin below every score.
        let strict = Balance {
            nodes: 200,
            margin: -1,
        };
        let err = openings(
            &s,
            (2, 2),
            3,
            &mut ChaCha8Rng::seed_from_u64(3),
            Some(strict),
            &mut |_| {},
        )
        .unwrap_err();
        assert!(err.starts_with("no 2-2 stone opening"), "{err}");
    }

    #[test]
    fn a_lopsided_opening_is_refused() {
        // Black has an open three with black to move: far from even.
        let s = setup(GameName::Gomoku, Rule::Freestyle);
        let moves = [
            Mv::At(7, 7),
            Mv::At(0, 0),
            Mv::At(8, 7),
            Mv::At(0, 14),
            Mv::At(9, 7),
            Mv::At(14, 0),
        ];
        let mut judge = Judge::new(Balance {
            nodes: 3000,
            margin: DEFAULT_MARGIN,
        });
        assert!(judge.score(&s, &moves).is_none_or(|v| !judge.accepts(v)));
    }

    #[test]
    fn other_games_have_no_judge() {
        let s = setup(GameName::Go, Rule::Freestyle);
        let balance = Balance {
            nodes: 100,
            margin: 100,
        };
        let err = openings(
            &s,
            (0, 0),
            1,
            &mut ChaCha8Rng::seed_from_u64(1),
            Some(balance),
            &mut |_| {},
        )
        .unwrap_err();
        assert!(err.contains("gomoku"));
    }
}
