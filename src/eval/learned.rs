//! Learned gomoku evaluation: tables fitted to self-play data (`sente train`), one versioned
//! weights file per rule family under `weights/`, embedded in the binary.
//!
//! The model reads what [`PatternBoard`](super::patterns::PatternBoard) already keeps per empty
//! cell and colour: the four line patterns (one per direction), taken as an unordered
//! combination (a "code": 1001 of them, since 4 patterns out of 11 values with repetition).
//! - value: every empty cell adds `mine[code of the side to move there]` and
//!   `theirs[code of the other side there]`, plus a bias; this replaces the hand-set line
//!   sum of the static evaluation, whose threat terms stay (see `PatternBoard::evaluate`). With
//!   `mine = sum of PATTERN_VALUE`, `theirs = -mine` and bias 0 it is the hand evaluation.
//! - policy: a move's score is `attack[its code for the mover] + defend[its code for the
//!   other side]` (fitted to the search's chosen moves; reported by the trainer, stored for
//!   move ordering).
//!
//! Tables are per colour (black then white); rule families where colours are alike store the
//! same values twice.
//!
//! File format (little-endian):
//! ```text
//! "SENTEWT1"                    8 bytes, the version
//! u32 n, n bytes UTF-8          provenance: `key=value` lines (rule=, command=, seed=, ...)
//! i16 x 1001 x 8                value mine, value theirs, policy attack, policy defend; black,
//!                               then the same four for white
//! i32 x 2                       value bias for black to move, for white to move
//! u64                           FNV-1a 64 of every byte before it
//! ```

use std::sync::OnceLock;

use crate::rules::Rule;

/// The version tag every weights file starts with.
pub const MAGIC: &[u8; 8] = b"SENTEWT1";
/// Unordered combinations of four line patterns (11 values each).
pub const CODES: usize = 1001;
/// Line-pattern values (see `patterns::PATTERN_COUNT`).
const PATTERNS: usize = 11;
/// Raw codes: the four directions' patterns as base-11 digits, as `PatternBoard::code` reads.
pub const RAW_CODES: usize = PATTERNS * PATTERNS * PATTERNS * PATTERNS;

/// The tables of one file, in the order they are stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// `key=value` provenance lines; `rule` names the rule family.
    pub provenance: String,
    /// `[colour][table][code]`: tables value-mine, value-theirs, policy-attack, policy-defend.
    pub tables: Vec<[[i16; CODES]; 4]>,
    /// Value bias with black, white to move.
    pub bias: [i32; 2],
}

pub const VALUE_MINE: usize = 0;
pub const VALUE_THEIRS: usize = 1;
pub const POLICY_ATTACK: usize = 2;
pub const POLICY_DEFEND: usize = 3;

