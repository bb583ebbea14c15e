"""Kalah Arena's engine kit for Python: the rules and the KEP protocol loop in one standard-library module.

Copy this file next to your bot, subclass Engine, write choose(), and call run(). The rules follow
docs/RULES.md exactly (tests/kit/kalah_engine_test.py replays the 240 games of every variant in
tests/data/rules-vectors.jsonl, which the C++ rules pass too); the loop speaks docs/PROTOCOL.md,
including positions that start from a board (`feature positions`) and `movestogo`. example_bot.py is
a complete bot in about 30 lines.

Board layout, as everywhere in Kalah Arena, for m pits a side: cells[0..m-1] South's pits from
South's left, cells[m] South's store, cells[m+1..2m] North's pits from North's left, cells[2m+1]
North's store. A move is a pit number 1..m from the mover's left, or SWAP (the pie rule's swap).
"""
import random
import sys
import time

SOUTH, NORTH = 0, 1
SWAP = 0  # the move `swap`; pit moves are 1..m

# The pie rule's state (Position.pie): nothing pending, South's first move (it never earns another
# turn), North may answer `swap`.
PIE_NONE, PIE_FIRST, PIE_OFFER = "none", "first", "offer"


class Variant:
    """The rule keys of docs/RULES.md; str() gives them in the form `newgame` sends."""

    CHOICES = {
        "capture": ("standard", "empty"),
        "ending": ("side-empty", "no-move"),
        "remainder": ("owner", "none"),
        "majority": ("off", "on"),
        "pie": ("off", "on"),
    }

    def __init__(self, pits=6, seeds=4, capture="standard", ending="side-empty", remainder="owner",
                 majority="off", pie="off"):
        self.pits, self.seeds = pits, seeds
        self.capture, self.ending, self.remainder = capture, ending, remainder
        self.majority, self.pie = majority == "on", pie == "on"

    @classmethod
    def parse(cls, text):
        """Reads `key=value` words; missing keys keep the standard value. ValueError names a bad key."""
        given = {}
        for word in text.split():
            key, eq, value = word.partition("=")
            if not eq:
                raise ValueError(f"variant word '{word}' is not key=value")
            if key in given:
                raise ValueError(f"variant key '{key}' given twice")
            if key in ("pits", "seeds"):
                if not (_is_number(value) and 1 <= int(value) <= 16):
                    raise ValueError(f"{key} must be a whole number from 1 to 16, not '{value}'")
                given[key] = int(value)
            elif key in cls.CHOICES:
                if value not in cls.CHOICES[key]:
                    raise ValueError(f"{key} must be " + " or ".join(cls.CHOICES[key]) + f", not '{value}'")
                given[key] = value
            else:
                raise ValueError(f"unknown variant key '{key}'")
        return cls(**given)

    def __str__(self):
        return (f"pits={self.pits} seeds={self.seeds} capture={self.capture} ending={self.ending} "
                f"remainder={self.remainder} majority={'on' if self.majority else 'off'} "
                f"pie={'on' if self.pie else 'off'}")

    def store_cell(self, side):
        return self.pits if side == SOUTH else 2 * self.pits + 1

    def row(self, side):
        """The cells of a side's pits, pit 1 first."""
        first = 0 if side == SOUTH else self.pits + 1
        return range(first, first + self.pits)


