//! Tests of `rules/go/game.rs`.

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
                let r = crate::rules::splitmix::splitmix64(&mut state) as usize;
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
