//! Learned gomoku evaluation: tables fitted to self-play data (`sente train`), one versioned
//! weights file per rule family under `weights/`, embedded in the binary.
//!
//! The model reads what [`PatternBoard`](super::patterns::PatternBoard) already keeps per empty
//! cell and colour: the four line patterns (one per direction), taken as an unordered
//! combination (a "code": 1001 of them, since 4 patterns out of 11 values with repetition).
//! - value: every empty cell adds `mine[code of the side to move there]` and
//!   `theirs[code of the other side there]`, plus a bias, plus `threat[threat mask]`: which
//!   threat levels (open three up to open four, see `PatternBoard::threat_mask`) each side
//!   holds somewhere on the board, the non-linear part a sum over cells misses (whose move it
//!   is against which threats), plus per empty cell `joint[threat level of the side to move
//!   there][threat level of the other side there]`: the two codes read together (a cell where
//!   one side makes a four and the other an open three is not the sum of the two; the cell
//!   tables are the backoff). With `mine = sum of PATTERN_VALUE`, `theirs = -mine`, bias 0,
//!   `threat = patterns::hand_threat` and `joint = 0` it is the hand evaluation.
//! - policy: a move's score is `attack[its code for the mover] + defend[its code for the
//!   other side]` (fitted to the search's chosen moves; reported by the trainer, stored for
//!   move ordering).
//!
//! Tables are per colour (black then white); rule families where colours are alike store the
//! same values twice.
//!
//! File format (little-endian):
//! ```text
//! "SENTEWT2"                    8 bytes, the version
//! u32 n, n bytes UTF-8          provenance: `key=value` lines (rule=, command=, seed=, ...)
//! i16 x 1001 x 8                value mine, value theirs, policy attack, policy defend; black,
//!                               then the same four for white
//! i32 x 2                       value bias for black to move, for white to move
//! i16 x 16384 x 2               value threat table, black to move then white to move
//! i16 x 256 x 2                 value joint cell table (mover's level x 16 + other's level),
//!                               black to move then white to move
//! u64                           FNV-1a 64 of every byte before it
//! ```
//!
//! Version 1 files (`SENTEWT1`, no threat or joint table: the hand threat terms, joint 0) are still read, so the
//! trainer's `--compare` takes an older generation's file.

pub use crate::eval::fnv1a;
use std::sync::OnceLock;

use crate::eval::gomoku::patterns::{hand_threat, THREAT_MASKS};
use crate::rules::Rule;

/// The version tag every weights file this build writes starts with.
pub const MAGIC: &[u8; 8] = b"SENTEWT2";
/// The version before the threat and joint tables (read only).
const MAGIC_V1: &[u8; 8] = b"SENTEWT1";
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
    /// `[colour to move][threat mask]`: the value of the threats on the board (see
    /// `PatternBoard::threat_mask`), [`THREAT_MASKS`] entries each.
    pub threat: [Vec<i16>; 2],
    /// `[colour to move][mover's level * 16 + other side's level]` at an empty cell (threat
    /// levels as `PatternBoard::p4`), [`JOINT`] entries each.
    pub joint: [Vec<i16>; 2],
}

/// Entries of a joint cell table: two threat levels (`patterns::P4`, below 16).
pub const JOINT: usize = 256;

