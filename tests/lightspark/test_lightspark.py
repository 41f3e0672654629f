#!/usr/bin/env python3
"""What of integrations/lightspark/ runs without Lightspark's source (CI cannot fetch it).

  test_lightspark.py --cxx "CXX" --sanitize B_SANITIZE --lib LIBAGAL_A --headers SRC/agal
                     --integration DIR --guide docs/emulator-guide.md

1. The glue the patch adds (src/scripting/flash/display3d/agal2spv.{h,cpp}) is built
   with -std=c++14 (Lightspark's) -Wall -Wextra -Werror against the headers as
   installed and the static library, with glue_check.cpp driving it as
   flashdisplay3d.cpp does; it must run cleanly (its CHECKs hold Flash's recorded
   lines: 3631, 3612, 3615, 3725, 2007, 3780, 3781, 2008, 3669, 2006), and every glue name
   lightspark.patch calls is one agal2spv.h declares; each ```cpp excerpt of the
   emulator guide is in the glue.
2. results.py makes the README's table from a fixture made here: three SWF folders
   (test.toml with and without an image comparison, one with two checks, output.txt with Stage3D lines
   and stack lines), pictures with known outliers and the runs' traces and logs; every
   cell is compared with the value worked out by hand.
3. results.py reads a paletted PNG (some references are) exactly.
4. input.py turns a Ruffle input.json into xdotool commands (a move, a click, a Wait,
   a key it must refuse)."""
import argparse
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

failures = 0


def check(cond, msg):
    global failures
    if not cond:
        failures += 1
        print('FAIL:', msg)
    return cond


def build_glue(args, tmp):
    inc = os.path.join(tmp, 'include')
    shutil.copytree(args.headers, os.path.join(inc, 'agal'))
    exe = os.path.join(tmp, 'glue_check')
    flags = ['-std=c++14', '-Wall', '-Wextra', '-Werror', '-I', inc, '-I', os.path.join(args.integration, 'src')]
    if args.sanitize not in ('', 'none'):
        flags.append('-fsanitize=' + args.sanitize)
    glue = os.path.join(args.integration, 'src', 'scripting', 'flash', 'display3d', 'agal2spv.cpp')
    here = os.path.dirname(os.path.abspath(__file__))
    r = subprocess.run(shlex.split(args.cxx) + flags + [os.path.join(here, 'glue_check.cpp'), glue, args.lib, '-lm',
                                                        '-o', exe], capture_output=True, text=True, timeout=240)
    if not check(r.returncode == 0, 'the glue builds with -Werror: %s' % r.stderr):
        return
    r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    check(r.returncode == 0 and not r.stderr, 'glue_check: rc %d %s%s' % (r.returncode, r.stdout, r.stderr))
    print(r.stdout.strip())


def check_patch_names(args):
    """What lightspark.patch calls of the glue (agal2spv::NAME, and the methods of its
    `agal` members) is what agal2spv.h declares, so the two cannot drift apart."""
    with open(os.path.join(args.integration, 'lightspark.patch')) as f:
        added = '\n'.join(line[1:] for line in f.read().splitlines() if line.startswith('+'))
    with open(os.path.join(args.integration, 'src', 'scripting', 'flash', 'display3d', 'agal2spv.h')) as f:
        header = f.read()
    used = set(re.findall(r'agal2spv::(\w+)', added)) | set(re.findall(r'\bagal\.(\w+)\(', added))
    missing = sorted(n for n in used if not re.search(r'\b%s\b' % n, header))
    check(len(used) >= 10 and not missing, 'the patch uses %s, agal2spv.h lacks %s' % (sorted(used), missing))


def check_guide(args):
    """Each ```cpp excerpt of docs/emulator-guide.md is in the glue, line for line
    (indentation aside: the glue keeps Lightspark's tabs)."""
    with open(args.guide) as f:
        blocks = re.findall(r'^```cpp\n(.*?)^```$', f.read(), re.S | re.M)
    with open(os.path.join(args.integration, 'src', 'scripting', 'flash', 'display3d', 'agal2spv.cpp')) as f:
        glue = '\n'.join(line.strip() for line in f.read().splitlines())
    check(len(blocks) > 0, 'the emulator guide excerpts the Lightspark glue')
    for b in blocks:
        text = '\n'.join(line.strip() for line in b.strip().splitlines())
        check(text in glue, 'guide excerpt not found in agal2spv.cpp: %s' % b.split('\n', 1)[0])


