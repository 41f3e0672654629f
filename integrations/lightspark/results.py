#!/usr/bin/env python3
"""The results table of integrations/lightspark/README.md, from run.sh's runs.

  results.py --swfs RUFFLE/tests/tests/swfs/avm2 --builtin RUNS --agal RUNS

For each stage3d_* folder of --swfs that has a run in either RUNS folder
(<test>.png: the window's picture, <test>.txt: the trace, <test>.log: the log):

- against Flash: the picture's top left, cropped to the reference
  (<name>.expected.png of test.toml's [image_comparisons.<name>], "output" first), is
  within tolerance when at most max_outliers pixels have a channel farther than
  tolerance from the reference's (Ruffle's rule; both default to 0; with a list of
  `checks`, each pair must hold): "pass", or "fail (N outliers)" (of a list, the first
  check failed, "at tolerance T"); "-" where the test has no reference;
- pixels changed: how many pixels of that crop differ between the two builds;
- uploads: "accepted/refused" from the patched build's log lines
  (`agal2spv: Program3D.upload accepted|refused`) plus shader compile or link
  failures as refused; the built-in build logs only its failures ("?/N");
- trace: lines of output.txt (Flash's) found, in order, in the run's trace, and
  the same for the Stage3D lines alone (those naming a Stage3D error, #3600 to
  #3799, or a Context3D check's 2007/2008): "found/total".
No third-party module: PNGs are read with zlib (8-bit RGB or RGBA, or a palette of 1
to 8 bits; not interlaced).
"""
import argparse
import difflib
import os
import re
import struct
import sys
import tomllib
import zlib


def read_png(path, max_rows=None):
    """(width, height, rows): rows[y][x] is an (r, g, b, a) tuple; only the first
    max_rows rows are decoded when it is given (a crop needs no more)."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('%s: not a PNG' % path)
    pos, idat, header, palette, alphas = 8, b'', None, [], b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b'IHDR':
            header = struct.unpack('>IIBBBBB', body)
        elif kind == b'PLTE':
            palette = [tuple(body[i:i + 3]) for i in range(0, len(body) - 2, 3)]
        elif kind == b'tRNS':
            alphas = body
        elif kind == b'IDAT':
            idat += body
        elif kind == b'IEND':
            break
    width, height, depth, color, _, _, interlace = header
    paletted = color == 3 and depth in (1, 2, 4, 8) and palette
    if not paletted and (depth != 8 or color not in (2, 6)) or interlace:
        raise ValueError('%s: only 8-bit RGB or RGBA or a palette, not interlaced' % path)
    bits = depth if paletted else 8 * (4 if color == 6 else 3)
    bpp, stride = max(1, bits // 8), (width * bits + 7) // 8
    raw, prev, rows, i = zlib.decompress(idat), bytearray(stride), [], 0
    for _ in range(height if max_rows is None else min(height, max_rows)):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if paletted:
            per = 8 // depth
            index = [(line[x // per] >> (8 - depth * (x % per + 1))) & ((1 << depth) - 1) for x in range(width)]
            rows.append([palette[k] + ((alphas[k] if k < len(alphas) else 255),) for k in index])
        else:
            rows.append([tuple(line[x * bpp:x * bpp + 3]) + ((line[x * bpp + 3],) if bpp == 4 else (255,))
                         for x in range(width)])
        prev = line
    return width, height, rows


def reference(test_dir):
    """(png path, [(tolerance, max_outliers), ...]) of the test's first image
    comparison, or None: one pair, or one a `checks` entry, all of which must hold."""
    with open(os.path.join(test_dir, 'test.toml'), 'rb') as f:
        toml = tomllib.load(f)
    comparisons = toml.get('image_comparisons', {})
    if not comparisons:
        return None
    name = 'output' if 'output' in comparisons else sorted(comparisons)[0]
    c = comparisons[name]
    checks = [(k.get('tolerance', 0), k.get('max_outliers', 0)) for k in c.get('checks', [c])]
    return os.path.join(test_dir, name + '.expected.png'), checks


def crop(png, width, height):
    w, h, rows = png
    if w < width or h < height or len(rows) < height:
        return None
    return [row[:width] for row in rows[:height]]


def outliers(a, b, tolerance):
    return sum(1 for ra, rb in zip(a, b) for pa, pb in zip(ra, rb)
               if any(abs(x - y) > tolerance for x, y in zip(pa, pb)))


def lines_found(want, got):
    """How many of want's lines appear, in order, in got."""
    m = difflib.SequenceMatcher(None, want, got, autojunk=False)
    return sum(b.size for b in m.get_matching_blocks())


