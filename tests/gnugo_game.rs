//! A real opponent: `scripts/gnugo_game.py` referees 9x9 games between `sente` and GNU Go 3.8
//! over GTP (one with each colour) and checks every response, that neither engine refuses the
//! other's moves, and that both engines' `final_score` name the same winner. Runs when GNU Go
//! (`/usr/games/gnugo` or `gnugo` on the PATH) and `python3` exist: it is `#[ignore]`d, so a
//! plain `cargo test` lists it as ignored, and `.ci/run` runs it (`--ignored needs_gnugo`)
//! when GNU Go is installed, and always under CI, where a missing GNU Go fails it. A protocol
//! check, not a strength measurement.

use std::path::Path;
use std::process::Command;

fn gnugo() -> Option<String> {
    ["/usr/games/gnugo", "gnugo"].into_iter().find_map(|g| {
        let ok = Command::new(g)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        ok.then(|| g.to_string())
    })
}

#[test]
#[ignore = "needs GNU Go and python3; .ci/run runs it (cargo test --release -- --ignored needs_gnugo)"]
fn needs_gnugo_games_against_gnugo() {
    // Asked for explicitly, a missing tool is a failure, not a pass.
    let gnugo = gnugo().expect("GNU Go is not installed (apt-get install gnugo)");
    assert!(
        Command::new("python3").arg("--version").output().is_ok(),
        "python3 is not installed"
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/gnugo_game.py");
    for colour in ["b", "w"] {
        let out = Command::new("python3")
            .arg(&script)
            .arg(env!("CARGO_BIN_EXE_sente"))
            .arg(&gnugo)
            .args([
                "--sente-colour",
                colour,
                "--sente-args",
                "--nodes 300 --seed 1",
            ])
            .env_remove("RUST_LOG")
            .output()
            .expect("running scripts/gnugo_game.py");
        let stdout = String::from_utf8_lossy(&out.stdout);
        eprintln!("{stdout}");
        assert!(
            out.status.success(),
            "gnugo_game.py (sente {colour}) failed ({}):\n{stdout}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
