//! The direction of imports of `docs/design.md`, checked on the source: protocol -> session
//! -> players -> search -> eval -> rules, with the side rooms that drive the engine above the
//! protocols (arena first; selfplay, study and play over it; train and bench over those) and
//! the command line above them all. A module may use its own layer and every layer below; a
//! path `crate::x` to a layer above fails this test, whether in a `use` or inline in code (doc
//! comments may link anywhere). And a game's own folder or file (`go`, `gomoku`, `ttt`) uses
//! no other game's.

use std::path::{Path, PathBuf};

/// The layers, bottom first. A top-level module not listed here fails the test, so a new one
/// must be given its place.
const LAYERS: &[&[&str]] = &[
    &["cpu_time"],
    &["rules"],
    &["eval"],
    // `tunables!` is exported at the crate root from `search::tunables`.
    &["search", "tunables"],
    &["players"],
    &["session"],
    &["protocol"],
    &["arena"],
    &["selfplay", "study", "play"],
    &["train", "bench"],
    &["cli", "main", "lib", "bin"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The top-level modules a source text names through `crate::`, outside comments.
fn crate_paths(text: &str) -> Vec<String> {
    crate_segments(text)
        .into_iter()
        .map(|segs| segs[0].clone())
        .collect()
}

/// `src/a/b.rs` -> `a`; `src/a.rs` -> `a`; `src/bin/x.rs` -> `bin`.
fn top_module(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("a path");
    let name = first.as_os_str().to_string_lossy();
    name.strip_suffix(".rs").unwrap_or(&name).to_string()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source tree") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every import that points up the stack, as `file: from -> to`.
fn upward_imports(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    for file in files {
        let from = top_module(src, &file);
        let Some(from_layer) = layer_of(&from) else {
            bad.push(format!("{}: module `{from}` has no layer", file.display()));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("readable source");
        for to in crate_paths(&text) {
            match layer_of(&to) {
                Some(l) if l > from_layer => {
                    bad.push(format!("{}: {from} -> {to}", file.display()))
                }
                Some(_) => {}
                None => bad.push(format!("{}: `crate::{to}` has no layer", file.display())),
            }
        }
    }
    bad
}

/// The games whose code may sit in a folder or file of that name in any layer.
const GAMES: &[&str] = &["go", "gomoku", "ttt"];

/// Every `crate::a::b::c` path of a source text outside comments, as its segments (a `use`
/// group's items each as a path of their own, from the line the group opens on).
fn crate_segments(text: &str) -> Vec<Vec<String>> {
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect()
    };
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.find("//").map_or(line, |i| &line[..i]);
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let before = rest[..i].chars().last();
            rest = &rest[i + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let head = word(rest);
            let mut paths = vec![head.clone()];
            if let Some(group) = rest[head.len()..].strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or("");
                paths = inner
                    .split(',')
                    .map(|item| format!("{head}{}", word(item.trim())))
                    .collect();
            }
            for p in paths {
                let segs: Vec<String> = p
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect();
                if !segs.is_empty() {
                    out.push(segs);
                }
            }
        }
    }
    out
}

/// The game a source file belongs to by its folder or file name (`players/go/mcts.rs`,
/// `session/go.rs`), if any.
fn game_of(src: &Path, file: &Path) -> Option<&'static str> {
    let rel = file.strip_prefix(src).ok()?;
    rel.components().find_map(|c| {
        let name = c.as_os_str().to_string_lossy();
        let stem = name.strip_suffix(".rs").unwrap_or(&name).to_string();
        GAMES.iter().copied().find(|g| *g == stem)
    })
}

/// Known crossings, as (file under `src/`, path): none since the Gomocup session's
/// tic-tac-toe level went to the family's own file (`session/mnk.rs`).
const KNOWN_CROSSINGS: &[(&str, &str)] = &[];

