#!/usr/bin/env python3
"""A random Kalah engine speaking KEP: proof that any language can play."""
import random
import sys


def legal_moves(rules, moves):
    """Replays `moves` from the start; returns the mover's legal moves."""
    m, seeds = int(rules.get("pits", 6)), int(rules.get("seeds", 4))
    pie, empty = rules.get("pie") == "on", rules.get("capture") == "empty"
    board = ([seeds] * m + [0]) * 2
    side, ply = 0, 0  # side 0 = South (cells 0..m-1, store m), 1 = North
    for move in moves:
        ply += 1
        if move == "swap":
            continue  # the players change seats; the board and the mover stay
        start = side * (m + 1) + int(move) - 1
        own_store, skip = side * (m + 1) + m, (1 - side) * (m + 1) + m
        n, board[start], i = board[start], 0, start
        while n:
            i = (i + 1) % (2 * m + 2)
            if i != skip:
                board[i], n = board[i] + 1, n - 1
        own_row = side * (m + 1) <= i < side * (m + 1) + m
        if own_row and board[i] == 1 and (board[2 * m - i] or empty):
            board[own_store] += board[2 * m - i] + 1
            board[i] = board[2 * m - i] = 0
        if i != own_store or (pie and ply == 1):
            side = 1 - side
    row = side * (m + 1)
    legal = [str(p + 1) for p in range(m) if board[row + p]]
    return legal + (["swap"] if pie and ply == 1 else [])


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    rules, moves = {}, []
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "kep":
            print("id name python-random\nid author Kalah Arena\nkepok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "newgame":
            rules = dict(w.split("=", 1) for w in words[1:])
        elif words[0] == "position":
            moves = words[3:] if len(words) > 2 else []
        elif words[0] == "go":
            print("bestmove", rng.choice(legal_moves(rules, moves)), flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
