#!/usr/bin/env python3
"""tests/layout/check_format.py CLANG_FORMAT SOURCE_ROOT: every C and C++ file of src/,
tools/, tests/ and examples/ is as .clang-format at the top of the tree writes it.

On a difference it prints the file and clang-format's first complaints; `clang-format
-i FILE` (the same version, 14, Debian 12's) rewrites a file as the check wants."""
import os
import subprocess
import sys


def sources(root):
    for top in ("src", "tools", "tests", "examples"):
        for d, _, names in os.walk(os.path.join(root, top)):
            if os.sep + "node_modules" in d or os.sep + "snapshots" + os.sep + "out" in d:
                continue
            for n in sorted(names):
                if n.endswith((".c", ".h", ".cpp")):
                    yield os.path.join(d, n)


def main():
    clang_format, root = sys.argv[1], sys.argv[2]
    files = list(sources(root))
    if len(files) < 100:
        print("only %d C files found under %s" % (len(files), root))
        return 1
    bad = 0
    for f in files:
        r = subprocess.run([clang_format, "--style=file", "--dry-run", "--Werror", f], capture_output=True, text=True,
                           cwd=root)
        if r.returncode != 0:
            bad += 1
            print("%s is not formatted:\n%s" % (os.path.relpath(f, root), "\n".join(r.stderr.splitlines()[:6])))
    print("%d files, %d not formatted" % (len(files), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
