//! [`Rule`]: which line wins on an m,n,k board and which law restricts black, as a Gomocup
//! manager names it (`INFO rule`, `INFO rule_name`). The board reads the win condition
//! ([`Rule::exact_five`], [`Rule::caro`]); the forbidden points it names are
//! [`crate::rules::gomoku`]'s.

use crate::rules::Color;

/// The win condition in force, as named by the Gomocup `INFO rule` bitmask.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Rule {
    /// rule 0: five or more in a row wins.
    Freestyle,
    /// rule 1: exactly five wins; an overline does not.
    Standard,
    /// rule 4: black needs exactly five and may not play double three, double four or overline;
    /// white wins with five or more.
    Renju,
    /// rule 8: a five blocked by opponent stones at both ends does not win.
    Caro,
    /// rule 9: caro and exactly five.
    CaroStandard,
    /// No Gomocup number (`INFO rule_name no-double-three`): the rule of SEEDS 003
    /// (docs/sources.md), freestyle except that black may not make two open threes with one stone
    /// (see `rules::gomoku::three_three`).
    NoDoubleThree,
}

impl Rule {
    /// Every rule with a Gomocup number, freestyle (the default before any `INFO rule`) first.
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroStandard,
    ];
    /// The rule for a Gomocup `INFO rule` bitmask (bit 2, "continuous game", is accepted and
    /// ignored: the engine simply keeps answering moves). A bare 2 is renju: that is what
    /// Yixin-Board sends for renju, and Rapfi reads it so; Gomocup managers never send it.
    pub fn from_gomocup(mask: i64) -> Option<Rule> {
        if mask == 2 {
            return Some(Rule::Renju);
        }
        match mask & !2 {
            0 => Some(Rule::Freestyle),
            1 => Some(Rule::Standard),
            4 | 5 => Some(Rule::Renju),
            8 => Some(Rule::Caro),
            9 => Some(Rule::CaroStandard),
            _ => None,
        }
    }
    /// Every rule by name: the numbered ones, then those a manager must name.
    pub const NAMED: [Rule; 6] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroStandard,
        Rule::NoDoubleThree,
    ];
    /// The Gomocup bitmask for this rule (no-double-three has none and gives freestyle's 0: a
    /// manager must name it with `INFO rule_name`).
    pub fn gomocup_mask(self) -> u32 {
        match self {
            Rule::Freestyle | Rule::NoDoubleThree => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroStandard => 9,
        }
    }
    /// Whether a line longer than k fails to win for `color`.
    #[inline]
    pub fn exact_five(self, color: Color) -> bool {
        match self {
            Rule::Standard | Rule::CaroStandard => true,
            Rule::Renju => color == Color::Black,
            Rule::Freestyle | Rule::Caro | Rule::NoDoubleThree => false,
        }
    }
    /// Whether a five closed by opponent stones at both ends fails to win.
    #[inline]
    pub fn caro(self) -> bool {
        matches!(self, Rule::Caro | Rule::CaroStandard)
    }
    /// Whether black has renju's forbidden points.
    #[inline]
    pub fn renju(self) -> bool {
        self == Rule::Renju
    }
    /// Whether black has any forbidden points (renju's, or no-double-three's double threes).
    #[inline]
    pub fn restricts_black(self) -> bool {
        matches!(self, Rule::Renju | Rule::NoDoubleThree)
    }
    /// Short lower-case name, as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroStandard => "caro-standard",
            Rule::NoDoubleThree => "no-double-three",
        }
    }
    /// Parses a name as printed by [`Rule::name`] (or the Gomocup number).
    pub fn from_name(s: &str) -> Option<Rule> {
        match s.to_ascii_lowercase().as_str() {
            "freestyle" | "0" => Some(Rule::Freestyle),
            "standard" | "exact" | "1" => Some(Rule::Standard),
            "renju" | "4" => Some(Rule::Renju),
            "caro" | "8" => Some(Rule::Caro),
            "caro-standard" | "9" => Some(Rule::CaroStandard),
            "no-double-three" => Some(Rule::NoDoubleThree),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gomocup_rule_masks() {
        for rule in Rule::ALL {
            assert_eq!(Rule::from_gomocup(rule.gomocup_mask().into()), Some(rule));
        }
        // Yixin-Board's renju.
        assert_eq!(Rule::from_gomocup(2), Some(Rule::Renju));
        // The continuous-game bit beside another rule is ignored.
        assert_eq!(Rule::from_gomocup(3), Some(Rule::Standard));
        assert_eq!(Rule::from_gomocup(6), Some(Rule::Renju));
        assert_eq!(Rule::from_gomocup(10), Some(Rule::Caro));
        for bad in [-1, 16, 12, 32] {
            assert_eq!(Rule::from_gomocup(bad), None, "{bad}");
        }
    }
}
