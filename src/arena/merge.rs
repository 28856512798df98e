//! Merging the result files of the parts of one schedule (shards, or batches of a distributed
//! run, some perhaps re-run after a failure) into the report a whole run gives: same games,
//! table, Elo, SPRT state and records.
//!
//! Files merge only when their settings agree, and every game must sit where the schedule puts
//! it (its opening, pairing and colours follow from its number). A game number seen twice
//! counts once (the first file given wins), so a re-run batch never counts twice. With an SPRT
//! the games are read in schedule order ([`OrderedSprt`]): the merge counts games `0..n` and
//! stops at the deciding game, as a one-thread run would; games behind a gap wait (pending),
//! games after the decision are dropped (surplus).

use std::collections::btree_map::{BTreeMap, Entry};
use std::time::Duration;

use serde::Serialize;

use super::record::{Game, ResultFile, FORMAT};
use super::shard::Shard;
use super::stats::{elo_estimate, OrderedSprt, SprtDecision};
use super::tournament::{pairings, schedule_len, GameRecord, TournamentReport};

/// The merge of some result files.
#[derive(Debug)]
pub struct Merged {
    /// What a whole run with the counted games reports (its part is the whole schedule).
    pub report: TournamentReport,
    /// Every distinct game kept (the counted ones and the pending ones), as a result file that
    /// merges again with further parts.
    pub file: ResultFile,
    /// Games not counted yet: an SPRT reads in schedule order and an earlier game is missing.
    pub pending: usize,
    /// Games played after the SPRT decided, dropped.
    pub surplus: usize,
    /// Game numbers met more than once (counted once).
    pub duplicates: usize,
}

/// A merge's state in numbers, for drivers (`sente match merge --json`).
#[derive(Serialize, Debug)]
pub struct Summary {
    /// Games counted.
    pub games: usize,
    /// Games in the whole schedule.
    pub planned: usize,
    /// Every game counted, or the SPRT decided: nothing more to play.
    pub complete: bool,
    /// See [`Merged::pending`].
    pub pending: usize,
    /// See [`Merged::surplus`].
    pub surplus: usize,
    /// See [`Merged::duplicates`].
    pub duplicates: usize,
    /// Per pairing, from its first engine's side.
    pub pairings: Vec<PairingSummary>,
    /// The SPRT, if one runs.
    pub sprt: Option<SprtSummary>,
}

/// One pairing's counts and Elo (null where infinite or undefined).
#[derive(Serialize, Debug)]
#[allow(missing_docs)]
pub struct PairingSummary {
    pub first: String,
    pub second: String,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub score: Option<f64>,
    pub elo: Option<f64>,
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
}

