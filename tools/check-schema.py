#!/usr/bin/env python3
"""Checks JSON files against a JSON Schema of docs/schema/ (Debian's python3-jsonschema).

  tools/check-schema.py SCHEMA FILE...        each FILE is one JSON document
  tools/check-schema.py --lines SCHEMA FILE...  each line of each FILE is one (games.jsonl)

Prints one line per problem (file:line: message) and exits 1 if there is any, 0 otherwise."""
import json
import sys

import jsonschema


def main(argv):
    lines = argv[:1] == ["--lines"]
    if lines:
        argv = argv[1:]
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    problems = checked = 0
    for path in argv[1:]:
        with open(path, encoding="utf-8") as f:
            documents = [(i + 1, line) for i, line in enumerate(f) if line.strip()] if lines else [(1, f.read())]
        for number, text in documents:
            checked += 1
            for error in validator.iter_errors(json.loads(text)):
                where = "/".join(str(p) for p in error.absolute_path) or "(top)"
                print(f"{path}:{number}: {where}: {error.message}")
                problems += 1
    print(f"checked {checked} document{'s' if checked != 1 else ''}, {problems} problem{'s' if problems != 1 else ''}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
