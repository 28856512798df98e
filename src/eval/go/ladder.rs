//! Ladder reading for Go (shicho): whether a group in atari that runs, or that a move puts in
//! atari, is taken by a ladder. The attacker keeps giving atari on one of the group's two
//! liberties and the defender keeps extending on its last one, until the group is left in
//! atari for good (caught) or gets three liberties or an attacking stone in atari to take
//! (escaped).
//!
//! Light playouts cannot read a ladder, and the seed's scorer rewards running from atari and
//! giving atari alike; the tree's priors ([`crate::search::mcts`]) use this reader to tell a
//! run that only feeds a ladder from one that escapes, and an atari that catches from one that
//! only pushes.
//!
//! The reading is the textbook one, not a full search. The defender's only tries are to extend
//! and, when an attacking group next to it is in atari, to take it, which is called an escape
//! without reading on. The attacker tries both liberties. Ko is the board's simple ko;
//! snapback and superko are ignored. A read that would play more than [`MAX_PLAYS`] moves is
//! called an escape, so the reader errs towards "not caught".

use crate::rules::go::board::{GoBoard, EMPTY};

/// Moves one read may play before it gives up and calls the group escaped.
pub const MAX_PLAYS: u32 = 300;

/// Scratch boards for the reads (one per ply), kept from read to read so that reading
/// allocates only while its deepest ladder so far grows.
#[derive(Clone, Debug, Default)]
pub struct LadderReader {
    boards: Vec<GoBoard>,
    plays: u32,
}

impl LadderReader {
    /// A reader with no scratch boards yet.
    pub fn new() -> LadderReader {
        LadderReader::default()
    }

    /// Whether `c` (1 black, 2 white) extending on empty `p`, which must be legal for `c`, leaves
    /// the group it joins in atari or taken by a ladder. Meant for `p` the liberty of an own
    /// group in atari: is running worth it?
    pub fn run_is_caught(&mut self, board: &GoBoard, p: usize, c: u8) -> bool {
        self.plays = 0;
        self.start(board, p, c);
        match liberties_left(&self.boards[0], p) {
            0 | 1 => true,
            2 => self.attack(0, p),
            _ => false,
        }
    }

    /// Whether `c` playing on empty `p`, which must be legal for `c`, puts an opponent group
    /// next to `p` in atari that a ladder then takes.
    pub fn atari_catches(&mut self, board: &GoBoard, p: usize, c: u8) -> bool {
        self.plays = 0;
        self.start(board, p, c);
        let b = &self.boards[0];
        let mut targets = [0usize; 4];
        let mut n = 0;
        for q in b.neighbors(p) {
            if b.cell(q) == 3 - c && b.in_atari(b.head(q)) {
                targets[n] = q;
                n += 1;
            }
        }
        targets[..n].iter().any(|&t| self.defend(0, t))
    }

    /// Sets ply 0 to `board` with `c` played on `p`.
    fn start(&mut self, board: &GoBoard, p: usize, c: u8) {
        if self.boards.is_empty() {
            self.boards.push(board.clone());
        } else {
            self.boards[0].copy_from(board);
        }
        self.boards[0].play_raw(p, c);
    }

    /// Sets ply `depth + 1` to ply `depth` with `c` played on `p`; false when the read has
    /// played its [`MAX_PLAYS`].
    fn step(&mut self, depth: usize, p: usize, c: u8) -> bool {
        self.plays += 1;
        if self.plays > MAX_PLAYS {
            return false;
        }
        if self.boards.len() <= depth + 1 {
            let copy = self.boards[depth].clone();
            self.boards.push(copy);
        } else {
            let (done, next) = self.boards.split_at_mut(depth + 1);
            next[0].copy_from(&done[depth]);
        }
        self.boards[depth + 1].play_raw(p, c);
        true
    }

    /// The group on `stone` is in atari at ply `depth` and its owner is to move: whether it
    /// is caught.
    fn defend(&mut self, depth: usize, stone: usize) -> bool {
        let b = &self.boards[depth];
        let d = b.cell(stone);
        let h = b.head(stone);
        if touches_attacker_in_atari(b, h, 3 - d) {
            return false;
        }
        let lib = b.atari_liberty(h);
        if !b.legal_empty(lib, d) {
            return true;
        }
        if !self.step(depth, lib, d) {
            return false;
        }
        match liberties_left(&self.boards[depth + 1], stone) {
            0 | 1 => true,
            2 => self.attack(depth + 1, stone),
            _ => false,
        }
    }

    /// The group on `stone` has two liberties at ply `depth` and the attacker is to move:
    /// whether an atari on either of them catches it.
    fn attack(&mut self, depth: usize, stone: usize) -> bool {
        let b = &self.boards[depth];
        let a = 3 - b.cell(stone);
        for lib in b.liberties_found(b.head(stone), 2).points() {
            if !self.boards[depth].legal_empty(lib, a) || !self.step(depth, lib, a) {
                continue;
            }
            let b = &self.boards[depth + 1];
            if b.in_atari(b.head(stone)) && self.defend(depth + 1, stone) {
                return true;
            }
        }
        false
    }
}

