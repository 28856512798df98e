#!/usr/bin/env python3
"""Play one `sente match` on a Ray cluster (or a laptop) with the result of a one-machine run.

    python scripts/ray_match.py [options] --out DIR -- MATCH-ARGS...

MATCH-ARGS are `sente match` arguments (`--engines A B --tc 0/0.5 --games 2000 --sprt 0 5`...).
The schedule is cut into batches of --batch-games consecutive games, each played by one Ray
task running `sente match MATCH-ARGS --shard K/N` on a worker. Results are merged as they
arrive by `sente match merge` (one implementation of Elo and SPRT: the binary's), progress is
printed after every batch, and the run stops when the merged SPRT decides: the merge reads
games in schedule order, so it decides on the same game as one process would, and the final
report, Elo, SPRT state and records equal those of `sente match MATCH-ARGS` on one machine.

Faults: a task whose worker dies (or whose `sente` fails) is re-run by Ray (--retries); the
driver stores each batch's result once, under its batch number, so a re-run or late duplicate
is never counted twice (and the merge counts a game number once in any case).

Shipping: by default the `sente` binary and the engine manifests (--engines-dir) are copied
into a Ray runtime_env working_dir that Ray uploads to every worker; engines that manifests
name by absolute path (e.g. /usr/games/gnugo) must be installed on the workers. With
--shared-path the workers use the given binary and manifests in place (a shared filesystem).

Output in --out: parts/batch-K-of-N/result.json per batch, merged/ (SGF files, games.pgn,
results.txt, result.json) and the report on stdout. Run again with the same --out and
arguments, a stopped run goes on: the batches stored are kept, the others played.

Options:
  --address ADDR       Ray cluster to join (`ray start --head` prints it); default: a local
                       instance started by ray.init()
  --cpus N             CPUs of the local instance (default: all); ignored with --address
  --sente PATH         sente binary (default: target/release/sente of this checkout)
  --engines-dir DIR    engine manifests (default: engines/ of this checkout)
  --shared-path        do not ship: workers run --sente and --engines-dir in place
  --batch-games N      games per task (default 8)
  --game-cpus N        CPUs one game needs (Ray num_cpus per game; default 1)
  --concurrency N      games a task plays at once (its num_cpus = N x --game-cpus; default 1)
  --in-flight N        tasks submitted ahead (default: 2 x what the cluster runs at once)
  --retries N          re-runs of a failed task (default 3)
  --task-timeout S     a task's sente is killed after S seconds (default 3600), then re-run
  --run-id ID          names the workers' temporary directories (default: random)
"""

import argparse
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ray_parser(description, doc, batch_games, rest, reserved):
    """The options every Ray driver takes (cluster, binary, shipping, batches, retries), the
    command's own arguments after `--` in `rest`, and a check that those leave out what the
    driver sets (`reserved`)."""
    p = argparse.ArgumentParser(description=description, usage=doc.split("\n\n")[1].strip())
    p.add_argument("--address")
    p.add_argument("--cpus", type=int)
    p.add_argument("--sente", default=str(ROOT / "target/release/sente"))
    p.add_argument("--shared-path", action="store_true")
    p.add_argument("--batch-games", type=int, default=batch_games)
    p.add_argument("--retries", type=int, default=3)
    p.add_argument("--task-timeout", type=float, default=3600)
    p.add_argument("--run-id", default=uuid.uuid4().hex[:8])
    p.add_argument("--out", required=True)
    p.add_argument(rest, nargs=argparse.REMAINDER)

    def parse(argv):
        a = p.parse_args(argv)
        args = getattr(a, rest)
        if args and args[0] == "--":
            args = args[1:]
            setattr(a, rest, args)
        if not args:
            p.error(f"give the sente {rest} arguments after --")
        for bad in reserved:
            if bad in args:
                p.error(f"{bad} is set by the driver; leave it out of the {rest} arguments")
        if a.batch_games < 1 or a.retries < 0:
            p.error("--batch-games must be positive, --retries >= 0")
        return a

    return p, parse


def parse_args(argv):
    p, parse = ray_parser("sente match on Ray", __doc__, 8, "match",
                          ("--shard", "--out", "--plan", "--engines-dir", "--concurrency"))
    p.add_argument("--engines-dir", default=str(ROOT / "engines"))
    p.add_argument("--game-cpus", type=float, default=1)
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--in-flight", type=int)
    a = parse(argv)
    if a.concurrency < 1 or a.game_cpus <= 0:
        p.error("--concurrency and --game-cpus must be positive")
    return a


