//! `scripts/spsa.py`, the SPSA tuner of the gomoku search's constants: its schedules end at the
//! stated perturbation and step, a short node-limited run with the real binary plays its games,
//! keeps every value within its bounds, logs each iteration and prints a `SENTE_SEARCH` string
//! the engine accepts, a second run resumes without playing, and a bad `--param` is refused.

mod python_script;

use std::path::PathBuf;
use std::process::{Command, Output};

use python_script::{python, script};

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-spsa-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(args: &[&str]) -> Output {
    python_script::run_script("spsa.py", args)
}

#[test]
fn schedules_end_at_the_stated_perturbation_and_step() {
    let code = "import sys, argparse; sys.path.insert(0, sys.argv[1]); import spsa\n\
        a = argparse.Namespace(a_ratio=0.1, gamma=0.101, alpha=0.602, r_end=0.01)\n\
        p = spsa.parse_param('rfp_margin=150:30:400:20')\n\
        c, s = spsa.schedules(p, 1000, 1000, a)\n\
        assert abs(c - 20) < 1e-9 and abs(s - 0.01 * 400) < 1e-9, (c, s)\n\
        c1, s1 = spsa.schedules(p, 1, 1000, a)\n\
        assert c1 > c and s1 / c1 > s / c, (c1, s1)\n\
        print('ok')";
    let dir = script("spsa.py")
        .parent()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let out = Command::new(python())
        .args(["-c", code, &dir])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_short_run_plays_stays_in_bounds_and_resumes() {
    let out_dir = scratch("run");
    let out_arg = out_dir.to_str().unwrap();
    let args = [
        "--sente",
        SENTE,
        "--out",
        out_arg,
        "--pairs",
        "4",
        "--batch",
        "2",
        "--nodes",
        "1500",
        "--r-end",
        "2",
        "--seed",
        "7",
        "--param",
        "rfp_margin=150:140:160:5",
        "--param",
        "move_limit4=24:20:30:2",
    ];
    let first = run(&args);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("state.json")).unwrap())
            .unwrap();
    assert_eq!(state["pairs"], 4);
    assert_eq!(state["iterations"], 2);
    for p in state["params"].as_array().unwrap() {
        let v = p["value"].as_f64().unwrap();
        assert!(p["min"].as_f64().unwrap() <= v && v <= p["max"].as_f64().unwrap());
    }
    let log = std::fs::read_to_string(out_dir.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 3, "{log}");
    assert!(log.starts_with("iteration,pairs,result,games,rfp_margin,move_limit4"));

    // The printed values are a setting the engine takes.
    let tuned = String::from_utf8(first.stdout).unwrap().trim().to_string();
    assert!(tuned.starts_with("rfp_margin="), "{tuned}");
    sente::search::ab::params::SearchParams::default()
        .with_overrides(&tuned)
        .expect("the engine accepts the tuned setting");

    // A finished run resumes without playing and prints the same values.
    let again = run(&["--sente", SENTE, "--out", out_arg]);
    assert!(again.status.success());
    assert_eq!(String::from_utf8(again.stdout).unwrap().trim(), tuned);
    assert_eq!(
        std::fs::read_to_string(out_dir.join("log.csv")).unwrap(),
        log
    );
    let _ = std::fs::remove_dir_all(&out_dir);
}

#[test]
fn a_bad_param_is_refused() {
    let out_dir = scratch("bad");
    for bad in [
        "rfp_margin=150",
        "rfp_margin=500:30:400:20",
        "rfp_margin=150:30:400:0",
    ] {
        let r = run(&[
            "--sente",
            SENTE,
            "--out",
            out_dir.to_str().unwrap(),
            "--param",
            bad,
        ]);
        assert!(!r.status.success(), "{bad} accepted");
        assert!(
            String::from_utf8_lossy(&r.stderr).contains("expected name=start:min:max:c_end")
                || String::from_utf8_lossy(&r.stderr).contains("needs min <= start <= max"),
            "{}",
            String::from_utf8_lossy(&r.stderr)
        );
    }
    assert!(!out_dir.join("state.json").exists());
}
