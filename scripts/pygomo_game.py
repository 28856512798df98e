#!/usr/bin/env python3
"""Plays full games against the engine through pygomo-lib (the PyPI Gomocup client library,
imported as `pygomo`), as a real manager would, and checks every reply.

Usage: python scripts/pygomo_game.py <engine binary> [--games 2] [--seed 1]

Game 1: the engine is black (BEGIN), a seeded random opponent answers with TURN.
Game 2: the engine is white and every position is sent with BOARD (pygomo's BoardPosition).
Also checks ABOUT, START, upper-case INFO keys (pygomo sends `INFO TIMEOUT_TURN ...`) and
TAKEBACK. Each game must end with five in a row or a full board, and every engine move must be
legal. Exit status 0 on success, 1 with a message otherwise.
"""

import argparse
import random
import sys

from pygomo import BoardPosition, EngineClient, Move

SIZE = 15
DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


def fail(msg):
    print(f"pygomo_game: FAIL: {msg}")
    sys.exit(1)


def five(board, x, y, who):
    for dx, dy in DIRS:
        n = 1
        for s in (1, -1):
            cx, cy = x + s * dx, y + s * dy
            while board.get((cx, cy)) == who:
                n += 1
                cx, cy = cx + s * dx, cy + s * dy
        if n >= 5:
            return True
    return False


def random_reply(board, rng):
    near = sorted({(x + dx, y + dy) for (x, y) in board for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                   if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE and (x + dx, y + dy) not in board})
    if not near:
        near = [(x, y) for x in range(SIZE) for y in range(SIZE) if (x, y) not in board]
    return rng.choice(near) if near else None


def check_move(result, board, what):
    if result is None:
        fail(f"no move after {what}")
    m = (result.move.col, result.move.row)
    if not (0 <= m[0] < SIZE and 0 <= m[1] < SIZE) or m in board:
        fail(f"illegal move {m} after {what}")
    return m


def play(engine, rng, by_board):
    """One game; returns (winner, moves)."""
    board, order = {}, []
    if not engine.start(SIZE):
        fail("START was not answered OK")
    if by_board:
        first = (SIZE // 2, SIZE // 2)
        board[first] = "opp"
        order.append(first)
        pos = BoardPosition()
        pos.add_move(Move(first), BoardPosition.OPPONENT)
        result = engine.board(pos, timeout=10)
    else:
        result = engine.begin(timeout=10)
    while True:
        m = check_move(result, board, "the last command")
        board[m] = "eng"
        order.append(m)
        if five(board, *m, "eng"):
            return "engine", len(order)
        if len(board) == SIZE * SIZE:
            return "draw", len(order)
        p = random_reply(board, rng)
        board[p] = "opp"
        order.append(p)
        if five(board, *p, "opp"):
            return "opponent", len(order)
        if len(board) == SIZE * SIZE:
            return "draw", len(order)
        if by_board:
            pos = BoardPosition()
            # Colours from the engine's point of view, in move order.
            for q in order:
                pos.add_move(Move(q), BoardPosition.SELF if board[q] == "eng" else BoardPosition.OPPONENT)
            result = engine.board(pos, timeout=10)
        else:
            result = engine.turn(Move(p), timeout=10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with EngineClient(args.binary) as engine:
        about = engine.about(timeout=10)
        if not about or 'name="sente"' not in about:
            fail(f"unexpected ABOUT reply {about!r}")
        print(f"ABOUT: {about}")
        engine.configure(timeout_turn=200, timeout_match=0, max_memory=367001600, rule=0)
        for g in range(args.games):
            winner, n = play(engine, rng, by_board=g % 2 == 1)
            print(f"game {g + 1} ({'BOARD' if g % 2 else 'BEGIN/TURN'}): {winner} after {n} moves")
        # TAKEBACK on a fresh game: one engine stone, then take it back.
        engine.start(SIZE)
        r = engine.begin(timeout=10)
        m = check_move(r, {}, "BEGIN")
        if not engine.takeback(Move(m)):
            fail("TAKEBACK was not answered OK")
        print("takeback: OK")
    print("pygomo_game: all games finished with legal moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
