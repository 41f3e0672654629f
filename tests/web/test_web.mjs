// test_web.mjs: the package's API against the native build, under node's test runner
// (`node --test`), run by tests/web/test_web.py in a folder where `npm install` put
// the package's tarball, so it imports 'agal2spv' as a user does; $AGAL_MANIFEST
// names the manifest test_web.py makes with the native tools.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from 'agal2spv';

const manifest = JSON.parse(readFileSync(process.env.AGAL_MANIFEST, 'utf8'));
const bytes = (b64) => new Uint8Array(Buffer.from(b64, 'base64'));
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const agal = await load();

// A test of many checks: every failed check is named, the test fails on any.
function checks(name, body) {
  test(name, () => {
    const failed = [];
    body((ok, what) => { if (!ok) failed.push(what); });
    assert.deepEqual(failed, []);
  });
}

checks('the version and the memory', (check) => {
  check(agal.version === manifest.version, `version ${agal.version}, want ${manifest.version}`);
  check(agal.memory instanceof WebAssembly.Memory, 'memory is the module\'s WebAssembly.Memory');
});

// Every corpus program, every target: the native build's bytes.
checks("every corpus program, every target: the native build's bytes", (check) => {
  for (const p of manifest.programs) {
    const b = bytes(p.bytes);
    for (const [target, want] of Object.entries(p.outputs)) {
      let got;
      try {
        const { code } = agal.translate(b.buffer.slice(b.byteOffset, b.byteOffset + b.length), { target });
        got = typeof code === 'string' ? new TextEncoder().encode(code) : new Uint8Array(code.buffer);
      } catch (e) {
        got = e;
      }
      if (typeof want === 'object') check(got instanceof Error, `${p.name} ${target}: refused natively, not here`);
      else check(!(got instanceof Error) && same(got, bytes(want)), `${p.name} ${target}: differs (${got})`);
    }
    // WGSL's bind group layout: the native reflection's, entry for entry.
    const layout = agal.translate(b, { target: 'wgsl' }).bindings.bindGroupLayout;
    check(JSON.stringify(layout) === JSON.stringify({ entries: p.webgpu.entries }),
          `${p.name}: bindGroupLayout ${JSON.stringify(layout)}, want ${JSON.stringify(p.webgpu.entries)}`);
    // The disassembly assembles back to the same bytes.
    check(same(agal.assemble(agal.disassemble(b)), b), `${p.name}: disassemble + assemble`);
  }
});

// An upload's WGSL layout: both stages' entries, vertex then fragment.
checks("an upload's WGSL bind group layout", (check) => {
  for (const v of manifest.programs.filter((p) => p.name.endsWith('.vert.agal'))) {
    const f = manifest.programs.find((p) => p.name === v.name.replace('.vert.', '.frag.'));
    if (!f) continue;
    const up = agal.upload(bytes(v.bytes), bytes(f.bytes), { target: 'wgsl' });
    const want = { entries: [...v.webgpu.entries, ...f.webgpu.entries] };
    check(typeof up.vertex === 'string' && up.vertex.includes('@vertex') &&
          JSON.stringify(up.bindings.bindGroupLayout) === JSON.stringify(want),
          `upload ${v.name} wgsl: ${JSON.stringify(up.bindings.bindGroupLayout)}, want ${JSON.stringify(want)}`);
  }
});

// Flash's errors: the line `agal2spv --check --flash` prints, its id and its class.
checks("Flash's errors: id, class and line", (check) => {
  for (const u of manifest.uploads) {
    let e = null;
    try { agal.upload(bytes(u.vertex), bytes(u.fragment)); } catch (err) { e = err; }
    const id = Number(/#(\d+)/.exec(u.line)[1]);
    check(e && e.message === u.line && e.errorID === id && (e.name === 'Error' || e.name === 'ArgumentError'),
          `upload: ${e ? `${e.name} ${e.errorID} ${e.message}` : 'no error'}, want ${u.line}`);
  }
});

// The host's names (OpenFL's), through translate and upload.
checks("the host's names", (check) => {
  const openfl = { vertexConstants: 'vc0', fragmentConstants: 'fc0', sampler: 'sampler', yflip: 'vcPositionScale',
                   yflipComponent: 'y' };
  const named = manifest.programs.find((p) => p.name.includes('.vert.'));
  const t = agal.translate(bytes(named.bytes), { target: 'essl1', names: openfl });
  check(t.code.includes('vcPositionScale.y') && !/\bvc\[/.test(t.code) && !t.code.includes('agal_yflip'),
        `names: ${t.code}`);
  check(t.bindings.constants === null || t.bindings.constants.name === 'vc0', 'names: the binding names vc0');
  let refused = null;
  try { agal.translate(bytes(named.bytes), { target: 'glsl', names: { sampler: 'gl_x' } }); } catch (err) { refused = err; }
  check(refused && /gl_x/.test(refused.message), `a gl_ name is refused: ${refused}`);
});

// A typed array view of a larger buffer, and the argument checks.
checks('typed array views and argument checks', (check) => {
  const first = manifest.programs[0];
  const big = new Uint8Array(bytes(first.bytes).length + 8);
  big.set(bytes(first.bytes), 4);
  check(typeof agal.translate(new DataView(big.buffer, 4, big.length - 8)).code === 'string', 'a DataView');
  let thrown = null;
  try { agal.translate('not bytes'); } catch (err) { thrown = err; }
  check(thrown instanceof TypeError, 'a string is a TypeError');
  thrown = null;
  try { agal.translate(bytes(first.bytes), { target: 'hlsl' }); } catch (err) { thrown = err; }
  check(thrown instanceof TypeError, 'an unknown target is a TypeError');
});

// Nothing leaks: 1e5 uploads, good and refused, leave the heap where it was.
checks('1e5 uploads leave the heap where it was', (check) => {
  const verts = manifest.programs.filter((p) => p.name.includes('.vert.'));
  const frags = manifest.programs.filter((p) => p.name.includes('.frag.'));
  const v = bytes(verts[0].bytes), f = bytes(frags.find((x) => x.name.startsWith(verts[0].name.split('.')[0])).bytes);
  const bad = manifest.uploads[0];
  agal.upload(v, f);
  const heap = agal.heapUsed(), pages = agal.memory.buffer.byteLength;
  for (let i = 0; i < 100000; i++) {
    if (i % 10) agal.upload(v, f, { target: i % 3 ? 'essl3' : 'spirv' });
    else try { agal.upload(bytes(bad.vertex), bytes(bad.fragment)); } catch { /* refused */ }
  }
  check(agal.heapUsed() === heap && agal.memory.buffer.byteLength === pages,
        `1e5 uploads: heap ${heap} -> ${agal.heapUsed()}, memory ${pages} -> ${agal.memory.buffer.byteLength}`);
});
