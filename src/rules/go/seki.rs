//! Which live groups are in seki, judged from the board and the dead stones: a live group that
//! touches a neutral empty region (one bordered by live stones of both colours) and owns fewer
//! than two eye regions with less than [`SEKI_MAX_EYE_SPACE`] points in all, when an enemy group
//! touching the same neutral region is short of eyes too (against two eyes one eye dies, so
//! that is no seki: the dead-stone estimate decides it). Exact once the
//! dame are filled, an estimate before. `final_status_list seki` lists these groups and the
//! seki tax ([`super::score::score_detail_taxed`]) spares their regions.

use std::collections::{HashMap, HashSet};

use super::board::{GoBoard, Point};

/// A live group with this much eye space or more is never counted as seki.
pub const SEKI_MAX_EYE_SPACE: usize = 7;

/// The stones of live groups in seki: live groups (not in `dead`) that touch a neutral empty
/// region and own fewer than two eye regions with less than [`SEKI_MAX_EYE_SPACE`] points in all,
/// sharing such a region with an enemy group that is short of eyes as well.
pub fn seki_stones(b: &GoBoard, dead: &HashSet<Point>) -> HashSet<Point> {
    let alive = |p: Point| b.get(p).filter(|_| !dead.contains(&p));
    let neighbours = |p: Point| {
        let (x, y) = b.xy(p);
        let mut v = Vec::with_capacity(4);
        if x > 0 {
            v.extend(b.point(x - 1, y));
        }
        if y > 0 {
            v.extend(b.point(x, y - 1));
        }
        v.extend(b.point(x + 1, y));
        v.extend(b.point(x, y + 1));
        v
    };
    // Empty regions (dead stones count as empty), with the live colours around each.
    let mut region_of = HashMap::new();
    let mut regions: Vec<(usize, [bool; 2])> = Vec::new();
    for start in b.points() {
        if alive(start).is_some() || region_of.contains_key(&start) {
            continue;
        }
        let id = regions.len();
        let mut size = 0;
        let mut borders = [false; 2];
        let mut stack = vec![start];
        region_of.insert(start, id);
        while let Some(p) = stack.pop() {
            size += 1;
            for q in neighbours(p) {
                match alive(q) {
                    Some(c) => borders[c.index()] = true,
                    None => {
                        if let std::collections::hash_map::Entry::Vacant(e) = region_of.entry(q) {
                            e.insert(id);
                            stack.push(q);
                        }
                    }
                }
            }
        }
        regions.push((size, borders));
    }
    // Live groups short of two eyes, with the neutral regions each touches.
    let mut short = Vec::new();
    let mut seen = HashSet::new();
    for p in b.points() {
        let Some(c) = alive(p) else { continue };
        if seen.contains(&p) {
            continue;
        }
        let stones = b.group_stones(p);
        seen.extend(stones.iter().copied());
        let mut touching = HashSet::new();
        for &s in &stones {
            for q in neighbours(s) {
                if let Some(&r) = region_of.get(&q) {
                    touching.insert(r);
                }
            }
        }
        let neutral: HashSet<usize> = touching
            .iter()
            .copied()
            .filter(|&r| regions[r].1 == [true, true])
            .collect();
        let own: Vec<usize> = touching
            .iter()
            .filter(|&&r| regions[r].1[c.index()] && !regions[r].1[c.opponent().index()])
            .map(|&r| regions[r].0)
            .collect();
        let eye_space: usize = own.iter().sum();
        if !neutral.is_empty() && own.len() < 2 && eye_space < SEKI_MAX_EYE_SPACE {
            short.push((c, stones, neutral));
        }
    }
    // Mutual life needs both sides short of eyes: a group short of eyes whose neutral
    // liberties it shares only with groups that have two eyes is dead, not in seki (the
    // two-eyed side fills the shared liberties safely, "two eyes beat one").
    let mut seki = HashSet::new();
    for (c, stones, neutral) in &short {
        let mutual = short
            .iter()
            .any(|(d, _, theirs)| d != c && !neutral.is_disjoint(theirs));
        if mutual {
            seki.extend(stones.iter().copied());
        }
    }
    seki
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::go::{GoGame, GoRules};
    use crate::rules::Color;

    /// A 7x7 seki, for the tests here and the session's: black on columns A-C with one eye
    /// (A1), white on E-G with one eye (G7), column D empty and shared: whoever fills the
    /// last shared liberty is captured, so neither does. With `black_eyes_at_a7` black also
    /// has an eye at A7: two eyes against one, white is dead and there is no seki.
    pub(crate) fn seki_example(b: &GoBoard, black_eyes_at_a7: bool) -> Vec<(Point, Color)> {
        let mut stones = Vec::new();
        for y in 0..7 {
            for x in 0..7 {
                let black_eye = (x, y) == (0, 0) || (black_eyes_at_a7 && (x, y) == (0, 6));
                let c = match x {
                    0..=2 if !black_eye => Color::Black,
                    4.. if (x, y) != (6, 6) => Color::White,
                    _ => continue,
                };
                stones.push((b.point(x, y).unwrap(), c));
            }
        }
        stones
    }

    fn example(black_eyes_at_a7: bool) -> GoGame {
        let mut game = GoGame::new(7, 7, GoRules::default()).unwrap();
        let stones = seki_example(game.board(), black_eyes_at_a7);
        game.place_setup(&stones).unwrap();
        game
    }

    #[test]
    fn groups_with_one_eye_each_sharing_a_neutral_column_are_in_seki() {
        let game = example(false);
        let b = game.board();
        let seki = seki_stones(b, &HashSet::new());
        assert_eq!(seki.len(), 40);
        assert!(seki.contains(&b.point(4, 0).unwrap()));
        assert!(seki.contains(&b.point(1, 0).unwrap()));
        // With white's stones dead, nothing is in seki.
        let dead: HashSet<Point> = b
            .points()
            .filter(|&p| b.get(p) == Some(Color::White))
            .collect();
        assert!(seki_stones(b, &dead).is_empty());
    }

    #[test]
    fn one_eye_against_two_is_no_seki() {
        let game = example(true);
        assert!(seki_stones(game.board(), &HashSet::new()).is_empty());
    }

    #[test]
    fn groups_without_eyes_sharing_two_liberties_are_in_seki() {
        // Black fills A-C and D1-D3, white E-G and D6-D7; D4 and D5 are both groups' only
        // liberties.
        let black: Vec<String> = "ABC"
            .chars()
            .flat_map(|c| (1..=7).map(move |y| format!("{c}{y}")))
            .chain(["D1", "D2", "D3"].map(String::from))
            .collect();
        let white: Vec<String> = "EFG"
            .chars()
            .flat_map(|c| (1..=7).map(move |y| format!("{c}{y}")))
            .chain(["D6", "D7"].map(String::from))
            .collect();
        let game = crate::rules::go::game_with_stones(7, &black.join(" "), &white.join(" "));
        assert_eq!(seki_stones(game.board(), &HashSet::new()).len(), 47);
    }
}
