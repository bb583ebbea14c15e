#!/usr/bin/env python3
"""Sums the log of tools/time-compile.sh (cmake -DKALAH_TIME_BUILD=ON): CPU and wall seconds per target,
the slowest files, and the totals, as Markdown tables for docs/PERFORMANCE.md.

    tools/build-times.py build/build-times.tsv [--top N]
"""
import argparse
import collections
import re
import sys


def target_of(path):
    """The CMake target an output belongs to: objects live in CMakeFiles/<target>.dir/, links are named."""
    m = re.search(r"/CMakeFiles/([^/]+)\.dir/(.*)$", path)
    if m:
        return m.group(1), m.group(2)
    return path.rsplit("/", 1)[-1] + " (link)", "link"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()

    steps = []
    with open(args.log) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 4:
                continue
            wall, user, sys_, out = fields
            steps.append((float(wall), float(user) + float(sys_), out))
    if not steps:
        sys.exit(f"{args.log}: no steps logged")

    per_target = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for wall, cpu, out in steps:
        target, _ = target_of(out)
        entry = per_target[target]
        entry[0] += 1
        entry[1] += cpu
        entry[2] += wall

    compiles = [s for s in steps if "/CMakeFiles/" in s[2]]
    links = [s for s in steps if "/CMakeFiles/" not in s[2]]
    total_cpu = sum(s[1] for s in steps)
    print(f"{len(compiles)} compiles, {sum(s[1] for s in compiles):.0f} CPU-s "
          f"(mean {sum(s[1] for s in compiles) / max(len(compiles), 1):.2f}); "
          f"{len(links)} links, {sum(s[1] for s in links):.0f} CPU-s; total {total_cpu:.0f} CPU-s\n")

    print(f"| target | steps | CPU s | share |")
    print(f"|---|---:|---:|---:|")
    ranked = sorted(per_target.items(), key=lambda kv: -kv[1][1])
    for target, (n, cpu, _) in ranked[: args.top]:
        print(f"| {target} | {n} | {cpu:.1f} | {100 * cpu / total_cpu:.0f}% |")
    rest = ranked[args.top:]
    if rest:
        print(f"| {len(rest)} other targets | {sum(v[0] for _, v in rest)} | {sum(v[1] for _, v in rest):.1f} | "
              f"{100 * sum(v[1] for _, v in rest) / total_cpu:.0f}% |")

    print(f"\n| slowest step | CPU s |")
    print(f"|---|---:|")
    for wall, cpu, out in sorted(steps, key=lambda s: -s[1])[: args.top]:
        target, rest_path = target_of(out)
        name = target if rest_path == "link" else f"{target}: {rest_path.removesuffix('.o')}"
        print(f"| {name} | {cpu:.1f} |")


if __name__ == "__main__":
    main()
