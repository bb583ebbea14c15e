#!/usr/bin/env python3
"""Tests of the Python engine kit (bots/python/kalah_engine.py): its rules against the 240 games of
tests/data/rules-vectors.jsonl (which the C++ rules pass too, tests/rules_vectors_test.cpp), the board
form of `position`, and the protocol loop fed a session in memory. Run by CTest as python_kit_test."""
import io
import random
import json
import pathlib
import sys
import unittest

SOURCE = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(SOURCE / "bots" / "python"))

from kalah_engine import (NORTH, PIE_NONE, PIE_OFFER, SOUTH, SWAP, Engine, Go, Position,  # noqa: E402
                          Variant, bench_positions, parse_move, run)


def replay(variant_text, moves_text):
    position = Position.start(Variant.parse(variant_text))
    for word in moves_text.split():
        position = position.play(parse_move(word))
    return position


class Rules(unittest.TestCase):
    def test_every_vector_game_ends_where_the_cpp_rules_end(self):
        lines = (SOURCE / "tests" / "data" / "rules-vectors.jsonl").read_text().splitlines()
        for line in lines:
            vector = json.loads(line)
            with self.subTest(variant=vector["variant"], moves=vector["moves"]):
                position = replay(vector["variant"], vector["moves"])
                expect = vector["expect"]
                self.assertEqual(position.cells, expect["board"])
                self.assertEqual(position.over, expect["over"])
                if not position.over:
                    self.assertEqual(("south", "north")[position.to_move], expect["to_move"])
                self.assertEqual([position.store(SOUTH), position.store(NORTH)], expect["stores"])
                self.assertEqual(position.result(), expect["result"] or "*")
        self.assertEqual(len(lines), 240)

    def test_variant_text_round_trips_and_bad_keys_are_named(self):
        text = "pits=5 seeds=3 capture=empty ending=no-move remainder=none majority=on pie=on"
        self.assertEqual(str(Variant.parse(text)), text)
        self.assertEqual(str(Variant.parse("")), str(Variant()))
        for bad, named in (("pits=17", "pits"), ("colour=red", "colour"), ("pie=yes", "pie"), ("pits=4 pits=5", "pits"),
                           ("seeds", "seeds"), ("seeds=\u00b2", "seeds")):
            with self.assertRaisesRegex(ValueError, named):
                Variant.parse(bad)

    def test_pie_offer_swap_and_the_result_after_a_swap(self):
        # pie=on: South's 3 ends in its store but earns no extra turn; North may swap.
        position = replay("pits=6 seeds=4 pie=on", "3")
        self.assertEqual((position.to_move, position.pie), (NORTH, PIE_OFFER))
        self.assertEqual(position.legal_moves(), [1, 2, 3, 4, 5, 6, SWAP])
        swapped = position.play(SWAP)
        self.assertEqual((swapped.cells, swapped.to_move, swapped.swapped), (position.cells, NORTH, True))
        self.assertNotIn(SWAP, swapped.legal_moves())
        self.assertEqual(position.cells, replay("pits=6 seeds=4 pie=on", "3").cells, "play() copies")

    def test_an_illegal_move_is_refused(self):
        position = replay("pits=6 seeds=4", "3")  # South moves again: 3 is empty now
        self.assertEqual(position.to_move, SOUTH)
        with self.assertRaises(ValueError):
            position.play(3)
        with self.assertRaises(ValueError):
            position.play(SWAP)