STAGE3D_LINE = re.compile(r'Error #(3[67]\d\d|2007|2008)\b')


def trace_cell(test_dir, runs, test):
    path = os.path.join(runs, test + '.txt')
    if not os.path.exists(path):
        return '-'
    with open(os.path.join(test_dir, 'output.txt'), errors='replace') as f:
        want = f.read().splitlines()
    with open(path, errors='replace') as f:
        got = f.read().splitlines()
    stage3d = [line for line in want if STAGE3D_LINE.search(line)]
    cell = '%d/%d' % (lines_found(want, got), len(want))
    if stage3d:
        cell += ' (Stage3D %d/%d)' % (lines_found(stage3d, [g for g in got if STAGE3D_LINE.search(g)]),
                                      len(stage3d))
    return cell


def uploads_cell(runs, test, patched):
    path = os.path.join(runs, test + '.log')
    if not os.path.exists(path):
        return '-'
    with open(path, errors='replace') as f:
        log = f.read()
    failed = len(re.findall(r'Could not (compile \w+ shader|link program)', log))
    if not patched:
        return '?/%d' % failed
    accepted = len(re.findall(r'agal2spv: Program3D\.upload accepted', log))
    refused = len(re.findall(r'agal2spv: Program3D\.upload refused', log))
    return '%d/%d' % (accepted - failed, refused + failed)


def frame(runs, test, size):
    path = os.path.join(runs, test + '.png')
    if size is None or not os.path.exists(path):
        return None
    return crop(read_png(path, size[1]), *size)


def row(test_dir, builtin, agal):
    test = os.path.basename(test_dir)
    ref = reference(test_dir)
    cells, frames, size = [test], [], None
    if ref:
        w, h, ref_rows = read_png(ref[0])
        size = (w, h)
    for runs in (builtin, agal):
        f = frame(runs, test, size)
        frames.append(f)
        if not ref:
            cells.append('-')
        elif f is None:
            cells.append('no picture')
        else:
            failed = [(n, t) for n, t in ((outliers(f, ref_rows, t), (t, m)) for t, m in ref[1]) if n > t[1]]
            cells.append('pass' if not failed else
                         'fail (%d outliers%s)' % (failed[0][0], ' at tolerance %d' % failed[0][1][0]
                                                    if len(ref[1]) > 1 else ''))
    cells.append('%d' % outliers(frames[0], frames[1], 0) if None not in frames else '-')
    cells += [uploads_cell(builtin, test, False), uploads_cell(agal, test, True)]
    cells += [trace_cell(test_dir, builtin, test), trace_cell(test_dir, agal, test)]
    return cells


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--swfs', required=True)
    ap.add_argument('--builtin', required=True)
    ap.add_argument('--agal', required=True)
    args = ap.parse_args()
    head = ['SWF', 'built-in vs Flash', 'agal2spv vs Flash', 'pixels changed', 'uploads built-in (ok/refused)',
            'uploads agal2spv (ok/refused)', 'trace built-in', 'trace agal2spv']
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * len(head))
    for test in sorted(os.listdir(args.swfs)):
        test_dir = os.path.join(args.swfs, test)
        ran = any(os.path.exists(os.path.join(r, test + '.txt')) for r in (args.builtin, args.agal))
        if test.startswith('stage3d_') and ran:
            print('| ' + ' | '.join(row(test_dir, args.builtin, args.agal)) + ' |')
    return 0


if __name__ == '__main__':
    sys.exit(main())
