//! Last good reply with forgetting for the Go playouts (Drake 2009; Baier and Drake 2010,
//! LGRF-1 and LGRF-2). After every simulation, each move of the winner is stored as the reply
//! to the move before it (LGRF-1) and to the two moves before it (LGRF-2); each move of the
//! loser is forgotten as the reply to the same context if it is the stored one. A playout
//! then answers the opponent's last move (and the one before it) with the stored reply when it
//! is still acceptable there, and otherwise falls back on its own policy.
//!
//! Light playouts know only local shape and tactics; the replies carry what the simulations
//! have learned about the current position from one playout to the next (the answer that keeps
//! winning an exchange somewhere on the board), and the forgetting drops a reply as soon as it
//! starts to lose, so the tables follow the search's changing view instead of freezing an early
//! guess. Each search thread keeps its own tables; they live across the moves of a game, as in
//! the paper.

use crate::rules::go::board::{GoBoard, EMPTY, WHITE};
use crate::rules::Color;
use crate::search::playout::{acceptable, respond_to_last, Policy, Rng};

/// The reply tables of one search thread: 0 stands for "no reply" (and, as a context, for a
/// pass or no move, as [`GoBoard::move_before_last`] reports them).
#[derive(Clone, Debug, Default)]
pub struct Replies {
    /// Points of the padded board array the tables are sized for.
    len: usize,
    /// By mover and the previous move: the reply.
    one: Vec<u16>,
    /// By mover, the move before the previous one and the previous move: the reply.
    two: Vec<u16>,
}

impl Replies {
    /// Sizes the tables for boards of `len` padded points (the two-move table only `with_two`),
    /// empty when the size changes (a reply is a point of one board size only).
    pub fn fit(&mut self, len: usize, with_two: bool) {
        if self.len != len {
            self.len = len;
            self.one = vec![0; 2 * len];
            self.two = Vec::new();
        }
        if with_two && self.two.is_empty() {
            self.two = vec![0; 2 * len * len];
        }
    }

    #[inline(always)]
    fn side(me: u8) -> usize {
        usize::from(me == WHITE)
    }

    /// The stored reply of `me` to `last` (0: none).
    #[inline(always)]
    pub fn reply1(&self, me: u8, last: usize) -> usize {
        usize::from(self.one[Self::side(me) * self.len + last])
    }

    /// The stored reply of `me` to `prev` then `last` (0: none; the tables must have been fitted
    /// with the two-move one).
    #[inline(always)]
    pub fn reply2(&self, me: u8, prev: usize, last: usize) -> usize {
        usize::from(self.two[(Self::side(me) * self.len + prev) * self.len + last])
    }

    /// Learns from one simulation: `moves` were played in turn (0 for a pass), `first`
    /// playing the first of them, after `before` (the move before the previous one and the
    /// previous one; 0 for a pass or none); `winner` won it (`None`: a draw, nothing learned).
    /// The two-move table learns too when it was fitted.
    pub fn learn(&mut self, before: [u16; 2], moves: &[u16], first: u8, winner: Option<u8>) {
        let Some(winner) = winner else {
            return;
        };
        let len = self.len;
        let with_two = !self.two.is_empty();
        let [mut prev2, mut prev] = before;
        let mut mover = first;
        for &m in moves {
            // No reply to a pass, and a pass is no reply.
            if prev != 0 && m != 0 {
                let won = mover == winner;
                let i1 = Self::side(mover) * len + usize::from(prev);
                learn_one(&mut self.one[i1], m, won);
                if with_two {
                    let i2 =
                        (Self::side(mover) * len + usize::from(prev2)) * len + usize::from(prev);
                    learn_one(&mut self.two[i2], m, won);
                }
            }
            prev2 = prev;
            prev = m;
            mover = 3 - mover;
        }
    }
}

/// A winner's move becomes the reply; a loser's is forgotten if it is the reply.
#[inline(always)]
fn learn_one(reply: &mut u16, m: u16, won: bool) {
    if won {
        *reply = m;
    } else if *reply == m {
        *reply = 0;
    }
}

/// A playout policy that plays the stored reply (with `two`, the two-move one before the
/// one-move one) when it is empty and acceptable ([`acceptable`]: legal, no own eye, no
/// self-atari of two or more stones), and otherwise asks `inner`. With `tactics_first`, a
/// capture or atari escape next to the last stone ([`respond_to_last`]) comes before the reply.
#[derive(Clone, Copy)]
pub struct WithReplies<'t, P> {
    pub inner: P,
    pub replies: &'t Replies,
    pub two: bool,
    pub tactics_first: bool,
}

