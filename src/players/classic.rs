//! `classic`: the seed's gomoku AI (docs/sources.md, SEEDS 003, `calculateGomokuAIMove`), kept as
//! it was designed so that stronger levels can be measured against it.
//!
//! Move choice, in the seed's order:
//! 1. a move that makes five at once;
//! 2. a move onto a point where the opponent would make five (when there are several, the one
//!    with the best window score after it);
//! 3. minimax with alpha-beta, two plies deep (our move, the opponent's reply), over
//!    [`score_position`] from our point of view;
//! 4. on an empty board (no candidate for step 3), the centre;
//! 5. otherwise a random legal empty point.
//!
//! Choices of this implementation, which the seed leaves open:
//! - **Candidates** for both plies are the empty points within Chebyshev distance 2 of a stone
//!   (the reply ply adds those near our move). Far points cannot change any window that holds a
//!   stone, and the restriction keeps a 20x20 middle game near a hundred candidates per ply.
//! - **Legality**: every point either side may play in the tree passes [`Board::check_for`], so
//!   black never plays (nor is expected to play) a renju forbidden point.
//! - **Leaves** are scored incrementally: the root's [`score_position`] plus the change in the
//!   windows around each stone ([`local_score`]), which equals a full rescan (tested in
//!   `eval::gomoku::window`) at a fraction of the cost.
//! - **Ties** among equal best scores are broken with the player's seeded ChaCha8 generator, so
//!   a game is reproducible from its seed. The root searches each move with alpha one below the
//!   best score so far, which keeps equal scores exact and the tie set complete.
//! - **Time**: the clock, node budget and stop flag are polled at every node; when the search is
//!   cut short the best fully searched root move is played, or before any, the candidate with
//!   the best one-ply score.

use std::cmp::Reverse;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Decision, GomokuPlayer, MoveRequest, Player, SearchInfo};
use crate::eval::gomoku::window::{centre_bonus, local_score, score_position, FIVE};
use crate::rules::{Board, Cell, Color, Pos};
use crate::search::clock::TimeManager;

/// Plies searched by step 3 (the seed's `SEARCH_DEPTH`).
pub const SEARCH_DEPTH: u32 = 2;
/// Candidate moves lie within this Chebyshev distance of a stone.
pub const NEAR: i64 = 2;

const INF: i32 = i32::MAX / 2;

/// Whether `color` may play `p` on `board`; injectable so tests can forbid points at will.
type Legal<'a> = &'a dyn Fn(&Board, Pos, Color) -> bool;

/// The seed's window-scoring player.
pub struct Classic {
    rng: ChaCha8Rng,
}

impl Classic {
    /// A new player seeded with 0.
    pub fn new() -> Classic {
        Classic {
            rng: ChaCha8Rng::seed_from_u64(0),
        }
    }

    /// [`GomokuPlayer::choose`] with the legality test supplied by the caller.
    fn choose_with(
        &mut self,
        board: &Board,
        req: &mut MoveRequest<'_, '_>,
        legal: Legal<'_>,
    ) -> Option<Pos> {
        if board.winner().is_some() {
            return None;
        }
        let me = board.to_move();
        let opp = me.opponent();
        let mut info = SearchInfo {
            multipv: 1,
            ..SearchInfo::default()
        };

        // 1. Win at once.
        let wins: Vec<Pos> = board
            .empty_points()
            .filter(|&p| board.makes_win(p, me) && legal(board, p, me))
            .collect();
        if let Some(&p) = wins.choose(&mut self.rng) {
            info.depth = 1;
            info.seldepth = 1;
            info.score = FIVE;
            info.mate = Some(1);
            info.pv = vec![p];
            return Some(self.finish(req, info));
        }

        // 2. Block the opponent's five.
        let blocks: Vec<Pos> = board
            .empty_points()
            .filter(|&p| board.makes_win(p, opp) && legal(board, p, me))
            .collect();
        if !blocks.is_empty() {
            let mut b = board.clone();
            let base = score_position(&b, me);
            let scored: Vec<(Pos, i32)> = blocks
                .iter()
                .map(|&p| (p, base + one_ply_delta(&mut b, p, me)))
                .collect();
            if let Some((p, score)) = self.pick_best(&scored) {
                info.depth = 1;
                info.seldepth = 1;
                info.score = score;
                info.nodes = scored.len() as u64;
                info.pv = vec![p];
                return Some(self.finish(req, info));
            }
        }

        // 3. Depth-2 minimax with alpha-beta.
        if let Some((p, reply, score, nodes, complete)) = self.minimax_root(board, req, legal) {
            info.depth = if complete { SEARCH_DEPTH } else { 1 };
            info.seldepth = info.depth;
            info.score = score;
            info.nodes = nodes;
            info.pv = std::iter::once(p).chain(reply).collect();
            return Some(self.finish(req, info));
        }

        // 4. Empty board: the centre.
        let centre = board.centre();
        if board.stones() == 0 && legal(board, centre, me) {
            info.pv = vec![centre];
            return Some(self.finish(req, info));
        }

        // 5. Anything legal.
        let any: Vec<Pos> = board
            .empty_points()
            .filter(|&p| legal(board, p, me))
            .collect();
        let p = *any.choose(&mut self.rng)?;
        info.pv = vec![p];
        Some(self.finish(req, info))
    }