/// The SPRT's state.
#[derive(Serialize, Debug)]
#[allow(missing_docs)]
pub struct SprtSummary {
    pub elo0: f64,
    pub elo1: f64,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// `H1`, `H0` or `continue`.
    pub decision: &'static str,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Merges `files` (at least one).
pub fn merge(files: &[ResultFile]) -> Result<Merged, String> {
    let first = files.first().ok_or("nothing to merge")?;
    let settings = &first.settings;
    for f in files {
        if f.format != FORMAT {
            return Err(format!("format {:?}, expected {FORMAT:?}", f.format));
        }
        if f.settings != *settings {
            return Err(format!(
                "part {} was played with other settings than part {} (engines, game, board, time control, seed, openings or SPRT differ)",
                f.parts.join("+"),
                first.parts.join("+")
            ));
        }
    }
    let concurrency = files.iter().map(|f| f.concurrency).max().unwrap_or(1);
    let mut config = settings.config(Shard::WHOLE, concurrency)?;
    let n = settings.engines.len();
    if n < 2 {
        return Err("a match needs at least two engines".into());
    }
    if config.openings.is_empty() {
        return Err("no openings".into());
    }
    let pairs = pairings(n, config.schedule);
    let planned = schedule_len(n, config.schedule, config.games);
    let mut games: BTreeMap<usize, GameRecord> = BTreeMap::new();
    let mut duplicates = 0;
    for f in files {
        for g in &f.games {
            let rec = g.record()?;
            check_place(&rec, &pairs, planned, config.openings.len())?;
            match games.entry(rec.index) {
                Entry::Occupied(_) => duplicates += 1,
                Entry::Vacant(v) => {
                    v.insert(rec);
                }
            }
        }
    }
    let mut sprt = config.sprt.filter(|_| n == 2).map(OrderedSprt::new);
    let (mut counted, mut pending, mut surplus) = (Vec::new(), 0, 0);
    match &mut sprt {
        None => counted.extend(games.values().cloned()),
        Some(test) => {
            for g in games.values() {
                test.add(g.index, g.wdl_for(0));
            }
            for g in games.values() {
                if g.index < test.counted_until() {
                    counted.push(g.clone());
                } else if test.state().2 == SprtDecision::Continue {
                    pending += 1;
                } else {
                    surplus += 1;
                }
            }
        }
    }
    let kept: Vec<Game> = games
        .values()
        .filter(|g| {
            sprt.as_ref().is_none_or(|t| {
                t.state().2 == SprtDecision::Continue || g.index < t.counted_until()
            })
        })
        .map(Game::new)
        .collect();
    let elapsed_ms = files.iter().map(|f| f.elapsed_ms).max().unwrap_or(0);
    let mut parts: Vec<String> = files.iter().flat_map(|f| f.parts.clone()).collect();
    parts.dedup();
    config.concurrency = concurrency;
    let report = TournamentReport {
        config,
        names: settings.engines.clone(),
        pairings: pairs,
        games: counted,
        planned,
        sprt: sprt.map(|t| t.state()),
        elapsed: Duration::from_millis(elapsed_ms),
    };
    let file = ResultFile {
        format: FORMAT.to_string(),
        settings: settings.clone(),
        parts,
        concurrency,
        elapsed_ms,
        games: kept,
    };
    Ok(Merged {
        report,
        file,
        pending,
        surplus,
        duplicates,
    })
}

/// A game must be where the schedule puts it: rounds of (pairing, first engine black then
/// white), round `r` on opening `r` (cycled).
fn check_place(
    g: &GameRecord,
    pairs: &[(usize, usize)],
    planned: usize,
    openings: usize,
) -> Result<(), String> {
    let per_round = pairs.len() * 2;
    let ok = g.index < planned && {
        let (round, k) = (g.index / per_round, g.index % per_round);
        let (a, b) = pairs[k / 2];
        let colours = if k % 2 == 0 { (a, b) } else { (b, a) };
        g.opening == round % openings && g.pairing == k / 2 && (g.black, g.white) == colours
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "game {} is not the schedule's game {} (opening, pairing or colours differ, or past the {planned} games)",
            g.index + 1,
            g.index + 1
        ))
    }
}

