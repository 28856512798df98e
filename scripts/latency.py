#!/usr/bin/env python3
"""Never-late check: drive the release engine through many moves at a short per-move limit and
report how long each reply took, measured from writing the command to reading the move.

Usage: python3 scripts/latency.py [--binary target/release/pbrain-sente] [--moves 300]
                                  [--turn-ms 100] [--size 15] [--seed 1]

The opponent is a seeded random player that answers next to existing stones; games restart
(START) until the engine has answered --moves times, alternating which side the engine plays.
Prints count, mean, p50, p99 and max latency, and how many replies exceeded the limit.
Exit status 1 on a protocol failure (ERROR reply, illegal move, no reply within 10 s).
Python 3.11 standard library only.
"""

import argparse
import os
import queue
import random
import subprocess
import sys
import threading
import time

DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, cmd):
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()

    def ask(self, cmd):
        """Sends cmd, returns (first non-MESSAGE reply line, seconds taken)."""
        t0 = time.perf_counter()
        self.send(cmd)
        while True:
            try:
                line = self.lines.get(timeout=10)
            except queue.Empty:
                raise SystemExit(f"no reply to {cmd!r} within 10 s")
            if line is None:
                raise SystemExit(f"engine exited after {cmd!r}")
            if line and not line.startswith(("MESSAGE", "DEBUG")):
                return line, time.perf_counter() - t0

    def close(self):
        try:
            self.send("END")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def five(board, size, x, y, who):
    for dx, dy in DIRS:
        n = 1
        for s in (1, -1):
            cx, cy = x + s * dx, y + s * dy
            while 0 <= cx < size and 0 <= cy < size and board.get((cx, cy)) == who:
                n += 1
                cx, cy = cx + s * dx, cy + s * dy
        if n >= 5:
            return True
    return False


def random_reply(board, size, rng):
    near = set()
    for (x, y) in board:
        for dx in (-2, -1, 0, 1, 2):
            for dy in (-2, -1, 0, 1, 2):
                p = (x + dx, y + dy)
                if 0 <= p[0] < size and 0 <= p[1] < size and p not in board:
                    near.add(p)
    if not near:
        near = {(x, y) for x in range(size) for y in range(size) if (x, y) not in board}
    return rng.choice(sorted(near)) if near else None


def parse_move(line, board, size):
    try:
        x, y = (int(v) for v in line.split(","))
    except ValueError:
        raise SystemExit(f"expected a move, got {line!r}")
    if not (0 <= x < size and 0 <= y < size) or (x, y) in board:
        raise SystemExit(f"illegal engine move {line!r}")
    return x, y


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=os.path.join(root, "target", "release", "pbrain-sente"))
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--turn-ms", type=int, default=100)
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    eng = Engine(args.binary)
    latencies = []
    games = 0
    try:
        while len(latencies) < args.moves:
            line, _ = eng.ask(f"START {args.size}")
            if line != "OK":
                raise SystemExit(f"START answered {line!r}")
            for info in (f"timeout_turn {args.turn_ms}", "timeout_match 0",
                         "max_memory 367001600", "rule 0", "time_left 2147483647"):
                eng.send("INFO " + info)
            board = {}
            engine_first = games % 2 == 0
            games += 1
            if engine_first:
                line, dt = eng.ask("BEGIN")
            else:
                p = (args.size // 2 + rng.randint(-2, 2), args.size // 2 + rng.randint(-2, 2))
                board[p] = "opp"
                line, dt = eng.ask(f"TURN {p[0]},{p[1]}")
            while True:
                if line.startswith("ERROR"):
                    raise SystemExit(f"engine error: {line}")
                latencies.append(dt)
                m = parse_move(line, board, args.size)
                board[m] = "eng"
                if five(board, args.size, *m, "eng") or len(latencies) >= args.moves:
                    break
                p = random_reply(board, args.size, rng)
                if p is None:
                    break
                board[p] = "opp"
                if five(board, args.size, *p, "opp"):
                    break
                if len(board) == args.size * args.size:
                    break
                eng.send("INFO time_left 2147483647")
                line, dt = eng.ask(f"TURN {p[0]},{p[1]}")
    finally:
        eng.close()
    ms = sorted(d * 1000 for d in latencies)
    p = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]
    late = sum(1 for v in ms if v > args.turn_ms)
    print(f"replies {len(ms)} over {games} games at timeout_turn {args.turn_ms} ms")
    print(f"mean {sum(ms) / len(ms):.1f} ms  p50 {p(0.50):.1f} ms  p99 {p(0.99):.1f} ms  "
          f"max {ms[-1]:.1f} ms  over the limit: {late}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