    /// Reports the search summary and returns its first move.
    fn finish(&mut self, req: &mut MoveRequest<'_, '_>, mut info: SearchInfo) -> Pos {
        info.elapsed = req.tm.elapsed();
        (req.report)(&info);
        info.pv[0]
    }

    /// The highest-scoring entry, ties broken at random.
    fn pick_best(&mut self, scored: &[(Pos, i32)]) -> Option<(Pos, i32)> {
        let best = scored.iter().map(|s| s.1).max()?;
        let ties: Vec<(Pos, i32)> = scored.iter().copied().filter(|s| s.1 == best).collect();
        ties.choose(&mut self.rng).copied()
    }

    /// Step 3. Returns (move, best reply, score, nodes, whether every root move was searched),
    /// or `None` when there is no candidate (empty board, or every near point illegal).
    #[allow(clippy::type_complexity)]
    fn minimax_root(
        &mut self,
        board: &Board,
        req: &MoveRequest<'_, '_>,
        legal: Legal<'_>,
    ) -> Option<(Pos, Option<Pos>, i32, u64, bool)> {
        let me = board.to_move();
        let opp = me.opponent();
        let mut b = board.clone();
        let mut near = vec![false; b.array_len()];
        let candidates = candidates(&b, &mut near);
        let base = score_position(&b, me);

        // Root moves, best one-ply score first, so that alpha rises early and the replies of
        // later moves are cut sooner; this ordering is also the fallback when time is short.
        let legal_root: Vec<Pos> = candidates
            .iter()
            .copied()
            .filter(|&p| legal(&b, p, me))
            .collect();
        let mut root: Vec<(Pos, i32)> = legal_root
            .into_iter()
            .map(|p| (p, base + one_ply_delta(&mut b, p, me)))
            .collect();
        root.sort_by_key(|&(_, s)| Reverse(s));
        let &(first, first_score) = root.first()?;

        let tm = req.tm;
        let mut nodes = 0u64;
        let mut best = -INF;
        let mut best_moves: Vec<(Pos, Option<Pos>)> = Vec::new();
        let mut complete = !tm.must_answer_now();
        let mut replies: Vec<Pos> = Vec::with_capacity(candidates.len() + 25);

        for &(m, _) in &root {
            if !complete {
                break;
            }
            nodes += 1;
            if tm.should_stop(nodes) {
                complete = false;
                break;
            }
            let before = local_score(&b, m, me);
            let won = b.play_unchecked(m);
            let after_me = base + local_score(&b, m, me) - before + centre_bonus(&b, m);
            let value;
            let mut reply = None;
            if won || b.is_full() {
                // The seed stops at a finished game and scores the position as it stands.
                value = after_me;
            } else {
                replies.clear();
                replies.extend(candidates.iter().copied().filter(|&q| q != m));
                for q in neighbours(&b, m) {
                    if !near[q.idx()] && b.is_empty(q) {
                        replies.push(q);
                    }
                }
                let alpha = best.saturating_sub(1);
                let mut min = INF;
                let mut any = false;
                for &q in &replies {
                    if !legal(&b, q, opp) {
                        continue;
                    }
                    any = true;
                    nodes += 1;
                    if tm.should_stop(nodes) {
                        complete = false;
                        break;
                    }
                    let v = after_me + one_ply_delta_scratch(&mut b, q, opp, me);
                    if v < min {
                        min = v;
                        reply = Some(q);
                        if min <= alpha {
                            break;
                        }
                    }
                }
                value = if any { min } else { after_me };
            }
            b.undo();
            if !complete {
                break;
            }
            if value > best {
                best = value;
                best_moves.clear();
            }
            if value == best {
                best_moves.push((m, reply));
            }
        }

        match best_moves.choose(&mut self.rng) {
            Some(&(m, reply)) => Some((m, reply, best, nodes, complete)),
            None => Some((first, None, first_score, nodes, false)),
        }
    }
}

