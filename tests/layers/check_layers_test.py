#!/usr/bin/env python3
"""tools/check-layers.py on made-up trees: a good one passes, and each way of breaking the order is named.

Usage: check_layers_test.py PATH/TO/check-layers.py"""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

CHECKER = None  # set from argv


def architecture(referee, arena):
    rows = [f"| `referee/{m}` (`kalah_{m}`) | `kalah` | ... |" for m in referee]
    rows += [f"| `arena/{m}` (`kalah_{m}`) | `kalah::arena` | ... |" for m in arena]
    return "# Architecture\n\n| module | namespace | what it owns |\n|---|---|---|\n" + "\n".join(rows) + "\n"


class Tree:
    """A source tree with referee/ and arena/ modules, their CMakeLists' order and ARCHITECTURE.md."""

    def __init__(self, root, referee=("rules", "engine"), arena=("config", "flow", "git")):
        self.root = root
        for half, modules in (("referee", referee), ("arena", arena)):
            self.write(f"{half}/CMakeLists.txt", f"foreach(module {' '.join(modules)})\n  add_subdirectory(x)\nendforeach()\n")
            for module in modules:
                self.write(f"{half}/{module}/{module}.h", "#pragma once\n")
        self.write("docs/ARCHITECTURE.md", architecture(referee, arena))

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(text))

    def check(self):
        run = subprocess.run([sys.executable, CHECKER, self.root], capture_output=True, text=True)
        return run.returncode, run.stdout


class CheckLayers(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.tree = Tree(self.folder.name)

    def tearDown(self):
        self.folder.cleanup()

    def test_includes_of_earlier_modules_pass(self):
        self.tree.write("arena/git/git.cpp", '#include "arena/flow/flow.h"\n#include "arena/git/git.h"\n'
                        '#include "referee/rules/rules.h"\n')
        self.tree.write("bots/greedy/main.cpp", '#include "referee/engine/engine.h"\n')
        self.tree.write("tests/flow_test.cpp", '#include "arena/git/git.h"\n')  # tests are no module
        code, out = self.tree.check()
        self.assertEqual(code, 0, out)

    def test_an_include_of_a_later_module_is_named_with_its_line(self):
        self.tree.write("arena/flow/play.cpp", '// play\n#include <vector>\n#include "arena/git/git.h"\n')
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("arena/flow/play.cpp:3: arena/flow includes arena/git/git.h, but arena/git is declared after it",
                      out)

    def test_referee_includes_nothing_of_arena(self):
        self.tree.write("referee/engine/engine.cpp", '#include "arena/config/config.h"\n')
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("referee/engine/engine.cpp:1: referee/engine includes arena/config/config.h", out)

    def test_bots_include_nothing_of_arena(self):
        self.tree.write("bots/greedy/main.cpp", '  #  include "arena/config/config.h"\n')
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("bots/greedy/main.cpp:1: includes arena/config/config.h: bots/ includes nothing of arena/", out)

    def test_two_modules_that_include_each_other_are_named(self):
        self.tree.write("arena/config/config.cpp", '#include "arena/flow/flow.h"\n')
        self.tree.write("arena/flow/flow.cpp", '#include "arena/config/config.h"\n')
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("arena/config/config.cpp:1: arena/config and arena/flow include each other "
                      "(the other way at arena/flow/flow.cpp:1)", out)

    def test_a_library_of_a_later_module_linked_is_named_with_its_line(self):
        self.tree.write("arena/flow/CMakeLists.txt", "add_library(kalah_flow STATIC flow.cpp)\n"
                        "target_link_libraries(kalah_flow PUBLIC kalah_config\n  PRIVATE kalah_git)\n")
        self.tree.write("arena/git/CMakeLists.txt", "add_library(kalah_git STATIC git.cpp)\n"
                        "target_link_libraries(kalah_git PRIVATE kalah_flow kalah_rules fmt::fmt)\n")
        self.tree.write("arena/config/CMakeLists.txt", "add_library(kalah_config STATIC config.cpp)\n")
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("arena/flow/CMakeLists.txt:2: kalah_flow links kalah_git, of arena/git, which is declared "
                      "after arena/flow", out)
        self.assertNotIn("kalah_git links", out)

    def test_an_undeclared_module_is_named(self):
        self.tree.write("arena/extra/extra.cpp", '#include "arena/config/config.h"\n')
        self.tree.write("arena/flow/flow.cpp", '#include "arena/extra/extra.h"\n')
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("arena/extra: holds source but arena/CMakeLists.txt does not declare it", out)
        self.assertIn("arena/flow/flow.cpp:1: includes arena/extra/extra.h, of arena/extra, which no CMakeLists "
                      "declares", out)

    def test_a_declared_module_without_its_folder_is_named(self):
        self.tree.write("arena/CMakeLists.txt", "foreach(module config flow gone git)\nendforeach()\n")
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("arena/CMakeLists.txt: declares gone, which is not a folder of arena/", out)

    def test_architecture_tables_follow_the_declared_order(self):
        self.tree.write("docs/ARCHITECTURE.md", architecture(("rules", "engine"), ("config", "git", "flow")))
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("docs/ARCHITECTURE.md:8: the module tables list arena/git where the declared order has "
                      "arena/flow", out)

    def test_an_unreadable_order_is_exit_code_2(self):
        self.tree.write("arena/CMakeLists.txt", "add_subdirectory(config)\n")
        code, _ = self.tree.check()
        self.assertEqual(code, 2)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    CHECKER = sys.argv.pop(1)
    unittest.main()