def write_png(path, rows):
    """An 8-bit RGBA PNG of rows[y][x] = (r, g, b, a), each line filtered by its index
    mod 5 (none, sub, up, average, Paeth) so that the reader's five filters are used."""
    width, bpp, raw, prev = len(rows[0]), 4, b'', bytes(len(rows[0]) * 4)
    for y, row in enumerate(rows):
        line, kind, out = bytes(v for p in row for v in p), y % 5, bytearray()
        for x in range(len(line)):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            pred = [0, a, b, (a + b) // 2, a if pa <= pb and pa <= pc else b if pb <= pc else c][kind]
            out.append((line[x] - pred) & 255)
        raw += bytes([kind]) + bytes(out)
        prev = line

    def chunk(kind, body):
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, len(rows), 8, 6, 0, 0, 0)) +
                chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)


def fixture(tmp):
    """Two tests. stage3d_a: a 6x5 reference, tolerance 2, max_outliers 3; the built-in
    frame (8x6, cropped to 6x5) is black (30 outliers), the patched one the reference
    but 2 pixels 3 away (2 outliers: a pass); the two differ in all 30 pixels. stage3d_b:
    no image comparison: Flash's 4 lines, 2 of them Stage3D errors; the built-in run
    prints 1 of them, the patched run 3 (its stack line is Lightspark's own)."""
    swfs, builtin, agal = (os.path.join(tmp, d) for d in ('swfs', 'builtin', 'agal'))
    for d in (swfs, builtin, agal):
        os.makedirs(d)
    a, b = os.path.join(swfs, 'stage3d_a'), os.path.join(swfs, 'stage3d_b')
    os.makedirs(a)
    os.makedirs(b)
    os.makedirs(os.path.join(swfs, 'stage3d_not_run'))
    ref = [[(x * 40, y * 50, 200, 255) for x in range(6)] for y in range(5)]
    write_png(os.path.join(a, 'output.expected.png'), ref)
    write(os.path.join(a, 'test.toml'), 'num_frames = 1\n\n[image_comparisons.output]\ntolerance = 2\n'
          'max_outliers = 3\n')
    write(os.path.join(a, 'output.txt'), 'frame 1\ndone\n')
    write_png(os.path.join(builtin, 'stage3d_a.png'), [[(0, 0, 0, 255)] * 8 for _ in range(6)])
    near = [list(r) for r in ref]
    near[1][2] = (83, 50, 200, 255)
    near[4][5] = (200, 197, 200, 255)
    write_png(os.path.join(agal, 'stage3d_a.png'), [r + [(1, 2, 3, 255)] for r in near] + [[(9, 9, 9, 255)] * 7])
    write(os.path.join(builtin, 'stage3d_a.txt'), 'frame 1\ndone\n')
    write(os.path.join(agal, 'stage3d_a.txt'), 'frame 1\nextra\ndone\n')
    write(os.path.join(builtin, 'stage3d_a.log'), 'ERROR: Fragment shader compilation:0:1(1): error\n'
          'ERROR: Could not compile fragment shader\n')
    write(os.path.join(agal, 'stage3d_a.log'), 'INFO: agal2spv: Program3D.upload accepted\n' * 2)
    write(os.path.join(b, 'test.toml'), 'num_frames = 1\n')
    write(os.path.join(b, 'output.txt'), 'valid: uploaded\n'
          'bad: Error: Error #3631: Vertex shader type is not vertex.\n\tat flash.display3D::Program3D/upload()\n'
          'size: Error: Error #3780: Requested width of backbuffer is not in allowed range 32 to 16384.\n')
    write(os.path.join(builtin, 'stage3d_b.txt'), 'valid: uploaded\nbad: uploaded\nsize: no error\n')
    write(os.path.join(agal, 'stage3d_b.txt'), 'valid: uploaded\n'
          'bad: Error: Error #3631: Vertex shader type is not vertex.\n\tat Test/tryUpload()\n'
          'size: Error: Error #3780: Requested width of backbuffer is not in allowed range 32 to 16384.\n')
    write(os.path.join(builtin, 'stage3d_b.log'), '')
    write(os.path.join(agal, 'stage3d_b.log'), 'INFO: agal2spv: Program3D.upload accepted\n'
          'INFO: agal2spv: Program3D.upload refused: Error #3631: Vertex shader type is not vertex.\n')
    # stage3d_c: two checks (tolerance 0 up to 20 outliers, tolerance 10 up to 1); the
    # patched frame is 5 away in 3 pixels (both hold), the built-in one 50 away in 4
    # others (the second fails); the two frames differ in those 7 pixels.
    c = os.path.join(swfs, 'stage3d_c')
    os.makedirs(c)
    flat = [[(100, 100, 100, 255)] * 4 for _ in range(4)]
    write_png(os.path.join(c, 'output.expected.png'), flat)
    write(os.path.join(c, 'test.toml'), '[[image_comparisons.output.checks]]\ntolerance = 0\nmax_outliers = 20\n\n'
          '[[image_comparisons.output.checks]]\ntolerance = 10\nmax_outliers = 1\n')
    write(os.path.join(c, 'output.txt'), '')
    for runs, pixels, value in ((agal, [(0, 0), (1, 1), (2, 2)], 105), (builtin, [(3, 0), (3, 1), (3, 2), (3, 3)], 150)):
        frame = [list(r) for r in flat]
        for x, y in pixels:
            frame[y][x] = (value, 100, 100, 255)
        write_png(os.path.join(runs, 'stage3d_c.png'), frame)
        write(os.path.join(runs, 'stage3d_c.txt'), '')
    return swfs, builtin, agal