def die_with_parent():
    """Linux: a function for the child between fork and exec that has the sente process
    killed when its Ray worker dies, rather than left playing; None elsewhere. libc is
    looked up here, before the fork, since a forked child of a threaded worker must not."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return lambda: prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def run_in_scratch(prefix, command, result, what, timeout):
    """Runs the sente command line `command(tmp)`, which writes into a new scratch directory
    tmp, killed with its Ray worker and after `timeout` s; returns the text of tmp/`result`."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    try:
        r = subprocess.run(command(tmp), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=timeout,
                           preexec_fn=die_with_parent())
        if r.returncode != 0:
            raise RuntimeError(f"{what} exited {r.returncode}: {r.stderr.strip()[-2000:]}")
        return Path(tmp, result).read_text()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def play_batch(sente, engines_dir, match, shard, concurrency, run_id, timeout):
    """A Ray task: plays part `shard` of the schedule, returns its result.json text."""
    batch = shard.split("/")[0]
    return run_in_scratch(
        f"sente-{run_id}-batch{batch}-",
        lambda tmp: [sente, "match", *match, "--engines-dir", engines_dir, "--shard", shard,
                     "--concurrency", str(concurrency), "--out", tmp],
        "result.json", f"sente match --shard {shard}", timeout)


def local_path(path, shared):
    """Where a worker finds `path`: in place when shared, else in the shipped working dir."""
    return str(Path(path).resolve()) if shared else Path(path).name


def merge(sente, parts_dir, out=None):
    """`sente match merge` over every stored batch: the summary dict (or the report text)."""
    dirs = sorted(str(d) for d in parts_dir.iterdir() if (d / "result.json").exists())
    cmd = [sente, "match", "merge", *dirs]
    if out is None:
        cmd.append("--json")
    else:
        cmd += ["--out", str(out)]
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"sente match merge failed: {r.stderr.strip()}")
    return json.loads(r.stdout.splitlines()[0]) if out is None else r.stdout


def progress_line(s, elapsed):
    """games, score, W-L-D, Elo +- error and LLR of the first pairing."""
    line = f"[{elapsed:7.1f} s] games {s['games']}/{s['planned']}"
    if s["pending"]:
        line += f" (+{s['pending']} waiting)"
    if s["pairings"]:
        p = s["pairings"][0]
        if p["score"] is not None:
            line += (f"  {p['first']} vs {p['second']}: +{p['wins']} -{p['losses']} "
                     f"={p['draws']} score {100 * p['score']:.1f}%")
        if p["elo"] is not None and p["elo_low"] is not None and p["elo_high"] is not None:
            line += f"  Elo {p['elo']:+.1f} +- {(p['elo_high'] - p['elo_low']) / 2:.1f}"
        elif p["elo"] is not None:
            line += f"  Elo {p['elo']:+.1f} +- inf"
        elif p["score"] is not None:
            line += f"  Elo {'+' if p['score'] > 0.5 else '-'}inf"
    if s["sprt"]:
        t = s["sprt"]
        line += f"  LLR {t['llr']:.2f} [{t['lower']:.2f}, {t['upper']:.2f}] {t['decision']}"
    return line


def batch_dir(parts_dir, batch, batches):
    return parts_dir / f"batch-{batch + 1:05d}-of-{batches:05d}"


def store(parts_dir, batch, batches, text, name="result.json"):
    """Keeps a batch's result once: a second copy of the same batch is ignored."""
    d = batch_dir(parts_dir, batch, batches)
    if (d / name).exists():
        return False
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / (name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, d / name)
    return True


def next_result(waiting, who, retries):
    """Waits for the first task of `waiting` (ref -> batch) to finish: its batch and result. A
    task that failed after all its retries ends the run."""
    import ray

    done, _ = ray.wait(list(waiting), num_returns=1)
    batch = waiting.pop(done[0])
    try:
        return batch, ray.get(done[0])
    except Exception as e:  # retries exhausted
        sys.exit(f"{who}: batch {batch + 1} failed after {retries} retries: {e}")