impl<P: Policy> Policy for WithReplies<'_, P> {
    #[inline(always)]
    fn choose(&self, board: &GoBoard, c: Color, rng: &mut Rng) -> Option<usize> {
        if let Some((last, _)) = board.last_move() {
            let (me, last) = (c as u8, last.idx());
            if self.tactics_first {
                if let Some(p) = respond_to_last(board, last, me) {
                    return Some(p);
                }
            }
            let usable = |r: usize| r != 0 && board.cell(r) == EMPTY && acceptable(board, r, me);
            if self.two {
                let prev = board.move_before_last().map_or(0, |p| p.idx());
                let r = self.replies.reply2(me, prev, last);
                if usable(r) {
                    return Some(r);
                }
            }
            let r = self.replies.reply1(me, last);
            if usable(r) {
                return Some(r);
            }
        }
        self.inner.choose(board, c, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::board::BLACK;
    use crate::rules::go::{parse_point, Point};
    use crate::search::playout::Light;

    fn pts<const N: usize>(b: &GoBoard, names: [&str; N]) -> [u16; N] {
        names.map(|s| parse_point(b, s).expect("a point").0)
    }

    #[test]
    fn the_winner_s_replies_are_stored_and_the_loser_s_forgotten() {
        let b = GoBoard::new(9, 9).unwrap();
        let mut r = Replies::default();
        r.fit(b.array_len(), true);
        let [c3, d4, e5, f6] = pts(&b, ["C3", "D4", "E5", "F6"]);
        let u = usize::from;
        // Black C3, white D4, black E5, white F6; black wins.
        r.learn([0, 0], &[c3, d4, e5, f6], BLACK, Some(BLACK));
        assert_eq!(r.reply1(BLACK, u(d4)), u(e5));
        assert_eq!(r.reply2(BLACK, u(c3), u(d4)), u(e5));
        // The loser's moves were not stored; C3 answered nothing (no move before it).
        assert_eq!(r.reply1(WHITE, u(c3)), 0);
        assert_eq!(r.reply1(WHITE, u(e5)), 0);
        assert_eq!(r.reply1(BLACK, 0), 0);
        // The same moves won by white: white's replies are stored, and black's E5 after D4,
        // now a loser's move, is forgotten in both tables.
        r.learn([0, 0], &[c3, d4, e5, f6], BLACK, Some(WHITE));
        assert_eq!(r.reply1(WHITE, u(c3)), u(d4));
        assert_eq!(r.reply1(WHITE, u(e5)), u(f6));
        assert_eq!(r.reply1(BLACK, u(d4)), 0);
        assert_eq!(r.reply2(BLACK, u(c3), u(d4)), 0);
        // A draw teaches nothing; a pass is neither a context nor a reply.
        r.learn([0, 0], &[c3, d4, e5, f6], BLACK, None);
        assert_eq!(r.reply1(BLACK, u(d4)), 0);
        r.learn([0, 0], &[c3, 0, e5, f6], BLACK, Some(BLACK));
        assert_eq!(r.reply1(BLACK, 0), 0);
        assert_eq!(r.reply1(WHITE, u(c3)), u(d4), "white's reply to C3 stays");
        // Forgetting drops the loser's own move only: another stored reply stays.
        r.learn([0, 0], &[c3, e5], BLACK, Some(WHITE));
        assert_eq!(r.reply1(WHITE, u(c3)), u(e5));
        r.learn([0, 0], &[c3, d4], BLACK, Some(BLACK));
        assert_eq!(
            r.reply1(WHITE, u(c3)),
            u(e5),
            "D4 lost, but E5 is the reply"
        );
        // The two-move context tells the same last move apart by the one before it.
        r.learn([0, 0], &[f6, d4, c3], BLACK, Some(BLACK));
        assert_eq!(r.reply2(BLACK, u(f6), u(d4)), u(c3));
        assert_eq!(r.reply2(BLACK, u(c3), u(d4)), 0);
        // Resizing empties the tables.
        r.fit(GoBoard::new(13, 13).unwrap().array_len(), false);
        assert_eq!(r.reply1(WHITE, u(c3)), 0);
    }

    #[test]
    fn a_stored_reply_is_played_only_where_it_is_acceptable() {
        let mut b = GoBoard::new(9, 9).unwrap();
        let [e5, c3, g7] = pts(&b, ["E5", "C3", "G7"]);
        b.play(Point(e5), Color::Black);
        b.play(Point(c3), Color::White);
        let mut r = Replies::default();
        r.fit(b.array_len(), true);
        // Black answered C3 (after E5) with G7 in a won simulation.
        r.learn([0, e5], &[c3, g7], WHITE, Some(BLACK));
        let light = Light::default();
        let mut rng = Rng::new(1);
        for two in [false, true] {
            let p = WithReplies {
                inner: light,
                replies: &r,
                two,
                tactics_first: false,
            };
            assert_eq!(p.choose(&b, Color::Black, &mut rng), Some(usize::from(g7)));
        }
        // Nothing stored for white: its moves are the light policy's, spread over the board.
        let p = WithReplies {
            inner: light,
            replies: &r,
            two: true,
            tactics_first: true,
        };
        let moves: std::collections::HashSet<_> = (0..30)
            .filter_map(|_| p.choose(&b, Color::White, &mut rng))
            .collect();
        assert!(moves.len() > 3, "{moves:?}");
        // A reply on a stone falls back on the light policy.
        let mut taken = Replies::default();
        taken.fit(b.array_len(), false);
        taken.learn([0, e5], &[c3, e5], WHITE, Some(BLACK));
        assert_eq!(taken.reply1(BLACK, usize::from(c3)), usize::from(e5));
        let p = WithReplies {
            inner: light,
            replies: &taken,
            two: false,
            tactics_first: true,
        };
        for _ in 0..10 {
            let m = p.choose(&b, Color::Black, &mut rng).expect("a move");
            assert_eq!(b.cell(m), EMPTY);
        }
    }
}
