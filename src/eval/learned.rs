//! Learned gomoku evaluation: tables fitted to self-play data (`sente train`), one versioned
//! weights file per rule family under `weights/`, embedded in the binary.
//!
//! The model reads what [`PatternBoard`](super::patterns::PatternBoard) already keeps per empty
//! cell and colour: the four line patterns (one per direction), taken as an unordered
//! combination (a "code": 1001 of them, since 4 patterns out of 11 values with repetition).
//! Every table exists once per game phase ([`PHASES`], by the stones on the board, see
//! [`phase`]): what a shape is worth in the opening is not what it is worth later.
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
//!   other side] + pjoint[mover's threat level there][other side's level there]` (fitted to
//!   the search's chosen moves; the search orders, reduces and prunes by it).
//!
//! Tables are per colour (black then white); rule families where colours are alike store the
//! same values twice.
//!
//! File format (little-endian):
//! ```text
//! "SENTEWT3"                    8 bytes, the version
//! u32 n, n bytes UTF-8          provenance: `key=value` lines (rule=, command=, seed=, ...)
//! i16 x 1001 x 4 x 3 x 2        per colour (black, white), per phase: value mine, value
//!                               theirs, policy attack, policy defend
//! i32 x 3 x 2                   value bias per colour to move, per phase
//! i16 x 16384 x 3 x 2           value threat table per colour to move, per phase
//! i16 x 256 x 3 x 2             value joint cell table (mover's level x 16 + other's level)
//!                               per colour to move, per phase
//! i16 x 256 x 3 x 2             policy joint table (the same index) per mover, per phase
//! u64                           FNV-1a 64 of every byte before it
//! ```
//!
//! Older files are still read, so the trainer's `--compare` takes an older generation's file:
//! version 2 (`SENTEWT2`: no phases, no policy joint table) has its tables used in every
//! phase and a policy joint table of 0; version 1 (`SENTEWT1`) also lacks the threat and
//! joint tables: the hand threat terms, a value joint table of 0.
//!
//! At run time the value cell and joint tables are clamped to [`VALUE_LIMIT`] (so that the
//! incremental sums of every phase fit one 128-bit word, see [`field`]); the trainer writes
//! them clamped, so file and run time agree.

use std::sync::OnceLock;

use crate::eval::patterns::{hand_threat, THREAT_MASKS};
use crate::rules::Rule;

/// The version tag every weights file this build writes starts with.
pub const MAGIC: &[u8; 8] = b"SENTEWT3";
/// The version without phases and policy joint table (read only).
const MAGIC_V2: &[u8; 8] = b"SENTEWT2";
/// The version before the threat and joint tables (read only).
const MAGIC_V1: &[u8; 8] = b"SENTEWT1";
/// Unordered combinations of four line patterns (11 values each).
pub const CODES: usize = 1001;
/// Line-pattern values (see `patterns::PATTERN_COUNT`).
const PATTERNS: usize = 11;
/// Raw codes: the four directions' patterns as base-11 digits, as `PatternBoard::code` reads.
pub const RAW_CODES: usize = PATTERNS * PATTERNS * PATTERNS * PATTERNS;
/// Game phases with tables of their own (see [`phase`]).
pub const PHASES: usize = 3;
/// The last stone count of each phase but the last: the opening (the first moves after a
/// generated or balanced opening, where the s23 diagnosis found most positional losses
/// begin), the early middle game, the rest.
pub const PHASE_ENDS: [usize; PHASES - 1] = [10, 30];
/// Largest magnitude of a value cell or joint table entry at run time. Entries beyond occur
/// only for codes that make a five, whose positions the search never evaluates.
pub const VALUE_LIMIT: i16 = 1023;

/// The phase of a position with `stones` stones on the board.
#[inline]
pub fn phase(stones: usize) -> usize {
    usize::from(stones > PHASE_ENDS[0]) + usize::from(stones > PHASE_ENDS[1])
}

/// One colour's cell tables in one phase: value-mine, value-theirs, policy-attack,
/// policy-defend, indexed by code.
pub type CellTables = [[i16; CODES]; 4];