/// 64-bit FNV-1a.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Weights {
    /// The value of provenance key `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.provenance.lines().find_map(|l| {
            l.split_once('=')
                .filter(|(k, _)| k.trim() == key)
                .map(|(_, v)| v.trim())
        })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + 4 + self.provenance.len() + 2 * CODES * 8 * 2 + 16);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.provenance.len() as u32).to_le_bytes());
        out.extend_from_slice(self.provenance.as_bytes());
        for colour in &self.tables {
            for table in colour {
                for v in table {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        for b in self.bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a weights file, refusing a wrong version, length or checksum.
    pub fn parse(bytes: &[u8]) -> Result<Weights, String> {
        if bytes.len() < MAGIC.len() + 4 + 8 || &bytes[..8] != MAGIC {
            return Err("not a sente weights file (version SENTEWT1)".into());
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
        if fnv1a(body) != stored {
            return Err("weights checksum mismatch (corrupt file)".into());
        }
        let n = u32::from_le_bytes(body[8..12].try_into().expect("4 bytes")) as usize;
        let want = 12 + n + 2 * 4 * CODES * 2 + 2 * 4;
        if body.len() != want {
            return Err(format!(
                "weights file is {} bytes, expected {}",
                bytes.len(),
                want + 8
            ));
        }
        let provenance = std::str::from_utf8(&body[12..12 + n])
            .map_err(|_| "provenance is not UTF-8".to_string())?
            .to_string();
        let mut at = 12 + n;
        let mut tables = vec![[[0i16; CODES]; 4]; 2];
        for colour in tables.iter_mut() {
            for table in colour.iter_mut() {
                for v in table.iter_mut() {
                    *v = i16::from_le_bytes([body[at], body[at + 1]]);
                    at += 2;
                }
            }
        }
        let mut bias = [0i32; 2];
        for b in bias.iter_mut() {
            *b = i32::from_le_bytes(body[at..at + 4].try_into().expect("4 bytes"));
            at += 4;
        }
        Ok(Weights {
            provenance,
            tables,
            bias,
        })
    }

    /// The checksum stored at the end of the file's bytes.
    pub fn checksum(&self) -> u64 {
        let bytes = self.to_bytes();
        u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"))
    }
}

/// The unordered code of a raw code (four base-11 digits, one per direction).
pub fn canonical(raw: usize) -> usize {
    static MAP: OnceLock<Vec<u16>> = OnceLock::new();
    MAP.get_or_init(|| {
        // Rank of each sorted combination, in the order first met.
        let mut rank = std::collections::HashMap::new();
        (0..RAW_CODES)
            .map(|i| {
                let mut p = [i / 1331, i / 121 % 11, i / 11 % 11, i % 11];
                p.sort_unstable();
                let next = rank.len() as u16;
                *rank.entry(p).or_insert(next)
            })
            .collect()
    })
    .get(raw)
    .map_or(0, |&c| c as usize)
}

/// The four patterns of an unordered code, ascending (inverse of [`canonical`]).
pub fn patterns_of(code: usize) -> [usize; 4] {
    static INV: OnceLock<Vec<[usize; 4]>> = OnceLock::new();
    INV.get_or_init(|| {
        let mut inv = vec![[0; 4]; CODES];
        for i in 0..RAW_CODES {
            let mut p = [i / 1331, i / 121 % 11, i / 11 % 11, i % 11];
            p.sort_unstable();
            inv[canonical(i)] = p;
        }
        inv
    })[code]
}

/// What the pattern board needs at run time: per colour, one entry per raw code (indexed by
/// the 16-bit code, so no bounds check) holding `mine + theirs * 2^32`, so that a sum of
/// entries keeps both sums exactly (the low 32 bits read as `i32` are the sum of `mine`;
/// see [`unpack`]).
pub struct ValueTables {
    pub packed: [Box<[i64; 1 << 16]>; 2],
    pub bias: [i32; 2],
}

/// The (mine, theirs) sums of a packed sum.
#[inline]
pub fn unpack(sum: i64) -> (i32, i32) {
    let mine = sum as i32;
    (mine, ((sum - mine as i64) >> 32) as i32)
}

impl ValueTables {
    pub fn new(w: &Weights) -> ValueTables {
        let packed = [0, 1].map(|c| {
            let mut t: Box<[i64; 1 << 16]> = vec![0i64; 1 << 16]
                .into_boxed_slice()
                .try_into()
                .expect("65536 entries");
            for (raw, entry) in t.iter_mut().enumerate().take(RAW_CODES) {
                let code = canonical(raw);
                let tables = &w.tables[c];
                *entry =
                    tables[VALUE_MINE][code] as i64 + ((tables[VALUE_THEIRS][code] as i64) << 32);
            }
            t
        });
        ValueTables {
            packed,
            bias: w.bias,
        }
    }
}

/// The move policy at run time: per mover colour, `attack` indexed by the mover's raw code at a
/// point and `defend` by the other side's raw code there (16-bit indices, so no bounds check);
/// a move's score is their sum, in the trainer's units (logits x 100).
pub struct PolicyTables {
    attack: [Box<[i16; 1 << 16]>; 2],
    defend: [Box<[i16; 1 << 16]>; 2],
}

impl PolicyTables {
    pub fn new(w: &Weights) -> PolicyTables {
        let table = |c: usize, t: usize| {
            let mut out: Box<[i16; 1 << 16]> = vec![0i16; 1 << 16]
                .into_boxed_slice()
                .try_into()
                .expect("65536 entries");
            for (raw, entry) in out.iter_mut().enumerate().take(RAW_CODES) {
                *entry = w.tables[c][t][canonical(raw)];
            }
            out
        };
        PolicyTables {
            attack: [0, 1].map(|c| table(c, POLICY_ATTACK)),
            defend: [0, 1].map(|c| table(c, POLICY_DEFEND)),
        }
    }

    /// The policy score of a point for mover colour index `mover`, given the mover's and the
    /// other side's raw codes there (as `PatternBoard::code` reads them).
    #[inline]
    pub fn score(&self, mover: usize, mine: usize, theirs: usize) -> i32 {
        self.attack[mover & 1][mine & 0xFFFF] as i32
            + self.defend[mover & 1][theirs & 0xFFFF] as i32
    }
}

/// The weights file embedded for a rule family, if it has one: freestyle uses
/// `weights/freestyle.sw`, renju `weights/renju.sw`; standard and caro have none yet.
pub fn embedded_bytes(rule: Rule) -> Option<&'static [u8]> {
    match rule {
        Rule::Freestyle => Some(include_bytes!("../../weights/freestyle.sw")),
        Rule::Renju => Some(include_bytes!("../../weights/renju.sw")),
        _ => None,
    }
}

/// Which of the embedded files `rule` uses.
fn slot(rule: Rule) -> Option<usize> {
    match rule {
        Rule::Freestyle => Some(0),
        Rule::Renju => Some(1),
        _ => None,
    }
}

/// The name a weights file gives its rule family in `rule=`.
fn family(rule: Rule) -> &'static str {
    rule.name()
}

/// The embedded weights of `rule`, parsed once. The tests check that every embedded file
/// parses and names its rule, so this never fails in a released binary; if it did, the error is
/// logged once and the hand-set evaluation is used.
pub fn embedded(rule: Rule) -> Option<&'static Weights> {
    static PARSED: [OnceLock<Option<Weights>>; 2] = [OnceLock::new(), OnceLock::new()];
    PARSED[slot(rule)?]
        .get_or_init(|| {
            let bytes = embedded_bytes(rule)?;
            match check(bytes, rule) {
                Ok(w) => Some(w),
                Err(e) => {
                    log::error!("embedded {} weights refused: {e}", rule.name());
                    None
                }
            }
        })
        .as_ref()
}

