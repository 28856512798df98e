#!/usr/bin/env python3
"""Random-command fuzzer for sente's GTP side (standard library only).

    nice python3 scripts/fuzz_gtp.py BIN SEED N [--hang SECONDS] [--session MAX] [--log FILE]

runs N random GTP commands, spread over several engine processes ("sessions"), against BIN
(`target/release/sente`). A session starts `BIN --protocol gtp` or `BIN` alone (the first line,
always a clean command, selects GTP), always with `--nodes` (1..200 playouts: fast, deterministic
moves), sometimes with `--seed`, `--game ttt`, `--level heuristic`, `--threads 2`.

Commands come from the whole vocabulary (every command `list_commands` names, with good and bad
arguments: vertices off the board, sizes 0..30, negative and malformed times, rule names and
KataGo rule keys, analysis keys, handicaps), plus garbage: unknown words, upper case, ids of
every length, comments, control bytes, invalid UTF-8, blank lines, 2 MiB lines. Some go out
alone, some pipelined in batches of up to 12. `lz-analyze` / `kata-analyze` run for a random
moment and are ended by the next command or by a bare newline. `loadsgf` reads records written
for the session: generated games (valid, or with bytes flipped, cut or inserted), a main line of
20,000 nodes, a 5 MiB file, a FIFO, `/dev/zero`, `/dev/urandom`, a directory, a missing file.
Sessions end with `quit`, end of input, or end of input during an analysis.

Checked: exactly one response per command that GTP's preprocessing leaves non-empty (none for
blank and comment lines), in order, with the command's id; every response well formed (`=` or `?`,
an error on one line, ended by an empty line) and nothing else on stdout; no `internal error`
(a caught panic) and no panic on stderr; every reply within --hang seconds (default 30:
scoring and ownership on 25x25 take seconds on a loaded machine); after a refused command,
the board, the rules and the level (`showboard`, `kata-get-rules`, `sente-level`) exactly as
before it; after `quit` or end of input, exit status 0 within 5 s and
no more output; peak memory (VmHWM) under 1 GiB. A problem ends its session; the summary lists
each with the session's arguments and the last commands, and the script exits 1 if there was any.
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

# The engine process (stdout and stderr readers, panic search, kill) is the Gomocup fuzzer's.
from fuzz_gomocup import Engine, append_session_log

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
ID_RE = re.compile(r"[0-9]+")
HEAD_RE = re.compile(r"([=?])([0-9]*)(?: (.*))?")
MEMORY_LIMIT_KB = 1 << 20
# Commands that cannot change what the probes see (reg_genmove promises to leave no trace).
READ_ONLY = {"protocol_version", "name", "version", "known_command", "list_commands",
             "showboard", "final_score", "final_status_list", "reg_genmove", "cputime",
             "gomill-cpu_time", "gomill-describe_engine", "gomill-explain_last_move",
             "kata-get-rules", "gogui-analyze_commands", "sente-ownership", "lz-analyze",
             "kata-analyze", "clear_cache", "stop", "time_settings", "time_left",
             "kgs-time_settings", "komi"}
PROBES = ("showboard", "kata-get-rules", "sente-level")
# Analyses that run until the next input line.
ANALYSES = ("lz-analyze", "kata-analyze")
GARBAGE = ["foo", "PLAY b D4", "Genmove b", "play", "playout b a1", "boardsize", "= 1",
           "? 2", "#", "# only a comment", "   ", "\t", "12", "007 name", "-1 name",
           "1.5 name", "12name", "name extra args", "list_commands now", "known_command",
           "kata-set-rules {", "kata-set-rules {\"ko\":", "kata-set-rule ko", "lz-analyze x",
           "kata-analyze b 10 ownership maybe", "lz-analyze b avoid b D4 0",
           "lz-analyze b allow x D4 1", "time_left b -5 0", "time_left w 1e9 0",
           "time_settings 1 2", "komi 1e50", "komi -", "boardsize 99999999999999999999",
           "fixed_handicap -1", "set_free_handicap D4 D4", "undo 2", "sente-level nosuch",
           "gomill-genmove_ex", "gomill-genmove_ex b claim extra", "loadsgf", "stop now",
           "\u00e9", "日本語 b", "play\u00a0b D4", "final_status_list maybe"]


def normalise(raw):
    """The engine's reader on one raw line: invalid UTF-8 replaced, tabs to spaces, control
    characters dropped, trimmed; None when blank."""
    text = raw.decode("utf-8", errors="replace")
    kept = [" " if c == "\t" else c for c in text
            if c == "\t" or unicodedata.category(c) != "Cc"]
    t = "".join(kept).strip()
    return t or None


def expected(raw):
    """(whether a response is due, its id, the command name) for one raw line."""
    line = normalise(raw)
    if line is None:
        return False, None, ""
    text = line.split("#")[0].strip()
    if not text:
        return False, None, ""
    tokens = text.split()
    if ID_RE.fullmatch(tokens[0]):
        return True, tokens[0], (tokens[1] if len(tokens) > 1 else "")
    return True, None, tokens[0]


def board_size(showboard):
    """(width, height) from a showboard result, or None."""
    lines = showboard.split("\n")
    header = next((l.split() for l in lines
                   if l.split() and all(len(t) == 1 and t.isalpha() for t in l.split())), None)
    rows = [l for l in lines if l.split() and l.split()[0].isdigit()]
    return (len(header), len(rows)) if header and rows else None


# ---------------------------------------------------------------------------------------------
# Records for loadsgf.

def sgf_point(rng, w, h):
    return "abcdefghijklmnopqrstuvwxy"[rng.randrange(w)] + "abcdefghijklmnopqrstuvwxy"[rng.randrange(h)]


def sgf_game(rng):
    w = rng.choice([5, 7, 9, 9, 13, 19])
    h = w if rng.random() < 0.8 else rng.choice([5, 7, 9])
    size = str(w) if w == h else f"{w}:{h}"
    head = f"(;GM[1]FF[4]SZ[{size}]KM[{rng.choice(['6.5', '7.5', '0', '-3', '0.5'])}]"
    if rng.random() < 0.3:
        head += "AB" + "".join(f"[{sgf_point(rng, w, h)}]" for _ in range(rng.randint(1, 4)))
    if rng.random() < 0.2:
        head += "AW" + "".join(f"[{sgf_point(rng, w, h)}]" for _ in range(rng.randint(1, 3)))
    if rng.random() < 0.1:
        head += "PL[W]"
    nodes = []
    for i in range(rng.randint(0, 40)):
        c = "BW"[i % 2]
        mv = "" if rng.random() < 0.05 else sgf_point(rng, w, h)
        node = f";{c}[{mv}]"
        if rng.random() < 0.05:
            node += f"C[move {i} \\] ;(]"
        if rng.random() < 0.03:
            node += f"AE[{sgf_point(rng, w, h)}]"
        nodes.append(node)
    tail = ""
    if rng.random() < 0.2:
        tail = f"(;B[{sgf_point(rng, w, h)}])(;W[{sgf_point(rng, w, h)}])"
    return head + "".join(nodes) + tail + ")"


def corrupt(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(data) + 1)
        kind = rng.randrange(3)
        b = rng.choice(b"()[];\\:ABWabt9 \xff\x00")
        if kind == 0 and i < len(data):
            data[i] = b
        elif kind == 1:
            data.insert(i, b)
        else:
            del data[i:]
    return bytes(data)


class Records:
    """The files a session's loadsgf may name."""

    def __init__(self, rng, workdir):
        self.rng, self.dir = rng, workdir
        self.fixed = ["/dev/zero", "/dev/urandom", workdir, os.path.join(workdir, "missing.sgf")]
        deep = os.path.join(workdir, "deep.sgf")
        if not os.path.exists(deep):
            with open(deep, "w") as f:
                f.write("(;SZ[9]" + ";B[];W[]" * 10000 + ")")
            with open(os.path.join(workdir, "big.sgf"), "w") as f:
                f.write("(;SZ[9]C[" + "x" * (5 << 20) + "])")
            os.mkfifo(os.path.join(workdir, "fifo.sgf"))
        self.fixed += [deep, os.path.join(workdir, "big.sgf"), os.path.join(workdir, "fifo.sgf")]
        self.count = 0

    def pick(self):
        r = self.rng.random()
        if r < 0.15:
            return self.rng.choice(self.fixed)
        self.count += 1
        path = os.path.join(self.dir, f"g{self.count % 50}.sgf")
        data = sgf_game(self.rng).encode()
        if r < 0.55:
            data = corrupt(self.rng, data)
        with open(path, "wb") as f:
            f.write(data)
        return path


