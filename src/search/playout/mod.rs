//! Light Monte Carlo playouts for Go, allocation-free: from a position, both sides play
//! quick moves until two passes, then the board is counted by area.
//!
//! Policy for the side to move, in order:
//! 1. **capture**: a group next to the opponent's last stone (that stone's own group included)
//!    in atari is taken;
//! 2. **atari escape**: an own group next to the opponent's last stone in atari extends on its
//!    liberty when that gives it two or more liberties;
//! 3. **shape**: one of the empty points around the last stone (eight neighbours) whose 3x3
//!    neighbourhood is a MoGo pattern ([`crate::eval::go::patterns`]), chosen at random, when
//!    it is no self-atari and fills no own eye;
//! 4. otherwise a **random** empty point, scanned from a random start, that is legal, does not
//!    fill an own eye (the usual diagonal test) and is not a self-atari of two or more stones
//!    (single-stone throw-ins stay allowed, for ko and nakade). No such point: pass.
//!
//! The eye, liberty-count and pattern tests read the board's incremental 3x3 neighbourhood
//! codes ([`crate::rules::go::nbr3`]), so most of them are one table lookup.
//!
//! A playout ends after two passes in a row, after `3 x points` moves, or when one colour leads
//! the other in stones by more than [`mercy_lead`] (the mercy rule: a lead that large is almost
//! never overturned, and the captures that made it would otherwise be played out). Ownership
//! playouts ([`Ending::ToTheEnd`]) skip the mercy rule. Every empty point then belongs to the
//! colour of its stone neighbours when they are all one colour (by then empty points are eyes or
//! dame), and the score is black minus white minus komi.

use crate::eval::go::patterns::pat3;
use crate::rules::go::board::{GoBoard, BLACK, EMPTY, WHITE};
use crate::rules::go::nbr3::{slots_holding, Slots};
use crate::rules::go::{GoGame, Point};
use crate::rules::Color;
use crate::search::clock::TimeManager;

/// A small, fast generator (wyrand) for playouts; seeded, so runs replay exactly.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x2545_F491_4F6C_DD1D)
    }
    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xA076_1D64_78BD_642F);
        let t = (self.0 as u128).wrapping_mul((self.0 ^ 0xE703_7ED1_A0B4_28DB) as u128);
        ((t >> 64) as u64) ^ (t as u64)
    }
    /// A number in `0..n` (n > 0).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
    /// A float in [0, 1).
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Moves allowed in one playout, per board point.
pub const MOVES_PER_POINT: usize = 3;

/// A playout ends early (mercy rule) when one colour has more stones than the other by more
/// than this: a sixth of the points plus five, at least 18. Played on past that lead, the
/// leading side goes on to lose in well under 0.1% of the playouts on every board size
/// (`the_mercy_rule_almost_never_changes_the_winner`), while a third to a half of them end early.
pub fn mercy_lead(points: usize) -> i32 {
    (points / 6 + 5).max(18) as i32
}

/// What [`playout`] writes besides the score: the first colour to play each point (AMAF).
pub struct PlayoutTrace<'a> {
    /// Indexed by point: 0 = not played in this playout, else the colour (1 black, 2 white)
    /// that played it first. The caller clears it.
    pub first_mover: &'a mut [u8],
}

/// How a playout may end besides two passes and the move limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Also by the mercy rule ([`mercy_lead`]): what the search's playouts use.
    Mercy,
    /// Only by passes or the move limit: a playout cut short leaves points in dispute that
    /// belong to nobody, which the margin's sign survives but an ownership map does not.
    ToTheEnd,
}

/// Plays `board` out with `to_move` first, until it ends as `ending` allows; returns black's
/// area margin minus `komi`. The board is left in the final position.
#[inline]
pub fn playout(
    board: &mut GoBoard,
    to_move: Color,
    komi: f32,
    rng: &mut Rng,
    trace: Option<&mut PlayoutTrace<'_>>,
    ending: Ending,
) -> f32 {
    let mercy = match ending {
        Ending::Mercy => mercy_lead(board.width() * board.height()),
        Ending::ToTheEnd => i32::MAX,
    };
    play_out(board, to_move, komi, rng, trace, mercy)
}

