//! Tests of `eval/gomoku/patterns.rs`.

use super::*;
use crate::rules::splitmix::splitmix64;
use crate::rules::Rule;

/// Board from rows of `X` (black), `O` (white), `#` (blocked), `.`; black to move unless counts say white.
fn board_from(rows: &[&str], rule: Rule) -> Board {
    let mut b = Board::new(rows[0].len(), rows.len(), rule).unwrap();
    let (mut nb, mut nw) = (0, 0);
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let p = b.pos(x as i64, y as i64).unwrap();
            match ch {
                '#' => {
                    b.block(p);
                }
                'X' => {
                    b.place(p, Color::Black);
                    nb += 1;
                }
                'O' => {
                    b.place(p, Color::White);
                    nw += 1;
                }
                _ => {}
            }
        }
    }
    b.set_to_move(if nb > nw { Color::White } else { Color::Black });
    b
}

fn pat_at(rows: &[&str], rule: Rule, x: i64, y: i64, c: Color, dir: usize) -> Pattern {
    let b = board_from(rows, rule);
    let p = b.pos(x, y).unwrap();
    PatternBoard::new(&b).pattern(c, p, dir)
}

#[test]
fn white_patterns_from_swapped_black_keys_match_a_direct_build() {
    assert_eq!(swap_colours(0b11_10_01_00), 0b11_01_10_00);
    for rule in Rule::ALL {
        let fused = fused_table(rule);
        for (i, c) in [Color::Black, Color::White].into_iter().enumerate() {
            let direct = build_table(c.cell() as u8, rule.exact_five(c), rule.caro());
            let differ = (0..TABLE_LEN)
                .filter(|&k| (fused[k] >> (4 * i)) & 15 != direct[k])
                .count();
            assert_eq!(differ, 0, "{} {c:?}", rule.name());
        }
    }
}

#[test]
fn line_patterns_along_a_row() {
    let r = |row: &str, x: i64| {
        pat_at(
            &[
                row,
                "...........",
                "...........",
                "...........",
                "...........",
            ],
            Rule::Freestyle,
            x,
            0,
            Color::Black,
            0,
        )
    };
    assert_eq!(r("..XXXX.....", 6), FIVE);
    assert_eq!(r("..XXX......", 5), FLEX4);
    assert_eq!(r("OXXX.......", 4), BLOCK4);
    assert_eq!(r("..XX.......", 4), FLEX3);
    assert_eq!(r("..X.X......", 3), FLEX3);
    assert_eq!(r("OXX........", 3), BLOCK3);
    assert_eq!(r("...X.......", 4), FLEX2);
    assert_eq!(r("XO.........", 2), BLOCK1);
    assert_eq!(r("...........", 5), FLEX1);
    // Against the edge only one end can make five.
    assert_eq!(r("XX.X.......", 2), BLOCK4);
    assert_eq!(r("..XX.X.....", 4), FLEX4);
    // Two fives in one line (X.XXX.X filled in the middle) also count as FLEX4.
    assert_eq!(r(".X.X.X.X...", 4), FLEX4);
}

#[test]
fn exact_five_turns_sixes_into_overlines() {
    let rows = [
        "XXXX.X.....",
        "...........",
        "...........",
        "...........",
        "...........",
    ];
    assert_eq!(pat_at(&rows, Rule::Freestyle, 4, 0, Color::Black, 0), FIVE);
    assert_eq!(
        pat_at(&rows, Rule::Standard, 4, 0, Color::Black, 0),
        OVERLINE
    );
    // Renju: white still wins with six.
    let rows_w = [
        "OOOO.O.....",
        "...........",
        "...........",
        "...........",
        "...........",
    ];
    assert_eq!(pat_at(&rows_w, Rule::Renju, 4, 0, Color::White, 0), FIVE);
    assert_eq!(
        pat_at(&rows_w, Rule::Standard, 4, 0, Color::White, 0),
        OVERLINE
    );
}

#[test]
fn caro_five_blocked_at_both_ends_is_dead() {
    let rows = [
        "OXXXX.O....",
        "...........",
        "...........",
        "...........",
        "...........",
    ];
    assert_eq!(pat_at(&rows, Rule::Caro, 5, 0, Color::Black, 0), DEAD);
    assert_eq!(pat_at(&rows, Rule::Freestyle, 5, 0, Color::Black, 0), FIVE);
}

#[test]
fn threat_levels_and_counts() {
    let rows = [
        "...............",
        "...............",
        "...XXX.........",
        "...............",
        "...............",
    ];
    let b = board_from(&rows, Rule::Freestyle);
    let pb = PatternBoard::new(&b);
    let p = b.pos(6, 2).unwrap();
    assert_eq!(pb.p4(Color::Black, p), P4_FLEX4);
    assert_eq!(pb.count(Color::Black, P4_FLEX4), 2);
    assert_eq!(pb.count(Color::Black, P4_FIVE), 0);
}

