#!/usr/bin/env python3
"""An example engine on kalah_engine.py: looks Depth moves ahead for the largest store lead."""
from kalah_engine import SWAP, Engine, run


def lead(position, mine, plies):
    """Side `mine`'s store lead after `plies` more moves, both players playing their best."""
    moves = position.legal_moves()
    if plies == 0 or not moves:
        return position.store(mine) - position.store(1 - mine)
    # A swap gives both players the other side; whoever owns the side to move chooses.
    leads = [lead(position.play(m), 1 - mine if m == SWAP else mine, plies - 1) for m in moves]
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

    def choose(self, position, history, go):
        me = position.to_move
        # max() keeps the first of equal moves: the lowest pit.
        return max(position.legal_moves(), key=lambda m: lead(position.play(m), 1 - me if m == SWAP else me,
                                                             self.depth - 1))


if __name__ == "__main__":
    run(LookaheadBot())
