//! Which live groups are in seki, judged from the board and the dead stones: a live group that
//! touches a neutral empty region (one bordered by live stones of both colours) and owns fewer
//! than two eye regions with less than [`SEKI_MAX_EYE_SPACE`] points in all. Exact once the
//! dame are filled, an estimate before. `final_status_list seki` lists these groups and the
//! seki tax ([`super::score::score_detail_taxed`]) spares their regions.

use std::collections::{HashMap, HashSet};

use super::board::{GoBoard, Point};

/// A live group with this much eye space or more is never counted as seki.
pub const SEKI_MAX_EYE_SPACE: usize = 7;

/// The stones of live groups in seki: live groups (not in `dead`) that touch a neutral empty
/// region and own fewer than two eye regions with less than [`SEKI_MAX_EYE_SPACE`] points in all.
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
    let mut seki = HashSet::new();
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
        let neutral = touching.iter().any(|&r| regions[r].1 == [true, true]);
        let own: Vec<usize> = touching
            .iter()
            .filter(|&&r| regions[r].1[c.index()] && !regions[r].1[c.opponent().index()])
            .map(|&r| regions[r].0)
            .collect();
        let eye_space: usize = own.iter().sum();
        if neutral && own.len() < 2 && eye_space < SEKI_MAX_EYE_SPACE {
            seki.extend(stones);
        }
    }
    seki
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::go::{GoGame, GoRules};
    use crate::rules::Color;

    /// A 7x7 seki, for the tests here and the session's: black on columns A-C with eyes at A1
    /// and A7 (alive), white on E-G with one eye (G7), column D empty and shared.
    pub(crate) fn seki_example(b: &GoBoard) -> Vec<(Point, Color)> {
        let mut stones = Vec::new();
        for y in 0..7 {
            for x in 0..7 {
                let c = match x {
                    0..=2 if (x, y) != (0, 0) && (x, y) != (0, 6) => Color::Black,
                    4.. if (x, y) != (6, 6) => Color::White,
                    _ => continue,
                };
                stones.push((b.point(x, y).unwrap(), c));
            }
        }
        stones
    }

    #[test]
    fn a_group_with_one_eye_sharing_a_neutral_column_is_in_seki() {
        // Black on columns A-C with eyes at A1 and A7: alive. White on E-G with one eye (G7)
        // and the shared empty column D: seki.
        let mut game = GoGame::new(7, 7, GoRules::default()).unwrap();
        let stones = seki_example(game.board());
        game.place_setup(&stones).unwrap();
        let b = game.board();
        let seki = seki_stones(b, &HashSet::new());
        assert_eq!(seki.len(), 20);
        assert!(seki.contains(&b.point(4, 0).unwrap()));
        assert!(!seki.contains(&b.point(1, 0).unwrap()));
        // With white's stones dead, nothing is in seki.
        let dead: HashSet<Point> = b
            .points()
            .filter(|&p| b.get(p) == Some(Color::White))
            .collect();
        assert!(seki_stones(b, &dead).is_empty());
    }
}