pub const VALUE_MINE: usize = 0;
pub const VALUE_THEIRS: usize = 1;
pub const POLICY_ATTACK: usize = 2;
pub const POLICY_DEFEND: usize = 3;

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
        let mut out = Vec::with_capacity(
            8 + 4
                + self.provenance.len()
                + 2 * CODES * 8 * 2
                + 2 * THREAT_MASKS * 2
                + 2 * JOINT * 2
                + 16,
        );
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
        for v in self.threat.iter().chain(&self.joint).flatten() {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a weights file, refusing a wrong version, length or checksum.
    pub fn parse(bytes: &[u8]) -> Result<Weights, String> {
        if bytes.len() < MAGIC.len() + 4 + 8 || (&bytes[..8] != MAGIC && &bytes[..8] != MAGIC_V1) {
            return Err("not a sente weights file (version SENTEWT2 or SENTEWT1)".into());
        }
        let v1 = &bytes[..8] == MAGIC_V1;
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
        if fnv1a(body) != stored {
            return Err("weights checksum mismatch (corrupt file)".into());
        }
        let n = u32::from_le_bytes(body[8..12].try_into().expect("4 bytes")) as usize;
        let threat_bytes = if v1 {
            0
        } else {
            2 * (THREAT_MASKS + JOINT) * 2
        };
        let want = 12 + n + 2 * 4 * CODES * 2 + 2 * 4 + threat_bytes;
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
        let hand: Vec<i16> = (0..THREAT_MASKS).map(|m| hand_threat(m) as i16).collect();
        let mut threat = [hand.clone(), hand];
        let mut joint = [vec![0i16; JOINT], vec![0i16; JOINT]];
        if !v1 {
            for v in threat.iter_mut().chain(joint.iter_mut()).flatten() {
                *v = i16::from_le_bytes([body[at], body[at + 1]]);
                at += 2;
            }
        }
        Ok(Weights {
            provenance,
            tables,
            bias,
            threat,
            joint,
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
/// see [`unpack`]); per colour to move, the threat table plus the bias; and the joint cell
/// table indexed by black's level + 16 x white's level, holding the value with black to move
/// + the value with white to move x 2^32 (summed and unpacked the same way).
pub struct ValueTables {
    pub packed: [Box<[i64; 1 << 16]>; 2],
    pub threat: [Box<[i32; THREAT_MASKS]>; 2],
    pub joint: [i64; JOINT],
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
        let threat = [0, 1].map(|c| {
            let mut t: Box<[i32; THREAT_MASKS]> = vec![0i32; THREAT_MASKS]
                .into_boxed_slice()
                .try_into()
                .expect("THREAT_MASKS entries");
            for (entry, &v) in t.iter_mut().zip(&w.threat[c]) {
                *entry = v as i32 + w.bias[c];
            }
            t
        });
        let mut joint = [0i64; JOINT];
        for (i, entry) in joint.iter_mut().enumerate() {
            let (black, white) = (i & 15, i >> 4);
            *entry = w.joint[0][black * 16 + white] as i64
                + ((w.joint[1][white * 16 + black] as i64) << 32);
        }
        ValueTables {
            packed,
            threat,
            joint,
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
        Rule::Freestyle => Some(include_bytes!("../../../weights/freestyle.sw")),
        Rule::Renju => Some(include_bytes!("../../../weights/renju.sw")),
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
        other_version[7] = b'1';
        assert!(Weights::parse(&other_version).is_err());
    }

    #[test]
    fn version_1_files_read_with_the_hand_threat_terms() {
        let w = embedded(Rule::Renju).unwrap();
        let v2 = w.to_bytes();
        // A version 1 file is a version 2 file without the threat and joint tables.
        let mut v1 = v2[..v2.len() - 8 - 2 * (THREAT_MASKS + JOINT) * 2].to_vec();
        v1[..8].copy_from_slice(MAGIC_V1);
        let sum = fnv1a(&v1);
        v1.extend_from_slice(&sum.to_le_bytes());
        let old = Weights::parse(&v1).unwrap();
        assert_eq!((&old.tables, old.bias), (&w.tables, w.bias));
        for c in 0..2 {
            assert!(old.joint[c].iter().all(|&v| v == 0));
            for m in [0, 1, 1 << 5, 3 << 7, THREAT_MASKS - 1] {
                assert_eq!(old.threat[c][m] as i32, hand_threat(m));
            }
        }
        // Read as version 2 it is too short.
        v1[7] = b'2';
        let n = v1.len() - 8;
        let sum = fnv1a(&v1[..n]);
        v1[n..].copy_from_slice(&sum.to_le_bytes());
        assert!(Weights::parse(&v1).unwrap_err().contains("expected"));
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
