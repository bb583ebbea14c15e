#!/usr/bin/env python3
"""Checks that the sources stay in small pieces (docs/ARCHITECTURE.md): no source file over 600 lines and no
function over 100 lines under arena/, referee/ and bots/.

  tools/check-sizes.py [SOURCE_DIR] [--build BUILD_DIR] [--jobs N] [--skip-without-libclang]

SOURCE_DIR defaults to the checkout this script is in, BUILD_DIR to SOURCE_DIR/build. Every .cpp and .h under
arena/, referee/ and bots/ is checked. A file's size is its number of lines. A function's size is the number of
lines its body spans, from the line of its opening brace to the line of its closing one (a function-try-block
from `try`); free functions, methods, constructors, destructors, operators and templates count, a lambda counts
as part of the function it is written in (and a lambda that initialises a variable outside any function as a
function of the variable's name), and so does a class defined inside a function. Only definitions located in
the file being checked count: a header's inline functions are measured in the header, not in every file that
includes it.

Functions are found with libclang (Debian's python3-clang-14), not by matching braces: the compiler's own parser
sees through macros, raw strings, digraphs, character literals such as '{' and comments, and knows where a
definition starts (a template header, a constructor's initialiser list) and which names are definitions at all,
none of which a scanner of braces can tell for certain. Each file is parsed with its own flags from
BUILD_DIR/compile_commands.json (the project's build exports it; a source compiled inside a unity batch takes
the batch's flags, a header those of the source of its name or of its folder), without the build's precompiled
header; a file with no command there is parsed with `-std=c++20 -I SOURCE_DIR`. A parse error means those flags
are wrong, so the measure could be: the check then stops (exit 2) rather than guess.

Offenders still owned by the rewrite of arena/config are listed in tools/sizes-pending.txt, one `path` (the
file's length) or `path:function` (a function, named as this check names it: `Class::method`) a line, each
with a `# why` comment; only files under arena/config/ and arena/app/ may be listed. They are reported as
pending and do not fail the check, but an entry that is no longer over its limit does, so the list can only
shrink.

Prints one line per offender (file:line: what is too long, by how much) and exits 1 if there is any, or if
sizes-pending.txt holds an entry that is no longer over or may not be there; otherwise prints a one-line
summary and exits 0. Exits 2 when the check cannot be made (libclang missing, a file that does not parse), or
77 for a missing libclang with --skip-without-libclang (ctest's skip code: the test says why it did not run)."""
import argparse
import json
import os
import re
import shlex
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor

MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 100
CHECKED_FOLDERS = ("arena", "referee", "bots")
SOURCE_SUFFIXES = (".cpp", ".h")
PENDING_FILE = os.path.join("tools", "sizes-pending.txt")
PENDING_MAY_LIST = ("arena/config/", "arena/app/")
SKIP_CODE = 77
DEBIAN_PYTHON_PACKAGES = "/usr/lib/python3/dist-packages"  # where python3-clang-14 installs `clang`


class CannotCheck(Exception):
    pass


def import_libclang():
    """clang.cindex, from this interpreter's packages or else from Debian's (a python3 other than Debian's,
    such as a pyenv one, does not look there); None when neither has it."""
    try:
        import clang.cindex as cindex
        return cindex
    except ImportError:
        pass
    if DEBIAN_PYTHON_PACKAGES not in sys.path:
        sys.path.append(DEBIAN_PYTHON_PACKAGES)
    try:
        import clang.cindex as cindex
        return cindex
    except ImportError:
        return None


