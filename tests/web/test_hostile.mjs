// test_hostile.mjs: the package's API against hostile input, under node's test runner,
// run by tests/web/test_web.py beside test_web.mjs (it imports 'agal2spv' as a user
// does). Each row of the table is one call and the one outcome it must have: an
// error of a specific class with a specific message (never a WebAssembly trap, a
// TypeError of JavaScript's own or a wrong result), or a result equal to the plain
// call's. After the table, the heap is where it was and the WASM memory no larger.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, FlashError } from 'agal2spv';

const agal = await load();
const vertex = agal.assemble('m44 op, va0, vc0\nmov v0, va1\n', { stage: 'vertex' });
const fragment = agal.assemble('tex ft0, v0, fs0 <2d, linear, repeat>\nmul oc, ft0, fc0\n', { stage: 'fragment' });
const plain = agal.translate(vertex).code;
const plainUpload = agal.upload(vertex, fragment);

// An ArrayBuffer transferred away (postMessage, structuredClone): detached.
// view: a Uint8Array or DataView made before, as an emulator keeps one.
function detachedBuffer(view) {
  const b = new ArrayBuffer(16);
  const kept = view ? new view(b) : b; // eslint-disable-line new-cap
  structuredClone(b, { transfer: [b] });
  return kept;
}

// A random program of n bytes with AGAL's header (a fragment program, version 1).
function randomProgram(n, seed = 7) {
  const b = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  b.set([0xa0, 1, 0, 0, 0, 0xa1, 1]);
  return b;
}

const TARGETS = 'spirv, glsl, essl3, essl1, ir, wgsl';
const PROFILES = 'baselineConstrained, baseline, baselineExtended, standardConstrained, standard, standardExtended, ' +
  'enhanced, auto';
const BYTES = 'must be a Uint8Array, an ArrayBuffer or a typed array view, not';
const t = (options) => () => agal.translate(vertex, options);
const u = (options) => () => agal.upload(vertex, fragment, options);
const asm = (text, options) => () => agal.assemble(text, options);
const names = (n) => t({ names: n });
const identifier = (s) => `agal2spv: agal_names: "${s}" is no GLSL identifier of at most 63 characters`;
const noOption = (call, key, takes) => `agal2spv: ${call} has no option "${key}" (it takes ${takes})`;
const T_OPTIONS = 'target, stage, lenient, profile, names, limits, debugInfo, stripNames, clip';
const U_OPTIONS = 'target, lenient, profile, contextProfile, names, limits, debugInfo, stripNames, samples, clip';
const A_OPTIONS = 'stage, version, strict';
const NAMES = 'vertexConstants, fragmentConstants, vertexBlock, fragmentBlock, sampler, attribute, varying, yflip, ' +
  'yflipComponent';