/// Empty points within [`NEAR`] of a stone, row by row; marks them in `near`.
fn candidates(board: &Board, near: &mut [bool]) -> Vec<Pos> {
    let mut out = Vec::new();
    for p in board.points() {
        if board.cell(p) == Cell::Empty || board.cell(p) == Cell::Wall {
            continue;
        }
        for q in neighbours(board, p) {
            if board.is_empty(q) && !near[q.idx()] {
                near[q.idx()] = true;
                out.push(q);
            }
        }
    }
    out.sort_unstable();
    out
}

/// On-board points within [`NEAR`] of `p` (not `p` itself).
fn neighbours(board: &Board, p: Pos) -> impl Iterator<Item = Pos> + '_ {
    let (x, y) = board.xy(p);
    let (x, y) = (x as i64, y as i64);
    (-NEAR..=NEAR)
        .flat_map(move |dy| (-NEAR..=NEAR).map(move |dx| (dx, dy)))
        .filter(|&(dx, dy)| dx != 0 || dy != 0)
        .filter_map(move |(dx, dy)| board.pos(x + dx, y + dy))
}

/// How much `color` playing the empty `p` changes `score_position(board, color)`.
fn one_ply_delta(board: &mut Board, p: Pos, color: Color) -> i32 {
    one_ply_delta_scratch(board, p, color, color)
}

/// How much a `stone` on the empty `p` changes `score_position(board, eval)`; the board is left
/// as it was.
fn one_ply_delta_scratch(board: &mut Board, p: Pos, stone: Color, eval: Color) -> i32 {
    let before = local_score(board, p, eval);
    board.set_scratch(p, stone.cell());
    let after = local_score(board, p, eval);
    board.set_scratch(p, Cell::Empty);
    let bonus = if stone == eval {
        centre_bonus(board, p)
    } else {
        0
    };
    after - before + bonus
}

impl Default for Classic {
    fn default() -> Self {
        Classic::new()
    }
}

impl Player<Board> for Classic {
    fn name(&self) -> &'static str {
        "classic"
    }
    fn set_seed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }
    fn decide(&mut self, pos: &Board, tm: &TimeManager<'_>) -> Option<Decision<Pos>> {
        super::decide_quietly(self, pos, tm)
    }
}

