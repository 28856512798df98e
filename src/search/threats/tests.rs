//! Tests of `search/threats/mod.rs`.

use super::*;
use crate::rules::splitmix::splitmix64;
use crate::rules::{Board, Rule};
use std::sync::atomic::AtomicBool;

fn setup(black: &[(i64, i64)], white: &[(i64, i64)], to_move: Color) -> PatternBoard {
    setup_rule(Rule::Freestyle, black, white, to_move)
}

fn setup_rule(
    rule: Rule,
    black: &[(i64, i64)],
    white: &[(i64, i64)],
    to_move: Color,
) -> PatternBoard {
    let mut b = Board::new(15, 15, rule).unwrap();
    for &(x, y) in black {
        b.place(b.pos(x, y).unwrap(), Color::Black);
    }
    for &(x, y) in white {
        b.place(b.pos(x, y).unwrap(), Color::White);
    }
    b.set_to_move(to_move);
    PatternBoard::new(&b)
}

#[test]
fn finds_a_four_three_win() {
    // Black: a closed three on row 7 (white at its left end) and an open two in column 10 that becomes an open three
    // that the four's block does not touch.
    let mut pb = setup(
        &[(7, 7), (8, 7), (9, 7), (10, 5), (10, 6)],
        &[(6, 7), (0, 0), (0, 2), (0, 4), (14, 14)],
        Color::Black,
    );
    let stop = AtomicBool::new(false);
    let tm = TimeManager::infinite(&stop);
    let mut vcf = Vcf::new();
    let line = vcf.find(&mut pb, 10, 100_000, &tm).expect("VCF exists");
    assert!(!line.is_empty());
    // The board is restored.
    pb.validate();
}

#[test]
fn no_vcf_without_fours() {
    let mut pb = setup(&[(7, 7)], &[(8, 8)], Color::Black);
    let stop = AtomicBool::new(false);
    let tm = TimeManager::infinite(&stop);
    assert!(Vcf::new().find(&mut pb, 10, 100_000, &tm).is_none());
}

fn vct(pb: &mut PatternBoard, depth: u32) -> Option<(Pos, u32)> {
    let stop = AtomicBool::new(false);
    let tm = TimeManager::infinite(&stop);
    let hash = pb.hash();
    let mut v = Vct::with_bytes(1 << 16);
    let found = v.find(pb, depth, 5_000_000, &tm);
    assert!(!v.aborted(), "the budget is ample for these positions");
    assert_eq!(pb.hash(), hash, "the board is restored");
    pb.validate();
    found
}

fn xy(pb: &PatternBoard, p: Pos) -> (usize, usize) {
    pb.board().xy(p)
}

/// Black: a horizontal two on row 7 and a vertical two in column 8 that meet at (8,7).
const THREE_THREE: [(i64, i64); 4] = [(6, 7), (7, 7), (8, 5), (8, 6)];
const FAR: [(i64, i64); 4] = [(0, 0), (14, 0), (0, 14), (14, 14)];

#[test]
fn vct_plays_the_double_three() {
    let mut pb = setup(&THREE_THREE, &FAR, Color::Black);
    let (p, depth) = vct(&mut pb, 4).expect("3-3 wins");
    assert_eq!((xy(&pb, p), depth), ((8, 7), 1));
    // Nothing of the kind for white, who has only scattered corner stones.
    pb.set_to_move(Color::White);
    assert!(vct(&mut pb, 4).is_none());
}

#[test]
fn vct_needs_a_three_first() {
    // Black (to move) has no four and no 3-3 point yet:
    //   row 7:  . . . . [8] X X .      (9,7) (10,7): an open two
    //   (8,5) and (10,5) sit on both diagonals through (9,6).
    // (8,7) makes an open three on row 7 and turns (9,6) into a 3-3 point (diagonal
    // (8,5)-(9,6)-(10,7), anti-diagonal (10,5)-(9,6)-(8,7)) that no block of the row touches.
    // White's O.O.O on row 10 gives it fours to interpose, which do not help.
    let black = [(8, 5), (10, 5), (9, 7), (10, 7), (4, 10)];
    let white = [(5, 5), (5, 10), (9, 10), (7, 10), (5, 9)];
    let mut pb = setup(&black, &white, Color::Black);
    assert!(vct(&mut pb, 1).is_none(), "no win in one threat");
    let (m, depth) = vct(&mut pb, 4).expect("a win in two threats");
    assert_eq!(depth, 2);
    assert!([(8, 7), (9, 6)].contains(&xy(&pb, m)), "{:?}", xy(&pb, m));
    assert!(brute_attack(&mut pb, Color::Black, 2));
    assert!(!brute_attack(&mut pb, Color::Black, 1));
}

