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
  python3 scripts/anchor_report.py --engine sente --trajectory 24 OUT_DIR

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

Trajectories (`--trajectory N`): where the games are won and lost, from the search lines the
engines print (c-gomoku-cli's `-msg messages.txt` beside games.sgf: `Game ID: G`, then
`P) name: ... eval E ...` for ply P). The last line with an evaluation for each ply is the
engine's final word on the position it moved in (sente's `eval`, Rapfi's `Eval`; `+M9`/`-M8`
are wins and losses in so many plies, shown as +/-MATE_SHOWN). Each evaluation is turned to
black's point of view, and the games are grouped by the engine's colour and result; for each
k = 1..N the median evaluation each engine gave at its own k-th move after the opening is
printed (so that openings of odd and even length line up), with the games that reached it.
The engines' scales differ (a score of 300 is not the same winning chance for both): read
each column's trend, not one against the other. An engine that prints no evaluation leaves
its column empty.
"""

import argparse
import json
import math
import os
import re
import statistics
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


MATE_SHOWN = 3000
MESSAGE = re.compile(r"(\d+)\) ([^:]+): (.*)")
EVAL = re.compile(r"\b[Ee]val ([+-]?M?\d+)")


def parse_eval(token):
    """An evaluation token: a number, or +M<n> / -M<n> (mate), capped at +/-MATE_SHOWN."""
    if "M" in token:
        return -MATE_SHOWN if token.startswith("-") else MATE_SHOWN
    return max(-MATE_SHOWN, min(MATE_SHOWN, int(token)))


def parse_messages(path):
    """{game number (str): {ply: (engine, evaluation from the mover's view)}}: the last line
    with an evaluation that each engine printed for each ply."""
    games, current = {}, None
    for line in open(path, encoding="utf-8", errors="replace"):
        if line.startswith("Game ID:"):
            current = games.setdefault(line.split(":", 1)[1].strip(), {})
            continue
        m = MESSAGE.match(line)
        if current is None or not m:
            continue
        e = EVAL.search(m.group(3))
        if e:
            current[int(m.group(1))] = (m.group(2).strip(), parse_eval(e.group(1)))
    return games


def trajectories(games, messages, engine, moves):
    """Per group (engine's colour, result), for k = 1..`moves`, the median black-view
    evaluation the engine gave at its k-th move after the opening and the one its opponent
    gave at its own k-th move (whoever moved first: openings of odd and even length mix)."""
    groups = {}
    for g in games:
        if engine not in (g["black"], g["white"]) or not g["moves"]:
            continue
        colour = "B" if g["black"] == engine else "W"
        result = "drew" if g["result"] == "D" else "won" if g["result"] == colour else "lost"
        plies = messages.get(g["messages_key"], {})
        first = len(g["opening"]) + 1
        group = groups.setdefault((colour, result), {"games": 0, "rows": {}})
        group["games"] += 1
        seen = {"engine": 0, "opponent": 0}
        for ply in sorted(plies):
            name, value = plies[ply]
            if ply < first or name not in (g["black"], g["white"]):
                continue
            who = "engine" if name == engine else "opponent"
            k = seen[who]
            seen[who] += 1
            if k >= moves:
                continue
            black_view = value if name == g["black"] else -value
            group["rows"].setdefault(k, {"engine": [], "opponent": []})[who].append(black_view)
    out = []
    for (colour, result), group in sorted(groups.items(), key=lambda kv: ("BW".index(kv[0][0]), kv[0][1])):
        rows = []
        for k in sorted(group["rows"]):
            row = group["rows"][k]
            rows.append(
                {
                    "move": k + 1,
                    "engine": statistics.median(row["engine"]) if row["engine"] else None,
                    "engine_games": len(row["engine"]),
                    "opponent": statistics.median(row["opponent"]) if row["opponent"] else None,
                    "opponent_games": len(row["opponent"]),
                }
            )
        out.append({"colour": colour, "result": result, "games": group["games"], "rows": rows})
    return out


def trajectory_text(engine, groups):
    out = [f"{engine}: median evaluation from black's point of view at each side's k-th move after the opening (mate = +/-{MATE_SHOWN})"]
    for group in groups:
        name = "black" if group["colour"] == "B" else "white"
        out.append(f"  as {name}, {group['result']} ({group['games']} games): move  {engine} (games)  opponent (games)")
        for row in group["rows"]:
            cell = lambda v, n: f"{v:>7.0f} ({n})" if v is not None else f"{'-':>7} (0)"
            out.append(f"    {row['move']:>3}  {cell(row['engine'], row['engine_games'])}  {cell(row['opponent'], row['opponent_games'])}")
    return "\n".join(out)


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
    ap.add_argument(
        "--trajectory",
        type=int,
        metavar="N",
        help="also print the median evaluations of the first N moves after the opening, by colour and result (reads messages.txt beside each games.sgf)",
    )
    args = ap.parse_args(argv)
    if args.trajectory is not None and args.trajectory < 1:
        print("anchor_report: --trajectory takes a number of moves of at least 1", file=sys.stderr)
        return 2
    games, messages = [], {}
    for n, p in enumerate(args.paths):
        path = os.path.join(p, "games.sgf") if os.path.isdir(p) else p
        if not os.path.isfile(path):
            print(f"anchor_report: no such file: {path}", file=sys.stderr)
            return 2
        part = parse_games(path)
        if args.trajectory is not None:
            msg = os.path.join(os.path.dirname(path), "messages.txt")
            if not os.path.isfile(msg):
                print(f"anchor_report: no such file: {msg} (--trajectory reads it)", file=sys.stderr)
                return 2
            # Game numbers restart in each directory: key them by the directory as well.
            for key, plies in parse_messages(msg).items():
                messages[f"{n}:{key}"] = plies
            for g in part:
                g["messages_key"] = f"{n}:{g['number']}"
        games += part
    r = report(games, args.engine, args.turn_ms)
    if r["games"] == 0 and not r["left_out"]:
        print(f"anchor_report: no game of `{args.engine}` in {' '.join(args.paths)}", file=sys.stderr)
        return 1
    if args.trajectory is not None:
        r["trajectory"] = trajectories(games, messages, args.engine, args.trajectory)
    if args.json:
        print(json.dumps(r, indent=1))
    else:
        print(text(r, args.turn_ms))
        if args.trajectory is not None:
            print(trajectory_text(args.engine, r["trajectory"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
