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

// stripNames: every corpus program's -g0 bytes for every target it translates to;
// an upload's texts those of the default with their comments gone, line by line.
checks("stripNames: the native -g0 bytes", (check) => {
  const encoded = (code) => (typeof code === 'string' ? new TextEncoder().encode(code) : new Uint8Array(code.buffer));
  for (const p of manifest.programs) {
    for (const [target, want] of Object.entries(p.stripped)) {
      const { code } = agal.translate(bytes(p.bytes), { target, stripNames: true });
      check(same(encoded(code), bytes(want)), `${p.name} ${target} stripNames: differs`);
    }
  }
  const uncommented = (text) => text.split('\n').filter((l) => !/^\s*(\/\/.*|\/\*.*\*\/)$/.test(l))
    .map((l) => l.replace(/ \/\/ .*$/, '')).join('\n');
  let pairs = 0;
  for (const v of manifest.programs.filter((p) => p.name.endsWith('.vert.agal'))) {
    const f = manifest.programs.find((p) => p.name === v.name.replace('.vert.', '.frag.'));
    if (!f) continue;
    for (const target of ['essl3', 'wgsl']) {
      const up = (options) => agal.upload(bytes(v.bytes), bytes(f.bytes), { target, ...options });
      const commented = up({}), stripped = up({ stripNames: true });
      check(stripped.vertex.length < commented.vertex.length && stripped.vertex === uncommented(commented.vertex) &&
            stripped.fragment === uncommented(commented.fragment), `upload ${v.name} ${target}: stripNames differs`);
    }
    pairs++;
  }
  check(pairs >= 10, `${pairs} pairs uploaded`);
});

