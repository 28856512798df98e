//! The learned Go move priors: a Bradley-Terry "gamma" for each level of each feature group of
//! [`crate::eval::go::features`], fitted by `sente go-train` (Coulom's minorization-maximization)
//! to GNU Go's choices, and embedded from `weights/go-gammas.txt`. A move's strength is the
//! product of its features' gammas; a level the data never showed has gamma 1 (the fit's prior
//! pulls rare levels there too).
//!
//! The file is text:
//!
//! ```text
//! # sente-go-gammas v1
//! # command=sente go-train ...       provenance, `# key=value` lines
//! pat3 1234 0.81                      group, level, gamma (one line per fitted level)
//! spatial 1 0.93                      `spatial`'s level 1: no dictionary pattern matches
//! spatial 2 3.1 0123456789abcdef      a dictionary pattern: level (2, 3, ... in order), gamma,
//!                                     canonical hash (`crate::eval::go::spatial`)
//! fnv1a 0123456789abcdef              FNV-1a of every byte before this line
//! ```
//!
//! The `spatial` lines are the pattern dictionary itself, so the table names every pattern it
//! weighs. A file whose checksum, header, group names, levels or gammas are wrong is refused whole;
//! the tests refuse the embedded one, so a corrupt table cannot be built into a release.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use crate::eval::fnv1a;
use crate::eval::go::features::{Features, GROUPS, GROUP_COUNT, PAT3_CODES, SMALL_LEVELS, SPATIAL};
use crate::eval::go::spatial::{SpatialDict, NO_MATCH, SMALL_BOARD};

/// The first line of every gammas file.
pub const GAMMAS_MAGIC: &str = "# sente-go-gammas v1";

/// A fitted table.
#[derive(Clone, Debug, PartialEq)]
pub struct Gammas {
    /// `small[g][level]` for every group but `pat3` (index 0, empty).
    small: [Vec<f32>; GROUP_COUNT],
    pat3: HashMap<u32, f32>,
    /// The `spatial` patterns, and the gamma of each level (level 0, small boards, stays 1).
    dict: SpatialDict,
    spatial: Vec<f32>,
    /// The `# key=value` lines, without the `# `.
    pub provenance: String,
}

impl Gammas {
    /// All gammas 1.
    pub fn neutral() -> Gammas {
        Gammas {
            small: std::array::from_fn(|g| vec![1.0; SMALL_LEVELS[g] as usize]),
            pat3: HashMap::new(),
            dict: SpatialDict::default(),
            spatial: vec![1.0; 2],
            provenance: String::new(),
        }
    }

    /// The `spatial` dictionary.
    pub fn spatial_dict(&self) -> &SpatialDict {
        &self.dict
    }

    /// Puts in `dict` as the `spatial` dictionary, every level's gamma 1.
    pub fn set_spatial_dict(&mut self, dict: SpatialDict) {
        self.spatial = vec![1.0; dict.levels() as usize];
        self.dict = dict;
    }

    /// The gamma of `level` in group `g` (1 when unfitted).
    pub fn gamma(&self, g: usize, level: u32) -> f32 {
        if g == 0 {
            self.pat3.get(&level).copied().unwrap_or(1.0)
        } else if g == SPATIAL {
            self.spatial.get(level as usize).copied().unwrap_or(1.0)
        } else {
            self.small[g].get(level as usize).copied().unwrap_or(1.0)
        }
    }

    /// Sets the gamma of `level` in group `g` (a level out of range, or `spatial`'s small-board
    /// level, is ignored).
    pub fn set(&mut self, g: usize, level: u32, gamma: f32) {
        if g == 0 {
            if level < PAT3_CODES {
                self.pat3.insert(level, gamma);
            }
        } else if g == SPATIAL {
            if level != SMALL_BOARD {
                if let Some(v) = self.spatial.get_mut(level as usize) {
                    *v = gamma;
                }
            }
        } else if let Some(v) = self.small[g].get_mut(level as usize) {
            *v = gamma;
        }
    }

    /// A move's strength: the product of its features' gammas.
    pub fn strength(&self, f: &Features) -> f32 {
        f.iter()
            .enumerate()
            .map(|(g, &l)| self.gamma(g, l))
            .product()
    }

