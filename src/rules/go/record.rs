//! A Go game as SGF text (what GTP's `printsgf` answers): board size, komi, the rules, handicap
//! and other set-up stones, the side to move when a record set it, then the moves. Built from
//! [`crate::rules::sgf_write`]'s pieces, which the arena's match records share.
//!
//! `RU` names the rule set by its usual name when the rules are exactly one that KataGo knows
//! (`Chinese`, `Japanese`, `Tromp-Taylor`, ...), else KataGo's compact form
//! (`koPOSITIONALscoreAREAtaxNONEsui0whbNfpok1`), which KataGo reads back.

use super::kata_rules::{word_for, KataRules, BONUS_WORDS, KO_WORDS, SCORING_WORDS, TAX_WORDS};
use super::{GoGame, GoMove, GoRules, Point};
use crate::rules::sgf_write::{escape, move_node, point_list, size};
use crate::rules::Color;

/// The names `RU` uses, with the KataGo name of the rule set each stands for (first match
/// wins: `chinese-ogs` plays as the Chinese rules most servers use).
const SGF_RULE_NAMES: &[(&str, &str)] = &[
    ("Chinese", "chinese-ogs"),
    ("Chinese", "chinese"),
    ("Japanese", "japanese"),
    ("Tromp-Taylor", "tromp-taylor"),
    ("AGA", "aga"),
    ("NZ", "new-zealand"),
];

/// The `RU` value of `rules` in a game with `handicap` black handicap stones (see the module
/// notes): without a handicap white's handicap bonus counts nothing and is left out of the
/// comparison with the named rule sets.
pub fn rules_name(rules: &GoRules, handicap: usize) -> String {
    let kata = KataRules::of(rules);
    for &(sgf, name) in SGF_RULE_NAMES {
        let Some(mut named) = KataRules::named(name) else {
            continue;
        };
        if handicap < 2 {
            named.white_handicap_bonus = kata.white_handicap_bonus;
        }
        if named == kata {
            return sgf.to_string();
        }
    }
    let ko = word_for(KO_WORDS, &kata.ko);
    let score = word_for(SCORING_WORDS, &kata.scoring);
    let tax = word_for(TAX_WORDS, &kata.tax);
    let whb = word_for(BONUS_WORDS, &kata.white_handicap_bonus);
    format!(
        "ko{ko}score{score}tax{tax}sui{}{}whb{whb}fpok{}",
        u8::from(kata.suicide),
        if kata.has_button { "button1" } else { "" },
        u8::from(kata.friendly_pass_ok)
    )
}

/// The SGF of `game`, written by `app` (`AP`); see the module notes. Prisoners taken before a
/// mid-game set-up are not recorded (SGF has no property for them).
pub fn game_sgf(game: &GoGame, app: &str) -> String {
    let board = game.board();
    let (w, h) = (board.width(), board.height());
    // SGF counts rows from the top, the board from the bottom.
    let xy = |p: Point| {
        let (x, y) = board.xy(p);
        (x, h - 1 - y)
    };
    // Top row first, left to right: the same position gives the same text, however it was set up.
    let stones = |c: Color| {
        let mut v: Vec<(usize, usize)> = game
            .setup()
            .iter()
            .filter(move |s| s.1 == c)
            .map(|s| xy(s.0))
            .collect();
        v.sort_by_key(|&(x, y)| (y, x));
        v
    };
    let handicap = game.handicap_stones();
    let mut out = format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[{}]SZ[{}]KM[{}]RU[{}]",
        escape(app),
        size(w, h),
        game.rules().komi,
        escape(&rules_name(game.rules(), handicap))
    );
    if handicap >= 2 {
        out.push_str(&format!("HA[{handicap}]"));
    }
    out.push_str(&point_list("AB", stones(Color::Black)));
    out.push_str(&point_list("AW", stones(Color::White)));
    // The side to move of the start, when it is not the one the set-up implies.
    let first = game.moves().first().map_or_else(|| game.to_move(), |m| m.1);
    let implied = if handicap > 0 {
        Color::White
    } else {
        Color::Black
    };
    if first != implied {
        out.push_str(if first == Color::Black {
            "PL[B]"
        } else {
            "PL[W]"
        });
    }
    let mut expected = first;
    for &(mv, c) in game.moves() {
        if c != expected {
            // A colour playing twice in a row: the record says whose turn it was.
            out.push_str(if c == Color::Black {
                "\n;PL[B]"
            } else {
                "\n;PL[W]"
            });
        }
        let at = match mv {
            GoMove::Play(p) => Some(xy(p)),
            GoMove::Pass => None,
        };
        out.push_str(&move_node(c, at, None));
        expected = c.opponent();
    }
    if game.moves().last().is_some_and(|m| m.1 == game.to_move()) {
        out.push_str(if game.to_move() == Color::Black {
            "\n;PL[B]"
        } else {
            "\n;PL[W]"
        });
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(g: &GoGame, s: &str) -> Point {
        super::super::parse_point(g.board(), s).unwrap()
    }

    #[test]
    fn a_game_is_written_with_its_size_rules_setup_and_moves() {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        g.set_komi(5.5);
        let (c3, g7) = (pt(&g, "C3"), pt(&g, "G7"));
        g.place_setup(&[(c3, Color::Black), (g7, Color::Black)])
            .unwrap();
        let e5 = pt(&g, "E5");
        g.play(GoMove::Play(e5), Color::White).unwrap();
        g.play(GoMove::Pass, Color::Black).unwrap();
        assert_eq!(
            game_sgf(&g, "sente"),
            "(;FF[4]GM[1]CA[UTF-8]AP[sente]SZ[9]KM[5.5]RU[koPOSITIONALscoreAREAtaxNONEsui0whb0fpok1]HA[2]AB[gc][cg]\n;W[ee]\n;B[])\n"
        );
        let empty = GoGame::new(19, 13, GoRules::default()).unwrap();
        assert_eq!(
            game_sgf(&empty, "x"),
            "(;FF[4]GM[1]CA[UTF-8]AP[x]SZ[19:13]KM[7.5]RU[Chinese])\n"
        );
    }

    #[test]
    fn the_side_to_move_is_written_when_the_record_set_it() {
        let mut g = GoGame::new(9, 9, GoRules::default()).unwrap();
        let (a, b) = (pt(&g, "A1"), pt(&g, "B2"));
        g.place_setup(&[(a, Color::Black), (b, Color::White)])
            .unwrap();
        g.set_to_move(Color::White);
        assert!(game_sgf(&g, "s").contains("AB[ai]AW[bh]PL[W])"));
        g.play(GoMove::Pass, Color::White).unwrap();
        g.set_to_move(Color::White);
        assert!(game_sgf(&g, "s").ends_with("PL[W]\n;W[]\n;PL[W])\n"));
    }

    #[test]
    fn rules_are_named_or_spelled_out_as_katago_does() {
        let d = GoRules::default();
        // Chinese but for the handicap bonus, which counts only with a handicap.
        assert_eq!(rules_name(&d, 0), "Chinese");
        assert_eq!(
            rules_name(&d, 2),
            "koPOSITIONALscoreAREAtaxNONEsui0whb0fpok1"
        );
        let japanese = KataRules::named("japanese")
            .unwrap()
            .to_go_rules(6.5)
            .unwrap();
        assert_eq!(rules_name(&japanese, 3), "Japanese");
        let odd = GoRules { suicide: true, ..d };
        assert_eq!(
            rules_name(&odd, 0),
            "koPOSITIONALscoreAREAtaxNONEsui1whb0fpok1"
        );
    }
}
