#!/usr/bin/env python3
"""Docs that cannot drift (docs/DEVELOPING.md, "The docs test").

Every fenced block of README.md and docs/*.md that shows a command (a line starting with "$ ") is run here,
from a scratch folder, and compared with what it shows, or it is marked as not run with its reason. A shell
block (```sh, or unlabelled and starting with ./build/, tools/, cmake ...) without "$ " lines must be marked
not run with its reason: commands nobody runs are what drifts. The
README's layout table must name every folder of arena/, referee/ and bots/ that holds source.

Usage: docs_test.py SOURCE_DIR BUILD_DIR [DOC...]   (DOC: only these files, e.g. docs/RULES.md)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

FENCE = re.compile(r"^(\s*)(```+|~~~+)(.*)$")
MARKER = re.compile(r"^\s*<!--\s*([a-z-]+):\s*(.*?)\s*-->\s*$")
KEYS = {"not-run", "setup", "exit", "unstable", "timeout"}
# The repository root as the docs write it; the scratch folder stands for it.
DOC_ROOT = "/work/main"
EXIT_TAG = "@@docs-test-exit "


class Block:
    def __init__(self, path, line, lines, markers):
        self.path, self.line, self.lines, self.markers = path, line, lines, markers

    def where(self, i=None):
        """file:line of the fence, or of the block's i-th line (0-based)."""
        return f"{self.path}:{self.line if i is None else self.line + 1 + i}"

    def marker(self, key):
        values = [v for k, v in self.markers if k == key]
        return values[-1] if values else None

    def commands(self):
        """[(command text, [(index in block, expected output line)])]: "$ " lines (a trailing backslash
        continues one) and the lines after each up to the next."""
        out, i = [], 0
        while i < len(self.lines):
            text = self.lines[i]
            if text.startswith("$ "):
                command = text[2:]
                while command.endswith("\\") and i + 1 < len(self.lines):
                    i += 1
                    command += "\n" + self.lines[i]
                out.append((command, []))
            elif out:
                out[-1][1].append((i, text))
            i += 1
        return out


SHELL_INFO = {"sh", "bash", "shell", "console"}
# The first line of an unlabelled block that a reader would type: the repository's own programs and scripts.
COMMAND_START = re.compile(r"^(\./|build/|tools/|bench/|cmake |ctest )")


def is_shell(info, body):
    """Whether a fenced block holds commands: labelled as a shell, or unlabelled and starting with one of the
    repository's programs. Synopses ("arena analyse DIR... [--budget-ms MS]") go in text blocks."""
    if info.strip().split(" ")[0] in SHELL_INFO:
        return True
    first = next((b for b in body if b.strip() and not b.startswith("#")), "")
    return not info.strip() and COMMAND_START.match(first) is not None


def parse(path, text):
    """The command blocks of a Markdown file, and its misplaced markers as errors."""
    blocks, errors = [], []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence = len(m.group(1)), m.group(2)
        start, body = i, []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence[0] * len(fence)):
            line = lines[i]
            body.append(line[indent:] if not line[:indent].strip() else line.lstrip())
            i += 1
        i += 1
        markers, j = [], start - 1
        while j >= 0 and MARKER.match(lines[j]):
            mm = MARKER.match(lines[j])
            markers.insert(0, (mm.group(1), mm.group(2)))
            j -= 1
        shown = any(b.startswith("$ ") for b in body)
        if shown or is_shell(m.group(3), body):
            block = Block(path, start + 1, body, markers)
            if not shown and block.marker("not-run") is None:
                # Commands written without "$ " would be neither run nor compared: show them as a reader
                # would type them ("$ " and what they print), or say why they are not run.
                errors.append(f"{block.where()}: a block of commands without '$ ' lines: write them as '$ command' "
                              "with their output, or mark the block <!-- not-run: reason -->")
            else:
                blocks.append(block)
        elif markers:
            errors.append(f"{path}:{start + 1}: markers before a block that shows no command ($ ...)")
    for n, line in enumerate(lines):
        mm = MARKER.match(line)
        if mm and mm.group(1) not in KEYS:
            errors.append(f"{path}:{n + 1}: unknown marker '{mm.group(1)}' (known: {', '.join(sorted(KEYS))})")
    return blocks, errors