/// Every path from one game's code into another game's, as `file: game -> path`, but for
/// [`KNOWN_CROSSINGS`].
fn cross_game_imports(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    for file in files {
        let Some(game) = game_of(src, &file) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("readable source");
        for segs in crate_segments(&text) {
            let rel = file
                .strip_prefix(src)
                .unwrap_or(&file)
                .to_string_lossy()
                .to_string();
            let path = segs.join("::");
            if KNOWN_CROSSINGS.contains(&(rel.as_str(), path.as_str())) {
                continue;
            }
            if let Some(other) = segs
                .iter()
                .find(|s| GAMES.contains(&s.as_str()) && s.as_str() != game)
            {
                bad.push(format!(
                    "{}: {game} -> crate::{} ({other})",
                    file.display(),
                    segs.join("::")
                ));
            }
        }
    }
    bad
}

#[test]
fn a_games_code_uses_no_other_games() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = cross_game_imports(&src);
    assert!(
        bad.is_empty(),
        "one game's code using another's:\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_known_crossing_is_still_there() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (file, path) in KNOWN_CROSSINGS {
        let text = std::fs::read_to_string(src.join(file)).expect("a known file");
        let found = crate_segments(&text).iter().any(|s| s.join("::") == *path);
        assert!(
            found,
            "{file} no longer uses crate::{path}: drop it from KNOWN_CROSSINGS"
        );
    }
}

#[test]
fn the_game_checker_sees_folders_files_and_groups() {
    let dir = std::env::temp_dir().join(format!("sente-games-{}", std::process::id()));
    let go = dir.join("players").join("go");
    std::fs::create_dir_all(&go).unwrap();
    std::fs::write(
        go.join("a.rs"),
        "use crate::rules::go::Point;\nuse crate::search::mcts;\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("players").join("ttt.rs"),
        "use crate::rules::ttt::T;\n",
    )
    .unwrap();
    assert!(cross_game_imports(&dir).is_empty());
    std::fs::write(
        go.join("b.rs"),
        "use crate::{rules::go::P, players::ttt::X};\n",
    )
    .unwrap();
    let bad = cross_game_imports(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(bad[0].contains("go -> crate::players::ttt::X"), "{bad:?}");
}

#[test]
fn the_side_rooms_are_ordered() {
    let tools = |m| layer_of(m).unwrap();
    assert!(tools("arena") < tools("selfplay") && tools("selfplay") < tools("train"));
    for above in ["bench", "study", "play"] {
        assert!(tools(above) > tools("arena"), "{above}");
    }
    assert!(tools("arena") > tools("protocol"));
}

#[test]
fn no_import_points_up_the_stack() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = upward_imports(&src);
    assert!(bad.is_empty(), "imports up the stack:\n{}", bad.join("\n"));
}

#[test]
fn the_checker_sees_uses_groups_and_inline_paths_but_not_comments() {
    let text = "use crate::rules::Board;\n\
                use crate::{eval::x, search};\n\
                let y = crate::players::f();\n\
                //! see [`crate::session::x`]\n\
                let z = 1; // crate::protocol::y\n\
                use mycrate::arena;\n";
    assert_eq!(crate_paths(text), ["rules", "eval", "search", "players"]);
    assert!(layer_of("players") > layer_of("search"));
    assert!(layer_of("protocol") > layer_of("session"));
    assert_eq!(layer_of("nonesuch"), None);
}

#[test]
fn an_upward_import_fails() {
    let dir = std::env::temp_dir().join(format!("sente-layers-{}", std::process::id()));
    let search = dir.join("search");
    std::fs::create_dir_all(&search).unwrap();
    std::fs::write(search.join("a.rs"), "use crate::rules::Pos;\n").unwrap();
    assert!(upward_imports(&dir).is_empty());
    std::fs::write(search.join("b.rs"), "use crate::players::SearchInfo;\n").unwrap();
    let bad = upward_imports(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(bad.len(), 1);
    assert!(bad[0].ends_with("search -> players"), "{bad:?}");
}
