//! Engine manifests (`engines/*.toml`): how to start an engine, which protocol it speaks, which
//! games it plays and what to tell it before a game. Loading, placeholder expansion and the
//! check that the executable is there.
//!
//! ```toml
//! name = "sente-classic"                 # what tables and SGF files call it
//! description = "sente, classic level"   # optional
//! command = "{sente}"                    # executable; {sente} = the running sente binary
//! args = ["--protocol", "gomocup", "--level", "classic", "--seed", "{seed}"]
//! protocol = "gomocup"                   # or "gtp"
//! games = ["gomoku", "renju"]            # any of gomoku, renju, ttt, go
//! working_dir = "."                      # optional, relative to this file; default: inherited
//! install_hint = "apt-get install gnugo" # optional, printed when the command is missing
//! tolerance_ms = 5000                    # optional: this engine's grace past a move's budget
//! settle_ms = 30                         # optional, Gomocup: quiet time after its move
//! [info]                                 # Gomocup only: `INFO key value` after START
//! max_depth = 4
//! # GTP only: commands sent after boardsize/clear_board, each must succeed
//! # gtp_commands = ["level 10"]
//! ```
//!
//! Placeholders in `command`, `args` and `working_dir`: `{sente}` the path of the running
//! executable (so the shipped manifests work from a fresh clone, whichever profile built it),
//! `{seed}` a seed that differs per engine and per process start (derived from the match seed),
//! `{dir}` the manifest's directory, `{anchors}` the folder where `../shared/anchors/build.sh`
//! built the anchor engines (`$SENTE_ANCHORS`, else `anchors` beside the repository).

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// Gomocup / Piskvork.
    Gomocup,
    /// Go Text Protocol v2.
    Gtp,
}

/// The games a manifest may list (and `sente match --game` accepts): the rules' registry.
pub use crate::rules::game::GameName;

/// A manifest as written in the file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Engine name used in tables and SGF files.
    pub name: String,
    /// One line for humans.
    #[serde(default)]
    pub description: String,
    /// Executable (placeholders allowed).
    pub command: String,
    /// Arguments (placeholders allowed).
    #[serde(default)]
    pub args: Vec<String>,
    /// Protocol spoken on stdin/stdout.
    pub protocol: Protocol,
    /// Games the engine plays.
    pub games: Vec<GameName>,
    /// Working directory (placeholders allowed), relative to the manifest's directory.
    #[serde(default)]
    pub working_dir: Option<String>,
    /// How to install the executable when it is missing.
    #[serde(default)]
    pub install_hint: Option<String>,
    /// Grace past a move's budget for this engine, in ms (overrides `--tolerance`, as
    /// c-gomoku-cli's per-engine `tolerance=`): for engines that do not budget their time.
    #[serde(default)]
    pub tolerance_ms: Option<u64>,
    /// Gomocup only: wait this long (ms) after the engine's move before sending it anything;
    /// Rapfi drops a command that arrives while its finished search is still winding down.
    #[serde(default)]
    pub settle_ms: Option<u64>,
    /// Gomocup `INFO key value` lines sent after START.
    #[serde(default)]
    pub info: BTreeMap<String, toml::Value>,
    /// GTP commands sent after `boardsize`/`clear_board`; each must succeed.
    #[serde(default)]
    pub gtp_commands: Vec<String>,
}

/// A manifest that was read from disk, with where it came from.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The manifest.
    pub manifest: Manifest,
    /// Directory of the manifest file (for `{dir}` and `working_dir`).
    pub dir: PathBuf,
}

/// Why an engine cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ManifestError {
    /// No manifest of this name in the directory.
    NotFound(String),
    /// The file could not be read or parsed.
    Invalid(String),
    /// The executable is not on this machine: skip the engine.
    Missing(String),
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManifestError::NotFound(s) | ManifestError::Invalid(s) | ManifestError::Missing(s) => {
                f.write_str(s)
            }
        }
    }
}

impl std::error::Error for ManifestError {}

/// The `engines/` directory to look in by default: `./engines` when it exists, otherwise the
/// one in the source tree this binary was built from.
pub fn default_engines_dir() -> PathBuf {
    let here = PathBuf::from("engines");
    if here.is_dir() {
        here
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("engines")
    }
}

/// Where the anchor engines were built: `$SENTE_ANCHORS`, else `anchors/` beside the source tree
/// this binary was built from (where `../shared/anchors/build.sh ../anchors ...` puts them).
pub fn anchors_dir() -> PathBuf {
    match std::env::var_os("SENTE_ANCHORS") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../anchors"),
    }
}