/// The tables of one file, in the order they are stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// `key=value` provenance lines; `rule` names the rule family.
    pub provenance: String,
    /// `[colour][phase][table][code]`: tables value-mine, value-theirs, policy-attack,
    /// policy-defend.
    pub tables: Vec<[CellTables; PHASES]>,
    /// `[colour to move][phase]`: the value bias.
    pub bias: [[i32; PHASES]; 2],
    /// `[colour to move][phase][threat mask]`: the value of the threats on the board (see
    /// `PatternBoard::threat_mask`), [`THREAT_MASKS`] entries each.
    pub threat: [[Vec<i16>; PHASES]; 2],
    /// `[colour to move][phase][mover's level * 16 + other side's level]` at an empty cell
    /// (threat levels as `PatternBoard::p4`), [`JOINT`] entries each.
    pub joint: [[Vec<i16>; PHASES]; 2],
    /// `[mover][phase][mover's level * 16 + other side's level]`: the policy's joint term at a
    /// point, [`JOINT`] entries each.
    pub policy_joint: [[Vec<i16>; PHASES]; 2],
}

/// Entries of a joint table: two threat levels (`patterns::P4`, below 16).
pub const JOINT: usize = 256;

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

/// Reads little-endian integers off the front of a byte slice (lengths checked beforehand).
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn i16(&mut self) -> i16 {
        let v = i16::from_le_bytes([self.bytes[self.at], self.bytes[self.at + 1]]);
        self.at += 2;
        v
    }
    fn i32(&mut self) -> i32 {
        let v = i32::from_le_bytes(
            self.bytes[self.at..self.at + 4]
                .try_into()
                .expect("4 bytes"),
        );
        self.at += 4;
        v
    }
    fn i16s(&mut self, n: usize) -> Vec<i16> {
        (0..n).map(|_| self.i16()).collect()
    }
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
        let mut out = Vec::with_capacity(
            8 + 4
                + self.provenance.len()
                + 2 * PHASES * (CODES * 8 + 4 + THREAT_MASKS * 2 + JOINT * 4)
                + 8,
        );
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.provenance.len() as u32).to_le_bytes());
        out.extend_from_slice(self.provenance.as_bytes());
        for v in self.tables.iter().flatten().flatten().flatten() {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for b in self.bias.iter().flatten() {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for v in self
            .threat
            .iter()
            .chain(&self.joint)
            .chain(&self.policy_joint)
            .flatten()
            .flatten()
        {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a weights file, refusing an unknown version, a wrong length or checksum.
    pub fn parse(bytes: &[u8]) -> Result<Weights, String> {
        let version = match bytes.get(..8) {
            Some(m) if m == MAGIC => 3,
            Some(m) if m == MAGIC_V2 => 2,
            Some(m) if m == MAGIC_V1 => 1,
            _ => 0,
        };
        if bytes.len() < MAGIC.len() + 4 + 8 || version == 0 {
            return Err("not a sente weights file (version SENTEWT3, SENTEWT2 or SENTEWT1)".into());
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
        if fnv1a(body) != stored {
            return Err("weights checksum mismatch (corrupt file)".into());
        }
        let n = u32::from_le_bytes(body[8..12].try_into().expect("4 bytes")) as usize;
        // Phases stored, and per colour and phase: cell tables and bias, threat and value
        // joint tables (versions 2 and 3), policy joint table (version 3).
        let phases = if version == 3 { PHASES } else { 1 };
        let per_phase = CODES * 8
            + 4
            + if version >= 2 {
                (THREAT_MASKS + JOINT) * 2
            } else {
                0
            }
            + if version == 3 { JOINT * 2 } else { 0 };
        let want = 12usize.saturating_add(n) + 2 * phases * per_phase;
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
        let mut r = Reader {
            bytes: body,
            at: 12 + n,
        };
        let mut tables = vec![[[[0i16; CODES]; 4]; PHASES]; 2];
        for colour in tables.iter_mut() {
            for v in colour.iter_mut().take(phases).flatten().flatten() {
                *v = r.i16();
            }
        }
        let mut bias = [[0i32; PHASES]; 2];
        for colour in bias.iter_mut() {
            for b in colour.iter_mut().take(phases) {
                *b = r.i32();
            }
        }
        let hand: Vec<i16> = (0..THREAT_MASKS).map(|m| hand_threat(m) as i16).collect();
        let mut threat = [0, 1].map(|_| [0; PHASES].map(|_| hand.clone()));
        let mut joint = [0, 1].map(|_| [0; PHASES].map(|_| vec![0i16; JOINT]));
        let mut policy_joint = joint.clone();
        if version >= 2 {
            for colour in threat.iter_mut() {
                for t in colour.iter_mut().take(phases) {
                    *t = r.i16s(THREAT_MASKS);
                }
            }
            for colour in joint.iter_mut() {
                for t in colour.iter_mut().take(phases) {
                    *t = r.i16s(JOINT);
                }
            }
        }
        if version == 3 {
            for colour in policy_joint.iter_mut() {
                for t in colour.iter_mut() {
                    *t = r.i16s(JOINT);
                }
            }
        } else {
            // One phase stored: every phase uses it.
            for c in 0..2 {
                for ph in 1..PHASES {
                    tables[c][ph] = tables[c][0];
                    bias[c][ph] = bias[c][0];
                    threat[c][ph] = threat[c][0].clone();
                    joint[c][ph] = joint[c][0].clone();
                }
            }
        }
        Ok(Weights {
            provenance,
            tables,
            bias,
            threat,
            joint,
            policy_joint,
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

/// Bits of one field of a packed sum (see [`field`]).
const FIELD_BITS: u32 = 21;

/// Packs signed values (each of magnitude below 2^20) into one 128-bit word, field `k` at bit
/// `21 k`, so that adding packed words adds every field at once: a sum of up to 1024 entries
/// of at most [`VALUE_LIMIT`] each stays exact (see [`field`]).
pub fn pack(fields: &[i32]) -> i128 {
    debug_assert!(fields.len() as u32 * FIELD_BITS <= 128);
    fields.iter().enumerate().fold(0i128, |acc, (k, &v)| {
        acc + ((v as i128) << (FIELD_BITS * k as u32))
    })
}

/// Field `k` of a sum of [`pack`]ed words. The fields below `k` add up to less than half a
/// unit of field `k` in magnitude, so rounding them away and sign-extending the field's 21
/// bits gives its exact value.
#[inline]
pub fn field(sum: i128, k: usize) -> i32 {
    let shift = FIELD_BITS * k as u32;
    let rounded = if shift == 0 {
        sum
    } else {
        sum.wrapping_add(1i128 << (shift - 1))
    };
    let raw = ((rounded >> shift) as i32) & ((1 << FIELD_BITS) - 1);
    (raw << (32 - FIELD_BITS)) >> (32 - FIELD_BITS)
}

/// What the pattern board needs at run time: per colour, one entry per raw code (indexed by
/// the 16-bit code, so no bounds check) holding, [`pack`]ed, `mine` of every phase (field
/// `phase`) and `theirs` of every phase (field `PHASES + phase`), so one addition per cell
/// keeps every phase's sums; per colour to move and phase, the threat table plus the bias;
/// and the joint cell table indexed by black's level + 16 x white's level, holding the value
/// with black to move (field `phase`) and with white to move (field `PHASES + phase`).
pub struct ValueTables {
    pub packed: [Box<[i128; 1 << 16]>; 2],
    /// `[colour to move][phase * THREAT_MASKS + mask]`.
    pub threat: [Box<[i32]>; 2],
    pub joint: [i128; JOINT],
}

/// A value cell or joint table entry as used at run time.
fn clamped(v: i16) -> i32 {
    v.clamp(-VALUE_LIMIT, VALUE_LIMIT) as i32
}

impl ValueTables {
    pub fn new(w: &Weights) -> ValueTables {
        let packed = [0, 1].map(|c| {
            let mut t: Box<[i128; 1 << 16]> = vec![0i128; 1 << 16]
                .into_boxed_slice()
                .try_into()
                .expect("65536 entries");
            for (raw, entry) in t.iter_mut().enumerate().take(RAW_CODES) {
                let code = canonical(raw);
                let mut fields = [0i32; 2 * PHASES];
                for (ph, tables) in w.tables[c].iter().enumerate() {
                    fields[ph] = clamped(tables[VALUE_MINE][code]);
                    fields[PHASES + ph] = clamped(tables[VALUE_THEIRS][code]);
                }
                *entry = pack(&fields);
            }
            t
        });
        let threat = [0, 1].map(|c| {
            (0..PHASES)
                .flat_map(|ph| {
                    w.threat[c][ph]
                        .iter()
                        .map(move |&v| v as i32 + w.bias[c][ph])
                })
                .collect::<Box<[i32]>>()
        });
        let mut joint = [0i128; JOINT];
        for (i, entry) in joint.iter_mut().enumerate() {
            let (black, white) = (i & 15, i >> 4);
            let mut fields = [0i32; 2 * PHASES];
            for ph in 0..PHASES {
                fields[ph] = clamped(w.joint[0][ph][black * 16 + white]);
                fields[PHASES + ph] = clamped(w.joint[1][ph][white * 16 + black]);
            }
            *entry = pack(&fields);
        }
        ValueTables {
            packed,
            threat,
            joint,
        }
    }

    /// The threat table's entry (plus the bias) for colour index `me` to move in `phase`.
    #[inline]
    pub fn threat(&self, me: usize, phase: usize, mask: usize) -> i32 {
        self.threat[me & 1][(phase * THREAT_MASKS + mask) % (PHASES * THREAT_MASKS)]
    }
}

/// The move policy at run time: per mover colour and phase, `attack` indexed by the mover's
/// raw code at a point and `defend` by the other side's raw code there (16-bit indices, so no
/// bounds check), and the joint term by both threat levels there; a move's score is their
/// sum, in the trainer's units (logits x 100).
pub struct PolicyTables {
    attack: [[Box<[i16; 1 << 16]>; PHASES]; 2],
    defend: [[Box<[i16; 1 << 16]>; PHASES]; 2],
    joint: [[[i16; JOINT]; PHASES]; 2],
}

impl PolicyTables {
    pub fn new(w: &Weights) -> PolicyTables {
        let table = |c: usize, ph: usize, t: usize| {
            let mut out: Box<[i16; 1 << 16]> = vec![0i16; 1 << 16]
                .into_boxed_slice()
                .try_into()
                .expect("65536 entries");
            for (raw, entry) in out.iter_mut().enumerate().take(RAW_CODES) {
                *entry = w.tables[c][ph][t][canonical(raw)];
            }
            out
        };
        let joint = [0, 1].map(|c| {
            std::array::from_fn(|ph| {
                let mut t = [0i16; JOINT];
                t.copy_from_slice(&w.policy_joint[c][ph]);
                t
            })
        });
        PolicyTables {
            attack: [0, 1].map(|c| std::array::from_fn(|ph| table(c, ph, POLICY_ATTACK))),
            defend: [0, 1].map(|c| std::array::from_fn(|ph| table(c, ph, POLICY_DEFEND))),
            joint,
        }
    }

    /// The policy score of a point for mover colour index `mover` in `phase`, given the
    /// mover's and the other side's raw codes there (as `PatternBoard::code` reads them) and
    /// their threat levels there as `mover's level * 16 + other's level`.
    #[inline]
    pub fn score(
        &self,
        mover: usize,
        phase: usize,
        mine: usize,
        theirs: usize,
        levels: usize,
    ) -> i32 {
        let (m, ph) = (mover & 1, phase % PHASES);
        self.attack[m][ph][mine & 0xFFFF] as i32
            + self.defend[m][ph][theirs & 0xFFFF] as i32
            + self.joint[m][ph][levels & (JOINT - 1)] as i32
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
                for ph in 0..PHASES {
                    let t = &w.tables[c][ph];
                    let pj = &w.policy_joint[c][ph];
                    let want =
                        t[POLICY_ATTACK][0] as i32 + t[POLICY_DEFEND][0] as i32 + pj[0x24] as i32;
                    assert_eq!(p.score(c, ph, 0, 0, 0x24), want);
                    // An open three in one direction, whichever direction it lies in.
                    let three = 7 * 1331;
                    assert_eq!(p.score(c, ph, three, 0, 0), p.score(c, ph, 7, 0, 0));
                    assert_eq!(
                        p.score(c, ph, three, 0, 0) - p.score(c, ph, 0, 0, 0),
                        (t[POLICY_ATTACK][canonical(three)] - t[POLICY_ATTACK][0]) as i32
                    );
                }
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
        for older in [b'1', b'2'] {
            let mut other_version = bytes.clone();
            other_version[7] = older;
            assert!(Weights::parse(&other_version).is_err());
        }
    }

    /// A file of an older version holding phase 0 of `w` (and, for version 2, its threat and
    /// joint tables), written the way that version stored them.
    fn older_file(w: &Weights, version: u8) -> Vec<u8> {
        let mut out = b"SENTEWT".to_vec();
        out.push(b'0' + version);
        out.extend_from_slice(&(w.provenance.len() as u32).to_le_bytes());
        out.extend_from_slice(w.provenance.as_bytes());
        for colour in &w.tables {
            for v in colour[0].iter().flatten() {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for colour in &w.bias {
            out.extend_from_slice(&colour[0].to_le_bytes());
        }
        if version == 2 {
            for v in w.threat.iter().chain(&w.joint).flat_map(|c| &c[0]) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    #[test]
    fn older_versions_read_with_one_phase_for_all() {
        let w = embedded(Rule::Renju).unwrap();
        for version in [1, 2] {
            let old = Weights::parse(&older_file(w, version)).unwrap();
            for c in 0..2 {
                for ph in 0..PHASES {
                    assert_eq!(old.tables[c][ph], w.tables[c][0]);
                    assert_eq!(old.bias[c][ph], w.bias[c][0]);
                    assert!(old.policy_joint[c][ph].iter().all(|&v| v == 0));
                    if version == 2 {
                        assert_eq!(old.threat[c][ph], w.threat[c][0]);
                        assert_eq!(old.joint[c][ph], w.joint[c][0]);
                    } else {
                        assert!(old.joint[c][ph].iter().all(|&v| v == 0));
                        for m in [0, 1, 1 << 5, 3 << 7, THREAT_MASKS - 1] {
                            assert_eq!(old.threat[c][ph][m] as i32, hand_threat(m));
                        }
                    }
                }
            }
            // Written back it is a version 3 file of the same tables in every phase.
            assert_eq!(Weights::parse(&old.to_bytes()).unwrap(), old);
        }
        // A version 1 file read as version 2 is too short.
        let mut v1 = older_file(w, 1);
        v1[7] = b'2';
        let n = v1.len() - 8;
        let sum = fnv1a(&v1[..n]);
        v1[n..].copy_from_slice(&sum.to_le_bytes());
        assert!(Weights::parse(&v1).unwrap_err().contains("expected"));
    }

    #[test]
    fn phases_split_at_their_stone_counts() {
        assert_eq!(phase(0), 0);
        assert_eq!(phase(PHASE_ENDS[0]), 0);
        assert_eq!(phase(PHASE_ENDS[0] + 1), 1);
        assert_eq!(phase(PHASE_ENDS[1]), 1);
        assert_eq!(phase(PHASE_ENDS[1] + 1), 2);
        assert_eq!(phase(1024), PHASES - 1);
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
        // The extremes: 1024 cells (a 32 x 32 board) of +-VALUE_LIMIT in every field, mixed.
        let limit = VALUE_LIMIT as i32;
        let mut h = 3u64;
        let mut sum = 0i128;
        let mut want = [0i32; 2 * PHASES];
        for cell in 0..1024 {
            let mut fields = [0i32; 2 * PHASES];
            for (k, f) in fields.iter_mut().enumerate() {
                *f = match (cell + k) % 3 {
                    0 => limit,
                    1 => -limit,
                    _ => (crate::rules::mnk::splitmix64(&mut h) % 2047) as i32 - limit,
                };
                want[k] += *f;
            }
            sum = sum.wrapping_add(pack(&fields));
        }
        for (k, &w) in want.iter().enumerate() {
            assert_eq!(field(sum, k), w, "field {k}");
        }
        let all_max = pack(&[limit; 2 * PHASES]) * 1024;
        let all_min = pack(&[-limit; 2 * PHASES]) * 1024;
        for k in 0..2 * PHASES {
            assert_eq!(field(all_max, k), limit * 1024);
            assert_eq!(field(all_min, k), -limit * 1024);
        }
    }
}