def line_set(spec, block):
    """'3-9,12' (lines of the block, 1 = the first line after the fence) as 0-based indices."""
    out = set()
    for part in spec.replace(" ", "").split(","):
        a, _, b = part.partition("-")
        if not a.isdigit() or (b and not b.isdigit()):
            raise ValueError(f"{block.where()}: bad line list '{spec}'")
        out.update(range(int(a) - 1, int(b or a)))
    return out


def matches(expected, actual):
    """A shown line equals a printed one; "..." in it stands for any text."""
    if "..." not in expected:
        return expected == actual
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def scratch_folder(source, build):
    """A folder that looks like the repository root to the docs' commands, in which they may write."""
    root = tempfile.mkdtemp(prefix="kalah-docs-")
    os.chmod(root, 0o755)  # sandboxed engines run under uids of their own (docs/SECURITY.md)
    os.symlink(build, os.path.join(root, "build"))
    # The bundled bots, copied where a sandboxed engine's uid can reach them: the build may sit in a folder
    # others cannot enter (CI's clone under /root is mode 0700). First on PATH, so "kalah-random" is this copy.
    os.makedirs(os.path.join(root, "bin"), mode=0o755)
    for bot in ("kalah-random", "kalah-greedy", "kalah-mcts", "kalah-alphabeta", "kalah-solver"):
        if os.path.exists(os.path.join(build, "bots", bot)):
            shutil.copy2(os.path.join(build, "bots", bot), os.path.join(root, "bin", bot))
    shutil.copytree(os.path.join(source, "configs"), os.path.join(root, "configs"))
    shutil.copytree(os.path.join(source, "bots", "python"), os.path.join(root, "bots", "python"))
    return root


