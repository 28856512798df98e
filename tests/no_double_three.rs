//! Every gomoku level under the no-double-three rule (`rules::gomoku::three_three`): black never plays a
//! point that makes two open threes, in a position where that point is the move each level
//! picks under freestyle, and in whole self-play games refereed by `Board::play`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use sente::players::{gomoku_player, GomokuPlayer, MoveRequest, SearchInfo, GOMOKU_LEVELS};
use sente::rules::gomoku::forbidden_points;
use sente::rules::{Board, Color, Pos, Rule};
use sente::search::clock::{SearchLimit, TimeManager};

/// Black's 3-3 at (8,7): row 7 and column 8 each become an open three.
const THREE_THREE: [(i64, i64); 4] = [(6, 7), (7, 7), (8, 5), (8, 6)];
const FAR: [(i64, i64); 4] = [(0, 0), (14, 0), (0, 14), (14, 14)];

fn choose(player: &mut dyn GomokuPlayer, board: &Board) -> Option<Pos> {
    let stop = AtomicBool::new(false);
    let tm = TimeManager::new(&SearchLimit::nodes(3000), Instant::now(), &stop);
    let mut report = |_: &SearchInfo| {};
    let mut req = MoveRequest {
        tm: &tm,
        nbest: 1,
        excluded: &[],
        report: &mut report,
    };
    player.choose(board, &mut req)
}

fn position(rule: Rule) -> Board {
    let mut b = Board::new(15, 15, rule).unwrap();
    for &(x, y) in &THREE_THREE {
        b.place(b.pos(x, y).unwrap(), Color::Black);
    }
    for &(x, y) in &FAR {
        b.place(b.pos(x, y).unwrap(), Color::White);
    }
    b.set_to_move(Color::Black);
    b
}

#[test]
fn strong_and_classic_take_the_double_three_only_where_it_is_legal() {
    for level in ["strong", "classic"] {
        let free = position(Rule::Freestyle);
        let p = free.pos(8, 7).unwrap();
        let mut player = gomoku_player(level, 1).unwrap();
        player.prepare(Rule::Freestyle);
        assert_eq!(
            choose(player.as_mut(), &free),
            Some(p),
            "{level}, freestyle"
        );

        let b = position(Rule::NoDoubleThree);
        assert_eq!(forbidden_points(&b), vec![p]);
        let mut player = gomoku_player(level, 1).unwrap();
        player.prepare(Rule::NoDoubleThree);
        let m = choose(player.as_mut(), &b).expect("a move");
        assert_ne!(m, p, "{level} played the forbidden 3-3");
        assert!(b.check(m).is_ok());
    }
}

#[test]
fn no_level_breaks_the_rule_in_self_play() {
    let mut restricted_turns = 0;
    for &(level, _) in GOMOKU_LEVELS {
        for seed in 0..3u64 {
            let mut b = Board::new(15, 15, Rule::NoDoubleThree).unwrap();
            // Two stones each off the centre so that the seeds' games differ.
            let opening = [(7, 7), (8, 8), (6 + seed as i64, 6), (7, 9)];
            for (x, y) in opening {
                b.play(b.pos(x, y).unwrap()).unwrap();
            }
            let mut players = [
                gomoku_player(level, seed).unwrap(),
                gomoku_player(level, seed + 100).unwrap(),
            ];
            for p in players.iter_mut() {
                p.new_game(&b);
            }
            while b.winner().is_none() && !b.is_full() && b.stones() < 120 {
                let color = b.to_move();
                if color == Color::Black && !forbidden_points(&b).is_empty() {
                    restricted_turns += 1;
                }
                let Some(m) = choose(players[color.index()].as_mut(), &b) else {
                    break;
                };
                if let Err(e) = b.play(m) {
                    panic!("{level} seed {seed}: {color:?} {:?}: {e}", b.xy(m));
                }
            }
        }
    }
    // The games must have put the rule to work for the test to mean anything.
    assert!(
        restricted_turns >= 5,
        "only {restricted_turns} black turns with a forbidden point"
    );
}

#[test]
fn every_double_three_is_two_open_threes_of_the_pattern_tables() {
    // Independent definitions: `three_three` reads each line cell by cell; the pattern tables
    // (eval::gomoku::patterns, freestyle) call a line FLEX3 when one more stone makes two five points.
    // Every forbidden point has two FLEX3 lines and no five. The converse fails only for a
    // FLEX3 that never becomes a straight four (`X.X?X.X` -> `X.XXX.X`): not a three here.
    use sente::eval::gomoku::patterns::{PatternBoard, FIVE, FLEX3};
    use sente::rules::gomoku::three_three;
    let mut state = 11u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut forbidden, mut pattern_only) = (0, 0);
    for _ in 0..400 {
        let mut b = Board::new(15, 15, Rule::NoDoubleThree).unwrap();
        for _ in 0..20 + next() % 60 {
            let p = b.pos((next() % 15) as i64, (next() % 15) as i64).unwrap();
            if b.is_empty(p) {
                b.place(
                    p,
                    if next() % 3 == 0 {
                        Color::White
                    } else {
                        Color::Black
                    },
                );
            }
        }
        b.set_to_move(Color::Black);
        let pb = PatternBoard::new(&b);
        for p in b.empty_points() {
            let lines = pb.patterns(Color::Black, p);
            let by_patterns =
                !lines.contains(&FIVE) && lines.iter().filter(|&&l| l == FLEX3).count() >= 2;
            let by_rule = three_three::forbidden(&b, p).is_some();
            assert!(
                !by_rule || by_patterns,
                "{:?} {lines:?}: {}",
                b.xy(p),
                lines_through(&b, p)
            );
            forbidden += by_rule as usize;
            pattern_only += (by_patterns && !by_rule) as usize;
        }
    }
    assert!(forbidden > 100, "{forbidden}");
    assert!(
        pattern_only * 10 < forbidden,
        "{pattern_only} of {forbidden}"
    );
}

/// The four lines through `p`, five points each side (`X` black, `O` white, `#` off the board).
fn lines_through(b: &Board, p: Pos) -> String {
    let (x, y) = b.xy(p);
    let mut out = Vec::new();
    for (dx, dy) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
        let line: String = (-5i64..=5)
            .map(|k| match b.pos(x as i64 + k * dx, y as i64 + k * dy) {
                None => '#',
                Some(_) if k == 0 => '?',
                Some(q) => match b.cell(q) {
                    sente::rules::Cell::Black => 'X',
                    sente::rules::Cell::White => 'O',
                    _ => '.',
                },
            })
            .collect();
        out.push(line);
    }
    out.join(" | ")
}
