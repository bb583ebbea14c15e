#!/usr/bin/env python3
"""Checks that the includes between modules follow the module order that the CMakeLists declare.

  tools/check-layers.py [SOURCE_DIR]     (default: the checkout this script is in)

The order is the `foreach(module ...)` list of referee/CMakeLists.txt, then that of arena/CMakeLists.txt
(docs/ARCHITECTURE.md). A source file of a module (arena/<module>/..., referee/<module>/...) may include
the headers of its own module and of the modules declared before it, never those of a module declared
after it; a file under bots/ includes nothing from arena/. Tests (tests/), benchmarks (bench/) and the
kit are no module and may include any. Also checked: no two modules include each other; a module's
CMakeLists.txt links no library of a module declared after it; every folder of arena/ and referee/ that
holds source is declared, and every declared module is a folder; the module tables of
docs/ARCHITECTURE.md list the modules in the declared order.

Prints one line per problem (file:line: what is wrong) and exits 1 if there is any, 0 otherwise, and 2
when the order cannot be read."""
import os
import re
import sys

HALVES = ("referee", "arena")  # in dependency order: arena builds on referee, never the other way
SOURCE_SUFFIXES = (".cpp", ".cc", ".h", ".hpp", ".inc", ".ipp")
DECLARATION = re.compile(r"^\s*foreach\s*\(\s*module\s+([^)]*)\)", re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s*"((arena|referee|bots)/([^/"]+)/[^"]*)"')
TABLE_ROW = re.compile(r"^\|\s*`(arena|referee)/([a-z_]+)`")
TARGET = re.compile(r"\badd_(?:library|executable)\s*\(\s*([\w.+-]+)")
LINK = re.compile(r"\btarget_link_libraries\s*\(\s*([\w.+-]+)([^)]*)\)")


class OrderError(Exception):
    pass


def declared_order(source):
    """[(half, module)] in dependency order, referee's modules first."""
    order = []
    for half in HALVES:
        path = os.path.join(source, half, "CMakeLists.txt")
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise OrderError(f"{half}/CMakeLists.txt: cannot read it: {e.strerror}") from e
        found = DECLARATION.findall(text)
        if len(found) != 1:
            raise OrderError(f"{half}/CMakeLists.txt: expected one `foreach(module ...)` list, found {len(found)}")
        order += [(half, module) for module in found[0].split()]
    return order


def source_files(folder):
    """Every source file under `folder`, in a stable order."""
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.join(root, name)


def folder_errors(source, order):
    """A declared module without its folder, and a folder holding source that no list declares."""
    errors = []
    declared = set(order)
    for half in HALVES:
        top = os.path.join(source, half)
        for name in sorted(os.listdir(top)):
            if os.path.isdir(os.path.join(top, name)) and (half, name) not in declared:
                if next(source_files(os.path.join(top, name)), None):
                    errors.append(f"{half}/{name}: holds source but {half}/CMakeLists.txt does not declare it")
    for half, module in order:
        if not os.path.isdir(os.path.join(source, half, module)):
            errors.append(f"{half}/CMakeLists.txt: declares {module}, which is not a folder of {half}/")
    return errors


def include_errors(source, order):
    """Includes of a later module, of an undeclared one, of arena/ from bots/; modules that include each other."""
    rank = {name: i for i, name in enumerate(order)}
    errors = []
    first_use = {}  # (from module, to module) -> "file:line" of its first include
    for top in HALVES + ("bots",):
        for path in source_files(os.path.join(source, top)):
            where = os.path.relpath(path, source)
            parts = where.split(os.sep)
            module = (parts[0], parts[1]) if parts[0] in HALVES and len(parts) > 2 else None
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
            for number, line in enumerate(lines, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                header, target = match.group(1), (match.group(2), match.group(3))
                at = f"{where}:{number}"
                if target[0] == "bots":
                    if module:
                        errors.append(f"{at}: includes {header}: a module of {module[0]}/ includes nothing of bots/")
                    continue
                if module is None:  # bots/
                    if target[0] == "arena":
                        errors.append(f"{at}: includes {header}: bots/ includes nothing of arena/")
                    continue
                if target not in rank:
                    errors.append(f"{at}: includes {header}, of {target[0]}/{target[1]}, which no CMakeLists declares")
                    continue
                if module not in rank or target == module:
                    continue
                first_use.setdefault((module, target), at)
                if rank[target] > rank[module]:
                    errors.append(f"{at}: {module[0]}/{module[1]} includes {header}, but {target[0]}/{target[1]} is "
                                  f"declared after it ({target[0]}/CMakeLists.txt)")
    for (a, b), at in sorted(first_use.items()):
        if rank[a] < rank[b] and (b, a) in first_use:
            errors.append(f"{at}: {a[0]}/{a[1]} and {b[0]}/{b[1]} include each other "
                          f"(the other way at {first_use[(b, a)]})")
    return errors


def link_errors(source, order):
    """A module's CMakeLists.txt that links a library (add_library, add_executable) of a module declared after it."""
    rank = {name: i for i, name in enumerate(order)}
    texts, owner = {}, {}
    for module in order:
        try:
            with open(os.path.join(source, *module, "CMakeLists.txt"), encoding="utf-8") as f:
                texts[module] = f.read()
        except OSError:
            continue  # a module without its CMakeLists.txt: folder_errors or the build says so
        for target in TARGET.findall(texts[module]):
            owner[target] = module
    errors = []
    for module, text in texts.items():
        for match in LINK.finditer(text):
            for library in match.group(2).split():
                used = owner.get(library)
                if used and rank[used] > rank[module]:
                    line = text.count("\n", 0, match.start()) + 1
                    errors.append(f"{module[0]}/{module[1]}/CMakeLists.txt:{line}: {match.group(1)} links {library}, "
                                  f"of {used[0]}/{used[1]}, which is declared after {module[0]}/{module[1]}")
    return errors


def architecture_errors(source, order):
    """docs/ARCHITECTURE.md's module tables, read top to bottom, name the declared modules in their order."""
    path = os.path.join(source, "docs", "ARCHITECTURE.md")
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        return [f"docs/ARCHITECTURE.md: cannot read it: {e.strerror}"]
    rows = []
    for number, line in enumerate(lines, 1):
        match = TABLE_ROW.match(line)
        if match:
            rows.append(((match.group(1), match.group(2)), number))
    listed = [name for name, _ in rows]
    if listed == order:
        return []
    for i, (want, got) in enumerate(zip(order, listed)):
        if want != got:
            return [f"docs/ARCHITECTURE.md:{rows[i][1]}: the module tables list {got[0]}/{got[1]} where the declared "
                    f"order has {want[0]}/{want[1]}"]
    if len(listed) < len(order):
        missing = order[len(listed)]
        return [f"docs/ARCHITECTURE.md: the module tables end before {missing[0]}/{missing[1]}"]
    extra = rows[len(order)]
    return [f"docs/ARCHITECTURE.md:{extra[1]}: the module tables list {extra[0][0]}/{extra[0][1]} after the last "
            f"declared module"]


def main(argv):
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(__doc__, file=sys.stderr)
        return 2
    source = argv[0] if argv else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        order = declared_order(source)
    except OrderError as e:
        print(f"check-layers: {e}", file=sys.stderr)
        return 2
    errors = (folder_errors(source, order) + include_errors(source, order) + link_errors(source, order) +
              architecture_errors(source, order))
    for error in errors:
        print(error)
    if errors:
        print(f"check-layers: {len(errors)} problem(s); the module order is that of referee/CMakeLists.txt, then "
              "arena/CMakeLists.txt (docs/ARCHITECTURE.md)", file=sys.stderr)
        return 1
    print(f"check-layers: {len(order)} modules; every include follows their declared order")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
