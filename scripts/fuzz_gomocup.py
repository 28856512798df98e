#!/usr/bin/env python3
"""Random-command fuzzer for sente's Gomocup side (standard library only).

    nice python3 scripts/fuzz_gomocup.py BIN SEED N [--mode mix|flag|auto] [--log FILE]
                                                    [--hang SECONDS] [--session MAX]

runs N random Gomocup commands, spread over several engine processes ("sessions"), against BIN
(`target/release/sente`, `target/debug/sente` or `target/release/pbrain-sente`). A session
starts `BIN --protocol gomocup` or `BIN` alone (auto-detected protocol; `pbrain-*` is always
started without the flag), sometimes with `--seed`, `--level classic|learner`, `--nodes`. It
sends commands from the whole vocabulary the engine supports (START/RECTSTART of legal and
illegal sizes, BEGIN, TURN, BOARD/YXBOARD/SWAP2BOARD blocks with good and bad lines, TAKEBACK,
PLAY, RESTART, INFO with every key and good and bad values, YXSHOWFORBID, YXNBEST, YXSTOP/STOP
right behind a search, ABOUT, blank lines, CRLF, lower case, control bytes, invalid UTF-8,
garbage; several commands piped at once now and then) under tight limits (`INFO timeout_turn`
<= 300 ms, except a few 10 s searches that a YXSTOP/STOP must cut short within 1.5 s), and ends
each session with `END`, `END` during a search, or end of input (sometimes right behind a
command or inside a block).

A model of the session (board, rule, side to move, winner, field-3 markers, pending INFO
complaints, remembered player options) predicts how many reply lines each command must get and
of which kind; every engine move is checked to be on the board, on an empty non-marker point,
not an overline for black under renju, and not on a point the engine's own YXSHOWFORBID listed
for that position. Also reported: panic text on stderr, a non-zero exit, a reply that takes more
than --hang seconds (default 5), any stdout line that is not protocol, output after END, and a
slow exit after END or end of input. A problem ends its session (the model can no longer be
trusted); the summary lists each with the session's arguments and the commands that led to it,
and the script exits 1 if there was any. Run it under `nice`: the machine is shared.
"""

import argparse
import os
import queue
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import unicodedata

I64 = (-(2**63), 2**63 - 1)
INT = r"[+-]?[0-9]+"
STONE_RE = re.compile(rf"({INT}) *, *({INT})(?: *, *({INT}))?")
COORDS_RE = re.compile(rf"({INT}) *, *({INT})")
MOVE_RE = re.compile(r"[0-9]+,[0-9]+")
FORBID_RE = re.compile(r"FORBID ((?:[0-9]{4})*)\.")
ABOUT_RE = re.compile(r'name="sente", version="[^"]+", author="[^"]*", country="[^"]*"')
GOMOKU_LEVELS = {"strong": "strong", "default": "strong", "classic": "classic",
                 "learner": "learner"}
TTT_LEVELS = {"perfect", "default", "minimax", "smart", "rules+heuristic", "rules",
              "rules-heuristic", "heuristic2", "heuristic1", "dumb", "dumber"}
LEARNER_KEYS = {"kernel", "kernel_anchor", "kernel_symmetry", "kernel_near", "kernel_learn",
                "rule_map"}
LONG_TURN = "INFO timeout_turn 10000"


def ascii_upper(s):
    return "".join(c.upper() if "a" <= c <= "z" else c for c in s)


def ascii_lower(s):
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in s)


def to_int(s):
    v = int(s)
    return v if I64[0] <= v <= I64[1] else None


def normalise(raw):
    """What the engine's reader makes of one raw line (bytes): None for a blank line."""
    text = raw.decode("utf-8", errors="replace")
    out = []
    for c in text:
        if c == "\t":
            out.append(" ")
        elif unicodedata.category(c) == "Cc":
            continue
        else:
            out.append(c)
    t = "".join(out).strip()
    return t or None


def head(line):
    line = line.strip()
    parts = line.split(None, 1)
    if not parts:
        return "", ""
    return parts[0], (parts[1].strip() if len(parts) > 1 else "")


def whole_int(s):
    s = s.strip()
    if re.fullmatch(INT, s):
        return to_int(s)
    return None


def whole_coords(s):
    m = COORDS_RE.fullmatch(s.strip())
    if not m:
        return None
    x, y = to_int(m.group(1)), to_int(m.group(2))
    return None if x is None or y is None else (x, y)


def parse(line):
    """The engine's reading of a normalised line: (WORD, args...) or ("ERR",)."""
    if line[0] in "0123456789+-":
        m = STONE_RE.fullmatch(line)
        if not m:
            return ("ERR",)
        x, y = to_int(m.group(1)), to_int(m.group(2))
        f = to_int(m.group(3)) if m.group(3) is not None else None
        if x is None or y is None or (m.group(3) is not None and f is None):
            return ("ERR",)
        return ("STONE", x, y, f)
    word, args = head(line)
    up = ascii_upper(word)
    if up in ("RESTART", "BEGIN", "ABOUT", "YXSHOWFORBID"):
        return (up,) if not args else ("ERR",)
    if up in ("BOARD", "YXBOARD", "SWAP2BOARD", "DONE", "END", "YXSTOP", "STOP"):
        return (up,)
    if up == "START":
        n = whole_int(args)
        return ("START", n) if n is not None else ("ERR",)
    if up in ("RECTSTART", "TURN", "TAKEBACK", "PLAY"):
        c = whole_coords(args)
        return (up,) + c if c is not None else ("ERR",)
    if up == "YXNBEST":
        n = whole_int(args)
        return ("YXNBEST", n) if n is not None and n >= 1 else ("ERR",)
    if up == "INFO":
        key, value = head(args)
        return ("INFO", ascii_lower(key), value)
    return ("UNKNOWN", line)


# ---------------------------------------------------------------------------------------------
# The board, with the engine's own semantics for winners (the first stone, in the order placed,
# that made a winning line; a removal recomputes it), so that the model agrees with it.

RULES = {0: "free", 1: "std", 4: "renju", 5: "renju", 8: "caro", 9: "carostd"}
DIRS = [(1, 0), (0, 1), (1, 1), (-1, 1)]


def rule_from_mask(m):
    # A bare 2 is Yixin-Board's renju; elsewhere the continuous-game bit is ignored.
    if m == 2:
        return "renju"
    return RULES.get(m & ~2)


def opp(c):
    return "W" if c == "B" else "B"


