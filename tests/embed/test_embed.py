#!/usr/bin/env python3
"""The library alone, as an emulator builds and uses it.

  test_embed.py --meson MESON --cc "CC" --source SRCDIR

In a temporary folder, with no glslang, SPIRV-Tools, Vulkan, EGL/GL, GLFW, libpng
or cJSON to be found (pkg-config reads an empty folder, CMake and the C++ compiler
are names that do not exist, VULKAN_SDK is an empty folder) and every option left
`auto`:

1. `meson setup` must succeed, find none of them, and say so (the summary);
2. `meson install` builds the library (and what else needs nothing) and installs
   it under a temporary prefix: every file of src/agal/, the versioned shared
   library, the static one, agal.pc, every docs/*.md under share/doc/agal/ and the
   man pages of the tools built (agalasm, agaldis) and no others;
3. tests/embed/embed_program.c is compiled and run with only `pkg-config --cflags --libs
   agal` (shared) and `pkg-config --cflags --libs --static agal` (-static), whose
   libraries must be the library and libm, no C++ runtime;
4. the same configuration with -Dauto_features=enabled (CI's) must stop at each
   missing dependency in turn, naming it, until each one's option is disabled.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

# What the machine is made to lack, as the summary names each, and the dependency
# names meson may report found (the library's own: libm; the tests': threads, dl).
ABSENT = ["glslang", "SPIRV-Tools", "C++ (glslang, SPIRV-Tools)", "Vulkan", "EGL + OpenGL", "GLFW", "libpng", "cJSON"]
ALLOWED_FOUND = {"m", "threads", "dl"}
# -Dauto_features=enabled: the dependency each failure must name, and the option
# that turns it off for the next round.
ENABLED_CHAIN = [("SPIRV-Tools", "spirv_tools"), ("spirv", "glslang"), ("vulkan", "vulkan"), ("egl", "gl"),
                 ("glfw3", "glfw"), ("libpng", "libpng"), ("libcjson", "cjson")]


class Failure(Exception):
    pass


def run(cmd, env, timeout=300):
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout + r.stderr


def must(cmd, env, what):
    rc, out = run(cmd, env)
    if rc != 0:
        raise Failure("%s failed (%d): %s\n%s" % (what, rc, " ".join(cmd), out))
    return out


def bare_env(tmp):
    """The environment where the optional dependencies cannot be found."""
    empty = os.path.join(tmp, "empty")
    os.mkdir(empty)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PKG_CONFIG", "CMAKE", "MESON"))}
    env.update(PKG_CONFIG_LIBDIR=empty, VULKAN_SDK=empty, CXX="/nonexistent/c++")
    native = os.path.join(tmp, "no-deps.ini")
    with open(native, "w") as f:
        f.write("[binaries]\ncpp = '/nonexistent/c++'\ncmake = '/nonexistent/cmake'\n")
    return env, native


def check_configure(out):
    for name in ABSENT:
        if not re.search(r"^\s*%s\s*: NO$" % re.escape(name), out, re.M):
            raise Failure("the configure summary does not show %s absent:\n%s" % (name, out))
    found = set(re.findall(r"^(?:Run-time dependency|Dependency|Library) (\S+) found: YES", out, re.M))
    if found - ALLOWED_FOUND:
        raise Failure("configure found %s, which this machine was made to lack:\n%s" % (sorted(found - ALLOWED_FOUND),
                                                                                         out))
    if re.search(r"C\+\+ compiler|language cpp", out):
        raise Failure("configure looked for a C++ compiler:\n" + out)
    tools = re.search(r"^\s*built\s*: (.*)$", out, re.M)
    if not tools or tools.group(1).split() != ["agalasm", "agaldis"]:
        raise Failure("tools built without dependencies should be agalasm agaldis: %s" % (tools and tools.group(1)))


def check_installed(source, prefix, version):
    want = sorted(os.listdir(os.path.join(source, "src", "agal")))
    have = sorted(os.listdir(os.path.join(prefix, "include", "agal")))
    if have != want:
        raise Failure("include/agal/ holds %s, src/agal/ %s" % (have, want))
    lib = os.path.join(prefix, "lib")
    so = os.path.join(lib, "libagal.so." + version)
    for f, link in [("libagal.so", "libagal.so.2"), ("libagal.so.2", "libagal.so." + version)]:
        if os.readlink(os.path.join(lib, f)) != link:
            raise Failure("%s should link to %s" % (f, link))
    for f in [so, os.path.join(lib, "libagal.a"), os.path.join(lib, "pkgconfig", "agal.pc")]:
        if not os.path.isfile(f):
            raise Failure("not installed: " + f)
    docs = sorted(["NEWS.md"] + [f for f in os.listdir(os.path.join(source, "docs")) if f.endswith(".md")])
    have = sorted(os.listdir(os.path.join(prefix, "share", "doc", "agal")))
    if have != docs:
        raise Failure("share/doc/agal/ holds %s, docs/ %s" % (have, docs))
    man = sorted(os.listdir(os.path.join(prefix, "share", "man", "man1")))
    if man != ["agalasm.1", "agaldis.1"]:  # the pages of the tools built, no more
        raise Failure("share/man/man1/ holds %s, want agalasm.1 agaldis.1" % man)
    return so


def use_installed(args, tmp, prefix, env):
    """Compile and run embed_program.c with only pkg-config's flags, shared and static."""
    env = dict(env, PKG_CONFIG_LIBDIR=os.path.join(prefix, "lib", "pkgconfig"))
    version = must(["pkg-config", "--modversion", "agal"], env, "pkg-config").strip()
    flags = must(["pkg-config", "--cflags", "--libs", "agal"], env, "pkg-config").split()
    static = must(["pkg-config", "--cflags", "--libs", "--static", "agal"], env, "pkg-config").split()
    libs = [f for f in static if f.startswith("-l")]
    if libs != ["-lagal", "-lm"]:
        raise Failure("pkg-config --libs --static agal gives %s, not -lagal -lm" % static)
    cc = shlex.split(args.cc) + ["-std=c11", "-pedantic", "-Wall", "-Wextra", "-Werror"]
    program = os.path.join(args.source, "tests", "embed", "embed_program.c")
    results = []
    for kind, extra, link in [("shared", flags, []), ("static", static, ["-static"])]:
        exe = os.path.join(tmp, "embed_" + kind)
        must(cc + [program, "-o", exe] + link + extra, env, "compiling embed_program.c (%s)" % kind)
        dynamic = must(["readelf", "-d", exe], env, "readelf")
        if ("[libagal.so.2]" in dynamic) != (kind == "shared"):
            raise Failure("embed_%s: libagal.so.2 %s its dynamic section" % (kind, "missing from" if kind == "shared"
                                                                              else "in"))
        if re.search(r"\[lib(std)?c\+\+", dynamic):
            raise Failure("embed_%s needs a C++ runtime:\n%s" % (kind, dynamic))
        run_env = dict(env, LD_LIBRARY_PATH=os.path.join(prefix, "lib"))
        results.append(must([exe, version], run_env, "embed_" + kind).strip())
    return version, results