class Board(unittest.TestCase):
    def test_the_board_form_is_read_with_each_row_from_its_owners_left(self):
        v = Variant.parse("pits=3 seeds=2")
        position = Position.parse_board(v, "1,0,3/0,2,5 4-7 N")
        self.assertEqual(position.cells, [1, 0, 3, 4, 0, 2, 5, 7])
        self.assertEqual((position.to_move, position.pie, position.over), (NORTH, PIE_NONE, False))
        # North's pit 3 (5 seeds) sows its store, South's pits 1..3 (not South's store) and its own empty
        # pit 1, which captures South's pit 3 (3 + 1 seeds) with it.
        self.assertEqual(position.play(3).cells, [2, 1, 0, 4, 0, 2, 0, 13])

    def test_a_board_start_never_has_a_pie_offer(self):
        v = Variant.parse("pits=2 seeds=2 pie=on")
        position = Position.parse_board(v, "2,2/2,2 0-0 S")
        self.assertEqual((position.pie, position.legal_moves()), (PIE_NONE, [1, 2]))
        self.assertEqual(position.play(2).pie, PIE_NONE)

    def test_a_board_that_ends_the_game_is_over(self):
        v = Variant.parse("pits=2 seeds=2")
        self.assertTrue(Position.parse_board(v, "0,0/1,2 4-1 S").over)
        self.assertEqual(Position.parse_board(v, "0,0/1,2 4-1 S").legal_moves(), [])

    def test_malformed_boards_are_refused(self):
        v = Variant.parse("pits=2 seeds=2")
        for bad in ("2,2/2,2 0-0", "2,2,2/2,2 0-0 S", "2,2/2,2 0-0 X", "2,2/2,x 0-0 S", "2,2/2,2 0:0 S",
                    "2,-1/2,2 0-0 S", "2,2 0-0 S"):
            with self.assertRaises(ValueError, msg=bad):
                Position.parse_board(v, bad)


class Recorder(Engine):
    """Plays the lowest legal pit and records what the loop gave it."""

    name, author = "recorder", "the tests"
    options = {"Depth": "type spin default 1 min 1 max 9"}

    def __init__(self):
        self.calls, self.settings = [], {}

    def set_option(self, name, value):
        self.settings[name] = value
        return name == "Depth"

    def choose(self, position, history, go):
        self.calls.append((position, history, go))
        return position.legal_moves()[0]


def session(*lines):
    engine, out = Recorder(), io.StringIO()
    run(engine, io.StringIO("".join(line + "\n" for line in lines)), out)
    return engine, out.getvalue().splitlines()