class Board:
    def __init__(self, w, h, k, rule):
        self.w, self.h, self.k, self.rule = w, h, k, rule
        self.cells = {}
        self.hist = []
        self.to_move = "B"
        self.winner = None

    def on(self, x, y):
        return 0 <= x < self.w and 0 <= y < self.h

    def empty(self, x, y):
        return self.on(x, y) and (x, y) not in self.cells

    def full(self):
        return len(self.cells) == self.w * self.h

    def runs(self, x, y, c):
        """(run length through (x, y) counting it, end cell a, end cell b) per direction."""
        out = []
        for dx, dy in DIRS:
            n, ends = 1, []
            for s in (1, -1):
                i = 1
                while self.cells.get((x + s * i * dx, y + s * i * dy)) == c:
                    n += 1
                    i += 1
                q = (x + s * i * dx, y + s * i * dy)
                ends.append(self.cells.get(q) if self.on(*q) else "#")
            out.append((n, ends[0], ends[1]))
        return out

    def makes_win(self, x, y, c):
        exact = self.rule in ("std", "carostd") or (self.rule == "renju" and c == "B")
        caro = self.rule in ("caro", "carostd")
        for n, a, b in self.runs(x, y, c):
            if n < self.k or (exact and n > self.k):
                continue
            if caro and a == opp(c) and b == opp(c):
                continue
            return True
        return False

    def overline_forbidden(self, x, y):
        """Black under renju: a stone at (x, y) that makes an overline and no exact five. (Only
        the overline part of the renju law; YXSHOWFORBID answers cover the rest.)"""
        if self.rule != "renju" or self.k != 5:
            return False
        rs = [n for n, _, _ in self.runs(x, y, "B")]
        return 5 not in rs and any(n > 5 for n in rs)

    def put(self, x, y, c):
        self.cells[(x, y)] = c
        self.hist.append((x, y, c))

    def play(self, x, y):
        c = self.to_move
        self.put(x, y, c)
        self.to_move = opp(c)
        if self.makes_win(x, y, c):
            self.winner = c

    def place(self, x, y, c):
        self.put(x, y, c)
        if self.makes_win(x, y, c) and self.winner is None:
            self.winner = c

    def undo(self):
        x, y, c = self.hist.pop()
        del self.cells[(x, y)]
        self.to_move = c
        if self.winner is not None:
            self.winner = None
            for qx, qy, qc in self.hist:
                if self.makes_win(qx, qy, qc):
                    self.winner = qc
                    break

    def remove(self, x, y):
        at = max((i for i, h in enumerate(self.hist) if h[:2] == (x, y)), default=None)
        if at is None:
            return False
        tail = self.hist[at + 1:]
        for _ in tail:
            self.undo()
        owner = self.hist[at][2]
        self.undo()
        for qx, qy, qc in tail:
            self.place(qx, qy, qc)
        self.to_move = owner
        return True

    def rebuilt(self, rule):
        b = Board(self.w, self.h, self.k, rule)
        for x, y, c in self.hist:
            b.place(x, y, c)
        b.to_move = self.to_move
        return b

    def key(self):
        return (tuple(sorted(self.cells.items())), self.to_move, self.rule)


def empty_board(w, h, rule):
    if (w, h) == (3, 3):
        return Board(3, 3, 3, "free")
    if 5 <= w <= 32 and 5 <= h <= 32:
        return Board(w, h, 5, rule)
    return None


# ---------------------------------------------------------------------------------------------
# What the engine must answer.

class Expect:
    """kind: 'none' (no line), 'one' (exactly one line of a class in `classes`), 'end'."""

    def __init__(self, kind, classes=(), check=None, optional=False, searching=False):
        self.kind, self.classes, self.check = kind, set(classes), check
        self.optional, self.searching = optional, searching


NONE = Expect("none")


def classify(line):
    if line == "OK":
        return "ok"
    if line == "SWAP":
        return "swap"
    if MOVE_RE.fullmatch(line):
        return "move"
    if re.fullmatch(r"[0-9]+,[0-9]+( [0-9]+,[0-9]+){2}", line):
        return "moves3"
    if line.startswith("ERROR ") and len(line) > 6:
        return "error"
    if line.startswith("UNKNOWN"):
        return "unknown"
    if FORBID_RE.fullmatch(line):
        return "forbid"
    if ABOUT_RE.fullmatch(line):
        return "about"
    return "junk"


