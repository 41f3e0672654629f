#!/usr/bin/env python3
"""The tools' input and output (issue 13), for every tool that was built:

- a failed write leaves the target as it was: -o equal to the input with writes
  refused (RLIMIT_FSIZE, which needs no privileges, and where user namespaces allow
  it a full 64 KiB tmpfs), stdout and -o on /dev/full; successful writes keep the
  target's permissions and symlinks and leave no temporary file behind;
- inputs are capped: bytecode beyond the largest program (196615 bytes) and text
  beyond 16 MiB are refused with exit 2 without being read to the end (/dev/zero);
- every failure exits 2 with a message;
- a pair given fragment first is refused as such;
- numeric options take whole numbers in range only;
- an unreadable input exits 2;
- the progress counter shows on a terminal only.

usage: test_cli_io.py [--agal2spv P] [--agalasm P] [--agaldis P] [--agalrun P]
                      [--agalview P] [--bench P] [--compare]
--compare: agalrun has `compare` and the Vulkan/GL drivers are in the environment."""
import os
import pty
import resource
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

args = sys.argv[1:]
TOOLS = {}
while args:
    a = args.pop(0)
    if a == '--compare':
        TOOLS['compare'] = True
    else:
        TOOLS[a[2:]] = args.pop(0)
A2S, ASM, DIS, RUN, VIEW, BENCH = (TOOLS.get(k) for k in ('agal2spv', 'agalasm', 'agaldis', 'agalrun', 'agalview',
                                                            'bench'))
COMPARE = RUN and TOOLS.get('compare')
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print('FAIL:', what)


def fsize_limit(n):
    """A preexec_fn: writes beyond n bytes of a file fail (EFBIG) instead of killing."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (n, n))
    return limit


def run(cmd, stdin=b'', stdout=subprocess.PIPE, limit=None, timeout=120, cwd=None):
    """(exit status, stdout bytes, stderr text, seconds)."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, input=stdin, stdout=stdout, stderr=subprocess.PIPE, timeout=timeout,
                           preexec_fn=fsize_limit(limit) if limit is not None else None, cwd=cwd)
    except subprocess.TimeoutExpired:
        return -1, b'', 'killed after %d s' % timeout, time.monotonic() - t0
    return p.returncode, p.stdout or b'', p.stderr.decode(errors='replace'), time.monotonic() - t0


def to_dev_full(cmd):
    with open('/dev/full', 'wb') as full:
        return run(cmd, stdout=full)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def write(path, data):
    with open(path, 'wb' if isinstance(data, bytes) else 'w') as f:
        f.write(data)


def failed(what, got, phrase, code=2):
    """Exit `code` with `phrase` in the message."""
    rc, _, err, _ = got
    check(rc == code and phrase in err, '%s: exit %d (want %d), stderr %r (want %r)' % (what, rc, code, err, phrase))


VERT = '// stage: vertex\n// agal-version: 1\nm44 op, va0, vc0\nmov v0, va1\n'
FRAG = '// stage: fragment\n// agal-version: 1\ntex ft0, v0, fs0 <2d,linear>\nmov oc, ft0\n'
SPIRV_MAGIC = bytes.fromhex('03022307')


