#!/usr/bin/env python3
"""`agalrun interp` end to end: bytecode written here, JSON inputs in, JSON out,
compared with values worked out by hand (in the comments), plus the error exits.

usage: test_agalrun_interp.py AGALRUN [--asm]   (--asm: the tool reads .agal text too)"""
import json
import os
import struct
import subprocess
import sys
import tempfile

AGALRUN = sys.argv[1]
HAVE_ASM = '--asm' in sys.argv[2:]
failures = 0


def check(cond, msg):
    global failures
    if not cond:
        failures += 1
        print('FAIL:', msg)


def tok(op, dst=0, a=0, b=0):
    return struct.pack('<IIQQ', op, dst, a, b)


def dest(t, n, mask):
    return n | mask << 16 | t << 24


def src(t, n, swz=0xE4):
    return n | swz << 24 | t << 32


def sampler(n, dim=0, filt=0, mip=0, wrap=0, bias=0):
    return n | (bias & 0xff) << 16 | 5 << 32 | dim << 44 | wrap << 52 | mip << 56 | filt << 60


def header(version, stage):
    return bytes([0xA0, version, 0, 0, 0, 0xA1, stage])


def run(tmp, name, program, inputs, extra=()):
    ppath = os.path.join(tmp, name)
    with open(ppath, 'wb' if isinstance(program, bytes) else 'w') as f:
        f.write(program)
    ipath = os.path.join(tmp, name + '.json')
    with open(ipath, 'w') as f:
        f.write(inputs if isinstance(inputs, str) else json.dumps(inputs))
    p = subprocess.run([AGALRUN, 'interp', ppath, '--inputs', ipath, *extra], capture_output=True, text=True)
    out = None
    if p.returncode == 0:
        try:
            out = json.loads(p.stdout)
        except ValueError:
            check(False, '%s: output is not JSON: %r' % (name, p.stdout))
    return p.returncode, out, p.stderr


def vertex(tmp):
    # AGAL1 vertex: add vt0, va0, va1 / mov op, vt0 / mov v1, va0.wzyx / mov v0.zw, va1.zw
    prog = (header(1, 0) + tok(0x01, dest(2, 0, 15), src(0, 0), src(0, 1)) + tok(0x00, dest(3, 0, 15), src(2, 0))
            + tok(0x00, dest(4, 1, 15), src(0, 0, 0x1B)) + tok(0x00, dest(4, 0, 15), src(0, 0))
            + tok(0x00, dest(4, 0, 0xC), src(0, 1, 0xFE)))
    inputs = {"invocations": [{"va0": [1, 2, 3, 4], "va1": [0.5, -2, "Infinity", 8]},
                              {"va0": [1], "va1": ["NaN"]}]}
    rc, out, err = run(tmp, 'v.bin', prog, inputs)
    check(rc == 0, 'vertex run: rc %d %s' % (rc, err))
    if not out:
        return
    inv = out['invocations']
    check(len(inv) == 2, 'two invocations')
    # (1+0.5, 2-2, 3+inf, 4+8)
    check(inv[0] == {"op": [1.5, 0, "Infinity", 12], "v0": [1, 2, 8, 8], "v1": [4, 3, 2, 1]},
          'vertex invocation 0: %s' % inv[0])
    # va0 = (1,0,0,0), va1 = (NaN,0,0,0): op = (NaN, 0, 0, 0); v0.zw <- va1.zw = (0, 0)
    check(inv[1] == {"op": ["NaN", 0, 0, 0], "v0": [1, 0, 0, 0], "v1": [0, 0, 0, 1]},
          'vertex invocation 1: %s' % inv[1])


def trace(tmp):
    # The vertex program above, invocation 0 traced (1 is not): each write, in AGAL's names.
    prog = (header(1, 0) + tok(0x01, dest(2, 0, 15), src(0, 0), src(0, 1)) + tok(0x00, dest(3, 0, 15), src(2, 0))
            + tok(0x00, dest(4, 1, 15), src(0, 0, 0x1B)) + tok(0x00, dest(4, 0, 15), src(0, 0))
            + tok(0x00, dest(4, 0, 0xC), src(0, 1, 0xFE)))
    inputs = {"invocations": [{"va0": [1, 2, 3, 4], "va1": [0.5, -2, 7, 8]}, {"va0": [5], "va1": [6]}]}
    rc, out, err = run(tmp, 't.bin', prog, inputs, ('--trace', '0'))
    check(rc == 0 and out and len(out['invocations']) == 2, 'trace run: rc %d %s' % (rc, err))
    want = ['invocation 0, token 1 (add vt0, va0, va1): vt0 = (1.5, 0, 10, 12)',
            'invocation 0, token 2 (mov op, vt0): op = (1.5, 0, 10, 12)',
            'invocation 0, token 3 (mov v1, va0.wzyx): v1 = (4, 3, 2, 1)',
            'invocation 0, token 4 (mov v0, va0): v0 = (1, 2, 3, 4)',
            'invocation 0, token 5 (mov v0.zw, va1.zw): v0.zw = (8, 8)']  # positional: va1.zwww's z and w
    check(err.splitlines() == want, 'trace of invocation 0: %r' % err)
    rc, _, err = run(tmp, 't.bin', prog, inputs, ('--trace', '1'))
    check(rc == 0 and err.splitlines()[0] == 'invocation 1, token 1 (add vt0, va0, va1): vt0 = (11, 0, 0, 0)',
          'trace of invocation 1: %r' % err)
    rc, _, err = run(tmp, 't.bin', prog, inputs, ('--trace', 'x'))
    check(rc == 2, '--trace x is a usage error')


