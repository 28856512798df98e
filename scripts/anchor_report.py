#!/usr/bin/env python3
"""What an anchor match says about one engine: the score, by colour and by opening pair, the
Elo with its interval, and how much of the turn its replies took.

Reads the SGF that c-gomoku-cli writes (`-sgf games.sgf`, as `../shared/anchors/run_match.sh`
runs it): one game per `(;...)`, `PB`/`PW` the engines' names, `RE[B+..]`/`RE[W+..]`/`RE[0]`
the result, `TE` the way it ended, and a comment per move: `opening move` for the stones the
opening file placed, else the milliseconds the engine took (`C[456ms]`).

Usage:
  python3 scripts/anchor_report.py --engine sente --turn-ms 500 OUT_DIR_OR_SGF [...]
  python3 scripts/anchor_report.py --engine sente --turn-ms 500 --json OUT_DIR

Why not the manager's own score line: when an engine fails to start a game (it answered a
command of the game's set-up with an error and played no move) c-gomoku-cli scores the game
for the other engine, a win no move of that engine earned. Games where nobody moved after the
opening are left out here and listed, so the figures count only games that were played.

Pairs: `-repeat` plays each opening twice with the colours swapped; games with the same
opening stones and the same opponent are paired in the order they come. A pair is `split`
when each engine won one (usually each with the better colour), `won` or `lost` when one
engine won both (the openings that tell the engines apart), `drawn` otherwise. A game whose
twin is missing (left out, or an odd count) is counted in the score but in no pair.

Replies: every move of the engine after the opening, with the time the manager measured.
`late` counts replies over the turn (the manager's tolerance may still have let them pass).
"""

import argparse
import json
import math
import os
import re
import sys

GAME = re.compile(r"\(;(.*?)\)", re.S)
MOVE = re.compile(r";([BW])\[([a-z]{2})\](?:C\[([^\]]*)\])?")


def prop(text, name):
    m = re.search(r"(?<![A-Z])" + name + r"\[([^\]]*)\]", text)
    return m.group(1) if m else None


def parse_games(path):
    """The games of one SGF file: dicts with black, white, result (B, W or D), ending,
    opening (the opening stones), moves (colour, point, ms or None) after the opening."""
    text = open(path, encoding="utf-8", errors="replace").read()
    games = []
    for body in GAME.findall(text):
        head = body.split(";", 1)[0]
        black, white = prop(head, "PB"), prop(head, "PW")
        if black is None or white is None:
            continue
        re_ = prop(head, "RE") or ""
        result = "B" if re_.startswith("B+") else "W" if re_.startswith("W+") else "D"
        opening, moves = [], []
        for colour, point, comment in MOVE.findall(";" + body.split(";", 1)[1] if ";" in body else ""):
            comment = comment or ""
            if comment == "opening move":
                opening.append(colour + point)
                continue
            ms = re.fullmatch(r"(\d+)ms", comment)
            moves.append((colour, point, int(ms.group(1)) if ms else None))
        games.append(
            {
                "number": prop(head, "GN"),
                "black": black,
                "white": white,
                "result": result,
                "ending": prop(head, "TE") or "",
                "opening": tuple(opening),
                "moves": moves,
            }
        )
    return games


def elo(score):
    return -400 * math.log10(1 / score - 1)


def elo_interval(wins, losses, draws):
    """Elo of the score and its 95% interval (normal approximation of the trinomial)."""
    n = wins + losses + draws
    if n == 0:
        return None
    s = (wins + draws / 2) / n
    var = (wins * (1 - s) ** 2 + losses * s**2 + draws * (0.5 - s) ** 2) / n
    se = math.sqrt(max(var, 1e-12) / n)
    clamp = lambda x: min(1 - 1e-9, max(1e-9, x))
    return {
        "score": s,
        "elo": elo(clamp(s)),
        "low": elo(clamp(s - 1.96 * se)),
        "high": elo(clamp(s + 1.96 * se)),
    }