class Position:
    """A position of one game. play() returns the next position and leaves this one as it is."""

    def __init__(self, variant, cells, to_move=SOUTH, pie=PIE_NONE, swapped=False):
        self.variant, self.cells, self.to_move = variant, list(cells), to_move
        self.pie, self.swapped = pie, swapped
        self.over = self._ends()

    @classmethod
    def start(cls, variant):
        m, s = variant.pits, variant.seeds
        return cls(variant, ([s] * m + [0]) * 2, pie=PIE_FIRST if variant.pie else PIE_NONE)

    @classmethod
    def parse_board(cls, variant, text):
        """The board form of `position`: "4,4,4/4,4,4 0-0 S" (each side's pits from its owner's left,
        the stores South-North, the side to move). No pie offer is pending. ValueError if malformed."""
        words = text.split()
        try:
            rows, stores = words[0].split("/"), words[1].split("-")
            south, north = ([int(n) for n in r.split(",")] for r in rows)
            south_store, north_store = (int(n) for n in stores)
        except (IndexError, ValueError):
            raise ValueError(f"'{text}' is not '<pits>/<pits> <store>-<store> <S|N>'") from None
        m = variant.pits
        if len(words) != 3 or words[2] not in ("S", "N") or len(south) != m or len(north) != m:
            raise ValueError(f"'{text}' is not {m} pits/{m} pits, the stores and S or N")
        if min(south + north + [south_store, north_store]) < 0:
            raise ValueError(f"'{text}' has a negative seed count")
        return cls(variant, south + [south_store] + north + [north_store], SOUTH if words[2] == "S" else NORTH)

    def store(self, side):
        return self.cells[self.variant.store_cell(side)]

    def legal_moves(self):
        """Pits 1..m that hold seeds, then SWAP when offered; empty exactly when the game is over."""
        if self.over:
            return []
        moves = [pit for pit, cell in enumerate(self.variant.row(self.to_move), 1) if self.cells[cell]]
        return moves + [SWAP] if self.pie == PIE_OFFER else moves

    def play(self, move):
        """The position after a legal move (ValueError for an illegal one)."""
        if move not in self.legal_moves():
            raise ValueError(f"'{move_text(move)}' is not legal here")
        v, side = self.variant, self.to_move
        after = Position.__new__(Position)
        after.__dict__.update(self.__dict__, cells=list(self.cells))
        if move == SWAP:  # the players exchange sides; the board stays and North moves again
            after.swapped, after.pie = not self.swapped, PIE_NONE
            return after
        cells, count, skip = after.cells, len(self.cells), v.store_cell(1 - side)
        last = v.row(side)[move - 1]
        seeds, cells[last] = cells[last], 0
        laps, seeds = divmod(seeds, count - 1)  # a lap feeds every cell but the opponent's store
        for cell in range(count):
            cells[cell] += laps if cell != skip else 0
        while seeds:
            last = (last + 1) % count
            if last != skip:
                cells[last] += 1
                seeds -= 1
        again = last == v.store_cell(side)
        facing = 2 * v.pits - last
        if last in v.row(side) and cells[last] == 1 and (cells[facing] or v.capture == "empty"):
            cells[v.store_cell(side)] += cells[facing] + 1
            cells[facing] = cells[last] = 0
        if self.pie == PIE_FIRST:
            again, after.pie = False, PIE_OFFER
        elif self.pie == PIE_OFFER:
            after.pie = PIE_NONE
        if not again:
            after.to_move = 1 - side
        after.over = after._ends()
        if after.over:
            after.pie = PIE_NONE
            if v.remainder == "owner":
                for owner in (SOUTH, NORTH):
                    for cell in v.row(owner):
                        cells[v.store_cell(owner)] += cells[cell]
                        cells[cell] = 0
        return after

    def _ends(self):
        """Whether the rules end the game here: `ending`, then `majority`."""
        v = self.variant
        south, north = (sum(self.cells[c] for c in v.row(side)) for side in (SOUTH, NORTH))
        if v.ending == "side-empty":
            ends = south == 0 or north == 0
        else:
            ends = (south if self.to_move == SOUTH else north) == 0
        # Seeds are never lost, so on a board from startpos the sum of the cells is 2 * pits * seeds.
        return ends or (v.majority and 2 * max(self.store(SOUTH), self.store(NORTH)) > sum(self.cells))

    def result(self):
        """ "1-0" when the player who started as South won, "0-1", "1/2-1/2", or "*" while it runs."""
        if not self.over:
            return "*"
        south, north = self.store(SOUTH), self.store(NORTH)
        if south == north:
            return "1/2-1/2"
        return "1-0" if (south > north) != self.swapped else "0-1"


def _is_number(text):
    """Whether int() reads `text` as a whole number written in ASCII digits alone."""
    return text.isascii() and text.isdigit()


def move_text(move):
    return "swap" if move == SWAP else str(move)


def parse_move(text):
    """ "swap" or a pit number; ValueError otherwise (legality is Position.legal_moves())."""
    if text == "swap":
        return SWAP
    if not _is_number(text) or int(text) < 1:
        raise ValueError(f"'{text}' is not a move (a pit number or 'swap')")
    return int(text)