def outputs(tmp):
    """Temporary file and rename: success, permissions, links, failures."""
    v, f = os.path.join(tmp, 'v.agal'), os.path.join(tmp, 'f.agal')
    write(v, VERT)
    write(f, FRAG)
    vbin = os.path.join(tmp, 'v.bin')
    if ASM:
        check(run([ASM, v, '-o', vbin])[0] == 0, 'agalasm v.agal')
    d = os.path.join(tmp, 'out')
    os.mkdir(d)
    if A2S:
        # -o equal to the input: read whole, then replaced.
        x = os.path.join(d, 'x.agal')
        write(x, VERT)
        os.chmod(x, 0o640)
        rc, _, err, _ = run([A2S, x, '-o', x])
        check(rc == 0 and read(x)[:4] == SPIRV_MAGIC, 'agal2spv -o = input: %d %s' % (rc, err))
        check(stat.S_IMODE(os.stat(x).st_mode) == 0o640, 'the target keeps its mode: %o' % os.stat(x).st_mode)
        check(sorted(os.listdir(d)) == ['x.agal'], 'temporary files left: %s' % os.listdir(d))
        # A new file: 0666 less the umask (022 here).
        new = os.path.join(d, 'new.spv')
        old_mask = os.umask(0o022)
        rc = run([A2S, v, '-o', new])[0]
        os.umask(old_mask)
        check(rc == 0 and stat.S_IMODE(os.stat(new).st_mode) == 0o644, 'new file mode %o' % os.stat(new).st_mode)
        # A symlink stays a link; the file it names gets the output.
        real = os.path.join(d, 'real.spv')
        link = os.path.join(d, 'link.spv')
        write(real, b'old')
        os.symlink('real.spv', link)
        rc = run([A2S, v, '-o', link])[0]
        check(rc == 0 and os.path.islink(link) and read(real)[:4] == SPIRV_MAGIC, 'symlink target written')
        # Writes refused past 16 bytes: the input given as -o is left whole.
        for extra in ([], ['-t', 'spvasm'], ['-t', 'glsl'], ['-t', 'ir']):
            write(x, VERT)
            got = run([A2S, x, '-o', x] + extra, limit=16)
            failed('agal2spv %s -o = input, writes refused' % extra, got, 'agal2spv: cannot write %s: File too large' % x)
            check(read(x) == VERT.encode(), 'agal2spv %s: the input was damaged: %r' % (extra, read(x)[:40]))
        refl = os.path.join(d, 'r.json')
        write(refl, b'{}')
        failed('--reflect, writes refused', run([A2S, v, '--reflect', refl, '-o', os.path.join(d, 's.spv')], limit=16),
               'cannot write %s' % refl)
        check(read(refl) == b'{}', '--reflect target damaged')
        check(sorted(os.listdir(d)) == ['link.spv', 'new.spv', 'r.json', 'real.spv', 'x.agal'],
              'temporary files left after failures: %s' % sorted(os.listdir(d)))
        failed('agal2spv > /dev/full', to_dev_full([A2S, v]), 'agal2spv: cannot write stdout: No space left on device')
        failed('agal2spv -o /dev/full', run([A2S, v, '-o', '/dev/full']),
               'agal2spv: cannot write /dev/full: No space left on device')
        failed('agal2spv -o into a missing directory', run([A2S, v, '-o', os.path.join(d, 'no', 'x.spv')]),
               'cannot write')
        failed('agal2spv -o a directory', run([A2S, v, '-o', d]), 'cannot write %s: Is a directory' % d)
    if ASM:
        x = os.path.join(d, 'asm.agal')
        write(x, VERT)
        failed('agalasm -o = input, writes refused', run([ASM, x, '-o', x], limit=16), 'agalasm: cannot write')
        check(read(x) == VERT.encode(), 'agalasm: the input was damaged')
        rc, _, err, _ = run([ASM, x, '-o', x])
        check(rc == 0 and read(x)[0] == 0xA0, 'agalasm -o = input: %d %s' % (rc, err))
        failed('agalasm -o - > /dev/full', to_dev_full([ASM, v, '-o', '-']), 'agalasm: cannot write stdout')
    if DIS and ASM:
        failed('agaldis > /dev/full', to_dev_full([DIS, vbin]), 'agaldis: cannot write stdout: No space left on device')
    if RUN and ASM:
        inputs = os.path.join(d, 'in.json')
        write(inputs, '{"invocations": [{"va0": [1, 2, 3, 4]}]}')
        failed('agalrun interp -o /dev/full', run([RUN, 'interp', vbin, '--inputs', inputs, '-o', '/dev/full']),
               'agalrun interp: cannot write /dev/full: No space left on device')
        failed('agalrun interp > /dev/full', to_dev_full([RUN, 'interp', vbin, '--inputs', inputs]),
               'cannot write stdout')
        failed('agalrun interp -o = inputs, writes refused',
               run([RUN, 'interp', vbin, '--inputs', inputs, '-o', inputs], limit=16), 'cannot write %s' % inputs)
        check(read(inputs) == b'{"invocations": [{"va0": [1, 2, 3, 4]}]}', 'agalrun interp: the inputs were damaged')
        rc, _, err, _ = run([RUN, 'interp', vbin, '--inputs', inputs, '-o', inputs])
        check(rc == 0 and read(inputs).startswith(b'{"invocations": [\n  {"op": '), 'interp -o = inputs: %s' % err)
    if COMPARE:
        failed('agalrun compare > /dev/full', to_dev_full([RUN, 'compare', '--random', '1']),
               'agalrun: cannot write stdout: No space left on device')
    if VIEW:
        png = os.path.join(d, 'shot.png')
        write(png, b'not yet')
        failed('agalview --screenshot, writes refused', run([VIEW, '--headless', '--screenshot', png, v, f], limit=64),
               'agalview: cannot write %s: File too large' % png)
        check(read(png) == b'not yet', 'agalview: the old screenshot was damaged')
        rc, _, err, _ = run([VIEW, '--headless', '--screenshot', png, v, f])
        check(rc == 0 and read(png)[:4] == b'\x89PNG', 'agalview --screenshot: %d %s' % (rc, err))
    full_disk(tmp, v)