# ---------------------------------------------------------------------------------------------
# The command generator.

class Gen:
    def __init__(self, rng, records, ttt):
        self.rng, self.records, self.ttt = rng, records, ttt
        self.size = (3, 3) if ttt else (19, 19)

    def color(self):
        return self.rng.choices(["b", "w", "B", "white", "black", "x", ""], [30, 30, 5, 5, 5, 2, 1])[0]

    def vertex(self):
        w, h = self.size
        r = self.rng.random()
        if r < 0.8:
            return f"{COLUMNS[self.rng.randrange(w)]}{self.rng.randint(1, h)}"
        if r < 0.88:
            return self.rng.choice(["pass", "PASS", "Pass"])
        return self.rng.choice(["I5", "Z99", "a0", "A-1", "aa", "tt", f"A{h + 1}",
                                f"{COLUMNS[min(w, 24)]}1", "resign", "D4.5"])

    def num(self, good):
        return str(self.rng.choice(good)) if self.rng.random() < 0.85 else \
            self.rng.choice(["-1", "x", "1.5", "99999999999999999999", "", "+3"])

    def analysis_keys(self):
        keys = []
        for _ in range(self.rng.randint(0, 3)):
            keys.append(self.rng.choice([
                f"interval {self.rng.randint(1, 20)}", f"minmoves {self.rng.randint(0, 3)}",
                f"maxmoves {self.rng.randint(0, 5)}", "ownership true", "ownership false",
                f"avoid {self.color()} {self.vertex()},{self.vertex()} {self.rng.randint(0, 3)}",
                f"allow {self.color()} {self.vertex()} {self.rng.randint(1, 3)}",
                "pvVisits false", "movesOwnership true"]))
        return " ".join(keys)

    def command(self):
        rng = self.rng
        kind = rng.choices(
            ["play", "genmove", "reg_genmove", "undo", "boardsize", "clear_board", "komi",
             "handicap", "time", "score", "loadsgf", "analyze", "genmove_analyze", "rules",
             "level", "info", "garbage", "showboard", "genmove_ex", "ownership"],
            [25, 8, 3, 6, 4, 3, 2, 3, 4, 3, 5, 5, 2, 4, 2, 5, 8, 3, 1, 1])[0]
        if kind == "play":
            return f"play {self.color()} {self.vertex()}"
        if kind in ("genmove", "reg_genmove"):
            return f"{kind} {self.color()}"
        if kind == "undo":
            return "undo"
        if kind == "boardsize":
            if rng.random() < 0.7:
                return f"boardsize {self.num([3, 5, 7, 9, 9, 9, 13, 19, 2, 25, 26, 0])}"
            return f"rectangular_boardsize {self.num([5, 7, 9, 19])} {self.num([3, 5, 9, 13])}"
        if kind == "clear_board":
            return "clear_board"
        if kind == "komi":
            return f"komi {rng.choice(['6.5', '7.5', '0', '-12.5', '1000', 'nan', 'inf', '3e2', 'x'])}"
        if kind == "handicap":
            which = rng.choice(["fixed_handicap", "place_free_handicap"])
            if rng.random() < 0.3:
                return "set_free_handicap " + " ".join(self.vertex() for _ in range(rng.randint(0, 5)))
            return f"{which} {self.num([2, 3, 4, 9, 1, 10])}"
        if kind == "time":
            c = rng.random()
            if c < 0.3:
                return f"time_settings {self.num([0, 1, 5, 30])} {self.num([0, 1, 5])} {self.num([0, 1, 5])}"
            if c < 0.6:
                return (f"time_left {self.color()} {rng.choice(['5', '0', '0.5', '-5', '-0.1', '120', 'x'])}"
                        f" {self.num([0, 1, 3])}")
            return "kgs-time_settings " + rng.choice(
                ["none", "absolute 60", "byoyomi 60 5 3", "canadian 60 30 5", "canadian 1 2 0",
                 "absolute -60", "byoyomi 60 -5 3", "fischer 60 5", "absolute"])
        if kind == "score":
            return rng.choice(["final_score", "final_status_list dead", "final_status_list alive",
                               "final_status_list seki", "final_status_list x"])
        if kind == "loadsgf":
            path = self.records.pick()
            return f"loadsgf {path}" + (f" {rng.randint(0, 30)}" if rng.random() < 0.3 else "")
        if kind == "analyze":
            cmd = rng.choice(["lz-analyze", "kata-analyze"])
            col = self.color() + " " if rng.random() < 0.7 else ""
            return f"{cmd} {col}{rng.randint(1, 20)} {self.analysis_keys()}".strip()
        if kind == "genmove_analyze":
            cmd = rng.choice(["lz-genmove_analyze", "kata-genmove_analyze"])
            return f"{cmd} {self.color()} {rng.randint(1, 20)} {self.analysis_keys()}".strip()
        if kind == "rules":
            return rng.choice([
                f"kata-set-rules {rng.choice(['japanese', 'chinese', 'tromp-taylor', 'aga', 'korean', 'new_zealand', 'chinese-ogs', 'aga-button', 'stone-scoring', 'nosuch', 'Japanese'])}",
                f"kata-set-rule {rng.choice(['ko', 'scoring', 'tax', 'suicide', 'friendlyPassOk', 'whiteHandicapBonus', 'hasButton', 'komi', 'x'])} "
                f"{rng.choice(['SIMPLE', 'POSITIONAL', 'SITUATIONAL', 'SPIGHT', 'AREA', 'TERRITORY', 'NONE', 'SEKI', 'ALL', 'true', 'false', '0', 'N-1', 'N', 'x'])}",
                f"kgs-rules {rng.choice(['japanese', 'chinese', 'aga', 'new_zealand', 'x'])}",
                'kata-set-rules {"ko":"SIMPLE","scoring":"TERRITORY"}',
                'kata-set-rules {"suicide":true}', 'kata-set-rules {"komi":7}'])
        if kind == "level":
            return "sente-level " + rng.choice(["mcts", "heuristic", "perfect", "dumb", "x", ""])
        if kind == "info":
            return rng.choice(["name", "version", "protocol_version", "list_commands",
                               "known_command play", "known_command foo", "gomill-describe_engine",
                               "gomill-cpu_time", "cputime", "gomill-explain_last_move",
                               "kata-get-rules", "gogui-analyze_commands", "clear_cache", "stop"])
        if kind == "genmove_ex":
            return f"gomill-genmove_ex {self.color()} {rng.choice(['claim', '', 'other'])}".strip()
        if kind == "ownership":
            return "sente-ownership"
        if kind == "showboard":
            return "showboard"
        return rng.choice(GARBAGE)

    def line(self, text, next_id):
        """Raw bytes for `text`, with or without an id, sometimes garbled; and the id used."""
        rng = self.rng
        cid = None
        r = rng.random()
        if r < 0.7:
            cid = str(next_id)
        elif r < 0.72:
            cid = "0" * rng.randint(1, 3) + str(next_id)
        elif r < 0.73:
            cid = "9" * rng.randint(19, 40)
        data = ((cid + " ") if cid else "") + text
        if rng.random() < 0.05:
            data += " # " + rng.choice(["comment", "play b A1", "#"])
        raw = data.encode("utf-8")
        g = rng.random()
        if g < 0.02:
            raw = raw.replace(b" ", b"\t", 1)
        elif g < 0.03:
            raw += b"\xff\xfe"
        elif g < 0.04:
            i = rng.randrange(len(raw) + 1)
            raw = raw[:i] + bytes([rng.choice([0, 7, 27, 127])]) + raw[i:]
        elif g < 0.045:
            raw = raw.upper()
        elif g < 0.047:
            raw = b"play b " + b"A" * (2 << 20)
        return raw + (b"\r\n" if rng.random() < 0.1 else b"\n")