class Go:
    """The limits of one `go`: the clocks of the sides (stime, ntime, sinc, ninc, movestogo),
    movetime, depth or nodes; a limit not given is None."""

    KEYS = ("stime", "ntime", "sinc", "ninc", "movestogo", "movetime", "depth", "nodes")

    def __init__(self, words):
        for key in self.KEYS:
            setattr(self, key, None)
        for key, value in zip(words[::2], words[1::2]):
            if key in self.KEYS and _is_number(value):
                setattr(self, key, int(value))

    def budget_ms(self, side):
        """Milliseconds this move may take: movetime, or a share of the side's clock (its remaining
        time over the moves to go, 25 if not given, plus most of the increment, at most a third of
        what is left); None under depth or nodes."""
        if self.movetime is not None:
            return self.movetime
        left, inc = (self.stime, self.sinc) if side == SOUTH else (self.ntime, self.ninc)
        if left is None:
            return None
        share = left // max(1, self.movestogo or 25) + 3 * (inc or 0) // 4
        return max(1, min(share, left // 3))


class Engine:
    """A bot: a name and choose(); options are optional. run() drives it."""

    name = "python-engine"
    author = "unknown"
    # Option declarations as KEP writes them after "option name <name> ", e.g.
    # {"Depth": "type spin default 4 min 1 max 20"}.
    options = {}

    def set_option(self, name, value):
        """Returns False for an unknown option or a bad value."""
        return False

    def new_game(self, variant):
        pass

    def set_game_seed(self, seed):
        """The game's own seed (0..2^31-1), from `newgame ... seed=<n>`, given just before new_game().
        The kit announces `feature seed`, so the arena sends one per game, derived from the tournament's
        seed and the game's id: seeding from it makes a game replayable from its id. By default it seeds
        Python's `random` module; a bot with a generator of its own reseeds that instead."""
        random.seed(seed)

    def choose(self, position, history, go):
        """A legal move of `position` (whose side to move is this bot's). `history` holds the moves
        `position` was given (after startpos or its board), `go` the limits of this move."""
        raise NotImplementedError

    def bench(self):
        """The node count of a fixed, deterministic search, e.g. of bench_positions() to a fixed depth
        with the default settings: the same every time for the same code, and (nearly always) another
        after a change to the search. An engine that defines it announces `feature bench` and answers
        `bench` (docs/PROTOCOL.md, "Bench"); this default is not announced."""
        return None


def bench_positions():
    """The positions a bench searches, as the C++ bots' loop has them: the start of Kalah(6,4) and
    every fourth position of one fixed game of it, whose ply k plays the legal move at index
    (7k + 3) mod the count of legal moves."""
    variant = Variant()
    position = Position.start(variant)
    positions, ply = [position], 0
    while len(positions) < 8:
        moves = position.legal_moves()
        position = position.play(moves[(7 * ply + 3) % len(moves)])
        if ply % 4 == 3:
            positions.append(position)
        ply += 1
    return positions


def run(engine, inp=sys.stdin, out=sys.stdout):
    """The KEP loop on inp/out until `quit` or the end of input. choose() runs between `go` and
    `bestmove`, so a `stop` is read after it returns: answer within your budget."""

    def send(line):
        out.write(line + "\n")
        out.flush()

    variant = Variant()
    position, history = Position.start(variant), []
    benches = type(engine).bench is not Engine.bench
    for line in inp:
        words = line.split()
        command = words[0] if words else ""
        if command == "kep":
            send(f"id name {engine.name}")
            send(f"id author {engine.author}")
            for name, declaration in engine.options.items():
                send(f"option name {name} {declaration}")
            send("feature positions")
            send("feature seed")
            if benches:
                send("feature bench")
            send("kepok")
        elif command == "isready":
            send("readyok")
        elif command == "setoption":
            name, _, value = line.strip().partition(" name ")[2].partition(" value ")
            if not engine.set_option(name.strip(), value.strip()):
                send(f"info string unknown option or bad value: {name.strip()}")
        elif command == "newgame":
            seeds = [w for w in words[1:] if w.startswith("seed=")]
            try:
                variant = Variant.parse(" ".join(w for w in words[1:] if not w.startswith("seed=")))
            except ValueError as error:
                send(f"info string bad newgame: {error}")
            position, history = Position.start(variant), []
            if seeds and seeds[-1][5:].isdigit():
                engine.set_game_seed(int(seeds[-1][5:]))
            engine.new_game(variant)
        elif command == "position":
            position, history = read_position(variant, words[1:], send)
        elif command == "go":
            if not position.legal_moves():
                send("info string no legal move: the game is over")
                continue
            send("bestmove " + move_text(engine.choose(position, history, Go(words[1:]))))
        elif command == "bench" and benches:
            start = time.monotonic()
            nodes = engine.bench()
            send(f"bench nodes {nodes} time {int((time.monotonic() - start) * 1000)}")
        elif command == "quit":
            break
        elif command and command != "stop":
            send(f"info string ignored: {line.strip()}")


def read_position(variant, words, send):
    """`position` after its first word: "startpos" or a board, then "moves ...". Returns the position
    and the moves played; a bad board or move is reported and the rest of the line dropped."""
    split = words.index("moves") if "moves" in words else len(words)
    start, moves = words[:split], words[split + 1:]
    if start == ["startpos"]:
        position = Position.start(variant)
    else:
        try:
            position = Position.parse_board(variant, " ".join(start))
        except ValueError as error:
            send(f"info string bad position: {error}")
            return Position.start(variant), []
    history = []
    for text in moves:
        try:
            position = position.play(parse_move(text))
        except ValueError:
            send(f"info string illegal move in position: {text}")
            break
        history.append(parse_move(text))
    return position, history