// [what, call, class, message (a string: the whole message; a RegExp: its form)]
const refused = [
  // the options object itself
  ['translate options null', t(null), TypeError, "agal2spv: translate's options must be an object, not null"],
  ['translate options a string', t('essl1'), TypeError, 'agal2spv: translate\'s options must be an object, not "essl1"'],
  ['translate options a number', t(5), TypeError, "agal2spv: translate's options must be an object, not 5"],
  ['translate options true', t(true), TypeError, "agal2spv: translate's options must be an object, not true"],
  ['translate options an array', t([]), TypeError, "agal2spv: translate's options must be an object, not an array"],
  ['translate options a function', t(() => 0), TypeError,
   "agal2spv: translate's options must be an object, not a function"],
  ['translate options a symbol', t(Symbol('s')), TypeError,
   "agal2spv: translate's options must be an object, not Symbol(s)"],
  ['a misspelt option', t({ targte: 'wgsl' }), TypeError, noOption('translate', 'targte', T_OPTIONS)],
  ['an own __proto__ key', t({ ['__proto__']: { target: 'wgsl' } }), TypeError,
   noOption('translate', '__proto__', T_OPTIONS)],
  ['a symbol key', t({ [Symbol('target')]: 'wgsl' }), TypeError, noOption('translate', 'Symbol(target)', T_OPTIONS)],
  ['contextProfile on translate', t({ contextProfile: 'baseline' }), TypeError,
   noOption('translate', 'contextProfile', T_OPTIONS)],
  ['version on translate', t({ version: 2 }), TypeError, noOption('translate', 'version', T_OPTIONS)],
  // target: own names only
  ...['toString', 'constructor', '__proto__', 'valueOf', 'hasOwnProperty', 'ESSL3', '', 'essl3\0'].map((v) =>
    [`target ${JSON.stringify(v)}`, t({ target: v }), TypeError,
     `agal2spv: target must be one of ${TARGETS}, not ${JSON.stringify(v)}`]),
  ['target 2', t({ target: 2 }), TypeError, `agal2spv: target must be one of ${TARGETS}, not 2`],
  ['target null', t({ target: null }), TypeError, `agal2spv: target must be one of ${TARGETS}, not null`],
  ['target a String object', t({ target: new String('essl3') }), TypeError, // eslint-disable-line no-new-wrappers
   `agal2spv: target must be one of ${TARGETS}, not an object`],
  // stage, profile, contextProfile
  ...['toString', 'Vertex', '__proto__'].map((v) => [`stage ${v}`, t({ stage: v }), TypeError,
    `agal2spv: stage must be one of vertex, fragment, not ${JSON.stringify(v)}`]),
  ['stage 1', t({ stage: 1 }), TypeError, 'agal2spv: stage must be one of vertex, fragment, not 1'],
  ...['toString', 'constructor', 'Baseline', 'standardextended'].map((v) => [`profile ${v}`, t({ profile: v }),
    TypeError, `agal2spv: profile must be one of ${PROFILES}, not ${JSON.stringify(v)}`]),
  ['profile 3', t({ profile: 3 }), TypeError, `agal2spv: profile must be one of ${PROFILES}, not 3`],
  ...['toString', 'valueOf', 'constructor', '__proto__', 'Baseline'].map((v) => [`contextProfile ${v}`,
    u({ contextProfile: v }), TypeError, `agal2spv: contextProfile must be one of ${PROFILES}, not ${JSON.stringify(v)}`]),
  ['upload profile hasOwnProperty', u({ profile: 'hasOwnProperty' }), TypeError,
   `agal2spv: profile must be one of ${PROFILES}, not "hasOwnProperty"`],
  // booleans are booleans
  ...[['"yes"', 'yes'], ['1', 1], ['null', null], ['"false"', 'false'], ['an object', {}]].map(([shown, v]) =>
    [`lenient ${shown}`, t({ lenient: v }), TypeError, `agal2spv: lenient must be a boolean, not ${shown}`]),
  ['upload lenient 0', u({ lenient: 0 }), TypeError, 'agal2spv: lenient must be a boolean, not 0'],
  // names: identifiers or absent
  ['names null', names(null), TypeError, 'agal2spv: names must be an object, not null'],
  ['names a string', names('fs'), TypeError, 'agal2spv: names must be an object, not "fs"'],
  ['names an array', names(['fs']), TypeError, 'agal2spv: names must be an object, not an array'],
  ['names.sampler null', names({ sampler: null }), TypeError, 'agal2spv: names.sampler must be a string, not null'],
  ['names.sampler a number', names({ sampler: 1 }), TypeError, 'agal2spv: names.sampler must be a string, not 1'],
  ['names.sampler with NUL', names({ sampler: 'a\0b' }), TypeError, 'agal2spv: names.sampler contains a NUL character'],
  ['names.yflip with NUL', names({ yflip: 'flip\0' }), TypeError, 'agal2spv: names.yflip contains a NUL character'],
  ['names.attribute an object', names({ attribute: { toString: () => 'a' } }), TypeError,
   'agal2spv: names.attribute must be a string, not an object'],
  ['names.sampler empty', names({ sampler: '' }), TypeError, identifier('')],
  ['names.sampler gl_', names({ sampler: 'gl_s' }), TypeError, identifier('gl_s')],
  ['names.sampler from a digit', names({ sampler: '1a' }), TypeError, identifier('1a')],
  ['names.sampler with a dash', names({ sampler: 'a-b' }), TypeError, identifier('a-b')],
  ['names.varying with a space', names({ varying: 'v v' }), TypeError, identifier('v v')],
  ['names.vertexConstants non-ASCII', names({ vertexConstants: 'vé' }), TypeError, identifier('vé')],
  ['names.sampler of 64 characters', names({ sampler: 'a'.repeat(64) }), TypeError, identifier('a'.repeat(64))],
  ['names.samplers', names({ samplers: 'x' }), TypeError, `agal2spv: names has no "samplers" (it takes ${NAMES})`],
  ['names own toString', names({ toString: 'x' }), TypeError, `agal2spv: names has no "toString" (it takes ${NAMES})`],
  ['names yflipComponent q', names({ yflipComponent: 'q' }), TypeError,
   "agal2spv: names.yflipComponent is 'x', 'y', 'z' or 'w', not \"q\""],
  ['names yflipComponent 1', names({ yflipComponent: 1 }), TypeError,
   "agal2spv: names.yflipComponent is 'x', 'y', 'z' or 'w', not 1"],
  ['upload names.fragmentBlock', u({ names: { fragmentBlock: 'gl_fc' } }), TypeError, identifier('gl_fc')],
  // debugInfo and mapDriverLog
  ['debugInfo a string', t({ debugInfo: 'yes' }), TypeError, 'agal2spv: debugInfo must be a boolean, not "yes"'],
  ['stripNames a number', u({ stripNames: 1 }), TypeError, 'agal2spv: stripNames must be a boolean, not 1'],
  ['mapDriverLog of a translation without debugInfo', () => agal.mapDriverLog(agal.translate(vertex), undefined, ''),
   TypeError, "agal2spv: mapDriverLog's result must be what this object's translate() or upload() returned with " +
   'debugInfo, not an object'],
  ['mapDriverLog of an upload without a stage',
   () => agal.mapDriverLog(agal.upload(vertex, fragment, { debugInfo: true }), undefined, ''), TypeError,
   'agal2spv: mapDriverLog of an upload needs its stage: vertex or fragment'],
  ['mapDriverLog of a log that is no string',
   () => agal.mapDriverLog(agal.translate(vertex, { debugInfo: true }), undefined, 7), TypeError,
   'agal2spv: log must be a string, not 7'],
  // samples
  ['samples on translate', t({ samples: 1 }), TypeError, noOption('translate', 'samples', T_OPTIONS)],
  ['samples a string', u({ samples: '1' }), TypeError, 'agal2spv: samples must be a number, not "1"'],
  ['samples 3', u({ samples: 3 }), RangeError, 'agal2spv: samples is 1, 2, 4, 8 or 16, not 3'],
  ['samples 0', u({ samples: 0 }), RangeError, 'agal2spv: samples is 1, 2, 4, 8 or 16, not 0'],
  ['samples 1.5', u({ samples: 1.5 }), RangeError, 'agal2spv: samples is 1, 2, 4, 8 or 16, not 1.5'],
  ['samples 32', u({ samples: 32 }), RangeError, 'agal2spv: samples is 1, 2, 4, 8 or 16, not 32'],
  // clip
  ['clip d3d', t({ clip: 'd3d' }), TypeError, 'agal2spv: clip must be one of vulkan, gl, none, control, not "d3d"'],
  ['clip toString', u({ clip: 'toString' }), TypeError,
   'agal2spv: clip must be one of vulkan, gl, none, control, not "toString"'],
  ['clip a number', u({ clip: 3 }), TypeError, 'agal2spv: clip must be one of vulkan, gl, none, control, not 3'],
  // limits
  ['limits toString', t({ limits: 'toString' }), TypeError, /^agal2spv: limits: 'toString' is not a preset \(webgl1, /],
  ['limits with NUL', t({ limits: 'webgl1\0' }), TypeError, 'agal2spv: limits is a preset name or an object of limits'],
  ['limits true', t({ limits: true }), TypeError, 'agal2spv: limits is a preset name or an object of limits'],
  ['limits a huge count', u({ limits: { varying_vectors: 1e9 } }), RangeError,
   'agal2spv: limits.varying_vectors is a count from 0 to 65535, not 1000000000'],
  ['limits a string count', u({ limits: { fragment_texture_units: '8' } }), TypeError,
   'agal2spv: limits.fragment_texture_units must be a number, not "8"'],
  // upload's own
  ['upload options null', u(null), TypeError, "agal2spv: upload's options must be an object, not null"],
  ['upload stage', u({ stage: 'vertex' }), TypeError, noOption('upload', 'stage', U_OPTIONS)],
  ['upload target ir', u({ target: 'ir' }), TypeError, 'agal2spv: upload targets a GPU: spirv, glsl, essl3, essl1 or wgsl'],
  ['upload target constructor', u({ target: 'constructor' }), TypeError,
   `agal2spv: target must be one of ${TARGETS}, not "constructor"`],
  // program bytes
  ...[['null', null], ['undefined', undefined], ['"abc"', 'abc'], ['an array', [0xa0, 1]], ['an object', { length: 8 }],
      ['123', 123]].map(([shown, v]) => [`translate bytes ${shown}`, () => agal.translate(v), TypeError,
    `agal2spv: bytes ${BYTES} ${shown}`]),
  ['upload vertex null', () => agal.upload(null, fragment), TypeError, `agal2spv: vertex ${BYTES} null`],
  ['upload fragment a string', () => agal.upload(vertex, 'mov oc, v0'), TypeError,
   `agal2spv: fragment ${BYTES} "mov oc, v0"`],
  ['translate a detached buffer', () => agal.translate(detachedBuffer()), TypeError,
   'agal2spv: bytes is a view of a detached ArrayBuffer'],
  ['translate a view of a detached buffer', () => agal.translate(detachedBuffer(Uint8Array)), TypeError,
   'agal2spv: bytes is a view of a detached ArrayBuffer'],
  ['upload a DataView of a detached buffer', () => agal.upload(vertex, detachedBuffer(DataView)), TypeError,
   'agal2spv: fragment is a view of a detached ArrayBuffer'],
  ['translate past 1 MiB', () => agal.translate(new Uint8Array((1 << 20) + 1)), RangeError,
   'agal2spv: bytes is 1048577 bytes, more than 1048576'],
  ['translate 16 MiB', () => agal.translate(new ArrayBuffer(1 << 24)), RangeError,
   'agal2spv: bytes is 16777216 bytes, more than 1048576'],
  ['upload past 1 MiB', () => agal.upload(vertex, new Float64Array(131073)), RangeError,
   'agal2spv: fragment is 1048584 bytes, more than 1048576'],
  // Flash's own refusals of such bytes, as Flash throws them
  ['translate an empty program', () => agal.translate(new Uint8Array(0)), FlashError,
   'Error #3615: AGAL validation failed: Program size below minimum length for  program.'],
  ['translate 1 MiB of zeros', () => agal.translate(new Uint8Array(1 << 20)), FlashError,
   'Error #3616: AGAL validation failed: Not an AGAL program. Wrong magic byte for vertex program.'],
  ['translate 1 MiB of random tokens', () => agal.translate(randomProgram(7 + 24 * 43690)), FlashError,
   'Error #3629: AGAL validation failed: Too many tokens (43690) for fragment program.'],
  // assemble
  ...[['null', null], ['123', 123], ['undefined', undefined], ['an object', {}], ['an array', ['mov']]].map(
    ([shown, v]) => [`assemble ${shown}`, asm(v), TypeError, `agal2spv: assemble's text must be a string, not ${shown}`]),
  ['assemble a String object', asm(new String('mov oc, v0')), TypeError, // eslint-disable-line no-new-wrappers
   "agal2spv: assemble's text must be a string, not an object"],
  ['assemble options null', asm('mov oc, v0', null), TypeError,
   "agal2spv: assemble's options must be an object, not null"],
  ['assemble lenient', asm('mov oc, v0', { lenient: true }), TypeError, noOption('assemble', 'lenient', A_OPTIONS)],
  ...[-1, 0, 4, 99, NaN, 1.5, Infinity, -Infinity].map((v) => [`version ${v}`, asm('mov oc, v0', { version: v }),
    RangeError, `agal2spv: version must be 1, 2 or 3, not ${v}`]),
  ...[['"2"', '2'], ['null', null], ['true', true], ['an array', [2]]].map(([shown, v]) => [`version ${shown}`,
    asm('mov oc, v0', { version: v }), TypeError, `agal2spv: version must be a number, not ${shown}`]),
  ['assemble stage toString', asm('mov oc, v0', { stage: 'toString' }), TypeError,
   'agal2spv: stage must be one of vertex, fragment, not "toString"'],
  ['assemble stage Fragment', asm('mov oc, v0', { stage: 'Fragment' }), TypeError,
   'agal2spv: stage must be one of vertex, fragment, not "Fragment"'],
  ['assemble strict "yes"', asm('mov oc, v0', { stage: 'fragment', strict: 'yes' }), TypeError,
   'agal2spv: strict must be a boolean, not "yes"'],
  ['assemble an unknown opcode, strict', asm('mov oc, v0\nfoo ft0, v0\n', { stage: 'fragment', strict: true }),
   SyntaxError, /^agal2spv: line 2, column 1: /],
  ['assemble a missing comma, strict', asm('mov oc v0\n', { stage: 'fragment', strict: true }), SyntaxError,
   /^agal2spv: line 1, column \d+: .*missing ','/],
  ['assemble without a stage', asm('mov oc, v0\n'), SyntaxError, /^agal2spv: .*stage/],
  ['assemble a bad register', asm('mov oc, zz9\n', { stage: 'fragment' }), SyntaxError, /^agal2spv: line 1, column /],
  ['assemble past 1 MiB', asm(' '.repeat((1 << 20) + 1)), RangeError,
   "agal2spv: assemble's text is 1048577 bytes of UTF-8, more than 1048576"],
  ['assemble past 1 MiB of UTF-8', asm('é'.repeat((1 << 19) + 1)), RangeError,
   "agal2spv: assemble's text is 1048578 bytes of UTF-8, more than 1048576"],
  // disassemble
  ...[['null', null], ['"abc"', 'abc'], ['an array', [0xa0]], ['undefined', undefined]].map(([shown, v]) =>
    [`disassemble ${shown}`, () => agal.disassemble(v), TypeError, `agal2spv: bytes ${BYTES} ${shown}`]),
  ['disassemble a detached buffer', () => agal.disassemble(detachedBuffer()), TypeError,
   'agal2spv: bytes is a view of a detached ArrayBuffer'],
  ['disassemble no bytes', () => agal.disassemble(new Uint8Array(0)), Error,
   'agal2spv: 0 bytes are too few for the 7-byte header'],
  ['disassemble 3 bytes', () => agal.disassemble(new ArrayBuffer(3)), Error,
   'agal2spv: 3 bytes are too few for the 7-byte header'],
  ['disassemble past its limit', () => agal.disassemble(new Uint8Array(196616)), RangeError,
   'agal2spv: bytes is 196616 bytes, more than 196615'],
  ['disassemble 1 MiB of random bytes', () => agal.disassemble(randomProgram(1 << 20)), RangeError,
   'agal2spv: bytes is 1048576 bytes, more than 196615'],
  // Context3D's checks
  ['checkClear null', () => agal.checkClear(null), TypeError, 'agal2spv: context must be an object, not null'],
  ['checkClear a string', () => agal.checkClear('baseline'), TypeError,
   'agal2spv: context must be an object, not "baseline"'],
  ['checkEnum toString', () => agal.checkEnum('toString', 'x', 'p'), TypeError,
   /^agal2spv: className must be one of Context3DBlendFactor, .*, not "toString"$/],
  ['checkObjectCount constructor', () => agal.checkObjectCount({}, 'constructor'), TypeError,
   'agal2spv: kind must be one of vertexBuffer, indexBuffer, program, texture, not "constructor"'],
  ['checkTexture a profile toString', () => agal.checkTexture({ profile: 'toString' },
    { kind: '2d', width: 4, height: 4, format: 'bgra' }), TypeError, /^agal2spv: profile must be one of .*"toString"$/],
  ['checkTexture a kind __proto__', () => agal.checkTexture({}, { kind: '__proto__', width: 4, height: 4, format: 'bgra' }),
   TypeError, 'agal2spv: kind must be one of 2d, cube, rectangle, not "__proto__"'],
];

// Calls that must succeed and give what the plain call gives.
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const shared = (b) => { const s = new SharedArrayBuffer(b.length); new Uint8Array(s).set(b); return s; };
const accepted = [
  ['a SharedArrayBuffer', () => agal.translate(shared(vertex)).code === plain],
  ['a view of a SharedArrayBuffer', () => agal.translate(new Uint8Array(shared(vertex))).code === plain],
  ['a DataView', () => agal.translate(new DataView(vertex.buffer, vertex.byteOffset, vertex.length)).code === plain],
  ['an inherited target', () => agal.translate(vertex, Object.create({ target: 'wgsl' })).code === plain],
  ['inherited names', () => agal.translate(vertex, { names: Object.create({ attribute: 'a b' }) }).code === plain],
  ['a frozen options object', () => agal.translate(vertex, Object.freeze({ target: 'essl3' })).code === plain],
  // A getter that translates again while the options are read: each call keeps its own.
  ['an options getter calling in again', () => {
    const again = () => agal.translate(vertex, { target: 'essl1', lenient: true, names: { attribute: 'b' } });
    return agal.translate(vertex, { get lenient() { again(); return false; }, target: 'essl3' }).code === plain;
  }],
  ['a names getter calling in again', () => {
    const again = () => agal.translate(vertex, { target: 'essl1', names: { attribute: 'b' } });
    const named = agal.translate(vertex, { names: { attribute: 'a' } }).code;
    return agal.translate(vertex, { names: { get attribute() { again(); return 'a'; } } }).code === named;
  }],
  ['profile auto, the old spelling', () => agal.translate(vertex, { profile: 'auto' }).code === plain],
  ['profile baselineConstrained', () => agal.translate(vertex, { profile: 'baselineConstrained' }).code === plain],
  ['an upload on an enhanced context', () => agal.upload(vertex, fragment, { contextProfile: 'enhanced' }).fragment ===
    plainUpload.fragment],
  ['an unknown opcode, not strict: a warning', () => {
    const b = agal.assemble('foo ft0, v0\n', { stage: 'fragment' });
    return b.length === 7 && b.warnings.length === 1 && b.warnings[0].line === 1 && b.warnings[0].column === 1 &&
      b.warnings[0].warning === true && typeof b.warnings[0].message === 'string';
  }],
  ['a missing comma, not strict: a warning', () => {
    const b = agal.assemble('mov oc v0\n', { stage: 'fragment' });
    return b.length === 31 && b.warnings.length === 1 && /missing ','/.test(b.warnings[0].message);
  }],
  ['a clean text: no warnings', () => agal.assemble('mov oc, v0\n', { stage: 'fragment' }).warnings.length === 0],
  ['version 2 in the header', () => agal.assemble('mov oc, v0\n', { stage: 'fragment', version: 2 })[1] === 2],
  ['disassemble at its limit', () => agal.disassemble(randomProgram(196615)).startsWith('// agal-version: 1')],
  ['assemble 1 MiB of comments', () => agal.assemble(`${'// x\n'.repeat(209700)}mov oc, v0\n`,
    { stage: 'fragment' }).length === 31],
  ['names applied', () => agal.translate(fragment, { names: { sampler: 'tex' } }).code.includes('tex0')],
];

test('hostile input: each row its error, each accepted call its result, the heap where it was', () => {
  const heap = agal.heapUsed(), pages = agal.memory.buffer.byteLength;
  const failed = [];
  for (const [what, call, type, message] of refused) {
    let e = null;
    try {
      call();
    } catch (x) {
      e = x;
    }
    const ok = e !== null && Object.getPrototypeOf(e) === type.prototype &&
      (typeof message === 'string' ? e.message === message : message.test(e.message));
    if (!ok) failed.push(`${what}: ${e ? `${e.constructor.name}: ${e.message}` : 'no error'}`);
  }
  for (const [what, call] of accepted) {
    let good;
    try {
      good = call();
    } catch (x) {
      good = `${x.constructor.name}: ${x.message}`;
    }
    if (good !== true) failed.push(`${what}: ${good}`);
  }
  assert.deepEqual(failed, []);
  assert.ok(refused.length >= 100, `${refused.length} rows`);
  assert.equal(agal.heapUsed(), heap, 'the heap after the table');
  assert.equal(agal.memory.buffer.byteLength, pages, 'the WASM memory after the table');
});

test("Flash's errors are FlashError, with Flash's class as name", () => {
  let e;
  try {
    agal.upload(vertex, agal.assemble('mov oc, v1\n', { stage: 'fragment' }));
  } catch (x) {
    e = x;
  }
  assert.ok(e instanceof FlashError && e instanceof Error);
  assert.equal(e.errorID, 3632);
  assert.equal(String(e).split(':')[0], e.name);
});

test('the internals are not on the object', () => {
  assert.deepEqual(Object.keys(agal), []);
  assert.equal(typeof agal.version, 'string');
  assert.ok(agal.memory instanceof WebAssembly.Memory);
});

test('a disposed instance throws agal2spv: disposed, never a trap', async () => {
  const gone = await load();
  gone.dispose();
  gone.dispose(); // twice: nothing more
  const calls = [() => gone.translate(vertex), () => gone.upload(vertex, fragment), () => gone.assemble('mov oc, v0'),
    () => gone.disassemble(vertex), () => gone.checkEnum('Context3DBlendFactor', 'one', 'sourceFactor'),
    () => gone.checkClear({}), () => gone.checkMemory(1, 0, 0), () => gone.translate(null, null)];
  for (const call of calls) {
    assert.throws(call, (e) => Object.getPrototypeOf(e) === Error.prototype && e.message === 'agal2spv: disposed');
  }
});
