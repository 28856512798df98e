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
mod tests {
    use super::*;
    use crate::rules::go::{move_name, parse_move, HandicapBonus, Scoring};

    fn mv(game: &GoGame, s: &str) -> GoMove {
        parse_move(game.board(), s).unwrap()
    }

    /// Plays space-separated vertices alternately from black.
    fn play_seq(game: &mut GoGame, seq: &str) {
        for s in seq.split_whitespace() {
            let c = game.to_move();
            let m = mv(game, s);
            game.play(m, c).unwrap_or_else(|e| panic!("{s}: {e}"));
        }
    }

    fn names(game: &GoGame, pts: &[Point]) -> String {
        pts.iter()
            .map(|&p| move_name(game.board(), GoMove::Play(p)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn pt(game: &GoGame, vertex: &str) -> Point {
        match mv(game, vertex) {
            GoMove::Play(p) => p,
            GoMove::Pass => panic!("a point"),
        }
    }

    fn stones(game: &GoGame, color: Color, vertices: &str) -> Vec<(Point, Color)> {
        vertices
            .split_whitespace()
            .map(|v| (pt(game, v), color))
            .collect()
    }

    #[test]
    fn a_setup_that_leaves_a_group_without_a_liberty_is_refused() {
        // White A8 B9 around black A9, listed in the order that once took A9 silently (A8, A9,
        // then B9 captured it): refused, and nothing changes.
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let mut all = stones(&g, Color::White, "A8");
        all.extend(stones(&g, Color::Black, "A9"));
        all.extend(stones(&g, Color::White, "B9"));
        assert_eq!(g.place_setup(&all), Err(IllegalMove::Suicide));
        assert_eq!(g.board().stone_count(), 0);
        // A black group of five along the edge behind a white wall, with one liberty left at
        // E1, listed white first: accepted as it stands.
        let mut all = stones(&g, Color::White, "A3 B2 C2 D2 E2 F1");
        all.extend(stones(&g, Color::Black, "A1 B1 C1 D1 A2"));
        g.place_setup(&all).unwrap();
        assert_eq!(g.board().stone_count(), 11);
        assert_eq!(g.board().liberties(pt(&g, "B1")), 1);
        g.board().validate();
        // Filling E1 as well leaves the black group without a liberty.
        let mut g2 = GoGame::new(9, 9, GoRules::default()).unwrap();
        all.extend(stones(&g2, Color::Black, "E1"));
        assert_eq!(g2.place_setup(&all), Err(IllegalMove::Suicide));
        assert_eq!(g2.board().stone_count(), 0);
    }

    #[test]
    fn a_setup_in_mid_game_is_a_new_start_that_keeps_the_prisoners() {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        // White captures B1 at C1 after black B1, white A1 B2.
        play_seq(&mut g, "B1 A1 E5 B2 E6 C1");
        assert_eq!(g.board().captures(Color::White), 1);
        let add = stones(&g, Color::White, "E5 J9");
        let erase = [pt(&g, "E6"), pt(&g, "G7")];
        g.edit_position(&add, &erase).unwrap();
        // E5 turned white, E6 emptied, G7 was empty already, J9 added.
        assert_eq!(g.board().get(pt(&g, "E5")), Some(Color::White));
        assert_eq!(g.board().get(pt(&g, "E6")), None);
        assert_eq!(g.board().stone_count(), 5);
        assert_eq!(g.board().captures(Color::White), 1, "prisoners stay");
        assert!(g.moves().is_empty());
        assert!(!g.undo(), "the moves before cannot be undone");
        assert_eq!(g.setup().len(), 5);
        // Replaying under other rules keeps the edited start and its prisoners.
        let r = g.replayed_under(GoRules::default()).unwrap();
        assert_eq!(r.board().hash(), g.board().hash());
        assert_eq!(r.board().captures(Color::White), 1);
        // A refused edit (black H9 and J8 leave white J9 without a liberty) changes nothing.
        let hash = g.board().hash();
        let fence = stones(&g, Color::Black, "H9 J8");
        assert_eq!(g.edit_position(&fence, &[]), Err(IllegalMove::Suicide));
        assert_eq!(g.board().hash(), hash);
        assert_eq!(g.board().stone_count(), 5);
    }

    #[test]
    fn a_side_to_move_set_by_a_record_lasts_until_the_next_move() {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let both = [
            stones(&g, Color::Black, "C3"),
            stones(&g, Color::White, "G7"),
        ]
        .concat();
        g.place_setup(&both).unwrap();
        assert_eq!(g.to_move(), Color::Black);
        g.set_to_move(Color::White);
        assert_eq!(g.to_move(), Color::White);
        // The current situation is recorded with white to move: a pass by white and one by
        // black come back to it, which situational superko does not mind for passes.
        play_seq(&mut g, "E5");
        assert_eq!(g.to_move(), Color::Black);
        assert!(g.undo());
        assert_eq!(g.to_move(), Color::White, "the same position again");
        play_seq(&mut g, "E5 D4");
        g.set_to_move(Color::Black);
        assert_eq!(g.to_move(), Color::Black);
        assert!(g.undo());
        play_seq(&mut g, "F4");
        assert_eq!(g.to_move(), Color::White, "set for another position");
        // A new start forgets it.
        g.set_to_move(Color::Black);
        g.edit_position(&[], &[]).unwrap();
        assert_eq!(g.to_move(), Color::Black);
    }

    #[test]
    fn handicap_points_match_gnu_go() {
        let g9 = GoGame::new(9, 9, GoRules::default()).unwrap();
        let expected = [
            "G7 C3",
            "C7 G7 C3",
            "C7 G7 C3 G3",
            "C7 G7 E5 C3 G3",
            "C7 G7 C5 G5 C3 G3",
            "C7 G7 C5 E5 G5 C3 G3",
            "C7 E7 G7 C5 G5 C3 E3 G3",
            "C7 E7 G7 C5 E5 G5 C3 E3 G3",
        ];
        for (i, want) in expected.iter().enumerate() {
            let pts = g9.fixed_handicap_points(i + 2).unwrap();
            assert_eq!(names(&g9, &pts), *want, "{} stones", i + 2);
        }
        assert!(g9.fixed_handicap_points(1).is_none());
        assert!(g9.fixed_handicap_points(10).is_none());
        assert!(g9.fixed_handicap_points(0).is_none());

        let g13 = GoGame::new(13, 13, GoRules::default()).unwrap();
        assert_eq!(
            names(&g13, &g13.fixed_handicap_points(9).unwrap()),
            "D10 G10 K10 D7 G7 K7 D4 G4 K4"
        );
        let g19 = GoGame::new(19, 19, GoRules::default()).unwrap();
        assert_eq!(
            names(&g19, &g19.fixed_handicap_points(9).unwrap()),
            "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4"
        );
        assert_eq!(
            names(&g19, &g19.fixed_handicap_points(4).unwrap()),
            "D16 Q16 D4 Q4"
        );
        let g8 = GoGame::new(8, 8, GoRules::default()).unwrap();
        assert_eq!(
            names(&g8, &g8.fixed_handicap_points(4).unwrap()),
            "C6 F6 C3 F3"
        );
        assert!(g8.fixed_handicap_points(5).is_none());
        let g7 = GoGame::new(7, 7, GoRules::default()).unwrap();
        assert_eq!(
            names(&g7, &g7.fixed_handicap_points(4).unwrap()),
            "C5 E5 C3 E3"
        );
        assert!(g7.fixed_handicap_points(5).is_none());
        let g6 = GoGame::new(6, 6, GoRules::default()).unwrap();
        assert!(g6.fixed_handicap_points(2).is_none());
        let rect = GoGame::new(9, 13, GoRules::default()).unwrap();
        assert!(rect.fixed_handicap_points(2).is_none());
    }

    #[test]
    fn handicap_setup_gives_white_the_move_and_cannot_be_undone() {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let pts = g.fixed_handicap_points(3).unwrap();
        let stones: Vec<_> = pts.iter().map(|&p| (p, Color::Black)).collect();
        g.place_setup(&stones).unwrap();
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.board().stone_count(), 3);
        assert!(!g.undo());
        play_seq(&mut g, "E5");
        assert!(g.place_setup(&stones).is_err());
        assert!(g.undo());
        assert_eq!(g.board().stone_count(), 3);
        // An occupied set-up point is refused and changes nothing.
        let before = g.board().hash();
        assert_eq!(
            g.place_setup(&[(pts[0], Color::White)]),
            Err(IllegalMove::Occupied)
        );
        assert_eq!(g.board().hash(), before);
    }

    #[test]
    fn capture_and_undo_restores_the_stones() {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        // White E5 surrounded by black D5 F5 E4 E6.
        play_seq(&mut g, "D5 E5 F5 A1 E4 A2");
        let e5 = mv(&g, "E5");
        let hash = g.board().hash();
        play_seq(&mut g, "E6");
        assert_eq!(
            g.board().get(match e5 {
                GoMove::Play(p) => p,
                GoMove::Pass => unreachable!(),
            }),
            None
        );
        assert_eq!(g.board().captures(Color::Black), 1);
        assert!(g.undo());
        assert_eq!(g.board().hash(), hash);
        assert_eq!(g.board().captures(Color::Black), 0);
        assert_eq!(g.board().stone_count(), 6);
        g.board().validate();
    }

    #[test]
    fn multi_stone_capture_on_the_edge() {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        // White A1 B1 on the edge; black A2 B2 C1 captures both.
        play_seq(&mut g, "A2 A1 B2 B1 C1");
        assert_eq!(g.board().stone_count(), 3);
        assert_eq!(g.board().captures(Color::Black), 2);
        g.board().validate();
    }

    #[test]
    fn simple_ko_forbids_the_immediate_recapture_only() {
        let rules = GoRules {
            ko: KoRule::Simple,
            ..GoRules::default()
        };
        let mut g = GoGame::new(9, 9, rules).unwrap();
        // Ko shape around D5/E5: black C5 D6 D4, white F5 E6 E4, then black E5 and white D5 takes.
        play_seq(&mut g, "C5 F5 D6 E6 D4 E4 E5 D5");
        assert_eq!(g.board().captures(Color::White), 1);
        let e5 = mv(&g, "E5");
        assert_eq!(g.check(e5, Color::Black), Err(IllegalMove::Ko));
        // White may fill the ko itself; black may play elsewhere and retake later.
        assert_eq!(g.check(e5, Color::White), Ok(()));
        play_seq(&mut g, "J9 J1");
        assert_eq!(g.check(e5, Color::Black), Ok(()));
        // A pass also lifts the ban.
        let mut h = GoGame::new(9, 9, rules).unwrap();
        play_seq(&mut h, "C5 F5 D6 E6 D4 E4 E5 D5");
        h.play(GoMove::Pass, Color::Black).unwrap();
        h.play(GoMove::Pass, Color::White).unwrap();
        assert_eq!(h.consecutive_passes(), 2);
        assert_eq!(h.check(e5, Color::Black), Ok(()));
    }

    #[test]
    fn snapback_captures_the_capturing_stones() {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let b = |g: &GoGame, s: &str| match parse_move(g.board(), s).unwrap() {
            GoMove::Play(p) => p,
            GoMove::Pass => unreachable!(),
        };
        //   A B C
        // 3 X X .
        // 2 O O X      white A2 B2 has two liberties, A1 and B1
        // 1 . . X
        let stones: Vec<(Point, Color)> = [
            ("A3", Color::Black),
            ("B3", Color::Black),
            ("C2", Color::Black),
            ("C1", Color::Black),
            ("A2", Color::White),
            ("B2", Color::White),
        ]
        .iter()
        .map(|&(s, c)| (b(&g, s), c))
        .collect();
        g.place_setup(&stones).unwrap();
        // Black throws in at A1 (itself in atari, white now in atari too) ...
        g.play(GoMove::Play(b(&g, "A1")), Color::Black).unwrap();
        assert_eq!(g.board().liberties(b(&g, "A1")), 1);
        assert_eq!(g.board().liberties(b(&g, "A2")), 1);
        // ... white takes it with B1 and is left with one liberty, A1 ...
        g.play(GoMove::Play(b(&g, "B1")), Color::White).unwrap();
        assert_eq!(g.board().get(b(&g, "A1")), None);
        assert_eq!(g.board().captures(Color::White), 1);
        assert_eq!(g.board().liberties(b(&g, "B1")), 1);
        // ... and black retakes at once (not a ko: white's group is three stones).
        assert!(g.board().ko().is_none());
        g.play(GoMove::Play(b(&g, "A1")), Color::Black).unwrap();
        assert_eq!(g.board().captures(Color::Black), 3);
        for s in ["A2", "B2", "B1"] {
            assert_eq!(g.board().get(b(&g, s)), None, "{s}");
        }
        g.board().validate();
    }

    #[test]
    fn suicide_is_refused_unless_allowed() {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        play_seq(&mut g, "A2 E5 B1");
        let a1 = mv(&g, "A1");
        assert_eq!(g.check(a1, Color::White), Err(IllegalMove::Suicide));
        // Black may fill its own point (not suicide: the group keeps liberties).
        assert_eq!(g.check(a1, Color::Black), Ok(()));
        // Allowed suicide: the stone is removed (and under superko the move would repeat the
        // position after B1, so use simple ko).
        let rules = GoRules {
            suicide: true,
            ko: KoRule::Simple,
            ..GoRules::default()
        };
        let mut h = GoGame::new(9, 9, rules).unwrap();
        play_seq(&mut h, "A2 E5 B1");
        h.play(a1, Color::White).unwrap();
        assert_eq!(h.board().stone_count(), 3);
        assert_eq!(h.board().captures(Color::Black), 1);
        h.board().validate();
    }

    #[test]
    fn positional_superko_forbids_a_repeated_position() {
        // A ko on 5x5 where both sides pass in between: simple ko then allows the retake,
        // superko does not.
        let mut g = GoGame::new(5, 5, GoRules::default()).unwrap();
        play_seq(&mut g, "B3 C3 A2 D2 B1 C1 C2 B2");
        // White's B2 took black C2: a ko.
        assert_eq!(g.board().captures(Color::White), 1);
        let c2 = mv(&g, "C2");
        assert_eq!(g.check(c2, Color::Black), Err(IllegalMove::Ko));
        g.play(GoMove::Pass, Color::Black).unwrap();
        g.play(GoMove::Pass, Color::White).unwrap();
        // Simple ko is lifted by the passes; retaking now recreates the position after black's
        // C2 two moves earlier, which superko forbids.
        assert_eq!(g.check(c2, Color::Black), Err(IllegalMove::Superko));
        let mut simple = g.clone();
        simple.set_rules(GoRules {
            ko: KoRule::Simple,
            ..GoRules::default()
        });
        assert_eq!(simple.check(c2, Color::Black), Ok(()));
    }

    #[test]
    fn situational_superko_looks_at_the_side_to_move() {
        let rules = GoRules {
            ko: KoRule::SituationalSuperko,
            ..GoRules::default()
        };
        let mut g = GoGame::new(5, 5, rules).unwrap();
        play_seq(&mut g, "B3 C3 A2 D2 B1 C1 C2 B2");
        let c2 = mv(&g, "C2");
        g.play(GoMove::Pass, Color::Black).unwrap();
        g.play(GoMove::Pass, Color::White).unwrap();
        // Same position with white to move as after black's earlier C2: forbidden.
        assert_eq!(g.check(c2, Color::Black), Err(IllegalMove::Superko));
        // A position seen only with white to move may come back with black to move. With
        // suicide allowed, white's single-stone suicide in black's corner recreates the start
        // position (white to move after a black handicap) but now with black to move.
        let suicide_situational = GoRules {
            suicide: true,
            ..rules
        };
        let mut h = GoGame::new(9, 9, suicide_situational).unwrap();
        let a2 = mv(&h, "A2");
        let b1 = mv(&h, "B1");
        let (GoMove::Play(a2), GoMove::Play(b1)) = (a2, b1) else {
            unreachable!()
        };
        h.place_setup(&[(a2, Color::Black), (b1, Color::Black)])
            .unwrap();
        let a1 = mv(&h, "A1");
        assert_eq!(h.check(a1, Color::White), Ok(()));
        h.set_rules(GoRules {
            suicide: true,
            ..GoRules::default()
        });
        assert_eq!(h.check(a1, Color::White), Err(IllegalMove::Superko));
    }

    #[test]
    fn a_rules_change_replays_the_game_and_names_the_first_move_it_forbids() {
        let simple = GoRules {
            ko: KoRule::Simple,
            ..GoRules::default()
        };
        let mut g = GoGame::new(5, 5, simple).unwrap();
        play_seq(&mut g, "B3 C3 A2 D2 B1 C1 C2 B2");
        g.play(GoMove::Pass, Color::Black).unwrap();
        g.play(GoMove::Pass, Color::White).unwrap();
        g.play(mv(&g, "C2"), Color::Black).unwrap();
        // Situational superko allows nothing of it either: move 10 (0-based) repeats.
        for ko in [KoRule::PositionalSuperko, KoRule::SituationalSuperko] {
            let err = g.replayed_under(GoRules { ko, ..simple }).unwrap_err();
            assert_eq!(err, (10, IllegalMove::Superko), "{ko:?}");
        }
        let japanese = GoRules {
            scoring: Scoring::Territory,
            komi: 6.5,
            ..simple
        };
        let replayed = g.replayed_under(japanese).unwrap();
        assert_eq!(replayed.board().hash(), g.board().hash());
        assert_eq!(replayed.moves(), g.moves());
        assert_eq!(replayed.board().captures(Color::White), 1);
        assert_eq!(replayed.rules(), &japanese);
    }

    #[test]
    fn handicap_bonus_counts_black_only_setup() {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let stones: Vec<(Point, Color)> = g
            .fixed_handicap_points(4)
            .unwrap()
            .into_iter()
            .map(|p| (p, Color::Black))
            .collect();
        g.place_setup(&stones).unwrap();
        assert_eq!(g.handicap_stones(), 4);
        let empty_score = g.score(&[], &[]);
        for (bonus, points) in [
            (HandicapBonus::Zero, 0.0),
            (HandicapBonus::NMinusOne, 3.0),
            (HandicapBonus::N, 4.0),
        ] {
            g.set_rules(GoRules {
                handicap_bonus: bonus,
                ..GoRules::default()
            });
            assert_eq!(g.handicap_bonus(), points);
            assert_eq!(g.effective_komi(), 7.5 + points);
            assert_eq!(g.score(&[], &[]), empty_score - points);
        }
        // One stone is no handicap; mixed set-up is none either.
        assert_eq!(HandicapBonus::N.points(1), 0.0);
        let mut mixed = GoGame::new(9, 9, GoRules::default()).unwrap();
        let a1 = mixed.board().point(0, 0).unwrap();
        let b2 = mixed.board().point(1, 1).unwrap();
        mixed
            .place_setup(&[(a1, Color::Black), (b2, Color::White)])
            .unwrap();
        assert_eq!(mixed.handicap_stones(), 0);
    }

    #[test]
    fn same_colour_twice_and_off_board() {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let a = mv(&g, "A1");
        let b = mv(&g, "B1");
        g.play(a, Color::Black).unwrap();
        g.play(b, Color::Black).unwrap();
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.check(a, Color::White), Err(IllegalMove::Occupied));
        assert_eq!(
            g.check(GoMove::Play(Point(0)), Color::White),
            Err(IllegalMove::OffBoard)
        );
        assert_eq!(
            g.check(GoMove::Play(Point(60000)), Color::White),
            Err(IllegalMove::OffBoard)
        );
        g.clear();
        assert_eq!(g.board().stone_count(), 0);
        assert!(g.moves().is_empty());
        assert!(!g.undo());
    }

    #[test]
    fn random_games_keep_incremental_state_equal_to_a_fresh_count() {
        for (size, seed) in [(9usize, 1u64), (5, 2), (13, 3), (19, 4), (2, 5), (25, 6)] {
            let mut g = GoGame::new(size, size, GoRules::default()).unwrap();
            let mut state = seed;
            let mut hashes = vec![g.board().hash()];
            for _ in 0..size * size * 3 {
                let c = g.to_move();
                let empties: Vec<u16> = g.board().empty_points().to_vec();
                let legal: Vec<u16> = empties
                    .into_iter()
                    .filter(|&p| g.is_legal(Point(p), c) && !g.board().is_eye(p as usize, c as u8))
                    .collect();
                let m = if legal.is_empty() {
                    GoMove::Pass
                } else {
                    let r = crate::rules::mnk::splitmix64(&mut state) as usize;
                    GoMove::Play(Point(legal[r % legal.len()]))
                };
                g.play(m, c).unwrap();
                g.board().validate();
                hashes.push(g.board().hash());
            }
            // Undo all the way back, checking each board against the recorded hash.
            while g.undo() {
                hashes.pop();
                g.board().validate();
                assert_eq!(g.board().hash(), *hashes.last().unwrap());
            }
            assert_eq!(g.board().stone_count(), 0);
        }
    }

    #[test]
    fn corner_points_on_odd_boards() {
        assert_eq!(corner_points(3, 3), vec![(2, 2), (0, 0), (0, 2), (2, 0)]);
        assert_eq!(corner_points(7, 5), vec![(4, 3), (2, 1), (2, 3), (4, 1)]);
        assert_eq!(corner_points(1, 2).len(), 2);
    }
}