#[test]
fn policy_scores_read_both_sides_codes() {
    use crate::eval::gomoku::learned::{
        canonical, embedded, policy_tables, POLICY_ATTACK, POLICY_DEFEND,
    };
    let rows = [
        "...............",
        "...XXX.........",
        "...OO..........",
        "...............",
        "...............",
    ];
    let b = board_from(&rows, Rule::Freestyle);
    let mut pb = PatternBoard::new(&b);
    let p = b.pos(6, 1).unwrap();
    assert_eq!(pb.policy_score(p), 0, "no policy set");
    assert!(!pb.has_policy());
    pb.set_policy(policy_tables(Rule::Freestyle));
    assert!(pb.has_policy());
    let w = embedded(Rule::Freestyle).unwrap();
    for c in [Color::Black, Color::White] {
        pb.set_to_move(c);
        let me = c.index();
        for q in [p, b.pos(5, 2).unwrap(), b.pos(9, 4).unwrap()] {
            let want = w.tables[me][POLICY_ATTACK][canonical(pb.code(c, q))] as i32
                + w.tables[me][POLICY_DEFEND][canonical(pb.code(c.opponent(), q))] as i32;
            assert_eq!(pb.policy_score(q), want);
        }
    }
    // Making an open four rates above a point far from every stone.
    pb.set_to_move(Color::Black);
    assert!(pb.policy_score(p) > pb.policy_score(b.pos(14, 4).unwrap()));
}

#[test]
fn learned_sums_stay_exact_and_hand_tables_give_the_hand_evaluation() {
    use crate::eval::gomoku::learned::value_tables;
    let mut state = 11u64;
    for rule in [Rule::Freestyle, Rule::Renju] {
        let b = Board::new(15, 15, rule).unwrap();
        let mut pb = PatternBoard::new(&b);
        pb.set_learned(value_tables(rule));
        let mut hand = PatternBoard::new(&b);
        for step in 0..50 {
            if pb.board().is_over() {
                break;
            }
            let empties: Vec<Pos> = pb.board().empty_points().collect();
            let p = empties[(splitmix64(&mut state) % empties.len() as u64) as usize];
            pb.play(p);
            hand.play(p);
            if step % 6 == 5 {
                pb.undo();
                hand.undo();
            }
            pb.validate();
            // The learned value: the cell sums, the joint sum and the threat table.
            let me = pb.to_move().index();
            let t = value_tables(rule).unwrap();
            let (mine, _) = unpack(pb.lsum[me]);
            let (_, theirs) = unpack(pb.lsum[1 - me]);
            let joint = [unpack(pb.jsum).0, unpack(pb.jsum).1][me];
            assert_eq!(
                pb.evaluate(),
                mine + theirs + joint + t.threat[me][pb.threat_mask()]
            );
        }
        pb.set_learned(None);
        assert_eq!(pb.evaluate(), hand.evaluate());
    }
}

/// The threat-level bits of black in `pb`'s threat mask (which puts the mover's first).
fn black_threat_bits(pb: &PatternBoard) -> usize {
    let mask = pb.threat_mask();
    if pb.to_move() == Color::Black {
        mask & ((1 << THREAT_BITS) - 1)
    } else {
        mask >> THREAT_BITS
    }
}

fn has_bit(bits: usize, level: P4) -> bool {
    bits >> (level - P4_FLEX3) & 1 != 0
}

#[test]
fn renju_black_forbidden_shapes_are_no_threat_to_the_evaluation() {
    // (7,7) makes two blocked fours for black (a 4-4, forbidden in renju); (7,12) makes
    // two open threes (a 3-3). No other point reaches either level.
    let rows = [
        "...............",
        "...............",
        "...............",
        ".......O.......",
        ".......X.......",
        ".......X.......",
        ".......X.......",
        "...OXXX........",
        "...............",
        "...............",
        ".......X.......",
        ".......X.......",
        ".....XX........",
        "...............",
        "...............",
    ];
    let four_four = (7, 7);
    let three_three = (7, 12);
    for rule in [Rule::Renju, Rule::Freestyle] {
        let b = board_from(&rows, rule);
        let pb = PatternBoard::new(&b);
        let at = |(x, y)| b.pos(x, y).unwrap();
        // The search's view is the same under both rules: the rules decide legality.
        assert_eq!(pb.p4(Color::Black, at(four_four)), P4_FLEX4);
        assert_eq!(pb.p4(Color::Black, at(three_three)), P4_FLEX3_2X);
        assert_eq!(pb.count(Color::Black, P4_FLEX4), 1);
        let bits = black_threat_bits(&pb);
        let renju = rule == Rule::Renju;
        assert_eq!(has_bit(bits, P4_FLEX4), !renju, "{rule:?}");
        assert_eq!(has_bit(bits, P4_FLEX3_2X), !renju, "{rule:?}");
        // The single fours and threes around them are still black's threats.
        let any = |levels: [P4; 2]| levels.iter().any(|&l| has_bit(bits, l));
        assert!(any([P4_BLOCK4, P4_BLOCK4_PLUS]) && any([P4_FLEX3, P4_FLEX3_PLUS]));
        let level = |p| pb.eval_level(Color::Black, at(p));
        let (ff, tt) = if renju {
            (P4_NONE, P4_NONE)
        } else {
            (P4_FLEX4, P4_FLEX3_2X)
        };
        assert_eq!((level(four_four), level(three_three)), (ff, tt));
        pb.validate();
    }
    // White's shapes are never forbidden.
    let swapped: Vec<String> = rows
        .iter()
        .map(|r| {
            r.chars()
                .map(|c| match c {
                    'X' => 'O',
                    'O' => 'X',
                    c => c,
                })
                .collect()
        })
        .collect();
    let swapped: Vec<&str> = swapped.iter().map(String::as_str).collect();
    let b = board_from(&swapped, Rule::Renju);
    let pb = PatternBoard::new(&b);
    let p = b.pos(four_four.0, four_four.1).unwrap();
    assert_eq!(pb.eval_level(Color::White, p), P4_FLEX4);
    let mask = pb.threat_mask();
    let white = if pb.to_move() == Color::White {
        mask & ((1 << THREAT_BITS) - 1)
    } else {
        mask >> THREAT_BITS
    };
    assert!(has_bit(white, P4_FLEX4) && has_bit(white, P4_FLEX3_2X));
}