/// The playout loop; it stops early when the stone lead exceeds `mercy`. Kept out of line so
/// that one copy serves every caller: inlined into two, the policy's stages were no longer
/// inlined into it, and the 9x9 playouts ran 4% slower (`sente bench go`).
#[inline(never)]
fn play_out(
    board: &mut GoBoard,
    mut to_move: Color,
    komi: f32,
    rng: &mut Rng,
    mut trace: Option<&mut PlayoutTrace<'_>>,
    mercy: i32,
) -> f32 {
    let max_moves = board.width() * board.height() * MOVES_PER_POINT;
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < max_moves {
        let lead = board.stones_of(Color::Black) as i32 - board.stones_of(Color::White) as i32;
        if lead.abs() > mercy {
            // One side has captured so much that the rest of the playout cannot change the
            // winner: the margin is counted now, with the lead in stones as black's area.
            break;
        }
        let played = step(board, to_move, rng);
        if let Some(t) = trace.as_deref_mut() {
            if let Some(p) = played {
                if t.first_mover[p] == 0 {
                    t.first_mover[p] = to_move as u8;
                }
            }
        }
        match played {
            Some(_) => passes = 0,
            None => passes += 1,
        }
        moves += 1;
        to_move = to_move.opponent();
    }
    area_margin(board) as f32 - komi
}

/// One playout move: the policy's choice for `c` played (returned), or a pass (`None`).
#[inline(always)]
pub fn step(board: &mut GoBoard, c: Color, rng: &mut Rng) -> Option<usize> {
    match choose(board, c, rng) {
        Some(p) => {
            board.play_unhashed(p, c as u8);
            Some(p)
        }
        None => {
            board.pass();
            None
        }
    }
}

/// The policy's move for `c` (the stages of the module doc), or `None` to pass.
#[inline(always)]
pub fn choose(board: &GoBoard, c: Color, rng: &mut Rng) -> Option<usize> {
    let me = c as u8;
    if let Some((last, _)) = board.last_move() {
        let last = last.idx();
        if let Some(p) = respond_to_last(board, last, me) {
            return Some(p);
        }
        if let Some(p) = pattern_move(board, last, me, rng) {
            return Some(p);
        }
    }
    random_move(board, me, rng)
}

/// A random acceptable empty point, scanned from a random start.
#[inline]
fn random_move(board: &GoBoard, me: u8, rng: &mut Rng) -> Option<usize> {
    let empties = board.empty_points();
    let n = empties.len();
    if n == 0 {
        return None;
    }
    let start = rng.below(n);
    for i in 0..n {
        let mut j = start + i;
        if j >= n {
            j -= n;
        }
        let p = empties[j] as usize;
        if acceptable(board, p, me) {
            return Some(p);
        }
    }
    None
}

/// Capture or atari escape around the last stone.
#[inline]
fn respond_to_last(board: &GoBoard, last: usize, me: u8) -> Option<usize> {
    if board.cell(last) == EMPTY {
        return None;
    }
    let opp = 3 - me;
    // 1. Capture: the last stone's group, then enemy groups touching it. When the last stone is
    // the opponent's (always, but after a colour played twice), its enemy neighbours are its own
    // group, already looked at.
    let h = board.head(last);
    if board.cell(last) == opp {
        if board.in_atari(h) {
            let lib = board.atari_liberty(h);
            if legal(board, lib, me) {
                return Some(lib);
            }
        }
    } else {
        for n in board.orth_neighbors_holding(last, opp) {
            let g = board.head(n);
            if board.in_atari(g) {
                let lib = board.atari_liberty(g);
                if legal(board, lib, me) {
                    return Some(lib);
                }
            }
        }
    }
    // 2. Escape: an own group next to the last stone in atari extends if that helps.
    for n in board.orth_neighbors_holding(last, me) {
        let g = board.head(n);
        if board.in_atari(g) {
            let lib = board.atari_liberty(g);
            if legal(board, lib, me) && board.liberties_after(lib, me, 2) >= 2 {
                return Some(lib);
            }
        }
    }
    None
}

/// A random empty neighbour of the last stone whose 3x3 shape is a pattern
/// ([`crate::eval::go::patterns`]), acceptable and not a self-atari.
#[inline]
fn pattern_move(board: &GoBoard, last: usize, me: u8, rng: &mut Rng) -> Option<usize> {
    let pat = pat3();
    // The last stone's own 3x3 code says which neighbours are empty, so only those are looked
    // at, without a branch on each cell.
    let mut found = [0u16; 8];
    let mut n = 0;
    for k in Slots(slots_holding(board.nbr3(last), EMPTY)) {
        let q = board.slot_neighbor(last, k);
        found[n] = q as u16;
        n += usize::from(pat.matches(board.nbr3(q)));
    }
    // A random match, tested for safety only when drawn: an unsafe one is dropped and another
    // drawn, which picks uniformly among the safe matches like testing all of them first, at
    // the cost of one test in the usual case.
    while n > 0 {
        let i = if n == 1 { 0 } else { rng.below(n) };
        let q = usize::from(found[i]);
        if safe(board, q, me) {
            return Some(q);
        }
        n -= 1;
        found[i] = found[n];
    }
    None
}

