// agal2spv for JavaScript: the library compiled to WebAssembly (agal_web.c), with
// an API that fits JavaScript. `const agal = await load()`; then translate, upload,
// assemble and disassemble. Failures throw an Error whose errorID is Flash Player's
// id, name its class and message the line Flash Player throws.
import createModule from './agal2spv-wasm.js';

const TARGETS = { spirv: 0, glsl: 1, essl3: 2, essl1: 3, ir: 4, wgsl: 5 };
const PROFILES = { auto: 0, baseline: 1, standard: 2, standardExtended: 3 };
// Context3DProfile's names and the register profile each means (docs/format.md section 7).
const CONTEXT_PROFILES = {
  baselineConstrained: 1, baseline: 1, baselineExtended: 1, standardConstrained: 2, standard: 2,
  standardExtended: 3, enhanced: 3,
};
const SLOTS = { vertex: 1, fragment: 2 };
const STATUS = ['ok', 'invalid', 'out of memory', 'bad argument', 'limit', 'internal error', 'unsupported'];

function option(table, value, name, fallback) {
  if (value === undefined) return fallback;
  if (!(value in table)) throw new TypeError(`agal2spv: ${name} must be one of ${Object.keys(table).join(', ')}`);
  return table[value];
}

function bytesOf(data, name) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError(`agal2spv: ${name} must be a Uint8Array, an ArrayBuffer or a typed array view`);
}

class Agal {
  constructor(m) {
    this.m = m;
    this.ctx = m._web_new();
    if (!this.ctx) throw new Error('agal2spv: out of memory');
    this.version = m.UTF8ToString(m._web_version());
    this.decoder = new TextDecoder();
    // The module's memory is its one exported WebAssembly.Memory (emscripten minifies the name).
    this.memory = Object.values(m.asm).find((v) => v instanceof WebAssembly.Memory);
    this.scratch = 0; // withBytes' block in the heap
    this.scratchSize = 0;
  }

  // Copies the inputs one after another into the object's scratch block in the
  // WASM heap (4-byte aligned; grown, never shrunk, so a call allocates nothing),
  // and calls fn with their pointers.
  withBytes(inputs, fn) {
    const offsets = [];
    let size = 0;
    for (const b of inputs) {
      offsets.push(size);
      size += (b.length + 3) & ~3;
    }
    if (size > this.scratchSize) {
      const grown = Math.max(size, 2 * this.scratchSize, 65536);
      const p = this.m._malloc(grown);
      if (!p) throw new Error('agal2spv: out of memory');
      this.m._free(this.scratch);
      this.scratch = p;
      this.scratchSize = grown;
    }
    inputs.forEach((b, i) => this.m.HEAPU8.set(b, this.scratch + offsets[i]));
    return fn(...offsets.map((o) => this.scratch + o));
  }

  // withBytes over the inputs and, when names are given, an agal_names (agal.h) from
  // { vertexConstants, fragmentConstants, vertexBlock, fragmentBlock, sampler,
  // attribute, varying, yflip, yflipComponent }: eight string pointers, then a char
  // (wasm32: 36 bytes). fn gets the inputs' pointers and the names' (0: none).
  withNamed(inputs, names, fn) {
    if (!names) return this.withBytes(inputs, (...ptrs) => fn(...ptrs, 0));
    const keys = ['vertexConstants', 'fragmentConstants', 'vertexBlock', 'fragmentBlock', 'sampler', 'attribute',
                  'varying', 'yflip'];
    const unknown = Object.keys(names).filter((k) => !keys.includes(k) && k !== 'yflipComponent');
    if (unknown.length) throw new TypeError(`agal2spv: names has no ${unknown.join(', ')}`);
    const c = names.yflipComponent;
    if (c !== undefined && !['x', 'y', 'z', 'w'].includes(c)) {
      throw new TypeError("agal2spv: yflipComponent is 'x', 'y', 'z' or 'w'");
    }
    const strings = keys.map((k) => (names[k] === undefined ? null : new TextEncoder().encode(`${names[k]}\0`)));
    const given = strings.filter((s) => s);
    return this.withBytes([...inputs, new Uint8Array(36), ...given], (...ptrs) => {
      const struct = ptrs[inputs.length], stringPtrs = ptrs.slice(inputs.length + 1);
      const words = new Uint32Array(this.m.HEAPU8.buffer, struct, 9);
      let next = 0;
      strings.forEach((s, i) => { words[i] = s ? stringPtrs[next++] : 0; });
      words[8] = c ? c.charCodeAt(0) : 0;
      return fn(...ptrs.slice(0, inputs.length), struct);
    });
  }

