//! Cross-checks `renju::forbidden` and `renju::forbidden_in_place` against the naive checker in
//! `tests/common` on random crowded positions (centre of a 15x15 board, and small boards where
//! the edges matter), and checks that the in-place variant leaves the board untouched.

mod common;

use common::{naive_forbidden, Grid, Rng};
use sente::rules::gomoku::renju::{forbidden, forbidden_in_place};
use sente::rules::gomoku::{forbidden_points, Forbidden};
use sente::rules::{Board, Cell, Color, Pos, Rule};

/// A random position: `black` and `white` stones dropped in the region [x0, x0+rw) x [y0, y0+rh).
/// Returns None if the drop made a five (the game would be over).
fn random_board(
    rng: &mut Rng,
    (w, h): (usize, usize),
    (x0, y0, rw, rh): (usize, usize, usize, usize),
    black: usize,
    white: usize,
) -> Option<Board> {
    let mut b = Board::new(w, h, Rule::Renju).unwrap();
    for (n, color) in [(black, Color::Black), (white, Color::White)] {
        let mut placed = 0;
        while placed < n {
            let x = (x0 + rng.below(rw)) as i64;
            let y = (y0 + rng.below(rh)) as i64;
            let p = b.pos(x, y).unwrap();
            if b.is_empty(p) {
                b.place(p, color);
                placed += 1;
            }
        }
    }
    b.winner().is_none().then_some(b)
}

fn cells(b: &Board) -> Vec<Cell> {
    (0..b.array_len() as u16).map(|i| b.cell(Pos(i))).collect()
}

/// Compares every empty point of `b`; returns how many of each kind were found.
fn compare(b: &Board, counts: &mut [usize; 4]) {
    let g = Grid::from_board(b);
    let mut m = b.clone();
    let (hash, before) = (m.hash(), cells(&m));
    let listed = forbidden_points(b);
    for p in b.empty_points() {
        let (x, y) = b.xy(p);
        let want = naive_forbidden(&g, x as i64, y as i64);
        let got = forbidden(b, p);
        let got_in_place = forbidden_in_place(&mut m, p);
        assert_eq!(
            (got, got_in_place),
            (want, want),
            "point ({x}, {y}) of\n{}",
            b.to_text()
        );
        assert_eq!(listed.contains(&p), want.is_some());
        counts[match want {
            None => 0,
            Some(Forbidden::DoubleThree) => 1,
            Some(Forbidden::DoubleFour) => 2,
            Some(Forbidden::Overline) => 3,
        }] += 1;
    }
    assert_eq!(m.hash(), hash);
    assert_eq!(cells(&m), before, "forbidden_in_place changed the board");
}

#[test]
fn random_crowded_centres_agree_with_the_naive_checker() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut counts = [0usize; 4];
    let mut boards = 0;
    while boards < 400 {
        let black = 14 + rng.below(16);
        let white = rng.below(black / 2 + 1);
        if let Some(b) = random_board(&mut rng, (15, 15), (4, 4, 7, 7), black, white) {
            compare(&b, &mut counts);
            boards += 1;
        }
    }
    // The positions must exercise every verdict, or the test proves little.
    assert!(
        counts.iter().all(|&n| n > 20),
        "too few of some kind: {counts:?}"
    );
}

#[test]
fn random_small_boards_agree_with_the_naive_checker() {
    let mut rng = Rng(0x0DDB_A11C_0FFE_E123);
    let mut counts = [0usize; 4];
    let mut boards = 0;
    while boards < 400 {
        let size = (5 + rng.below(5), 5 + rng.below(5));
        let area = size.0 * size.1;
        let black = area / 4 + rng.below(area / 5 + 1);
        let white = rng.below(area / 8 + 1);
        if let Some(b) = random_board(&mut rng, size, (0, 0, size.0, size.1), black, white) {
            compare(&b, &mut counts);
            boards += 1;
        }
    }
    assert!(
        counts[0] > 0 && counts[1] > 0 && counts[2] > 0,
        "{counts:?}"
    );
}