def fragment(tmp):
    # AGAL2 fragment: tex ft0, v0, fs0 <2d, nearest, repeat> / kil v0.z / ddx ft1, v1 /
    # mov oc0, ft0 / mov oc1, ft1 / mov fd, v1.y
    prog = (header(2, 1) + tok(0x28, dest(2, 0, 15), src(4, 0), sampler(0, wrap=1))
            + tok(0x27, 0, src(4, 0, 0xAA)) + tok(0x1a, dest(2, 1, 15), src(4, 1))
            + tok(0x00, dest(3, 0, 15), src(2, 0)) + tok(0x00, dest(3, 1, 15), src(2, 1))
            + tok(0x00, dest(6, 0, 1), src(4, 1, 0x55)))
    texels = [[0, 0, 0, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]]  # (0,0) (1,0) (0,1) (1,1)
    inputs = {"textures": [{"sampler": 0, "dim": "2d", "width": 2, "height": 2, "levels": [texels]}],
              "invocations": [{"v0": [0.25, 0.25, 1], "v1": [1, 0.5]},
                              {"v0": [1.75, 0.25, -1], "v1": [3, 0.25]},   # repeat: s 1.75 -> texel 1
                              {"v0": [0.25, -0.25, 0], "v1": [2, 0]},      # t -0.25 -> row 1
                              {"v0": [0.75, 0.75, "-Infinity"], "v1": [10, 1]}]}
    rc, out, err = run(tmp, 'f.bin', prog, inputs)
    check(rc == 0, 'fragment run: rc %d %s' % (rc, err))
    if not out:
        return
    inv = out['invocations']
    want = [
        {"oc0": [0, 0, 0, 1], "oc1": [2, -0.25, 0, 0], "fd": 0.5, "killed": False},  # ddx row 0: (3-1, 0.25-0.5)
        {"oc0": [1, 0, 0, 1], "oc1": [2, -0.25, 0, 0], "fd": 0.25, "killed": True},  # z = -1 < 0
        {"oc0": [0, 1, 0, 1], "oc1": [8, 1, 0, 0], "fd": 0, "killed": False},      # ddx row 1: (10-2, 1-0)
        {"oc0": [0, 0, 1, 1], "oc1": [8, 1, 0, 0], "fd": 1, "killed": True},
    ]
    for i in range(4):
        check(inv[i] == want[i], 'fragment invocation %d: %s, want %s' % (i, inv[i], want[i]))
    # coarse: lanes 2, 3 take row 0's ddx (2, -0.25)
    inputs["derivatives"] = "coarse"
    rc, out, err = run(tmp, 'fc.bin', prog, inputs)
    check(rc == 0 and out['invocations'][3]['oc1'] == [2, -0.25, 0, 0], 'coarse: rc %d %s %s' % (rc, out, err))


def cube(tmp):
    # tex ft0, v0, fs1 <cube, nearest, clamp> ; mov oc, ft0 with 1x1 faces r = face index
    prog = (header(2, 1) + tok(0x28, dest(2, 0, 15), src(4, 0), sampler(1, dim=1))
            + tok(0x00, dest(3, 0, 15), src(2, 0)))
    faces = [[[f, 0, 0, 1]] for f in range(6)]
    inputs = {"textures": [{"sampler": 1, "dim": "cube", "width": 1, "height": 1, "levels": [faces]}],
              "invocations": [{"v0": [-2, 1, 1]}, {"v0": [0.1, 3, -1]}, {"v0": [0, -1, 0.5]}, {"v0": [0, 0, -1]}]}
    rc, out, err = run(tmp, 'c.bin', prog, inputs)
    check(rc == 0, 'cube run: rc %d %s' % (rc, err))
    if out:
        got = [i['oc0'][0] for i in out['invocations']]
        check(got == [1, 2, 3, 5], 'cube faces -x +y -y -z: %s' % got)


