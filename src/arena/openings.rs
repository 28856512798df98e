//! Openings: generated balanced random ones from a seed, or read from a file.
//!
//! Generated gomoku openings are 2 to 4 stones (by default) put alternately, black first, on
//! random points of a central square; an opening is redrawn while it is illegal under the rule,
//! or leaves a five-in-one or a 5-cell window with three stones of one colour and none of the
//! other (no side starts with a threat). Tic-tac-toe openings are single stones; Go starts from
//! the empty board unless asked otherwise (then random points near the centre). Each opening is
//! played twice with colours swapped, so first-move advantage and opening luck cancel within a
//! pair.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::coords::{parse_opening_line, Mv};
use super::engine::GameSetup;
use super::manifest::GameName;
use super::referee::{check_opening, Position};
use crate::eval::window::WINDOW;
use crate::rules::game::{with_game, GamePosition, GameVisitor};
use crate::rules::{Board, Cell, Color};

/// Fewest and most stones of a generated opening for `game`, when not given (the game's own
/// [`GamePosition::opening_stones`]).
pub fn default_stones(game: GameName) -> (usize, usize) {
    struct Stones(GameName);
    impl GameVisitor for Stones {
        type Out = (usize, usize);
        fn visit<P: GamePosition>(self) -> (usize, usize) {
            P::opening_stones(self.0)
        }
    }
    with_game(game, Stones(game))
}

/// A legal opening of `stones.0..=stones.1` moves for `setup`, or `None` when none was found
/// (tiny boards with many stones).
pub fn generate(
    setup: &GameSetup,
    stones: (usize, usize),
    rng: &mut ChaCha8Rng,
) -> Option<Vec<Mv>> {
    let (w, h) = (setup.width, setup.height);
    let (cx, cy) = (w / 2, h / 2);
    let r = (w.min(h) / 6).max(1);
    let x0 = cx.saturating_sub(r);
    let y0 = cy.saturating_sub(r);
    let x1 = (cx + r).min(w - 1);
    let y1 = (cy + r).min(h - 1);
    let area = (x1 - x0 + 1) * (y1 - y0 + 1);
    let hi = stones.0.max(stones.1).min(area);
    let lo = stones.0.min(stones.1).min(hi);
    'attempt: for _ in 0..1000 {
        let mut pos = Position::new(setup).ok()?;
        let n = rng.gen_range(lo..=hi);
        let mut moves = Vec::with_capacity(n);
        let mut tries = 0;
        while moves.len() < n {
            tries += 1;
            if tries > 100 * (n + 1) {
                continue 'attempt;
            }
            let mv = Mv::At(rng.gen_range(x0..=x1), rng.gen_range(y0..=y1));
            if moves.contains(&mv) {
                continue;
            }
            if pos.play(mv).is_err() {
                continue 'attempt;
            }
            moves.push(mv);
        }
        if pos.verdict().is_some() {
            continue;
        }
        let balanced = match (pos.board(), setup.game) {
            (Some(b), GameName::Gomoku | GameName::Renju) => threat_free(b),
            _ => true,
        };
        if balanced {
            return Some(moves);
        }
    }
    None
}

/// `pairs` generated openings for `setup`, all from `rng`.
pub fn generate_many(
    setup: &GameSetup,
    stones: (usize, usize),
    pairs: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Vec<Mv>>, String> {
    (0..pairs)
        .map(|_| {
            generate(setup, stones, rng).ok_or_else(|| {
                format!(
                    "could not generate a {}-{} stone opening on {}x{}",
                    stones.0, stones.1, setup.width, setup.height
                )
            })
        })
        .collect()
}

/// Reads an openings file (one opening per line, see [`parse_opening_line`]; blank and
/// comment lines skipped) and checks every opening against the rules.
pub fn parse_file(text: &str, setup: &GameSetup) -> Result<Vec<Vec<Mv>>, String> {
    let go = setup.game == GameName::Go;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.split('#').next().unwrap_or("").trim().is_empty() {
            continue;
        }
        let moves = parse_opening_line(line, setup.width, setup.height, go)
            .map_err(|e| format!("line {}: {e}", n + 1))?;
        check_opening(setup, &moves).map_err(|e| format!("line {}: {e}", n + 1))?;
        out.push(moves);
    }
    if out.is_empty() {
        return Err("no opening in the file".into());
    }
    Ok(out)
}

