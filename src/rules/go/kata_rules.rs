//! KataGo's rule space, as its GTP extensions name it (`kata-get-rules`, `kata-set-rules`,
//! `kata-set-rule`, `kgs-rules`; KataGo `docs/GTP_Extensions.md` and `cpp/game/rules.cpp`), and
//! how it maps onto our [`GoRules`]. A [`RuleOption`] is one field with its value.
//!
//! A [`KataRules`] holds every field KataGo's JSON has (`ko`, `scoring`, `tax`, `suicide`,
//! `hasButton`, `whiteHandicapBonus`, `friendlyPassOk`); komi is not part of it, because KataGo
//! neither prints nor changes komi with these commands. [`KataRules::named`] knows KataGo's
//! shorthand names. [`KataRules::to_go_rules`] keeps what we can play and refuses the rest
//! (button Go, `tax ALL`, Spight ko) with a message naming it; [`KataRules::of`] describes our
//! rules back in KataGo's terms.
//!
//! One difference stays: KataGo's `suicide true` makes multi-stone suicide legal and never
//! single-stone suicide; ours makes both legal. Under positional superko (Tromp-Taylor) a
//! single-stone suicide repeats the position and is illegal anyway; under simple ko or
//! situational superko (New Zealand) we allow it, as the New Zealand rules' text does.

use super::{GoRules, HandicapBonus, KoRule, Scoring, Tax};

/// KataGo's ko rules; `Spight` is one we do not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KataKo {
    Simple,
    Positional,
    Situational,
    Spight,
}

/// KataGo's tax rules; `All` (every group pays up to two points for its eyes) is one we do not
/// have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KataTax {
    None,
    Seki,
    All,
}

/// A rule set in KataGo's terms, komi left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KataRules {
    pub ko: KataKo,
    pub scoring: Scoring,
    pub tax: KataTax,
    /// Multi-stone suicide is legal.
    pub suicide: bool,
    pub has_button: bool,
    pub white_handicap_bonus: HandicapBonus,
    pub friendly_pass_ok: bool,
}

/// One field of a [`KataRules`] with its new value: what `kata-set-rule KEY VALUE` changes, and
/// what each key of `kata-set-rules`' JSON sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleOption {
    Ko(KataKo),
    Scoring(Scoring),
    Tax(KataTax),
    Suicide(bool),
    HasButton(bool),
    WhiteHandicapBonus(HandicapBonus),
    FriendlyPassOk(bool),
}

impl RuleOption {
    /// `rules` with this field changed and the others as they were.
    pub fn applied_to(self, rules: KataRules) -> KataRules {
        let mut r = rules;
        match self {
            RuleOption::Ko(ko) => r.ko = ko,
            RuleOption::Scoring(scoring) => r.scoring = scoring,
            RuleOption::Tax(tax) => r.tax = tax,
            RuleOption::Suicide(on) => r.suicide = on,
            RuleOption::HasButton(on) => r.has_button = on,
            RuleOption::WhiteHandicapBonus(bonus) => r.white_handicap_bonus = bonus,
            RuleOption::FriendlyPassOk(on) => r.friendly_pass_ok = on,
        }
        r
    }
}

/// The shorthand names of `kata-set-rules` (GTP_Extensions.md lists them; rules.cpp accepts
/// the spellings with `-`, `_`, a space or nothing between the words, in any case).
pub const RULE_NAMES: &[&str] = &[
    "tromp-taylor",
    "chinese",
    "chinese-ogs",
    "chinese-kgs",
    "japanese",
    "korean",
    "stone-scoring",
    "aga",
    "bga",
    "french",
    "new-zealand",
    "aga-button",
];

impl KataRules {
    /// What KataGo starts a JSON rule set from: Tromp-Taylor.
    pub const TROMP_TAYLOR: KataRules = KataRules {
        ko: KataKo::Positional,
        scoring: Scoring::Area,
        tax: KataTax::None,
        suicide: true,
        has_button: false,
        white_handicap_bonus: HandicapBonus::Zero,
        friendly_pass_ok: false,
    };