/// Finds an engine: `name` is a path to a `.toml` file, or the `name` of a manifest in `dir`
/// (file `dir/<name>.toml`, or any file whose `name` field matches).
pub fn find(name: &str, dir: &Path) -> Result<EngineSpec, ManifestError> {
    if name.ends_with(".toml") || name.contains('/') {
        return load(Path::new(name));
    }
    let direct = dir.join(format!("{name}.toml"));
    if direct.is_file() {
        return load(&direct);
    }
    let mut known = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        {
            if let Ok(spec) = load(p) {
                if spec.manifest.name == name {
                    return Ok(spec);
                }
                known.push(spec.manifest.name);
            }
        }
    }
    Err(ManifestError::NotFound(format!(
        "no engine named {name:?} in {} (known: {})",
        dir.display(),
        if known.is_empty() {
            "none".to_string()
        } else {
            known.join(", ")
        }
    )))
}

/// Reads and checks one manifest file.
pub fn load(path: &Path) -> Result<EngineSpec, ManifestError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ManifestError::Invalid(format!("{}: {e}", path.display())))?;
    let manifest =
        parse(&text).map_err(|e| ManifestError::Invalid(format!("{}: {e}", path.display())))?;
    let dir = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    Ok(EngineSpec { manifest, dir })
}

/// Parses manifest text and checks what serde cannot.
pub fn parse(text: &str) -> Result<Manifest, String> {
    let m: Manifest = toml::from_str(text).map_err(|e| e.to_string())?;
    if m.name.trim().is_empty() || m.name.chars().any(char::is_whitespace) {
        return Err(format!("engine name {:?} must be one word", m.name));
    }
    if m.command.trim().is_empty() {
        return Err("empty command".into());
    }
    if m.games.is_empty() {
        return Err("`games` lists no game".into());
    }
    if m.protocol == Protocol::Gomocup && m.games.contains(&GameName::Go) {
        return Err("Go is played over GTP only".into());
    }
    if m.protocol == Protocol::Gtp && !m.info.is_empty() {
        return Err("`info` is for Gomocup engines; use `gtp_commands`".into());
    }
    if m.protocol == Protocol::Gtp && m.settle_ms.is_some() {
        return Err("`settle_ms` is for Gomocup engines".into());
    }
    if m.protocol == Protocol::Gomocup && !m.gtp_commands.is_empty() {
        return Err("`gtp_commands` is for GTP engines; use `info`".into());
    }
    for v in m.info.values() {
        if matches!(v, toml::Value::Array(_) | toml::Value::Table(_)) {
            return Err("`info` values must be strings, numbers or booleans".into());
        }
    }
    Ok(m)
}

/// A command line ready to spawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    /// Executable path or name.
    pub program: PathBuf,
    /// Arguments.
    pub args: Vec<String>,
    /// Working directory, if the manifest sets one.
    pub cwd: Option<PathBuf>,
}

