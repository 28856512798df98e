#!/usr/bin/env python3
"""One scripted 9x9 game between sente and GNU Go over GTP, refereed here (stdlib only).

Usage: gnugo_game.py SENTE [GNUGO] [--sente-args "..."] [--sente-colour b|w] [--moves N]

The referee does what a match runner such as gomill does: boardsize, clear_board, komi 7.5 to
both, then alternately `genmove` to the side to move and `play` of that move to the other, until
two passes in a row, a resignation or the move limit; then `final_score` from both engines and,
from sente, `final_status_list dead`. It checks that every response is well formed, that neither
engine refuses the other's moves, that each `genmove` answer is a vertex, `pass` or `resign`, and
that both engines agree on the winner when the game ended by passes. GNU Go runs with the rules
of the issue's strength ladder (Chinese counting, positional superko, capture all dead).
Prints the moves and both scores; exits 1 on the first protocol or agreement failure.
This is a protocol check, not a strength measurement (that is `sente match` / the arena).
"""

import argparse
import re
import shlex
import subprocess
import sys

VERTEX = re.compile(r"^([A-HJ-T](1[0-9]|[1-9])|PASS|RESIGN)$", re.IGNORECASE)


class Engine:
    def __init__(self, name, argv):
        self.name = name
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def ask(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise SystemExit(f"FAILED: {self.name} closed its output after `{command}`")
            line = line.rstrip("\r\n")
            if line == "":
                if lines:
                    break
                continue
            lines.append(line)
        head, rest = lines[0], lines[1:]
        if head[0] not in "=?":
            raise SystemExit(f"FAILED: {self.name} answered `{command}` with {lines!r}")
        body = "\n".join([head[1:].strip()] + rest).strip()
        return head[0] == "=", body

    def must(self, command):
        ok, body = self.ask(command)
        if not ok:
            raise SystemExit(f"FAILED: {self.name} refused `{command}`: ? {body}")
        return body

    def quit(self):
        try:
            self.ask("quit")
        except SystemExit:
            pass
        self.proc.wait(timeout=10)


def winner(score):
    s = score.strip().upper()
    if s in ("0", "DRAW"):
        return "draw"
    if s[:2] in ("B+", "W+"):
        return s[0]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sente")
    ap.add_argument("gnugo", nargs="?", default="/usr/games/gnugo")
    ap.add_argument("--sente-args", default="--nodes 300 --seed 1")
    ap.add_argument("--sente-colour", default="b", choices=["b", "w"])
    ap.add_argument("--moves", type=int, default=200)
    a = ap.parse_args()

    sente = Engine("sente", [a.sente, "--protocol", "gtp"] + shlex.split(a.sente_args))
    gnugo = Engine(
        "gnugo",
        [a.gnugo, "--mode", "gtp", "--level", "0", "--chinese-rules", "--capture-all-dead",
         "--positional-superko"],
    )
    engines = {a.sente_colour: sente, ("w" if a.sente_colour == "b" else "b"): gnugo}
    for e in (sente, gnugo):
        if e.must("protocol_version") != "2":
            raise SystemExit(f"FAILED: {e.name} protocol_version is not 2")
        for c in ("boardsize 9", "clear_board", "komi 7.5"):
            e.must(c)

    colour, passes, moves, resigned = "b", 0, [], None
    while len(moves) < a.moves:
        mover, other = engines[colour], engines["w" if colour == "b" else "b"]
        mv = mover.must(f"genmove {colour}")
        if not VERTEX.match(mv):
            raise SystemExit(f"FAILED: {mover.name} genmove answered {mv!r}")
        moves.append(f"{colour.upper()} {mv}")
        if mv.lower() == "resign":
            resigned = colour
            break
        ok, body = other.ask(f"play {colour} {mv}")
        if not ok:
            raise SystemExit(f"FAILED: {other.name} refused {colour} {mv}: ? {body}")
        passes = passes + 1 if mv.lower() == "pass" else 0
        if passes == 2:
            break
        colour = "w" if colour == "b" else "b"

    print(f"sente plays {a.sente_colour}; {len(moves)} moves: {' '.join(moves)}")
    ours, theirs = sente.must("final_score"), gnugo.must("final_score")
    dead = sente.must("final_status_list dead").replace("\n", " ")
    print(f"final_score: sente {ours}, gnugo {theirs}; sente's dead stones: {dead or '-'}")
    for e in (sente, gnugo):
        e.quit()
    if resigned:
        print(f"{resigned} resigned")
    elif passes == 2:
        if winner(ours) is None:
            raise SystemExit(f"FAILED: sente's final_score {ours!r} is not B+x, W+x or 0")
        if winner(ours) != winner(theirs):
            raise SystemExit(f"FAILED: the engines disagree on the winner ({ours} vs {theirs})")
        print("both engines agree on the winner")
    else:
        print("move limit reached: no score compared")
    print("gnugo game: protocol checks passed")


if __name__ == "__main__":
    main()
