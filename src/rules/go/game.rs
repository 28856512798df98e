//! A game of Go: the board, the rules, the moves played, the board before each of them (undo
//! restores captures exactly) and the hashes of every position so far (superko). Handicap and
//! other set-up stones come before the first move and cannot be undone. A set-up in mid-game
//! (an SGF record's `AB`/`AW`/`AE` after moves) starts the game afresh from the edited
//! position: it is a position, not a move, so the moves before it cannot be undone either.

use super::board::{GoBoard, GoMove, Point, SizeError};
use super::score::score_detail_taxed;
use super::{Color, GoRules, IllegalMove, KoRule};

/// Key mixed into a position hash when white is to move (situational superko).
const WHITE_TO_MOVE: u64 = 0x7A1C_E0F3_95B2_D64B;

/// Board, history and rules: what a session keeps for one game.
#[derive(Clone, Debug)]
pub struct GoGame {
    board: GoBoard,
    rules: GoRules,
    /// Set-up stones (handicap, SGF AB/AW), placed before any move.
    setup: Vec<(Point, Color)>,
    /// Prisoners taken before the set-up (a set-up in mid-game keeps them, as SGF does).
    setup_prisoners: [u32; 2],
    /// The side to move as a record set it (SGF `PL`), while the move count is the first
    /// value; otherwise the opponent of the last mover decides.
    to_move_set: Option<(usize, Color)>,
    moves: Vec<(GoMove, Color)>,
    /// `before[i]` is the board before `moves[i]`.
    before: Vec<GoBoard>,
    /// Hash of every position reached (plain and with the side to move), the start included.
    positions: Vec<u64>,
    situations: Vec<u64>,
}

impl GoGame {
    /// An empty board of `width` x `height` (2..=25 each) under `rules`.
    pub fn new(width: usize, height: usize, rules: GoRules) -> Result<GoGame, SizeError> {
        let mut board = GoBoard::new(width, height)?;
        board.set_suicide_allowed(rules.suicide);
        let mut game = GoGame {
            board,
            rules,
            setup: Vec::new(),
            setup_prisoners: [0; 2],
            to_move_set: None,
            moves: Vec::new(),
            before: Vec::new(),
            positions: Vec::new(),
            situations: Vec::new(),
        };
        game.record_position();
        Ok(game)
    }

    /// The current board.
    #[inline]
    pub fn board(&self) -> &GoBoard {
        &self.board
    }
    /// The rules in force.
    #[inline]
    pub fn rules(&self) -> &GoRules {
        &self.rules
    }
    /// Changes komi (allowed at any time; GTP sends it whenever it likes).
    pub fn set_komi(&mut self, komi: f32) {
        self.rules.komi = komi;
    }
    /// Changes the ko rule, suicide and scoring (komi too); the position stays.
    pub fn set_rules(&mut self, rules: GoRules) {
        self.rules = rules;
        self.board.set_suicide_allowed(rules.suicide);
    }

    /// This game replayed under `rules`: the same set-up and moves, checked again (KataGo
    /// changes rules in mid-game the same way). The error names the first move (0-based) the
    /// new rules forbid, say a suicide played while it was allowed, or a repetition that
    /// simple ko let through and superko does not.
    pub fn replayed_under(&self, rules: GoRules) -> Result<GoGame, (usize, IllegalMove)> {
        let mut game = GoGame::new(self.board.width(), self.board.height(), rules)
            .expect("the current size is valid");
        game.setup_prisoners = self.setup_prisoners;
        game.place_setup(&self.setup)
            .expect("set-up stones do not depend on the rules");
        if let Some((0, c)) = self.to_move_set {
            game.set_to_move(c);
        }
        for (i, &(mv, c)) in self.moves.iter().enumerate() {
            game.play(mv, c).map_err(|e| (i, e))?;
        }
        if let Some((n, c)) = self.to_move_set {
            if n > 0 && n == game.moves.len() {
                game.set_to_move(c);
            }
        }
        Ok(game)
    }

    /// Black's handicap stones: the set-up when it is black stones only (as
    /// [`Self::to_move`] reads it), none otherwise.
    pub fn handicap_stones(&self) -> usize {
        if self.setup.iter().all(|s| s.1 == Color::Black) {
            self.setup.len()
        } else {
            0
        }
    }