def start_ray(a, sente, dirs=()):
    """Starts or joins Ray (--address, --cpus). Unless --shared-path, `sente` and `dirs` are
    copied into a runtime_env working_dir that Ray ships to every worker. Returns the shipped
    directory (None when shared; the caller removes it after ray.shutdown()) and the path
    under which workers run `sente`."""
    import ray

    runtime_env = None
    ship = None
    if not a.shared_path:
        ship = Path(tempfile.mkdtemp(prefix="sente-ship-"))
        shutil.copy2(sente, ship / Path(sente).name)
        for d in dirs:
            shutil.copytree(d, ship / Path(d).name)
        runtime_env = {"working_dir": str(ship)}
    init = {"include_dashboard": False, "runtime_env": runtime_env, "log_to_driver": False}
    if a.address:
        init["address"] = a.address
    elif a.cpus:
        init["num_cpus"] = a.cpus
    ray.init(**init)
    w_sente = local_path(sente, a.shared_path)
    if not a.shared_path:
        w_sente = "./" + w_sente
    return ship, w_sente


def main(argv):
    a = parse_args(argv)
    import ray  # imported here so that --help works without it

    sente = str(Path(a.sente).resolve())
    plan = subprocess.run([sente, "match", *a.match, "--engines-dir", a.engines_dir, "--plan"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if plan.returncode != 0:
        sys.exit(f"ray_match: sente match --plan failed: {plan.stderr.strip()}")
    total = json.loads(plan.stdout)["games"]
    batches = max(1, math.ceil(total / a.batch_games))
    out = Path(a.out)
    parts_dir = out / "parts"
    parts_dir.mkdir(parents=True, exist_ok=True)

    started = time.monotonic()
    ship, w_sente = start_ray(a, sente, [a.engines_dir])
    try:
        task = ray.remote(play_batch).options(
            num_cpus=a.game_cpus * a.concurrency,
            max_retries=a.retries,
            retry_exceptions=True,
        )
        slots = max(1, int(ray.cluster_resources().get("CPU", 1) // (a.game_cpus * a.concurrency)))
        in_flight = a.in_flight or 2 * slots
        w_engines = local_path(a.engines_dir, a.shared_path)
        print(f"ray_match: {total} games in {batches} batches of up to {a.batch_games}, "
              f"{slots} at once, {in_flight} submitted ahead", flush=True)
        waiting = {}
        next_batch = 0
        summary = None
        first = None
        stored = [b for b in range(batches)
                  if (batch_dir(parts_dir, b, batches) / "result.json").exists()]
        if stored:
            # A stopped run goes on: its batches are kept, the others played.
            print(f"ray_match: resuming, {len(stored)} batches already in {parts_dir}", flush=True)
            summary = merge(sente, parts_dir)
        while summary is None or not summary["complete"]:
            while next_batch < batches and len(waiting) < in_flight:
                if batch_dir(parts_dir, next_batch, batches).joinpath("result.json").exists():
                    next_batch += 1
                    continue
                shard = f"{next_batch + 1}/{batches}"
                ref = task.remote(w_sente, w_engines, a.match, shard, a.concurrency, a.run_id,
                                  a.task_timeout)
                waiting[ref] = next_batch
                next_batch += 1
            if not waiting:
                break
            batch, text = next_result(waiting, "ray_match", a.retries)
            if first is None:
                first = time.monotonic() - started
                print(f"ray_match: first result after {first:.1f} s", flush=True)
            if not store(parts_dir, batch, batches, text):
                print(f"ray_match: batch {batch + 1} arrived twice; kept once", flush=True)
            summary = merge(sente, parts_dir)
            print(progress_line(summary, time.monotonic() - started), flush=True)
            if summary["complete"]:
                for ref in waiting:
                    ray.cancel(ref, force=True)
                break
        elapsed = time.monotonic() - started
    finally:
        ray.shutdown()
        if ship:
            shutil.rmtree(ship, ignore_errors=True)
    report = merge(sente, parts_dir, out / "merged")
    print(report, end="")
    games = summary["games"] if summary else 0
    print(f"ray_match: {games} games in {elapsed:.1f} s ({3600 * games / max(elapsed, 1e-9):.0f} "
          f"games/hour), first result after {first or 0:.1f} s", flush=True)
    if summary is None or not summary["complete"]:
        sys.exit("ray_match: the match did not complete")


if __name__ == "__main__":
    main(sys.argv[1:])
