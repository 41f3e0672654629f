#!/usr/bin/env python3
"""The emulator examples (examples/vulkan_upload.c, examples/gl_upload.c), each built
against the installed headers alone (copied into an include/agal/ of their own, as
installed) and the static library, and run headless: Vulkan on the
driver VK_DRIVER_FILES names under the Khronos validation layer reporting errors,
warnings and performance warnings (any report fails: the layer writes them to
stdout), GL on EGL (EGL_PLATFORM=surfaceless). Both draw a quad with setCulling(back)
(its triangles are clockwise, Stage3D's front faces), m44 op, va0, vc0 with vc the
identity and a float3/float2 vertex layout, and sample a 2x2 bgra texture with
nearest filtering tinted by fc0 = (1, 0.5, 0.25, 1). By hand, each quarter of the 8x8
back buffer is one texel times the tint: top left red (ff, 00, 00), top right green
(00, 80, 00), bottom left blue (00, 00, 40), bottom right white (ff, 80, 40), alpha
ff; rounding to 8 bits may give one less. A pair in the wrong slots must fail the
upload with Flash's message. Every ```c excerpt of docs/emulator-guide.md must be
found, line for line, in one of the examples, so the guide cannot drift from them.

In a sanitizer build the examples are built with the same -fsanitize and with
keep_loaded.c, which keeps the drivers loaded for LeakSanitizer.

usage: test_examples.py EXAMPLES_DIR GUIDE CC SANITIZE LIBAGAL AGALASM KEEP_LOADED HEADERS"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

if __name__ == '__main__':  # test_cmake.py imports the frame and its pixels from here
    EXAMPLES, GUIDE, CC, SANITIZE, LIBAGAL, AGALASM, KEEP_LOADED = sys.argv[1:8]
    HEADERS = sys.argv[8]  # src/agal/, installed as include/agal/
failures = 0

VERTEX = '// stage: vertex\n// agal-version: 1\nm44 op, va0, vc0\nmov v0, va1\n'
FRAGMENT = '// stage: fragment\n// agal-version: 1\ntex ft0, v0, fs0 <2d,nearest,clamp>\nmul oc, ft0, fc0\n'
QUARTERS = {(0, 0): (0xff, 0, 0, 0xff), (1, 0): (0, 0x80, 0, 0xff), (0, 1): (0, 0, 0x40, 0xff),
            (1, 1): (0xff, 0x80, 0x40, 0xff)}
FILES = {'Vulkan': 'vulkan_upload.c', 'OpenGL': 'gl_upload.c'}
LIBS = {'Vulkan': ['-lvulkan', '-lm'], 'OpenGL': ['-lEGL', '-lOpenGL', '-lm']}


def check(cond, msg):
    global failures
    if not cond:
        failures += 1
        print('FAIL:', msg)


def excerpts_found(guide, sources):
    """Each ```c block of the guide appears, its lines in order and adjacent, in an example."""
    blocks = re.findall(r'^```c\n(.*?)^```$', guide, re.S | re.M)
    check(len(blocks) > 0, 'the emulator guide excerpts the examples')
    for b in blocks:
        check(any(b in s for s in sources), 'guide excerpt not found in examples/: %s' % b.split('\n', 1)[0])


def pixels(out):
    """The printed back buffer: 8 rows of 8 RRGGBBAA, nothing else."""
    rows = [line.split() for line in out.splitlines()]
    if len(rows) != 8 or any(len(r) != 8 or not all(re.fullmatch(r'[0-9a-f]{8}', p) for p in r) for r in rows):
        return None
    return [[tuple(int(p[i:i + 2], 16) for i in range(0, 8, 2)) for p in r] for r in rows]


def run_example(name, c, tmp, env, vbin, fbin):
    exe = os.path.join(tmp, name)
    flags = ['-std=c11', '-Wall', '-Wextra', '-Werror', '-I', os.path.join(tmp, 'include')]
    extra = []
    if SANITIZE not in ('', 'none'):
        flags.append('-fsanitize=' + SANITIZE)
        extra.append(KEEP_LOADED)  # drivers stay loaded, so what they hold is not the example's leak
    build = subprocess.run(shlex.split(CC) + flags + [c] + extra + [LIBAGAL] + LIBS[name] + ['-o', exe],
                           capture_output=True, text=True)
    check(build.returncode == 0, '%s example builds: %s' % (name, build.stderr))
    if build.returncode:
        return
    r = subprocess.run([exe, vbin, fbin], capture_output=True, text=True, env=env, timeout=60)
    px = pixels(r.stdout)
    check(r.returncode == 0 and px is not None,
          '%s example runs cleanly: rc %d\n%s%s' % (name, r.returncode, r.stdout, r.stderr))
    for y in range(8):
        for x in range(8):
            want = QUARTERS[(x // 4, y // 4)]
            got = px[y][x] if px else None
            check(got is not None and all(w - 1 <= g <= w for g, w in zip(got, want)),
                  '%s example: pixel (%d, %d) is %s, want %s' % (name, x, y, got, want))
    # Program3D.upload of the pair in the wrong slots throws Flash's error.
    r = subprocess.run([exe, fbin, vbin], capture_output=True, text=True, env=env, timeout=60)
    check(r.returncode == 1 and re.search(r'^Error: Error #363[01]: ', r.stderr, re.M),
          '%s example, programs swapped: rc %d %s' % (name, r.returncode, r.stderr))


def main():
    sources = {}
    for name, file in FILES.items():
        with open(os.path.join(EXAMPLES, file)) as f:
            sources[name] = f.read()
    with open(GUIDE) as f:
        excerpts_found(f.read(), sources.values())
    with tempfile.TemporaryDirectory() as tmp:
        inc = os.path.join(tmp, 'include', 'agal')
        os.makedirs(inc)
        for name in sorted(os.listdir(HEADERS)):
            with open(os.path.join(HEADERS, name), 'rb') as src, open(os.path.join(inc, name), 'wb') as dst:
                dst.write(src.read())
        bins = []
        for stage, text in (('vert', VERTEX), ('frag', FRAGMENT)):
            src, out = os.path.join(tmp, stage + '.agal'), os.path.join(tmp, stage + '.bin')
            with open(src, 'w') as f:
                f.write(text)
            r = subprocess.run([AGALASM, src, '-o', out], capture_output=True, text=True)
            check(r.returncode == 0, 'agalasm %s: %s' % (stage, r.stderr))
            bins.append(out)
        settings = os.path.join(tmp, 'vk_layer_settings.txt')
        with open(settings, 'w') as f:
            f.write('khronos_validation.report_flags = error,warn,perf\n')
        for name in ('Vulkan', 'OpenGL'):
            env = dict(os.environ)
            if name == 'Vulkan':
                env.update(VK_INSTANCE_LAYERS='VK_LAYER_KHRONOS_validation', VK_LAYER_SETTINGS_PATH=tmp)
            print('%s example: %d lines' % (name, sources[name].count('\n')))
            run_example(name, os.path.join(EXAMPLES, FILES[name]), tmp, env, *bins)
    print('%d failures' % failures if failures else 'examples: all passed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