    /// White's handicap bonus under the rules in force ([`GoRules::handicap_bonus`]).
    pub fn handicap_bonus(&self) -> f32 {
        self.rules.handicap_bonus.points(self.handicap_stones())
    }

    /// Komi plus white's handicap bonus: what black must beat on the board.
    pub fn effective_komi(&self) -> f32 {
        self.rules.komi + self.handicap_bonus()
    }

    /// Black's margin under the rules in force (scoring, seki tax, komi and handicap bonus),
    /// once `dead` are lifted, with `seki` the stones in seki; > 0 when black is ahead.
    pub fn score(&self, dead: &[Point], seki: &[Point]) -> f32 {
        score_detail_taxed(&self.board, dead, seki, &self.rules).score - self.handicap_bonus()
    }
    /// The moves played since the set-up, with their colours.
    #[inline]
    pub fn moves(&self) -> &[(GoMove, Color)] {
        &self.moves
    }
    /// The set-up stones (handicap, SGF AB/AW).
    #[inline]
    pub fn setup(&self) -> &[(Point, Color)] {
        &self.setup
    }
    /// The board before move `i` (`i == moves().len()` gives the current board).
    pub fn board_before(&self, i: usize) -> Option<&GoBoard> {
        if i == self.moves.len() {
            Some(&self.board)
        } else {
            self.before.get(i)
        }
    }

    /// The side to move: the one a record set ([`Self::set_to_move`]) until the next move, else
    /// the opponent of the last mover; at the start white after black-only set-up stones (a
    /// handicap), black otherwise.
    pub fn to_move(&self) -> Color {
        if let Some((n, c)) = self.to_move_set {
            if n == self.moves.len() {
                return c;
            }
        }
        match self.moves.last() {
            Some(&(_, c)) => c.opponent(),
            None => {
                let black = self.setup.iter().any(|s| s.1 == Color::Black);
                let white = self.setup.iter().any(|s| s.1 == Color::White);
                if black && !white {
                    Color::White
                } else {
                    Color::Black
                }
            }
        }
    }

    /// Passes at the end of the move list.
    pub fn consecutive_passes(&self) -> usize {
        self.moves
            .iter()
            .rev()
            .take_while(|m| m.0 == GoMove::Pass)
            .count()
    }

    /// Whether `color` may make `mv` now. A pass is always legal.
    pub fn check(&self, mv: GoMove, color: Color) -> Result<(), IllegalMove> {
        let p = match mv {
            GoMove::Pass => return Ok(()),
            GoMove::Play(p) => p,
        };
        if !self.board.on_board(p) {
            return Err(IllegalMove::OffBoard);
        }
        if self.board.get(p).is_some() {
            return Err(IllegalMove::Occupied);
        }
        if let Some((ko, banned)) = self.board.ko() {
            if ko == p && banned == color {
                return Err(IllegalMove::Ko);
            }
        }
        if !self.rules.suicide && self.board.is_suicide(p.idx(), color as u8) {
            return Err(IllegalMove::Suicide);
        }
        if self.rules.ko != KoRule::Simple {
            let mut after = self.board.clone();
            after.play_raw(p.idx(), color as u8);
            if self.repeats(&after, color.opponent()) {
                return Err(IllegalMove::Superko);
            }
        }
        Ok(())
    }

    /// Whether `board` with `next` to move was seen before, under the game's ko rule.
    fn repeats(&self, board: &GoBoard, next: Color) -> bool {
        match self.rules.ko {
            KoRule::Simple => false,
            KoRule::PositionalSuperko => self.positions.contains(&board.hash()),
            KoRule::SituationalSuperko => self.situations.contains(&situation(board, next)),
        }
    }

    /// Plays `mv` for `color` (the same colour twice in a row is allowed); on error nothing
    /// changes.
    pub fn play(&mut self, mv: GoMove, color: Color) -> Result<(), IllegalMove> {
        self.check(mv, color)?;
        self.before.push(self.board.clone());
        match mv {
            GoMove::Pass => self.board.pass(),
            GoMove::Play(p) => {
                self.board.play(p, color);
            }
        }
        self.moves.push((mv, color));
        self.record_position();
        Ok(())
    }