/// Liberties of the group on `stone` after its owner played, counting no further than 3: 0 when
/// the move was a suicide (rules that allow it) and took the group off the board.
fn liberties_left(b: &GoBoard, stone: usize) -> usize {
    if b.cell(stone) == EMPTY {
        return 0;
    }
    b.count_liberties(b.head(stone), 3)
}

/// Whether a group of colour `attacker` in atari touches the group with head `h`.
fn touches_attacker_in_atari(b: &GoBoard, h: usize, attacker: u8) -> bool {
    let mut s = h;
    loop {
        if b.neighbors(s)
            .into_iter()
            .any(|n| b.cell(n) == attacker && b.in_atari(b.head(n)))
        {
            return true;
        }
        s = b.next_in_group(s);
        if s == h {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::{game_with_stones, parse_point, GoGame};

    fn pt(g: &GoGame, v: &str) -> usize {
        parse_point(g.board(), v).expect("a vertex").idx()
    }

    /// Black stones around white D4 that leave it one liberty, E4, and make every extension
    /// give it exactly two: the textbook ladder, which runs up and to the right.
    const CHASERS: &str = "C4 D5 D3 E3";

    /// Whether white, running from atari on E4 in the position with `black` and `white`
    /// stones, is caught.
    fn white_run_on_e4_is_caught(size: usize, black: &str, white: &str) -> bool {
        let g = game_with_stones(size, black, white);
        LadderReader::new().run_is_caught(g.board(), pt(&g, "E4"), 2)
    }

    #[test]
    fn a_ladder_on_an_open_board_catches_the_runner() {
        assert!(white_run_on_e4_is_caught(9, CHASERS, "D4"));
        // A black stone away from the path changes nothing.
        assert!(white_run_on_e4_is_caught(9, CHASERS, "D4 A9"));
    }

    #[test]
    fn a_ladder_breaker_lets_the_runner_escape() {
        // A white stone on the ladder's path (G7) joins the runner.
        assert!(!white_run_on_e4_is_caught(9, CHASERS, "D4 G7"));
    }

    #[test]
    fn an_atari_that_starts_a_working_ladder_catches() {
        // White D4 has D3 and E4; black's atari on D3 leaves the ladder above.
        let g = game_with_stones(9, "C4 D5 E3", "D4");
        let mut r = LadderReader::new();
        assert!(r.atari_catches(g.board(), pt(&g, "D3"), 1));
        // Without E3 the same atari lets white extend on E4 to three liberties.
        let open = game_with_stones(9, "C4 D5", "D4");
        assert!(!r.atari_catches(open.board(), pt(&open, "D3"), 1));
        // With a white ladder breaker on the path, the atari on D3 does not catch either.
        let g = game_with_stones(9, "C4 D5 E3", "D4 G7");
        assert!(!r.atari_catches(g.board(), pt(&g, "D3"), 1));
    }

    #[test]
    fn a_runner_that_gets_three_liberties_escapes_at_once() {
        // Without E3, extending on E4 gives D4 four liberties: D3, E3, E5 and F4.
        assert!(!white_run_on_e4_is_caught(9, "C4 D5", "D4"));
    }

    #[test]
    fn an_attacker_stone_in_atari_is_an_escape() {
        // With white on D2, F3 and E2, black's D3-E3 keeps only C3 once white is on E4:
        // white takes it rather than run.
        assert!(!white_run_on_e4_is_caught(9, CHASERS, "D4 D2 F3 E2"));
    }

    #[test]
    fn a_run_that_is_a_suicide_is_caught_where_suicide_is_allowed() {
        // White D4 extending on E4 has no liberty left. Where suicide is legal the run takes
        // the stones off the board, and the reader must not read on from the empty points.
        let g = game_with_stones(9, "C4 D5 D3 E5 F4 E3", "D4");
        let mut board = g.board().clone();
        board.set_suicide_allowed(true);
        let mut r = LadderReader::new();
        assert!(r.run_is_caught(&board, pt(&g, "E4"), 2));
        // The same through an atari: black D3 leaves white only the suicide on E4.
        let g = game_with_stones(9, "C4 D5 E5 F4 E3", "D4");
        let mut board = g.board().clone();
        board.set_suicide_allowed(true);
        assert!(r.atari_catches(&board, pt(&g, "D3"), 1));
    }

    #[test]
    fn a_breaker_far_along_a_19x19_ladder_counts() {
        // The ladder from D4 runs along the diagonal: Q16 on it breaks it, Q4 off it does not.
        assert!(!white_run_on_e4_is_caught(19, CHASERS, "D4 Q16 Q4"));
        assert!(white_run_on_e4_is_caught(19, CHASERS, "D4 Q4"));
    }

    #[test]
    fn reads_are_bounded() {
        // A long ladder on 19x19 from the bottom-left corner area reads to the end.
        let g = game_with_stones(19, "C4 D5 D3 E3", "D4");
        let mut r = LadderReader::new();
        assert!(r.run_is_caught(g.board(), pt(&g, "E4"), 2));
        assert!(r.plays <= MAX_PLAYS);
        assert!(r.boards.len() < 80, "{} plies", r.boards.len());
    }
}