def check_results(args, tmp):
    swfs, builtin, agal = fixture(tmp)
    r = subprocess.run([sys.executable, os.path.join(args.integration, 'results.py'), '--swfs', swfs, '--builtin',
                        builtin, '--agal', agal], capture_output=True, text=True, timeout=60)
    if not check(r.returncode == 0, 'results.py: %s' % r.stderr):
        return
    rows = [[c.strip() for c in line.strip('|').split('|')] for line in r.stdout.splitlines()[2:]]
    want = [['stage3d_a', 'fail (30 outliers)', 'pass', '30', '?/1', '2/0', '2/2', '2/2'],
            ['stage3d_b', '-', '-', '-', '?/0', '1/1', '1/4 (Stage3D 0/2)', '3/4 (Stage3D 2/2)'],
            ['stage3d_c', 'fail (4 outliers at tolerance 10)', 'pass', '7', '-', '-', '0/0', '0/0']]
    check(rows == want, 'results.py rows:\n%s\nwant:\n%s' % (rows, want))
    print(r.stdout.strip())


def check_palette_png(args, tmp):
    """results.py reads a paletted PNG (stage3d_stencil's reference is 4-bit): a 3x2
    image of 2-bit indexes, filtered none and Sub, with a tRNS alpha for index 1."""
    palette = [(10, 20, 30), (40, 50, 60), (70, 80, 90), (200, 210, 220)]
    index = [[0, 1, 2], [3, 3, 1]]
    rows = [bytes([0, index[0][0] << 6 | index[0][1] << 4 | index[0][2] << 2]),
            bytes([1, index[1][0] << 6 | index[1][1] << 4 | index[1][2] << 2])]  # Sub: one byte, unchanged

    def chunk(kind, body):
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
    path = os.path.join(tmp, 'palette.png')
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 3, 2, 2, 3, 0, 0, 0)) +
                chunk(b'PLTE', bytes(v for c in palette for v in c)) + chunk(b'tRNS', bytes([255, 128])) +
                chunk(b'IDAT', zlib.compress(b''.join(rows))) + chunk(b'IEND', b''))
    sys.path.insert(0, args.integration)
    import results
    want = [[palette[k] + (128 if k == 1 else 255,) for k in row] for row in index]
    got = results.read_png(path)
    check(got == (3, 2, want), 'results.read_png of a 2-bit palette: %r' % (got,))


def check_input(args, tmp):
    """input.py turns a Ruffle input.json into the xdotool commands run.sh sends to the
    window: a move, a click as move+down and move+up with the button's number, a Wait
    skipped; an event it cannot send fails with the event's index, no command printed."""
    script = os.path.join(args.integration, 'input.py')
    events = os.path.join(tmp, 'input.json')
    write(events, '[{"type": "MouseMove", "pos": [60.0, 400.0]}, {"type": "Wait"},'
          ' {"type": "MouseDown", "pos": [160, 379], "btn": "Left"},'
          ' {"type": "MouseUp", "pos": [160.4, 379], "btn": "Right"}]')
    r = subprocess.run([sys.executable, script, events, '77'], capture_output=True, text=True, timeout=60)
    want = ['mousemove --window 77 60 400', 'mousemove --window 77 160 379', 'mousedown 1',
            'mousemove --window 77 160 379', 'mouseup 3']
    check(r.returncode == 0 and r.stdout.splitlines() == want, 'input.py: rc %d %r' % (r.returncode, r.stdout))
    write(events, '[{"type": "MouseMove", "pos": [1, 2]}, {"type": "KeyDown", "key_code": 65}]')
    r = subprocess.run([sys.executable, script, events, '77'], capture_output=True, text=True, timeout=60)
    check(r.returncode == 1 and r.stdout == '' and 'event 1: KeyDown' in r.stderr,
          'input.py refuses a key: rc %d %r %r' % (r.returncode, r.stdout, r.stderr))


def main():
    ap = argparse.ArgumentParser()
    for opt in ('cxx', 'sanitize', 'lib', 'headers', 'integration', 'guide'):
        ap.add_argument('--' + opt, required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix='agal-lightspark-') as tmp:
        build_glue(args, tmp)
        check_patch_names(args)
        check_guide(args)
        check_results(args, tmp)
        check_input(args, tmp)
        check_palette_png(args, tmp)
    print('%d failures' % failures if failures else 'lightspark: all passed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
