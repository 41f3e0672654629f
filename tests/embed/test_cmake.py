#!/usr/bin/env python3
"""find_package(agal CONFIG), as a CMake emulator uses it.

  test_cmake.py --meson MESON --build BUILDDIR --cmake CMAKE --cc "CC" --cxx "CXX"
                --agalasm AGALASM --examples DIR --sanitize B_SANITIZE --keep-loaded FILE

1. `meson install --no-rebuild --destdir` puts this build's library, headers,
   agal.pc, agalConfig.cmake and agalConfigVersion.cmake into a temporary folder;
2. the CMake project tests/embed/cmake_user/ finds them with CMAKE_PREFIX_PATH alone
   (find_package(agal <this version> EXACT CONFIG REQUIRED)) and builds
   examples/gl_upload.c against agal::agal and against agal::agal_static, and
   cxx_user.cpp, a C++ user of the headers, against agal::agal;
3. both gl_upload programs draw the frame test_examples.py checks, pixel by pixel,
   on EGL surfaceless, and refuse the pair in the wrong slots with Flash's error; the
   shared one needs libagal.so.2 (found through the imported target's path alone),
   the static one does not; cxx_user uploads a pair and prints Flash's line;
4. a request for an earlier minor version (while the major is 0) is refused by
   agalConfigVersion.cmake.
In a sanitizer build every program is built with the same -fsanitize."""
import argparse
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_examples  # noqa: E402  (the frame: its programs and its pixels)

failures = 0


def check(cond, msg):
    global failures
    if not cond:
        failures += 1
        print('FAIL:', msg)
    return cond


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=kw.pop('timeout', 240), **kw)


def compiler_args(name, command):
    """CMake's compiler and launcher (ccache) for meson's command line."""
    parts = shlex.split(command)
    args = ['-DCMAKE_%s_COMPILER=%s' % (name, parts[-1])]
    if len(parts) > 1:
        args.append('-DCMAKE_%s_COMPILER_LAUNCHER=%s' % (name, ';'.join(parts[:-1])))
    return args


def install(args, dest):
    r = run([args.meson, 'install', '-C', args.build, '--no-rebuild', '--quiet', '--destdir', dest,
             '--tags', 'devel,runtime'])
    if not check(r.returncode == 0, 'meson install --destdir: %s%s' % (r.stdout, r.stderr)):
        return None, None
    info = json.loads(run([args.meson, 'introspect', '--projectinfo', args.build]).stdout)
    options = json.loads(run([args.meson, 'introspect', '--buildoptions', args.build]).stdout)
    prefix = next(o['value'] for o in options if o['name'] == 'prefix')
    root = dest + prefix
    found = glob.glob(os.path.join(root, '**', 'cmake', 'agal', 'agalConfig*.cmake'), recursive=True)
    check(sorted(os.path.basename(f) for f in found) == ['agalConfig.cmake', 'agalConfigVersion.cmake'],
          'installed CMake files: %s' % found)
    return root, info['version']


def configure(args, root, version, tmp, name, exact=True):
    build = os.path.join(tmp, name)
    cmd = [args.cmake, '-S', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cmake_user'), '-B', build,
           '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Debug', '-DCMAKE_PREFIX_PATH=' + root,
           '-DAGAL_EXAMPLES=' + os.path.abspath(args.examples), '-DAGAL_WANT_VERSION=' + version, '-DAGAL_WANT_EXACT=' + ('EXACT' if exact else '')]
    cmd += compiler_args('C', args.cc) + compiler_args('CXX', args.cxx)
    if args.sanitize not in ('', 'none'):
        flags = '-fsanitize=' + args.sanitize
        cmd += ['-DCMAKE_C_FLAGS=' + flags, '-DCMAKE_CXX_FLAGS=' + flags,
                '-DAGAL_EXTRA_SOURCES=' + os.path.abspath(args.keep_loaded)]
    return build, run(cmd)


def check_program(exe, shared, bins, env):
    name = os.path.basename(exe)
    dynamic = run(['readelf', '-d', exe]).stdout
    check(('[libagal.so.2]' in dynamic) == shared, '%s: libagal.so.2 %s its dynamic section' % (
        name, 'missing from' if shared else 'in'))
    r = run([exe] + bins, env=env, timeout=60)
    px = test_examples.pixels(r.stdout)
    if not check(r.returncode == 0 and px is not None, '%s runs: rc %d\n%s%s' % (name, r.returncode, r.stdout,
                                                                                 r.stderr)):
        return
    wrong = [(x, y) for y in range(8) for x in range(8)
             if not all(w - 1 <= g <= w for g, w in zip(px[y][x], test_examples.QUARTERS[(x // 4, y // 4)]))]
    check(not wrong, '%s: pixels %s differ from the frame' % (name, wrong))
    r = run([exe] + bins[::-1], env=env, timeout=60)
    check(r.returncode == 1 and re.search(r'^Error: Error #363[01]: ', r.stderr, re.M),
          '%s, programs swapped: rc %d %s' % (name, r.returncode, r.stderr))
    print('%s: the frame, every pixel; the swapped pair refused' % name)


def main():
    ap = argparse.ArgumentParser()
    for opt in ('meson', 'build', 'cmake', 'cc', 'cxx', 'agalasm', 'examples', 'sanitize', 'keep-loaded'):
        ap.add_argument('--' + opt, required=True)
    args = ap.parse_args()
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix='agal-cmake-') as tmp:
        root, version = install(args, os.path.join(tmp, 'dest'))
        if root is None:
            return 1
        bins = []
        for stage, text in (('vert', test_examples.VERTEX), ('frag', test_examples.FRAGMENT)):
            src, out = os.path.join(tmp, stage + '.agal'), os.path.join(tmp, stage + '.bin')
            with open(src, 'w') as f:
                f.write(text)
            r = run([args.agalasm, src, '-o', out])
            check(r.returncode == 0, 'agalasm %s: %s' % (stage, r.stderr))
            bins.append(out)
        build, r = configure(args, root, version, tmp, 'build')
        if check(r.returncode == 0, 'cmake configure: %s%s' % (r.stdout, r.stderr)):
            r = run([args.cmake, '--build', build, '-j', '2'])
            if check(r.returncode == 0, 'cmake --build: %s%s' % (r.stdout, r.stderr)):
                check_program(os.path.join(build, 'gl_upload_agal'), True, bins, env)
                check_program(os.path.join(build, 'gl_upload_agal_static'), False, bins, env)
                r = run([os.path.join(build, 'cxx_user'), version], env=env, timeout=60)
                check(r.returncode == 0 and r.stdout.startswith('Error: Error #363'),
                      'cxx_user: rc %d %s%s' % (r.returncode, r.stdout, r.stderr))
                print('cxx_user: %s' % r.stdout.strip())
        # An earlier minor version while the major is 0 (its ABI differs), else an
        # earlier major one: either is refused by agalConfigVersion.cmake alone.
        major, minor = (int(n) for n in version.split('.')[:2])
        other = '0.%d' % (minor - 1) if major == 0 and minor > 0 else '%d.0' % (major - 1)
        _, r = configure(args, root, other, tmp, 'build-other', exact=False)
        check(r.returncode != 0 and re.search(r'agalConfig\.cmake, version: %s\n' % re.escape(version), r.stderr),
              'find_package(agal %s) should be refused by version %s: rc %d %s' % (other, version, r.returncode,
                                                                                r.stderr[-1500:]))
    print('%d failures' % failures if failures else 'cmake package: all passed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
