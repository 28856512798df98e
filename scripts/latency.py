#!/usr/bin/env python3
"""Never-late check: drive the release binaries through many timed replies and report how long
each took, measured from writing the command to reading the reply.

Usage:
  python3 scripts/latency.py [all] [--quick]          every suite below (the default)
  python3 scripts/latency.py gomoku [--size 15] [--rule 0] [--moves 300] [--turn-ms 100]
  python3 scripts/latency.py commands                 per-command latency, Gomocup and GTP
  python3 scripts/latency.py gtp [--go-moves 30]      genmove under the GTP time systems
  python3 scripts/latency.py selfplay [--turn-ms 500] [--threads 2] [--match-ms 60000]
                             [--other-binary B] [--moves 200]   two engines play each other

Suites:
* gomoku: games at `INFO timeout_turn T` against a seeded random player that answers next to
  existing stones, until the engine has answered --moves times. Games start in turn with BEGIN,
  TURN and a BOARD of 2-4 opening stones, each right after START and the INFO lines (written at
  once, as GomocupJudge does), so the first move pays any fixed cost of START/INFO. Reports
  every reply and, separately, the first reply of each game. `all` runs 15x15 freestyle,
  20x20 freestyle and 15x15 renju.
* commands: a fresh engine per rule (0, 1, 4, 8, 9); START, each INFO (timed with an ABOUT
  behind it, since INFO has no reply), BEGIN, TURN, BOARD, YXBOARD; then GTP boardsize,
  clear_board, komi, play and genmove, and the answer to a command that ends a running
  lz-analyze (from writing the command to reading its response).
* gtp: the engine plays itself (genmove b, genmove w, ...) under `time_settings 0 1 1` (one
  second per move) on 9x9 and 19x19, under absolute time reported before each move with
  `time_left c seconds 0`, under Canadian overtime (`time_settings 0 3 3`) with
  `time_left c seconds stones`, and under Japanese byo-yomi on 19x19 (`kgs-time_settings
  byoyomi 0 1 3`: three periods of 1 s) with `time_left c seconds periods`. The limit of
  a reply is the time its clock had left (main time plus one period while main time lasts).

* selfplay: two engines (--binary, and --other-binary or the same binary again) play each other
  from 2-4 stone openings near the centre, colours alternating game by game, each told
  `INFO timeout_turn T` and `INFO thread_num N`; with --match-ms also `timeout_match` and a
  `time_left` that this script keeps (the limit of a reply is then the smaller of the turn and
  what is left). The first request of a game is a BOARD, the others TURN, as managers do. Real
  positions, unlike the random replies of the gomoku suite, where most replies soon come from
  a forced win: this is the suite that shows how much of the turn the clock spends. A line per
  engine over every reply, one over the searched replies only (leaving out those whose last
  progress line says depth 0 or 1: forced blocks, single replies, wins found by the threat
  search), and how the games ended.

Each line gives count, mean, p50, p99, max, how many replies exceeded their limit and the load
average (1 min) before and after, because timed figures depend on the machine's load.
Exit status 1 on a protocol failure (ERROR reply, illegal move, no reply within 20 s).
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
RULE_NAMES = {0: "freestyle", 1: "standard", 4: "renju", 8: "caro", 9: "caro-standard"}


class Engine:
    """A child process with a reader thread; every line it prints lands in a queue."""

    stderr = subprocess.DEVNULL  # or a file opened by --stderr

    def __init__(self, args):
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=Engine.stderr, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, text):
        """Writes one or more lines at once."""
        self.proc.stdin.write(text if text.endswith("\n") else text + "\n")
        self.proc.stdin.flush()

    def next_line(self, what):
        try:
            line = self.lines.get(timeout=20)
        except queue.Empty:
            raise SystemExit(f"no reply to {what!r} within 20 s")
        if line is None:
            raise SystemExit(f"engine exited after {what!r}")
        return line

    def ask(self, text):
        """Gomocup: sends text, returns (first reply line that is not MESSAGE/DEBUG, seconds)."""
        t0 = time.perf_counter()
        self.send(text)
        self.last_message = ""
        while True:
            line = self.next_line(text).strip()
            if line.startswith("MESSAGE"):
                self.last_message = line
            if line and not line.startswith(("MESSAGE", "DEBUG")):
                return line, time.perf_counter() - t0

    def gtp(self, cmd):
        """GTP: sends cmd, returns (response text without '= ', seconds to its last line)."""
        t0 = time.perf_counter()
        self.send(cmd)
        body = []
        while True:
            line = self.next_line(cmd).strip()
            if not body and not line:
                continue
            if not line:
                break
            body.append(line)
        dt = time.perf_counter() - t0
        if not body[0].startswith("="):
            raise SystemExit(f"GTP {cmd!r} failed: {' / '.join(body)}")
        return " ".join([body[0][1:].strip()] + body[1:]).strip(), dt

    def close(self, last):
        try:
            self.send(last)
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def load():
    return os.getloadavg()[0]


class Stats:
    """Latencies (ms) with a limit each."""

    def __init__(self, name):
        self.name = name
        self.samples = []
        self.load_before = load()

    def add(self, seconds, limit_ms):
        self.samples.append((seconds * 1000.0, limit_ms))

    def line(self):
        if not self.samples:
            return f"{self.name:34s} no replies"
        ms = sorted(v for v, _ in self.samples)
        pick = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]
        over = sum(1 for v, lim in self.samples if lim is not None and v > lim)
        worst_slack = min((lim - v for v, lim in self.samples if lim is not None), default=None)
        slack = "" if worst_slack is None else f" min slack {worst_slack:7.1f}"
        return (f"{self.name:34s} n {len(ms):4d}  mean {sum(ms) / len(ms):7.1f}  "
                f"p50 {pick(0.50):7.1f}  p99 {pick(0.99):7.1f}  max {ms[-1]:7.1f} ms  "
                f"over {over:3d}{slack}  load {self.load_before:.2f}->{load():.2f}")


# ---------------------------------------------------------------- gomoku

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


def game_infos(turn_ms, rule):
    return "".join(f"INFO {i}\n" for i in (
        f"timeout_turn {turn_ms}", "timeout_match 0", "max_memory 367001600",
        f"rule {rule}", "time_left 2147483647"))


def gomoku_suite(binary, size, rule, moves, turn_ms, seed):
    """Returns (all replies, first replies) statistics."""
    rng = random.Random(seed)
    label = f"gomoku {size}x{size} {RULE_NAMES.get(rule, rule)}"
    every = Stats(f"{label} every reply")
    first = Stats(f"{label} first reply of a game")
    eng = Engine([binary])
    answered = 0
    games = 0
    try:
        while answered < moves:
            line, _ = eng.ask(f"START {size}")
            if line != "OK":
                raise SystemExit(f"START answered {line!r}")
            board = {}
            start = games % 3
            games += 1
            c = size // 2
            if start == 0:
                request = "BEGIN"
            elif start == 1:
                p = (c + rng.randint(-2, 2), c + rng.randint(-2, 2))
                board[p] = "opp"
                request = f"TURN {p[0]},{p[1]}"
            else:
                # An opening in move order, the engine to move: the stone played last is 2.
                n = rng.randint(2, 4)
                stones = []
                while len(stones) < n:
                    p = (c + rng.randint(-3, 3), c + rng.randint(-3, 3))
                    if p not in board:
                        board[p] = None
                        stones.append(p)
                lines = []
                for i, p in enumerate(stones):
                    mine = (n - i) % 2 == 0
                    board[p] = "eng" if mine else "opp"
                    lines.append(f"{p[0]},{p[1]},{1 if mine else 2}")
                request = "BOARD\n" + "\n".join(lines) + "\nDONE"
            # START's OK came back; the INFO lines and the move request go out together.
            line, dt = eng.ask(game_infos(turn_ms, rule) + request)
            first_of_game = True
            while True:
                if line.startswith("ERROR"):
                    raise SystemExit(f"engine error: {line}")
                every.add(dt, turn_ms)
                if first_of_game:
                    first.add(dt, turn_ms)
                    first_of_game = False
                answered += 1
                m = parse_move(line, board, size)
                board[m] = "eng"
                if five(board, size, *m, "eng") or answered >= moves:
                    break
                p = random_reply(board, size, rng)
                if p is None:
                    break
                board[p] = "opp"
                if five(board, size, *p, "opp") or len(board) == size * size:
                    break
                line, dt = eng.ask(f"INFO time_left 2147483647\nTURN {p[0]},{p[1]}")
    finally:
        eng.close("END")
    return [every, first]


# ---------------------------------------------------------------- selfplay

def selfplay_suite(binaries, size, rule, moves, turn_ms, threads, match_ms, seed):
    """Returns one Stats per engine (replies measured from the request to the move)."""
    rng = random.Random(seed)
    label = f"selfplay {size}x{size} {RULE_NAMES.get(rule, rule)} {turn_ms} ms {threads}t"
    if match_ms:
        label += f" match {match_ms} ms"
    stats = [Stats(f"{label} engine {i + 1}") for i in range(2)]
    searched = [Stats(f"{label} engine {i + 1} searched") for i in range(2)]
    engines = [Engine([b]) for b in binaries]
    endings = {}
    answered = games = 0
    try:
        while answered < moves:
            infos = "".join(f"INFO {i}\n" for i in (
                f"timeout_turn {turn_ms}", f"timeout_match {match_ms}", "max_memory 367001600",
                f"rule {rule}", f"thread_num {threads}",
                f"time_left {match_ms if match_ms else 2147483647}"))
            for e in engines:
                line, _ = e.ask(f"START {size}")
                if line != "OK":
                    raise SystemExit(f"START answered {line!r}")
                e.send(infos)
            left = [match_ms, match_ms]
            # An opening in move order, black first; engine `first` plays black.
            c = size // 2
            n = rng.randint(2, 4)
            order = []
            while len(order) < n:
                p = (c + rng.randint(-3, 3), c + rng.randint(-3, 3))
                if p not in order:
                    order.append(p)
            black = games % 2
            games += 1
            colour_of = {p: i % 2 for i, p in enumerate(order)}  # 0 black, 1 white
            board = {p: ("eng%d" % (black if col == 0 else 1 - black)) for p, col in colour_of.items()}
            to_move = n % 2  # colour to move
            seen = [False, False]
            last = order[-1]
            ending = "moves"
            while answered < moves:
                i = black if to_move == 0 else 1 - black
                e = engines[i]
                if not seen[i]:
                    lines = [f"{p[0]},{p[1]},{1 if board[p] == f'eng{i}' else 2}"
                             for p in order if p in board]
                    request = "BOARD\n" + "\n".join(lines) + "\nDONE"
                    seen[i] = True
                else:
                    request = f"TURN {last[0]},{last[1]}"
                limit = turn_ms
                if match_ms:
                    request = f"INFO time_left {max(0, int(left[i]))}\n" + request
                    limit = min(turn_ms, max(0, left[i]))
                line, dt = e.ask(request)
                if line.startswith("ERROR"):
                    raise SystemExit(f"engine {i + 1} error: {line}")
                stats[i].add(dt, limit)
                if not forced_reply(e.last_message):
                    searched[i].add(dt, limit)
                answered += 1
                if match_ms:
                    left[i] -= dt * 1000
                m = parse_move(line, board, size)
                board[m] = f"eng{i}"
                order.append(m)
                last = m
                if five(board, size, *m, f"eng{i}"):
                    ending = "five"
                    break
                if len(board) == size * size:
                    ending = "full"
                    break
                to_move = 1 - to_move
            endings[ending] = endings.get(ending, 0) + 1
    finally:
        for e in engines:
            e.close("END")
    print(f"{label}: {games} games, endings {endings}", flush=True)
    return stats + searched


def forced_reply(message):
    """Whether a Gomocup progress line shows a move that needed no search: depth 0 or 1 (a
    forced block, a single reply, a win found by the threat search)."""
    words = message.split()
    if len(words) < 3 or words[1] != "depth":
        return True
    return int(words[2].split("-")[0]) <= 1


# ---------------------------------------------------------------- commands

def commands_suite(binary, gtp_binary, turn_ms):
    out = []
    for rule in (0, 1, 4, 8, 9):
        name = RULE_NAMES[rule]
        stats = {}

        def timed(label, text, limit=None):
            line, dt = eng.ask(text)
            if line.startswith("ERROR"):
                raise SystemExit(f"{label}: {line}")
            stats.setdefault(label, Stats(f"{name:13s} {label}")).add(dt, limit)
            return line

        eng = Engine([binary])
        try:
            for _ in range(5):
                timed("START 15", "START 15")
                for info in game_infos(turn_ms, rule).splitlines():
                    timed(info.rsplit(" ", 1)[0] + " +ABOUT", info + "\nABOUT")
                timed("BEGIN", "BEGIN", turn_ms)
                timed("TURN", "TURN 8,8", turn_ms)
                timed("START 15", "START 15")
                timed("BOARD (3 stones)", "BOARD\n7,7,2\n8,8,1\n8,7,2\nDONE", turn_ms)
                timed("YXBOARD +ABOUT", "YXBOARD\n7,7,1\n8,8,2\nDONE\nABOUT")
                timed("RESTART", "RESTART")
        finally:
            eng.close("END")
        out += list(stats.values())
    stats = {}
    eng = Engine([gtp_binary])
    try:
        for size in (9, 19):
            for _ in range(3):
                for cmd in (f"boardsize {size}", "clear_board", "komi 7.5",
                            "time_settings 0 1 1", "play b C3", "play w E5"):
                    _, dt = eng.gtp(cmd)
                    key = cmd.split()[0] + (f" {size}" if cmd.startswith("boardsize") else "")
                    stats.setdefault(key, Stats(f"gtp {key}")).add(dt, None)
                _, dt = eng.gtp("genmove b")
                stats.setdefault(f"genmove {size}", Stats(f"gtp genmove {size}x{size} 1 s")).add(
                    dt, 1000)
                # An analysis runs until the next line: how long that line's answer takes.
                eng.send("lz-analyze b 10")
                while not eng.next_line("lz-analyze").startswith("info"):
                    pass
                t0 = time.perf_counter()
                eng.send("protocol_version")
                while eng.next_line("protocol_version").strip() != "= 2":
                    pass
                dt = time.perf_counter() - t0
                eng.next_line("protocol_version")
                stats.setdefault(f"analysis {size}", Stats(
                    f"gtp lz-analyze {size}x{size} ended by the next command")).add(dt, None)
    finally:
        eng.close("quit")
    return out + list(stats.values())


# ---------------------------------------------------------------- gtp

class GtpClock:
    """One side's clock as a controller keeps it: main time, then Canadian periods (`stones`
    moves per period) or, with `japanese`, byo-yomi (`stones` periods of one move each; a move
    that overruns its period loses it)."""

    def __init__(self, main, period, stones, japanese=False):
        self.main, self.period, self.stones = float(main), float(period), stones
        self.japanese = japanese
        self.left_in_period, self.stones_left = float(period), stones

    def limit_ms(self):
        if self.main > 0:
            return (self.main + (self.period if self.stones else 0)) * 1000
        return self.left_in_period * 1000

    def time_left(self, color):
        if self.main > 0 or not self.stones:
            return f"time_left {color} {int(self.main)} 0"
        return f"time_left {color} {int(self.left_in_period)} {self.stones_left}"

    def spend(self, seconds):
        if self.main > 0 or not self.stones:
            used = min(seconds, self.main)
            self.main -= used
            seconds -= used
            if self.main > 0 or not self.stones:
                return
        if self.japanese:
            if seconds > self.period:
                self.stones_left = max(1, self.stones_left - 1)
            self.left_in_period = self.period
            return
        self.left_in_period -= seconds
        self.stones_left -= 1
        if self.stones_left == 0:
            self.left_in_period, self.stones_left = self.period, self.stones


def gtp_suite(binary, size, moves, settings, report_left, label, japanese=False):
    """The engine plays itself; returns the genmove statistics."""
    stats = Stats(label)
    eng = Engine([binary])
    main, period, stones = settings
    try:
        eng.gtp(f"boardsize {size}")
        eng.gtp("clear_board")
        eng.gtp("komi 7.5")
        if japanese:
            eng.gtp(f"kgs-time_settings byoyomi {main} {period} {stones}")
        else:
            eng.gtp(f"time_settings {main} {period} {stones}")
        new_clock = lambda: GtpClock(main, period, stones, japanese)
        clocks = {"b": new_clock(), "w": new_clock()}
        colour = "b"
        passes = 0
        for _ in range(moves):
            clock = clocks[colour]
            if report_left:
                eng.gtp(clock.time_left(colour))
            limit = clock.limit_ms() if (main or stones) else None
            reply, dt = eng.gtp(f"genmove {colour}")
            stats.add(dt, limit)
            clock.spend(dt)
            passes = passes + 1 if reply.lower() == "pass" else 0
            if reply.lower() == "resign" or passes >= 2:
                eng.gtp("clear_board")
                clocks = {"b": new_clock(), "w": new_clock()}
                passes = 0
                colour = "b"
                continue
            colour = "w" if colour == "b" else "b"
    finally:
        eng.close("quit")
    return stats


# ---------------------------------------------------------------- main

def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suite", nargs="?", default="all",
                    choices=("all", "gomoku", "commands", "gtp", "selfplay"))
    ap.add_argument("--binary", default=os.path.join(root, "target", "release", "pbrain-sente"))
    ap.add_argument("--gtp-binary", default=os.path.join(root, "target", "release", "sente"))
    ap.add_argument("--moves", type=int, default=300, help="gomoku replies per run")
    ap.add_argument("--turn-ms", type=int, default=100)
    ap.add_argument("--size", type=int, default=15, help="gomoku suite: board size")
    ap.add_argument("--rule", type=int, default=0, help="gomoku suite: INFO rule")
    ap.add_argument("--go-moves", type=int, default=30, help="genmoves per GTP run")
    ap.add_argument("--threads", type=int, default=1, help="selfplay: INFO thread_num")
    ap.add_argument("--match-ms", type=int, default=0,
                    help="selfplay: timeout_match and a kept time_left (0: none)")
    ap.add_argument("--other-binary", help="selfplay: the second engine (default: --binary)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="a third of the replies")
    ap.add_argument("--stderr", help="append the engines' logs here (set RUST_LOG=debug to see "
                    "how late each reply was by the engine's own clock)")
    args = ap.parse_args()
    if args.stderr:
        Engine.stderr = open(args.stderr, "a")
    if args.quick:
        args.moves = max(30, args.moves // 3)
        args.go_moves = max(10, args.go_moves // 3)
    print(f"load average at start: {' '.join(f'{v:.2f}' for v in os.getloadavg())} "
          f"on {os.cpu_count()} cores; times in ms, 'over' = replies past their limit")
    runs = []
    if args.suite == "gomoku":
        runs = [lambda: gomoku_suite(args.binary, args.size, args.rule, args.moves,
                                     args.turn_ms, args.seed)]
    if args.suite == "all":
        runs = [lambda s=s, r=r: gomoku_suite(args.binary, s, r, args.moves, args.turn_ms,
                                              args.seed)
                for s, r in ((15, 0), (20, 0), (15, 4))]
    if args.suite == "selfplay":
        binaries = [args.binary, args.other_binary or args.binary]
        runs = [lambda: selfplay_suite(binaries, args.size, args.rule, args.moves, args.turn_ms,
                                       args.threads, args.match_ms, args.seed)]
    if args.suite in ("all", "commands"):
        runs.append(lambda: commands_suite(args.binary, args.gtp_binary, args.turn_ms))
    if args.suite in ("all", "gtp"):
        n = args.go_moves
        runs.append(lambda: [
            gtp_suite(args.gtp_binary, 9, n, (0, 1, 1), False, "gtp 9x9 time_settings 0 1 1"),
            gtp_suite(args.gtp_binary, 19, n, (0, 1, 1), False, "gtp 19x19 time_settings 0 1 1"),
            gtp_suite(args.gtp_binary, 9, 2 * n, (10, 0, 0), True,
                      "gtp 9x9 absolute 10 s + time_left"),
            gtp_suite(args.gtp_binary, 9, n, (0, 3, 3), True,
                      "gtp 9x9 canadian 3 s/3 + time_left"),
            gtp_suite(args.gtp_binary, 19, n, (0, 1, 3), True,
                      "gtp 19x19 kgs byoyomi 0 1 3 + time_left", japanese=True),
        ])
    for run in runs:
        for stats in run():
            print(stats.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
