//! KataGo's rules dialect on GTP (`kata-set-rules`, `kata-set-rule`, `kata-get-rules`): the
//! JSON object and the one-option form read into [`KataRules`], and the JSON written back, with
//! KataGo's spelling of each value. Text only: what the rules mean is
//! [`crate::rules::go::kata_rules`]'s.

use crate::rules::go::kata_rules::{
    word_for, KataRules, KataTax, RuleOption, BONUS_WORDS, KO_WORDS, SCORING_WORDS, TAX_WORDS,
};
use crate::rules::go::Scoring;

/// One rules option (a key of KataGo's JSON, or `kata-set-rule`'s two arguments): key and value
/// in any case, flags written `true` or `false`. `komi` is refused, as KataGo refuses it here
/// (komi has its own command), and so is any other key.
pub fn parse_rule_option(key: &str, value: &str) -> Result<RuleOption, String> {
    fn pick<T: Copy>(words: &[(T, &str)], key: &str, value: &str) -> Result<T, String> {
        words
            .iter()
            .find(|(_, w)| w.eq_ignore_ascii_case(value))
            .map(|&(v, _)| v)
            .ok_or_else(|| {
                let expected: Vec<&str> = words.iter().map(|&(_, w)| w).collect();
                format!(
                    "\"{key}\": \"{value}\" is not one of {}",
                    expected.join(", ")
                )
            })
    }
    let flag = || pick(&[(true, "TRUE"), (false, "FALSE")], key, value);
    Ok(match key.to_ascii_lowercase().as_str() {
        "ko" => RuleOption::Ko(pick(KO_WORDS, key, value)?),
        "scoring" | "score" => RuleOption::Scoring(pick(SCORING_WORDS, key, value)?),
        "tax" => RuleOption::Tax(pick(TAX_WORDS, key, value)?),
        "whitehandicapbonus" => RuleOption::WhiteHandicapBonus(pick(BONUS_WORDS, key, value)?),
        "suicide" => RuleOption::Suicide(flag()?),
        "hasbutton" => RuleOption::HasButton(flag()?),
        "friendlypassok" => RuleOption::FriendlyPassOk(flag()?),
        "komi" => {
            return Err(
                "komi is not a rules option here, as in KataGo: use the komi command".to_string(),
            )
        }
        _ => return Err(format!("unknown rules option \"{key}\"")),
    })
}

/// KataGo's JSON form of a rule set, as its `rules.cpp` reads it: an object whose keys (any
/// subset, in any order) change Tromp-Taylor; `tax` defaults to `SEKI` under territory scoring
/// and `NONE` under area scoring when not given. `komi` is refused, as KataGo refuses it here
/// (komi has its own command), and so is any other key. Values are matched in any case.
pub fn parse_kata_rules_json(text: &str) -> Result<KataRules, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("rules are not valid JSON: {e}"))?;
    let serde_json::Value::Object(map) = value else {
        return Err("rules JSON must be an object".to_string());
    };
    let mut r = KataRules::TROMP_TAYLOR;
    let mut tax_given = false;
    for (key, v) in &map {
        let text = match v {
            serde_json::Value::String(t) => t.clone(),
            serde_json::Value::Bool(b) => b.to_string(),
            _ => return Err(format!("\"{key}\" must be a string, true or false")),
        };
        let option = parse_rule_option(key, &text)?;
        tax_given |= matches!(option, RuleOption::Tax(_));
        r = option.applied_to(r);
    }
    if !tax_given {
        r.tax = match r.scoring {
            Scoring::Territory => KataTax::Seki,
            Scoring::Area => KataTax::None,
        };
    }
    Ok(r)
}

/// `kata-get-rules`' answer: KataGo's JSON object, keys in alphabetical order as KataGo prints
/// them, komi left out as KataGo leaves it out.
pub fn format_kata_rules(r: &KataRules) -> String {
    let ko = word_for(KO_WORDS, &r.ko);
    let scoring = word_for(SCORING_WORDS, &r.scoring);
    let tax = word_for(TAX_WORDS, &r.tax);
    let bonus = word_for(BONUS_WORDS, &r.white_handicap_bonus);
    serde_json::json!({
        "friendlyPassOk": r.friendly_pass_ok,
        "hasButton": r.has_button,
        "ko": ko,
        "scoring": scoring,
        "suicide": r.suicide,
        "tax": tax,
        "whiteHandicapBonus": bonus,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::kata_rules::KataKo;

    #[test]
    fn kata_rules_json() {
        use crate::rules::go::kata_rules::KataRules;
        let tt = KataRules::TROMP_TAYLOR;
        assert_eq!(parse_kata_rules_json("{}"), Ok(tt));
        // Every key, in any order and case of value; the documented examples read back.
        for name in [
            "tromp-taylor",
            "chinese",
            "japanese",
            "aga",
            "new-zealand",
            "aga-button",
        ] {
            let r = KataRules::named(name).unwrap();
            let text = format_kata_rules(&r);
            assert_eq!(parse_kata_rules_json(&text), Ok(r), "{name}: {text}");
        }
        let r = parse_kata_rules_json(r#"{"score":"territory","ko":"simple"}"#).unwrap();
        assert_eq!(
            (r.scoring, r.ko, r.tax),
            (Scoring::Territory, KataKo::Simple, KataTax::Seki)
        );
        let r = parse_kata_rules_json(r#"{"scoring":"TERRITORY","tax":"NONE"}"#).unwrap();
        assert_eq!(r.tax, KataTax::None, "a given tax wins");
        for bad in [
            "[]",
            "\"chinese\"",
            "{\"ko\":true}",
            "{\"ko\":\"SUPER\"}",
            "{\"suicide\":1}",
            "{\"whiteHandicapBonus\":\"2\"}",
            "{\"komi\":7.5}",
            "{\"button\":false}",
            "{\"ko\":\"SIMPLE\"",
        ] {
            assert!(parse_kata_rules_json(bad).is_err(), "{bad}");
        }
        assert_eq!(
            format_kata_rules(&KataRules::named("japanese").unwrap()),
            r#"{"friendlyPassOk":true,"hasButton":false,"ko":"SIMPLE","scoring":"TERRITORY","suicide":false,"tax":"SEKI","whiteHandicapBonus":"0"}"#
        );
    }
}