impl EngineSpec {
    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.manifest.name
    }

    /// The `INFO` lines of the manifest, as `(key, value)` text.
    pub fn info_lines(&self) -> Vec<(String, String)> {
        self.manifest
            .info
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    toml::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (k.clone(), v)
            })
            .collect()
    }

    /// The command line with placeholders expanded for a process started with `seed`.
    pub fn command_line(&self, seed: u64) -> CommandLine {
        let sente = std::env::current_exe()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| "sente".to_string());
        let dir = self.dir.display().to_string();
        let anchors = anchors_dir().display().to_string();
        let expand = |s: &str| {
            s.replace("{sente}", &sente)
                .replace("{seed}", &seed.to_string())
                .replace("{dir}", &dir)
                .replace("{anchors}", &anchors)
        };
        CommandLine {
            program: PathBuf::from(expand(&self.manifest.command)),
            args: self.manifest.args.iter().map(|a| expand(a)).collect(),
            cwd: self
                .manifest
                .working_dir
                .as_ref()
                .map(|w| self.dir.join(expand(w))),
        }
    }

    /// Whether the executable exists here; `Err(Missing)` with a readable reason otherwise.
    pub fn check_available(&self) -> Result<(), ManifestError> {
        let program = self.command_line(0).program;
        let found = if program.components().count() > 1 {
            program.is_file()
        } else {
            std::env::var_os("PATH").is_some_and(|paths| {
                std::env::split_paths(&paths).any(|d| d.join(&program).is_file())
            })
        };
        if found {
            return Ok(());
        }
        let hint = self
            .manifest
            .install_hint
            .as_ref()
            .map(|h| format!(" ({h})"))
            .unwrap_or_default();
        Err(ManifestError::Missing(format!(
            "engine {}: {} not found{hint}; skipped",
            self.name(),
            program.display()
        )))
    }

    /// Whether the manifest lists `game`.
    pub fn plays(&self, game: GameName) -> bool {
        self.manifest.games.contains(&game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"
name = "sente-classic"
command = "{sente}"
args = ["--level", "classic", "--seed", "{seed}", "{dir}/x"]
protocol = "gomocup"
games = ["gomoku", "renju"]
[info]
max_depth = 4
level = "classic"
"#;

    #[test]
    fn the_anchors_folder_is_expanded_in_command_and_working_dir() {
        let text = "name = \"a\"\ncommand = \"{anchors}/r/pbrain\"\nprotocol = \"gomocup\"\n\
                    games = [\"gomoku\"]\nworking_dir = \"{anchors}/r\"\n";
        let spec = EngineSpec {
            manifest: parse(text).unwrap(),
            dir: PathBuf::from("/tmp/engines"),
        };
        let cl = spec.command_line(1);
        assert_eq!(cl.program, anchors_dir().join("r/pbrain"));
        assert_eq!(cl.cwd, Some(anchors_dir().join("r")));
    }

    #[test]
    fn parses_and_expands_placeholders() {
        let spec = EngineSpec {
            manifest: parse(SAMPLE).unwrap(),
            dir: PathBuf::from("/tmp/engines"),
        };
        assert_eq!(spec.name(), "sente-classic");
        assert!(spec.plays(GameName::Renju) && !spec.plays(GameName::Go));
        let cl = spec.command_line(42);
        assert_eq!(cl.program, std::env::current_exe().unwrap());
        assert_eq!(
            cl.args,
            ["--level", "classic", "--seed", "42", "/tmp/engines/x"]
        );
        assert_eq!(cl.cwd, None);
        assert_eq!(
            spec.info_lines(),
            vec![
                ("level".to_string(), "classic".to_string()),
                ("max_depth".to_string(), "4".to_string())
            ]
        );
        assert!(spec.check_available().is_ok());
    }

    #[test]
    fn refuses_inconsistent_manifests() {
        let base = "name = \"x\"\ncommand = \"x\"\n";
        for (body, why) in [
            ("protocol = \"gomocup\"\ngames = []\n", "no game"),
            ("protocol = \"gomocup\"\ngames = [\"go\"]\n", "GTP only"),
            (
                "protocol = \"gtp\"\ngames = [\"go\"]\n[info]\na = 1\n",
                "info",
            ),
            (
                "protocol = \"gtp\"\ngames = [\"go\"]\nsettle_ms = 30\n",
                "settle_ms",
            ),
            ("protocol = \"uci\"\ngames = [\"go\"]\n", "unknown variant"),
            (
                "protocol = \"gtp\"\ngames = [\"go\"]\ncolour = 1\n",
                "unknown field",
            ),
        ] {
            let err = parse(&format!("{base}{body}")).unwrap_err();
            assert!(err.contains(why), "{body}: {err}");
        }
        let err =
            parse("name = \"two words\"\ncommand = \"x\"\nprotocol = \"gtp\"\ngames = [\"go\"]\n")
                .unwrap_err();
        assert!(err.contains("one word"));
    }

    #[test]
    fn a_missing_executable_is_reported_with_the_hint() {
        let spec = EngineSpec {
            manifest: parse(
                "name = \"ghost\"\ncommand = \"/nonexistent/ghost-engine\"\nprotocol = \"gtp\"\ngames = [\"go\"]\ninstall_hint = \"apt-get install ghost\"\n",
            )
            .unwrap(),
            dir: PathBuf::from("."),
        };
        let err = spec.check_available().unwrap_err().to_string();
        assert!(
            err.contains("/nonexistent/ghost-engine not found (apt-get install ghost); skipped")
        );
        let on_path = EngineSpec {
            manifest: parse(
                "name = \"sh\"\ncommand = \"sh\"\nprotocol = \"gtp\"\ngames = [\"go\"]\n",
            )
            .unwrap(),
            dir: PathBuf::from("."),
        };
        assert!(on_path.check_available().is_ok());
    }

    #[test]
    fn the_shipped_manifests_parse() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("engines");
        let mut n = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            if p.extension().is_some_and(|e| e == "toml") {
                let spec = load(&p).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(
                    find(spec.name(), &dir).unwrap().manifest.name,
                    spec.manifest.name
                );
                n += 1;
            }
        }
        assert!(n >= 10, "only {n} manifests");
        assert!(matches!(
            find("nonesuch", &dir),
            Err(ManifestError::NotFound(_))
        ));
    }
}