/// Whether `me` may play on empty `p` without filling an own eye or putting its stones in atari.
#[inline]
fn safe(board: &GoBoard, p: usize, me: u8) -> bool {
    let code = board.nbr3(p);
    let t = board.nbr3_table();
    match t.empty_orth(code) {
        2.. => true,
        1 => !board.is_self_atari(p, me),
        _ => !t.is_eye(code, me) && board.legal_empty(p, me) && !board.is_self_atari(p, me),
    }
}

/// Physics legality of an empty point.
#[inline]
fn legal(board: &GoBoard, p: usize, me: u8) -> bool {
    board.legal_empty(p, me)
}

/// Whether the random phase may play `p`: legal, not an own eye, not a self-atari of two or
/// more stones.
#[inline]
pub fn acceptable(board: &GoBoard, p: usize, me: u8) -> bool {
    let code = board.nbr3(p);
    let t = board.nbr3_table();
    let empty = t.empty_orth(code);
    // Two empty neighbours: legal, no eye, at least two liberties. (The ko point never has an
    // empty neighbour, nor does an eye.)
    if empty >= 2 {
        return true;
    }
    if empty == 0 && (t.is_eye(code, me) || !legal(board, p, me)) {
        return false;
    }
    // A lone stone may throw in; a group must keep two liberties unless it captures.
    !t.touches(code, me) || !board.is_self_atari(p, me)
}

/// Black's area minus white's on a played-out board: stones, plus empty points whose stone
/// neighbours are all of one colour.
pub fn area_margin(board: &GoBoard) -> i32 {
    let mut margin = board.stones_of(Color::Black) as i32 - board.stones_of(Color::White) as i32;
    for &p in board.empty_points() {
        margin += empty_owner(board, p as usize);
    }
    margin
}

/// +1 when every stone next to empty `p` is black, -1 when white, 0 otherwise.
#[inline]
fn empty_owner(board: &GoBoard, p: usize) -> i32 {
    board.nbr3_table().owner(board.nbr3(p))
}

/// Adds every point's owner on a played-out `board` to `own` (indexed by padded point): +1 for
/// black, -1 for white, by the stone on it or, on an empty point, by [`area_margin`]'s rule.
pub fn add_owners(board: &GoBoard, own: &mut [i64]) {
    for p in board.points() {
        let p = p.idx();
        own[p] += i64::from(point_owner(board, p));
    }
}

/// The owner of padded point `p` on a played-out `board`: +1 black, -1 white, 0 nobody (by
/// the stone on it or, on an empty point, by [`area_margin`]'s rule).
#[inline]
pub(crate) fn point_owner(board: &GoBoard, p: usize) -> i32 {
    match board.cell(p) {
        BLACK => 1,
        WHITE => -1,
        _ => empty_owner(board, p),
    }
}

/// Sums from [`add_owners`] over `playouts` playouts as shares in -1..1 (all 0 before any).
/// (The sums are 64-bit: an analysis may run for hours.)
pub fn mean_owners(own: &[i64], playouts: u64) -> Vec<f32> {
    let n = playouts.max(1) as f64;
    own.iter().map(|&v| (v as f64 / n) as f32).collect()
}

/// Ownership from many playouts of `game`'s current position: for every padded index, the
/// share of playouts (0..1) that ended with the point black's minus the share that ended with
/// it white (so -1..1, positive for black), plus the playouts run. Stops at `playouts` or when
/// `tm` says so (the node budget counts playouts).
pub fn ownership(
    game: &GoGame,
    playouts: u32,
    rng: &mut Rng,
    tm: &TimeManager<'_>,
) -> (Vec<f32>, u32) {
    let start = game.board();
    let len = start.array_len();
    let mut own = vec![0i64; len];
    let mut scratch = start.clone();
    let to_move = game.to_move();
    let mut done = 0u32;
    while done < playouts {
        if done.is_multiple_of(16) && done > 0 && tm.should_stop(done as u64) {
            break;
        }
        scratch.copy_from(start);
        playout(&mut scratch, to_move, 0.0, rng, None, Ending::ToTheEnd);
        add_owners(&scratch, &mut own);
        done += 1;
    }
    (mean_owners(&own, u64::from(done)), done)
}

/// Stones whose point ends owned by the opponent in most playouts (ownership beyond `0`
/// towards the other colour), from at most `playouts` playouts.
pub fn dead_stones(
    game: &GoGame,
    playouts: u32,
    rng: &mut Rng,
    tm: &TimeManager<'_>,
) -> Vec<Point> {
    let (own, _) = ownership(game, playouts, rng, tm);
    dead_in(game, &own)
}