#[test]
fn no_vct_from_an_open_two() {
    let mut pb = setup(&[(7, 7), (8, 7)], &[(0, 0), (14, 14)], Color::Black);
    assert!(vct(&mut pb, 6).is_none());
}

#[test]
fn the_defenders_open_three_beats_a_double_three() {
    // White's open three on row 12 becomes an open four as soon as black plays a quiet
    // threat, so black's 3-3 no longer wins.
    let white = [(2, 12), (3, 12), (4, 12), (14, 0)];
    let mut pb = setup(&THREE_THREE, &white, Color::Black);
    assert!(vct(&mut pb, 4).is_none());
}

#[test]
fn black_may_not_use_a_forbidden_double_three_under_renju_or_no_double_three() {
    for rule in [Rule::Renju, Rule::NoDoubleThree] {
        let mut pb = setup_rule(rule, &THREE_THREE, &FAR, Color::Black);
        let p = pb.board().pos(8, 7).unwrap();
        assert!(forbidden_for(&mut pb, Color::Black, p), "(8,7) is a 3-3");
        if let Some((m, _)) = vct(&mut pb, 4) {
            assert_ne!(m, p);
            assert!(!forbidden_for(&mut pb, Color::Black, m));
        }
        // White may: the same shape in white stones wins.
        let mut pb = setup_rule(rule, &FAR, &THREE_THREE, Color::White);
        let (m, depth) = vct(&mut pb, 4).expect("white's 3-3 wins");
        assert_eq!((xy(&pb, m), depth), ((8, 7), 1), "{rule:?}");
    }
}

#[test]
fn no_double_three_filter_misses_no_forbidden_point() {
    // forbidden_for scans only points whose threat level could hold two open threes; on
    // random crowded boards every point the rule forbids must be among them.
    let mut state = 7u64;
    let mut forbidden = 0;
    for _ in 0..300 {
        let mut b = Board::new(15, 15, Rule::NoDoubleThree).unwrap();
        let stones = 20 + splitmix64(&mut state) % 60;
        for _ in 0..stones {
            let p = b.pos(
                (splitmix64(&mut state) % 15) as i64,
                (splitmix64(&mut state) % 15) as i64,
            );
            let c = if splitmix64(&mut state).is_multiple_of(3) {
                Color::White
            } else {
                Color::Black
            };
            if let Some(p) = p.filter(|&p| b.is_empty(p)) {
                b.place(p, c);
            }
        }
        b.set_to_move(Color::Black);
        let mut pb = PatternBoard::new(&b);
        for p in b.empty_points() {
            let exact = three_three::forbidden(&b, p).is_some();
            assert_eq!(forbidden_for(&mut pb, Color::Black, p), exact);
            forbidden += exact as usize;
        }
    }
    assert!(
        forbidden > 100,
        "too few forbidden points to test the filter: {forbidden}"
    );
}

fn defence_set(
    black: &[(i64, i64)],
    white: &[(i64, i64)],
    last: (i64, i64),
) -> Vec<(usize, usize)> {
    let mut pb = setup(black, white, Color::White);
    let m = pb.board().pos(last.0, last.1).unwrap();
    let mut v = Vct::default();
    let mut set: Vec<(usize, usize)> = v.defences(&mut pb, m).iter().map(|&p| xy(&pb, p)).collect();
    set.sort();
    pb.validate();
    set
}

#[test]
fn defences_against_threes() {
    let far = [(0, 0), (14, 14)];
    // ..XXX.. : only the two adjacent ends stop the open four.
    assert_eq!(
        defence_set(&[(5, 7), (6, 7), (7, 7)], &far, (7, 7)),
        vec![(4, 7), (8, 7)]
    );
    // .X.XX. : the gap and both outer ends.
    assert_eq!(
        defence_set(&[(4, 7), (6, 7), (7, 7)], &far, (7, 7)),
        vec![(3, 7), (5, 7), (8, 7)]
    );
    // A white stone two cells off: O.XXX.. leaves the near end, the far end and the
    // four point on the other side.
    assert_eq!(
        defence_set(&[(5, 7), (6, 7), (7, 7)], &[(3, 7), (14, 14)], (7, 7)),
        vec![(4, 7), (8, 7), (9, 7)]
    );
    // White's own four (row 2, against the edge) is an answer too.
    assert_eq!(
        defence_set(
            &[(5, 7), (6, 7), (7, 7), (14, 13)],
            &[(0, 2), (1, 2), (2, 2)],
            (7, 7)
        ),
        vec![(3, 2), (4, 2), (4, 7), (8, 7)]
    );
}

