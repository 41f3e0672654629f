#!/usr/bin/env python3
"""The shared library exports exactly the public API.

  check_exports.py --nm NM --lib libagal.so HEADER_DIR

Every symbol `nm -D --defined-only` lists in the shared library must be a function
(or object) that a header of HEADER_DIR (src/agal/, the installed headers) declares
with AGAL_API; every AGAL_API declaration must be exported; and every external
declaration in those headers must carry AGAL_API. Then the same check is run on
faults injected into what was read (an extra exported symbol, a missing one, a
declaration without the marker), each of which it must report by name: the check
can fail.
"""

import argparse
import os
import re
import subprocess
import sys

MARKER = "AGAL_API"


def strip(text):
    """The header without comments, preprocessor lines or the extern "C" wrapper."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = text.replace("\\\n", " ")
    text = re.sub(r"^[ \t]*#[^\n]*", " ", text, flags=re.M)
    text = re.sub(r"^AGAL_STRUCT_INIT\(\w+\)", " ", text, flags=re.M)  # static inline functions, no symbol
    return re.sub(r'extern\s+"C"\s*\{', " ", text)


def statements(text):
    """Top-level statements: up to a `;` outside braces, or a function body's `}`."""
    out, cur, depth = [], [], 0
    for ch in text:
        if ch == "}" and depth == 0:
            continue  # closes the extern "C" block strip() opened nothing for
        cur.append(ch)
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0 and re.search(r"\)\s*\{", "".join(cur)) and not "".join(cur).lstrip().startswith(
                    ("typedef", "enum", "struct", "union")):
                out.append("".join(cur))  # a function definition (static inline)
                cur = []
        elif ch == ";" and depth == 0:
            out.append("".join(cur))
            cur = []
    return [" ".join(s.split()) for s in out if s.strip()]


def declarations(text):
    """(name, has AGAL_API) for every declaration of an external symbol."""
    found = []
    for s in statements(strip(text)):
        words = re.findall(r"\w+", s.split("(")[0])
        if not words or words[0] == "typedef" or "static" in words:
            continue  # a type, or internal linkage (inline helpers)
        if re.fullmatch(r"(enum|struct|union)(\s+\w+)?\s*(\{.*\})?\s*;?", s):
            continue  # a type's definition or forward declaration, declaring no symbol
        pointer = re.match(r"[^(]*\(\s*\*\s*(\w+)\s*\)", s)
        if pointer:
            name = pointer.group(1)  # a pointer to a function: void (*name)(int)
        elif "(" in s:
            name = re.findall(r"\w+", s.split("(")[0])[-1]
        else:
            name = re.findall(r"\w+", re.split(r"[=\[;]", s)[0])[-1]
        found.append((name, MARKER in words))
    return found


def read_headers(folder):
    decls = {}
    for f in sorted(os.listdir(folder)):
        if f.endswith(".h"):
            with open(os.path.join(folder, f), encoding="utf-8") as fh:
                text = fh.read()
            decls[f] = declarations(text)
            marked = len(re.findall(r"\b%s\b" % MARKER, strip(text)))
            if marked != sum(1 for _, api in decls[f] if api):
                sys.exit("FAIL: %s: %d %s markers, %d marked declarations parsed: the parser is wrong"
                         % (f, marked, MARKER, sum(1 for _, api in decls[f] if api)))
    return decls


def exported(nm, lib):
    r = subprocess.run([nm, "-D", "--defined-only", lib], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("FAIL: %s -D --defined-only %s: %s" % (nm, lib, r.stderr.strip()))
    return {line.split()[-1] for line in r.stdout.splitlines() if len(line.split()) == 3}


def check(decls, symbols):
    """The problems, one line each; empty when the exports are exactly the API."""
    problems = []
    api = set()
    for f, ds in decls.items():
        for name, marked in ds:
            if marked:
                api.add(name)
            else:
                problems.append("%s: %s is declared without %s" % (f, name, MARKER))
    problems += ["exported but not declared with %s: %s" % (MARKER, s) for s in sorted(symbols - api)]
    problems += ["declared with %s but not exported: %s" % (MARKER, s) for s in sorted(api - symbols)]
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nm", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("headers")
    args = ap.parse_args()

    decls = read_headers(args.headers)
    symbols = exported(args.nm, args.lib)
    api = sorted(n for ds in decls.values() for n, marked in ds if marked)
    if not api or not symbols:
        print("FAIL: %d API declarations, %d exported symbols: nothing to compare" % (len(api), len(symbols)))
        return 1
    problems = check(decls, symbols)
    for p in problems:
        print("FAIL: " + p)
    print("%d symbols exported, %d functions declared with %s in %s" % (
        len(symbols), len(api), MARKER, ", ".join(sorted(decls))))

    # The check must catch each kind of fault, naming it.
    injected = [
        ("an extra export", decls, symbols | {"agal_injected_internal"},
         "not declared with %s: agal_injected_internal" % MARKER),
        ("a missing export", decls, symbols - {api[0]}, "not exported: " + api[0]),
        ("a declaration without the marker",
         dict(decls, **{"probe.h": declarations("void agal_probe(int x);\n")}), symbols,
         "agal_probe is declared without " + MARKER),
    ]
    missed = 0
    for what, d, s, want in injected:
        got = check(d, s)
        if len(got) != len(problems) + 1 or not any(want in g for g in got):
            print("FAIL: %s was not reported (%s): %s" % (what, want, got))
            missed += 1
        else:
            print("fault injection, %s: reported (%s)" % (what, want))
    return 1 if problems or missed else 0


if __name__ == "__main__":
    sys.exit(main())