class Model:
    def __init__(self, level):
        self.board = None
        self.rule = "free"
        self.complaint = False
        self.level = level
        self.options = {}  # remembered player options, key -> value
        self.markers = set()
        self.block = None  # (kind, stones, error)
        self.forbid_seen = {}  # position key -> set of points from YXSHOWFORBID

    def complain(self):
        self.complaint = True

    # --- INFO -----------------------------------------------------------------------------
    def info(self, key, value):
        num = whole_int(value)
        if key in ("timeout_turn", "timeout_match", "max_memory", "time_increment"):
            if num is None or num < 0:
                self.complain()
        elif key in ("time_left", "game_type", "max_depth", "max_node", "thread_num"):
            if num is None:
                self.complain()
        elif key == "rule":
            if num is None or rule_from_mask(num) is None:
                self.complain()
            else:
                self.set_rule(rule_from_mask(num))
        elif key == "folder":
            pass
        elif key == "evaluate":
            if whole_coords(value) is None:
                self.complain()
        elif key == "level":
            if not value or any(c.isspace() for c in value):
                self.complain()
            elif ascii_lower(value) in GOMOKU_LEVELS:
                self.level = GOMOKU_LEVELS[ascii_lower(value)]
                for k, v in self.options.items():
                    if self.option_refused(k, v):
                        self.complain()
            elif ascii_lower(value.strip()) in TTT_LEVELS:
                pass
            else:
                self.complain()
        elif key == "seed":
            if not re.fullmatch(r"\+?[0-9]+", value) or int(value) >= 2**64:
                self.complain()
        else:
            if self.option_refused(key, value):
                self.complain()
            else:
                self.options.pop(key, None)
                self.options[key] = value

    def option_refused(self, key, value):
        if self.level != "learner" or key not in LEARNER_KEYS:
            return False

        def usize(v):
            return int(v) if re.fullmatch(r"\+?[0-9]+", v) and int(v) < 2**64 else None

        if key == "kernel":
            k = usize(value)
            return not (k is not None and k >= 1 and k % 2 == 1 and k <= 15)
        if key in ("kernel_symmetry", "kernel_learn"):
            return value not in ("0", "1")
        if key == "kernel_near":
            d = usize(value)
            return d is None or d > 4
        if key == "kernel_anchor":
            return ascii_lower(value) not in ("board", "anywhere")
        if key == "rule_map":
            return ascii_lower(value) not in ("steep", "linear")
        return False

    def set_rule(self, rule):
        self.rule = rule
        b = self.board
        if b is not None and b.rule != rule and b.k == 5:
            self.board = b.rebuilt(rule)

    # --- games ----------------------------------------------------------------------------
    def new_board(self, w, h):
        b = empty_board(w, h, self.rule) if w >= 0 and h >= 0 else None
        if b is None:
            return Expect("one", ["error"])
        self.board, self.markers = b, set()
        return Expect("one", ["ok"])

    def take_complaint(self):
        if self.complaint:
            self.complaint = False
            return True
        return False

    def legal_points(self):
        b = self.board
        return [(x, y) for y in range(b.h) for x in range(b.w)
                if (x, y) not in b.cells and (x, y) not in self.markers]

    def search_expect(self, play, searching=True):
        """A search on the current board; `play`: the answer is played for the side to move."""
        b = self.board
        if b.winner is not None:
            return Expect("one", ["error"])
        points = self.legal_points()
        if not points:
            return Expect("one", ["error"], searching=searching)
        black_renju = b.rule == "renju" and b.k == 5 and b.to_move == "B"
        classes = ["move", "error"] if black_renju else ["move"]
        key = b.key()

        def check(line, cls):
            if cls == "error":
                return None if "no legal move" in line else "ERROR where a move was due"
            x, y = map(int, line.split(","))
            why = self.illegal_for_engine(x, y, key)
            if why:
                return f"engine move {x},{y}: {why}"
            if play:
                b.play(x, y)
            return None

        return Expect("one", classes, check, searching=searching)

    def illegal_for_engine(self, x, y, key):
        b = self.board
        if not b.on(x, y):
            return "off the board"
        if (x, y) in b.cells:
            return "occupied"
        if (x, y) in self.markers:
            return "on a field-3 marker"
        if b.to_move == "B" and b.overline_forbidden(x, y):
            return "overline: forbidden for black under renju"
        if (x, y) in self.forbid_seen.get(key, ()):
            return "listed by the engine's own YXSHOWFORBID for this position"
        return None

    def play_checked(self, x, y):
        """TURN/PLAY: None if the stone goes down, else the Expect of the refusal. A renju
        forbidden point is only partly known here: `maybe_forbidden` lets an ERROR through."""
        b = self.board
        if b is None:
            return Expect("one", ["error"])
        if self.take_complaint():
            return Expect("one", ["error"])
        if not b.on(x, y) or (x, y) in self.markers or (x, y) in b.cells or b.winner:
            return Expect("one", ["error"])
        if b.rule == "renju" and b.k == 5 and b.to_move == "B":
            if b.overline_forbidden(x, y) or (x, y) in self.forbid_seen.get(b.key(), ()):
                return Expect("one", ["error"])
            return "maybe_forbidden"
        return None

    def turn(self, x, y):
        r = self.play_checked(x, y)
        if isinstance(r, Expect):
            return r
        b = self.board
        snapshot = (dict(b.cells), list(b.hist), b.to_move, b.winner)

        def apply_turn():
            b.play(x, y)
            if b.winner is not None:
                return Expect("one", ["error"])
            return self.search_expect(True)

        if r == "maybe_forbidden":
            # Unknown: either ERROR forbidden (nothing changes) or the stone goes down.
            after = apply_turn()

            def check(line, cls):
                if cls == "error" and "forbidden" in line:
                    b.cells, b.hist, b.to_move, b.winner = snapshot
                    return None
                if cls not in after.classes:
                    return f"expected {sorted(after.classes)}"
                return after.check(line, cls) if after.check else None

            return Expect("one", after.classes | {"error"}, check, searching=True)
        return apply_turn()

    def play(self, x, y):
        r = self.play_checked(x, y)
        if isinstance(r, Expect):
            return r
        b = self.board
        if r == "maybe_forbidden":
            def check(line, cls):
                if cls == "error":
                    return None if "forbidden" in line else "unexpected ERROR"
                if line != f"{x},{y}":
                    return "PLAY must echo its point"
                b.play(x, y)
                return None
            return Expect("one", ["move", "error"], check)

        def check(line, cls):
            if line != f"{x},{y}":
                return "PLAY must echo its point"
            b.play(x, y)
            return None
        return Expect("one", ["move"], check)

    def begin(self):
        if self.board is None:
            return Expect("one", ["error"])
        if self.take_complaint():
            return Expect("one", ["error"])
        if self.board.hist:
            return Expect("one", ["error"])
        return self.search_expect(True)

    def nbest(self):
        if self.board is None:
            return Expect("one", ["error"])
        if self.take_complaint():
            return Expect("one", ["error"])
        return self.search_expect(False)

    def takeback(self, x, y):
        b = self.board
        if b is None or not b.on(x, y):
            return Expect("one", ["error"])
        return Expect("one", ["ok"] if b.remove(x, y) else ["error"])

    def show_forbid(self):
        b = self.board
        if b is None:
            return Expect("one", ["error"])
        key = b.key()
        renju_black = b.rule == "renju" and b.k == 5 and b.to_move == "B"

        def check(line, cls):
            digits = FORBID_RE.fullmatch(line).group(1)
            pts = {(int(digits[i:i + 2]), int(digits[i + 2:i + 4]))
                   for i in range(0, len(digits), 4)}
            if pts and not renju_black:
                return "forbidden points outside renju-with-black-to-move"
            for p in pts:
                if not b.empty(*p):
                    return f"FORBID lists {p}, which is not an empty point"
            for p in self.legal_points():
                if renju_black and b.overline_forbidden(*p) and p not in pts:
                    return f"FORBID misses the overline point {p}"
            self.forbid_seen[key] = pts
            return None

        return Expect("one", ["forbid"], check)

    def set_board(self, stones, think):
        if self.board is None:
            return Expect("one", ["error"])
        if think and self.take_complaint():
            return Expect("one", ["error"])
        old = self.board
        b = empty_board(old.w, old.h, self.rule)
        own = opn = 0
        for _, _, f in stones:
            if f == 1:
                own += 1
            elif f == 2:
                opn += 1
            elif f != 3:
                return Expect("one", ["error"])
        if own == opn:
            ours = "B"
        elif opn == own + 1:
            ours = "W"
        else:
            return Expect("one", ["error"])
        markers = set()
        for x, y, f in stones:
            if not b.on(x, y) or (x, y) in b.cells or (x, y) in markers:
                return Expect("one", ["error"])
            if f == 3:
                markers.add((x, y))
            else:
                b.place(x, y, ours if f == 1 else opp(ours))
        b.to_move = ours
        self.board, self.markers = b, markers
        if not think:
            return NONE
        return self.search_expect(True)

    def swap2(self, stones):
        old = self.board
        if old is None:
            return Expect("one", ["error"])
        if self.take_complaint():
            return Expect("one", ["error"])
        if old.k == 3 or len(stones) not in (0, 3, 5):
            return Expect("one", ["error"])
        b = Board(old.w, old.h, 5, self.rule)
        for x, y, _ in stones:
            if not b.empty(x, y):
                return Expect("one", ["error"])
            b.play(x, y)
        self.board, self.markers = b, set()
        if not stones:
            def check(line, cls):
                pts = [tuple(map(int, m.split(","))) for m in line.split()]
                for p in pts:
                    if not b.empty(*p):
                        return f"SWAP2 opening point {p} is off the board or repeated"
                    b.play(*p)
                return None
            return Expect("one", ["moves3"], check)
        inner = self.search_expect(True)

        def check(line, cls):
            if cls == "swap":
                return None
            return inner.check(line, cls)
        return Expect("one", inner.classes | {"swap"}, check, searching=True)

    # --- one line -------------------------------------------------------------------------
    def line(self, text):
        """The expectation for one normalised input line (None: blank, no reply)."""
        if self.block is not None:
            return self.feed_block(text)
        p = parse(text)
        w = p[0]
        if w == "ERR":
            return Expect("one", ["error"])
        if w == "UNKNOWN":
            echo = text if len(text) <= 1000 else text[:1000] + "..."

            def check(line, cls):
                return None if line == "UNKNOWN " + echo else "UNKNOWN must echo the line"
            return Expect("one", ["unknown"], check)
        if w == "STONE" or w == "DONE":
            return Expect("one", ["error"])
        if w == "START":
            return self.new_board(p[1], p[1])
        if w == "RECTSTART":
            return self.new_board(p[1], p[2])
        if w == "RESTART":
            if self.board is None:
                return Expect("one", ["error"])
            return self.new_board(self.board.w, self.board.h)
        if w == "BEGIN":
            return self.begin()
        if w == "TURN":
            return self.turn(p[1], p[2])
        if w == "PLAY":
            return self.play(p[1], p[2])
        if w == "TAKEBACK":
            return self.takeback(p[1], p[2])
        if w in ("BOARD", "YXBOARD", "SWAP2BOARD"):
            self.block = (w, [], False)
            return NONE
        if w == "INFO":
            self.info(p[1], p[2])
            return NONE
        if w == "END":
            return Expect("end")
        if w == "ABOUT":
            return Expect("one", ["about"])
        if w in ("YXSTOP", "STOP"):
            return NONE
        if w == "YXSHOWFORBID":
            return self.show_forbid()
        if w == "YXNBEST":
            return self.nbest()
        raise AssertionError(p)

    def feed_block(self, text):
        kind, stones, bad = self.block
        p = parse(text)
        if p[0] == "END":
            return Expect("end")
        if p[0] == "DONE":
            self.block = None
            if bad:
                return Expect("one", ["error"])
            if kind == "BOARD":
                return self.set_board(stones, True)
            if kind == "YXBOARD":
                e = self.set_board(stones, False)
                return e
            return self.swap2(stones)
        if p[0] == "STONE" and (kind == "SWAP2BOARD" or p[3] is not None):
            stones.append((p[1], p[2], p[3]))
        else:
            self.block = (kind, stones, True)
        return NONE