impl Merged {
    /// The state in numbers.
    pub fn summary(&self) -> Summary {
        let r = &self.report;
        let decided = r.sprt.is_some_and(|(_, _, d)| d != SprtDecision::Continue);
        Summary {
            games: r.games.len(),
            planned: r.planned,
            complete: decided || r.games.len() == r.planned,
            pending: self.pending,
            surplus: self.surplus,
            duplicates: self.duplicates,
            pairings: r
                .pairings
                .iter()
                .enumerate()
                .map(|(i, &(a, b))| {
                    let w = r.pairing_wdl(i);
                    let e = elo_estimate(&w);
                    PairingSummary {
                        first: r.names[a].clone(),
                        second: r.names[b].clone(),
                        wins: w.wins,
                        losses: w.losses,
                        draws: w.draws,
                        score: w.score(),
                        elo: e.and_then(|e| finite(e.elo)),
                        elo_low: e.and_then(|e| finite(e.low)),
                        elo_high: e.and_then(|e| finite(e.high)),
                    }
                })
                .collect(),
            sprt: r.sprt.map(|(t, llr, d)| {
                let (lower, upper) = t.bounds();
                SprtSummary {
                    elo0: t.elo0,
                    elo1: t.elo1,
                    llr,
                    lower,
                    upper,
                    decision: match d {
                        SprtDecision::AcceptH1 => "H1",
                        SprtDecision::AcceptH0 => "H0",
                        SprtDecision::Continue => "continue",
                    },
                }
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::manifest::GameName;
    use crate::arena::stats::Sprt;
    use crate::arena::tournament::tests::{config, internal};
    use crate::arena::tournament::{run, Entrant, TournamentConfig};
    use std::sync::atomic::AtomicUsize;

    /// The games without their timings, which no two runs share.
    fn played(games: &[GameRecord]) -> Vec<GameRecord> {
        games
            .iter()
            .cloned()
            .map(|mut g| {
                g.wall_ms = 0;
                g.result
                    .moves
                    .iter_mut()
                    .for_each(|p| p.ms = p.ms.map(|_| 0));
                g
            })
            .collect()
    }

    fn parts(cfg: &TournamentConfig, entrants: &[Entrant], n: usize) -> Vec<ResultFile> {
        (0..n)
            .map(|index| {
                let mut c = cfg.clone();
                c.shard = Shard { index, count: n };
                ResultFile::new(&run(&c, entrants, &mut |_, _| {}, &AtomicUsize::new(0)).unwrap())
            })
            .collect()
    }

    #[test]
    fn three_parts_merge_to_the_whole_run() {
        let cfg = config(GameName::Gomoku, 9, 7, 1);
        let entrants = [internal("classic"), internal("strong"), internal("strong")];
        let whole = run(&cfg, &entrants, &mut |_, _| {}, &AtomicUsize::new(0)).unwrap();
        let mut files = parts(&cfg, &entrants, 3);
        assert_eq!(files.iter().map(|f| f.games.len()).sum::<usize>(), 24);
        // Any order, and a part given twice (a re-run batch), still adds up.
        files.reverse();
        files.push(files[1].clone());
        let m = merge(&files).unwrap();
        assert_eq!((m.pending, m.surplus, m.duplicates), (0, 0, 8));
        assert_eq!(played(&m.report.games), played(&whole.games));
        assert_eq!(m.report.planned, whole.planned);
        for p in 0..3 {
            assert_eq!(m.report.pairing_wdl(p), whole.pairing_wdl(p));
        }
        let body = |r: &TournamentReport| {
            let t = r.to_string();
            t.lines()
                .skip(1)
                .filter(|l| !l.starts_with("longest think"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(body(&m.report), body(&whole));
        let s = m.summary();
        assert!(s.complete);
        assert_eq!((s.games, s.planned), (24, 24));
        // The merged file merges again to the same.
        let again = merge(std::slice::from_ref(&m.file)).unwrap();
        assert_eq!(played(&again.report.games), played(&whole.games));
    }

    #[test]
    fn a_merged_sprt_stops_where_a_whole_run_stops() {
        let mut cfg = config(GameName::Ttt, 3, 200, 1);
        cfg.sprt = Some(Sprt::new(0.0, 50.0, 0.05, 0.05));
        let entrants = [internal("perfect"), internal("dumber")];
        let whole = run(&cfg, &entrants, &mut |_, _| {}, &AtomicUsize::new(0)).unwrap();
        let (_, _, d) = whole.sprt.unwrap();
        assert_eq!(d, SprtDecision::AcceptH1);
        // Parts play all their games; the merge drops those after the decision.
        let files = parts(&cfg, &entrants, 4);
        assert_eq!(files[0].games.len(), 50);
        let m = merge(&files).unwrap();
        assert_eq!(played(&m.report.games), played(&whole.games));
        assert_eq!(m.report.sprt, whole.sprt);
        assert_eq!(m.surplus, 200 - whole.games.len());
        assert!(m.summary().complete);
        assert_eq!(m.summary().sprt.unwrap().decision, "H1");
        // Without the first part, nothing counts yet: everything waits for game 1.
        let m = merge(&files[1..]).unwrap();
        assert_eq!((m.report.games.len(), m.pending), (0, 150));
        assert!(!m.summary().complete);
        // Two threads stop at the same game as one.
        cfg.concurrency = 2;
        let two = run(&cfg, &entrants, &mut |_, _| {}, &AtomicUsize::new(0)).unwrap();
        assert_eq!(played(&two.games), played(&whole.games));
    }

    #[test]
    fn mismatched_parts_are_refused() {
        let cfg = config(GameName::Ttt, 3, 4, 1);
        let entrants = [internal("perfect"), internal("dumb")];
        let files = parts(&cfg, &entrants, 2);
        let mut other = files[1].clone();
        other.settings.seed += 1;
        assert!(merge(&[files[0].clone(), other])
            .unwrap_err()
            .contains("other settings"));
        let mut moved = files[1].clone();
        moved.games[0].black = moved.games[0].white;
        assert!(merge(&[moved]).unwrap_err().contains("schedule"));
        let mut far = files[1].clone();
        far.games[0].index = 99;
        assert!(merge(&[far]).is_err());
        assert!(merge(&[]).is_err());
    }
}
