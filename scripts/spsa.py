#!/usr/bin/env python3
"""SPSA tuning of the gomoku search's constants by node-limited self-play.

Simultaneous perturbation stochastic approximation (Spall 1992), in the form chess engines
tune with (Stockfish's fishtest): each iteration draws a random sign per parameter, plays the
engine with every parameter moved up by c_k in that sign against the engine moved the other
way, and moves each parameter along its sign by the game result. The constants are set through
the `SENTE_SEARCH` variable (`name=value,...`, see src/search/ab/params.rs), so one binary plays
both sides; every game is node-limited (`--nodes`), so the result does not depend on the load.

Schedules, per parameter with final perturbation c_end and final "learning rate" r_end
(N = the number of game pairs of the run, k = the pairs played so far + 1):
    c_k = c_end * N**gamma / k**gamma
    a_k = r_end * c_end**2 * (A + N)**alpha / (A + k)**alpha,   A = a_ratio * N
    theta += a_k / c_k * result * sign
where result is the plus engine's wins minus its losses over the iteration's games.

The run lives in one directory (`--out`): state.json (the values, the pairs played, the
settings) is rewritten after every iteration, so the same command resumes an interrupted run;
log.csv has one line per iteration. At the end the tuned values are printed as a
SENTE_SEARCH string; check them with a `sente match --sprt` against the defaults before
keeping them.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

STATE_FORMAT = "sente-spsa/1"


def parse_param(text):
    """`name=start:min:max:c_end` -> a parameter record."""
    try:
        name, spec = text.split("=", 1)
        start, lo, hi, c_end = (float(x) for x in spec.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"`{text}`: expected name=start:min:max:c_end")
    if not lo <= start <= hi or c_end <= 0:
        raise argparse.ArgumentTypeError(
            f"`{text}`: needs min <= start <= max and c_end > 0")
    return {"name": name, "start": start, "min": lo, "max": hi,
            "c_end": c_end, "value": start}


def schedules(param, k, total, args):
    """(c_k, a_k) of one parameter at pair k (1-based) of a run of `total` pairs."""
    a_big = args.a_ratio * total
    c_k = param["c_end"] * (total ** args.gamma) / (k ** args.gamma)
    a_end = args.r_end * param["c_end"] ** 2
    a_k = a_end * ((a_big + total) ** args.alpha) / ((a_big + k) ** args.alpha)
    return c_k, a_k


def clamp(x, p):
    return min(p["max"], max(p["min"], x))


def round_random(x, rng):
    """Rounds to an integer up or down with the odds of the fraction, so that a small c_k
    still moves an integer constant on average."""
    low = int(x // 1)
    return low + (1 if rng.random() < x - low else 0)


def search_string(values):
    return ",".join(f"{name}={value}" for name, value in values)


def write_engine(folder, name, sente, setting, nodes, threads):
    """A wrapper script setting SENTE_SEARCH and its manifest; returns the manifest path."""
    script = os.path.join(folder, f"{name}.sh")
    with open(script, "w") as f:
        f.write(f'#!/bin/sh\nSENTE_SEARCH="{setting}" exec "{sente}" "$@"\n')
    os.chmod(script, 0o755)
    manifest = os.path.join(folder, f"{name}.toml")
    with open(manifest, "w") as f:
        f.write(
            f'name = "{name}"\ncommand = "{script}"\n'
            f'args = ["--protocol", "gomocup", "--level", "strong", "--seed", "{{seed}}", '
            f'"--nodes", "{nodes}", "--threads", "{threads}"]\n'
            'protocol = "gomocup"\ngames = ["gomoku", "renju"]\n')
    return manifest


def plus_result(result_json):
    """Wins minus losses of engine 0 (the plus side) over a match's games."""
    with open(result_json) as f:
        games = json.load(f)["games"]
    total = 0
    for g in games:
        if g["result"] == "1-0":
            winner = g["black"]
        elif g["result"] == "0-1":
            winner = g["white"]
        else:
            continue
        total += 1 if winner == 0 else -1
    return total, len(games)


def play(args, folder, plus, minus, seed):
    """Plays 2 * batch games plus vs minus; returns (wins - losses of plus, games)."""
    out = os.path.join(folder, "games")
    shutil.rmtree(out, ignore_errors=True)
    cmd = [args.sente, "match", "--engines", plus, minus, "--nodes", str(args.nodes),
           "--tc", "0/60", "--games", str(2 * args.batch), "--seed", str(seed),
           "--concurrency", str(args.concurrency), "--game", args.game, "--out", out]
    if args.rule:
        cmd += ["--rule", args.rule]
    if args.openings:
        cmd += ["--openings", args.openings]
    run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        sys.exit(f"spsa: sente match failed ({run.returncode}): {run.stderr.strip()[-2000:]}")
    result = plus_result(os.path.join(out, "result.json"))
    shutil.rmtree(out, ignore_errors=True)
    return result