def report(games, engine, turn_ms):
    played, unplayed = [], []
    for g in games:
        if engine not in (g["black"], g["white"]):
            continue
        (played if g["moves"] else unplayed).append(g)
    score = {"wins": 0, "losses": 0, "draws": 0}
    by_colour = {c: {"wins": 0, "losses": 0, "draws": 0} for c in "BW"}
    outcome = {}
    for i, g in enumerate(played):
        colour = "B" if g["black"] == engine else "W"
        key = "draws" if g["result"] == "D" else "wins" if g["result"] == colour else "losses"
        score[key] += 1
        by_colour[colour][key] += 1
        outcome[i] = key
    # Pair the games of one opening and one opponent with swapped colours, in order.
    waiting, pairs = {}, {"split": 0, "won": 0, "lost": 0, "drawn": 0}
    for i, g in enumerate(played):
        colour = "B" if g["black"] == engine else "W"
        opponent = g["white"] if colour == "B" else g["black"]
        key = (g["opening"], opponent)
        twin = waiting.get((key, "W" if colour == "B" else "B"))
        if twin:
            j = twin.pop(0)
            a, b = outcome[j], outcome[i]
            if {a, b} == {"wins", "losses"}:
                pairs["split"] += 1
            elif a == b == "wins":
                pairs["won"] += 1
            elif a == b == "losses":
                pairs["lost"] += 1
            else:
                pairs["drawn"] += 1
        else:
            waiting.setdefault((key, colour), []).append(i)
    times = [
        ms
        for g in played
        for colour, _, ms in g["moves"]
        if ms is not None and (g["black"] if colour == "B" else g["white"]) == engine
    ]
    replies = None
    if times:
        mean = sum(times) / len(times)
        replies = {
            "count": len(times),
            "mean_ms": mean,
            "max_ms": max(times),
            "late": sum(1 for t in times if turn_ms and t > turn_ms),
            "mean_share": mean / turn_ms if turn_ms else None,
        }
    return {
        "engine": engine,
        "games": len(played),
        **score,
        "by_colour": by_colour,
        "pairs": pairs,
        "elo": elo_interval(score["wins"], score["losses"], score["draws"]),
        "left_out": [
            {"number": g["number"], "black": g["black"], "white": g["white"], "ending": g["ending"]}
            for g in unplayed
        ],
        "replies": replies,
    }


def text(r, turn_ms):
    out = []
    e = r["elo"]
    head = f"{r['engine']}: {r['wins']}-{r['losses']}-{r['draws']} over {r['games']} played games"
    if e:
        head += f", {100 * e['score']:.1f}%, Elo {e['elo']:+.0f} (95%: {e['low']:+.0f} .. {e['high']:+.0f})"
    out.append(head)
    for colour, name in (("B", "black"), ("W", "white")):
        c = r["by_colour"][colour]
        out.append(f"  as {name}: {c['wins']}-{c['losses']}-{c['draws']}")
    p = r["pairs"]
    out.append(f"  pairs: {p['split']} split, {p['won']} won both, {p['lost']} lost both, {p['drawn']} with a draw")
    for g in r["left_out"]:
        out.append(f"  left out: game {g['number']} ({g['black']} x {g['white']}, {g['ending']}): no move after the opening")
    rp = r["replies"]
    if rp:
        share = f" = {100 * rp['mean_share']:.1f}% of {turn_ms} ms" if rp["mean_share"] is not None else ""
        out.append(f"  replies: {rp['count']}, mean {rp['mean_ms']:.1f} ms{share}, max {rp['max_ms']} ms, {rp['late']} over the turn")
    return "\n".join(out)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="c-gomoku-cli output directories (games.sgf in each) or SGF files")
    ap.add_argument("--engine", required=True, help="the engine's name as the SGF gives it (PB/PW)")
    ap.add_argument("--turn-ms", type=int, default=0, help="the turn time, for the share of it the replies took")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    games = []
    for p in args.paths:
        path = os.path.join(p, "games.sgf") if os.path.isdir(p) else p
        if not os.path.isfile(path):
            print(f"anchor_report: no such file: {path}", file=sys.stderr)
            return 2
        games += parse_games(path)
    r = report(games, args.engine, args.turn_ms)
    if r["games"] == 0 and not r["left_out"]:
        print(f"anchor_report: no game of `{args.engine}` in {' '.join(args.paths)}", file=sys.stderr)
        return 1
    print(json.dumps(r, indent=1) if args.json else text(r, args.turn_ms))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