    /// The value of provenance key `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.provenance
            .lines()
            .find_map(|l| l.split_once('=').filter(|(k, _)| *k == key).map(|(_, v)| v))
    }

    /// The file text (see the module doc), fitted levels in a fixed order.
    pub fn to_text(&self) -> String {
        let mut s = format!("{GAMMAS_MAGIC}\n");
        for line in self.provenance.lines() {
            let _ = writeln!(s, "# {line}");
        }
        let mut codes: Vec<_> = self.pat3.iter().collect();
        codes.sort_by_key(|(c, _)| **c);
        for (c, g) in codes {
            let _ = writeln!(s, "pat3 {c} {g}");
        }
        for (g, levels) in self.small.iter().enumerate().skip(1) {
            for (l, v) in levels.iter().enumerate() {
                let _ = writeln!(s, "{} {l} {v}", GROUPS[g]);
            }
        }
        let name = GROUPS[SPATIAL];
        let _ = writeln!(s, "{name} {NO_MATCH} {}", self.gamma(SPATIAL, NO_MATCH));
        for (k, h) in self.dict.hashes().iter().enumerate() {
            let l = k as u32 + NO_MATCH + 1;
            let _ = writeln!(s, "{name} {l} {} {h:016x}", self.gamma(SPATIAL, l));
        }
        let sum = fnv1a(s.as_bytes());
        let _ = writeln!(s, "fnv1a {sum:016x}");
        s
    }

    /// Reads a gammas file, refusing it whole if anything is wrong.
    pub fn parse(text: &str) -> Result<Gammas, String> {
        let body_end = text
            .rfind("fnv1a ")
            .ok_or("no checksum line (cut short?)")?;
        let (body, tail) = text.split_at(body_end);
        let stored = u64::from_str_radix(tail.trim_start_matches("fnv1a ").trim(), 16)
            .map_err(|_| "unreadable checksum")?;
        if fnv1a(body.as_bytes()) != stored {
            return Err("gammas checksum mismatch (corrupt file)".into());
        }
        let mut lines = body.lines();
        if lines.next() != Some(GAMMAS_MAGIC) {
            return Err(format!(
                "not a gammas file (first line is not {GAMMAS_MAGIC:?})"
            ));
        }
        let mut t = Gammas::neutral();
        // The spatial levels, as read: (level, gamma), and the dictionary in order.
        let mut spatial: Vec<(u32, f32)> = Vec::new();
        let mut dict = SpatialDict::default();
        for (n, line) in lines.enumerate() {
            if let Some(p) = line.strip_prefix("# ") {
                t.provenance.push_str(p);
                t.provenance.push('\n');
                continue;
            }
            let bad = || format!("line {}: {line:?}", n + 2);
            let mut w = line.split_whitespace();
            let (Some(group), Some(level), Some(gamma), hash, None) =
                (w.next(), w.next(), w.next(), w.next(), w.next())
            else {
                return Err(bad());
            };
            let g = GROUPS.iter().position(|&x| x == group).ok_or_else(bad)?;
            let level: u32 = level.parse().map_err(|_| bad())?;
            let gamma: f32 = gamma.parse().map_err(|_| bad())?;
            if !gamma.is_finite() || gamma <= 0.0 || (hash.is_some() && g != SPATIAL) {
                return Err(bad());
            }
            if g == SPATIAL {
                // Level 1 without a hash; then each pattern's level in order, with its hash.
                let next = dict.levels();
                match hash {
                    None if level == NO_MATCH => {}
                    Some(h) if level == next && level > NO_MATCH => {
                        let h = u64::from_str_radix(h, 16).map_err(|_| bad())?;
                        if !dict.push(h) {
                            return Err(bad());
                        }
                    }
                    _ => return Err(bad()),
                }
                spatial.push((level, gamma));
                continue;
            }
            let in_range = if g == 0 {
                level < PAT3_CODES
            } else {
                level < SMALL_LEVELS[g]
            };
            if !in_range {
                return Err(bad());
            }
            t.set(g, level, gamma);
        }
        t.set_spatial_dict(dict);
        for (level, gamma) in spatial {
            t.set(SPATIAL, level, gamma);
        }
        Ok(t)
    }
}

/// The embedded table's text.
pub const EMBEDDED: &str = include_str!("../../../weights/go-gammas.txt");

