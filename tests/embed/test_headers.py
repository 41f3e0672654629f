#!/usr/bin/env python3
"""The installed headers in C and C++: tests/embed/test_headers.py SRC_AGAL LIBAGAL_A [B_SANITIZE].

src/agal/ is copied as it is installed (include/agal/), every `static inline`
helper and every AGAL_API function of its headers is listed in all_helpers.inc, and
tests/embed/headers_check.c is compiled with gcc and clang as C (c99, c11, c17) and
with g++ and clang++ as C++ (c++11, c++17, c++20), each with -Wall -Wextra -Werror
-pedantic; the C11 and the C++11 builds are linked against the static library and
run (they check the pure helpers' results; with the build's sanitizers, which the
library was compiled with). Then each header alone, as the first include of a file
(after only the API's own header for vulkan.h and gl.h), compiles as C99 and C++11:
each includes what it builds on. A missing compiler fails the test."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FLAGS = ["-Wall", "-Wextra", "-Werror", "-pedantic"]
BUILDS = [("gcc", "c", "c99"), ("gcc", "c", "c11"), ("gcc", "c", "c17"), ("clang", "c", "c99"), ("clang", "c", "c11"),
          ("clang", "c", "c17"), ("g++", "c++", "c++11"), ("g++", "c++", "c++17"), ("g++", "c++", "c++20"),
          ("clang++", "c++", "c++11"), ("clang++", "c++", "c++17"), ("clang++", "c++", "c++20")]
RUN = {("gcc", "c11"), ("g++", "c++11")}


def names(headers):
    found = []
    for h in sorted(os.listdir(headers)):
        if not h.endswith(".h"):
            continue
        text = open(os.path.join(headers, h)).read()
        found += re.findall(r"^static inline [^(;]*?\b(agal_\w+)\(", text, re.M)
        found += re.findall(r"^AGAL_API [^(;]*?\b(agal_\w+)\(", text, re.M)
    return found


# What an application includes before each header that maps the kit to an API.
PREREQUISITE = {"vulkan.h": "#include <vulkan/vulkan.h>\n", "gl.h": "#define GL_GLEXT_PROTOTYPES 1\n#include <GL/glcorearb.h>\n"}


def alone(tmp):
    """Each header on its own compiles as C99 and as C++11; the number that do not."""
    failed = 0
    for h in sorted(os.listdir(os.path.join(tmp, "include", "agal"))):
        if not h.endswith(".h"):
            continue
        unit = os.path.join(tmp, "alone_" + h.replace(".h", ".c"))
        with open(unit, "w") as f:
            f.write(PREREQUISITE.get(h, "") + "#include <agal/%s>\nint agal_alone_%s;\n" % (h, h[:-2]))
        for cc, lang, std in (("gcc", "c", "c99"), ("g++", "c++", "c++11")):
            r = subprocess.run([cc, "-x", lang, "-std=" + std, *FLAGS, "-I" + os.path.join(tmp, "include"), "-c", unit,
                                "-o", unit + ".o"], capture_output=True, text=True)
            if r.returncode != 0:
                failed += 1
                print("<agal/%s> alone, %s -std=%s: %s" % (h, cc, std, r.stderr.strip()[:2000]))
    print("each header alone: %d failed" % failed)
    return failed


def main():
    src_agal, lib = sys.argv[1], sys.argv[2]
    sanitize = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] not in ("", "none") else ""
    failed = 0
    with tempfile.TemporaryDirectory(prefix="agal-headers-") as tmp:
        shutil.copytree(src_agal, os.path.join(tmp, "include", "agal"))
        helpers = names(os.path.join(tmp, "include", "agal"))
        if len(helpers) < 80:
            print("only %d helpers and functions found in %s" % (len(helpers), src_agal))
            return 1
        with open(os.path.join(tmp, "all_helpers.inc"), "w") as f:
            f.write("".join("    (const void *)(size_t)&%s,\n" % n for n in helpers))
        for cc, lang, std in BUILDS:
            if not shutil.which(cc):
                print("%s is not installed: the headers must be checked with it" % cc)
                return 1
            exe = os.path.join(tmp, "check-%s-%s" % (cc, std))
            link = (cc, std) in RUN
            cmd = [cc, "-x", lang, "-std=" + std, *FLAGS, "-I" + os.path.join(tmp, "include"), "-I" + tmp,
                   os.path.join(HERE, "headers_check.c")]
            san = ["-fsanitize=" + sanitize] if sanitize and link else []
            cmd += ["-x", "none", *san, lib, "-lvulkan", "-lOpenGL", "-lm", "-o", exe] if link else ["-c", "-o", exe + ".o"]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                failed += 1
                print("%s -std=%s: %s" % (cc, std, r.stderr.strip()[:3000]))
                continue
            if link:
                r = subprocess.run([exe], capture_output=True, text=True)
                print("%s -std=%s: %s" % (cc, std, (r.stdout + r.stderr).strip()))
                failed += r.returncode != 0
            else:
                print("%s -std=%s: compiles" % (cc, std))
        failed += alone(tmp)
    print("headers: %d helpers and functions, %d builds, %d failed" % (len(helpers), len(BUILDS), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