# ---------------------------------------------------------------------------------------------
# The engine process.

class Engine:
    def __init__(self, argv, cwd):
        env = dict(os.environ)
        env.pop("RUST_LOG", None)
        env["RUST_BACKTRACE"] = "1"
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.q = queue.Queue()
        self.err = []
        threading.Thread(target=self._out, daemon=True).start()
        self.err_thread = threading.Thread(target=self._errs, daemon=True)
        self.err_thread.start()

    def _out(self):
        for raw in self.p.stdout:
            self.q.put((time.monotonic(), raw.decode("utf-8", errors="replace")))
        self.q.put((time.monotonic(), None))

    def _errs(self):
        for raw in self.p.stderr:
            if len(self.err) < 20000:
                self.err.append(raw.decode("utf-8", errors="replace"))

    def send(self, data):
        try:
            self.p.stdin.write(data)
            self.p.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass

    def get(self, timeout):
        """The next stdout line (raw, with its end), None at EOF; raises queue.Empty."""
        return self.q.get(timeout=timeout)[1]

    def wait_stderr(self):
        """Lets the stderr reader catch up once the process has gone."""
        if self.p.poll() is not None:
            self.err_thread.join(timeout=2)

    def stderr_panic(self):
        text = "".join(self.err)
        for needle in ("panicked", "RUST_BACKTRACE", "stack backtrace"):
            if needle in text:
                i = text.index(needle)
                return text[max(0, i - 300):i + 700]
        return None

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


# ---------------------------------------------------------------------------------------------
# The command generator.

GARBAGE = ["FOO", "hello world", "STARTX 15", "BEGINNER", "TURNS 1,2", "ENDX", "DONE.",
           "YXHASHCLEAR", "YXSHOWINFO", "yxresign", "YXBLOCK 1,1", "SUGGEST 7,7", "quit",
           "genmove b", "boardsize 9", "name", "protocol_version", "# comment", "?", ",",
           "-", "+", "1", "7,", ",7", "7,7,1,1", "1.5,2", "0x10,3", "é", "ÄBOUT",
           "START\u00a015", "日本語", "BEGIN now", "ABOUT me", "RESTART 15", "YXSHOWFORBID 1",
           "TURN", "TURN 7", "TURN a,b", "TURN 7,8,9", "TURN 7;8", "TAKEBACK", "PLAY 1;2",
           "YXNBEST", "YXNBEST 0", "YXNBEST -3", "YXNBEST x", "RECTSTART 20", "START x",
           "START 15 16", "START 99999999999999999999", "TURN 99999999999999999999,1",
           "TURN -99999999999999999999,1", "TURN 9223372036854775807,9223372036854775807",
           "TURN -9223372036854775808,0", "DONE", "7,7,1", "3,4", "INFO", "INFO rule",
           "INFO  ", "SWAP", "OK", "ERROR x", "MESSAGE hi", "FORBID .", "\u200bBEGIN"]


