// agal2spv for JavaScript: the library compiled to WebAssembly (agal_web.c), with
// an API that fits JavaScript. `const agal = await load()`; then translate, upload,
// assemble and disassemble. What Flash Player would throw is a FlashError (errorID
// its id, name its class, message its line, diagnostic the library's own words); an
// argument passed wrong a TypeError or RangeError starting `agal2spv:`; a text the
// assembler cannot read a SyntaxError (web/README.md, "Options, errors and limits").
import createModule from './agal2spv-wasm.js';

// Tables of names: null-prototype objects, so only their own names are found
// ('toString' is no target).
const table = (o) => Object.assign(Object.create(null), o);
const TARGETS = table({ spirv: 0, glsl: 1, essl3: 2, essl1: 3, ir: 4, wgsl: 5 });
// Context3DProfile's names and the register profile (agal_profile) each means
// (docs/format.md section 7): the one profile vocabulary of `profile` and
// `contextProfile`. 'auto' (the program's version's limits, as leaving `profile` out)
// is the old spelling, accepted for one version.
const PROFILES = table({
  baselineConstrained: 1, baseline: 1, baselineExtended: 1, standardConstrained: 2, standard: 2,
  standardExtended: 3, enhanced: 3, auto: 0,
});
const SLOTS = table({ vertex: 1, fragment: 2 });
const STAGES = table({ vertex: 0, fragment: 1 });
// agal_clip: how op is mapped from Stage3D's clip space (left out: the target's way).
const CLIPS = table({ vulkan: 1, gl: 2, none: 3, control: 4 });
const STATUS = ['ok', 'invalid', 'out of memory', 'bad argument', 'limit', 'internal error', 'unsupported'];

// What each call takes (any other key is a TypeError: a misspelt option is not ignored).
const CALL_OPTIONS = {
  translate: ['target', 'stage', 'lenient', 'profile', 'names', 'limits', 'debugInfo', 'stripNames', 'clip'],
  upload: ['target', 'lenient', 'profile', 'contextProfile', 'names', 'limits', 'debugInfo', 'stripNames', 'samples',
           'clip'],
  assemble: ['stage', 'version', 'strict'],
};
const NAME_KEYS = ['vertexConstants', 'fragmentConstants', 'vertexBlock', 'fragmentBlock', 'sampler', 'attribute',
                   'varying', 'yflip'];

// The largest inputs the package copies into the WASM heap, so that no call grows the
// heap past its first 16 MiB (web/README.md, "Limits"). A program: Flash's largest is
// 196,615 bytes (8192 tokens, #3629 past it); disassemble's text is up to 18 bytes a
// byte; assemble's, 24 bytes a line.
const MAX_PROGRAM_BYTES = 1 << 20;
const MAX_DISASSEMBLE_BYTES = 196615;
const MAX_ASSEMBLE_BYTES = 1 << 20;
// Past this, a call's scratch block and context are given back after it.
const SCRATCH_KEEP = 1 << 16;

/** What Flash Player throws: errorID its id, name its class ('Error',
 * 'ArgumentError', 'RangeError', 'TypeError'), message its line; diagnostic the
 * library's own words where they say more (which limit a #3613 exceeded). */
export class FlashError extends Error {
  constructor(errorID, name, message, diagnostic) {
    super(message);
    this.name = name;
    this.errorID = errorID;
    if (diagnostic !== undefined) this.diagnostic = diagnostic;
  }
}

// A value as an error message shows it: strings quoted and cut, never a throw.
function shown(v) {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  if (v === null || typeof v !== 'object' && typeof v !== 'function') return String(v);
  return Array.isArray(v) ? 'an array' : typeof v === 'function' ? 'a function' : 'an object';
}

function option(tbl, value, name, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !Object.hasOwn(tbl, value)) {
    throw new TypeError(`agal2spv: ${name} must be one of ${Object.keys(tbl).join(', ')}, not ${shown(value)}`);
  }
  return tbl[value];
}

function flag(value, name) {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new TypeError(`agal2spv: ${name} must be a boolean, not ${shown(value)}`);
  }
  return value ? 1 : 0;
}

// upload's `samples`: the render targets' samples (agal_upload_options.samples), 0
// (any) when left out.
function samplesOf(value) {
  if (value === undefined) return 0;
  if (typeof value !== 'number') throw new TypeError(`agal2spv: samples must be a number, not ${shown(value)}`);
  if (![1, 2, 4, 8, 16].includes(value)) {
    throw new RangeError(`agal2spv: samples is 1, 2, 4, 8 or 16, not ${shown(value)}`);
  }
  return value;
}

function isObject(v) { return typeof v === 'object' && v !== null && !Array.isArray(v); }

function noOption(call, key) {
  const known = CALL_OPTIONS[call];
  return new TypeError(`agal2spv: ${call} has no option ${shown(String(key))} (it takes ${known.join(', ')})`);
}

// Every option of every call: the record optionsOf fills.
const ALL_OPTIONS = [...new Set(Object.values(CALL_OPTIONS).flat())];

function optionRecord() { return Object.seal(Object.fromEntries(ALL_OPTIONS.map((k) => [k, undefined]))); }

// The call's options, their keys checked, their values read once each into
// `given` (a record of ALL_OPTIONS an object reuses, undefined where not given):
// undefined is none; anything but an object, or a key the call does not take, is a
// TypeError. Only own properties are read.
function optionsOf(options, call, given) {
  for (let i = 0; i < ALL_OPTIONS.length; i++) given[ALL_OPTIONS[i]] = undefined;
  if (options === undefined) return given;
  if (!isObject(options)) throw new TypeError(`agal2spv: ${call}'s options must be an object, not ${shown(options)}`);
  const known = CALL_OPTIONS[call], keys = Object.getOwnPropertyNames(options); // string keys: cheaper than Reflect.ownKeys
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!known.includes(key)) throw noOption(call, key);
    given[key] = options[key];
  }
  const symbols = Object.getOwnPropertySymbols(options);
  if (symbols.length) throw noOption(call, symbols[0]);
  return given;
}

// o[key] when it is o's own property, else undefined.
function own(o, key) { return Object.hasOwn(o, key) ? o[key] : undefined; }

// A string option bound for C: no NUL inside (C would end it there).
function cText(value, name) {
  if (typeof value !== 'string') throw new TypeError(`agal2spv: ${name} must be a string, not ${shown(value)}`);
  if (value.includes('\0')) throw new TypeError(`agal2spv: ${name} contains a NUL character`);
  return cString(value);
}

// The `names` option: an object of NAME_KEYS' strings and yflipComponent; each a
// GLSL identifier, which the library checks (agal_names; its message a TypeError).
const NO_NAMES = { strings: NAME_KEYS.map(() => null), component: 0 };
function namesOf(names) {
  if (names === undefined) return NO_NAMES;
  if (!isObject(names)) throw new TypeError(`agal2spv: names must be an object, not ${shown(names)}`);
  for (const key of Reflect.ownKeys(names)) {
    if (typeof key !== 'string' || !NAME_KEYS.includes(key) && key !== 'yflipComponent') {
      throw new TypeError(`agal2spv: names has no ${shown(String(key))} (it takes ${NAME_KEYS.join(', ')}, ` +
                          'yflipComponent)');
    }
  }
  const own = (k) => (Object.hasOwn(names, k) ? names[k] : undefined);
  const c = own('yflipComponent');
  if (c !== undefined && !['x', 'y', 'z', 'w'].includes(c)) {
    throw new TypeError(`agal2spv: names.yflipComponent is 'x', 'y', 'z' or 'w', not ${shown(c)}`);
  }
  const strings = NAME_KEYS.map((k) => (own(k) === undefined ? null : cText(own(k), `names.${k}`)));
  return { strings, component: c ? c.charCodeAt(0) : 0 };
}

