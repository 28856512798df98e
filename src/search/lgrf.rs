//! Last-good-reply with forgetting (LGRF-2, Baier & Drake 2010) for the Go playouts: after
//! each simulation every move of the winner is remembered as the reply to the move before it
//! (and to the two moves before it), and every move of the loser that is the remembered reply
//! is forgotten. The playouts try the remembered replies after their shape stage, before a
//! random move ([`crate::search::playout`]), so answers that won lately are tried again.
//! Before the shape stage they lost more (9x9, 3000 playouts, SPRT [0,40]: -55 Elo
//! [-120,+7], H0 after 121 games).
//!
//! The tables are indexed by the board's padded point indices; 0 (never a point) stands for a
//! pass or "no move" in a key and for "nothing remembered" in an entry. Allocated once per
//! board size, cleared at the start of each search, never grown during one.

/// The reply tables of one search thread.
#[derive(Clone, Debug, Default)]
pub struct Replies {
    /// Padded board length (every point index is below it).
    len: usize,
    /// `one[colour * len + last]`: the reply of `colour` to `last`.
    one: Vec<u16>,
    /// `two[(colour * len + prev) * len + last]`: the reply of `colour` to `prev` then `last`.
    two: Vec<u16>,
}

impl Replies {
    /// Empty tables for boards of padded length `len`, reusing the memory when the length is
    /// the same.
    pub fn reset(&mut self, len: usize) {
        if self.len != len {
            self.len = len;
            self.one = vec![0; 2 * len];
            self.two = vec![0; 2 * len * len];
        } else {
            self.one.fill(0);
            self.two.fill(0);
        }
    }

    /// The remembered replies of `me` (1 black, 2 white) after `prev` then `last` (`last` a
    /// point, `prev` a point or 0): the two-move reply, then the one-move reply (0 = none).
    #[inline]
    pub fn replies(&self, me: u8, prev: usize, last: usize) -> [usize; 2] {
        let c = usize::from(me - 1) * self.len;
        [
            usize::from(self.two[(c + prev) * self.len + last]),
            usize::from(self.one[c + last]),
        ]
    }

    /// Learns from one simulation: `moves` are its moves in order (0 for a pass), the first
    /// two being the position's context (the move before last and the last move, 0 when
    /// none), the third played by `first` (1 black, 2 white); `margin` is black's result
    /// (no update on a draw).
    pub fn update(&mut self, moves: &[u16], first: u8, margin: f32) {
        if margin == 0.0 || self.len == 0 {
            return;
        }
        let winner = if margin > 0.0 { 1u8 } else { 2 };
        let mut colour = first;
        for w in moves.windows(3) {
            let (prev, last, mv) = (usize::from(w[0]), usize::from(w[1]), w[2]);
            let c = usize::from(colour - 1) * self.len;
            let i2 = (c + prev) * self.len + last;
            let i1 = c + last;
            if last != 0 && mv != 0 {
                if colour == winner {
                    self.one[i1] = mv;
                    self.two[i2] = mv;
                } else {
                    if self.one[i1] == mv {
                        self.one[i1] = 0;
                    }
                    if self.two[i2] == mv {
                        self.two[i2] = 0;
                    }
                }
            }
            colour = 3 - colour;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winner_s_replies_are_kept_and_the_loser_s_forgotten() {
        let mut r = Replies::default();
        r.reset(50);
        // Context (0, 10); black 11, white 12, black 13.
        r.update(&[0, 10, 11, 12, 13], 1, 3.5);
        assert_eq!(r.replies(1, 0, 10), [11, 11]);
        assert_eq!(r.replies(1, 11, 12), [13, 13]);
        // White lost: its reply 12 to 11 is not remembered.
        assert_eq!(r.replies(2, 10, 11), [0, 0]);
        // White wins the same line: black's replies are forgotten, white's remembered.
        r.update(&[0, 10, 11, 12, 13], 1, -0.5);
        assert_eq!(r.replies(1, 0, 10), [0, 0]);
        assert_eq!(r.replies(1, 11, 12), [0, 0]);
        assert_eq!(r.replies(2, 10, 11), [12, 12]);
        // The one-move reply answers after any move before last; the two-move one only after
        // its own.
        assert_eq!(r.replies(2, 30, 11), [0, 12]);
        // A loser's different move forgets nothing.
        r.update(&[0, 10, 11, 14], 1, 1.0);
        assert_eq!(r.replies(2, 10, 11), [12, 12]);
        // A draw teaches nothing; passes are neither keys nor replies.
        r.update(&[0, 10, 11, 15], 1, 0.0);
        assert_eq!(r.replies(2, 10, 11), [12, 12]);
        r.update(&[10, 0, 16, 0, 17], 1, 1.0);
        assert_eq!(r.replies(1, 10, 0).iter().sum::<usize>(), 0);
        assert_eq!(r.replies(1, 16, 0), [0, 0]);
        r.reset(50);
        assert_eq!(r.replies(2, 10, 11), [0, 0]);
    }
}
