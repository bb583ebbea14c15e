#!/usr/bin/env python3
"""Basil, a one-ply greedy Kalah bot in plain Python: the move that puts the most seeds in its store,
an extra turn breaking ties. Self-contained: a contest submission sees nothing but its own folder."""
import sys


def play(board, side, pits, move, pie_first):
    """Sows `move` (1..pits) for `side` on `board` (South's pits, South's store, North's pits, North's
    store). Returns the side to move next."""
    cells, store, skip = len(board), side * (pits + 1) + pits, (1 - side) * (pits + 1) + pits
    at = side * (pits + 1) + move - 1
    seeds, board[at] = board[at], 0
    while seeds:
        at = (at + 1) % cells
        if at != skip:
            board[at] += 1
            seeds -= 1
    own = range(side * (pits + 1), side * (pits + 1) + pits)
    facing = 2 * pits - at
    if at in own and board[at] == 1 and board[facing]:
        board[store] += board[facing] + 1
        board[at] = board[facing] = 0
    return side if at == store and not pie_first else 1 - side


def main():
    pits, pie, board, side = 6, False, [], 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "kep":
            print("id name basil\nid author Basil (example)\nkepok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "newgame":
            rules = dict(w.split("=", 1) for w in words[1:])
            pits, seeds, pie = int(rules.get("pits", 6)), int(rules.get("seeds", 4)), rules.get("pie") == "on"
        elif words[0] == "position":
            board = ([seeds] * pits + [0]) * 2
            side, plies = 0, 0
            for move in words[3:] if len(words) > 2 and words[2] == "moves" else []:
                if move != "swap":
                    side = play(board, side, pits, int(move), pie and plies == 0)
                plies += 1
        elif words[0] == "go":
            legal = [m for m in range(1, pits + 1) if board[side * (pits + 1) + m - 1]]
            store = side * (pits + 1) + pits

            def gain(move):
                after = list(board)
                again = play(after, side, pits, move, False) == side
                return after[store] - board[store], again, -move

            print("bestmove", max(legal, key=gain), flush=True)
        elif words[0] == "quit":
            return


main()