impl GomokuPlayer for Classic {
    fn choose(&mut self, board: &Board, req: &mut MoveRequest<'_, '_>) -> Option<Pos> {
        self.choose_with(board, req, &|b: &Board, p: Pos, c: Color| {
            b.check_for(p, c).is_ok()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;
    use crate::search::clock::{SearchLimit, TimeManager};
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;

    /// Runs `f` with a request under `limit`; returns the move and every report.
    fn ask(
        player: &mut Classic,
        board: &Board,
        limit: SearchLimit,
        legal: Option<Legal<'_>>,
    ) -> (Option<Pos>, Vec<SearchInfo>) {
        let stop = AtomicBool::new(false);
        let tm = TimeManager::new(&limit, Instant::now(), &stop);
        let mut infos = Vec::new();
        let mut report = |i: &SearchInfo| infos.push(i.clone());
        let mut req = MoveRequest {
            tm: &tm,
            nbest: 1,
            excluded: &[],
            report: &mut report,
        };
        let mv = match legal {
            Some(l) => player.choose_with(board, &mut req, l),
            None => player.choose(board, &mut req),
        };
        (mv, infos)
    }

    fn setup(w: usize, h: usize, rule: Rule, black: &[(i64, i64)], white: &[(i64, i64)]) -> Board {
        let mut b = Board::new(w, h, rule).unwrap();
        for &(x, y) in black {
            b.place(b.pos(x, y).unwrap(), Color::Black);
        }
        for &(x, y) in white {
            b.place(b.pos(x, y).unwrap(), Color::White);
        }
        b.set_to_move(if black.len() > white.len() {
            Color::White
        } else {
            Color::Black
        });
        b
    }

    #[test]
    fn plays_the_centre_on_an_empty_board() {
        for (w, h) in [(15, 15), (19, 19), (20, 20), (7, 12)] {
            let b = Board::new(w, h, Rule::Freestyle).unwrap();
            let (mv, infos) = ask(&mut Classic::new(), &b, SearchLimit::default(), None);
            assert_eq!(mv, Some(b.centre()));
            assert_eq!(infos.len(), 1);
        }
    }

    #[test]
    fn wins_at_once_before_blocking() {
        // Black: four on row 7 (x 3..=6). White: four on row 9. Black to move.
        let b = setup(
            15,
            15,
            Rule::Freestyle,
            &[(3, 7), (4, 7), (5, 7), (6, 7), (0, 0)],
            &[(3, 9), (4, 9), (5, 9), (6, 9), (14, 14)],
        );
        assert_eq!(b.to_move(), Color::Black);
        let (mv, infos) = ask(&mut Classic::new(), &b, SearchLimit::default(), None);
        let mv = mv.unwrap();
        assert!(b.makes_win(mv, Color::Black), "{:?}", b.xy(mv));
        assert_eq!(infos.len(), 1);
        assert_eq!(infos[0].mate, Some(1));
    }

    #[test]
    fn blocks_a_four() {
        // White: closed four on column 10 (y 3..=6), blocked above by black at y 2.
        let b = setup(
            15,
            15,
            Rule::Freestyle,
            &[(10, 2), (7, 7), (8, 8), (2, 12)],
            &[(10, 3), (10, 4), (10, 5), (10, 6)],
        );
        assert_eq!(b.to_move(), Color::Black);
        let (mv, _) = ask(&mut Classic::new(), &b, SearchLimit::default(), None);
        assert_eq!(mv, b.pos(10, 7));
    }

    #[test]
    fn minimax_answers_with_a_legal_near_move_and_reports_depth_two() {
        let b = setup(
            20,
            20,
            Rule::Freestyle,
            &[(9, 9), (10, 10), (8, 11)],
            &[(10, 9), (9, 11)],
        );
        let (mv, infos) = ask(&mut Classic::new(), &b, SearchLimit::default(), None);
        let mv = mv.unwrap();
        assert!(b.check(mv).is_ok());
        assert_eq!(infos.len(), 1);
        assert_eq!(infos[0].depth, SEARCH_DEPTH);
        assert_eq!(infos[0].pv[0], mv);
        assert!(infos[0].nodes > 0);
    }

    #[test]
    fn extends_its_open_three_when_nothing_is_threatened() {
        // Black open three on row 7, white scattered far away: the best two-ply score makes an
        // open four (10000 + ...), which the opponent cannot spoil in one move.
        let b = setup(
            15,
            15,
            Rule::Freestyle,
            &[(6, 7), (7, 7), (8, 7)],
            &[(1, 1), (13, 1), (1, 13)],
        );
        let (mv, _) = ask(&mut Classic::new(), &b, SearchLimit::default(), None);
        let (x, y) = b.xy(mv.unwrap());
        assert_eq!(y, 7);
        assert!(x == 5 || x == 9, "played {x},{y}");
    }

    #[test]
    fn never_plays_a_point_the_rules_forbid() {
        // Forbid the winning point and its twin through the injected test: the player must
        // neither win there nor fall back to it.
        let b = setup(
            15,
            15,
            Rule::Renju,
            &[(4, 7), (5, 7), (6, 7), (7, 7)],
            &[(0, 0), (14, 0), (0, 14), (14, 14)],
        );
        assert_eq!(b.to_move(), Color::Black);
        let banned = [b.pos(3, 7).unwrap(), b.pos(8, 7).unwrap()];
        let legal = |bd: &Board, p: Pos, c: Color| {
            !(c == Color::Black && banned.contains(&p)) && bd.check_for(p, c).is_ok()
        };
        for seed in 0..5 {
            let mut player = Classic::new();
            player.set_seed(seed);
            let (mv, _) = ask(&mut player, &b, SearchLimit::default(), Some(&legal));
            let mv = mv.unwrap();
            assert!(!banned.contains(&mv));
        }
    }

    #[test]
    fn renju_self_play_only_makes_legal_moves() {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        let mut black = Classic::new();
        let mut white = Classic::new();
        white.set_seed(1);
        for ply in 0..60 {
            if b.is_over() {
                break;
            }
            let player = if ply % 2 == 0 { &mut black } else { &mut white };
            let (mv, _) = ask(player, &b, SearchLimit::nodes(3000), None);
            let mv = mv.expect("a legal move exists");
            assert!(b.play(mv).is_ok(), "ply {ply}: {:?}", b.xy(mv));
        }
    }

    #[test]
    fn deterministic_for_a_seed() {
        let game = |seed: u64| {
            let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
            let mut players = [Classic::new(), Classic::new()];
            players[0].set_seed(seed);
            players[1].set_seed(seed + 1);
            let mut moves = Vec::new();
            for ply in 0..16 {
                let (mv, _) = ask(&mut players[ply % 2], &b, SearchLimit::default(), None);
                let mv = mv.unwrap();
                b.play(mv).unwrap();
                moves.push(mv);
                if b.is_over() {
                    break;
                }
            }
            moves
        };
        assert_eq!(game(11), game(11));
        assert_eq!(game(12), game(12));
    }

    #[test]
    fn answers_at_once_when_there_is_no_time() {
        let b = setup(
            20,
            20,
            Rule::Freestyle,
            &[(9, 9), (10, 10), (8, 11), (12, 12)],
            &[(10, 9), (9, 11), (11, 11)],
        );
        for limit in [SearchLimit::move_time(0), SearchLimit::nodes(1)] {
            let (mv, infos) = ask(&mut Classic::new(), &b, limit, None);
            assert!(b.check(mv.unwrap()).is_ok());
            assert_eq!(infos.len(), 1);
            assert!(infos[0].nodes <= 2);
        }
    }

    #[test]
    fn a_finished_game_or_full_board_gets_no_move() {
        let b = setup(
            5,
            5,
            Rule::Freestyle,
            &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
            &[(0, 1), (1, 1), (2, 1), (3, 1)],
        );
        assert!(b.winner().is_some());
        assert_eq!(
            ask(&mut Classic::new(), &b, SearchLimit::default(), None).0,
            None
        );
        // A full 5x5 board with no five.
        let mut full = Board::new(5, 5, Rule::Freestyle).unwrap();
        for y in 0..5 {
            for x in 0..5 {
                let c = if (x + 2 * y) % 4 < 2 {
                    Color::Black
                } else {
                    Color::White
                };
                full.place(full.pos(x, y).unwrap(), c);
            }
        }
        assert!(full.winner().is_none());
        assert_eq!(
            ask(&mut Classic::new(), &full, SearchLimit::default(), None).0,
            None
        );
    }

    /// `cargo test --release -- --ignored --nocapture full_depth_timing`: how long a full
    /// depth-2 answer takes on 20x20 boards strewn with 20 to 160 random stones (nearly every
    /// empty point becomes a candidate: the worst case for this player).
    #[test]
    #[ignore]
    fn full_depth_timing_on_20x20() {
        let mut state = 99u64;
        let mut worst = std::time::Duration::ZERO;
        let mut total = std::time::Duration::ZERO;
        let mut answers = 0u32;
        for stones in (20..=160).step_by(20) {
            for _ in 0..5 {
                let mut b = Board::new(20, 20, Rule::Freestyle).unwrap();
                while b.stones() < stones {
                    let empties: Vec<Pos> = b.empty_points().collect();
                    let r = crate::rules::splitmix::splitmix64(&mut state) as usize;
                    let p = empties[r % empties.len()];
                    b.play_unchecked(p);
                    if b.winner().is_some() {
                        b.undo();
                    }
                }
                let t = Instant::now();
                let (_, infos) = ask(&mut Classic::new(), &b, SearchLimit::default(), None);
                let took = t.elapsed();
                if infos[0].depth == SEARCH_DEPTH {
                    worst = worst.max(took);
                    total += took;
                    answers += 1;
                }
            }
        }
        eprintln!(
            "{answers} depth-2 answers: mean {:?}, worst {:?}",
            total / answers.max(1),
            worst
        );
        assert!(worst < std::time::Duration::from_secs(1));
    }
}