/// No five-in-one for either side, and no 5-cell window holding three or more stones of one
/// colour and none of the other.
fn threat_free(board: &Board) -> bool {
    for p in board.points() {
        if board.is_empty(p)
            && (board.makes_win(p, Color::Black) || board.makes_win(p, Color::White))
        {
            return false;
        }
        for dir in board.dirs() {
            let (mut black, mut white) = (0, 0);
            for i in 0..WINDOW as isize {
                match board.cell(p.step(dir, i)) {
                    Cell::Black => black += 1,
                    Cell::White => white += 1,
                    Cell::Wall => {
                        black = 0;
                        white = 0;
                        break;
                    }
                    Cell::Empty => {}
                }
            }
            if (black >= 3 && white == 0) || (white >= 3 && black == 0) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::tc::TimeControl;
    use crate::rules::Rule;
    use rand::SeedableRng;

    fn setup(game: GameName, w: usize, h: usize, rule: Rule) -> GameSetup {
        GameSetup {
            game,
            rule,
            width: w,
            height: h,
            komi: 7.5,
            tc: TimeControl {
                game_ms: None,
                increment_ms: 0,
                move_ms: Some(100),
            },
        }
    }

    #[test]
    fn gomoku_openings_are_legal_central_and_threat_free() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            for (w, h) in [(15, 15), (20, 20), (5, 5), (6, 19)] {
                let s = setup(GameName::Gomoku, w, h, rule);
                let mut rng = ChaCha8Rng::seed_from_u64(9);
                for _ in 0..20 {
                    let op = generate(&s, (2, 4), &mut rng).unwrap();
                    assert!((2..=4).contains(&op.len()));
                    check_opening(&s, &op).unwrap();
                    let mut b = Board::new(w, h, rule).unwrap();
                    for &mv in &op {
                        let Mv::At(x, y) = mv else { panic!() };
                        assert!(x.abs_diff(w / 2) <= (w.min(h) / 6).max(1));
                        assert!(y.abs_diff(h / 2) <= (w.min(h) / 6).max(1));
                        b.play(b.pos(x as i64, y as i64).unwrap()).unwrap();
                    }
                    assert!(threat_free(&b));
                }
            }
        }
    }

    #[test]
    fn ttt_openings_are_one_stone_and_seeded() {
        let s = setup(GameName::Ttt, 3, 3, Rule::Freestyle);
        let a = generate_many(&s, (1, 1), 8, &mut ChaCha8Rng::seed_from_u64(3)).unwrap();
        let b = generate_many(&s, (1, 1), 8, &mut ChaCha8Rng::seed_from_u64(3)).unwrap();
        assert_eq!(a, b);
        assert!(a.iter().all(|o| o.len() == 1));
        assert!(a.iter().any(|o| o != &a[0]), "some variety");
    }

    #[test]
    fn opening_files_are_checked() {
        let s = setup(GameName::Gomoku, 15, 15, Rule::Freestyle);
        let ops = parse_file("# two openings\nh8 i9\n\n7,7 8,8 6,6\n", &s).unwrap();
        assert_eq!(ops.len(), 2);
        assert_eq!(ops[1][2], Mv::At(6, 6));
        assert!(parse_file("h8 h8\n", &s).unwrap_err().contains("line 1"));
        assert!(parse_file("# nothing\n", &s).is_err());
        let five = "a1 b1 a2 b2 a3 b3 a4 b4 a5";
        assert!(parse_file(five, &s).unwrap_err().contains("over"));
    }
}
