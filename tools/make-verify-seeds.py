#!/usr/bin/env python3
"""Writes the fuzz seeds of hostile archives for fuzz_verify (tests/fuzz/corpus/verify/special-*.tar.gz).

Each is a .tar.gz that `arena verify` must refuse without writing outside its scratch folder: a member
that is a FIFO, a character or block device, a hard link (inside and to a file outside), a symbolic link
pointing outside (alone, and followed by a file written "through" it), or a path with '..'. The bytes are
deterministic (time 0 in the tar and gzip headers), so running this again changes nothing.
Usage: tools/make-verify-seeds.py [OUTPUT_DIR]   (default: tests/fuzz/corpus/verify)
"""
import gzip
import io
import os
import sys
import tarfile

JOURNAL = b'{"schema":1,"id":"r1-0v1-p0-g0"}\n'


def regular(name, data=JOURNAL):
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), 0o644, 0
    return info, data


def special(name, kind, link="", major=0, minor=0):
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.mode, info.mtime = kind, link, 0o644, 0
    info.devmajor, info.devminor = major, minor
    return info, None


SEEDS = {
    "special-fifo": [regular("r/games.jsonl"), special("r/tournament.json", tarfile.FIFOTYPE)],
    "special-chardev": [regular("r/games.jsonl"), special("r/zero", tarfile.CHRTYPE, major=1, minor=5)],
    "special-blockdev": [regular("r/games.jsonl"), special("r/disk", tarfile.BLKTYPE, major=8, minor=0)],
    "special-hardlink": [regular("r/games.jsonl"), special("r/copy", tarfile.LNKTYPE, link="r/games.jsonl")],
    "special-hardlink-outside": [regular("r/games.jsonl"), special("r/passwd", tarfile.LNKTYPE, link="/etc/passwd")],
    "special-symlink-outside": [special("r/games.jsonl", tarfile.SYMTYPE, link="/etc/passwd")],
    "special-symlink-then-write": [special("r/out", tarfile.SYMTYPE, link="../../.."), regular("r/out/evil")],
    "special-dotdot": [regular("r/games.jsonl"), regular("r/../../evil")],
}


def write(path, members):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    packed = io.BytesIO()
    with gzip.GzipFile(fileobj=packed, mode="wb", mtime=0, filename="") as gz:
        gz.write(raw.getvalue())
    with open(path, "wb") as out:
        out.write(packed.getvalue())


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "fuzz",
                                                               "corpus", "verify")
    for name, members in SEEDS.items():
        write(os.path.join(out, name + ".tar.gz"), members)
        print(os.path.join(out, name + ".tar.gz"))


if __name__ == "__main__":
    main()