def load_or_start(args):
    path = os.path.join(args.out, "state.json")
    if os.path.exists(path):
        with open(path) as f:
            state = json.load(f)
        if state.get("format") != STATE_FORMAT:
            sys.exit(f"spsa: {path} is not a {STATE_FORMAT} state")
        if args.param and [p["name"] for p in args.param] != [p["name"] for p in state["params"]]:
            sys.exit("spsa: --param names differ from the run being resumed")
        print(f"spsa: resuming {path} at pair {state['pairs']} of {state['total_pairs']}",
              file=sys.stderr)
        return state
    if not args.param:
        sys.exit("spsa: a new run needs at least one --param")
    os.makedirs(args.out, exist_ok=True)
    return {"format": STATE_FORMAT, "params": args.param, "pairs": 0, "iterations": 0,
            "total_pairs": args.pairs, "seed": args.seed,
            "settings": {k: getattr(args, k) for k in
                         ("nodes", "batch", "game", "rule", "openings", "r_end", "alpha",
                          "gamma", "a_ratio", "fixed")}}


def save(state, out):
    tmp = os.path.join(out, "state.json.tmp")
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, os.path.join(out, "state.json"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sente", required=True, help="the sente binary")
    ap.add_argument("--out", required=True, help="run directory (state.json, log.csv)")
    ap.add_argument("--param", action="append", type=parse_param, default=[],
                    help="name=start:min:max:c_end (repeat; a SENTE_SEARCH name)")
    ap.add_argument("--fixed", default="", help="SENTE_SEARCH settings both sides keep")
    ap.add_argument("--pairs", type=int, default=1000, help="game pairs in the run (N)")
    ap.add_argument("--batch", type=int, default=4, help="game pairs per iteration")
    ap.add_argument("--nodes", type=int, default=20000, help="nodes per move")
    ap.add_argument("--game", default="gomoku")
    ap.add_argument("--rule", default=None)
    ap.add_argument("--openings", default=None, help="openings file (default: generated)")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--r-end", dest="r_end", type=float, default=0.002)
    ap.add_argument("--alpha", type=float, default=0.602)
    ap.add_argument("--gamma", type=float, default=0.101)
    ap.add_argument("--a-ratio", dest="a_ratio", type=float, default=0.1)
    args = ap.parse_args()
    args.sente = os.path.abspath(args.sente)
    if args.openings:
        args.openings = os.path.abspath(args.openings)

    state = load_or_start(args)
    # A resumed run keeps its own settings: the schedules depend on them.
    for key, value in state["settings"].items():
        setattr(args, key, value)
    params = state["params"]
    total = state["total_pairs"]
    log_path = os.path.join(args.out, "log.csv")
    if not os.path.exists(log_path):
        with open(log_path, "w") as f:
            f.write("iteration,pairs,result,games," + ",".join(p["name"] for p in params) + "\n")

    with tempfile.TemporaryDirectory(prefix="spsa-") as folder:
        while state["pairs"] < total:
            it = state["iterations"]
            k = state["pairs"] + 1
            rng = random.Random(f"{state['seed']}:{it}")
            signs = [rng.choice((-1, 1)) for _ in params]
            plus_vals, minus_vals, steps = [], [], []
            for p, s in zip(params, signs):
                c_k, a_k = schedules(p, k, total, args)
                steps.append((c_k, a_k))
                plus_vals.append((p["name"], round_random(clamp(p["value"] + s * c_k, p), rng)))
                minus_vals.append((p["name"], round_random(clamp(p["value"] - s * c_k, p), rng)))
            fixed = [args.fixed] if args.fixed else []
            plus = write_engine(folder, "plus", args.sente,
                                ",".join(fixed + [search_string(plus_vals)]), args.nodes, 1)
            minus = write_engine(folder, "minus", args.sente,
                                 ",".join(fixed + [search_string(minus_vals)]), args.nodes, 1)
            result, games = play(args, args.out, plus, minus, state["seed"] * 1_000_003 + it)
            for p, s, (c_k, a_k) in zip(params, signs, steps):
                p["value"] = clamp(p["value"] + a_k / c_k * result * s, p)
            state["pairs"] += games // 2
            state["iterations"] += 1
            save(state, args.out)
            with open(log_path, "a") as f:
                f.write(f"{it},{state['pairs']},{result},{games},"
                        + ",".join(f"{p['value']:.2f}" for p in params) + "\n")
            print(f"spsa: iteration {it + 1}, pairs {state['pairs']}/{total}, result {result:+d}: "
                  + " ".join(f"{p['name']}={p['value']:.1f}" for p in params),
                  file=sys.stderr, flush=True)

    tuned = [(p["name"], int(round(p["value"]))) for p in params]
    print(search_string(tuned))


if __name__ == "__main__":
    main()
