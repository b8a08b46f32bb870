#!/usr/bin/env python3
"""compdb.py - compile_commands.json for editors and clang tools (clangd finds it in build/).

Reads the commands `make -Bn V=1` would run (the build's own, so it never drifts from the
Makefile) on standard input and writes one entry per compiled C file: every gcc/musl-gcc
command with -c and a .c source.  Usage: make compile_commands.json
"""
import json
import os
import shlex
import sys

COMPILERS = {"gcc", "musl-gcc", "cc"}


def entries(lines, top):
    for line in lines:
        try:
            argv = shlex.split(line)
        except ValueError:
            continue
        if not argv or os.path.basename(argv[0]) not in COMPILERS or "-c" not in argv:
            continue
        sources = [a for a in argv if a.endswith((".c", ".S")) and not a.startswith("-")]
        if sources:
            yield {"directory": top, "file": sources[0], "arguments": argv}


def main():
    top = os.getcwd()
    seen, out = set(), []
    for e in entries(sys.stdin, top):
        # a source built twice (kernel and user level, or host tests) keeps its first
        # command: editors want one entry a file
        if e["file"] not in seen:
            seen.add(e["file"])
            out.append(e)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0 if out else 1


if __name__ == "__main__":
    sys.exit(main())