def full_disk(tmp, v):
    """-o equal to the input on a full 64 KiB tmpfs, in a user and mount namespace of
    its own (no privileges needed where user namespaces are allowed)."""
    unshare = shutil.which('unshare')
    tools = [(name, cmd) for name, cmd in [
        ('agal2spv', A2S and [A2S, '$D/in.agal', '-o', '$D/in.agal']),
        ('agalasm', ASM and [ASM, '$D/in.agal', '-o', '$D/in.agal']),
        ('agalrun', RUN and ASM and [RUN, 'interp', '$D/in.bin', '--inputs', '$D/in.json', '-o', '$D/in.json'])] if cmd]
    if not unshare or not tools:
        print('SKIP: full tmpfs checks (no unshare or no tools)')
        return
    if ASM:
        run([ASM, v, '-o', os.path.join(tmp, 'in.bin')])
    write(os.path.join(tmp, 'in.json'), '{"invocations": [{"va0": [1, 2, 3, 4]}]}')
    lines = ['set -u', 'D=$1/fs', 'mkdir -p "$D"', 'mount -t tmpfs -o size=64k none "$D" || exit 77',
             'cp "$1/v.agal" "$D/in.agal"', 'cp "$1/in.json" "$D/in.json"',
             '[ -f "$1/in.bin" ] && cp "$1/in.bin" "$D/in.bin"',
             'head -c 1048576 /dev/zero >"$D/fill" 2>/dev/null']
    for name, cmd in tools:
        lines.append(' '.join('"%s"' % c if '$' in c else "'%s'" % c for c in cmd) +
                     ' 2>"$1/%s.err"; echo $? >"$1/%s.rc"' % (name, name))
    lines += ['cp "$D/in.agal" "$1/after.agal"', 'cp "$D/in.json" "$1/after.json"', 'ls -A "$D" >"$1/ls"']
    script = os.path.join(tmp, 'full.sh')
    write(script, '\n'.join(lines) + '\n')
    p = subprocess.run([unshare, '-Urm', 'sh', script, tmp], capture_output=True, text=True, timeout=120)
    if p.returncode == 77 or (p.returncode and 'unshare' in p.stderr):
        print('SKIP: full tmpfs checks (cannot mount a tmpfs here: %s)' % p.stderr.strip())
        return
    for name, _ in tools:
        rc = read(os.path.join(tmp, name + '.rc')).decode().strip()
        err = read(os.path.join(tmp, name + '.err')).decode()
        check(rc == '2' and 'No space left on device' in err, '%s on a full disk: exit %s, %r' % (name, rc, err))
    check(read(os.path.join(tmp, 'after.agal')) == VERT.encode(), 'full disk: the .agal input was damaged')
    check(read(os.path.join(tmp, 'after.json')) == b'{"invocations": [{"va0": [1, 2, 3, 4]}]}',
          'full disk: the inputs JSON was damaged')
    left = sorted(read(os.path.join(tmp, 'ls')).decode().split())
    check(left == sorted(['fill', 'in.agal', 'in.json'] + (['in.bin'] if ASM else [])),
          'full disk: temporary files left: %s' % left)


def caps(tmp):
    """Inputs beyond the largest valid one: refused, quickly."""
    big = os.path.join(tmp, 'big.bin')
    write(big, bytes([0xA0, 1, 0, 0, 0, 0xA1, 0]) + bytes(24 * 8192 + 1))  # 196616 bytes
    most = os.path.join(tmp, 'most.bin')
    write(most, bytes([0xA0, 1, 0, 0, 0, 0xA1, 0]) + bytes(24 * 8192))  # 196615: the largest program
    phrase = 'larger than 196615 bytes, the size of the largest AGAL program (7 + 24 * 8192)'
    if A2S:
        got = run([A2S, '/dev/zero'], timeout=20)
        failed('agal2spv /dev/zero', got, '/dev/zero: ' + phrase)
        check(got[3] < 10, 'agal2spv /dev/zero took %.1f s' % got[3])
        failed('agal2spv 196616 bytes', run([A2S, '--check', big]), phrase)
        rc, _, err, _ = run([A2S, '--check', '--lenient', most])
        check(rc == 1 and phrase not in err and 'error' in err, '196615 bytes are decoded: %d %s' % (rc, err))
        got = run([A2S, '--stage', 'vertex', '/dev/zero'], timeout=20)  # may be text: the text cap
        failed('agal2spv --stage vertex /dev/zero', got, 'larger than 16777216 bytes')
        check(got[3] < 10, 'agal2spv --stage vertex /dev/zero took %.1f s' % got[3])
        failed('agal2spv - < 196616 bytes', run([A2S, '-'], stdin=read(big)), '<stdin>: ' + phrase)
    if DIS:
        failed('agaldis /dev/zero', run([DIS, '/dev/zero'], timeout=20), phrase)
    if ASM:
        got = run([ASM, '--stage', 'vertex', '/dev/zero', '-o', os.path.join(tmp, 'z.bin')], timeout=20)
        failed('agalasm /dev/zero', got, 'larger than 16777216 bytes, the most AGAL text the tools read (16 MiB)')
        check(not os.path.exists(os.path.join(tmp, 'z.bin')), 'agalasm wrote an output for a refused input')
    if RUN:
        write(os.path.join(tmp, 'e.json'), '{}')
        failed('agalrun interp /dev/zero', run([RUN, 'interp', '/dev/zero', '--inputs', os.path.join(tmp, 'e.json')],
                                               timeout=20), phrase)


