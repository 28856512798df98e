//! Counting a finished position, given the stones both players agree are dead.
//!
//! Dead stones are lifted first (they become prisoners of the other side). Then every empty
//! region bordered by one colour only is that colour's territory; a region touching both colours
//! (dame, seki) belongs to nobody.
//! - **Area** (Chinese, what gomill and GNU Go's `--chinese-rules` count): stones + territory.
//! - **Territory** (Japanese): territory + prisoners (captures during the game and the dead
//!   stones). Seki eyes count as territory here, a simplification of the Japanese rule.
//!
//! - **Seki tax** ([`Tax::Seki`], Japanese): an empty region that touches a stone the caller
//!   names as in seki counts for nobody ([`score_detail_taxed`]; which groups are in seki is a
//!   judgement, like dead stones, so it comes from outside).
//!
//! The result is black minus white minus komi: positive when black wins. White's handicap bonus
//! needs the game's set-up, so [`crate::rules::go::GoGame::score`] adds it.

use super::board::{GoBoard, Point, BLACK, EMPTY, WALL, WHITE};
use super::{Color, GoRules, Scoring, Tax};

/// The counts behind a score, per colour (index 0 black, 1 white).
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreDetail {
    /// Live stones on the board.
    pub stones: [u32; 2],
    /// Empty points (dead stones' points included) surrounded by one colour.
    pub territory: [u32; 2],
    /// Captures during the game plus dead stones of the opponent.
    pub prisoners: [u32; 2],
    /// Owner of each padded-array index after removing the dead: `Some` for live stones and
    /// territory, `None` for dame, seki points and walls.
    pub owner: Vec<Option<Color>>,
    /// Black minus white minus komi under the rules' scoring.
    pub score: f32,
}

/// A margin as GTP's `final_score` and SGF's `RE` write it: `B+3.5`, `W+0.5`, `0` (jigo).
pub fn margin_text(margin: f32) -> String {
    if margin > 0.0 {
        format!("B+{margin}")
    } else if margin < 0.0 {
        format!("W+{}", -margin)
    } else {
        "0".to_string()
    }
}

/// Black's margin (komi included; > 0 black ahead) after lifting `dead`.
pub fn score(board: &GoBoard, dead: &[Point], rules: &GoRules) -> f32 {
    score_detail(board, dead, rules).score
}

/// The full count with no stone in seki; see the module notes.
pub fn score_detail(board: &GoBoard, dead: &[Point], rules: &GoRules) -> ScoreDetail {
    score_detail_taxed(board, dead, &[], rules)
}