/// The run-time tables of `rule`'s embedded weights, built once.
pub fn value_tables(rule: Rule) -> Option<&'static ValueTables> {
    static BUILT: [OnceLock<Option<ValueTables>>; 2] = [OnceLock::new(), OnceLock::new()];
    BUILT[slot(rule)?]
        .get_or_init(|| embedded(rule).map(ValueTables::new))
        .as_ref()
}

/// The run-time policy tables of `rule`'s embedded weights, built once.
pub fn policy_tables(rule: Rule) -> Option<&'static PolicyTables> {
    static BUILT: [OnceLock<Option<PolicyTables>>; 2] = [OnceLock::new(), OnceLock::new()];
    BUILT[slot(rule)?]
        .get_or_init(|| embedded(rule).map(PolicyTables::new))
        .as_ref()
}

/// Parses `bytes` and checks that they are weights for `rule`.
pub fn check(bytes: &[u8], rule: Rule) -> Result<Weights, String> {
    let w = Weights::parse(bytes)?;
    match w.get("rule") {
        Some(r) if r == family(rule) => Ok(w),
        other => Err(format!(
            "weights are for rule {other:?}, expected {}",
            family(rule)
        )),
    }
}

/// The engine version with the embedded weights named by their checksums' first 8 hex digits
/// as semver build metadata, e.g. `0.1.0+w.10c4b888.21991faf` (freestyle, then renju; `none`
/// for a missing file): what Gomocup's `ABOUT` reports as `version`, so a game record says
/// which tables played it (`sente --version` gives their full provenance).
pub fn version_with_weights() -> String {
    let tag = |rule| {
        embedded(rule).map_or("none".to_string(), |w| {
            format!("{:08x}", w.checksum() >> 32)
        })
    };
    format!(
        "{}+w.{}.{}",
        env!("CARGO_PKG_VERSION"),
        tag(Rule::Freestyle),
        tag(Rule::Renju)
    )
}