// clip: each mode's texts the native build's (`agal2spv --clip`); an upload's the
// same as with the default but for the position's depth, which 'none' leaves as 'gl'
// remaps it, and with 'control' but for the position, op itself, and the vertex
// program's flip uniform, which it does not declare.
checks("clip: the native build's bytes", (check) => {
  for (const p of manifest.programs) {
    for (const [clip, outputs] of Object.entries(p.clip)) {
      for (const [target, want] of Object.entries(outputs)) {
        const { code } = agal.translate(bytes(p.bytes), { target, clip });
        check(same(new TextEncoder().encode(code), bytes(want)), `${p.name} ${target} clip ${clip}: differs`);
      }
    }
  }
  const remapped = (text) => text.replace(/gl_Position = vec4\(op\.x, (.*), op\.z, op\.w\);/, 'gl_Position = vec4(op.x, $1, 2.0 * op.z - op.w, op.w);');
  for (const v of manifest.programs.filter((p) => p.name.endsWith('.vert.agal'))) {
    const f = manifest.programs.find((p) => p.name === v.name.replace('.vert.', '.frag.'));
    if (!f) continue;
    const up = (options) => agal.upload(bytes(v.bytes), bytes(f.bytes), options);
    const any = up({ target: 'essl3' }), gl = up({ target: 'essl3', clip: 'gl' }), none = up({ target: 'essl3', clip: 'none' });
    check(gl.vertex === any.vertex && gl.fragment === any.fragment, `upload ${v.name}: clip 'gl' is not the default`);
    check(none.vertex !== any.vertex && remapped(none.vertex) === any.vertex && none.fragment === any.fragment,
          `upload ${v.name}: clip 'none' differs beyond the depth`);
    const control = up({ target: 'essl3', clip: 'control' });
    const position = /gl_Position = vec4\(op\.x, op\.y \* agal_flip\(\), 2\.0 \* op\.z - op\.w, op\.w\);/;
    const unflipped = (text) => text.replace(/uniform float agal_yflip;\nfloat agal_flip\(\) \{ return .*\n/, '')
      .replace(position, 'gl_Position = op;');
    check(unflipped(any.vertex) === control.vertex && control.fragment === any.fragment &&
          control.bindings.vertex.yflipUniform === null,
          `upload ${v.name}: clip 'control' differs beyond the position and the flip`);
  }
});

// samples: 1 (single-sampled targets): a pair with a centroid sample declares its
// varying without the qualifier, and is otherwise the same text; samples 4 is any.
checks('samples: no centroid varying for single-sampled targets', (check) => {
  const qualifier = { essl3: 'centroid ', glsl: 'centroid ', wgsl: ' @interpolate(perspective, centroid)' };
  let centroidPairs = 0;
  for (const v of manifest.programs.filter((p) => p.name.endsWith('.vert.agal'))) {
    const f = manifest.programs.find((p) => p.name === v.name.replace('.vert.', '.frag.'));
    if (!f) continue;
    for (const [target, q] of Object.entries(qualifier)) {
      const any = agal.upload(bytes(v.bytes), bytes(f.bytes), { target });
      const one = agal.upload(bytes(v.bytes), bytes(f.bytes), { target, samples: 1 });
      const four = agal.upload(bytes(v.bytes), bytes(f.bytes), { target, samples: 4 });
      const declared = (text) => text.split('\n').filter((l) => !l.startsWith('//') && l.includes(q)).length;
      const without = (text) => text.split('\n').map((l) => (l.startsWith('//') ? l : l.replace(q, ''))).join('\n');
      if (target === 'essl3' && declared(any.fragment) > 0) centroidPairs++;
      check(declared(one.vertex) + declared(one.fragment) === 0, `${v.name} ${target}: samples 1 declares centroid`);
      check(one.vertex === without(any.vertex) && one.fragment === without(any.fragment),
            `${v.name} ${target}: samples 1 differs beyond the qualifier`);
      check(four.vertex === any.vertex && four.fragment === any.fragment, `${v.name} ${target}: samples 4 differs`);
    }
  }
  check(centroidPairs >= 1, `${centroidPairs} corpus pairs sample with centroid`);
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

// The limits option: within the limits, the bytes of no limits; past them, Flash's
// #3613 with the library's diagnostic; a bad preset or key a TypeError, a bad count
// a RangeError; and only the object's own properties count.
checks('the limits option', (check) => {
  const attempt = (fn) => { try { return fn(); } catch (e) { return e; } };
  const text = (code) => (typeof code === 'string' ? code : Array.from(code).join(','));
  let compared = 0;
  for (const p of manifest.programs) {
    for (const target of ['glsl', 'essl3', 'essl1', 'wgsl', 'spirv']) {
      const plain = attempt(() => agal.translate(bytes(p.bytes), { target }));
      if (plain instanceof Error) continue;
      const held = attempt(() => agal.translate(bytes(p.bytes), { target, limits: 'vulkan' }));
      compared++;
      check(!(held instanceof Error) && text(held.code) === text(plain.code), `${p.name} ${target} under vulkan: ${held}`);
    }
  }
  check(compared >= 200, `${compared} translations compared under vulkan`);
  const vertex = agal.assemble('mov op, va0\nmov v0, va1\n', { stage: 'vertex', version: 2 });
  const fs7 = agal.assemble('tex ft0, v0, fs7 <2d,linear,nomip>\nmov oc, ft0\n', { stage: 'fragment', version: 2 });
  const fs8 = agal.assemble('tex ft0, v0, fs8 <2d,linear,nomip>\nmov oc, ft0\n', { stage: 'fragment', version: 2 });
  // a pair under limits has its varyings packed: v0, sampled in 2D, carries xy
  const vec2 = { essl1: 'varying vec2 agal_pack0;', essl3: 'out vec2 agal_pack0;', wgsl: 'agal_pack0: vec2f' };
  for (const target of ['essl1', 'essl3', 'wgsl']) {
    const plain = agal.upload(vertex, fs7, { target });
    const held = attempt(() => agal.upload(vertex, fs7, { target, limits: 'webgl1' }));
    const v0 = held instanceof Error ? null : held.bindings.fragment.varyings[0];
    check(!(held instanceof Error) && held.vertex.includes(vec2[target]) && !plain.vertex.includes('agal_pack') &&
          v0 && v0.location === 0 && v0.packed === true && v0.slot === 0 && v0.component === 0 && v0.carried === 3 &&
          v0.width === 2 && v0.name === (target === 'wgsl' ? null : 'agal_pack0'), `fs7 under webgl1, ${target}: ${held} ${JSON.stringify(v0)}`);
  }
  const want = 'fragment program: 9 texture units needed, the limits allow 8 (webgl1)';
  for (const [what, fn] of [['upload', () => agal.upload(vertex, fs8, { target: 'essl1', limits: 'webgl1' })],
                            ['translate', () => agal.translate(fs8, { target: 'essl1', limits: 'webgl1' })]]) {
    const e = attempt(fn);
    check(e instanceof Error && e.errorID === 3613 && e.name === 'Error' &&
          e.message === 'Error #3613: The native shader compilation failed.' && e.diagnostic === want,
          `fs8 ${what} under webgl1: ${e && `${e.name} ${e.errorID} ${e.message} / ${e.diagnostic}`}`);
  }
  check(!(attempt(() => agal.upload(vertex, fs8, { target: 'essl1' })) instanceof Error), 'fs8 without limits');
  const phone = attempt(() => agal.upload(vertex, fs8, { limits: { name: 'phone', fragment_texture_units: 8 } }));
  check(phone instanceof Error && phone.errorID === 3613 && phone.diagnostic === want.replace('webgl1', 'phone'),
        `an object's limits: ${phone && phone.diagnostic}`);
  const none = attempt(() => agal.upload(vertex, fs8, { limits: { fragment_texture_units: 0 } }));
  check(none instanceof Error && /9 texture units needed, the limits allow 0$/.test(none.diagnostic),
        `a count of 0, none: ${none && none.diagnostic}`);
  // inherited limits are not the object's: nothing limited, nothing refused
  const inherited = Object.create({ fragment_texture_units: 1 });
  check(!(attempt(() => agal.upload(vertex, fs8, { limits: inherited })) instanceof Error), 'an inherited limit');
  const bad = [['webgl3', TypeError, /not a preset \(webgl1, webgl2, gl33, vulkan, webgpu, webgpu-compat, wgpu-gl31\)/],
               ['toString', TypeError, /'toString' is not a preset/],
               [8, TypeError, /preset name or an object/],
               ['webgl1\0', TypeError, /preset name or an object/],
               [['webgl1'], TypeError, /preset name or an object/],
               [{ varying_vectorz: 8 }, TypeError, /unknown key "varying_vectorz"/],
               [{ name: 1 }, TypeError, /limits\.name is a string/],
               [{ varying_vectors: 65536 }, RangeError, /limits\.varying_vectors is a count from 0 to 65535, not 65536/],
               [{ varying_vectors: -1 }, RangeError, /not -1/],
               [{ fragment_texture_units: 7.5 }, RangeError, /not 7\.5/],
               [{ vertex_attributes: '8' }, TypeError, /limits\.vertex_attributes must be a number, not "8"/]];
  for (const [limits, type, text] of bad) {
    for (const fn of [() => agal.translate(fs7, { limits }), () => agal.upload(vertex, fs7, { limits })]) {
      const e = attempt(fn);
      check(e instanceof type && e.message.startsWith('agal2spv: ') && text.test(e.message),
            `limits ${JSON.stringify(limits)}: ${e && `${e.name}: ${e.message}`}`);
    }
  }
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

// ---- Context3D's checks: replay_errors.json's cases of the resource calls ------------
// A Context3D model in JavaScript that makes only the package's check* calls: each
// case whose calls it knows must throw the case's line from its last call (String(e)
// is `${e.name}: ${e.message}`); each id the resource checks throw is covered.
const TEXTURE_FORMATS = { bgra: 0, bgraPacked4444: 1, bgrPacked565: 2, compressed: 3, compressedAlpha: 4,
                          rgbaHalfFloat: 5 };
function resourceModel(profile) {
  const c = { profile, objects: { vertexBuffer: 0, indexBuffer: 0, program: 0, texture: 0 } };
  const named = new Map();
  const int = (v, d = 0) => (v === undefined ? d : v | 0);
  const bufferCall = (call, a, usageArg) => {
    const buffer = call === 'createIndexBuffer' ? { call, count: int(a[0]) }
      : { call, count: int(a[0]), data32PerVertex: int(a[1]), instancesPerElement: int(a[2]) };
    agal.checkEnum('Context3DBufferUsage', a[usageArg] === undefined ? 'staticDraw' : a[usageArg], 'bufferUsage');
    agal.checkBuffer(c, buffer);
    c.objects[call === 'createIndexBuffer' ? 'indexBuffer' : 'vertexBuffer']++;
    return buffer;
  };
  const textureCall = (kind, w, h, format, streaming) => {
    const f = agal.checkEnum('Context3DTextureFormat', format, 'textureFormat');
    const texture = { kind, width: int(w), height: int(h), format: Object.keys(TEXTURE_FORMATS)[f],
                      streamingLevels: int(streaming) };
    agal.checkTexture(c, texture);
    c.objects.texture++;
    return texture;
  };
  const calls = {
    configureBackBuffer: (a) => {
      agal.checkBackBuffer(c, int(a[0]), int(a[1]));
      c.backBuffer = { width: int(a[0]), height: int(a[1]) };
    },
    clear: () => agal.checkClear(c),
    createVertexBuffer: (a) => bufferCall('createVertexBuffer', a, 2),
    createVertexBufferForInstances: (a) => bufferCall('createVertexBufferForInstances', a, 3),
    createIndexBuffer: (a) => bufferCall('createIndexBuffer', a, 1),
    createProgram: () => { agal.checkObjectCount(c, 'program'); c.objects.program++; },
    createTexture: (a) => textureCall('2d', a[0], a[1], a[2], a[4]),
    createCubeTexture: (a) => textureCall('cube', a[0], a[0], a[1], a[3]),
    createRectangleTexture: (a) => textureCall('rectangle', a[0], a[1], a[2], 0),
    setCulling: (a) => agal.checkEnum('Context3DTriangleFace', a[0], 'triangleFaceToCull'),
    drawToBitmapData: (a) => {
      agal.checkNonNull(a[0], 'destination');
      agal.checkDrawToBitmap(c, a[0].bitmap.width, a[0].bitmap.height, a[1] ? a[1].rect : null,
                             a[2] ? a[2].point : null);
    },
  };
  const uploads = {
    uploadFromVector: (o, a) => { agal.checkNonNull(a[0], 'data');
      agal.checkBufferUpload(o, { start: int(a[1]), count: int(a[2]), length: a[0].length }); },
    uploadFromByteArray: (o, a) => {
      agal.checkNonNull(a[0], 'data');
      const length = Buffer.from(a[0].base64, 'base64').length;
      if (!o.kind) {
        agal.checkBufferUpload(o, { fromBytes: true, start: int(a[2]), count: int(a[3]), length, byteOffset: int(a[1]) });
        return;
      }
      const side = o.kind === 'cube' ? int(a[2]) : 0, level = o.kind === 'rectangle' ? 0 : int(a[o.kind === 'cube' ? 3 : 2]);
      agal.checkTextureUpload(o, { fromBytes: true, side, level, length, byteOffset: int(a[1]) });
    },
    uploadFromBitmapData: (o, a) => {
      agal.checkNonNull(a[0], 'source');
      const side = o.kind === 'cube' ? int(a[1]) : 0, level = o.kind === 'rectangle' ? 0 : int(a[o.kind === 'cube' ? 2 : 1]);
      agal.checkTextureUpload(o, { side, level, bitmapWidth: a[0].bitmap.width, bitmapHeight: a[0].bitmap.height });
    },
  };
  // The call run, or false for one the model does not know.
  return (call) => {
    const a = call.args || [], on = call.on && named.get(call.on);
    const run = on ? uploads[call.call] && (() => uploads[call.call](on, a)) : !call.on && calls[call.call];
    if (!run) return false;
    const made = run(a);
    if (call.as && made) named.set(call.as, made);
    return true;
  };
}

checks("replay_errors.json's resource cases through the package's Context3D checks", (check) => {
  const { preludes, cases } = manifest.replayErrors;
  const ids = new Set();
  let covered = 0;
  for (const c of cases) {
    let calls = [...preludes[c.prelude], ...c.calls];
    if (c.repeat) calls = calls.concat(Array(c.repeat.times).fill(c.repeat.call));
    const model = resourceModel(c.profile);
    let line = null, at = -1, known = true;
    for (let i = 0; i < calls.length && known && line === null; i++) {
      try { known = model(calls[i]); } catch (e) { line = `${e.name}: ${e.message}`; at = i; ids.add(e.errorID); }
    }
    if (!known) continue;
    covered++;
    check(line === c.line && at === calls.length - 1, `${c.name}: call ${at + 1} of ${calls.length}: ${line}`);
  }
  for (const id of [2007, 2008, 2015, 3669, 3670, 3671, 3673, 3674, 3681, 3682, 3683, 3691, 3698, 3705, 3711, 3745, 3759,
                    3762, 3766, 3780, 3781, 3782, 3784, 3787, 3802]) {
    check(ids.has(id), `no case covers #${id}`);
  }
  check(covered >= 30, `${covered} cases covered`);
});

checks('Context3D checks: limits, ignoreResourceLimits and the enumerations', (check) => {
  const thrown = (fn) => { try { fn(); return null; } catch (e) { return `${e.name}: ${e.message}`; } };
  const big = { kind: '2d', width: 4096, height: 4096, format: 'bgra' };
  check(thrown(() => agal.checkTexture({ profile: 'baseline' }, big))
        === 'ArgumentError: Error #3683: Texture too big (max is 2048x2048).', '4096 in baseline');
  check(thrown(() => agal.checkTexture({ profile: 'baselineExtended' }, big)) === null, '4096 in baselineExtended');
  const full = { objects: { program: 4096 } };
  check(thrown(() => agal.checkObjectCount(full, 'program'))
        === 'Error: Error #3691: Resource limit for this resource type exceeded.', 'the 4097th program');
  check(thrown(() => agal.checkObjectCount({ ...full, ignoreResourceLimits: true }, 'program')) === null,
        'ignoreResourceLimits');
  check(thrown(() => agal.checkMemory(2 ** 40, 2 ** 40 - 8, 8, 0)) === null, 'a create call that fits its budget exactly');
  check(thrown(() => agal.checkMemory(2 ** 40, 2 ** 40 - 8, 8, 1))
        === 'Error: Error #3691: Resource limit for this resource type exceeded.', 'one transient byte past the budget');
  check(thrown(() => agal.checkMemory(16, 0, -1)) === 'RangeError: agal2spv: checkMemory\'s argument 3 is not a byte count',
        'a negative byte count');
  check(agal.checkEnum('Context3DBlendFactor', 'oneMinusSourceAlpha', 'sourceFactor') === 5, 'an enumeration value');
  check(thrown(() => agal.checkEnum('Context3DBlendFactor', null, 'sourceFactor'))
        === 'TypeError: Error #2007: Parameter sourceFactor must be non-null.', 'null');
  check(thrown(() => agal.checkDrawToBitmap({ backBuffer: { width: 64, height: 64 } }, 8, 8, [60, 60, 8, 8]))
        === 'Error: Error #3802: Offset outside stage coordinate bound.', 'a rectangle past the back buffer');
  check(thrown(() => agal.checkDrawToBitmap({ backBuffer: { width: 64, height: 64 } }, 8, 8, null, [7, 7])) === null,
        'a point inside the bitmap');
  check(thrown(() => agal.checkBufferUpload({ call: 'createVertexBuffer', count: 4, data32PerVertex: 3 },
                                            { start: 1, count: 3, length: 8 }))
        === 'RangeError: Error #3669: Bad input size.', 'eight numbers for nine');
});

// debugInfo: every corpus program's -g output, the native build's bytes; mapDriverLog
// of a log naming each line, what `agal2spv --map-log` makes of it, asked after other
// calls (the translation is made again from what the result kept).
checks("debugInfo: the native -g output, and mapDriverLog as agal2spv --map-log", (check) => {
  const results = [];
  for (const p of manifest.programs) {
    for (const [target, want] of Object.entries(p.debug)) {
      if (want.error) continue;
      const r = agal.translate(bytes(p.bytes), { target, debugInfo: true });
      const got = typeof r.code === 'string' ? new TextEncoder().encode(r.code) : new Uint8Array(r.code.buffer);
      check(same(got, bytes(want.code)), `${p.name} ${target} -g: differs`);
      results.push([p, target, r, want]);
    }
  }
  for (const [p, target, r, want] of results) {
    const { log, errors } = agal.mapDriverLog(r, undefined, want.log);
    check(log === want.mapped, `${p.name} ${target}: mapped log differs:\n${log}\nwant:\n${want.mapped}`);
    const named = want.mapped.split('\n').filter((l) => l.startsWith('  AGAL: token ')).length;
    check(errors.length === named && named > 0, `${p.name} ${target}: ${errors.length} errors, ${named} mapped`);
    const source = agal.disassemble(bytes(p.bytes)).split('\n');
    for (const e of errors) {
      check(source[e.line - 1].trim() === e.disassembly && e.line === e.token + 2 && e.message.includes('a fault'),
            `${p.name} ${target}: ${JSON.stringify(e)}`);
    }
  }
});

// An upload's shaders, each mapped by its stage: the fragment's log names a fragment token.
checks("mapDriverLog of an upload, by stage", (check) => {
  const v = agal.assemble('m44 op, va0, vc0\nmov v0, va1\n', { stage: 'vertex' });
  const f = agal.assemble('tex ft0, v0, fs1 <2d, nearest, repeat, mipnone>\nmul oc, ft0, fc0\n', { stage: 'fragment' });
  for (const target of ['essl3', 'essl1', 'glsl']) {
    const up = agal.upload(v, f, { target, debugInfo: true });
    check(up.fragment.includes('#line 4 1'), `${target}: the fragment text has no #line 4 1`);
    agal.translate(f, { target: 'wgsl' }); // a later call: the context's result is gone
    const log = "ERROR: 1:4: 'agal_x' : undeclared identifier\n";
    const frag = agal.mapDriverLog(up, 'fragment', log), vert = agal.mapDriverLog(up, 'vertex', log);
    check(JSON.stringify(frag.errors) === JSON.stringify([{ line: 4, token: 2, disassembly: 'mul oc0, ft0, fc0',
                                                            message: log.trim() }]), `${target}: ${JSON.stringify(frag)}`);
    check(vert.errors.length === 1 && vert.errors[0].disassembly === 'mov v0, va1', `${target}: ${JSON.stringify(vert)}`);
  }
});
