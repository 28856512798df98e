//! Perft-style rule tests driven by `tests/data/perft.txt` (format documented there): move
//! counts per depth, including the exact tic-tac-toe node counts that also check win detection.
//! Renju lines are recounted with a naive, independent game tree (`tests/common`), and
//! `Board::makes_win` is compared with a brute-force line scanner on random positions for
//! every rule and several board shapes.

mod common;

use common::{naive_forbidden, naive_makes_win, Grid, Rng, BLACK, EMPTY, WHITE};
use sente::rules::{Board, Color, Pos, Rule};

const DATA: &str = include_str!("data/perft.txt");

struct Line {
    text: String,
    width: usize,
    height: usize,
    k: usize,
    rule: Rule,
    depth: u32,
    expected: u64,
    moves: Vec<(i64, i64)>,
}

fn parse() -> Vec<Line> {
    let mut lines = Vec::new();
    for raw in DATA.lines() {
        let text = raw.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let f: Vec<&str> = text.split_whitespace().collect();
        assert!(f.len() >= 6, "short line {text:?}");
        let num = |i: usize| -> u64 { f[i].parse().unwrap_or_else(|_| panic!("{text:?}")) };
        let moves = f[6..]
            .iter()
            .map(|m| {
                let (x, y) = m.split_once(',').expect("move x,y");
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        lines.push(Line {
            text: text.to_string(),
            width: num(0) as usize,
            height: num(1) as usize,
            k: num(2) as usize,
            rule: Rule::from_name(f[3]).unwrap_or_else(|| panic!("rule in {text:?}")),
            depth: num(4) as u32,
            expected: num(5),
            moves,
        });
    }
    lines
}

fn set_up(line: &Line) -> Board {
    let mut b = Board::with_k(line.width, line.height, line.k, line.rule);
    for &(x, y) in &line.moves {
        let p = b
            .pos(x, y)
            .unwrap_or_else(|| panic!("{}: off board", line.text));
        let won = b
            .play(p)
            .unwrap_or_else(|e| panic!("{}: set-up move {x},{y}: {e}", line.text));
        assert!(!won, "{}: set-up move {x},{y} wins", line.text);
    }
    b
}

/// Sequences of exactly `depth` legal moves with no game-ending move before the last.
fn perft(b: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves: Vec<Pos> = b.empty_points().filter(|&p| b.check(p).is_ok()).collect();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for p in moves {
        let won = b.play_unchecked(p);
        if !won && !b.is_full() {
            n += perft(b, depth - 1);
        }
        b.undo();
    }
    n
}

/// The same count on a plain grid, with the naive win scanner and naive renju law.
fn naive_perft(g: &mut Grid, to_move: Color, k: usize, rule: Rule, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for y in 0..g.h {
        for x in 0..g.w {
            if g.at(x, y) != Some(EMPTY) {
                continue;
            }
            if rule == Rule::Renju
                && k == 5
                && to_move == Color::Black
                && naive_forbidden(g, x, y).is_some()
            {
                continue;
            }
            if depth == 1 {
                n += 1;
                continue;
            }
            let won = naive_makes_win(g, x, y, to_move, k, rule);
            g.set(
                x,
                y,
                if to_move == Color::Black {
                    BLACK
                } else {
                    WHITE
                },
            );
            if !won && g.cells.contains(&EMPTY) {
                n += naive_perft(g, to_move.opponent(), k, rule, depth - 1);
            }
            g.set(x, y, EMPTY);
        }
    }
    n
}

#[test]
fn perft_counts_from_the_data_file() {
    let lines = parse();
    assert!(lines.len() >= 20);
    let mut failures = Vec::new();
    for line in &lines {
        let mut b = set_up(line);
        let hash = b.hash();
        let got = perft(&mut b, line.depth);
        assert_eq!(
            b.hash(),
            hash,
            "{}: perft did not restore the board",
            line.text
        );
        if got != line.expected {
            failures.push(format!("{}: got {got}", line.text));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn tic_tac_toe_counts_per_ply_are_the_known_ones() {
    let known = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
    let mut b = Board::with_k(3, 3, 3, Rule::Freestyle);
    for (d, &want) in known.iter().enumerate() {
        assert_eq!(perft(&mut b, d as u32 + 1), want, "ply {}", d + 1);
    }
}

#[test]
fn renju_lines_agree_with_the_naive_counter() {
    let mut checked = 0;
    for line in parse().iter().filter(|l| l.rule == Rule::Renju && l.k == 5) {
        let b = set_up(line);
        let mut g = Grid::from_board(&b);
        let naive = naive_perft(&mut g, b.to_move(), line.k, line.rule, line.depth);
        assert_eq!(naive, line.expected, "{}: naive counter", line.text);
        checked += 1;
    }
    assert!(checked >= 2);
}

#[test]
fn small_lines_agree_with_the_naive_counter() {
    // Every cheap line, whatever the rule: the naive tree must give the same count.
    for line in parse() {
        let cheap = (line.width * line.height) <= 49 && line.depth <= 3 || line.depth <= 1;
        if !cheap || line.rule == Rule::Renju {
            continue;
        }
        let b = set_up(&line);
        let mut g = Grid::from_board(&b);
        let naive = naive_perft(&mut g, b.to_move(), line.k, line.rule, line.depth);
        assert_eq!(naive, line.expected, "{}: naive counter", line.text);
    }
}

#[test]
fn makes_win_agrees_with_a_brute_force_scanner() {
    let shapes = [
        (15, 15, 5),
        (5, 5, 5),
        (7, 12, 5),
        (19, 6, 5),
        (6, 5, 5),
        (3, 3, 3),
        (4, 7, 4),
        (9, 4, 3),
    ];
    let rules = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroStandard,
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for rule in rules {
        let (mut wins, mut checks) = (0, 0);
        for trial in 0..3000 {
            let (w, h, k) = shapes[trial % shapes.len()];
            let mut b = Board::with_k(w, h, k, rule);
            let mut g = Grid::new(w, h);
            // Dense fills make long runs, overlines and caro blocks common.
            let fill = 30 + rng.below(50);
            for y in 0..h as i64 {
                for x in 0..w as i64 {
                    if rng.below(100) < fill {
                        let c = if rng.below(2) == 0 {
                            Color::Black
                        } else {
                            Color::White
                        };
                        b.place(b.pos(x, y).unwrap(), c);
                        g.set(x, y, if c == Color::Black { BLACK } else { WHITE });
                    }
                }
            }
            for _ in 0..4 {
                let (x, y) = (rng.below(w) as i64, rng.below(h) as i64);
                if g.at(x, y) != Some(EMPTY) {
                    continue;
                }
                let p = b.pos(x, y).unwrap();
                for c in [Color::Black, Color::White] {
                    let want = naive_makes_win(&g, x, y, c, k, rule);
                    assert_eq!(
                        b.makes_win(p, c),
                        want,
                        "{rule:?} {c:?} at ({x}, {y}), k = {k}\n{}",
                        b.to_text()
                    );
                    wins += want as usize;
                    checks += 1;
                }
            }
        }
        assert!(
            wins > 300 && checks - wins > 300,
            "{rule:?}: {wins} of {checks}"
        );
    }
}

#[test]
fn renju_set_up_has_the_documented_forbidden_points() {
    use sente::rules::gomoku::{forbidden_points, Forbidden};
    let line = parse()
        .into_iter()
        .find(|l| l.rule == Rule::Renju && l.depth == 1 && !l.moves.is_empty())
        .expect("a renju depth-1 line with set-up moves");
    let b = set_up(&line);
    assert_eq!(b.to_move(), Color::Black);
    let listed: Vec<(usize, usize)> = forbidden_points(&b).into_iter().map(|p| b.xy(p)).collect();
    assert_eq!(listed, vec![(7, 7), (2, 12)]);
    let kind = |x, y| sente::rules::gomoku::renju::forbidden(&b, b.pos(x, y).unwrap());
    assert_eq!(kind(7, 7), Some(Forbidden::DoubleThree));
    assert_eq!(kind(2, 12), Some(Forbidden::Overline));
    assert_eq!(kind(8, 7), None, "a four-three is allowed");
}