    /// Takes back the last move, captures included; false when there is none (set-up stones
    /// are not moves).
    pub fn undo(&mut self) -> bool {
        match self.before.pop() {
            Some(board) => {
                self.board = board;
                self.moves.pop();
                self.positions.pop();
                self.situations.pop();
                // A side to move set after a later position no longer applies, even when the
                // move count comes back to it.
                if self.to_move_set.is_some_and(|(n, _)| n > self.moves.len()) {
                    self.to_move_set = None;
                }
                true
            }
            None => false,
        }
    }

    /// Places set-up stones (handicap, SGF AB/AW) before any move. On error (a move was already
    /// played, an occupied or off-board point, a group left without liberties) nothing changes.
    pub fn place_setup(&mut self, stones: &[(Point, Color)]) -> Result<(), IllegalMove> {
        if !self.moves.is_empty() {
            return Err(IllegalMove::Occupied);
        }
        // Before the first move the board holds the set-up and nothing else, so a point taken
        // twice or off the board shows in the whole list.
        let mut all = self.setup.clone();
        all.extend_from_slice(stones);
        let board = self.board_of(&all)?;
        self.start_from(board, all);
        Ok(())
    }

    /// Edits the position as an SGF set-up node does: the points of `erase` become empty, then
    /// the stones of `add` are put on their points, whatever was there. Before the first move
    /// this adds to the set-up; after it, the edited position becomes the new start (with the
    /// prisoners so far) and the moves before it can no longer be undone. Refused, changing
    /// nothing, when a point is off the board or a group would be left without a liberty.
    pub fn edit_position(
        &mut self,
        add: &[(Point, Color)],
        erase: &[Point],
    ) -> Result<(), IllegalMove> {
        if erase.iter().any(|&p| !self.board.on_board(p)) {
            return Err(IllegalMove::OffBoard);
        }
        let mut stones: Vec<(Point, Color)> = self
            .board
            .points()
            .filter(|p| !erase.contains(p) && !add.iter().any(|s| s.0 == *p))
            .filter_map(|p| self.board.get(p).map(|c| (p, c)))
            .collect();
        stones.extend_from_slice(add);
        let board = self.board_of(&stones)?;
        self.setup_prisoners = [Color::Black, Color::White].map(|c| self.board.captures(c));
        self.moves.clear();
        self.before.clear();
        self.start_from(board, stones);
        Ok(())
    }

    /// A board of this game's size and rules holding `stones` and nothing else, or why no such
    /// position exists. Stones go down one by one, in any order: in a position where every
    /// group has a liberty no placement captures (a part of a group always touches an empty
    /// point where the rest of it goes, and a whole group keeps its final liberties), so a
    /// capture or a suicide on the way means some group has none.
    fn board_of(&self, stones: &[(Point, Color)]) -> Result<GoBoard, IllegalMove> {
        let mut board = GoBoard::new(self.board.width(), self.board.height())
            .expect("the current size is valid");
        board.set_suicide_allowed(true);
        for &(p, c) in stones {
            if !board.on_board(p) {
                return Err(IllegalMove::OffBoard);
            }
            if board.get(p).is_some() {
                return Err(IllegalMove::Occupied);
            }
            board.play_raw(p.idx(), c as u8);
        }
        if board.stone_count() != stones.len() {
            return Err(IllegalMove::Suicide);
        }
        board.set_suicide_allowed(self.rules.suicide);
        // Set-up leaves no ko and no last move behind.
        board.pass();
        Ok(board)
    }

    /// Makes `board` (holding `setup`) the start of the game: the prisoners taken before it, no
    /// ko, a fresh position history.
    fn start_from(&mut self, mut board: GoBoard, setup: Vec<(Point, Color)>) {
        board.set_prisoners(self.setup_prisoners);
        self.board = board;
        self.setup = setup;
        self.to_move_set = None;
        self.positions.clear();
        self.situations.clear();
        self.record_position();
    }