/// Stones of `game` whose point `own` ([`ownership`]'s values) gives to the opponent.
pub fn dead_in(game: &GoGame, own: &[f32]) -> Vec<Point> {
    let board = game.board();
    board
        .points()
        .filter(|&p| match board.get(p) {
            Some(Color::Black) => own[p.idx()] < 0.0,
            Some(Color::White) => own[p.idx()] > 0.0,
            None => false,
        })
        .collect()
}

/// How many points the random stage would accept for black and for white (tests: a playout
/// that ended by two passes leaves 0 for one side and at most a ko for the other).
#[cfg(test)]
pub(crate) fn acceptable_moves_left(b: &GoBoard) -> [usize; 2] {
    [Color::Black, Color::White].map(|c| {
        b.empty_points()
            .iter()
            .filter(|&&p| acceptable(b, p as usize, c as u8))
            .count()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::{parse_point, score, GoRules};
    use std::sync::atomic::AtomicBool;

    fn pt(b: &GoBoard, s: &str) -> Point {
        parse_point(b, s).unwrap()
    }

    #[test]
    fn playouts_to_the_end_play_past_the_mercy_rule_until_no_move_is_left() {
        let mut rng = Rng::new(11);
        let start = GoBoard::new(9, 9).unwrap();
        let mut b = start.clone();
        let mut past_mercy = 0;
        for _ in 0..100 {
            b.copy_from(&start);
            let margin = playout(&mut b, Color::Black, 0.0, &mut rng, None, Ending::ToTheEnd);
            assert_eq!(margin, area_margin(&b) as f32);
            let lead = b.stones_of(Color::Black) as i32 - b.stones_of(Color::White) as i32;
            past_mercy += usize::from(lead.abs() > mercy_lead(81));
            // Ended by two passes: as in the test below, one side has no acceptable move and
            // the other at most the ko it was barred from.
            let left = acceptable_moves_left(&b);
            assert!(
                left.contains(&0) && left.iter().all(|&n| n <= 1),
                "{left:?}"
            );
        }
        assert!(past_mercy > 0, "no playout went past the mercy lead");
    }

    #[test]
    fn playouts_end_with_legal_consistent_boards_and_fill_no_eyes() {
        let mut rng = Rng::new(7);
        let mut mercy = 0;
        for size in [5usize, 9, 13, 19] {
            let start = GoBoard::new(size, size).unwrap();
            let mut b = start.clone();
            for _ in 0..20 {
                b.copy_from(&start);
                let margin = playout(&mut b, Color::Black, 0.0, &mut rng, None, Ending::Mercy);
                b.validate();
                assert!(margin.abs() <= (size * size) as f32);
                let lead = b.stones_of(Color::Black) as i32 - b.stones_of(Color::White) as i32;
                if lead.abs() > mercy_lead(size * size) {
                    // Ended by the mercy rule: the winner leads by that much.
                    assert_eq!(margin > 0.0, lead > 0, "{}", b.to_text());
                    mercy += 1;
                    continue;
                }
                // After two passes, the second passer had no acceptable move on this board (the
                // first pass had cleared any ko). The first passer may have been barred only
                // from retaking a ko, which the second pass lifted: one point at most.
                let left = acceptable_moves_left(&b);
                assert!(
                    left.contains(&0) && left.iter().all(|&n| n <= 1),
                    "{size}x{size} acceptable moves left {left:?}\n{}",
                    b.to_text()
                );
            }
        }
        assert!(mercy > 0, "no playout met the mercy rule");
    }

    /// Plays past the point where the mercy rule would end a playout: the side that led by the
    /// mercy margin must go on to win (area count, komi 7.5) in all but a few playouts.
    #[test]
    fn the_mercy_rule_almost_never_changes_the_winner() {
        let mut rng = Rng::new(5);
        for (size, playouts) in [(9usize, 2000), (13, 600), (19, 200)] {
            let start = GoBoard::new(size, size).unwrap();
            let mercy = mercy_lead(size * size);
            let mut b = start.clone();
            let (mut triggered, mut overturned) = (0, 0);
            for _ in 0..playouts {
                b.copy_from(&start);
                let mut c = Color::Black;
                let (mut passes, mut moves) = (0, 0);
                let mut leader = None;
                while passes < 2 && moves < MOVES_PER_POINT * size * size {
                    let lead = b.stones_of(Color::Black) as i32 - b.stones_of(Color::White) as i32;
                    if leader.is_none() && lead.abs() > mercy {
                        leader = Some(lead > 0);
                    }
                    passes = if step(&mut b, c, &mut rng).is_some() {
                        0
                    } else {
                        passes + 1
                    };
                    moves += 1;
                    c = c.opponent();
                }
                if let Some(black_led) = leader {
                    triggered += 1;
                    let black_won = area_margin(&b) as f32 - 7.5 > 0.0;
                    overturned += usize::from(black_won != black_led);
                }
            }
            assert!(
                triggered * 5 > playouts,
                "{size}x{size}: the rule met only {triggered} of {playouts} playouts"
            );
            assert!(
                overturned * 200 <= triggered,
                "{size}x{size}: {overturned} of {triggered} leads were overturned"
            );
        }
    }

    #[test]
    fn the_fast_paths_of_acceptable_agree_with_the_plain_rule() {
        let mut rng = Rng::new(11);
        let mut checked = 0;
        for size in [7usize, 9, 13] {
            let start = GoBoard::new(size, size).unwrap();
            let mut b = start.clone();
            for _ in 0..60 {
                b.copy_from(&start);
                let mut c = Color::Black;
                for _ in 0..rng.below(size * size * 3) {
                    for &q in b.empty_points() {
                        let q = q as usize;
                        for me in [BLACK, WHITE] {
                            let bad = b.is_eye(q, me)
                                || !legal(&b, q, me)
                                || (b.neighbors(q).iter().any(|&n| b.cell(n) == me)
                                    && b.liberties_after(q, me, 2) < 2
                                    && !b.captures_at(q, me));
                            assert_eq!(acceptable(&b, q, me), !bad, "{q} {me}\n{}", b.to_text());
                            checked += 1;
                        }
                    }
                    match choose(&b, c, &mut rng) {
                        Some(p) => {
                            b.play_raw(p, c as u8);
                        }
                        None => b.pass(),
                    }
                    c = c.opponent();
                }
            }
        }
        assert!(checked > 10_000);
    }

    #[test]
    fn capture_is_preferred_after_the_last_move() {
        // White E4 in atari after black's last move E3? Build: black D4 F4 E5, white E4; the
        // last stone (black E5) leaves E4 in atari: white must escape, black must capture.
        let mut b = GoBoard::new(9, 9).unwrap();
        for s in ["D4", "F4"] {
            b.play(pt(&b, s), Color::Black);
        }
        b.play(pt(&b, "E4"), Color::White);
        b.play(pt(&b, "E5"), Color::Black);
        let mut rng = Rng::new(1);
        // White to move: escape at E3 (gives E4 E3 three liberties).
        assert_eq!(choose(&b, Color::White, &mut rng), Some(pt(&b, "E3").idx()));
        // Black to move after its own last stone: its neighbour E4 is white in atari: capture.
        assert_eq!(choose(&b, Color::Black, &mut rng), Some(pt(&b, "E3").idx()));
    }

    #[test]
    fn dead_stones_in_a_settled_position() {
        // 9x9: black owns the left (wall on D, split by row 5 into two regions), white the
        // right likewise; a lone white stone in black's area and a lone black stone in
        // white's area are dead.
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let mut stones = Vec::new();
        for row in 1..=9 {
            stones.push((pt(g.board(), &format!("D{row}")), Color::Black));
            stones.push((pt(g.board(), &format!("E{row}")), Color::White));
        }
        for col in ["A", "B", "C"] {
            stones.push((pt(g.board(), &format!("{col}5")), Color::Black));
        }
        for col in ["F", "G", "H", "J"] {
            stones.push((pt(g.board(), &format!("{col}5")), Color::White));
        }
        stones.push((pt(g.board(), "B2"), Color::White));
        stones.push((pt(g.board(), "H7"), Color::Black));
        g.place_setup(&stones).unwrap();
        let stop = AtomicBool::new(false);
        let tm = TimeManager::infinite(&stop);
        let mut rng = Rng::new(3);
        let mut dead = dead_stones(&g, 400, &mut rng, &tm);
        dead.sort();
        let mut want = vec![pt(g.board(), "B2"), pt(g.board(), "H7")];
        want.sort();
        assert_eq!(dead, want);
        // Black: 36 area, white 45; komi 7.5 -> W+16.5.
        assert_eq!(score(g.board(), &dead, g.rules()), 36.0 - 45.0 - 7.5);
    }

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let mut a = Rng::new(5);
        let mut b = Rng::new(5);
        for _ in 0..1000 {
            let x = a.below(81);
            assert_eq!(x, b.below(81));
            assert!(x < 81);
            let u = a.unit();
            b.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