def checked_files(source):
    """The relative paths of every checked source file, in a stable order."""
    found = []
    for folder in CHECKED_FOLDERS:
        for root, dirs, files in os.walk(os.path.join(source, folder)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    found.append(os.path.relpath(os.path.join(root, name), source))
    return found


def line_count(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return len(f.read().splitlines())


# --- the flags each file is parsed with --------------------------------------------------------------------

def parse_flags(command, directory):
    """The options of a compile command that change what the parser sees: include paths, macros and the
    language standard. Everything else (optimisation, warnings, the precompiled header, -o, -c) is dropped."""
    args = command["arguments"] if "arguments" in command else shlex.split(command["command"])
    kept = []
    i = 1  # args[0] is the compiler
    while i < len(args):
        arg = args[i]
        if arg in ("-I", "-isystem", "-iquote", "-D", "-U", "-idirafter") and i + 1 < len(args):
            value = args[i + 1]
            if arg in ("-I", "-isystem", "-iquote", "-idirafter"):
                value = os.path.join(directory, value)
            kept += [arg, value]
            i += 2
            continue
        if arg.startswith(("-I", "-iquote")) and not arg.startswith("-isystem"):
            flag = "-I" if arg.startswith("-I") else "-iquote"
            kept.append(flag + os.path.join(directory, arg[len(flag):]))
        elif arg.startswith(("-D", "-U", "-std=")):
            kept.append(arg)
        i += 1
    return kept


def unity_members(path):
    """The sources a CMake unity batch includes (its lines `#include "/abs/path.cpp"`), or []."""
    members = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line.startswith("#include \"") and line.endswith("\""):
                    members.append(os.path.normpath(line[len("#include \""):-1]))
    except OSError:
        return []
    return members


def flags_by_file(source, build):
    """{absolute source path: parse flags} from BUILD_DIR/compile_commands.json ({} when there is none)."""
    path = os.path.join(build, "compile_commands.json")
    if not os.path.isfile(path):
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            commands = json.load(f)
    except (OSError, ValueError) as e:
        raise CannotCheck(f"{path}: cannot read it: {e}") from e
    by_file = {}
    for command in commands:
        directory = command.get("directory", build)
        file = os.path.normpath(os.path.join(directory, command["file"]))
        flags = parse_flags(command, directory)
        members = unity_members(file) if "/Unity/unity_" in file else []
        for member in members or [file]:
            by_file.setdefault(member, flags)
    return by_file


def flags_for(relative, source, by_file):
    """The flags to parse one checked file with: its own command's; for a header, those of the source of the
    same name, else of any source in its folder; else the defaults. Always C++, since a header is parsed on
    its own."""
    full = os.path.normpath(os.path.join(source, relative))
    flags = by_file.get(full)
    if flags is None and full.endswith(".h"):
        flags = by_file.get(full[:-2] + ".cpp")
        if flags is None:
            folder = os.path.dirname(full) + os.sep
            flags = next((f for name, f in sorted(by_file.items()) if name.startswith(folder)
                          and os.sep not in name[len(folder):]), None)
    if flags is None:
        flags = ["-std=c++20", "-I" + source]
    return ["-x", "c++"] + flags


def precompile_standard_headers(source, folder):
    """The standard library headers that the build precompiles (cmake/pch.cmake's KALAH_PCH_STD_HEADERS),
    precompiled by libclang into `folder`, or None. Only a speed-up (about three times fewer seconds a file):
    a file that does not parse with it is parsed again without it."""
    try:
        with open(os.path.join(source, "cmake", "pch.cmake"), encoding="utf-8") as f:
            listed = re.search(r"set\(KALAH_PCH_STD_HEADERS([^)]*)\)", f.read())
    except OSError:
        return None
    headers = re.findall(r"<[\w./]+>", listed.group(1)) if listed else []
    if not headers:
        return None
    header = os.path.join(folder, "std.hxx")
    with open(header, "w", encoding="utf-8") as f:
        f.writelines(f"#include {h}\n" for h in headers)
    cindex = import_libclang()
    try:
        unit = cindex.Index.create().parse(header, args=["-x", "c++-header", "-std=c++20"])
        if any(d.severity >= cindex.Diagnostic.Error for d in unit.diagnostics):
            return None
        unit.save(header + ".pch")
    except (cindex.TranslationUnitLoadError, cindex.TranslationUnitSaveError):
        return None
    return header + ".pch"


# --- measuring the functions of one file -------------------------------------------------------------------

def measure(job):
    """(relative path, [(function name, first line, body lines)], [parse errors]) for one file."""
    relative, full, flags, pch = job
    cindex = import_libclang()
    kinds = cindex.CursorKind
    functions = {kinds.FUNCTION_DECL, kinds.CXX_METHOD, kinds.CONSTRUCTOR, kinds.DESTRUCTOR,
                 kinds.CONVERSION_FUNCTION, kinds.FUNCTION_TEMPLATE}
    scopes = {kinds.NAMESPACE, kinds.CLASS_DECL, kinds.STRUCT_DECL, kinds.UNION_DECL, kinds.CLASS_TEMPLATE,
              kinds.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION, kinds.LINKAGE_SPEC, kinds.UNEXPOSED_DECL}
    classes = {kinds.CLASS_DECL, kinds.STRUCT_DECL, kinds.UNION_DECL, kinds.CLASS_TEMPLATE,
               kinds.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION}
    bodies = {kinds.COMPOUND_STMT, kinds.CXX_TRY_STMT}

    def parse(args):
        """The translation unit and its errors."""
        try:
            unit = cindex.Index.create().parse(full, args=args)
        except cindex.TranslationUnitLoadError as e:
            return None, [f"{relative}: libclang cannot parse it: {e}"]
        return unit, [f"{d.location.file}:{d.location.line}: {d.spelling}" for d in unit.diagnostics
                      if d.severity >= cindex.Diagnostic.Error]

    unit, errors = parse(flags + ["-include-pch", pch]) if pch else (None, ["no precompiled header"])
    if errors:
        unit, errors = parse(flags)
    if errors:
        return relative, [], errors

    same = {}  # file name as libclang spells it -> whether it is the checked file

    def in_file(cursor):
        file = cursor.location.file
        if file is None:
            return False
        if file.name not in same:
            same[file.name] = os.path.exists(file.name) and os.path.samefile(file.name, full)
        return same[file.name]

    def name_of(cursor):
        names = [cursor.spelling]
        parent = cursor.semantic_parent
        while parent is not None and parent.kind in classes:
            names.append(parent.spelling)
            parent = parent.semantic_parent
        return "::".join(reversed(names))

    def body_lines(cursor):
        body = [child for child in cursor.get_children() if child.kind in bodies]
        if not body:
            return None  # = default, = delete, or a declaration
        extent = body[-1].extent
        return extent.end.line - extent.start.line + 1

    def lambdas(cursor):
        """The outermost lambdas in a declaration's initialiser."""
        for child in cursor.get_children():
            if child.kind == kinds.LAMBDA_EXPR:
                yield child
            else:
                yield from lambdas(child)

    found = []

    def visit(scope):
        for cursor in scope.get_children():
            if not in_file(cursor):
                continue
            if cursor.kind in functions:
                lines = body_lines(cursor) if cursor.is_definition() else None
                if lines is not None:
                    found.append((name_of(cursor), cursor.extent.start.line, lines))
            elif cursor.kind in (kinds.VAR_DECL, kinds.FIELD_DECL):
                for lambda_ in lambdas(cursor):
                    lines = body_lines(lambda_)
                    if lines is not None:
                        found.append((name_of(cursor), lambda_.extent.start.line, lines))
            elif cursor.kind in scopes:
                visit(cursor)

    visit(unit.cursor)
    return relative, found, []


# --- the pending list ----------------------------------------------------------------------------------------

def read_pending(source):
    """[(line number, entry)] of tools/sizes-pending.txt and [problems with its lines]."""
    path = os.path.join(source, PENDING_FILE)
    entries, problems = [], []
    if not os.path.exists(path):
        return entries, problems
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            entry, _, why = line.partition("#")
            entry = entry.strip()
            if not entry:
                continue
            where = f"{PENDING_FILE}:{number}"
            if not why.strip():
                problems.append(f"{where}: {entry}: say why it is pending in a `# why` comment")
            elif not entry.startswith(PENDING_MAY_LIST):
                problems.append(f"{where}: {entry}: only files under {' and '.join(PENDING_MAY_LIST)} may be pending")
            else:
                entries.append((number, entry))
    return entries, problems


# --- the check -----------------------------------------------------------------------------------------------

def check(source, build, jobs):
    """(exit code, lines to print)."""
    files = checked_files(source)
    by_file = flags_by_file(source, build)
    offenders = []  # (pending key, message)
    for relative in files:
        lines = line_count(os.path.join(source, relative))
        if lines > MAX_FILE_LINES:
            offenders.append((relative, f"{relative}: {lines} lines (over {MAX_FILE_LINES})"))
    errors = []
    functions = 0
    with tempfile.TemporaryDirectory(prefix="check-sizes-") as folder, \
            ProcessPoolExecutor(max_workers=jobs) as pool:
        pch = precompile_standard_headers(source, folder)
        jobs_list = [(relative, os.path.join(source, relative), flags_for(relative, source, by_file), pch)
                     for relative in files]
        for relative, found, parse_errors in pool.map(measure, jobs_list):
            errors += parse_errors
            functions += len(found)
            for name, line, lines in found:
                if lines > MAX_FUNCTION_LINES:
                    offenders.append((f"{relative}:{name}",
                                      f"{relative}:{line}: {name}: {lines} lines (over {MAX_FUNCTION_LINES})"))
    if errors:
        raise CannotCheck("cannot measure the functions, a file does not parse (wrong flags?):\n  " +
                          "\n  ".join(errors[:20]))

    pending, problems = read_pending(source)
    pending_keys = {entry for _, entry in pending}
    over_keys = {key for key, _ in offenders}
    out = []
    failing = [message for key, message in offenders if key not in pending_keys]
    out += failing
    out += [f"pending: {message}" for key, message in offenders if key in pending_keys]
    for number, entry in pending:
        if entry not in over_keys:
            problems.append(f"{PENDING_FILE}:{number}: {entry} is no longer over its limit: remove the line")
    out += problems
    if failing or problems:
        return 1, out
    held = len(offenders)
    out.append(f"check-sizes: {len(files)} files, {functions} functions: none over {MAX_FILE_LINES} lines a file "
               f"or {MAX_FUNCTION_LINES} a function" + (f" ({held} pending in {PENDING_FILE})" if held else ""))
    return 0, out


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", default=here, help="the checkout (default: this script's)")
    parser.add_argument("--build", help="the build tree with compile_commands.json (default: SOURCE/build)")
    parser.add_argument("--jobs", "-j", type=int, default=len(os.sched_getaffinity(0)),
                        help="files parsed at once (default: the CPUs this process may use)")
    parser.add_argument("--skip-without-libclang", action="store_true",
                        help=f"exit {SKIP_CODE} (ctest's skip) instead of 2 when libclang is missing")
    args = parser.parse_args()
    source = os.path.abspath(args.source)
    build = os.path.abspath(args.build) if args.build else os.path.join(source, "build")
    if import_libclang() is None:
        print("check-sizes: libclang's Python bindings are missing (apt-get install python3-clang-14)",
              file=sys.stderr)
        return SKIP_CODE if args.skip_without_libclang else 2
    try:
        code, out = check(source, build, max(1, args.jobs))
    except CannotCheck as e:
        print(f"check-sizes: {e}", file=sys.stderr)
        return 2
    for line in out:
        print(line)
    return code


if __name__ == "__main__":
    sys.exit(main())