def messages(tmp):
    """Unreadable inputs exit 2; a pair fragment first is refused with Flash's error."""
    v, f = os.path.join(tmp, 'v.agal'), os.path.join(tmp, 'f.agal')
    nope = os.path.join(tmp, 'nope.agal')
    for name, cmd in [('agal2spv', A2S and [A2S, nope]), ('agalasm', ASM and [ASM, nope, '-o', '-']),
                      ('agaldis', DIS and [DIS, nope]),
                      ('agalrun interp', RUN and [RUN, 'interp', nope, '--inputs', nope]),
                      ('agalview', VIEW and [VIEW, nope, f]), ('agalrun compare', COMPARE and [RUN, 'compare', v, nope])]:
        if cmd:
            failed(name + ' unreadable input', run(cmd), nope + ': cannot read: No such file or directory')
    if A2S:
        failed('agal2spv a directory', run([A2S, tmp]), tmp + ': cannot read: Is a directory')
        # Decoded in Flash's upload slots: Program3D.upload's errors, exit 1 (a program refused).
        failed('agal2spv --check FRAGMENT VERTEX', run([A2S, '--check', f, v]),
               '%s: error 3631: a fragment program passed as the vertex program' % f, 1)
        failed('agal2spv --check VERTEX VERTEX', run([A2S, '--check', v, v]),
               '%s: error 3630: a vertex program passed as the fragment program' % v, 1)
    if VIEW:
        failed('agalview FRAGMENT VERTEX', run([VIEW, '--headless', '--screenshot', os.path.join(tmp, 's.png'), f, v]),
               '%s: error 3631: a fragment program passed as the vertex program' % f, 1)
    if COMPARE:
        failed('agalrun compare FRAGMENT VERTEX', run([RUN, 'compare', f, v]),
               '%s: error 3631: a fragment program passed as the vertex program' % f, 1)
        corpus = os.path.join(tmp, 'corpus')
        os.mkdir(corpus)
        write(os.path.join(corpus, 'a.vert.agal'), VERT)
        failed('agalrun compare --corpus, a fragment program missing', run([RUN, 'compare', '--corpus', corpus]),
               'a.frag.agal: cannot read: No such file or directory')
        failed('agalrun compare --corpus, no directory', run([RUN, 'compare', '--corpus', nope]),
               'compare: %s: No such file or directory' % nope)
    if RUN:
        failed('agalrun interp, out of range version', run([RUN, 'interp', v, '--inputs', v, '--agal-version', '4']),
               "--agal-version: '4' is not a whole number from 1 to 3")