class Gen:
    def __init__(self, rng, model, folder):
        self.r, self.m, self.folder = rng, model, folder

    def size(self):
        b = self.m.board
        return (b.w, b.h) if b else (15, 15)

    def coord(self, kind=None):
        r, b = self.r, self.m.board
        w, h = self.size()
        kind = kind or r.choices(["near", "empty", "occupied", "off", "any"],
                                 [50, 20, 10, 8, 12])[0]
        if kind == "near" and b and b.cells:
            x, y = r.choice(list(b.cells))
            for _ in range(20):
                p = (x + r.randint(-2, 2), y + r.randint(-2, 2))
                if b.empty(*p) and p not in self.m.markers:
                    return p
            kind = "empty"
        if kind in ("near", "empty"):
            free = [(x, y) for x in range(w) for y in range(h)
                    if not (b and (x, y) in b.cells)]
            return r.choice(free) if free else (0, 0)
        if kind == "occupied" and b and b.cells:
            return r.choice(list(b.cells) + list(self.m.markers))
        if kind in ("off", "occupied"):
            return r.choice([(w, 0), (0, h), (-1, 3), (3, -1), (w + 5, h + 5), (100, 100),
                             (-100000, 2), (2**40, 1)])
        return (r.randint(-1, w), r.randint(-1, h))

    def fmt_xy(self, p):
        x, y = p
        if self.r.random() < 0.1:
            return self.r.choice([f"{x}, {y}", f"{x} ,{y}", f"+{x},{y}" if x >= 0 else f"{x},{y}",
                                  f"0{x},{y}" if x >= 0 else f"{x},{y}"])
        return f"{x},{y}"

    def word(self, w):
        r = self.r.random()
        if r < 0.15:
            return w.lower()
        if r < 0.2:
            return "".join(c.lower() if self.r.random() < 0.5 else c for c in w)
        return w

    def info(self):
        r = self.r
        key = r.choices(
            ["timeout_turn", "timeout_match", "time_left", "max_memory", "game_type", "rule",
             "folder", "evaluate", "max_depth", "max_node", "thread_num", "time_increment",
             "level", "seed", "other", "learner"],
            [14, 4, 10, 4, 2, 12, 2, 2, 5, 6, 2, 3, 4, 2, 4, 3])[0]
        bad = r.random() < 0.12
        vals = {
            "timeout_turn": ["0", "1", "50", "100", "200", "200", "300"],
            "timeout_match": ["0", "1000", "120000", "2147483647"],
            "time_left": ["-100", "0", "1", "50", "500", "5000", "2147483647", "9999999999"],
            "max_memory": ["0", "1", "1000", "367001600", "2147483647", "4611686018427387904"],
            "game_type": ["0", "1", "2", "3", "-7"],
            "rule": ["0", "1", "2", "3", "4", "4", "5", "6", "8", "9", "16", "-1", "12"],
            "folder": [self.folder, self.folder + "/sub dir", "", "/proc/sente-fuzz"],
            "evaluate": ["3,4", "-1,-1", "100,2"],
            "max_depth": ["-1", "0", "1", "2", "3", "10", "100", "9223372036854775807"],
            "max_node": ["-1", "0", "1", "100", "1000", "2000", "2000"],
            "thread_num": ["0", "1", "4", "-3", "100000000000"],
            "time_increment": ["0", "100", "1000", "1000000000"],
            "level": ["strong", "classic", "learner", "default", "STRONG", "perfect",
                      "minimax", "dumb", "nosuch", "rules+heuristic"],
            "seed": ["0", "1", "42", "18446744073709551615", "+5"],
        }
        if key == "other":
            key = r.choice(["show_detail", "hash_size", "pondering", "caution_factor",
                            "usedatabase", "strength", "swapable", "max_moves", ""])
            value = r.choice(["0", "1", "3", "100", "x", ""])
        elif key == "learner":
            key = r.choice(sorted(LEARNER_KEYS))
            value = r.choice(["0", "1", "2", "3", "5", "15", "16", "board", "anywhere", "steep",
                              "linear", "x", ""])
        elif bad:
            value = r.choice(["", "abc", "1.5", "99999999999999999999", "1 2", "-", "++1",
                              "-5", "0x10", "7,"])
        else:
            value = r.choice(vals[key])
        kw = key.upper() if r.random() < 0.1 else key
        return f"{self.word('INFO')} {kw} {value}".rstrip() if r.random() < 0.95 else \
            f"{self.word('INFO')}  {kw}\t{value}"

    def stones(self, n, fields):
        """n distinct points near the centre, in move order, with Gomocup fields (the side to move
        after them is 1) or none."""
        r = self.r
        w, h = self.size()
        pts = set()
        out = []
        while len(out) < n and len(pts) < w * h:
            p = (min(w - 1, max(0, int(r.gauss(w / 2, w / 4)))),
                 min(h - 1, max(0, int(r.gauss(h / 2, h / 4)))))
            if p in pts:
                continue
            pts.add(p)
            out.append(p)
        lines = []
        for i, (x, y) in enumerate(out):
            if fields:
                f = 1 if (len(out) - i) % 2 == 0 else 2
                lines.append(f"{x},{y},{f}")
            else:
                lines.append(f"{x},{y}")
        return lines

    def renju_lines(self):
        """Black (to move, field 1) around a shape with forbidden points (double three, double
        four, overline) or an allowed four-three, white (field 2) along the far edges."""
        r = self.r
        w, h = self.size()
        shapes = [
            [(-1, 0), (1, 0), (0, -1), (0, 1)],                   # double three at 0,0
            [(-3, 0), (-2, 0), (-1, 0), (1, 0), (2, 0)],           # overline at 0,0
            [(-3, 0), (-2, 0), (-1, 0), (0, -3), (0, -2), (0, -1)],  # double four at 0,0
            [(-3, 0), (-2, 0), (-1, 0), (0, -1), (0, 1)],          # four-three: allowed
            [(-1, -1), (1, 1), (1, -1), (-1, 1), (2, 0)],          # diagonal double three
            [(-2, 0), (-1, 0), (0, -2), (0, -1), (2, 2)],          # three-three (split)
        ]
        pts = []
        for _ in range(r.choice([1, 1, 2])):
            shape = r.choice(shapes)
            cx, cy = r.randint(4, max(4, w - 5)), r.randint(4, max(4, h - 5))
            k = r.randrange(8)
            for dx, dy in shape:
                if k & 1:
                    dx = -dx
                if k & 2:
                    dy = -dy
                if k & 4:
                    dx, dy = dy, dx
                p = (cx + dx, cy + dy)
                if 0 <= p[0] < w and 0 <= p[1] < h and p not in pts:
                    pts.append(p)
        edge = [(x, 0) for x in range(w)] + [(x, h - 1) for x in range(w)] + \
            [(0, y) for y in range(h)] + [(w - 1, y) for y in range(h)]
        edge = [p for p in dict.fromkeys(edge) if p not in pts]
        r.shuffle(edge)
        whites = edge[:len(pts)]
        lines = []
        for b, wp in zip(pts, whites):
            lines += [f"{b[0]},{b[1]},1", f"{wp[0]},{wp[1]},2"]
        return lines

    def dense_lines(self):
        """A nearly (or completely) full board with no five anywhere: colour (x // 2 + y) % 2
        (runs of at most two in every direction), a few points left empty, counts balanced."""
        r = self.r
        w, h = self.size()
        cells = {(x, y): "BW"[(x // 2 + y) % 2] for y in range(h) for x in range(w)}
        for p in r.sample(sorted(cells), min(len(cells), r.choice([0, 1, 1, 2, 3, 5]))):
            del cells[p]
        blacks = [p for p, c in cells.items() if c == "B"]
        whites = [p for p, c in cells.items() if c == "W"]
        r.shuffle(blacks)
        r.shuffle(whites)
        while len(blacks) > len(whites) + 1:
            blacks.pop()
        while len(whites) > len(blacks):
            whites.pop()
        mover = "B" if len(blacks) == len(whites) else "W"
        order = []
        for i in range(max(len(blacks), len(whites))):
            order += [(p, "B") for p in blacks[i:i + 1]] + [(p, "W") for p in whites[i:i + 1]]
        return [f"{x},{y},{1 if c == mover else 2}" for (x, y), c in order]

    def board_block(self, kind):
        r, m = self.r, self.m
        w, h = self.size()
        fields = kind != "SWAP2BOARD"
        if kind != "SWAP2BOARD" and w * h <= 100 and r.random() < 0.3:
            lines = self.dense_lines()
        elif kind != "SWAP2BOARD" and m.rule == "renju" and min(w, h) >= 9 and r.random() < 0.5:
            lines = self.renju_lines()
        elif kind == "SWAP2BOARD":
            n = r.choices([0, 3, 5, 1, 2, 4, 6], [30, 30, 20, 5, 5, 5, 5])[0]
            lines = self.stones(n, r.random() < 0.2)
        elif m.board and m.board.hist and r.random() < 0.4:
            # The current game, as c-gomoku-cli's -sendbyboard sends it, maybe plus a stone.
            b = m.board
            hist = [(x, y, c) for x, y, c in b.hist]
            mover = b.to_move
            if r.random() < 0.6:
                p = self.coord("near")
                hist.append((p[0], p[1], mover))
                mover = opp(mover)
            lines = [f"{x},{y},{1 if c == mover else 2}" for x, y, c in hist]
        else:
            n = r.choices([0, 1, 2, 3, 5, 8, 12, 20, 40], [10, 10, 10, 10, 15, 15, 15, 10, 5])[0]
            lines = self.stones(min(n, w * h - 1), True)
        if fields and lines and r.random() < 0.15:
            marker = f"{r.randint(0, w - 1)},{r.randint(0, h - 1)},3"
            lines.insert(r.randrange(len(lines) + 1), marker)
        if r.random() < 0.15:
            bad = r.choice(["7,7", "7,7,0", "7,7,4", "7,7,-1", f"{w},0,1", "-1,0,2", "x,y,1",
                            "7;7;1", "TURN 1,1", "INFO rule 4", "7,7,1,1", "", "   ",
                            "YXSTOP", "ABOUT", "1.5,1,1", lines[0] if lines else "0,0,1",
                            "99999999999999999999,1,1"])
            lines.insert(r.randrange(len(lines) + 1), bad)
        done = self.word("DONE") if r.random() < 0.97 else "DONE now"
        return [f"{self.word(kind)}"] + lines + [done]

    def command(self):
        """One or more lines, the first a command; later ones may be interrupts."""
        r, m = self.r, self.m
        if m.board is None and r.random() < 0.7:
            return [self.start()]
        if m.board is not None and (m.board.winner or not m.legal_points()) and r.random() < 0.5:
            return [r.choice([self.start(), self.word("RESTART"),
                              f"{self.word('TAKEBACK')} {m.board.hist[-1][0]},{m.board.hist[-1][1]}"
                              if m.board.hist else self.start()])]
        c = r.choices(
            ["start", "rectstart", "restart", "begin", "turn", "board", "yxboard", "swap2",
             "takeback", "play", "info", "forbid", "nbest", "stop", "about", "blank", "garbage"],
            [4, 2, 2, 4, 32, 6, 3 if m.rule != "renju" else 8, 3, 5, 2, 18,
             4 if m.rule != "renju" else 8, 3, 2, 2, 2, 5])[0]
        if c == "start":
            return [self.start()]
        if c == "rectstart":
            w, h = r.choice([(20, 15), (15, 20), (3, 3), (5, 32), (32, 5), (4, 10), (3, 5),
                             (-5, 20), (33, 15), (7, 9), (0, 0)])
            return [f"{self.word('RECTSTART')} {w},{h}"]
        if c == "restart":
            return [self.word("RESTART")]
        if c == "begin":
            return self.maybe_interrupt([self.word("BEGIN")])
        if c == "turn":
            b = m.board
            seen = m.forbid_seen.get(b.key()) if b else None
            if seen and r.random() < 0.5:
                p = r.choice(sorted(seen))
                return [f"{self.word(r.choice(['TURN', 'PLAY']))} {p[0]},{p[1]}"]
            return self.maybe_interrupt([f"{self.word('TURN')} {self.fmt_xy(self.coord())}"])
        if c == "board":
            return self.maybe_interrupt(self.board_block("BOARD"))
        if c == "yxboard":
            lines = self.board_block("YXBOARD")
            if m.rule == "renju" and r.random() < 0.7:
                lines.append(self.word("YXSHOWFORBID"))
            return lines
        if c == "swap2":
            return self.maybe_interrupt(self.board_block("SWAP2BOARD"))
        if c == "takeback":
            b = m.board
            if b and b.hist and r.random() < 0.7:
                x, y, _ = b.hist[-1] if r.random() < 0.6 else r.choice(b.hist)
                return [f"{self.word('TAKEBACK')} {x},{y}"]
            return [f"{self.word('TAKEBACK')} {self.fmt_xy(self.coord())}"]
        if c == "play":
            return [f"{self.word('PLAY')} {self.fmt_xy(self.coord())}"]
        if c == "info":
            return [self.info()]
        if c == "forbid":
            return [self.word("YXSHOWFORBID")]
        if c == "nbest":
            n = r.choice(["1", "2", "3", "5", "64", "1000", "9223372036854775807"])
            return self.maybe_interrupt([f"{self.word('YXNBEST')} {n}"])
        if c == "stop":
            return [r.choice(["YXSTOP", "STOP", "yxstop", "STOP now"])]
        if c == "about":
            return [self.word("ABOUT")]
        if c == "blank":
            return [r.choice(["", " ", "\t", "  \t "])]
        return [self.garbage()]

    def garbage(self):
        r = self.r
        x = r.random()
        if x < 0.6:
            return r.choice(GARBAGE)
        if x < 0.7:
            return "X" * r.choice([100, 1001, 5000])
        if x < 0.85:
            return "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.-+_") for _ in
                           range(r.randint(1, 20))).strip() or "Q"
        return r.choice(["TU\x07RN", "ABOUT\x00", "\x1b[2J", "ST\x7fART 15"])

    def start(self):
        n = self.r.choices(["15", "20", "3", "5", "6", "9", "10", "19", "32", "33", "4", "0",
                            "-1", "100", "2"], [25, 20, 5, 6, 5, 5, 5, 5, 2, 2, 2, 1, 1, 1, 1])[0]
        return f"{self.word('START')} {n}"

    def maybe_interrupt(self, lines):
        r = self.r.random()
        if r < 0.05 and not self.m.complaint:
            # A long think cut short: YXSTOP must answer at once, whatever the budget.
            return [LONG_TURN] + lines + [self.r.choice(["YXSTOP", "STOP"]),
                                          "INFO timeout_turn 200"]
        if r < 0.08:
            return lines + [self.r.choice(["YXSTOP", "STOP", "yxstop"])]
        if r < 0.1:
            return lines + [self.info()]
        return lines


# ---------------------------------------------------------------------------------------------
# A session.

class Problem(Exception):
    pass


class Session:
    def __init__(self, bin_path, rng, ncmds, hang, mode, workdir):
        self.rng, self.ncmds, self.hang = rng, ncmds, hang
        argv = [bin_path]
        base = os.path.basename(bin_path)
        self.auto = False
        if not base.startswith("pbrain"):
            if mode == "flag" or (mode == "mix" and rng.random() < 0.6):
                argv += ["--protocol", "gomocup"]
            else:
                self.auto = True
        extra = rng.choices([[], ["--seed", str(rng.randint(0, 99))], ["--level", "classic"],
                             ["--level", "learner", "--memory", os.path.join(workdir, "k.txt")],
                             ["--level", "learner", "--kernel", "5"], ["--depth", "2"],
                             ["--nodes", "500"], ["--nodes", "300", "--level", "classic"]],
                            [35, 15, 10, 8, 5, 7, 12, 8])[0]
        argv += extra
        self.argv = argv
        level = "strong"
        if "--level" in extra:
            level = extra[extra.index("--level") + 1]
        self.model = Model(level)
        if "--kernel" in extra:
            self.model.options["kernel"] = extra[extra.index("--kernel") + 1]
        self.gen = Gen(rng, self.model, workdir)
        self.crlf = rng.random() < 0.3
        self.history = []
        self.sent = 0  # commands (a BOARD ... DONE block is one)
        self.lines = 0
        self.checked = 0
        self.max_latency = 0.0
        self.slow = []  # (seconds, recent history) of replies slower than 1 s
        self.stop_latency = []  # seconds from a YXSTOP sent during a search to its answer
        self.engine = Engine(argv, workdir)

    def raw(self, text, clean=False):
        end = b"\r\n" if (self.crlf or self.rng.random() < 0.05) else b"\n"
        data = text.encode("utf-8")
        # The lines that set the long budget and restore the short one are never garbled.
        clean = clean or text in (LONG_TURN, "INFO timeout_turn 200")
        if not clean and self.rng.random() < 0.01:
            data = data + b"\xff\xfe"
        return data + end

    def fail(self, what):
        raise Problem(what)

    def read_reply(self, timeout):
        """The next protocol line, skipping MESSAGE/DEBUG; None at EOF."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise queue.Empty
            line = self.engine.get(left)
            if line is None:
                return None
            text = line.rstrip("\n").rstrip("\r")
            if text.startswith("MESSAGE ") or text.startswith("DEBUG "):
                if "\r" in text:
                    self.fail(f"a carriage return inside a line: {text!r}")
                continue
            return text

    def stray(self, wait):
        """Fails if a non-MESSAGE line arrives within `wait` seconds."""
        try:
            line = self.read_reply(wait)
        except queue.Empty:
            return
        if line is None:
            self.fail("the engine closed its output (exited) unexpectedly")
        self.fail(f"an unexpected line: {line!r}")

    def expect_exit(self, grace, eof_seen=False):
        t0 = time.monotonic()
        if not eof_seen:
            try:
                line = self.read_reply(grace)
            except queue.Empty:
                self.fail(f"still running {grace:.0f} s after END / end of input")
            if line is not None:
                self.fail(f"output after END / end of input: {line!r}")
        try:
            rc = self.engine.p.wait(timeout=max(0.5, grace - (time.monotonic() - t0)))
        except subprocess.TimeoutExpired:
            self.fail("closed stdout but did not exit")
        if rc != 0:
            self.fail(f"exit status {rc}")

    def run(self):
        try:
            if self.rng.random() < 0.2:
                self.send_batch(["ABOUT"])
            # The limits that keep searches short (never garbled).
            self.send_batch([f"INFO timeout_turn {self.rng.choice([100, 200, 200, 300])}"],
                            clean=True)
            if self.rng.random() < 0.3:
                self.send_batch(["INFO max_node 2000"], clean=True)
            if self.rng.random() < 0.3:
                self.send_batch(["INFO rule 4", "START 15"], clean=True)
            try:
                while self.sent < self.ncmds:
                    batch = self.gen.command()
                    # Now and then several commands go at once (the reader reads ahead).
                    while self.rng.random() < 0.08 and self.model.block is None:
                        batch += self.gen.command()
                    self.send_batch(batch)
                    if self.model.block is None and self.rng.random() < 0.02:
                        self.send_batch(["ABOUT"])
                    p = self.engine.stderr_panic()
                    if p:
                        self.fail("panic on stderr:\n" + p)
                self.finish()
            except StopSession:
                pass
            self.engine.wait_stderr()
            p = self.engine.stderr_panic()
            if p:
                self.fail("panic on stderr:\n" + p)
            return None
        except Problem as e:
            p = self.engine.stderr_panic()
            msg = str(e)
            if p and "panic" not in msg:
                msg += "\npanic on stderr:\n" + p
            return msg
        finally:
            self.engine.kill()

    def finish(self):
        m = self.model
        if m.block is not None:
            self.send_batch(["DONE"])
        self.send_batch(["ABOUT"])
        x = self.rng.random()
        if x < 0.6:
            self.send_batch([self.rng.choice(["END", "end", "END now"])], final=True)
        elif x < 0.75 and m.board is not None and m.board.winner is None and \
                m.board.k == 5 and not m.complaint and m.legal_points():
            # END while a search runs: at most the move, then silence and a prompt exit.
            self.send_batch([self.gen.word("BEGIN") if not m.board.hist else "YXNBEST 1",
                             "END"], final=True)
        elif x < 0.85 and m.board is not None and not m.complaint:
            # End of input right behind a move request or inside a block: what is queued is
            # answered (nothing interrupts a Gomocup search at end of input), then the exit.
            lines = self.gen.command()
            if self.rng.random() < 0.3 and lines[0].upper().startswith(("BOARD", "YXBOARD")):
                lines = lines[:-1]
            self.send_batch(lines, final=True, close=True)
            self.expect_exit(5.0)
        else:
            self.history.append("<end of input>")
            self.engine.close()
            self.expect_exit(5.0)

    def send_batch(self, lines, final=False, clean=False, close=False):
        stop_sent = None
        long_search = LONG_TURN in lines
        raws = [self.raw(t, clean or long_search) for t in lines]
        norm = [normalise(r) for r in raws]
        for i, r in enumerate(raws):
            # An interrupt behind a search goes at once (read before the search starts) or a
            # moment later (while it runs).
            if i > 0 and norm[i] and parse(norm[i])[0] in ("YXSTOP", "STOP", "END") and \
                    (long_search or self.rng.random() < 0.5):
                pause = self.rng.uniform(0.01, 0.3 if long_search else 0.15)
                self.history.append(f"<{pause * 1000:.0f} ms pause>")
                time.sleep(pause)
                if parse(norm[i])[0] != "END":
                    stop_sent = time.monotonic()
            self.engine.send(r)
            self.history.append(r.decode("utf-8", errors="replace"))
        if close:
            self.history.append("<end of input>")
            self.engine.close()
        for i, n in enumerate(norm):
            self.lines += 1
            if self.model.block is None:
                self.sent += 1
            if n is None:
                continue
            exp = self.model.line(n)
            nxt = next((x for x in norm[i + 1:] if x is not None), None)
            end_follows = nxt is not None and parse(nxt)[0] == "END" and \
                self.model.block is None
            if exp.kind == "end":
                # A search queued ahead of END runs to its end (<= 300 ms budget).
                self.expect_exit(5.0)
                self.history.append("<exited>")
                raise StopSession
            if exp.kind == "none":
                if i == len(lines) - 1 and not final:
                    self.stray(0.01)
                continue
            t0 = time.monotonic()
            try:
                reply = self.read_reply(self.hang)
            except queue.Empty:
                self.fail(f"no reply within {self.hang} s (hang?)")
            dt = time.monotonic() - t0
            self.max_latency = max(self.max_latency, dt)
            if stop_sent is not None and exp.searching and reply is not None:
                # A YXSTOP/STOP went in while this search ran: how long it took to answer.
                late = time.monotonic() - stop_sent
                self.stop_latency.append(late)
                if long_search and late > 1.5:
                    self.fail(f"a search with a 10 s budget answered {late:.1f} s after YXSTOP")
            if reply is None:
                if end_follows and exp.searching:
                    self.history.append("<no reply: END arrived during the search>")
                    self.expect_exit(5.0, eof_seen=True)
                    raise StopSession
                self.fail("the engine exited / closed stdout instead of replying")
            self.history.append("  -> " + reply + (f"  [{dt * 1000:.0f} ms]" if dt > 1 else ""))
            if dt > 1:
                self.slow.append((dt, list(self.history[-12:])))
            self.checked += 1
            cls = classify(reply)
            if cls == "junk":
                self.fail(f"non-protocol line: {reply!r}")
            if cls not in exp.classes:
                self.fail(f"reply {reply!r} ({cls}); expected one of {sorted(exp.classes)}")
            if exp.check:
                why = exp.check(reply, cls)
                if why:
                    self.fail(why)


class StopSession(Exception):
    pass


def append_session_log(path, session, argv, history, problem):
    """Appends one session's command line, every line sent and received, and its problem."""
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"### session {session}: {' '.join(argv)}\n")
        f.write("\n".join(map(repr, history)) + "\n")
        if problem:
            f.write(f"!!! {problem}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bin")
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int, help="commands in all")
    ap.add_argument("--mode", choices=["mix", "flag", "auto"], default="mix",
                    help="--protocol gomocup, auto-detection, or a mix (pbrain-*: no flag)")
    ap.add_argument("--hang", type=float, default=5.0, help="seconds a reply may take")
    ap.add_argument("--session", type=int, default=300, help="most commands per session")
    ap.add_argument("--log", help="append every session's transcript to this file")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    problems = []
    sessions = sent = lines = checked = 0
    max_latency = 0.0
    slow = []
    stops = []
    with tempfile.TemporaryDirectory(prefix="fuzz_gomocup_") as workdir:
        while sent < a.n:
            sessions += 1
            srng = random.Random(rng.randrange(2**63))
            n = min(a.n - sent, srng.randint(10, a.session))
            s = Session(os.path.abspath(a.bin), srng, n, a.hang, a.mode, workdir)
            problem = s.run()
            sent += s.sent
            lines += s.lines
            checked += s.checked
            max_latency = max(max_latency, s.max_latency)
            slow += [(dt, sessions, h) for dt, h in s.slow]
            stops += s.stop_latency
            if a.log:
                append_session_log(a.log, sessions, s.argv, s.history, problem)
            if problem:
                problems.append((sessions, s.argv, problem, s.history[-40:]))
    print(f"fuzz_gomocup: {a.bin} seed {a.seed}: {sent} commands ({lines} lines) in "
          f"{sessions} sessions, "
          f"{checked} replies checked, slowest reply {max_latency * 1000:.0f} ms, "
          f"{len(problems)} problem(s)")
    if stops:
        stops.sort()
        print(f"YXSTOP/STOP during a search: {len(stops)} times, answered "
              f"{stops[len(stops) // 2] * 1000:.0f} ms after it (median), "
              f"{stops[-1] * 1000:.0f} ms (max)")
    for dt, sess, hist in slow:
        print(f"\nslow reply ({dt:.1f} s, session {sess}; not a problem below --hang):")
        for h in hist:
            print("   ", repr(h))
    for i, (sess, argv, problem, hist) in enumerate(problems, 1):
        print(f"\n--- problem {i} (session {sess}: {' '.join(argv)})\n{problem}")
        print("last commands (oldest first; '  -> ' marks a reply):")
        for h in hist:
            print("   ", repr(h))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