/// The embedded table, parsed once. The tests check that it parses, so this never fails in a
/// released binary; if it did, the error is logged once and `None` keeps the hand priors.
pub fn embedded() -> Option<&'static Gammas> {
    static PARSED: OnceLock<Option<Gammas>> = OnceLock::new();
    PARSED
        .get_or_init(|| match Gammas::parse(EMBEDDED) {
            Ok(g) => Some(g),
            Err(e) => {
                log::error!("embedded Go gammas refused: {e}");
                None
            }
        })
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_table_parses_and_names_its_data() {
        let g = Gammas::parse(EMBEDDED).expect("weights/go-gammas.txt is corrupt");
        assert!(g
            .get("command")
            .is_some_and(|c| c.starts_with("sente go-train")));
        assert!(g.get("positions").is_some() && g.get("seed").is_some());
        assert!(g.get("date").is_some());
    }

    /// The Go data files kept in weights/data, so that a fit can be rerun (GNU Go's games from
    /// the same seeds may differ between its builds) or continued.
    const KEPT_DATA: [(&str, &str); 3] = [
        (
            "go19-l4-s21.txt",
            include_str!("../../../weights/data/go19-l4-s21.txt"),
        ),
        (
            "go19-l4-s22.txt",
            include_str!("../../../weights/data/go19-l4-s22.txt"),
        ),
        (
            "go19-s5.txt",
            include_str!("../../../weights/data/go19-s5.txt"),
        ),
    ];

    #[test]
    fn the_data_kept_beside_the_table_is_the_data_it_names() {
        let g = Gammas::parse(EMBEDDED).unwrap();
        let named: Vec<&str> = g
            .provenance
            .lines()
            .filter_map(|l| l.strip_prefix("data="))
            .collect();
        assert!(!named.is_empty());
        for n in named {
            let (file, data) = KEPT_DATA
                .iter()
                .find(|(f, _)| n.starts_with(&format!("{f}:")))
                .unwrap_or_else(|| panic!("{n}: not kept in weights/data"));
            let games = data.lines().filter(|l| !l.starts_with('#')).count();
            assert!(games > 0);
            let want = format!(
                "{file}: {games} games; fnv1a {:016x};",
                fnv1a(data.as_bytes())
            );
            assert!(n.starts_with(&want), "{n} vs {want}");
        }
    }

    #[test]
    fn tables_round_trip_and_corruption_is_refused() {
        let mut g = Gammas::neutral();
        g.provenance = "seed=3\n".into();
        g.set(0, 77, 2.5);
        g.set(3, 1, 40.0);
        let text = g.to_text();
        let back = Gammas::parse(&text).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.get("seed"), Some("3"));
        assert_eq!(back.gamma(0, 77), 2.5);
        assert_eq!(back.gamma(0, 78), 1.0);
        let f = [77, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0];
        assert_eq!(back.strength(&f), 100.0);
        let flipped = text.replace("pat3 77 2.5", "pat3 77 3.5");
        assert!(Gammas::parse(&flipped).unwrap_err().contains("checksum"));
        assert!(Gammas::parse(&text[..text.len() - 30]).is_err());
        let mut bad = Gammas::neutral();
        bad.set(1, 0, 1.0);
        let text = bad.to_text().replace("last 0 1", "last 99 1");
        let body = &text[..text.rfind("fnv1a").unwrap()];
        let resummed = format!("{body}fnv1a {:016x}\n", fnv1a(body.as_bytes()));
        assert!(Gammas::parse(&resummed).unwrap_err().contains("line"));
    }

    #[test]
    fn the_spatial_dictionary_round_trips_in_the_file_and_is_checked() {
        let mut g = Gammas::neutral();
        g.set_spatial_dict(SpatialDict::new([0xabc, 0x1234_5678_9abc_def0]));
        g.set(SPATIAL, NO_MATCH, 0.5);
        g.set(SPATIAL, 3, 8.0);
        g.set(SPATIAL, SMALL_BOARD, 9.0);
        let text = g.to_text();
        assert!(text.contains("spatial 3 8 123456789abcdef0\n"), "{text}");
        let back = Gammas::parse(&text).unwrap();
        assert_eq!(back, g);
        assert_eq!(
            back.spatial_dict().hashes(),
            &[0xabc, 0x1234_5678_9abc_def0]
        );
        let gamma = |l| back.gamma(SPATIAL, l);
        assert_eq!(
            (gamma(SMALL_BOARD), gamma(NO_MATCH), gamma(2), gamma(3)),
            (1.0, 0.5, 1.0, 8.0)
        );
        let resum = |text: String| {
            let body = text[..text.rfind("fnv1a").unwrap()].to_string();
            format!("{body}fnv1a {:016x}\n", fnv1a(body.as_bytes()))
        };
        // A pattern out of order, twice, without its hash, or a hash on another group.
        for (from, to) in [
            ("spatial 2 1 ", "spatial 4 1 "),
            ("0000000000000abc", "123456789abcdef0"),
            ("spatial 2 1 0000000000000abc", "spatial 2 1"),
            ("line 0 1\n", "line 0 1 0abc\n"),
        ] {
            let bad = resum(text.replace(from, to));
            assert!(Gammas::parse(&bad).is_err(), "{from} -> {to}");
        }
        assert!(Gammas::parse(&text.replace("spatial 3 8 ", "spatial 3 9 ")).is_err());
    }
}