/// The full count, with the stones of `seki` in seki (only [`Tax::Seki`] looks at them).
pub fn score_detail_taxed(
    board: &GoBoard,
    dead: &[Point],
    seki: &[Point],
    rules: &GoRules,
) -> ScoreDetail {
    let len = board.array_len();
    let mut in_seki = vec![false; len];
    if rules.tax == Tax::Seki {
        for &p in seki {
            if p.idx() < len {
                in_seki[p.idx()] = true;
            }
        }
    }
    let mut cells: Vec<u8> = (0..len).map(|i| board.cell(i)).collect();
    let mut prisoners = [board.captures(Color::Black), board.captures(Color::White)];
    for &p in dead {
        if let Some(c) = board.get(p) {
            if cells[p.idx()] != EMPTY {
                cells[p.idx()] = EMPTY;
                prisoners[c.opponent().index()] += 1;
            }
        }
    }
    let mut owner: Vec<Option<Color>> = vec![None; len];
    let mut stones = [0u32; 2];
    let mut territory = [0u32; 2];
    let mut visited = vec![false; len];
    let mut region = Vec::new();
    for p in board.points() {
        let p = p.idx();
        match cells[p] {
            BLACK => {
                stones[0] += 1;
                owner[p] = Some(Color::Black);
            }
            WHITE => {
                stones[1] += 1;
                owner[p] = Some(Color::White);
            }
            _ if !visited[p] => {
                // Flood the empty region and note which colours border it.
                region.clear();
                region.push(p);
                visited[p] = true;
                let mut borders = 0u8;
                let mut taxed = false;
                let mut i = 0;
                while i < region.len() {
                    let q = region[i];
                    i += 1;
                    for n in board.neighbors(q) {
                        match cells[n] {
                            EMPTY if !visited[n] => {
                                visited[n] = true;
                                region.push(n);
                            }
                            EMPTY | WALL => {}
                            c => {
                                borders |= c;
                                taxed |= in_seki[n];
                            }
                        }
                    }
                }
                let who = match borders {
                    _ if taxed => None,
                    BLACK => Some(Color::Black),
                    WHITE => Some(Color::White),
                    _ => None,
                };
                if let Some(c) = who {
                    territory[c.index()] += region.len() as u32;
                    for &q in &region {
                        owner[q] = Some(c);
                    }
                }
            }
            _ => {}
        }
    }
    let (b, w) = match rules.scoring {
        Scoring::Area => (stones[0] + territory[0], stones[1] + territory[1]),
        Scoring::Territory => (territory[0] + prisoners[0], territory[1] + prisoners[1]),
    };
    ScoreDetail {
        stones,
        territory,
        prisoners,
        owner,
        score: b as f32 - w as f32 - rules.komi,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::{parse_point, GoGame, KoRule};

    #[test]
    fn margins_are_written_as_gtp_and_sgf_write_results() {
        assert_eq!(margin_text(3.5), "B+3.5");
        assert_eq!(margin_text(-0.5), "W+0.5");
        assert_eq!(margin_text(-31.0), "W+31");
        assert_eq!(margin_text(0.0), "0");
    }

    fn pt(board: &GoBoard, s: &str) -> Point {
        parse_point(board, s).unwrap()
    }

    /// A 5x5 game: black walls off column B, white column D, with a white stone dead in black's
    /// area and a prisoner taken by white.
    fn position() -> GoGame {
        let mut g = GoGame::new(5, 5, GoRules::default()).unwrap();
        let mut setup = Vec::new();
        for row in 1..=5 {
            setup.push((pt(g.board(), &format!("B{row}")), Color::Black));
            setup.push((pt(g.board(), &format!("D{row}")), Color::White));
        }
        setup.push((pt(g.board(), "A3"), Color::White));
        g.place_setup(&setup).unwrap();
        g
    }

    #[test]
    fn area_scoring_with_and_without_dead_stones() {
        let g = position();
        let rules = GoRules {
            komi: 0.5,
            ..GoRules::default()
        };
        // Nothing dead: A1 A2 and A4 A5 touch black and the white A3, so they are dame, like
        // column C. Black: 5 stones; white: 6 stones + column E = 11.
        let d = score_detail(g.board(), &[], &rules);
        assert_eq!(d.stones, [5, 6]);
        assert_eq!(d.territory, [0, 5]);
        assert_eq!(d.score, 5.0 - 11.0 - 0.5);
        // A3 dead: black owns all of column A.
        let a3 = pt(g.board(), "A3");
        let d = score_detail(g.board(), &[a3], &rules);
        assert_eq!(d.stones, [5, 5]);
        assert_eq!(d.territory, [5, 5]);
        assert_eq!(d.prisoners, [1, 0]);
        assert_eq!(d.score, -0.5);
        assert_eq!(d.owner[a3.idx()], Some(Color::Black));
        assert_eq!(d.owner[pt(g.board(), "C3").idx()], None);
        assert_eq!(score(g.board(), &[a3], &rules), -0.5);
    }

    #[test]
    fn territory_scoring_counts_prisoners() {
        let g = position();
        let rules = GoRules {
            komi: 6.5,
            ko: KoRule::Simple,
            scoring: Scoring::Territory,
            suicide: false,
            ..GoRules::default()
        };
        let a3 = pt(g.board(), "A3");
        // Black: 5 territory + 1 dead prisoner; white: 5 territory.
        assert_eq!(score(g.board(), &[a3], &rules), 6.0 - 5.0 - 6.5);
        // Dead-list entries on empty points are ignored.
        let c3 = pt(g.board(), "C3");
        assert_eq!(score(g.board(), &[a3, c3, a3], &rules), 6.0 - 5.0 - 6.5);
    }

    #[test]
    fn seki_tax_leaves_out_regions_touching_seki_stones() {
        let g = position();
        let a3 = pt(g.board(), "A3");
        let d1 = pt(g.board(), "D1");
        let japanese = GoRules {
            komi: 0.0,
            scoring: Scoring::Territory,
            tax: Tax::Seki,
            ..GoRules::default()
        };
        // Column D named in seki: white's column E touches it and counts for nobody.
        let d = score_detail_taxed(g.board(), &[a3], &[d1], &japanese);
        assert_eq!(d.territory, [5, 0]);
        assert_eq!(d.owner[pt(g.board(), "E3").idx()], None);
        assert_eq!(d.score, 6.0);
        // Without the tax, or without seki stones, column E is white's.
        let untaxed = GoRules {
            tax: Tax::None,
            ..japanese
        };
        assert_eq!(
            score_detail_taxed(g.board(), &[a3], &[d1], &untaxed).territory,
            [5, 5]
        );
        assert_eq!(
            score_detail_taxed(g.board(), &[a3], &[], &japanese).territory,
            [5, 5]
        );
    }

    #[test]
    fn empty_board_is_nobody_s() {
        let g = GoGame::new(9, 9, GoRules::default()).unwrap();
        assert_eq!(score(g.board(), &[], &GoRules::default()), -7.5);
    }
}