/// One line per embedded weights file: rule, checksum and provenance (for `sente --version`).
pub fn provenance_lines() -> String {
    let mut s = String::new();
    for rule in [Rule::Freestyle, Rule::Renju] {
        match embedded(rule) {
            Some(w) => {
                let fields: Vec<&str> = w
                    .provenance
                    .lines()
                    .filter(|l| !l.starts_with("rule="))
                    .collect();
                s.push_str(&format!(
                    "weights {}: fnv1a {:016x}; {}\n",
                    rule.name(),
                    w.checksum(),
                    fields.join("; ")
                ));
            }
            None => s.push_str(&format!("weights {}: none\n", rule.name())),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_weights_parse_and_match_their_rule() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let bytes = embedded_bytes(rule).unwrap();
            let w = check(bytes, rule).unwrap_or_else(|e| panic!("{}: {e}", rule.name()));
            assert_eq!(w.to_bytes(), bytes, "{} re-encodes exactly", rule.name());
            for key in ["command", "seed", "positions", "date"] {
                assert!(w.get(key).is_some(), "{} weights lack {key}", rule.name());
            }
            assert!(embedded(rule).is_some());
            assert!(value_tables(rule).is_some());
            let p = policy_tables(rule).unwrap();
            // Raw code 0 (every line DEAD) is canonical code 0 for both sides.
            for c in 0..2 {
                let want =
                    w.tables[c][POLICY_ATTACK][0] as i32 + w.tables[c][POLICY_DEFEND][0] as i32;
                assert_eq!(p.score(c, 0, 0), want);
                // An open three in one direction, whichever direction it lies in.
                let three = 7 * 1331;
                assert_eq!(p.score(c, three, 0), p.score(c, 7, 0));
                assert_eq!(
                    p.score(c, three, 0) - p.score(c, 0, 0),
                    (w.tables[c][POLICY_ATTACK][canonical(three)] - w.tables[c][POLICY_ATTACK][0])
                        as i32
                );
            }
        }
        assert!(embedded(Rule::Standard).is_none());
        let other = check(embedded_bytes(Rule::Renju).unwrap(), Rule::Freestyle);
        assert!(other.unwrap_err().contains("rule"));
        assert!(provenance_lines().contains("weights renju: fnv1a"));
        let v = version_with_weights();
        let hex = format!("{:016x}", embedded(Rule::Renju).unwrap().checksum());
        assert!(
            v.starts_with(env!("CARGO_PKG_VERSION")) && v.ends_with(&hex[..8]),
            "{v}"
        );
    }

    #[test]
    fn corrupt_or_truncated_files_are_refused() {
        let bytes = embedded_bytes(Rule::Freestyle).unwrap().to_vec();
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        assert!(Weights::parse(&flipped).unwrap_err().contains("checksum"));
        assert!(Weights::parse(&bytes[..bytes.len() - 3]).is_err());
        assert!(Weights::parse(b"SENTEWT0").is_err());
        let mut other_version = bytes.clone();
        other_version[7] = b'2';
        assert!(Weights::parse(&other_version).is_err());
    }

    #[test]
    fn codes_are_the_unordered_combinations() {
        let mut seen = vec![false; CODES];
        for raw in 0..RAW_CODES {
            let c = canonical(raw);
            seen[c] = true;
            let p = [raw / 1331, raw / 121 % 11, raw / 11 % 11, raw % 11];
            let mut sorted = p;
            sorted.sort_unstable();
            assert_eq!(patterns_of(c), sorted);
            let rotated = p[1] * 1331 + p[2] * 121 + p[3] * 11 + p[0];
            assert_eq!(canonical(rotated), c);
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn packed_sums_unpack_exactly() {
        let parts = [(5i64, -7i64), (-300, 12), (-2, -9000), (32000, 1)];
        let sum: i64 = parts.iter().map(|&(m, t)| m + (t << 32)).sum();
        assert_eq!(unpack(sum), (31703, -8994));
    }
}
