//! Openings: generated balanced random ones from a seed, or read from a file.
//!
//! Generated gomoku openings are 2 to 4 stones (by default) put alternately, black first, on
//! random points of a central square; an opening is redrawn while it is illegal under the rule,
//! or leaves a five-in-one or a 5-cell window with three stones of one colour and none of the
//! other (no side starts with a threat). Tic-tac-toe openings are single stones; Go starts from
//! the empty board unless asked otherwise (then random points near the centre). Each opening is
//! played twice with colours swapped, so first-move advantage and opening luck cancel within a
//! pair. The gomoku openings of one run are distinct positions: a repeat (the same stones in
//! another order, or a mirror or rotation of an earlier opening) is redrawn, since between
//! deterministic engines it replays the same pair of games and only adds weight to them.

use std::collections::HashSet;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::coords::{notation_declared, parse_opening_line, Mv};
use super::engine::GameSetup;
use super::manifest::GameName;
use super::referee::{check_opening, Position};
use crate::eval::gomoku::window::WINDOW;
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

/// Draws of a repeated opening before a run gives up on finding a new one.
const REDRAWS: usize = 1000;

/// `pairs` generated openings for `setup`, all from `rng`; for gomoku and renju no two are the
/// same position (see [`Seen`]).
pub fn generate_many(
    setup: &GameSetup,
    stones: (usize, usize),
    pairs: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Vec<Mv>>, String> {
    let mut seen = Seen::new(setup);
    (0..pairs)
        .map(|n| {
            for _ in 0..REDRAWS {
                let moves = generate(setup, stones, rng).ok_or_else(|| {
                    format!(
                        "could not generate a {}-{} stone opening on {}x{}",
                        stones.0, stones.1, setup.width, setup.height
                    )
                })?;
                if seen.insert(&moves) {
                    return Ok(moves);
                }
            }
            Err(format!(
                "only {n} distinct {}-{} stone openings found on {}x{}",
                stones.0, stones.1, setup.width, setup.height
            ))
        })
        .collect()
}

/// The positions of the openings a run has kept, each under every symmetry of the board, so
/// that a repeat can be refused. Only gomoku and renju keep them: a tic-tac-toe opening is one
/// of nine stones and repeats on purpose, and Go starts from few positions.
pub struct Seen {
    keys: Option<HashSet<Vec<(bool, usize, usize)>>>,
    width: usize,
    height: usize,
}

impl Seen {
    /// An empty record for openings of `setup`.
    pub fn new(setup: &GameSetup) -> Seen {
        let distinct = matches!(setup.game, GameName::Gomoku | GameName::Renju);
        Seen {
            keys: distinct.then(HashSet::new),
            width: setup.width,
            height: setup.height,
        }
    }

    /// Whether `moves` is a position not kept yet (always, for games that allow repeats).
    pub fn is_new(&self, moves: &[Mv]) -> bool {
        self.keys
            .as_ref()
            .is_none_or(|keys| !keys.contains(&position_key(moves, self.width, self.height)))
    }

    /// Keeps `moves`; false (and nothing changes) when it repeats a kept position.
    pub fn insert(&mut self, moves: &[Mv]) -> bool {
        let (w, h) = (self.width, self.height);
        self.keys
            .as_mut()
            .is_none_or(|keys| keys.insert(position_key(moves, w, h)))
    }
}

/// The least, over the symmetries of a `w` x `h` board (eight on a square board, four
/// otherwise), of the sorted stones of `moves` as (white?, x, y): black plays the even moves.
/// Equal keys mean the same position up to a rotation or mirror, whatever the move order.
fn position_key(moves: &[Mv], w: usize, h: usize) -> Vec<(bool, usize, usize)> {
    let symmetries = if w == h { 8 } else { 4 };
    (0..symmetries)
        .map(|t| {
            let mut stones: Vec<(bool, usize, usize)> = moves
                .iter()
                .enumerate()
                .filter_map(|(i, mv)| match *mv {
                    Mv::At(x, y) => {
                        let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
                        let x = if t & 1 != 0 { w - 1 - x } else { x };
                        let y = if t & 2 != 0 { h - 1 - y } else { y };
                        Some((i % 2 == 1, x, y))
                    }
                    Mv::Pass => None,
                })
                .collect();
            stones.sort_unstable();
            stones
        })
        .min()
        .unwrap_or_default()
}

/// Reads an openings file (one opening per line, see [`parse_opening_line`]; blank and
/// comment lines skipped) and checks every opening against the rules. Gomoku names (`h8`)
/// are read only after a comment line declares renju notation
/// ([`super::coords::NOTATION_LINE`]): files that count rows from the top use the same
/// letters and numbers, so only the declaration tells them apart.
pub fn parse_file(text: &str, setup: &GameSetup) -> Result<Vec<Vec<Mv>>, String> {
    let go = setup.game == GameName::Go;
    let mut named = false;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(declared) = notation_declared(line) {
            declared.map_err(|e| format!("line {}: {e}", n + 1))?;
            named = true;
            continue;
        }
        if line.split('#').next().unwrap_or("").trim().is_empty() {
            continue;
        }
        let moves = parse_opening_line(line, setup.width, setup.height, go, named)
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
            handicap: 0,
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
    fn a_run_never_repeats_a_gomoku_position() {
        let s = setup(GameName::Gomoku, 15, 15, Rule::Freestyle);
        // 2 stones on the central 5x5 square: few positions, so repeats would be common.
        let ops = generate_many(&s, (2, 2), 40, &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
        let keys: HashSet<_> = ops.iter().map(|o| position_key(o, 15, 15)).collect();
        assert_eq!(keys.len(), 40);
        // More pairs than there are distinct 1-stone positions in the square: refused.
        let err = generate_many(&s, (1, 1), 7, &mut ChaCha8Rng::seed_from_u64(1)).unwrap_err();
        assert!(err.contains("only 6 distinct"), "{err}");
    }

    #[test]
    fn position_keys_ignore_order_and_symmetry_but_not_colour() {
        let key = |moves: &[(usize, usize)], w, h| {
            let moves: Vec<Mv> = moves.iter().map(|&(x, y)| Mv::At(x, y)).collect();
            position_key(&moves, w, h)
        };
        let a = key(&[(7, 7), (8, 8), (6, 8)], 15, 15);
        assert_eq!(
            a,
            key(&[(6, 8), (8, 8), (7, 7)], 15, 15),
            "black's stones swapped"
        );
        assert_eq!(
            a,
            key(&[(7, 7), (6, 6), (8, 6)], 15, 15),
            "mirrored top to bottom"
        );
        assert_eq!(
            a,
            key(&[(7, 7), (8, 8), (8, 6)], 15, 15),
            "mirrored on the diagonal"
        );
        assert_ne!(a, key(&[(8, 8), (7, 7), (6, 8)], 15, 15), "colours swapped");
        // A rectangle has no diagonal mirror.
        assert_ne!(key(&[(1, 2)], 6, 19), key(&[(2, 1)], 6, 19));
        assert_eq!(key(&[(1, 2)], 6, 19), key(&[(4, 16)], 6, 19));
    }

    #[test]
    fn opening_files_are_checked() {
        let s = setup(GameName::Gomoku, 15, 15, Rule::Freestyle);
        let ops = parse_file(
            "# two openings\n# notation: renju\nh8 i9\n\n7,7 8,8 6,6\n",
            &s,
        )
        .unwrap();
        assert_eq!(ops.len(), 2);
        assert_eq!(ops[0], vec![Mv::At(7, 7), Mv::At(8, 6)]);
        assert_eq!(ops[1][2], Mv::At(6, 6));
        let dup = parse_file("# notation: renju\nh8 h8\n", &s).unwrap_err();
        assert!(dup.contains("line 2"), "{dup}");
        assert!(parse_file("# nothing\n", &s).is_err());
        let five = "# notation: renju\na1 b1 a2 b2 a3 b3 a4 b4 a5";
        assert!(parse_file(five, &s).unwrap_err().contains("over"));
        // Pairs alone need no declaration.
        assert_eq!(parse_file("7,7 8,8\n", &s).unwrap().len(), 1);
    }

    #[test]
    fn an_undeclared_or_foreign_notation_is_refused() {
        let s = setup(GameName::Gomoku, 15, 15, Rule::Freestyle);
        // A file as `sente openings` wrote them before the declaration (rows from the top).
        let old = parse_file("f7g9h10\nh6g8g10f7\n", &s).unwrap_err();
        assert!(old.starts_with("line 1: \"f7g9h10\""), "{old}");
        assert!(old.contains("# notation: renju"), "{old}");
        // The declaration must come before the names.
        let late = parse_file("f7g9h10\n# notation: renju\n", &s).unwrap_err();
        assert!(late.contains("line 1"), "{late}");
        let foreign = parse_file("# notation: top\nf7g9h10\n", &s).unwrap_err();
        assert!(foreign.starts_with("line 1: notation \"top\""), "{foreign}");
        // Off the board under the declared notation.
        let off = parse_file("# notation: renju\nh8 h16\n", &s).unwrap_err();
        assert!(off.contains("line 2: move off the board"), "{off}");
    }

    #[test]
    fn the_committed_openings_are_declared_and_legal() {
        for (file, rule) in [
            ("freestyle-40.pos", Rule::Freestyle),
            ("renju-40.pos", Rule::Renju),
        ] {
            let path = format!("{}/openings/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                text.starts_with(crate::arena::coords::NOTATION_LINE),
                "{file}"
            );
            let ops = parse_file(&text, &setup(GameName::Gomoku, 15, 15, rule)).unwrap();
            assert_eq!(ops.len(), 40, "{file}");
        }
    }
}
