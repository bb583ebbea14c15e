#!/usr/bin/env python3
"""An example engine on kalah_engine.py: looks Depth moves ahead for the largest store lead."""
from kalah_engine import SWAP, Engine, bench_positions, run


def lead(position, mine, plies, seen=None):
    """Side `mine`'s store lead after `plies` more moves, both players playing their best. `seen`, if
    given, is a one-item list that counts the positions looked at (for bench)."""
    if seen is not None:
        seen[0] += 1
    moves = position.legal_moves()
    if plies == 0 or not moves:
        return position.store(mine) - position.store(1 - mine)
    # A swap gives both players the other side; whoever owns the side to move chooses.
    leads = [lead(position.play(m), 1 - mine if m == SWAP else mine, plies - 1, seen) for m in moves]
    return max(leads) if position.to_move == mine else min(leads)


class LookaheadBot(Engine):
    name, author = "python-lookahead", "Kalah Arena"
    options = {"Depth": "type spin default 3 min 1 max 6"}
    depth = 3

    def set_option(self, name, value):
        if name != "Depth" or value not in [str(d) for d in range(1, 7)]:
            return False
        self.depth = int(value)
        return True

    def choose(self, position, history, go, depth=None, seen=None):
        me = position.to_move
        # max() keeps the first of equal moves: the lowest pit.
        return max(position.legal_moves(), key=lambda m: lead(position.play(m), 1 - me if m == SWAP else me,
                                                             (depth or self.depth) - 1, seen))

    def bench(self):
        """The positions looked at choosing a move at depth 3 (the default, whatever Depth is set to)
        in each of the kit's bench positions."""
        seen = [0]
        for position in bench_positions():
            self.choose(position, [], None, depth=3, seen=seen)
        return seen[0]


if __name__ == "__main__":
    run(LookaheadBot())