def check_enabled_chain(args, tmp, env, native):
    """-Dauto_features=enabled stops at each missing dependency, naming it."""
    disabled = []
    for dep, option in ENABLED_CHAIN:
        rc, out = run([args.meson, "setup", "--native-file", native, "-Dauto_features=enabled"] + disabled +
                      [os.path.join(tmp, "build-enabled"), args.source], env)
        if rc == 0 or not re.search(r'ERROR: Dependency "%s" not found' % re.escape(dep), out, re.I):
            raise Failure("with -Dauto_features=enabled %s meson setup should stop on %s:\n%s" % (
                " ".join(disabled), dep, out[-2000:]))
        print("auto_features=enabled %s: %s" % (" ".join(disabled) or "(all)",
                                                re.search(r"ERROR: .*", out).group(0)))
        disabled.append("-D%s=disabled" % option)
        shutil.rmtree(os.path.join(tmp, "build-enabled"), ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meson", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="agal-embed-")
    try:
        env, native = bare_env(tmp)
        build, prefix = os.path.join(tmp, "build"), os.path.join(tmp, "prefix")
        t0 = time.monotonic()
        out = must([args.meson, "setup", "--native-file", native, "--prefix", prefix, "--libdir", "lib",
                    build, args.source], env, "meson setup")
        check_configure(out)
        t1 = time.monotonic()
        must([args.meson, "install", "-C", build], env, "meson install")
        t2 = time.monotonic()
        info = json.loads(must([args.meson, "introspect", "--projectinfo", build], env, "meson introspect"))
        so = check_installed(args.source, prefix, info["version"])
        version, results = use_installed(args, tmp, prefix, env)
        if version != info["version"]:
            raise Failure("pkg-config says version %s, the project %s" % (version, info["version"]))
        print("no optional dependency found; configure %.1f s, build + install %.1f s" % (t1 - t0, t2 - t1))
        print("installed %s: %d bytes (libagal.a %d bytes)" % (os.path.basename(so), os.path.getsize(so),
              os.path.getsize(os.path.join(prefix, "lib", "libagal.a"))))
        for r in results:
            print(r)
        check_enabled_chain(args, tmp, env, native)
    except (Failure, subprocess.TimeoutExpired) as e:
        print("FAIL: %s" % e)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