def numbers(tmp):
    """Every numeric option: whole numbers in range, else exit 2 naming the option."""
    v, f = os.path.join(tmp, 'v.agal'), os.path.join(tmp, 'f.agal')
    bad_counts = ['abc', '', '-1', '+1', ' 1', '1x', '0x10', '1.5', '99999999999999999999999']
    cases = []
    if COMPARE:
        for b in bad_counts + ['0', '1000001']:
            cases.append(([RUN, 'compare', '--random', b], "compare: --random: '%s' is not a whole number from 1 to "
                          "1000000" % b))
        for b in ['xyz', '-1', '18446744073709551616', '1e3']:
            cases.append(([RUN, 'compare', '--random', '1', '--seed', b], "compare: --seed: '%s' is not a whole number "
                          "from 0 to 18446744073709551615" % b))
        cases.append(([RUN, 'compare', '--random', '1', '--vk-only', '--gl-only'], 'leave no backend'))
    if BENCH:
        for b in bad_counts + ['0', '65']:
            cases.append(([BENCH, '--rounds', b], "agal-bench: --rounds: '%s' is not a whole number from 1 to 64" % b))
        for b in ['abc', '0', '-5', '5k']:
            cases.append(([BENCH, '--profile', b], "agal-bench: --profile: '%s' is not a whole number" % b))
    if VIEW:
        for opt, vals, lo, hi in [('--size', ['abc', '7', '4097', '-256'], 8, 4096),
                                  ('--frame', ['abc', '-1', '16777217'], 0, 16777216),
                                  ('--tolerance', ['abc', '256', '1.5', '-1'], 0, 255)]:
            for b in vals:
                cases.append(([VIEW, '--headless', '--screenshot', os.path.join(tmp, 's.png'), opt, b, v, f],
                              "agalview: %s: '%s' is not a whole number from %d to %d" % (opt, b, lo, hi)))
        for b in ['abc', '101', '-1', 'nan', 'inf', '1e', '0x1p3', ' 5']:
            cases.append(([VIEW, '--headless', '--screenshot', os.path.join(tmp, 's.png'), '--max-differing', b, v, f],
                          "agalview: --max-differing: '%s' is not a number from 0 to 100" % b))
    if A2S:
        for b in ['0', '4', 'x', '']:
            cases.append(([A2S, '--agal-version', b, v], "agal2spv: --agal-version: '%s' is not a whole number from 1 "
                          "to 3" % b))
    if ASM:
        cases.append(([ASM, '--agal-version', '9', v, '-o', '-'], "agalasm: --agal-version: '9' is not a whole number"))
    for cmd, phrase in cases:
        failed(' '.join(cmd[1:]), run(cmd, timeout=60), phrase)
    if VIEW:  # in range: accepted (the frame drawn headless)
        rc, _, err, _ = run([VIEW, '--headless', '--screenshot', os.path.join(tmp, 's.png'), '--size', '8', '--frame',
                             '16777216', '--tolerance', '255', '--max-differing', '2.5e1', v, f])
        check(rc == 0, 'agalview, numbers in range: %d %s' % (rc, err))


def on_terminal(cmd):
    """Runs cmd with stderr on a pseudo-terminal and stdout on a pipe: (exit, stdout, what the terminal showed)."""
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    shown = b''
    out = b''
    while True:
        r, _, _ = select.select([master, p.stdout], [], [], 120)
        if not r:
            break
        if master in r:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                chunk = b''
            shown += chunk
        if p.stdout in r:
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                break
            out += chunk
    p.wait(timeout=120)
    try:
        while select.select([master], [], [], 0.1)[0]:
            chunk = os.read(master, 4096)
            if not chunk:
                break
            shown += chunk
    except OSError:
        pass
    os.close(master)
    return p.returncode, out, shown.decode(errors='replace')


def progress(tmp):
    """The counter on a terminal; nothing of it when stderr is a pipe."""
    if BENCH:
        rc, out, shown = on_terminal([BENCH, '--quick', '--rounds', '2'])
        check(rc == 0 and '\ragal-bench: 1/4' in shown and '\ragal-bench: 4/4' in shown,
              'agal-bench on a terminal: %d %r' % (rc, shown))
        check(shown.endswith('\r' + ' ' * len('agal-bench: 4/4') + '\r'), 'agal-bench clears its line: %r' % shown[-40:])
        check(b'\r' not in out, 'agal-bench: the counter went to stdout')
        rc, out2, err, _ = run([BENCH, '--quick', '--rounds', '2'])
        check(rc == 0 and '\r' not in err and 'agal-bench: 1/' not in err, 'agal-bench, stderr not a terminal: %r' % err)
    if COMPARE:
        rc, out, shown = on_terminal([RUN, 'compare', '--random', '3', '--seed', '4'])
        check(rc == 0 and all('\rcompare: %d/3' % i in shown for i in (1, 2, 3)), 'compare on a terminal: %r' % shown)
        rc2, out2, err, _ = run([RUN, 'compare', '--random', '3', '--seed', '4'])
        check(rc2 == 0 and err == '', 'compare, stderr not a terminal: %r' % err)
        check(out == out2, 'compare prints the same with and without a terminal')


with tempfile.TemporaryDirectory() as tmp:
    outputs(tmp)
    caps(tmp)
    messages(tmp)
    numbers(tmp)
    progress(tmp)

print('%d failures' % failures if failures else 'tool I/O: all passed')
sys.exit(1 if failures else 0)
