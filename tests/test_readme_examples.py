#!/usr/bin/env python3
"""README.md's "Emulator integration" examples, taken from the README itself so it
cannot drift: each subsection's C blocks (### Vulkan, ### OpenGL) joined into one
program, built against the installed headers alone (copied into an include/agal/
of their own, as installed) and the static library, and run headless: Vulkan on the
driver VK_DRIVER_FILES names under the Khronos validation layer reporting errors,
warnings and performance warnings (any report fails: the layer writes them to
stdout), GL on EGL (EGL_PLATFORM=surfaceless). Both draw a quad with setCulling(back)
(its triangles are clockwise, Stage3D's front faces), m44 op, va0, vc0 with vc the
identity and a float3/float2 vertex layout, and sample a 2x2 bgra texture with
nearest filtering tinted by fc0 = (1, 0.5, 0.25, 1). By hand, each quarter of the 8x8
back buffer is one texel times the tint: top left red (ff, 00, 00), top right green
(00, 80, 00), bottom left blue (00, 00, 40), bottom right white (ff, 80, 40), alpha
ff; rounding to 8 bits may give one less. A pair in the wrong slots must fail the
upload with Flash's message.

In a sanitizer build the examples are built with the same -fsanitize and with
keep_loaded.c, which keeps the drivers loaded for LeakSanitizer.

usage: test_readme_examples.py README CC SANITIZE LIBAGAL AGALASM KEEP_LOADED HEADER..."""
import os
import re
import shlex
import subprocess
import sys
import tempfile

README, CC, SANITIZE, LIBAGAL, AGALASM, KEEP_LOADED = sys.argv[1:7]
HEADERS = sys.argv[7]  # src/agal/, installed as include/agal/
failures = 0

VERTEX = '// stage: vertex\n// agal-version: 1\nm44 op, va0, vc0\nmov v0, va1\n'
FRAGMENT = '// stage: fragment\n// agal-version: 1\ntex ft0, v0, fs0 <2d,nearest,clamp>\nmul oc, ft0, fc0\n'
QUARTERS = {(0, 0): (0xff, 0, 0, 0xff), (1, 0): (0, 0x80, 0, 0xff), (0, 1): (0, 0, 0x40, 0xff),
            (1, 1): (0xff, 0x80, 0x40, 0xff)}
LIBS = {'Vulkan': ['-lvulkan', '-lm'], 'OpenGL': ['-lEGL', '-lOpenGL', '-lm']}


def check(cond, msg):
    global failures
    if not cond:
        failures += 1
        print('FAIL:', msg)


def examples(text):
    """{subsection title: the C of its ```c blocks, joined} in the Emulator integration section."""
    m = re.search(r'^## Emulator integration\n(.*?)(?=^## )', text, re.S | re.M)
    check(m is not None, 'README has an "Emulator integration" section')
    found = {}
    for sub in re.split(r'^### ', m.group(1) if m else '', flags=re.M)[1:]:
        title = sub.split('\n', 1)[0].strip()
        found[title] = re.findall(r'^```c\n(.*?)^```$', sub, re.S | re.M)
    return found


def pixels(out):
    """The printed back buffer: 8 rows of 8 RRGGBBAA, nothing else."""
    rows = [line.split() for line in out.splitlines()]
    if len(rows) != 8 or any(len(r) != 8 or not all(re.fullmatch(r'[0-9a-f]{8}', p) for p in r) for r in rows):
        return None
    return [[tuple(int(p[i:i + 2], 16) for i in range(0, 8, 2)) for p in r] for r in rows]


def run_example(name, source, tmp, env, vbin, fbin):
    c = os.path.join(tmp, name + '.c')
    exe = os.path.join(tmp, name)
    with open(c, 'w') as f:
        f.write(source)
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
    with open(README) as f:
        found = examples(f.read())
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
            blocks = found.get(name, [])
            check(len(blocks) == 2, '### %s holds the integration and its headless frame: %d C blocks'
                  % (name, len(blocks)))
            env = dict(os.environ)
            if name == 'Vulkan':
                env.update(VK_INSTANCE_LAYERS='VK_LAYER_KHRONOS_validation', VK_LAYER_SETTINGS_PATH=tmp)
            if blocks:
                print('%s example: %d lines (%d the integration)' % (name, sum(b.count('\n') for b in blocks),
                                                                      blocks[0].count('\n')))
                run_example(name, '\n'.join(blocks), tmp, env, *bins)
    print('%d failures' % failures if failures else 'README examples: all passed')
    return 1 if failures else 0


sys.exit(main())