// The `limits` option as agal_web.c's read_limits takes it: a preset's name, or an
// object of the JSON form's keys (docs/binding-models.md, "Limits"; web/README.md)
// as that JSON's text, written here from the object's own properties only (no
// toJSON, nothing inherited). A count out of range is a RangeError; an unknown key
// or preset, the library's TypeError.
function limitsOf(limits) {
  if (limits === undefined || limits === null) return null;
  if (typeof limits === 'string' && !limits.includes('\0')) return { text: cString(limits), json: 0 };
  if (!isObject(limits)) throw new TypeError('agal2spv: limits is a preset name or an object of limits');
  const members = Object.entries(limits).map(([key, v]) => {
    if (key === 'name') {
      if (typeof v !== 'string') throw new TypeError('agal2spv: limits.name is a string');
    } else if (typeof v !== 'number') {
      throw new TypeError(`agal2spv: limits.${key} must be a number, not ${shown(v)}`);
    } else if (!Number.isInteger(v) || v < 0 || v > 65535) {
      throw new RangeError(`agal2spv: limits.${key} is a count from 0 to 65535, not ${shown(v)}`);
    }
    return `${JSON.stringify(key)}:${JSON.stringify(v)}`;
  });
  return { text: cString(`{${members.join(',')}}`), json: 1 };
}

// agal_web.c's web_options, field by field (32-bit each, in its order): the C struct
// and this list are the boundary; `size` is checked against web_options_size. A new
// option: a field here and there, its value in `writeOptions` (or the call's own).
const OPTION_FIELDS = ['size', 'target', 'slot', 'lenient', 'profile', 'contextProfile', ...NAME_KEYS,
                       'yflipComponent', 'limits', 'limitsJson', 'stage', 'version', 'strict', 'debugInfo',
                       'samples', 'clip', 'stripNames'];
// Each field's index (a word of the struct).
const FIELD = Object.freeze(Object.fromEntries(OPTION_FIELDS.map((k, i) => [k, i])));
// The struct's room in the scratch block (its words are written in place).
const OPTIONS_BYTES = 4 * OPTION_FIELDS.length;

// A struct's words from numeric fields by name, and its strings: [field, bytes]
// pairs whose words become the bytes' pointers.
function optionWords(numbers, strings = []) {
  const words = OPTION_FIELDS.map(() => 0); // an array, not a typed one: nothing for the GC to free
  for (const k of Object.keys(numbers)) words[FIELD[k]] = numbers[k];
  return { words, strings };
}

// translate's and upload's options (optionsOf's record), checked, written into
// words (one web_options, reused across calls: no garbage per call): the strings
// its words point to, as [field, bytes] pairs, written by #placeOptions. Nothing is kept from one call to
// the next, the options object being free to change between them.
const NO_STRINGS = Object.freeze([]);
function writeOptions(o, words) {
  // The record's values first: a getter of `names` or `limits` may call in again,
  // which refills the record.
  const { target, stage, lenient, profile, contextProfile, debugInfo, stripNames, samples, clip } = o;
  const given = o.names, limited = o.limits;
  const names = given === undefined ? NO_NAMES : namesOf(given);
  const limits = limitsOf(limited);
  words.fill(0);
  words[FIELD.target] = option(TARGETS, target, 'target', TARGETS.essl3);
  words[FIELD.slot] = option(SLOTS, stage, 'stage', 0);
  words[FIELD.lenient] = flag(lenient, 'lenient');
  words[FIELD.profile] = option(PROFILES, profile, 'profile', 0);
  words[FIELD.contextProfile] = option(PROFILES, contextProfile, 'contextProfile', 0);
  words[FIELD.yflipComponent] = names.component;
  words[FIELD.debugInfo] = flag(debugInfo, 'debugInfo');
  words[FIELD.samples] = samplesOf(samples);
  words[FIELD.clip] = option(CLIPS, clip, 'clip', 0);
  words[FIELD.stripNames] = flag(stripNames, 'stripNames');
  if (names === NO_NAMES && !limits) return NO_STRINGS;
  const strings = [];
  for (let i = 0; i < NAME_KEYS.length; i++) if (names.strings[i]) strings.push([FIELD[NAME_KEYS[i]], names.strings[i]]);
  if (limits) strings.push([FIELD.limits, limits.text]), words[FIELD.limitsJson] = limits.json;
  return strings;
}

// agal_map_driver_log's lines "  AGAL: token N (line L): disassembly", each after
// the driver's line it places: [{ line, token, disassembly, message }], token
// counted from 1 as the log, Flash and the texts' comments count it.
const AGAL_LINE = /^  AGAL: token (\d+) \(line (\d+)\): (.*)$/;
function mappedErrors(log) {
  const lines = log.split('\n'), errors = [];
  for (let i = 1; i < lines.length; i++) {
    const m = AGAL_LINE.exec(lines[i]);
    if (m) errors.push({ line: Number(m[2]), token: Number(m[1]), disassembly: m[3], message: lines[i - 1] });
  }
  return errors;
}

// A program's bytes as a Uint8Array over them: a Uint8Array, an ArrayBuffer, a
// SharedArrayBuffer or any view, not detached and at most `max` bytes.
function bytesOf(data, name, max = MAX_PROGRAM_BYTES) {
  let view;
  if (data instanceof Uint8Array) view = data;
  else if (data instanceof ArrayBuffer || isShared(data)) view = detached(data) ? null : new Uint8Array(data);
  else if (ArrayBuffer.isView(data)) {
    view = detached(data.buffer) ? null : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } else {
    throw new TypeError(`agal2spv: ${name} must be a Uint8Array, an ArrayBuffer or a typed array view, not ` +
                        `${shown(data)}`);
  }
  if (!view || view.length === 0 && detached(view.buffer)) { // a detached buffer's views are empty
    throw new TypeError(`agal2spv: ${name} is a view of a detached ArrayBuffer`);
  }
  if (view.length > max) throw new RangeError(`agal2spv: ${name} is ${view.length} bytes, more than ${max}`);
  return view;
}

// translate's and upload's inputs, kept with each result for `bindings` read
// after a later call, pipelineKey and mapDriverLog (the caller may change its arrays
// after the call): the option words and the programs copied one after another into
// a block shared by many calls, so that a call allocates no typed array (one a call
// cost as much as writing the bindings' JSON with every translation did). A block
// lives while a result keeps a part of it: 16 KiB, a few dozen calls' inputs, is
// what a result kept long may hold beside its own.
const KEEP_BLOCK = 1 << 14;
class Keeper {
  #block = new Uint8Array(0);
  #words = new Int32Array(0); // #block's words
  #used = 0;