  // The web_answer at p: 8 words (agal_web.c). The bindings' JSON bytes are copied
  // out now (the next call reuses the memory), decoded and parsed when first read:
  // the library's JSON of each binding, and for WGSL the WebGPU bind group layout
  // (`bindGroupLayout`), as the library writes them (src/runtime/reflect_json.c).
  answer(p) {
    if (!p) throw new Error('agal2spv: out of memory');
    const w = new Uint32Array(this.m.HEAPU8.buffer, p, 8);
    const text = (ptr, n) => this.decoder.decode(this.m.HEAPU8.subarray(ptr, ptr + n));
    const jsonBytes = w[5] ? this.m.HEAPU8.slice(w[5], w[5] + w[6]) : null;
    const a = { status: w[0] | 0, words: w[7] !== 0 };
    if (a.status !== 0) {
      const info = jsonBytes ? JSON.parse(this.decoder.decode(jsonBytes)) : null;
      const e = new Error(info ? info.message : `agal2spv: ${STATUS[a.status] || a.status}`);
      if (info) {
        e.errorID = info.id;
        e.name = info.name;
      }
      throw e;
    }
    let parsed;
    a.json = () => (parsed === undefined ? (parsed = jsonBytes ? JSON.parse(this.decoder.decode(jsonBytes)) : null)
      : parsed);
    a.code = [0, 1].map((i) => {
      if (!w[1 + i] && !w[3 + i]) return null;
      const ptr = w[1 + i], n = w[3 + i];
      return a.words ? new Uint32Array(this.m.HEAPU8.slice(ptr, ptr + n).buffer) : text(ptr, n);
    });
    a.bytes = (i) => this.m.HEAPU8.slice(w[1 + i], w[1 + i] + w[3 + i]);
    return a;
  }

  // One program for one target: { code, bindings }.
  translate(data, options = {}) {
    const b = bytesOf(data, 'bytes');
    const target = option(TARGETS, options.target, 'target', TARGETS.essl3);
    const slot = option(SLOTS, options.stage, 'stage', 0);
    const profile = option(PROFILES, options.profile, 'profile', 0);
    const a = this.answer(this.withNamed([b], options.names, (p, names) =>
      this.m._web_translate(this.ctx, p, b.length, target, slot, options.lenient ? 1 : 0, profile, names)));
    return { code: a.code[0], get bindings() { return a.json(); } };
  }

  // Program3D.upload: { vertex, fragment, bindings }, or Flash's error.
  upload(vertexData, fragmentData, options = {}) {
    const v = bytesOf(vertexData, 'vertex'), f = bytesOf(fragmentData, 'fragment');
    const target = option(TARGETS, options.target, 'target', TARGETS.essl3);
    if (target === TARGETS.ir) throw new TypeError('agal2spv: upload targets a GPU: spirv, glsl, essl3, essl1 or wgsl');
    const profile = option(PROFILES, options.profile, 'profile', 0);
    const context = option(CONTEXT_PROFILES, options.contextProfile, 'contextProfile', 0);
    const a = this.answer(this.withNamed([v, f], options.names, (pv, pf, names) =>
      this.m._web_upload(this.ctx, pv, v.length, pf, f.length, target, options.lenient ? 1 : 0, profile, context,
                         names)));
    return { vertex: a.code[0], fragment: a.code[1], get bindings() { return a.json(); } };
  }

  // Adobe's AGALMiniAssembler syntax to its bytes; stage and version default to the
  // text's `// stage:` and `// agal-version:` comments (then version 1).
  assemble(text, options = {}) {
    const t = new TextEncoder().encode(String(text));
    const stage = options.stage === undefined ? -1 : option({ vertex: 0, fragment: 1 }, options.stage, 'stage');
    const version = options.version === undefined ? 0 : options.version >>> 0;
    const a = this.answer(this.withBytes([t], (p) => this.m._web_assemble(this.ctx, p, t.length, stage, version)));
    return a.bytes(0);
  }

  disassemble(data) {
    const b = bytesOf(data, 'bytes');
    return this.answer(this.withBytes([b], (p) => this.m._web_disassemble(this.ctx, p, b.length))).code[0];
  }

  // Bytes the WASM heap's allocator holds (for leak checks).
  heapUsed() { return this.m._web_heap_used() >>> 0; }

  // Frees the library's context; the object is unusable afterwards.
  dispose() {
    this.m._web_free(this.ctx);
    this.m._free(this.scratch);
    this.ctx = this.scratch = this.scratchSize = 0;
  }
}

export async function load(options = {}) {
  return new Agal(await createModule(options));
}
