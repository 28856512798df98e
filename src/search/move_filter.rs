//! Moves a search may not try in the first plies of its tree: the `avoid` and `allow` keys of
//! the GTP analysis commands (Leela Zero's and KataGo's `lz-analyze ... avoid b D4,Q16 1`).
//!
//! A rule names a colour, a set of moves (points or pass) and a depth: the tree's first move
//! is depth 1, the reply depth 2, and so on. An `avoid` rule forbids its moves to its colour
//! at every depth up to its own; an `allow` rule forbids every other move. A move is forbidden
//! when any rule forbids it, so rules combine by intersection. Past the deepest rule, and in
//! the playouts, every move is open again.

use crate::rules::go::GoMove;
use crate::rules::Color;

/// Whether a rule's moves are the only ones open or the ones closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterKind {
    Avoid,
    Allow,
}

/// One `avoid` or `allow` rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterRule {
    pub kind: FilterKind,
    pub color: Color,
    pub moves: Vec<GoMove>,
    /// The deepest ply (1 = the first move) the rule applies to.
    pub until_depth: u32,
}

/// The rules of one search; the default has none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveFilter {
    rules: Vec<FilterRule>,
}

/// A filter with no rule, for searches that have none.
pub static NO_FILTER: MoveFilter = MoveFilter { rules: Vec::new() };

impl MoveFilter {
    /// A filter of `rules`.
    pub fn new(rules: Vec<FilterRule>) -> MoveFilter {
        MoveFilter { rules }
    }

    /// Whether no move is ever forbidden.
    pub fn is_empty(&self) -> bool {
        self.rules.iter().all(|r| r.until_depth == 0)
    }

    /// The deepest ply any rule reaches (0 = none).
    pub fn depth(&self) -> u32 {
        self.rules.iter().map(|r| r.until_depth).max().unwrap_or(0)
    }

    /// Whether `color` may not play `mv` at ply `depth` (1 = the first move).
    pub fn forbids(&self, depth: u32, color: Color, mv: GoMove) -> bool {
        self.rules.iter().any(|r| {
            r.color == color
                && depth <= r.until_depth
                && match r.kind {
                    FilterKind::Avoid => r.moves.contains(&mv),
                    FilterKind::Allow => !r.moves.contains(&mv),
                }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::Point;

    fn at(p: u16) -> GoMove {
        GoMove::Play(Point(p))
    }

    #[test]
    fn rules_apply_to_their_colour_up_to_their_depth() {
        let f = MoveFilter::new(vec![
            FilterRule {
                kind: FilterKind::Avoid,
                color: Color::Black,
                moves: vec![at(11), GoMove::Pass],
                until_depth: 3,
            },
            FilterRule {
                kind: FilterKind::Allow,
                color: Color::White,
                moves: vec![at(12), at(13)],
                until_depth: 1,
            },
        ]);
        assert!(!f.is_empty());
        assert_eq!(f.depth(), 3);
        assert!(f.forbids(1, Color::Black, at(11)));
        assert!(f.forbids(3, Color::Black, GoMove::Pass));
        assert!(!f.forbids(4, Color::Black, at(11)));
        assert!(!f.forbids(1, Color::Black, at(12)));
        // White: only 12 and 13 at the first ply, anything later.
        assert!(!f.forbids(1, Color::White, at(12)));
        assert!(f.forbids(1, Color::White, at(11)));
        assert!(f.forbids(1, Color::White, GoMove::Pass));
        assert!(!f.forbids(2, Color::White, at(11)));
        // Nothing is forbidden without rules.
        let none = MoveFilter::default();
        assert!(none.is_empty());
        assert_eq!(none.depth(), 0);
        assert!(!none.forbids(1, Color::Black, at(11)));
    }

    #[test]
    fn rules_of_one_colour_intersect() {
        let rule = |kind, moves: &[u16]| FilterRule {
            kind,
            color: Color::Black,
            moves: moves.iter().map(|&p| at(p)).collect(),
            until_depth: 1,
        };
        let f = MoveFilter::new(vec![
            rule(FilterKind::Allow, &[11, 12, 13]),
            rule(FilterKind::Avoid, &[12]),
        ]);
        assert!(!f.forbids(1, Color::Black, at(11)));
        assert!(f.forbids(1, Color::Black, at(12)));
        assert!(f.forbids(1, Color::Black, at(14)));
    }
}
