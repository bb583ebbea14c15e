#!/usr/bin/env python3
"""A random Kalah engine on kalah_engine.py (the Python kit): proof that any language can play.
The optional argument seeds the generator (1 when not given)."""
import random
import sys

from kalah_engine import Engine, run


class RandomBot(Engine):
    name, author = "python-random", "Kalah Arena"

    def __init__(self, seed):
        self.seed = seed
        self.rng = random.Random(seed)

    def set_game_seed(self, seed):
        # Each game from its own seed and this bot's: the same game wherever and after whatever it is played.
        self.rng.seed(self.seed * 1000003 + seed)

    def choose(self, position, history, go):
        return self.rng.choice(position.legal_moves())


if __name__ == "__main__":
    run(RandomBot(int(sys.argv[1]) if len(sys.argv) > 1 else 1))