class Loop(unittest.TestCase):
    def test_the_handshake_announces_options_and_positions_before_kepok(self):
        _, out = session("kep", "isready", "quit", "isready")
        self.assertEqual(out, ["id name recorder", "id author the tests",
                               "option name Depth type spin default 1 min 1 max 9", "feature positions",
                               "feature seed", "kepok", "readyok"])

    def test_each_game_seeds_random_from_its_newgame_seed(self):
        # The same game seed gives the same draws, whatever was drawn before; no seed leaves random alone.
        class Drawer(Recorder):
            def new_game(self, variant):
                self.pits.append(variant.pits)
                self.drawn.append(random.random())

        engine = Drawer()
        engine.drawn, engine.pits = [], []
        run(engine, io.StringIO("newgame pits=4 seeds=3 seed=17\nnewgame pits=4 seeds=3 seed=99\n"
                                "newgame pits=4 seeds=3 seed=17\n"), io.StringIO())
        self.assertEqual(engine.drawn[0], engine.drawn[2])
        self.assertNotEqual(engine.drawn[0], engine.drawn[1])
        self.assertEqual(engine.pits, [4, 4, 4])  # the seed word is not a rule key

    def test_options_with_spaces_and_unknown_options(self):
        engine, out = session("setoption name Depth value 3", "setoption name Book File value a b.txt")
        self.assertEqual(engine.settings, {"Depth": "3", "Book File": "a b.txt"})
        self.assertEqual(out, ["info string unknown option or bad value: Book File"])

    def test_startpos_with_moves_and_a_clock_with_movestogo(self):
        engine, out = session("newgame pits=4 seeds=3 pie=on", "position startpos moves 2 swap",
                              "go stime 1000 ntime 9000 sinc 10 ninc 20 movestogo 9")
        position, history, go = engine.calls[0]
        self.assertEqual(history, [2, SWAP])
        self.assertEqual(position.cells, replay("pits=4 seeds=3 pie=on", "2 swap").cells)
        self.assertEqual((go.stime, go.ntime, go.sinc, go.ninc, go.movestogo), (1000, 9000, 10, 20, 9))
        self.assertEqual(go.budget_ms(NORTH), 9000 // 9 + 15)
        self.assertEqual(go.budget_ms(SOUTH), 1000 // 9 + 7)
        self.assertEqual(out, ["bestmove 1"])

    def test_a_position_from_a_board(self):
        engine, out = session("newgame pits=6 seeds=4", "position 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S moves 3 6",
                              "go movetime 50", "position 0,0,0,0,0,1/0,0,3,0,0,0 20-24 N", "go depth 2")
        (first, history, go), (second, _, depth) = engine.calls
        self.assertEqual(history, [3, 6])
        self.assertEqual(first.cells, replay("pits=6 seeds=4", "3 6").cells)
        self.assertEqual((go.budget_ms(SOUTH), depth.depth, depth.budget_ms(NORTH)), (50, 2, None))
        self.assertEqual((second.to_move, second.legal_moves()), (NORTH, [3]))
        self.assertEqual(out, ["bestmove 1", "bestmove 3"])

    def test_bad_positions_and_finished_games_are_reported(self):
        # After 1 1 South's pit 1 is empty: the position stops before the third move.
        engine, out = session("newgame pits=2 seeds=1", "position startpos moves 1 1 1 2", "go movetime 5",
                              "position 1,1/1 0-0 S", "position 0,0/1,1 1-0 S", "go movetime 5", "frobnicate")
        self.assertEqual(out, ["info string illegal move in position: 1", "bestmove 2",
                               "info string bad position: '1,1/1 0-0 S' is not 2 pits/2 pits, the stores and S or N",
                               "info string no legal move: the game is over", "info string ignored: frobnicate"])
        self.assertEqual(engine.calls[0][1], [1, 1])

    def test_words_that_are_not_numbers_are_not_limits_or_moves(self):
        engine, out = session("position startpos moves \u00b2", "go movetime \u00b9 depth 4 nodes -5")
        go = engine.calls[0][2]
        self.assertEqual((go.movetime, go.depth, go.nodes), (None, 4, None))
        self.assertEqual(out, ["info string illegal move in position: \u00b2", "bestmove 1"])

    def test_bench_is_announced_and_answered_only_by_an_engine_that_has_one(self):
        _, out = session("kep", "bench")
        self.assertNotIn("feature bench", out)
        self.assertEqual(out[-1], "info string ignored: bench")

        class Benched(Recorder):
            def bench(self):
                return 4242

        out = io.StringIO()
        run(Benched(), io.StringIO("kep\nbench\nbench\n"), out)
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[lines.index("kepok") - 1], "feature bench")
        answers = [line.split() for line in lines if line.startswith("bench ")]
        self.assertEqual([words[:3] for words in answers], [["bench", "nodes", "4242"]] * 2)
        self.assertTrue(all(words[3] == "time" and words[4].isdigit() for words in answers))

    def test_the_bench_positions_are_eight_positions_with_a_move(self):
        positions = bench_positions()
        self.assertEqual(len(positions), 8)
        self.assertEqual(positions[0].cells, Position.start(Variant()).cells)
        self.assertTrue(all(position.legal_moves() for position in positions))

    def test_the_example_bots_bench_is_the_same_every_time_and_whatever_its_depth(self):
        sys.path.insert(0, str(SOURCE / "bots" / "python"))
        from example_bot import LookaheadBot
        bot = LookaheadBot()
        first = bot.bench()
        self.assertTrue(bot.set_option("Depth", "5"))
        self.assertEqual(bot.bench(), first)
        self.assertGreater(first, 0)


if __name__ == "__main__":
    unittest.main()
