//! The files of `sente match --out` (one SGF per game, games.pgn, results.txt, result.json),
//! and `sente match merge`, which turns the `--out` directories of a schedule's parts into the
//! output of one whole run.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};

use crate::arena::merge::merge;
use crate::arena::record::ResultFile;
use crate::arena::report::{pgn, sgf};
use crate::arena::tournament::TournamentReport;

/// games.pgn, results.txt and result.json (and with `sgf`, one SGF per game) in `dir`.
pub fn write_outputs(
    dir: &Path,
    report: &TournamentReport,
    file: &ResultFile,
    sgfs: bool,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let write = |name: &str, text: String| write_in(dir, name, text);
    if sgfs {
        for g in &report.games {
            write(
                &format!("game-{:04}.sgf", g.index + 1),
                sgf(&report.names, &report.config.setup, g),
            )?;
        }
    }
    write_tables(dir, report)?;
    // Written last and whole: a directory with a result.json is a finished part.
    let tmp = dir.join("result.json.tmp");
    std::fs::write(&tmp, file.to_json()).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, dir.join("result.json"))
        .with_context(|| format!("writing {}", dir.join("result.json").display()))?;
    Ok(())
}

/// How often a running match rewrites its table: after every game, a long match would rewrite
/// games.pgn in full thousands of times.
pub const TABLE_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// games.pgn and results.txt for `report` in `dir`.
pub fn write_tables(dir: &Path, report: &TournamentReport) -> anyhow::Result<()> {
    write_in(dir, "games.pgn", pgn(report))?;
    write_in(dir, "results.txt", format!("{report}\n"))
}

/// Writes `text` to the file `name` in `dir`.
fn write_in(dir: &Path, name: &str, text: String) -> anyhow::Result<()> {
    let path = dir.join(name);
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
}

/// What `--out` received, for stdout.
pub fn wrote(report: &TournamentReport, dir: &Path) -> String {
    format!(
        "wrote {} SGF files, games.pgn, results.txt and result.json to {}",
        report.games.len(),
        dir.display()
    )
}

/// `sente match merge`.
pub fn run_merge(dirs: &[PathBuf], out: Option<&Path>, json: bool) -> anyhow::Result<()> {
    let mut files = Vec::with_capacity(dirs.len());
    for d in dirs {
        let path = if d.is_dir() {
            d.join("result.json")
        } else {
            d.clone()
        };
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        files.push(ResultFile::parse(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?);
    }
    let merged = merge(&files).map_err(|e| anyhow!(e))?;
    if json {
        println!("{}", serde_json::to_string(&merged.summary())?);
    } else {
        println!("{}", merged.report);
        let s = merged.summary();
        if s.pending + s.surplus + s.duplicates > 0 {
            println!(
                "merged {} parts: {} games waiting for an earlier one (the SPRT reads in schedule order), {} played after the SPRT decided (not counted), {} met twice (counted once)",
                files.len(),
                s.pending,
                s.surplus,
                s.duplicates
            );
        }
    }
    if let Some(dir) = out {
        write_outputs(dir, &merged.report, &merged.file, true)?;
        // stdout carries only the JSON line under --json.
        if json {
            eprintln!("{}", wrote(&merged.report, dir));
        } else {
            println!("{}", wrote(&merged.report, dir));
        }
    }
    Ok(())
}