  // { block, at, vn, fn, strings } (fn null for translate): inputsOf's argument.
  keep(words, strings, v, f) {
    const size = 4 * words.length + v.length + (f ? f.length : 0);
    let at = (this.#used + 3) & ~3;
    if (at + size > this.#block.length) {
      this.#block = new Uint8Array(Math.max(size, KEEP_BLOCK));
      this.#words = new Int32Array(this.#block.buffer, 0, this.#block.length >> 2);
      at = 0;
    }
    this.#words.set(words, at >> 2);
    this.#block.set(v, at + 4 * words.length);
    if (f) this.#block.set(f, at + 4 * words.length + v.length);
    this.#used = at + size;
    return { block: this.#block, at, vn: v.length, fn: f ? f.length : null, strings };
  }
}

// What Keeper.keep kept: { vertex, fragment (null for translate), words, strings },
// views of its block.
function inputsOf(k) {
  const v = k.at + 4 * OPTION_FIELDS.length, f = v + k.vn;
  return { vertex: k.block.subarray(v, f), fragment: k.fn === null ? null : k.block.subarray(f, f + k.fn),
           words: new Int32Array(k.block.buffer, k.at, OPTION_FIELDS.length), strings: k.strings };
}

// A binding (the library's JSON) with what agal_web.c's host_json adds to its
// entries: constants.block and .array, each sampler's unit (and for WGSL its
// samplerDescriptor), the attributes' and varyings' names, and yflipUniform.
function hosted(binding, host) {
  if (binding.constants) Object.assign(binding.constants, host.constants);
  binding.samplers.forEach((s, i) => Object.assign(s, host.samplers[i]));
  binding.attributes.forEach((x, i) => Object.assign(x, host.attributes[i]));
  binding.varyings.forEach((x, i) => Object.assign(x, host.varyings[i]));
  binding.yflipUniform = host.yflipUniform;
  return binding;
}

// The assembler's error (its last diagnostic; the warnings before it with it) as a
// SyntaxError, its diagnostics in e.diagnostics.
function syntaxError(diagnostics) {
  const d = diagnostics[diagnostics.length - 1];
  const where = d && d.line ? `line ${d.line}, column ${d.column}: ` : '';
  const e = new SyntaxError(`agal2spv: ${where}${d ? d.message : 'the text does not assemble'}`);
  e.diagnostics = diagnostics;
  return e;
}

function isShared(b) { return typeof SharedArrayBuffer === 'function' && b instanceof SharedArrayBuffer; }

// A transferred ArrayBuffer (structuredClone, postMessage) cannot be read.
function detached(buffer) {
  if (isShared(buffer)) return false;
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  try {
    new Uint8Array(buffer, 0, 0); // eslint-disable-line no-new
    return false;
  } catch {
    return true;
  }
}

// A call's answer (agal_web.c's web_answer), read before the next call: status,
// the code (text, SPIR-V words, or bytes), the JSON's text, parsed when first asked
// for (json()), a failed call's error, and a translation's or upload's `bound`
// (web_bindings_json's argument). The JSON is decoded at once: a string costs less
// to make and to collect than a copy of its bytes (an ArrayBuffer).
class Answer {
  #json;
  #parsed;

  constructor(status, json, bound) {
    this.status = status;
    this.#json = json;
    this.bound = bound;
    this.error = null;
    this.code0 = this.code1 = null;
  }

  json() {
    if (this.#parsed === undefined) this.#parsed = this.#json === null ? null : JSON.parse(this.#json);
    return this.#parsed;
  }
}

// Agal's method that writes a result's bindings' JSON (web_bindings_json), which
// the result classes call; a symbol, so that it is no API.
const BINDINGS_JSON = Symbol('bindingsJson');

// translate()'s result: { code, bindings }, the bindings written and parsed when
// first read (most callers never read them: writing them with every translation took
// a tenth of its time). A getter of the class, not an own getter of each result:
// defining one per call would cost more than the rest of the answer path.
class Translation {
  #agal;
  #generation; // the call that made it: Agal's #generation then
  #bound;
  #inputs;
  #bindings;

  constructor(a, agal, generation, inputs) {
    this.code = a.code0;
    this.#agal = agal;
    this.#generation = generation;
    this.#bound = a.bound;
    this.#inputs = inputs;
  }

  get bindings() {
    if (!this.#bindings) {
      const { binding, host } = this.#agal[BINDINGS_JSON](this.#generation, this.#bound, this.#inputs);
      this.#bindings = hosted(binding, host);
    }
    return this.#bindings;
  }
}

// upload()'s result: { vertex, fragment, bindings } (with WGSL's bindGroupLayout),
// the bindings read as Translation's.
class Upload {
  #agal;
  #generation;
  #bound;
  #inputs;
  #bindings;

  constructor(a, agal, generation, inputs) {
    this.vertex = a.code0;
    this.fragment = a.code1;
    this.#agal = agal;
    this.#generation = generation;
    this.#bound = a.bound;
    this.#inputs = inputs;
  }

  get bindings() {
    if (!this.#bindings) {
      const json = this.#agal[BINDINGS_JSON](this.#generation, this.#bound, this.#inputs);
      const { vertex, fragment, bindGroupLayout, host } = json;
      const b = { vertex: hosted(vertex, host.vertex), fragment: hosted(fragment, host.fragment) };
      this.#bindings = bindGroupLayout ? { ...b, bindGroupLayout } : b;
    }
    return this.#bindings;
  }
}

class Agal {
  #m;
  #ctx;
  #version;
  #memory;
  #decoder = new TextDecoder();
  #scratch = 0; // #withBytes' block in the heap
  #scratchSize = 0;
  #optionsSize;
  #pipelineStateSize;
  #uploads = new WeakMap(); // upload()'s results: their bytes and options, for pipelineKey
  #debugged = new WeakMap(); // translate()'s and upload()'s results with debugInfo: their inputs, for mapDriverLog
  #keys = new WeakMap(); // pipelineKey's results: their upload, for pipelineDescriptor
  #enums = []; // Context3D's enumerations: AS3 name to the library's value (#enum)
  #pairs = new Set(); // the live web_pairs
  #freed = new FinalizationRegistry((pair) => { if (this.#pairs.delete(pair)) this.#m._web_pair_free(pair); });
  #words = new Int32Array(OPTION_FIELDS.length); // translate's and upload's web_options
  #at = [0, 0, 0]; // #placeOptions' programs and its extra input, in the heap
  #u8 = new Uint8Array(0); // #heap's views
  #i32 = null;
  #u32 = null;
  #translateC; // the module's web_translate and web_upload
  #uploadC;
  #given = optionRecord(); // optionsOf's record
  #reading = false; // optionsOf is reading into #given
  // Counts the calls that reset the context (each answer read, a context given
  // back): a result whose call is the last one still has its bindings in the arena.
  #generation = 0;
  #keeper = new Keeper(); // translate's and upload's inputs, for their results

  constructor(m) {
    this.#m = m;
    this.#ctx = m._web_new();
    if (!this.#ctx) throw new Error('agal2spv: out of memory');
    this.#version = m.UTF8ToString(m._web_version());
    this.#optionsSize = m._web_options_size();
    this.#pipelineStateSize = m._web_pipeline_state_size();
    // The module's memory is its one exported WebAssembly.Memory (emscripten minifies the name).
    this.#memory = Object.values(m.asm).find((v) => v instanceof WebAssembly.Memory);
    this.#translateC = m._web_translate;
    this.#uploadC = m._web_upload;
  }

  // optionsOf into the object's record, or into a new one when a getter of the
  // options calls in again while it is read.
  #options(options, call) {
    if (this.#reading) return optionsOf(options, call, optionRecord());
    this.#reading = true;
    try {
      return optionsOf(options, call, this.#given);
    } finally {
      this.#reading = false;
    }
  }

  // The heap's bytes, HEAPU8 as the module last made it, and the views #i32 and
  // #u32 beside it: read once per call instead of the module's own properties on
  // each access (the module object is a dictionary), made again after the memory grew
  // (which detaches the old buffer: its views' length is 0).
  #heap() {
    if (this.#u8.length === 0) {
      this.#u8 = this.#m.HEAPU8;
      this.#i32 = this.#m.HEAP32;
      this.#u32 = this.#m.HEAPU32;
    }
    return this.#u8;
  }

  /** The library's version. */
  get version() { return this.#version; }

  /** The module's WebAssembly.Memory. */
  get memory() { return this.#memory; }

  #live() {
    if (!this.#ctx) throw new Error('agal2spv: disposed');
  }

  // Copies the inputs one after another into the object's scratch block in the
  // WASM heap (4-byte aligned; grown as needed, given back after a call past
  // SCRATCH_KEEP, so a usual call allocates nothing), and calls fn with their pointers.
  #withBytes(inputs, fn) {
    return fn(...this.#place(inputs));
  }

  // The inputs copied one after another into the scratch block: their pointers.
  #place(inputs) {
    this.#live();
    const ptrs = [];
    let size = 0;
    for (const b of inputs) {
      ptrs.push(size);
      size += (b.length + 3) & ~3;
    }
    this.#reserve(size);
    const heap = this.#heap();
    for (let i = 0; i < inputs.length; i++) {
      ptrs[i] += this.#scratch;
      heap.set(inputs[i], ptrs[i]);
    }
    return ptrs;
  }

  // The scratch block at least size bytes.
  #reserve(size) {
    if (size <= this.#scratchSize) return;
    const grown = Math.max(size, Math.min(2 * this.#scratchSize, SCRATCH_KEEP), SCRATCH_KEEP);
    const p = this.#m._malloc(grown);
    if (!p) throw new Error('agal2spv: out of memory');
    this.#m._free(this.#scratch);
    this.#scratch = p;
    this.#scratchSize = grown;
  }

  // After a large call: the scratch block and the context's arena (which keeps up
  // to 8 MiB of spare blocks) go back to the heap.
  #settle() {
    if (this.#scratchSize <= SCRATCH_KEEP) return;
    this.#m._free(this.#scratch);
    this.#scratch = this.#scratchSize = 0;
    this.#m._web_free(this.#ctx);
    this.#generation++;
    this.#ctx = this.#m._web_new();
    if (!this.#ctx) throw new Error('agal2spv: out of memory');
  }

  // The web_options' words (its strings' pointers written in: [field, bytes] pairs),
  // the strings and the programs v and f (f may be null) in the scratch block: the
  // options' pointer; the programs' are this.#at[0] and [1], `extra`'s (bytes or
  // null) this.#at[2]. No array, view or closure per call.
  #placeOptions(words, strings, v, f, extra = null) {
    this.#live();
    let size = OPTIONS_BYTES;
    for (let i = 0; i < strings.length; i++) size += (strings[i][1].length + 3) & ~3;
    const at0 = size;
    size += (v.length + 3) & ~3;
    const at1 = size;
    if (f) size += (f.length + 3) & ~3;
    const at2 = size;
    if (extra) size += (extra.length + 3) & ~3;
    this.#reserve(size);
    const base = this.#scratch, heap = this.#heap();
    let p = base + OPTIONS_BYTES;
    for (let i = 0; i < strings.length; i++) {
      const bytes = strings[i][1];
      heap.set(bytes, p);
      words[strings[i][0]] = p;
      p += (bytes.length + 3) & ~3;
    }
    words[0] = this.#optionsSize;
    this.#i32.set(words, base >> 2);
    heap.set(v, base + at0);
    if (f) heap.set(f, base + at1);
    if (extra) heap.set(extra, base + at2);
    this.#at[0] = base + at0;
    this.#at[1] = base + at1;
    this.#at[2] = base + at2;
    return base;
  }

  // The web_answer at p: 9 words (agal_web.c). The code is read now, as text (raw:
  // the bytes) or SPIR-V words, and the JSON's text (the next call reuses the
  // memory), parsed when first asked for (web_bindings_json's: the library's JSON
  // of each binding and what host_json adds, and for WGSL the WebGPU bind group
  // layout, `bindGroupLayout`, as the library writes them: src/runtime/reflect_json.c).
  #answer(p, raw = false) {
    if (!p) throw new Error('agal2spv: out of memory');
    this.#generation++;
    const heap = this.#heap(), w = this.#u32, i = p >> 2, at = w[i + 5];
    if (!raw) {
      const a = this.#answerAsOne(w, i);
      if (a) return a;
    }
    const a = new Answer(w[i] | 0, at ? this.#decoder.decode(heap.subarray(at, at + w[i + 6])) : null, w[i + 8]);
    if (a.status !== 0) {
      a.error = this.#error(a.status, a.json());
      return a;
    }
    const words = w[i + 7] !== 0;
    a.code0 = this.#code(w[i + 1], w[i + 3], words, raw);
    a.code1 = this.#code(w[i + 2], w[i + 4], words, raw);
    return a;
  }

  // An upload's answer whose two texts follow one another (agal_web.c's
  // texts_and_bound) decoded as one string and cut, when it is ASCII (a character a
  // byte: the GLSL family's and WGSL's texts, the names being identifiers); null
  // otherwise.
  #answerAsOne(w, i) {
    const c0 = w[i + 1], n0 = w[i + 3], c1 = w[i + 2], n1 = w[i + 4];
    if ((w[i] | 0) !== 0 || w[i + 7] !== 0 || !c0 || !c1 || c0 + n0 !== c1) return null;
    const all = this.#decoder.decode(this.#u8.subarray(c0, c1 + n1));
    if (all.length !== n0 + n1) return null;
    const a = new Answer(0, null, w[i + 8]);
    a.code0 = all.slice(0, n0);
    a.code1 = all.slice(n0);
    return a;
  }

  #code(ptr, n, words, raw) {
    const heap = this.#u8;
    if (raw) return heap.slice(ptr, ptr + n);
    if (!ptr && !n) return null;
    return words ? new Uint32Array(heap.slice(ptr, ptr + n).buffer) : this.#decoder.decode(heap.subarray(ptr, ptr + n));
  }

  // A failed answer's error: the assembler's a SyntaxError; an argument passed wrong ({"message"} alone:
  // agal_web.c's `misused`) a TypeError; Flash's error a FlashError; an error Flash
  // has no id for (a target that cannot express the program) an Error.
  #error(status, info) {
    if (!info) return new Error(`agal2spv: ${STATUS[status] || status}`);
    if (info.diagnostics) return syntaxError(info.diagnostics);
    if (info.id === undefined) return new TypeError(`agal2spv: ${info.message}`);
    if (info.id === 0) return new Error(`agal2spv: ${info.diagnostic || info.message}`);
    return new FlashError(info.id, info.name, info.message, info.diagnostic);
  }

  // The answer at p (#answer), its error thrown; the call settled first.
  #finish(p, raw = false) {
    let a;
    try {
      a = this.#answer(p, raw);
    } finally {
      this.#settle();
    }
    if (a.error) throw a.error;
    return a;
  }

  // #finish of fn's answer, settled also when fn throws.
  #call(fn, raw = false) {
    let p;
    try {
      p = fn();
    } catch (e) {
      this.#settle();
      throw e;
    }
    return this.#finish(p, raw);
  }

  // One program for one target: { code, bindings }.
  translate(data, options) {
    this.#live();
    const o = this.#options(options, 'translate');
    const b = bytesOf(data, 'bytes');
    const strings = writeOptions(o, this.#words);
    const opts = this.#placeOptions(this.#words, strings, b, null);
    const a = this.#finish(this.#translateC(this.#ctx, this.#at[0], b.length, opts));
    const inputs = this.#keeper.keep(this.#words, strings, b, null);
    const result = new Translation(a, this, this.#generation, inputs);
    if (this.#words[FIELD.debugInfo]) this.#debugged.set(result, inputs);
    return result;
  }

  // Program3D.upload: { vertex, fragment, bindings }, or Flash's error.
  upload(vertexData, fragmentData, options) {
    this.#live();
    const o = this.#options(options, 'upload');
    const v = bytesOf(vertexData, 'vertex'), f = bytesOf(fragmentData, 'fragment');
    const strings = writeOptions(o, this.#words);
    if (this.#words[FIELD.target] === TARGETS.ir) {
      throw new TypeError('agal2spv: upload targets a GPU: spirv, glsl, essl3, essl1 or wgsl');
    }
    const opts = this.#placeOptions(this.#words, strings, v, f);
    const a = this.#finish(this.#uploadC(this.#ctx, this.#at[0], v.length, this.#at[1], f.length, opts));
    const inputs = this.#keeper.keep(this.#words, strings, v, f);
    const result = new Upload(a, this, this.#generation, inputs);
    this.#uploads.set(result, inputs);
    if (this.#words[FIELD.debugInfo]) this.#debugged.set(result, inputs);
    return result;
  }

  // The JSON of the bindings of a result of this object's translate() or upload()
  // (web_bindings_json): from the arena when no call came since the result's
  // (`generation`), else from its inputs translated again, as mapDriverLog does (in a
  // context of its own once this object is disposed).
  [BINDINGS_JSON](generation, bound, kept) {
    if (generation === this.#generation && this.#ctx) return this.#bindingsJson(bound);
    const agal = this.#ctx ? this : new Agal(this.#m);
    try {
      return agal.#translatedAgain(inputsOf(kept));
    } finally {
      if (agal !== this) agal.dispose();
    }
  }

  #bindingsJson(bound) {
    const a = this.#answer(this.#m._web_bindings_json(this.#ctx, bound));
    if (a.error) throw a.error;
    return a.json();
  }

  // inputsOf's inputs translated (or uploaded) again: the bindings' JSON, read before
  // the call is settled (which may give its context back).
  #translatedAgain(inputs) {
    const { vertex, fragment } = inputs;
    try {
      const opts = this.#placeOptions(inputs.words, inputs.strings, vertex, fragment);
      const a = this.#answer(fragment ? this.#uploadC(this.#ctx, this.#at[0], vertex.length, this.#at[1],
                                                      fragment.length, opts)
                                      : this.#translateC(this.#ctx, this.#at[0], vertex.length, opts));
      if (a.error) throw a.error;
      return this.#bindingsJson(a.bound);
    } finally {
      this.#settle();
    }
  }

  // A driver's compile or link log of `result`'s text or module (what this object's
  // translate() or upload() returned with debugInfo; `stage` the upload's 'vertex'
  // or 'fragment') with each error it can place followed by its AGAL token
  // (agal_map_driver_log, docs/debug-info.md): { log, errors: [{ line, token,
  // disassembly, message }] }. The context keeps no result between calls, so the
  // translation is made again from the inputs kept at the call.
  mapDriverLog(result, stage, log) {
    this.#live();
    const kept = isObject(result) ? this.#debugged.get(result) : undefined;
    if (!kept) {
      throw new TypeError('agal2spv: mapDriverLog\'s result must be what this object\'s translate() or upload() ' +
                          `returned with debugInfo, not ${shown(result)}`);
    }
    const from = inputsOf(kept);
    const st = from.fragment ? option(STAGES, stage, 'stage', undefined) : 0;
    if (st === undefined) throw new TypeError('agal2spv: mapDriverLog of an upload needs its stage: vertex or fragment');
    const text = cText(log, 'log');
    const a = this.#call(() => {
      const opts = this.#placeOptions(from.words, from.strings, from.vertex, from.fragment, text);
      const f = from.fragment ? this.#at[1] : 0, fn = from.fragment ? from.fragment.length : 0;
      return this.#m._web_map_log(this.#ctx, this.#at[0], from.vertex.length, f, fn, opts, st, this.#at[2]);
    });
    return { log: a.code0, errors: mappedErrors(a.code0) };
  }

  // Adobe's AGALMiniAssembler syntax to its bytes; stage and version default to the
  // text's `// stage:` and `// agal-version:` comments (then version 1). The bytes
  // carry `warnings`: what Adobe's assembler ignores or reads its own way, which
  // `strict` makes a SyntaxError as agalasm --strict does.
  assemble(text, options) {
    this.#live();
    const o = this.#options(options, 'assemble');
    if (typeof text !== 'string') throw new TypeError(`agal2spv: assemble's text must be a string, not ${shown(text)}`);
    const t = new TextEncoder().encode(text);
    if (t.length > MAX_ASSEMBLE_BYTES) {
      throw new RangeError(`agal2spv: assemble's text is ${t.length} bytes of UTF-8, more than ${MAX_ASSEMBLE_BYTES}`);
    }
    const v = o.version;
    if (v !== undefined && typeof v !== 'number') {
      throw new TypeError(`agal2spv: version must be a number, not ${shown(v)}`);
    }
    if (v !== undefined && !(v === 1 || v === 2 || v === 3)) {
      throw new RangeError(`agal2spv: version must be 1, 2 or 3, not ${shown(v)}`);
    }
    const fields = optionWords({ stage: option(STAGES, o.stage, 'stage', -1), version: v || 0,
                                 strict: flag(o.strict, 'strict') });
    const a = this.#call(() => {
      const opts = this.#placeOptions(fields.words, fields.strings, t, null);
      return this.#m._web_assemble(this.#ctx, this.#at[0], t.length, opts);
    }, true);
    const diagnostics = a.json().diagnostics;
    const bytes = a.code0;
    Object.defineProperty(bytes, 'warnings', { value: diagnostics.filter((d) => d.warning), enumerable: true });
    return bytes;
  }

  disassemble(data) {
    this.#live();
    const b = bytesOf(data, 'bytes', MAX_DISASSEMBLE_BYTES);
    return this.#call(() => this.#withBytes([b], (p) => this.#m._web_disassemble(this.#ctx, p, b.length))).code0;
  }

  // ---- Context3D's checks (agal_check_*, <agal/stage3d.h>) ----------------------------
  // What Flash's Context3D checks before it makes, fills or reads a resource, in
  // Flash's order: each returns, or throws Flash's error as upload does (errorID,
  // name, message). `context` describes the Context3D: { profile ('baseline'),
  // backBuffer: { width, height } (absent: not configured), renderToTexture (a
  // render target set), objects: { vertexBuffer, indexBuffer, program, texture }
  // (live objects of each kind), ignoreResourceLimits } (web/README.md).

  // The index of an enumeration string (Context3DTextureFormat's 'bgra' is 0); null
  // is #2007, another string #2008, both naming param.
  checkEnum(className, value, param) {
    const which = option(ENUM_CLASSES, className, 'className');
    const strings = [value == null ? new Uint8Array(1) : cString(value), cString(param)];
    const a = this.#checked(this.#withBytes(strings, (v, p) =>
      this.#m._web_check_enum(this.#ctx, which, value == null ? 0 : v, p)));
    return a.json().value;
  }

  checkNonNull(value, param) {
    this.#withBytes([cString(param)], (p) => this.#checked(this.#m._web_check_non_null(this.#ctx, value == null ? 0 : 1, p)));
  }

  checkBackBuffer(context, width, height) {
    this.#withContext(context, [], (c) => this.#m._web_check_back_buffer(this.#ctx, c, width | 0, height | 0));
  }

  checkClear(context) { this.#withContext(context, [], (c) => this.#m._web_check_clear(this.#ctx, c)); }

  checkDrawInstanced(context) { this.#withContext(context, [], (c) => this.#m._web_check_draw_instanced(this.#ctx, c)); }

  // kind: 'vertexBuffer', 'indexBuffer', 'program' or 'texture'.
  checkObjectCount(context, kind) {
    const k = option(RESOURCE_KINDS, kind, 'kind');
    this.#withContext(context, [], (c) => this.#m._web_check_object_count(this.#ctx, c, k));
  }

  // A create call against the emulator's own memory budget for its resources:
  // #3691 when held bytes, and transient more during the call, do not fit beside
  // inUse (byte counts: non-negative integers up to 2^53).
  checkMemory(budget, inUse, held, transient = 0) {
    this.#live();
    const n = [budget, inUse, held, transient].map((v, i) => {
      if (!Number.isSafeInteger(v) || v < 0)
        throw new RangeError(`agal2spv: checkMemory's argument ${i + 1} is not a byte count`);
      return v;
    });
    this.#checked(this.#m._web_check_memory(this.#ctx, ...n));
  }

  // buffer: { call: 'createVertexBuffer' | 'createVertexBufferForInstances' |
  // 'createIndexBuffer', count, data32PerVertex, instancesPerElement }.
  checkBuffer(context, buffer) {
    this.#withContext(context, [bufferDesc(buffer)], (c, b) => this.#m._web_check_buffer(this.#ctx, c, b));
  }

  // texture: { kind: '2d' | 'cube' | 'rectangle', width, height, format ('bgra'...), streamingLevels }.
  checkTexture(context, texture) {
    this.#withContext(context, [textureDesc(texture)], (c, t) => this.#m._web_check_texture(this.#ctx, c, t));
  }

  // An upload into the buffer checkBuffer passed: { fromBytes, start, count, length
  // (the Vector's numbers or the ByteArray's bytes), byteOffset }.
  checkBufferUpload(buffer, up) {
    this.#withBytes([bufferDesc(buffer)], (b) => this.#checked(this.#m._web_check_buffer_upload(this.#ctx, b,
      up.fromBytes ? 1 : 0, up.start | 0, up.count | 0, up.length || 0, up.byteOffset || 0)));
  }

  // An upload into the texture checkTexture passed: { fromBytes, side, level,
  // bitmapWidth, bitmapHeight, length, byteOffset }.
  checkTextureUpload(texture, up) {
    this.#withBytes([textureDesc(texture)], (t) => this.#checked(this.#m._web_check_texture_upload(this.#ctx, t,
      up.fromBytes ? 1 : 0, up.side >>> 0, up.level >>> 0, up.bitmapWidth >>> 0, up.bitmapHeight >>> 0,
      up.length || 0, up.byteOffset || 0)));
  }

  // drawToBitmapData into a bitmapWidth x bitmapHeight BitmapData; srcRect [x, y,
  // width, height] and destPoint [x, y], or null when not given.
  checkDrawToBitmap(context, bitmapWidth, bitmapHeight, srcRect = null, destPoint = null) {
    const given = new Float64Array([...(srcRect || [0, 0, 0, 0]), ...(destPoint || [0, 0])]);
    this.#withContext(context, [new Uint8Array(given.buffer)], (c, g) => this.#m._web_check_draw_to_bitmap(this.#ctx, c,
      bitmapWidth >>> 0, bitmapHeight >>> 0, srcRect ? g : 0, destPoint ? g + 32 : 0));
  }

  // withBytes over the inputs (8-byte aligned first) and the context's web_context3d
  // (agal_web.c: nine 32-bit fields); fn's answer is checked (a thrown error throws).
  #withContext(context, inputs, fn) {
    if (!isObject(context)) throw new TypeError(`agal2spv: context must be an object, not ${shown(context)}`);
    const o = context.objects || {};
    const bb = context.backBuffer || { width: 0, height: 0 };
    const fields = new Int32Array([option(C3D_PROFILES, context.profile, 'profile', 1), bb.width | 0, bb.height | 0,
      o.vertexBuffer | 0, o.indexBuffer | 0, o.program | 0, o.texture | 0, context.ignoreResourceLimits ? 1 : 0,
      context.renderToTexture ? 1 : 0]);
    this.#withBytes([...inputs, new Uint8Array(fields.buffer)], (...ptrs) =>
      this.#checked(fn(ptrs[inputs.length], ...ptrs.slice(0, inputs.length))));
  }

  // ---- pipeline keys (agal_pipeline_key, docs/pipeline.md) -----------------------------
  // The key of a draw of `upload` (what this object's upload() returned) with `state`,
  // Context3D's state in its own names (web/README.md, "Pipeline keys"): { json, hash,
  // webgpu: { json, hash } }: the key's JSON form (agal_pipeline_key_json: the native
  // bytes), the key baked with WebGPU's dynamic state (AGAL_DYNAMIC_WEBGPU), which a
  // WebGPU cache keys its pipelines on, and each one's 64-bit hash in 16 hex digits.
  pipelineKey(upload, state) {
    this.#live();
    const pair = this.#pair(upload);
    const words = new Uint8Array(this.#pipelineWords(state).buffer);
    const a = this.#call(() => this.#withBytes([words], (pw) => this.#m._web_pipeline_key(this.#ctx, pair, pw)), true);
    const { hash, webgpuHash } = a.json();
    const [full, baked] = [a.code0, a.code1];
    let json, bakedJson;
    const key = {
      get json() { return json || (json = keyJson(full)); },
      hash,
      webgpu: { get json() { return bakedJson || (bakedJson = keyJson(baked)); }, hash: webgpuHash },
    };
    const keyJson = (bytes) =>
      this.#call(() => this.#withBytes([bytes], (p) => this.#m._web_pipeline_key_json(this.#ctx, p))).code0;
    this.#keys.set(key, upload);
    return key;
  }

  // The upload's pair in the library (agal_web.c's web_pair), made at its first key
  // and freed with the upload (or by dispose).
  #pair(upload) {
    const kept = isObject(upload) ? this.#uploads.get(upload) : undefined;
    if (!kept) {
      throw new TypeError('agal2spv: pipelineKey\'s upload must be what this object\'s upload() returned, not ' +
                          `${shown(upload)}`);
    }
    if (!kept.pair) {
      const from = inputsOf(kept);
      const opts = this.#placeOptions(from.words, from.strings, from.vertex, from.fragment);
      kept.pair = this.#m._web_pair_new(this.#at[0], from.vertex.length, this.#at[1], from.fragment.length, opts);
      if (!kept.pair) throw new Error('agal2spv: out of memory');
      this.#pairs.add(kept.pair);
      this.#freed.register(upload, kept.pair);
    }
    return kept.pair;
  }

  // A GPURenderPipelineDescriptor for the key (what pipelineKey returned) and the
  // upload's WGSL modules: { vertex, fragment } (GPUShaderModules), layout (a
  // GPUPipelineLayout; 'auto' when absent), backBufferFormat ('bgra8unorm' when
  // absent), depthStencilFormat ('depth24plus-stencil8'). docs/pipeline.md's WebGPU
  // column: the stencil reference is setStencilReference's, each stream's bufferOffset
  // setVertexBuffer's offset (bufferOffset * 4), one buffer a stream read, in the
  // order of their indices. Stage3D has no blend constant. No flip and clockwise
  // front faces for a texture as for the screen: WebGPU's clip space is Stage3D's
  // and its framebuffers' first row is the top, as a Stage3D texture's v = 0 is
  // (docs/format.md section 7), so the override agal_yflip stays 1.
  pipelineDescriptor(key, modules) {
    this.#live();
    const upload = isObject(key) ? this.#keys.get(key) : undefined;
    if (!upload) {
      throw new TypeError(`agal2spv: pipelineDescriptor's key must be what pipelineKey returned, not ${shown(key)}`);
    }
    const m = membersOf(modules, 'modules', ['vertex', 'fragment', 'layout', 'backBufferFormat', 'depthStencilFormat']);
    for (const stage of ['vertex', 'fragment']) {
      if (!isObject(m(stage))) {
        throw new TypeError(`agal2spv: modules.${stage} must be a GPUShaderModule, not ${shown(m(stage))}`);
      }
    }
    const format = (name, fallback) => {
      const v = m(name);
      if (v !== undefined && typeof v !== 'string') {
        throw new TypeError(`agal2spv: modules.${name} must be a string, not ${shown(v)}`);
      }
      return v || fallback;
    };
    const k = JSON.parse(key.json);
    const name = (cls, v) => this.#names(cls)[v];
    const nothing = k.cull === this.#enum('Context3DTriangleFace').frontAndBack; // WebGPU culls one face at most
    const buffers = vertexBuffers(k, (v) => name('Context3DVertexBufferFormat', v));
    const targets = colorTargets(k, nothing, format('backBufferFormat', 'bgra8unorm'), name);
    const descriptor = {
      layout: m('layout') === undefined ? 'auto' : m('layout'),
      vertex: { module: m('vertex'), entryPoint: 'main', buffers },
      primitive: { topology: 'triangle-list', frontFace: 'cw',
                   cullMode: nothing ? 'none' : GPU_CULL[name('Context3DTriangleFace', k.cull)] },
      multisample: { count: k.samples > 1 ? 4 : 1 },
      fragment: { module: m('fragment'), entryPoint: 'main', targets },
    };
    if (k.depth_stencil) {
      descriptor.depthStencil = depthStencil(k, nothing, format('depthStencilFormat', 'depth24plus-stencil8'), name);
    }
    return descriptor;
  }

  // An enumeration's AS3 names to the library's values, read from the library once.
  #enum(className) {
    const which = ENUM_CLASSES[className];
    if (!this.#enums[which]) {
      const t = Object.create(null);
      for (let v = 0, p; (p = this.#m._web_stage3d_name(which, v)); v++) t[this.#m.UTF8ToString(p)] = v;
      this.#enums[which] = t;
    }
    return this.#enums[which];
  }

  // The library's values to the AS3 names.
  #names(className) {
    const t = this.#enum(className);
    return Object.keys(t).sort((a, b) => t[a] - t[b]);
  }

  // agal_web.c's web_pipeline_state from `state`, every member checked: -1 where
  // a member is absent (a new Context3D's value; a stream, target or sampler slot not set).
  #pipelineWords(state) {
    if (!isObject(state)) throw new TypeError(`agal2spv: pipelineKey's state must be an object, not ${shown(state)}`);
    const s = membersOf(state, 'state', Object.keys(STATE_MEMBERS));
    const w = new Int32Array(PIPELINE_WORDS).fill(-1);
    w[0] = this.#pipelineStateSize;
    const e = (cls, v, name) => (v === undefined ? -1 : option(this.#enum(cls), v, name));
    const group = (g) => (s(g) === undefined ? () => undefined : membersOf(s(g), `state.${g}`, STATE_MEMBERS[g]));
    const bf = group('blendFactors'), cm = group('colorMask'), dt = group('depthTest');
    const sa = group('stencilActions'), sr = group('stencilReferenceValue'), bb = group('backBuffer');
    w[PF.blendSrc] = e('Context3DBlendFactor', bf('sourceFactor'), 'state.blendFactors.sourceFactor');
    w[PF.blendDst] = e('Context3DBlendFactor', bf('destinationFactor'), 'state.blendFactors.destinationFactor');
    if (s('colorMask') !== undefined) {
      w[PF.colorMask] = ['red', 'green', 'blue', 'alpha'].reduce((bits, c, i) =>
        bits | (flag(cm(c), `state.colorMask.${c}`) || cm(c) === undefined ? 1 << i : 0), 0);
    }
    w[PF.cull] = e('Context3DTriangleFace', s('culling'), 'state.culling');
    w[PF.depthMask] = given(dt('depthMask'), 'state.depthTest.depthMask');
    w[PF.depthCompare] = e('Context3DCompareMode', dt('passCompareMode'), 'state.depthTest.passCompareMode');
    w[PF.stencilFace] = e('Context3DTriangleFace', sa('triangleFace'), 'state.stencilActions.triangleFace');
    w[PF.stencilCompare] = e('Context3DCompareMode', sa('compareMode'), 'state.stencilActions.compareMode');
    ['actionOnBothPass', 'actionOnDepthFail', 'actionOnDepthPassStencilFail'].forEach((a, i) => {
      w[PF.stencilBothPass + i] = e('Context3DStencilAction', sa(a), `state.stencilActions.${a}`);
    });
    ['referenceValue', 'readMask', 'writeMask'].forEach((r, i) => {
      w[PF.stencilRef + i] = count(sr(r), `state.stencilReferenceValue.${r}`, 255);
    });
    w[PF.depthAndStencil] = given(bb('enableDepthAndStencil'), 'state.backBuffer.enableDepthAndStencil');
    w[PF.antiAlias] = count(bb('antiAlias'), 'state.backBuffer.antiAlias', 16);
    this.#targetWords(listOf(s('renderToTexture'), 'state.renderToTexture', 4), w);
    this.#streamWords(listOf(s('vertexBuffers'), 'state.vertexBuffers', 16), w);
    for (const [i, x] of listOf(s('samplerStates'), 'state.samplerStates', 16)) {
      const n = `state.samplerStates[${i}]`, g = membersOf(x, n, ['wrap', 'filter', 'mipfilter'], true);
      w[PF.sampler + i] = option(this.#enum('Context3DWrapMode'), g('wrap'), `${n}.wrap`) |
        option(this.#enum('Context3DTextureFilter'), g('filter'), `${n}.filter`) << 8 |
        option(this.#enum('Context3DMipFilter'), g('mipfilter'), `${n}.mipfilter`) << 16;
    }
    return w;
  }

  // setRenderToTexture's targets by colorOutputIndex: { format, enableDepthAndStencil,
  // antiAlias }; the options are output 0's (the draw's check holds the others to them).
  #targetWords(targets, w) {
    for (const [i, t] of targets) {
      const n = `state.renderToTexture[${i}]`, g = membersOf(t, n, ['format', 'enableDepthAndStencil', 'antiAlias']);
      w[PF.targetFormat + i] = option(this.#enum('Context3DTextureFormat'), g('format'), `${n}.format`);
      const depth = given(g('enableDepthAndStencil'), `${n}.enableDepthAndStencil`);
      const aa = count(g('antiAlias'), `${n}.antiAlias`, 16);
      if (i === 0) w[PF.targetDepthAndStencil] = depth, w[PF.targetAntiAlias] = aa;
    }
  }

  // setVertexBufferAt's streams by index: { format ('float4' when absent),
  // bufferOffset, data32PerVertex, instancesPerElement } of the buffer set there.
  #streamWords(streams, w) {
    for (const [i, x] of streams) {
      const n = `state.vertexBuffers[${i}]`;
      const g = membersOf(x, n, ['format', 'bufferOffset', 'data32PerVertex', 'instancesPerElement']);
      const format = g('format') ?? 'float4';
      w[PF.streamFormat + i] = option(this.#enum('Context3DVertexBufferFormat'), format, `${n}.format`);
      w[PF.streamOffset + i] = Math.max(0, count(g('bufferOffset'), `${n}.bufferOffset`, 63));
      if (g('data32PerVertex') === undefined) throw new TypeError(`agal2spv: ${n}.data32PerVertex is missing`);
      w[PF.streamStride + i] = count(g('data32PerVertex'), `${n}.data32PerVertex`, 64, 1);
      w[PF.streamDivisor + i] = Math.max(0, count(g('instancesPerElement'), `${n}.instancesPerElement`, 0x7fffffff));
    }
  }

  // Bytes the WASM heap's allocator holds (for leak checks).
  heapUsed() { return this.#m._web_heap_used() >>> 0; }

  // A check's answer: Flash's error thrown.
  #checked(p) {
    const a = this.#answer(p);
    if (a.error) throw a.error;
    return a;
  }

  // Frees the library's context; the object is unusable afterwards.
  dispose() {
    if (!this.#ctx) return;
    this.#m._web_free(this.#ctx);
    this.#m._free(this.#scratch);
    for (const pair of this.#pairs) this.#m._web_pair_free(pair);
    this.#pairs.clear();
    this.#ctx = this.#scratch = this.#scratchSize = 0;
    this.#generation++;
  }
}

// ---- Context3D's checks: the tables and layouts (agal_web.c, <agal/stage3d.h>) ----
// agal_stage3d_enum's classes, by their AS3 names.
const ENUM_CLASSES = table({
  Context3DBlendFactor: 0, Context3DCompareMode: 1, Context3DStencilAction: 2, Context3DTriangleFace: 3,
  Context3DVertexBufferFormat: 4, Context3DTextureFormat: 5, Context3DProgramType: 6, Context3DWrapMode: 7,
  Context3DTextureFilter: 8, Context3DMipFilter: 9, Context3DProfile: 10, Context3DBufferUsage: 11,
});
const C3D_PROFILES = table({
  baselineConstrained: 0, baseline: 1, baselineExtended: 2, standardConstrained: 3, standard: 4,
  standardExtended: 5, enhanced: 6,
});
const RESOURCE_KINDS = table({ vertexBuffer: 0, indexBuffer: 1, program: 2, texture: 3 });
const BUFFER_CALLS = table({ createVertexBuffer: 0, createVertexBufferForInstances: 1, createIndexBuffer: 2 });
const TEXTURE_KINDS = table({ '2d': 0, cube: 1, rectangle: 2 });
const TEXTURE_FORMATS = table({
  bgra: 0, bgraPacked4444: 1, bgrPacked565: 2, compressed: 3, compressedAlpha: 4, rgbaHalfFloat: 5,
});

function cString(s) { return new TextEncoder().encode(`${s}\0`); }

// ---- pipeline keys: the state's layout and WebGPU's names (agal_web.c, docs/pipeline.md) ----
// agal_web.c's web_pipeline_state: each field's first word (arrays: targetFormat 4,
// the streams' 16 each, sampler 16), in its order.
const PF = Object.freeze({
  blendSrc: 1, blendDst: 2, colorMask: 3, cull: 4, depthMask: 5, depthCompare: 6, stencilFace: 7, stencilCompare: 8,
  stencilBothPass: 9, stencilRef: 12, depthAndStencil: 15, antiAlias: 16, targetFormat: 17, targetDepthAndStencil: 21,
  targetAntiAlias: 22, streamFormat: 23, streamOffset: 39, streamStride: 55, streamDivisor: 71, sampler: 87,
});
const PIPELINE_WORDS = 103;
// The state's members: each a Context3D call's arguments, by their AS3 names.
const STATE_MEMBERS = {
  blendFactors: ['sourceFactor', 'destinationFactor'],
  colorMask: ['red', 'green', 'blue', 'alpha'],
  culling: null,
  depthTest: ['depthMask', 'passCompareMode'],
  stencilActions: ['triangleFace', 'compareMode', 'actionOnBothPass', 'actionOnDepthFail',
                   'actionOnDepthPassStencilFail'],
  stencilReferenceValue: ['referenceValue', 'readMask', 'writeMask'],
  backBuffer: ['antiAlias', 'enableDepthAndStencil'],
  renderToTexture: null,
  vertexBuffers: null,
  samplerStates: null,
};

// An object's members, checked against `keys` (own string keys only; all of them
// when `required`): a reader of its own properties.
function membersOf(o, name, keys, required = false) {
  if (!isObject(o)) throw new TypeError(`agal2spv: ${name} must be an object, not ${shown(o)}`);
  for (const key of Reflect.ownKeys(o)) {
    if (typeof key !== 'string' || !keys.includes(key)) {
      throw new TypeError(`agal2spv: ${name} has no ${shown(String(key))} (it takes ${keys.join(', ')})`);
    }
  }
  for (const key of required ? keys : []) {
    if (o[key] === undefined) throw new TypeError(`agal2spv: ${name}.${key} is missing`);
  }
  return (k) => own(o, k);
}

// A boolean as 0 or 1, or -1 when absent.
function given(v, name) { return v === undefined ? -1 : flag(v, name); }

// An integer min..max, or -1 when absent.
function count(v, name, max, min = 0) {
  if (v === undefined) return -1;
  if (typeof v !== 'number') throw new TypeError(`agal2spv: ${name} must be a number, not ${shown(v)}`);
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new RangeError(`agal2spv: ${name} is an integer from ${min} to ${max}, not ${shown(v)}`);
  }
  return v;
}

// An array of at most max entries by index: its [index, entry] pairs, null and
// undefined entries (nothing set there) left out.
function listOf(v, name, max) {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new TypeError(`agal2spv: ${name} must be an array, not ${shown(v)}`);
  if (v.length > max) throw new RangeError(`agal2spv: ${name} has ${v.length} entries, more than ${max}`);
  return [...v.entries()].filter(([, x]) => x !== undefined && x !== null);
}

// Context3D's names to WebGPU's, by AS3 name.
const GPU_BLEND = table({
  zero: 'zero', one: 'one', sourceColor: 'src', oneMinusSourceColor: 'one-minus-src', sourceAlpha: 'src-alpha',
  oneMinusSourceAlpha: 'one-minus-src-alpha', destinationColor: 'dst', oneMinusDestinationColor: 'one-minus-dst',
  destinationAlpha: 'dst-alpha', oneMinusDestinationAlpha: 'one-minus-dst-alpha',
});
const GPU_COMPARE = table({
  never: 'never', less: 'less', equal: 'equal', lessEqual: 'less-equal', greater: 'greater', notEqual: 'not-equal',
  greaterEqual: 'greater-equal', always: 'always',
});
const GPU_STENCIL = table({
  keep: 'keep', zero: 'zero', set: 'replace', incrementSaturate: 'increment-clamp',
  decrementSaturate: 'decrement-clamp', invert: 'invert', incrementWrap: 'increment-wrap',
  decrementWrap: 'decrement-wrap',
});
const GPU_CULL = table({ none: 'none', front: 'front', back: 'back' });
const GPU_VERTEX = table({
  float1: 'float32', float2: 'float32x2', float3: 'float32x3', float4: 'float32x4', bytes4: 'unorm8x4',
});
// A render texture's format: the packed ones are drawn as 8 bits a channel.
const GPU_TARGET = table({
  bgra: 'rgba8unorm', bgraPacked4444: 'rgba8unorm', bgrPacked565: 'rgba8unorm', rgbaHalfFloat: 'rgba16float',
});

// One buffer a stream the key reads, in the order of their indices: its stride, its
// step (WebGPU steps an instance buffer once an instance) and one attribute at offset 0.
function vertexBuffers(k, formatName) {
  const buffers = [];
  for (let n = 0; n < k.stream_format.length; n++) {
    if (!k.stream_format[n]) continue;
    if (k.stream_divisor[n] > 1) {
      throw new RangeError(`agal2spv: va${n}'s buffer has ${k.stream_divisor[n]} instances an element; ` +
                           'WebGPU steps one');
    }
    const format = GPU_VERTEX[formatName(k.stream_format[n] - 1)];
    buffers.push({ arrayStride: 4 * k.stream_stride[n], stepMode: k.stream_divisor[n] ? 'instance' : 'vertex',
                   attributes: [{ shaderLocation: n, offset: 0, format }] });
  }
  return buffers;
}

// Each colour output with the key's blend and colour mask (the key's bits are
// GPUColorWrite's); (one, zero) blends nothing. Culling frontAndBack draws nothing,
// which WebGPU cannot cull: its targets write nothing.
function colorTargets(k, nothing, backBufferFormat, name) {
  const src = name('Context3DBlendFactor', k.blend_src), dst = name('Context3DBlendFactor', k.blend_dst);
  const component = { operation: 'add', srcFactor: GPU_BLEND[src], dstFactor: GPU_BLEND[dst] };
  const blend = src === 'one' && dst === 'zero' ? {} : { blend: { color: component, alpha: { ...component } } };
  return k.colors.filter((c) => c).map((c) => ({
    format: k.to_texture ? GPU_TARGET[name('Context3DTextureFormat', c - 1)] : backBufferFormat,
    writeMask: nothing ? 0 : k.color_mask, ...blend,
  }));
}

// setStencilActions acts on the faces it names; the other faces pass and keep
// (agal_stage3d_stencil_face). The reference is setStencilReference's.
function depthStencil(k, nothing, format, name) {
  const face = name('Context3DTriangleFace', k.stencil_face);
  const acts = (side) => face === 'frontAndBack' || face === side;
  const state = (side) => (acts(side)
    ? { compare: GPU_COMPARE[name('Context3DCompareMode', k.stencil_compare)],
        passOp: GPU_STENCIL[name('Context3DStencilAction', k.stencil_both_pass)],
        depthFailOp: GPU_STENCIL[name('Context3DStencilAction', k.stencil_depth_fail)],
        failOp: GPU_STENCIL[name('Context3DStencilAction', k.stencil_fail)] }
    : { compare: 'always', passOp: 'keep', depthFailOp: 'keep', failOp: 'keep' });
  return {
    format, depthWriteEnabled: !nothing && k.depth_mask === 1,
    depthCompare: GPU_COMPARE[name('Context3DCompareMode', k.depth_compare)],
    stencilFront: state('front'), stencilBack: state('back'),
    stencilReadMask: k.stencil_read, stencilWriteMask: nothing ? 0 : k.stencil_write,
  };
}

// agal_buffer_desc: call, count, data32PerVertex, instancesPerElement.
function bufferDesc(b) {
  return new Uint8Array(new Int32Array([option(BUFFER_CALLS, b.call, 'call'), b.count | 0, b.data32PerVertex | 0,
    b.instancesPerElement | 0]).buffer);
}

// agal_texture_desc: kind, width, height, format, streamingLevels.
function textureDesc(t) {
  return new Uint8Array(new Int32Array([option(TEXTURE_KINDS, t.kind, 'kind'), t.width | 0, t.height | 0,
    option(TEXTURE_FORMATS, t.format, 'format'), t.streamingLevels | 0]).buffer);
}

export async function load(options = {}) {
  return new Agal(await createModule(options));
}