# ---------------------------------------------------------------------------------------------
# The engine and a session.

class Problem(Exception):
    pass


class Session:
    def __init__(self, bin_path, rng, ncmds, hang, workdir, records):
        self.rng, self.ncmds, self.hang = rng, ncmds, hang
        ttt = rng.random() < 0.15
        argv = [bin_path]
        self.auto = rng.random() < 0.3
        if not self.auto:
            argv += ["--protocol", "gtp"]
        argv += ["--nodes", str(rng.choice([1, 5, 20, 50, 100, 200]))]
        if ttt:
            argv += ["--game", "ttt"]
        argv += rng.choice([[], [], ["--seed", str(rng.randint(0, 99))],
                            [] if ttt else ["--level", "heuristic"],
                            [] if ttt else ["--threads", "2"]])
        self.argv = argv
        self.gen = Gen(rng, records, ttt)
        self.engine = Engine(argv, workdir)
        self.next_id = 1
        self.sent = self.probes = self.responses = 0
        self.history = []
        self.state = None  # the probes' results, while known
        self.slowest = 0.0

    def fail(self, what):
        raise Problem(what)

    def read_line(self, timeout):
        t0 = time.monotonic()
        try:
            line = self.engine.get(timeout)
        except queue.Empty:
            self.fail(f"no reply within {timeout:.0f} s")
        self.slowest = max(self.slowest, time.monotonic() - t0)
        if line is None:
            self.fail("the engine closed its output (exited) unexpectedly")
        return line.rstrip("\n")

    def read_response(self, want_id, head=None):
        """One whole response (after its first line `head`, if already read): (ok, text)."""
        first = head if head is not None else self.read_line(self.hang)
        m = HEAD_RE.fullmatch(first)
        if not m:
            self.fail(f"not a response: {first!r}")
        ok, rid = m.group(1) == "=", (m.group(2) or None)
        if rid != want_id:
            self.fail(f"response id {rid!r} where {want_id!r} was due: {first!r}")
        body = [m.group(3) or ""]
        while True:
            line = self.read_line(self.hang)
            if line == "":
                break
            body.append(line)
        text = "\n".join(body).strip("\n")
        self.history.append(f"  -> {first[:100]}")
        if "internal error" in text:
            self.fail(f"a caught panic: {text[:300]!r}")
        if not ok and (len(body) > 1 or not text.strip()):
            self.fail(f"an error must be one non-empty line: {body!r}")
        self.responses += 1
        return ok, text

    def send_raw(self, raw):
        self.history.append(raw[:120])
        self.send(raw)

    def send(self, data):
        if not self.engine.send(data):
            self.fail("the engine closed its input (exited) unexpectedly")

    def peak_kb(self):
        try:
            with open(f"/proc/{self.engine.p.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def command(self, text):
        """Sends one command line; what is due: (due, id, name)."""
        raw = self.gen.line(text, self.next_id)
        self.next_id += 1
        self.sent += 1
        self.send_raw(raw)
        return expected(raw)

    def probe(self):
        results = []
        for p in PROBES:
            self.probes += 1
            cid = str(self.next_id)
            self.next_id += 1
            self.send_raw(f"{cid} {p}\n".encode())
            results.append(self.read_response(cid)[1])
        size = board_size(results[0])
        if size:
            self.gen.size = size
        return results

    def check_refusal(self, text):
        after = self.probe()
        if self.state is not None and after != self.state:
            self.fail(f"refused ({text!r}) but the state changed:\n"
                      f"before {self.state!r}\nafter  {after!r}")
        self.state = after

    def one(self):
        text = self.gen.command()
        due, cid, name = self.command(text)
        if not due:
            return
        if name not in ANALYSES:
            self.finish(cid, name)
            return
        first = self.read_line(self.hang)
        if first.startswith("?"):
            self.check_refusal(self.read_response(cid, first)[1])
            return
        time.sleep(self.rng.random() * 0.3)
        if self.rng.random() < 0.4:
            self.send_raw(b"\n")  # a bare newline ends it, and gets no response
            self.read_response(cid, first)
            return
        # The next command ends it (one that ends by itself).
        text = self.gen.command()
        while (text.split() or [""])[0] in ANALYSES:
            text = self.gen.command()
        ndue, nid, nname = self.command(text)
        self.read_response(cid, first)
        if ndue:
            self.finish(nid, nname)

    def finish(self, cid, name):
        ok, reply = self.read_response(cid)
        if not ok:
            self.check_refusal(reply)
        elif name not in READ_ONLY:
            self.state = None
            if self.rng.random() < 0.5:
                self.state = self.probe()
        elif self.state is not None and self.rng.random() < 0.1:
            self.check_refusal("(a read-only command)")

    def batch(self):
        """Up to 12 commands at once, then their responses in order."""
        due = []
        data = b""
        for _ in range(self.rng.randint(2, 12)):
            text = self.gen.command()
            raw = self.gen.line(text, self.next_id)
            self.next_id += 1
            self.sent += 1
            self.history.append(raw[:120])
            data += raw
            d, cid, name = expected(raw)
            if d:
                due.append(cid)
        if name in ANALYSES:
            data += b"\n"  # the last line must not leave an analysis running
        self.send(data)
        for cid in due:
            self.read_response(cid)
        self.state = None

    def run(self):
        try:
            # The first line decides the protocol when it is detected: a clean command.
            first = self.rng.choice(["name", "protocol_version", "boardsize 9", "list_commands"])
            self.send_raw(f"1 {first}\n".encode())
            self.next_id = 2
            self.read_response("1")
            if first == "boardsize 9" and not self.gen.ttt:
                self.gen.size = (9, 9)
            self.state = self.probe()
            while self.sent < self.ncmds:
                if self.rng.random() < 0.1:
                    self.batch()
                else:
                    self.one()
                if self.peak_kb() > MEMORY_LIMIT_KB:
                    self.fail(f"peak memory {self.peak_kb()} kB")
            self.end()
            panic = self.engine.stderr_panic()
            if panic:
                self.fail(f"a panic on stderr:\n{panic}")
            return None
        except Problem as e:
            self.engine.wait_stderr()
            panic = self.engine.stderr_panic()
            return str(e) + (f"\nstderr:\n{panic}" if panic else "")
        finally:
            self.engine.kill()

    def end(self):
        how = self.rng.choice(["quit", "eof", "analysis"])
        if how == "quit":
            cid = str(self.next_id)
            self.send_raw(f"{cid} quit\n".encode())
            self.read_response(cid)
        elif how == "analysis":
            cid = str(self.next_id)
            self.send_raw(f"{cid} lz-analyze b 5\n".encode())
            first = self.read_line(self.hang)
            self.engine.close()
            self.read_response(cid, first)
        self.engine.close()
        try:
            line = self.engine.get(5)
        except queue.Empty:
            self.fail(f"still running 5 s after {how}")
        if line is not None:
            self.fail(f"output after {how}: {line!r}")
        try:
            rc = self.engine.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.fail(f"closed its output but did not exit after {how}")
        if rc != 0:
            self.fail(f"exit status {rc} after {how}")
        self.engine.wait_stderr()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bin")
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int, help="commands in all")
    ap.add_argument("--hang", type=float, default=30.0, help="seconds a reply may take")
    ap.add_argument("--session", type=int, default=250, help="most commands per session")
    ap.add_argument("--log", help="append every session's transcript to this file")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    problems = []
    sessions = sent = probes = responses = 0
    slowest = 0.0
    with tempfile.TemporaryDirectory(prefix="fuzz_gtp_") as workdir:
        records = Records(random.Random(rng.randrange(2**63)), workdir)
        while sent < a.n:
            sessions += 1
            srng = random.Random(rng.randrange(2**63))
            records.rng = srng
            n = min(a.n - sent, srng.randint(10, a.session))
            s = Session(os.path.abspath(a.bin), srng, n, a.hang, workdir, records)
            problem = s.run()
            sent += s.sent
            probes += s.probes
            responses += s.responses
            slowest = max(slowest, s.slowest)
            if a.log:
                append_session_log(a.log, sessions, s.argv, s.history, problem)
            if problem:
                problems.append((sessions, s.argv, problem, s.history[-40:]))
    print(f"fuzz_gtp: {a.bin} seed {a.seed}: {sent} commands and {probes} state probes in "
          f"{sessions} sessions, {responses} responses checked, slowest reply "
          f"{slowest * 1000:.0f} ms, {len(problems)} problem(s)")
    for i, (sess, argv, problem, hist) in enumerate(problems, 1):
        print(f"\n--- problem {i} (session {sess}: {' '.join(argv)})\n{problem}")
        print("last lines (oldest first; '  -> ' marks a response):")
        for h in hist:
            print("   ", repr(h))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