def run_block(block, root, env):
    """Runs a block's commands in one shell, in order, in `root`; returns a list of failures."""
    failures = []
    commands = block.commands()
    script = ["exec 2>&1"]
    for setup in [v for k, v in block.markers if k == "setup"]:
        script.append(f"{{ {setup} ; }} >/dev/null || {{ echo '{EXIT_TAG}setup failed'; exit 1; }}")
    for command, _ in commands:
        # `$?` after the tag is the command's status again, for a shown `echo $?`.
        script.append(command)
        script.append(f's=$?; printf "\\n{EXIT_TAG}%d\\n" "$s"; (exit "$s")')
    timeout = float(block.marker("timeout") or 60)
    try:
        proc = subprocess.run(["bash", "-c", "\n".join(script)], cwd=root, env=env, stdout=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [f"{block.where()}: did not finish in {timeout:.0f} s (a long run: mark it <!-- not-run: ... -->, "
                "or give it <!-- timeout: S -->)"]
    text = proc.stdout.decode("utf-8", "replace")
    real_root = os.path.realpath(root)
    for prefix in sorted({root, real_root}, key=len, reverse=True):
        text = text.replace(prefix, DOC_ROOT)
    home = os.environ.get("HOME")
    if home and home != "/":
        text = text.replace(home + "/", "~/")
    # Split the output at the tags: one piece and one status per command.
    pieces, statuses, current = [], [], []
    for line in text.split("\n"):
        if line.startswith(EXIT_TAG):
            status = line[len(EXIT_TAG):]
            if status == "setup failed":
                return [f"{block.where()}: a setup command failed:\n" + "\n".join(current)]
            if current and current[-1] == "":
                current.pop()  # the tag's own leading newline
            pieces.append(current)
            statuses.append(int(status))
            current = []
        else:
            current.append(line.rstrip())
    if len(pieces) != len(commands):
        return [f"{block.where()}: the shell stopped after {len(pieces)} of {len(commands)} commands:\n"
                + "\n".join(current)]
    wanted = block.marker("exit")
    codes = [int(c) for c in wanted.split()] if wanted else [0]
    if len(codes) == 1:
        codes = codes * len(commands)
    if len(codes) != len(commands):
        return [f"{block.where()}: <!-- exit: {wanted} --> gives {len(codes)} codes for {len(commands)} commands"]
    unstable = line_set(block.marker("unstable") or "", block) if block.marker("unstable") else set()
    for (command, shown), actual, status, code in zip(commands, pieces, statuses, codes):
        first = command.split("\n")[0]
        if status != code:
            failures.append(f"{block.where()}: `{first}` exited with {status}, the doc says {code}\n  its output:\n"
                            + "\n".join("    " + a for a in actual))
            continue
        # Every shown line that is not marked unstable is printed, in this order ("..." alone skips lines;
        # blank lines separate commands for the eye and are not compared).
        k = 0
        for index, expected in shown:
            expected = expected.rstrip()
            if index in unstable or expected in ("", "..."):
                continue
            while k < len(actual) and not matches(expected, actual[k]):
                k += 1
            if k == len(actual):
                failures.append(f"{block.where(index)}: `{first}` does not print this line (or not in this order):\n"
                                f"    {expected}\n  its output:\n" + "\n".join("    " + a for a in actual))
                break
            k += 1
    return failures


def layout_errors(source):
    """Every folder of arena/, referee/ and bots/ that holds source is named in the README's layout table."""
    text = open(os.path.join(source, "README.md"), encoding="utf-8").read()
    section = re.search(r"^## Layout\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not section:
        return ["README.md: no '## Layout' section"]
    named = set()
    for row in re.findall(r"^\|([^|\n]*)\|", section.group(1), re.M):
        named.update(name.rstrip("/") for name in re.findall(r"`([^`]+)`", row))
    errors = []
    for top in ("arena", "referee", "bots"):
        for folder in sorted(os.listdir(os.path.join(source, top))):
            path = os.path.join(source, top, folder)
            if not os.path.isdir(path):
                continue
            has_source = any(f.endswith((".cpp", ".h", ".py")) for f in os.listdir(path))
            if has_source and f"{top}/{folder}" not in named:
                errors.append(f"README.md: the layout table (first column) does not name `{top}/{folder}`")
    return errors


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    source, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    docs = sys.argv[3:] or ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(source, "docs")) if f.endswith(".md"))
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["LC_ALL"] = "C.UTF-8"
    env["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="kalah-docs-cache-")  # the solver's databases
    failures = [] if sys.argv[3:] else layout_errors(source)
    ran = skipped = 0
    started = time.monotonic()
    for doc in docs:
        blocks, errors = parse(doc, open(os.path.join(source, doc), encoding="utf-8").read())
        failures += errors
        if not blocks:
            continue
        # One scratch folder per doc: its blocks run in order, as a reader would, each seeing what the ones
        # before it wrote.
        root = scratch_folder(source, build)
        env["PATH"] = f"{root}/bin:{root}/build:{root}/build/bots:{os.environ.get('PATH', '')}"
        try:
            for block in blocks:
                reason = block.marker("not-run")
                if reason is not None:
                    if not reason:
                        failures.append(f"{block.where()}: <!-- not-run: --> needs its reason")
                    skipped += 1
                    print(f"not run  {block.where()}: {reason}")
                    continue
                t0 = time.monotonic()
                try:
                    found = run_block(block, root, env)
                except ValueError as e:
                    found = [str(e)]
                ran += 1
                print(f"{'ok' if not found else 'FAILED':7}  {block.where()} ({time.monotonic() - t0:.1f} s)")
                failures += found
        finally:
            shutil.rmtree(root, ignore_errors=True)
    shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)
    print(f"docs_test: {ran} blocks run, {skipped} not run, {time.monotonic() - started:.1f} s")
    for f in failures:
        print("\nFAILED: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