    /// The rule set of a KataGo shorthand name (see [`RULE_NAMES`]); `None` for a name KataGo
    /// does not know.
    pub fn named(name: &str) -> Option<KataRules> {
        let key: String = name
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .flat_map(char::to_lowercase)
            .collect();
        let area = |ko, whb| KataRules {
            ko,
            white_handicap_bonus: whb,
            suicide: false,
            friendly_pass_ok: true,
            ..KataRules::TROMP_TAYLOR
        };
        Some(match key.as_str() {
            "tromptaylor" => KataRules::TROMP_TAYLOR,
            "chinese" => area(KataKo::Simple, HandicapBonus::N),
            "chineseogs" | "chinesekgs" => area(KataKo::Positional, HandicapBonus::N),
            "japanese" | "korean" => KataRules {
                scoring: Scoring::Territory,
                tax: KataTax::Seki,
                ..area(KataKo::Simple, HandicapBonus::Zero)
            },
            "stonescoring" | "ancientarea" => KataRules {
                tax: KataTax::All,
                ..area(KataKo::Simple, HandicapBonus::Zero)
            },
            "aga" | "bga" | "french" => area(KataKo::Situational, HandicapBonus::NMinusOne),
            "newzealand" | "nz" => KataRules {
                suicide: true,
                ..area(KataKo::Situational, HandicapBonus::Zero)
            },
            "agabutton" => KataRules {
                has_button: true,
                ..area(KataKo::Situational, HandicapBonus::NMinusOne)
            },
            _ => return None,
        })
    }

    /// The rule set kgsGtp's `kgs-rules` names (`japanese`, `chinese`, `aga`, `new_zealand`);
    /// as in KataGo, `chinese` is `chinese-kgs` (positional superko, KGS's written rule).
    pub fn kgs(name: &str) -> Option<KataRules> {
        match name.to_ascii_lowercase().as_str() {
            "chinese" => KataRules::named("chinese-kgs"),
            n @ ("japanese" | "aga" | "new_zealand") => KataRules::named(n),
            _ => None,
        }
    }

    /// Our rules in KataGo's terms. Komi is left out; our suicide rule is reported as
    /// KataGo's (see the module notes).
    pub fn of(rules: &GoRules) -> KataRules {
        KataRules {
            ko: match rules.ko {
                KoRule::Simple => KataKo::Simple,
                KoRule::PositionalSuperko => KataKo::Positional,
                KoRule::SituationalSuperko => KataKo::Situational,
            },
            scoring: rules.scoring,
            tax: match rules.tax {
                Tax::None => KataTax::None,
                Tax::Seki => KataTax::Seki,
            },
            suicide: rules.suicide,
            has_button: false,
            white_handicap_bonus: rules.handicap_bonus,
            friendly_pass_ok: rules.friendly_pass,
        }
    }

    /// These rules with `komi`, or why we cannot play them (every field we lack is named).
    pub fn to_go_rules(self, komi: f32) -> Result<GoRules, String> {
        let mut lacking = Vec::new();
        if self.has_button {
            lacking.push("button Go (hasButton true)");
        }
        if self.tax == KataTax::All {
            lacking.push("the eye tax of stone scoring (tax ALL)");
        }
        if self.ko == KataKo::Spight {
            lacking.push("Spight's ko rule (ko SPIGHT)");
        }
        if !lacking.is_empty() {
            return Err(format!(
                "rules not supported: sente cannot play {}; rules unchanged",
                lacking.join(", ")
            ));
        }
        Ok(GoRules {
            komi,
            ko: match self.ko {
                KataKo::Simple => KoRule::Simple,
                KataKo::Positional | KataKo::Spight => KoRule::PositionalSuperko,
                KataKo::Situational => KoRule::SituationalSuperko,
            },
            scoring: self.scoring,
            suicide: self.suicide,
            tax: match self.tax {
                KataTax::Seki => Tax::Seki,
                KataTax::None | KataTax::All => Tax::None,
            },
            handicap_bonus: self.white_handicap_bonus,
            friendly_pass: self.friendly_pass_ok,
        })
    }
}

/// KataGo's spelling of each rule value: what GTP's rule commands read and print, and the
/// compact `RU` form of game records.
pub const KO_WORDS: &[(KataKo, &str)] = &[
    (KataKo::Simple, "SIMPLE"),
    (KataKo::Positional, "POSITIONAL"),
    (KataKo::Situational, "SITUATIONAL"),
    (KataKo::Spight, "SPIGHT"),
];
pub const SCORING_WORDS: &[(Scoring, &str)] =
    &[(Scoring::Area, "AREA"), (Scoring::Territory, "TERRITORY")];
pub const TAX_WORDS: &[(KataTax, &str)] = &[
    (KataTax::None, "NONE"),
    (KataTax::Seki, "SEKI"),
    (KataTax::All, "ALL"),
];
pub const BONUS_WORDS: &[(HandicapBonus, &str)] = &[
    (HandicapBonus::Zero, "0"),
    (HandicapBonus::NMinusOne, "N-1"),
    (HandicapBonus::N, "N"),
];