#[test]
fn a_forbidden_shape_made_and_unmade_keeps_the_counts_exact() {
    // Black builds a 4-4 point stone by stone (the flag appears on a cell whose level was
    // already counted) and takes it back; every step must equal a rebuild.
    let b = Board::new(15, 15, Rule::Renju).unwrap();
    let mut pb = PatternBoard::new(&b);
    let at = |x, y| b.pos(x, y).unwrap();
    let moves = [
        (4, 7),
        (0, 0),
        (5, 7),
        (0, 2),
        (7, 4),
        (0, 4),
        (7, 5),
        (14, 0),
        (6, 7),
        (14, 2),
        (7, 6),
        (3, 7),
        (14, 6),
        (7, 3),
    ];
    for (x, y) in moves {
        pb.play(at(x, y));
        pb.validate();
    }
    assert_eq!(pb.p4(Color::Black, at(7, 7)), P4_FLEX4);
    assert_eq!(pb.eval_level(Color::Black, at(7, 7)), P4_NONE);
    while pb.board().stones() > 0 {
        pb.undo();
        pb.validate();
    }
}

#[test]
fn incremental_state_matches_rebuild_in_random_games() {
    let mut state = 7u64;
    for rule in Rule::ALL {
        for (w, h) in [(15, 15), (7, 9), (20, 20)] {
            let b = Board::new(w, h, rule).unwrap();
            let mut pb = PatternBoard::new(&b);
            let mut played = 0;
            let mut steps = 0;
            while steps < 60 && !pb.board().is_over() {
                steps += 1;
                let empties: Vec<Pos> = pb.board().empty_points().collect();
                let p = empties[(splitmix64(&mut state) % empties.len() as u64) as usize];
                pb.play(p);
                played += 1;
                if played % 7 == 0 {
                    pb.validate();
                }
                if steps % 5 == 0 {
                    pb.undo();
                    pb.undo();
                    played -= 2;
                    pb.validate();
                }
            }
            pb.validate();
            while pb.board().stones() > 0 {
                pb.undo();
            }
            pb.validate();
            assert_eq!(pb.board().hash(), b.hash());
        }
    }
}

#[test]
fn a_blocked_point_breaks_lines_as_the_edge_does() {
    let rows = |row: &'static str| [".........", row, ".........", ".........", "........."];
    let at = |row: &'static str| pat_at(&rows(row), Rule::Freestyle, 1, 1, Color::Black, 0);
    // Three black stones: a stone before them makes an open four, or a four against the
    // block, with one five point left.
    assert_eq!(at("..XXX...."), FLEX4);
    assert_eq!(at("..XXX#..."), BLOCK4);
    // Stones beyond a block do not count: no five point between XX and XX.
    let b = board_from(&rows("XX#XX...."), Rule::Freestyle);
    let pb = PatternBoard::new(&b);
    assert_eq!(pb.count(Color::Black, P4_FIVE), 0);
    let open = board_from(&rows("XX.XX...."), Rule::Freestyle);
    assert_eq!(PatternBoard::new(&open).count(Color::Black, P4_FIVE), 1);
}

#[test]
fn blocked_points_keep_the_incremental_state_exact() {
    let mut b = Board::new(15, 15, Rule::Renju).unwrap();
    for (x, y) in [(7, 7), (9, 7), (8, 9), (3, 3)] {
        assert!(b.block(b.pos(x, y).unwrap()));
    }
    let mut pb = PatternBoard::new(&b);
    pb.validate();
    // Blocked points make their neighbours candidates, as stones do.
    assert!(pb.is_near(b.pos(6, 6).unwrap()));
    let mut seed = 7u64;
    for _ in 0..60 {
        let empty: Vec<Pos> = pb.board().empty_points().collect();
        let p = empty[(splitmix64(&mut seed) % empty.len() as u64) as usize];
        pb.play(p);
        pb.validate();
        if pb.board().winner().is_some() {
            break;
        }
    }
    while !pb.board().history().is_empty() {
        pb.undo();
    }
    pb.validate();
}
