#!/usr/bin/env python3
"""tools/check-sizes.py on made-up trees: a file of 600 lines and a function of 100 pass, one line more fails,
and the pending list can only shrink.

Usage: check_sizes_test.py PATH/TO/check-sizes.py

Exits 77 (ctest's skip) when libclang's Python bindings (Debian's python3-clang-14) are missing, as the
checker itself does under ctest."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

CHECKER = None  # set from argv
SKIP_CODE = 77


def function(name, lines, inner=""):
    """A C++ function whose body spans `lines` lines, from `{` to `}`; `inner` (whole lines) goes first."""
    inner_lines = inner.count("\n")
    filler = "".join(f"  ++x;  // {i}\n" for i in range(lines - 4 - inner_lines))
    return f"int {name}() {{\n  int x = 0;\n{inner}{filler}  return x;\n}}\n"


def lines_of_comments(count):
    return "".join(f"// line {i}\n" for i in range(1, count + 1))


class Tree:
    """A source tree with arena/, referee/ and bots/ folders."""

    def __init__(self, root):
        self.root = root

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)

    def check(self):
        run = subprocess.run([sys.executable, CHECKER, self.root, "--jobs", "1"], capture_output=True, text=True)
        return run.returncode, run.stdout + run.stderr


class CheckSizes(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.tree = Tree(self.folder.name)

    def tearDown(self):
        self.folder.cleanup()

    def test_a_600_line_file_and_a_100_line_function_pass(self):
        text = function("at_the_limit", 100)
        self.tree.write("referee/rules/long.cpp", text + lines_of_comments(600 - text.count("\n")))
        self.tree.write("bots/small/main.cpp", "int main() { return 0; }\n")
        code, out = self.tree.check()
        self.assertEqual(code, 0, out)
        self.assertIn("check-sizes: 2 files, 2 functions: none over 600 lines a file or 100 a function", out)

    def test_a_101_line_function_fails_with_its_line_and_length(self):
        self.tree.write("arena/report/page.cpp", "// A page.\n\n" + function("too_long", 101))
        code, out = self.tree.check()
        self.assertEqual(code, 1, out)
        self.assertIn("arena/report/page.cpp:3: too_long: 101 lines (over 100)", out)

    def test_a_601_line_file_fails(self):
        self.tree.write("bots/big/big.h", "#pragma once\n" + lines_of_comments(600))
        code, out = self.tree.check()
        self.assertEqual(code, 1, out)
        self.assertIn("bots/big/big.h: 601 lines (over 600)", out)

    def test_the_body_is_measured_not_the_signature(self):
        signature = "template <typename T>\nint wide(T a,\n         T b,\n         T c)\n"
        body = function("x", 100)[len("int x() "):]
        self.tree.write("referee/rules/wide.h", "#pragma once\n" + signature + body)
        code, out = self.tree.check()
        self.assertEqual(code, 0, out)

    def test_lambdas_and_local_classes_count_as_their_function(self):
        inner = ("  auto step = [&](int y) {\n" + "".join(f"    x += y + {i};\n" for i in range(40)) + "  };\n"
                 "  struct Local {\n    int twice(int y) {\n" + "".join(f"      y += {i};\n" for i in range(15)) +
                 "      return y;\n    }\n  };\n")
        self.tree.write("arena/runner/pool.cpp", function("with_lambda", 101, inner))
        code, out = self.tree.check()
        self.assertEqual(code, 1, out)
        self.assertIn("arena/runner/pool.cpp:1: with_lambda: 101 lines (over 100)", out)
        self.assertNotIn("twice", out)
        self.assertEqual(out.count("lines (over"), 1, out)

    def test_braces_in_strings_characters_and_comments_do_not_count(self):
        inner = ('  const char* open = "{{{";\n  char brace = \'}\';\n  // }\n  /* } } */\n'
                 '  const char* raw = R"(})";\n  (void)open; (void)brace; (void)raw;\n')
        self.tree.write("referee/protocol/codec.cpp", function("tricky", 101, inner) + function("after", 5))
        code, out = self.tree.check()
        self.assertEqual(code, 1, out)
        self.assertIn("referee/protocol/codec.cpp:1: tricky: 101 lines (over 100)", out)
        self.assertNotIn("after", out)

    def test_methods_are_named_by_their_class_and_measured_where_they_are_defined(self):
        self.tree.write("referee/process/spawn.h", "#pragma once\nstruct Process {\n  int spawn();\n"
                        "  int inline_one() {\n" + "    return 1;\n" * 100 + "  }\n};\n")
        self.tree.write("referee/process/spawn.cpp", '#include "referee/process/spawn.h"\n\n' +
                        function("Process::spawn", 102))
        code, out = self.tree.check()
        self.assertEqual(code, 1, out)
        self.assertIn("referee/process/spawn.cpp:3: Process::spawn: 102 lines (over 100)", out)
        self.assertIn("referee/process/spawn.h:4: Process::inline_one: 102 lines (over 100)", out)
        self.assertEqual(out.count("inline_one"), 1, out)  # not again in the .cpp that includes it

    def test_a_pending_offender_under_arena_config_does_not_fail(self):
        self.tree.write("arena/config/config.cpp", function("load", 120) + lines_of_comments(600))
        self.tree.write("tools/sizes-pending.txt", "# Owned by the config rewrite.\n"
                        "arena/config/config.cpp  # split by the config rewrite\n"
                        "arena/config/config.cpp:load  # likewise\n")
        code, out = self.tree.check()
        self.assertEqual(code, 0, out)
        self.assertIn("pending: arena/config/config.cpp: 720 lines (over 600)", out)
        self.assertIn("pending: arena/config/config.cpp:1: load: 120 lines (over 100)", out)
        self.assertIn("(2 pending in tools/sizes-pending.txt)", out)

    def test_a_pending_entry_no_longer_over_fails(self):
        self.tree.write("arena/config/config.cpp", function("load", 100))
        self.tree.write("tools/sizes-pending.txt", "arena/config/config.cpp:load  # config rewrite\n"
                        "arena/app/gone.cpp  # config rewrite\n")
        code, out = self.tree.check()
        self.assertEqual(code, 1, out)
        self.assertIn("tools/sizes-pending.txt:1: arena/config/config.cpp:load is no longer over its limit", out)
        self.assertIn("tools/sizes-pending.txt:2: arena/app/gone.cpp is no longer over its limit", out)

    def test_only_arena_config_and_app_may_be_pending_and_each_says_why(self):
        self.tree.write("arena/report/html.cpp", function("page", 101))
        self.tree.write("arena/app/main.cpp", function("main_loop", 101))
        self.tree.write("tools/sizes-pending.txt", "arena/report/html.cpp:page  # later\n"
                        "arena/app/main.cpp:main_loop\n")
        code, out = self.tree.check()
        self.assertEqual(code, 1, out)
        self.assertIn("tools/sizes-pending.txt:1: arena/report/html.cpp:page: only files under arena/config/ and "
                      "arena/app/ may be pending", out)
        self.assertIn("tools/sizes-pending.txt:2: arena/app/main.cpp:main_loop: say why", out)
        self.assertIn("arena/report/html.cpp:1: page: 101 lines (over 100)", out)

    def test_flags_come_from_compile_commands_through_a_unity_batch(self):
        source = os.path.join(self.tree.root, "arena/flow/uses.cpp")
        self.tree.write("arena/flow/uses.cpp", "int value() { return FROM_COMMAND; }\n")
        batch = os.path.join(self.tree.root, "build/arena/Unity/unity_0_cxx.cxx")
        self.tree.write("build/arena/Unity/unity_0_cxx.cxx", f'/* generated by CMake */\n\n#include "{source}"\n')
        command = (f"/usr/bin/c++ -DFROM_COMMAND=1 -I{self.tree.root} -O2 -Werror -std=c++20 -Winvalid-pch "
                   f"-include {self.tree.root}/build/missing_pch.hxx -o x.o -c {batch}")
        self.tree.write("build/compile_commands.json",
                        json.dumps([{"directory": os.path.join(self.tree.root, "build"), "command": command,
                                     "file": batch}]))
        code, out = self.tree.check()
        self.assertEqual(code, 0, out)

    def test_a_file_that_does_not_parse_is_exit_code_2(self):
        self.tree.write("arena/flow/broken.cpp", "int value() { return not_declared_anywhere; }\n")
        code, out = self.tree.check()
        self.assertEqual(code, 2, out)
        self.assertIn("broken.cpp:1: use of undeclared identifier 'not_declared_anywhere'", out)


def libclang_available():
    """As the checker finds it: this interpreter's packages, else Debian's."""
    try:
        import clang.cindex  # noqa: F401
        return True
    except ImportError:
        sys.path.append("/usr/lib/python3/dist-packages")
        try:
            import clang.cindex  # noqa: F401,F811
            return True
        except ImportError:
            return False


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    CHECKER = sys.argv.pop(1)
    if not libclang_available():
        print("libclang's Python bindings are missing (apt-get install python3-clang-14): not run")
        sys.exit(SKIP_CODE)
    unittest.main()