    /// Sets the side to move until the next move (SGF `PL`); the current position's
    /// situation (superko with the side to move) is recorded again with it.
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move_set = Some((self.moves.len(), color));
        self.situations.pop();
        self.situations.push(situation(&self.board, color));
    }

    /// The GTP fixed-handicap points for `n` stones (GTP.md §2, as GNU Go places them), in the
    /// order GNU Go prints them (top row first, left to right); `None` when `n` is not allowed on
    /// this board: 2..=9 on odd square boards of 9x9 and up, 2..=4 on even ones and on 7x7,
    /// none below 7x7 or on rectangular boards.
    pub fn fixed_handicap_points(&self, n: usize) -> Option<Vec<Point>> {
        fixed_handicap_points(&self.board, n)
    }

    /// Empties the board; size and rules stay, history and set-up go.
    pub fn clear(&mut self) {
        let mut board = GoBoard::new(self.board.width(), self.board.height())
            .expect("the current size is valid");
        board.set_suicide_allowed(self.rules.suicide);
        self.board = board;
        self.setup.clear();
        self.setup_prisoners = [0; 2];
        self.to_move_set = None;
        self.moves.clear();
        self.before.clear();
        self.positions.clear();
        self.situations.clear();
        self.record_position();
    }

    /// Whether `color` playing `p` is legal under the game's law (cheaper than [`Self::check`]
    /// when the answer is no; used by players to filter candidates).
    pub fn is_legal(&self, p: Point, color: Color) -> bool {
        self.check(GoMove::Play(p), color).is_ok()
    }

    fn record_position(&mut self) {
        self.positions.push(self.board.hash());
        self.situations
            .push(situation(&self.board, self.to_move_after_record()));
    }

    /// The side to move once the current position is recorded.
    fn to_move_after_record(&self) -> Color {
        self.to_move()
    }
}

fn situation(board: &GoBoard, next: Color) -> u64 {
    match next {
        Color::Black => board.hash(),
        Color::White => board.hash() ^ WHITE_TO_MOVE,
    }
}

/// See [`GoGame::fixed_handicap_points`].
pub fn fixed_handicap_points(board: &GoBoard, n: usize) -> Option<Vec<Point>> {
    let size = board.width();
    if board.height() != size || size < 7 || n < 2 {
        return None;
    }
    let max = if size % 2 == 1 && size >= 9 { 9 } else { 4 };
    if n > max {
        return None;
    }
    // 3rd line below 13x13, 4th line from 13x13 up.
    let edge = if size >= 13 { 3 } else { 2 };
    let (lo, hi, mid) = (edge, size - 1 - edge, size / 2);
    let mut pts: Vec<(usize, usize)> = vec![(hi, hi), (lo, lo)];
    if n >= 3 {
        pts.push((lo, hi));
    }
    if n >= 4 {
        pts.push((hi, lo));
    }
    if n >= 6 {
        pts.push((lo, mid));
        pts.push((hi, mid));
    }
    if n >= 8 {
        pts.push((mid, lo));
        pts.push((mid, hi));
    }
    if n % 2 == 1 && n >= 5 {
        pts.push((mid, mid));
    }
    pts.sort_by_key(|&(x, y)| (std::cmp::Reverse(y), x));
    pts.into_iter().map(|(x, y)| board.point(x, y)).collect()
}

/// Four corner-ish points (x, y) for free handicap on boards without standard handicap points: 3-3 points from 7x7,
/// 2-2 from 4x4, the corners below.
pub fn corner_points(w: usize, h: usize) -> Vec<(usize, usize)> {
    let edge = |side: usize| match side {
        13.. => 3,
        7.. => 2,
        4.. => 1,
        _ => 0,
    };
    let (ex, ey) = (edge(w), edge(h));
    let (lo_x, hi_x, lo_y, hi_y) = (ex, w - 1 - ex, ey, h - 1 - ey);
    let mut v = Vec::new();
    for xy in [(hi_x, hi_y), (lo_x, lo_y), (lo_x, hi_y), (hi_x, lo_y)] {
        if !v.contains(&xy) {
            v.push(xy);
        }
    }
    v
}

#[cfg(test)]
mod tests;
