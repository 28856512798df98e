//! The Go tree's move priors: what the evaluation thinks of each child before any simulation.
//! The seed's move scorer ([`BadukScorer`]) ranks the moves; answers to the last move get a
//! bonus winrate (nearness, a 3x3 shape pattern); a self-atari that captures nothing is flagged
//! bad, and so is a run from atari into a ladder that works ([`LadderReader`]), while an atari
//! that a ladder turns into a capture gets a bonus. [`PriorWeights::prior_of`] turns a move's score gap below
//! the best, its bonus and its flag into the winrate and weight the tree starts it with.
//!
//! The tree search ([`crate::search::mcts`]) decides which children exist (legality, own eyes,
//! superko) and normalises the weights; the numbers it tunes arrive as [`PriorWeights`].

use crate::eval::go::baduk::BadukScorer;
use crate::eval::go::ladder::LadderReader;
use crate::eval::go::patterns::{pat3, Pat3};
use crate::rules::go::board::GoBoard;
use crate::rules::go::Point;
use crate::rules::Color;

/// The tunable numbers of the priors (the MCTS options `near_prior`, `pattern_prior`,
/// `ladders`, `ladder_prior`, `bad_prior`, `prior_floor`, `prior_span`, `prior_cap`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PriorWeights {
    /// Added to the prior winrate of a move within Manhattan distance 2 of the last move.
    pub near: f32,
    /// Added to the prior winrate of a neighbour of the last move that completes a 3x3 shape
    /// pattern ([`crate::eval::go::patterns`]).
    pub pattern: f32,
    /// Whether to read ladders at all.
    pub ladders: bool,
    /// Added to the prior winrate of an atari that a ladder turns into a capture.
    pub ladder: f32,
    /// The prior winrate of a bad move (a self-atari, a run into a ladder).
    pub bad_q: f32,
    /// The prior winrate of a good move far below the best ...
    pub floor_q: f32,
    /// ... plus this much, falling with the move's score gap below the best ...
    pub span_q: f32,
    /// ... and with its bonus, at most this.
    pub cap_q: f32,
}

impl Default for PriorWeights {
    fn default() -> Self {
        PriorWeights {
            near: 0.05,
            pattern: 0.1,
            ladders: true,
            ladder: 0.25,
            bad_q: 0.1,
            floor_q: 0.35,
            span_q: 0.3,
            cap_q: 0.9,
        }
    }
}

/// One candidate move as the evaluation sees it, before the priors are normalised.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RawPrior {
    /// The move scorer's score.
    pub score: i32,
    /// Bonus winrate: shape answer, nearness, ladder capture.
    pub bonus: f32,
    /// A self-atari, or a run into a working ladder.
    pub bad: bool,
}

/// Reads the raw priors of the moves of one position, `color` to move.
pub struct PriorReader<'b> {
    board: &'b GoBoard,
    scorer: BadukScorer<'b>,
    pat: &'static Pat3,
    last: Option<(usize, usize)>,
    me: u8,
    weights: PriorWeights,
}

impl<'b> PriorReader<'b> {
    /// A reader for `board` with `color` to move.
    pub fn new(board: &'b GoBoard, color: Color, weights: PriorWeights) -> PriorReader<'b> {
        PriorReader {
            board,
            scorer: BadukScorer::new(board, color),
            pat: pat3(),
            last: board.last_move().map(|(p, _)| board.xy(p)),
            me: color as u8,
            weights,
        }
    }

    /// The raw prior of the legal empty point `p`, or `None` when the scorer rules it out.
    pub fn raw(&self, ladders: &mut LadderReader, p: u16) -> Option<RawPrior> {
        let score = self.scorer.score(Point(p))?;
        let (board, me) = (self.board, self.me);
        let mut bad = board.is_self_atari(p as usize, me);
        let mut bonus = self.bonus(p as usize);
        if self.weights.ladders && !bad {
            match ladder_effect(ladders, board, p as usize, me) {
                Some(Ladder::RunsIntoIt) => bad = true,
                Some(Ladder::Catches) => bonus += self.weights.ladder,
                None => {}
            }
        }
        Some(RawPrior { score, bonus, bad })
    }

    /// Bonus winrate of `p`: shape answers and nearness to the last move.
    fn bonus(&self, p: usize) -> f32 {
        let Some((lx, ly)) = self.last else {
            return 0.0;
        };
        let board = self.board;
        let (x, y) = board.xy(Point(p as u16));
        let (dx, dy) = (x.abs_diff(lx), y.abs_diff(ly));
        let mut b = 0.0;
        if dx + dy <= 2 {
            b += self.weights.near;
        }
        if dx <= 1 && dy <= 1 && self.pat.matches(board.nbr3(p)) {
            b += self.weights.pattern;
        }
        b
    }
}

impl PriorWeights {
    /// The prior winrate and (unnormalised) weight of a move whose score lies `gap` (at most
    /// 0) below the best good move: a winrate between `floor_q` and `floor_q + span_q` (0.35
    /// and 0.65) that falls with the gap, plus the bonus (at most `cap_q`, 0.9, in all); a bad
    /// move gets `bad_q` (0.1) and a weight 4 nats below a good one's.
    pub fn prior_of(&self, gap: f32, bonus: f32, bad: bool) -> (f32, f32) {
        if bad {
            (self.bad_q, (gap / 50.0 - 4.0).exp())
        } else {
            (
                (self.floor_q + self.span_q * (gap / 100.0).exp() + bonus).min(self.cap_q),
                (gap / 50.0).exp() * (1.0 + 10.0 * bonus),
            )
        }
    }
}

/// What a ladder makes of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ladder {
    /// It runs an own group out of atari into a ladder that takes it.
    RunsIntoIt,
    /// It gives atari to an opponent group that a ladder then takes.
    Catches,
}

/// Reads the ladder, if any, that `me` playing on legal empty `p` runs into or starts.
fn ladder_effect(ladders: &mut LadderReader, board: &GoBoard, p: usize, me: u8) -> Option<Ladder> {
    let (mut runs, mut ataris) = (false, false);
    for n in board.neighbors(p) {
        let v = board.cell(n);
        if v == me && board.in_atari(board.head(n)) {
            runs = true;
        } else if v == 3 - me && board.count_liberties(board.head(n), 3) == 2 {
            ataris = true;
        }
    }
    if runs && ladders.run_is_caught(board, p, me) {
        Some(Ladder::RunsIntoIt)
    } else if ataris && ladders.atari_catches(board, p, me) {
        Some(Ladder::Catches)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priors_fall_with_the_gap_and_bad_moves_trail() {
        let w = PriorWeights::default();
        let prior_of = |gap, bonus, bad| w.prior_of(gap, bonus, bad);
        let (q0, p0) = prior_of(0.0, 0.0, false);
        assert!((q0 - 0.65).abs() < 1e-6 && (p0 - 1.0).abs() < 1e-6);
        let (q1, p1) = prior_of(-100.0, 0.0, false);
        assert!(q1 < q0 && p1 < p0 && q1 > 0.35);
        assert_eq!(prior_of(0.0, 0.5, false).0, 0.9);
        let (qb, pb) = prior_of(0.0, 0.0, true);
        assert_eq!(qb, 0.1);
        assert!((pb - (-4.0f32).exp()).abs() < 1e-6);
    }
}
