//! The defence points of a position (Yixin-Board's `YXSEARCHDEFEND`): whether the opponent
//! would win by fours or threats (VCF, then VCT) if the side to move passed, and, when it
//! would, which of the side to move's candidate moves stop that win: the moves after which
//! neither the opponent's VCF nor its VCT finds a win. The search that then picks among them
//! is the caller's.

use crate::eval::gomoku::patterns::PatternBoard;
use crate::rules::Pos;
use crate::search::clock::TimeManager;
use crate::search::threats::{forbidden_for, Threats};

/// Deepest chain of fours the opponent's VCF follows (attacker moves), as at the search's root.
pub const VCF_PLIES: u32 = 24;

/// What [`defences`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Defence {
    /// The opponent's win if the side to move passed: its first move (`None`: nothing to
    /// defend, and the lists below are empty).
    pub threat: Option<Pos>,
    /// Candidate moves after which the opponent's threat search finds no win.
    pub holds: Vec<Pos>,
    /// Candidate moves after which the opponent still wins.
    pub loses: Vec<Pos>,
    /// Candidate moves whose check ran out of nodes or time (not proven either way).
    pub unknown: Vec<Pos>,
}

/// The opponent's winning first move in `pb` if the side to move passed, by VCF then VCT
/// (`vct_depth` attacker moves), each with `budget` nodes.
fn opponent_win(
    pb: &mut PatternBoard,
    threats: &mut Threats,
    vct_depth: u32,
    budget: u64,
    tm: &TimeManager<'_>,
) -> Option<Pos> {
    if let Some(line) = threats.vcf.find(pb, VCF_PLIES, budget, tm) {
        return line.first().copied();
    }
    threats.vct.find(pb, vct_depth, budget, tm).map(|(p, _)| p)
}

/// The side to move's defences in `pb` (see the module notes): every legal candidate move
/// (empty, near a stone, not forbidden to the mover) is checked with `per_move` nodes for each
/// of the opponent's two searches, until `tm` says stop (the rest are then unknown).
pub fn defences(
    pb: &PatternBoard,
    threats: &mut Threats,
    vct_depth: u32,
    per_move: u64,
    tm: &TimeManager<'_>,
) -> Defence {
    let mut pb = pb.clone();
    let me = pb.to_move();
    pb.set_to_move(me.opponent());
    let threat = opponent_win(&mut pb, threats, vct_depth, per_move * 4, tm);
    let mut spent = threats.vcf.nodes() + threats.vct.nodes();
    pb.set_to_move(me);
    let Some(threat) = threat else {
        return Defence::default();
    };
    let candidates: Vec<Pos> = pb.candidates().collect();
    let mut out = Defence {
        threat: Some(threat),
        ..Defence::default()
    };
    for p in candidates {
        if forbidden_for(&mut pb, me, p) {
            continue;
        }
        // A node budget (`--nodes`) bounds the whole analysis, as a clock does.
        if tm.should_stop(spent) {
            out.unknown.push(p);
            continue;
        }
        pb.play(p);
        let wins = opponent_win(&mut pb, threats, vct_depth, per_move, tm).is_some();
        spent += threats.vcf.nodes() + threats.vct.nodes();
        let aborted = threats.vcf.aborted() || threats.vct.aborted();
        pb.undo();
        if wins {
            out.loses.push(p);
        } else if aborted {
            out.unknown.push(p);
        } else {
            out.holds.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Rule};
    use crate::search::clock::SearchLimit;
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;

    fn board(moves: &[(i64, i64)]) -> Board {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for &(x, y) in moves {
            b.play(b.pos(x, y).unwrap()).unwrap();
        }
        b
    }

    fn defend(b: &Board) -> Defence {
        let stop = AtomicBool::new(false);
        let tm = TimeManager::new(&SearchLimit::default(), Instant::now(), &stop);
        let pb = PatternBoard::new(b);
        defences(&pb, &mut Threats::new(1 << 16), 8, 20_000, &tm)
    }

    #[test]
    fn an_open_three_is_defended_at_its_ends() {
        // Black has an open three 5..7 on row 7; white (to move) must answer it.
        let b = board(&[(5, 7), (0, 0), (6, 7), (14, 0), (7, 7)]);
        let d = defend(&b);
        assert!(d.threat.is_some(), "{d:?}");
        let names: Vec<(usize, usize)> = d.holds.iter().map(|&p| b.xy(p)).collect();
        for end in [(4, 7), (8, 7)] {
            assert!(names.contains(&end), "{end:?} not in {names:?}");
        }
        // A move far from the three does not stop it.
        let far = b.pos(5, 9).unwrap();
        assert!(d.loses.contains(&far), "{d:?}");
        assert!(!d.holds.iter().any(|&p| b.xy(p).1 > 9));
    }

    #[test]
    fn nothing_to_defend_is_an_empty_answer() {
        let b = board(&[(7, 7), (0, 0)]);
        assert_eq!(defend(&b), Defence::default());
    }
}