/// The word `words` gives `v`.
pub fn word_for<T: PartialEq>(words: &[(T, &'static str)], v: &T) -> &'static str {
    words
        .iter()
        .find(|(w, _)| w == v)
        .map(|&(_, word)| word)
        .expect("every value has a word")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_name_is_known_in_every_spelling() {
        for name in RULE_NAMES {
            let r = KataRules::named(name).unwrap_or_else(|| panic!("{name}"));
            let squashed = name.replace('-', "");
            assert_eq!(KataRules::named(&squashed.to_uppercase()), Some(r));
            assert_eq!(KataRules::named(&name.replace('-', "_")), Some(r));
        }
        assert_eq!(
            KataRules::named("Tromp Taylor"),
            KataRules::named("tromp-taylor")
        );
        assert_eq!(KataRules::named("ing"), None, "not in our table");
        assert_eq!(KataRules::named(""), None);
        assert_eq!(KataRules::named("{}"), None);
    }

    #[test]
    fn names_map_as_the_katago_docs_list_them() {
        let go = |name: &str| KataRules::named(name).unwrap().to_go_rules(7.5);
        let tt = go("tromp-taylor").unwrap();
        assert_eq!(
            (tt.ko, tt.scoring, tt.suicide, tt.friendly_pass),
            (KoRule::PositionalSuperko, Scoring::Area, true, false)
        );
        let chinese = go("chinese").unwrap();
        assert_eq!(
            (chinese.ko, chinese.handicap_bonus, chinese.suicide),
            (KoRule::Simple, HandicapBonus::N, false)
        );
        assert_eq!(go("chinese-kgs").unwrap().ko, KoRule::PositionalSuperko);
        let japanese = go("japanese").unwrap();
        assert_eq!(
            (japanese.scoring, japanese.tax, japanese.handicap_bonus),
            (Scoring::Territory, Tax::Seki, HandicapBonus::Zero)
        );
        assert_eq!(go("korean"), go("japanese"));
        let aga = go("aga").unwrap();
        assert_eq!(
            (aga.ko, aga.handicap_bonus),
            (KoRule::SituationalSuperko, HandicapBonus::NMinusOne)
        );
        assert_eq!(go("bga"), go("aga"));
        let nz = go("new-zealand").unwrap();
        assert_eq!((nz.ko, nz.suicide), (KoRule::SituationalSuperko, true));
        assert_eq!(go("chinese").unwrap().komi, 7.5, "komi is the caller's");
        let button = go("aga-button").unwrap_err();
        assert!(button.contains("hasButton"), "{button}");
        let stones = go("stone-scoring").unwrap_err();
        assert!(stones.contains("tax ALL"), "{stones}");
    }

    #[test]
    fn kgs_names() {
        assert_eq!(KataRules::kgs("chinese"), KataRules::named("chinese-kgs"));
        assert_eq!(KataRules::kgs("JAPANESE"), KataRules::named("japanese"));
        assert_eq!(
            KataRules::kgs("new_zealand"),
            KataRules::named("new-zealand")
        );
        assert_eq!(KataRules::kgs("aga"), KataRules::named("aga"));
        assert_eq!(
            KataRules::kgs("new-zealand"),
            None,
            "kgsGtp spells it new_zealand"
        );
        assert_eq!(KataRules::kgs("tromp-taylor"), None);
    }

    #[test]
    fn our_rules_round_trip_through_katago_terms() {
        let ours = GoRules::default();
        let kata = KataRules::of(&ours);
        assert_eq!(
            kata,
            KataRules::named("chinese-kgs")
                .map(|r| KataRules {
                    white_handicap_bonus: HandicapBonus::Zero,
                    ..r
                })
                .unwrap()
        );
        assert_eq!(kata.to_go_rules(ours.komi), Ok(ours));
        for name in ["tromp-taylor", "chinese", "japanese", "aga", "new-zealand"] {
            let r = KataRules::named(name).unwrap();
            assert_eq!(KataRules::of(&r.to_go_rules(6.5).unwrap()), r, "{name}");
        }
    }

    #[test]
    fn every_field_we_lack_is_named_at_once() {
        let r = KataRules {
            has_button: true,
            tax: KataTax::All,
            ko: KataKo::Spight,
            ..KataRules::TROMP_TAYLOR
        };
        let e = r.to_go_rules(7.5).unwrap_err();
        for what in ["hasButton", "tax ALL", "SPIGHT", "unchanged"] {
            assert!(e.contains(what), "{e}");
        }
    }
}