def errors(tmp):
    prog = header(1, 0) + tok(0x00, dest(3, 0, 15), src(0, 0))
    rc, _, err = run(tmp, 'e1.bin', prog, {"invocations": [{"v0": [1]}]})
    check(rc == 2 and 'unknown key' in err, 'vertex input v0 refused: rc %d %s' % (rc, err))
    rc, _, err = run(tmp, 'e2.bin', prog, '{"invocations": [')
    check(rc == 2 and 'JSON' in err, 'broken JSON refused: rc %d %s' % (rc, err))
    rc, _, err = run(tmp, 'e3.bin', header(1, 0) + tok(0x40), {"invocations": []})
    check(rc == 1 and '3620' in err, 'unknown opcode: rc %d %s' % (rc, err))
    frag = header(1, 1) + tok(0x00, dest(3, 0, 15), src(4, 0))
    rc, _, err = run(tmp, 'e4.bin', frag, {"invocations": [{"v0": [1]}] * 3})
    check(rc == 2 and 'quad' in err, '3 fragment invocations refused: rc %d %s' % (rc, err))
    rc, out, err = run(tmp, 'e5.bin', frag, {"invocations": []})
    check(rc == 0 and out == {"invocations": []}, 'no invocations: rc %d %s %s' % (rc, out, err))


def strict_json(tmp):
    # AGAL3 vertex: mov op, iid (every component the instance id, as a float)
    prog = header(3, 0) + tok(0x00, dest(3, 0, 15), src(7, 0))
    rc, out, err = run(tmp, 'i1.bin', prog, {"invocations": [{"iid": 3}, {"iid": 16777216}, {"iid": 4294967295}]})
    check(rc == 0 and out and [i['op'] for i in out['invocations']] ==
          [[3] * 4, [16777216] * 4, [4294967300] * 4], 'iid 3, 2^24, 2^32 - 1: rc %d %s %s' % (rc, out, err))
    for bad in ['1.5', '-1', '4294967296', '"3"', '1e-9']:
        rc, _, err = run(tmp, 'i2.bin', prog, '{"invocations": [{"iid": %s}]}' % bad)
        check(rc == 2 and 'invocations[0].iid: expected a whole number from 0 to 4294967295' in err,
              'iid %s refused: rc %d %s' % (bad, rc, err))
    # One JSON value, then only white space.
    rc, out, err = run(tmp, 'j1.bin', prog, '{"invocations": [{"iid": 1}]} \n\t\r\n')
    check(rc == 0 and out == {"invocations": [{"op": [1, 1, 1, 1]}]}, 'trailing white space: rc %d %s %s' % (rc, out, err))
    for text, at in [('{"invocations": []} x', 20), ('{} {}', 3), ('{"invocations": []}\0{', 19), ('{}]', 2)]:
        rc, _, err = run(tmp, 'j2.bin', prog, text)
        check(rc == 2 and 'more after the JSON value (at byte %d)' % at in err,
              'trailing %r refused: rc %d %s' % (text, rc, err))