/// Threat-space search with a full-width defender (every empty point near a stone), the
/// oracle for the VCT's defence sets: `att` to move, at most `depth` threat moves.
fn brute_attack(pb: &mut PatternBoard, att: Color, depth: u32) -> bool {
    let def = att.opponent();
    if pb.count(att, P4_FIVE) > 0 {
        return true;
    }
    let points: Vec<Pos> = pb.board().points().collect();
    if pb.count(def, P4_FIVE) > 0 {
        // The block is forced. If our threat still stands the defender must face it again;
        // otherwise the block must be a new threat, paid from the budget.
        if pb.count(def, P4_FIVE) > 1 {
            return false;
        }
        let standing = first_point_at(pb, att, P4_FLEX4, true).is_some();
        let b = first_point_at(pb, def, P4_FIVE, false).unwrap();
        let level = pb.p4(att, b);
        if forbidden_for(pb, att, b) || !standing && (level < P4_FLEX3 || depth == 0) {
            return false;
        }
        pb.play(b);
        let won = brute_defend(pb, att, if standing { depth } else { depth - 1 });
        pb.undo();
        return won;
    }
    if first_point_at(pb, att, P4_FLEX4, true).is_some() {
        return true;
    }
    if depth == 0 {
        return false;
    }
    for &p in &points {
        if !pb.board().is_empty(p) {
            continue;
        }
        let level = pb.p4(att, p);
        if !(P4_FLEX3..P4_FLEX4).contains(&level) {
            continue;
        }
        if forbidden_for(pb, att, p) {
            continue;
        }
        pb.play(p);
        let won = brute_defend(pb, att, depth - 1);
        pb.undo();
        if won {
            return true;
        }
    }
    false
}

fn brute_defend(pb: &mut PatternBoard, att: Color, depth: u32) -> bool {
    let def = att.opponent();
    if pb.count(def, P4_FIVE) > 0 {
        return false;
    }
    let points: Vec<Pos> = pb.board().points().collect();
    for &q in &points {
        if !pb.board().is_empty(q) || !pb.is_near(q) || forbidden_for(pb, def, q) {
            continue;
        }
        pb.play(q);
        let won = brute_attack(pb, att, depth);
        pb.undo();
        if !won {
            return false;
        }
    }
    true
}

#[test]
fn vct_agrees_with_a_full_width_defender() {
    // Random crowded centres: whatever the VCT proves, the brute force proves too
    // (soundness); in freestyle, whatever the brute force proves within two threats, the
    // VCT finds too (its defence sets are complete).
    let mut state = 99u64;
    let mut wins = 0;
    let mut deep_wins = 0;
    for rule in [Rule::Freestyle, Rule::Renju] {
        for _ in 0..150 {
            let mut b = Board::new(15, 15, rule).unwrap();
            let n = 8 + (crate::rules::splitmix::splitmix64(&mut state) % 8) as usize;
            let mut placed = 0;
            while placed < n {
                let r = crate::rules::splitmix::splitmix64(&mut state);
                let (x, y) = (4 + (r % 7) as i64, 4 + (r / 7 % 7) as i64);
                let p = b.pos(x, y).unwrap();
                if b.is_empty(p) && b.play(p).is_ok() {
                    placed += 1;
                }
            }
            let mut pb = PatternBoard::new(&b);
            if b.is_over() {
                continue;
            }
            let att = pb.to_move();
            let found = vct(&mut pb, 2);
            let brute = brute_attack(&mut pb, att, 2);
            if let Some((p, depth)) = found {
                assert!(
                    brute,
                    "{rule:?}: VCT claims {:?} at depth {depth}; the brute force refutes:\n{}",
                    b.xy(p),
                    b.to_text()
                );
                wins += 1;
                if depth == 2 {
                    deep_wins += 1;
                }
            }
            if rule == Rule::Freestyle {
                assert_eq!(found.is_some(), brute, "VCT misses a win:\n{}", b.to_text());
            }
        }
    }
    eprintln!("VCT wins checked: {wins}, {deep_wins} of them at depth 2");
    assert!(
        wins >= 20 && deep_wins >= 3,
        "too few wins to test: {wins}, {deep_wins} at depth 2"
    );
}
