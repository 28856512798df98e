#!/usr/bin/env python3
"""Play one `sente selfplay` or `sente go-data` on a Ray cluster (or a laptop); the data file equals a one-machine run.

    python scripts/ray_selfplay.py [options] [--command go-data] --out FILE -- ARGS...

ARGS are the command's arguments: `sente selfplay` (gomoku, the default: `--rule renju --games
6000 --nodes 8000 --seed 2`...) or, with --command go-data, `sente go-data` (Go games of GNU Go,
which every worker needs at `--gnugo`: `--size 19 --games 2000 --level 4 --seed 21`...).
The schedule of --games jobs is cut into batches of --batch-games consecutive jobs, each
played by one Ray task running `sente COMMAND ARGS --shard K/N` on a worker. A job's
game depends only on (--seed, job) and the settings, never on the shard, so the batches'
games put in batch order are byte for byte the file one `sente COMMAND` run writes: one
header line, then every job once, in job order. Progress (games, positions, black / white /
other results) is printed after every batch.

Faults: a task whose worker dies (or whose `sente` fails) is re-run by Ray (--retries); each
batch's games are stored once, under the batch number, so a re-run or late duplicate never
adds a game twice. Run again with the same --out and arguments, a stopped run goes on: the
batches stored (in FILE.parts/) are kept, the others played.

Shipping, --address, --cpus, --sente, --shared-path, --retries, --task-timeout and --run-id
work as in scripts/ray_match.py (the machinery is shared); --batch-games defaults to 50.
"""

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ray_match  # noqa: E402
from ray_match import (  # noqa: E402
    batch_dir, next_result, ray_parser, run_in_scratch, start_ray, store)

PART = "games.txt"


COMMANDS = ("selfplay", "go-data")


def parse_args(argv):
    p, parse = ray_parser("sente selfplay or go-data on Ray", __doc__, 50, "selfplay",
                          ("--shard", "--out"))
    p.add_argument("--command", choices=COMMANDS, default="selfplay")
    return parse(argv)


def games_of(command, args):
    """The schedule's size: `--games` of the command's arguments (sente's defaults: selfplay
    1000, go-data 100)."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--games", type=int, default=1000 if command == "selfplay" else 100)
    known, _ = p.parse_known_args(args)
    return known.games


def play_batch(sente, command, args, shard, run_id, timeout):
    """A Ray task: plays part `shard` of the schedule, returns its data file's text."""
    batch = shard.split("/")[0]
    return run_in_scratch(
        f"sente-{run_id}-{command}{batch}-",
        lambda tmp: [sente, command, *args, "--shard", shard, "--out", str(Path(tmp, PART))],
        PART, f"sente {command} --shard {shard}", timeout)


def split(text):
    """A data file's header line and its game lines."""
    lines = text.splitlines(keepends=True)
    head = [line for line in lines if line.startswith("#")]
    games = [line for line in lines if line.strip() and not line.startswith("#")]
    return (head[0] if head else None), games


def tally(command, games, counts):
    """Adds game lines to [games, positions, black, white, other results]. A selfplay line is
    `job B|W|D ... | moves`; a go-data line `job size result opening-length moves...`, whose
    positions are the moves after the opening and whose result is `B+...`, `W+...` or another."""
    for line in games:
        fields = line.split()
        counts[0] += 1
        if command == "selfplay":
            counts[1] += len(line.split("|", 1)[1].split()) if "|" in line else 0
            result = fields[1]
        else:
            counts[1] += max(0, len(fields) - 4 - int(fields[3]))
            result = fields[2][:1]
        counts[2 + ("BW".index(result) if result in ("B", "W") else 2)] += 1


def concatenate(parts_dir, batches, out):
    """The stored batches in order as one data file (one header), written atomically."""
    header, body = None, []
    for b in range(batches):
        head, games = split((batch_dir(parts_dir, b, batches) / PART).read_text())
        if head is not None and header is not None and head != header:
            raise RuntimeError(f"batch {b + 1} has another header: {head.strip()}")
        header = header or head
        body.extend(games)
    tmp = Path(str(out) + ".tmp")
    tmp.write_text((header or "") + "".join(body))
    os.replace(tmp, out)
    return len(body)


def play(a, sente, todo, batches, parts_dir, counts, total, started):
    """Plays batches `todo` as Ray tasks, storing each once; the time to the first result."""
    import ray

    ship, w_sente = start_ray(a, sente)
    first = None
    try:
        task = ray.remote(play_batch).options(num_cpus=1, max_retries=a.retries,
                                              retry_exceptions=True)
        print(f"ray_selfplay: {total} games in {batches} batches of up to {a.batch_games}, "
              f"{len(todo)} to play", flush=True)
        waiting = {task.remote(w_sente, a.command, a.selfplay, f"{b + 1}/{batches}", a.run_id,
                               a.task_timeout): b for b in todo}
        while waiting:
            batch, text = next_result(waiting, "ray_selfplay", a.retries)
            if first is None:
                first = time.monotonic() - started
            if store(parts_dir, batch, batches, text, PART):
                tally(a.command, split(text)[1], counts)
            else:
                print(f"ray_selfplay: batch {batch + 1} arrived twice; kept once", flush=True)
            print(f"[{time.monotonic() - started:7.1f} s] games {counts[0]}/{total}, "
                  f"{counts[1]} positions, black {counts[2]} white {counts[3]} "
                  f"other {counts[4]}", flush=True)
    finally:
        ray.shutdown()
        if ship:
            shutil.rmtree(ship, ignore_errors=True)
    return first


def main(argv):
    a = parse_args(argv)
    import ray  # imported here so that --help works without it

    # The task uses ray_match's helpers: ship them with it (workers may not have the script).
    ray.cloudpickle.register_pickle_by_value(ray_match)

    sente = str(Path(a.sente).resolve())
    total = games_of(a.command, a.selfplay)
    batches = max(1, -(-total // a.batch_games))
    out = Path(a.out)
    parts_dir = Path(str(out) + ".parts")
    parts_dir.mkdir(parents=True, exist_ok=True)
    counts = [0, 0, 0, 0, 0]
    todo = []
    for b in range(batches):
        part = batch_dir(parts_dir, b, batches) / PART
        if part.exists():
            tally(a.command, split(part.read_text())[1], counts)
        else:
            todo.append(b)
    if len(todo) < batches:
        print(f"ray_selfplay: resuming, {batches - len(todo)} batches already in {parts_dir}",
              flush=True)
    resumed = counts[0]
    started = time.monotonic()
    first = None
    if todo:
        first = play(a, sente, todo, batches, parts_dir, counts, total, started)
    elapsed = time.monotonic() - started
    games = concatenate(parts_dir, batches, out)
    played = counts[0] - resumed
    print(f"ray_selfplay: wrote {out}: {games} games; {played} played in {elapsed:.1f} s "
          f"({3600 * played / max(elapsed, 1e-9):.0f} games/hour), "
          f"first batch after {first or 0:.1f} s", flush=True)
    if games != total:
        sys.exit(f"ray_selfplay: {games} games of {total}")


if __name__ == "__main__":
    main(sys.argv[1:])