def sampler_states(tmp):
    # tex ft0, v0, fs0 <2d, linear, repeat[, ignoresampler]> / mov oc, ft0 on a 2x2
    # texture with r = 2j + i, at (0.5, 0.5), (1.25, 0.5), (0.5, 1.25), (1.25, 1.25).
    # By hand, r = 2J + I with I, J per axis: at 0.5 nearest gives texel 1 and linear
    # averages texels 0 and 1 (0.5); at 1.25 both filters land on texel 2: 1 clamped,
    # 0 repeated.
    texels = [[0, 0, 0, 1], [1, 0, 0, 1], [2, 0, 0, 1], [3, 0, 0, 1]]
    lanes = [[0.5, 0.5], [1.25, 0.5], [0.5, 1.25], [1.25, 1.25]]
    base = {"textures": [{"sampler": 0, "width": 2, "height": 2, "levels": [texels]}],
            "invocations": [{"v0": c} for c in lanes]}

    def prog(ignore):
        return (header(2, 1) + tok(0x28, dest(2, 0, 15), src(4, 0), sampler(0, filt=1, wrap=1) | (4 << 48 if ignore else 0))
                + tok(0x00, dest(3, 0, 15), src(2, 0)))

    def call(slot, wrap, filt, mip='mipnone'):
        return {"slot": slot, "wrap": wrap, "filter": filt, "mipfilter": mip}

    cases = [
        ('own state', False, [], [1.5, 1, 0.5, 0]),                       # linear, repeat: the token's
        ('ignoresampler, nothing set', True, [], [3, 3, 3, 3]),           # clamp, nearest
        ('ignoresampler, set', True, [call(0, 'clamp', 'linear')], [1.5, 2, 2.5, 3]),
        ('set after setProgram', False, [call(0, 'repeat_u_clamp_v', 'nearest')], [3, 2, 3, 2]),
        ('the last call wins', True, [call(0, 'repeat', 'nearest'), call(0, 'clamp_u_repeat_v', 'linear')],
         [1.5, 2, 0.5, 1]),
        ('another slot', True, [call(1, 'repeat', 'linear', 'miplinear')], [3, 3, 3, 3]),
    ]
    for name, ignore, calls, want in cases:
        inputs = dict(base, samplerStates=calls)
        rc, out, err = run(tmp, 's.bin', prog(ignore), inputs)
        got = [i['oc0'][0] for i in out['invocations']] if out else None
        check(rc == 0 and got == want, 'samplerStates, %s: rc %d, got %s, want %s %s' % (name, rc, got, want, err))
    bad = [
        ([call(0, 'Repeat', 'linear')], 'samplerStates[0].wrap: expected a Context3DWrapMode string ("clamp", '
                                        '"repeat", "clamp_u_repeat_v", "repeat_u_clamp_v")'),
        ([{"slot": 0, "wrap": "clamp", "filter": "linear"}], 'samplerStates[0].mipfilter: expected a '
                                                            'Context3DMipFilter string ("mipnone", "mipnearest", "miplinear")'),
        ([call(0, 'clamp', 'bilinear')], 'samplerStates[0].filter: expected a Context3DTextureFilter string'),
        ([call(16, 'clamp', 'linear')], 'samplerStates[0].slot: expected an integer 0..15'),
        ([dict(call(0, 'clamp', 'linear'), mipmap='mipnone')], 'samplerStates[0]: unknown key "mipmap"'),
        ({"slot": 0}, 'samplerStates: expected an array of setSamplerStateAt calls'),
    ]
    for calls, msg in bad:
        rc, _, err = run(tmp, 'sb.bin', prog(True), dict(base, samplerStates=calls))
        check(rc == 2 and msg in err, 'bad samplerStates %s: rc %d %s' % (calls, rc, err))
    # The texture object's old "override" is refused, pointing at samplerStates.
    old = {"textures": [dict(base["textures"][0], override={"wrap": "repeat"})], "invocations": base["invocations"]}
    rc, _, err = run(tmp, 'so.bin', prog(True), old)
    check(rc == 2 and 'textures[0]: unknown key "override"' in err and 'samplerStates' in err,
          'texture override refused: rc %d %s' % (rc, err))


def profiles(tmp):
    # AGAL1 mov op, vc130: past baseline's 128 registers, within standard's 250.
    prog = header(1, 0) + tok(0x00, dest(3, 0, 15), src(1, 130))
    inputs = {"constants": [[i, 0, 0, 1] for i in range(131)], "invocations": [{}]}
    rc, _, err = run(tmp, 'p.bin', prog, inputs)
    check(rc == 1 and '3659' in err, 'vc130 under AGAL1 baseline: rc %d %s' % (rc, err))
    for name in ['standardConstrained', 'enhanced', 'standard_extended']:
        rc, out, err = run(tmp, 'p.bin', prog, inputs, ['--profile', name])
        check(rc == 0 and out['invocations'][0]['op'] == [130, 0, 0, 1], '--profile %s: rc %d %s' % (name, rc, err))
    rc, _, err = run(tmp, 'p.bin', prog, inputs, ['--profile', 'extended'])
    check(rc == 2 and "--profile: 'extended' is not a profile" in err, '--profile extended refused: rc %d %s' % (rc, err))


def assembled(tmp):
    text = '// stage: vertex\n// agal-version: 1\nmul vt0, va0, vc0\nmov op, vt0\n'
    rc, out, err = run(tmp, 'a.agal', text, {"constants": [[2, 3, 4, 5]], "invocations": [{"va0": [1, 2, 3, 4]}]})
    check(rc == 0, '.agal run: rc %d %s' % (rc, err))
    if out:
        check(out['invocations'][0] == {"op": [2, 6, 12, 20]}, '.agal result %s' % out)


with tempfile.TemporaryDirectory() as tmp:
    vertex(tmp)
    trace(tmp)
    fragment(tmp)
    cube(tmp)
    errors(tmp)
    strict_json(tmp)
    sampler_states(tmp)
    profiles(tmp)
    if HAVE_ASM:
        assembled(tmp)

print('%d failures' % failures if failures else 'agalrun interp: all passed')
sys.exit(1 if failures else 0)
