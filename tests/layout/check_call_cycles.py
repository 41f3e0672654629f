#!/usr/bin/env python3
"""tests/layout/check_call_cycles.py NM BUILDDIR: no call cycle among the files of src/ and tools/.

Each object file of the library's stages and of the tools is read with nm: a file
"calls" another when it uses (U) a symbol the other defines (T, D, B, R). A cycle in
that graph means two files cannot be read, tested or linked one after the other,
which the layout promises (docs/internals.md, "Source layout"); the test prints each cycle found.
Objects of tests/ are left out: a test may call anything."""
import os
import subprocess
import sys


def objects(build):
    for root, _, files in os.walk(build):
        rel = os.path.relpath(root, build)
        if not (rel.startswith("src") or rel.startswith("tools")):
            continue
        for f in files:
            if f.endswith(".o"):
                yield os.path.join(root, f)


def main():
    nm, build = sys.argv[1], sys.argv[2]
    defines, uses = {}, {}
    for obj in objects(build):
        # meson names an object after its source path (src/ir/build.c: ir_build.c.o),
        # the same in every target that compiles it
        name = os.path.basename(obj)[:-2]
        out = subprocess.run([nm, "--defined-only", "-g", obj], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3:
                defines.setdefault(parts[2], set()).add(name)
        out = subprocess.run([nm, "-u", obj], capture_output=True, text=True, check=True).stdout
        uses.setdefault(name, set()).update(line.split()[-1] for line in out.splitlines() if line.strip())
    if len(uses) < 40:
        print("only %d object files found under %s: is the build complete?" % (len(uses), build))
        return 1
    graph = {f: {d for s in syms for d in defines.get(s, ()) if d != f} for f, syms in uses.items()}
    cycles, state, stack = [], {}, []

    def visit(f):
        state[f] = 1
        stack.append(f)
        for g in sorted(graph.get(f, ())):
            if state.get(g) == 1:
                cycles.append(stack[stack.index(g):] + [g])
            elif g not in state:
                visit(g)
        stack.pop()
        state[f] = 2

    for f in sorted(graph):
        if f not in state:
            visit(f)
    for c in cycles:
        print("call cycle: " + " -> ".join(c))
    print("%d files, %d calls between files, %d cycles" % (len(graph), sum(map(len, graph.values())), len(cycles)))
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main())
