// agal2spv for JavaScript: the library compiled to WebAssembly (agal_web.c), with
// an API that fits JavaScript. `const agal = await load()`; then translate, upload,
// assemble and disassemble. Failures throw an Error whose errorID is Flash Player's
// id, name its class, message the line Flash Player throws and diagnostic the
// library's own words (which limit a #3613 exceeded).
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

// The `limits` option as agal_web.c's read_limits takes it: a preset's name, or an
// object of the JSON form's keys (docs/binding-models.md, "Limits"; web/README.md)
// as that JSON's text, written here from the object's own properties only (no
// toJSON, nothing inherited). A count out of range is a RangeError; an unknown key
// or preset, the library's TypeError.
function limitsOf(limits) {
  if (limits === undefined || limits === null) return { given: false, text: new Uint8Array(0), json: 0 };
  if (typeof limits === 'string' && !limits.includes('\0')) return { given: true, text: cString(limits), json: 0 };
  if (typeof limits !== 'object' || Array.isArray(limits)) {
    throw new TypeError('agal2spv: limits is a preset name or an object of limits');
  }
  const members = Object.entries(limits).map(([key, v]) => {
    if (key === 'name') {
      if (typeof v !== 'string') throw new TypeError('agal2spv: limits.name is a string');
    } else if (!Number.isInteger(v) || v < 0 || v > 65535) {
      throw new RangeError(`agal2spv: limits.${key} is a count from 0 to 65535, not ${String(v)}`);
    }
    return `${JSON.stringify(key)}:${JSON.stringify(v)}`;
  });
  return { given: true, text: cString(`{${members.join(',')}}`), json: 1 };
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
      // {"message"} alone: an argument passed wrong (agal_web.c, `misused`)
      if (info && info.id === undefined) throw new TypeError(`agal2spv: ${info.message}`);
      const e = new Error(info ? info.message : `agal2spv: ${STATUS[a.status] || a.status}`);
      if (info) {
        e.errorID = info.id;
        e.name = info.name;
        if (info.diagnostic !== undefined) e.diagnostic = info.diagnostic;
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
    const limits = limitsOf(options.limits);
    const a = this.answer(this.withNamed([b, limits.text], options.names, (p, pl, names) =>
      this.m._web_translate(this.ctx, p, b.length, target, slot, options.lenient ? 1 : 0, profile, names,
                            limits.given ? pl : 0, limits.json)));
    return { code: a.code[0], get bindings() { return a.json(); } };
  }

  // Program3D.upload: { vertex, fragment, bindings }, or Flash's error.
  upload(vertexData, fragmentData, options = {}) {
    const v = bytesOf(vertexData, 'vertex'), f = bytesOf(fragmentData, 'fragment');
    const target = option(TARGETS, options.target, 'target', TARGETS.essl3);
    if (target === TARGETS.ir) throw new TypeError('agal2spv: upload targets a GPU: spirv, glsl, essl3, essl1 or wgsl');
    const profile = option(PROFILES, options.profile, 'profile', 0);
    const context = option(CONTEXT_PROFILES, options.contextProfile, 'contextProfile', 0);
    const limits = limitsOf(options.limits);
    const a = this.answer(this.withNamed([v, f, limits.text], options.names, (pv, pf, pl, names) =>
      this.m._web_upload(this.ctx, pv, v.length, pf, f.length, target, options.lenient ? 1 : 0, profile, context,
                         names, limits.given ? pl : 0, limits.json)));
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
    const a = this.answer(this.withBytes(strings, (v, p) =>
      this.m._web_check_enum(this.ctx, which, value == null ? 0 : v, p)));
    return a.json().value;
  }

  checkNonNull(value, param) {
    this.withBytes([cString(param)], (p) => this.answer(this.m._web_check_non_null(this.ctx, value == null ? 0 : 1, p)));
  }

  checkBackBuffer(context, width, height) {
    this.withContext(context, [], (c) => this.m._web_check_back_buffer(this.ctx, c, width | 0, height | 0));
  }

  checkClear(context) { this.withContext(context, [], (c) => this.m._web_check_clear(this.ctx, c)); }

  checkDrawInstanced(context) { this.withContext(context, [], (c) => this.m._web_check_draw_instanced(this.ctx, c)); }

  // kind: 'vertexBuffer', 'indexBuffer', 'program' or 'texture'.
  checkObjectCount(context, kind) {
    const k = option(RESOURCE_KINDS, kind, 'kind');
    this.withContext(context, [], (c) => this.m._web_check_object_count(this.ctx, c, k));
  }

  // A create call against the emulator's own memory budget for its resources:
  // #3691 when held bytes, and transient more during the call, do not fit beside
  // inUse (byte counts: non-negative integers up to 2^53).
  checkMemory(budget, inUse, held, transient = 0) {
    const n = [budget, inUse, held, transient].map((v, i) => {
      if (!Number.isSafeInteger(v) || v < 0)
        throw new RangeError(`agal2spv: checkMemory's argument ${i + 1} is not a byte count`);
      return v;
    });
    this.answer(this.m._web_check_memory(this.ctx, ...n));
  }

  // buffer: { call: 'createVertexBuffer' | 'createVertexBufferForInstances' |
  // 'createIndexBuffer', count, data32PerVertex, instancesPerElement }.
  checkBuffer(context, buffer) {
    this.withContext(context, [bufferDesc(buffer)], (c, b) => this.m._web_check_buffer(this.ctx, c, b));
  }

  // texture: { kind: '2d' | 'cube' | 'rectangle', width, height, format ('bgra'...), streamingLevels }.
  checkTexture(context, texture) {
    this.withContext(context, [textureDesc(texture)], (c, t) => this.m._web_check_texture(this.ctx, c, t));
  }

  // An upload into the buffer checkBuffer passed: { fromBytes, start, count, length
  // (the Vector's numbers or the ByteArray's bytes), byteOffset }.
  checkBufferUpload(buffer, up) {
    this.withBytes([bufferDesc(buffer)], (b) => this.answer(this.m._web_check_buffer_upload(this.ctx, b,
      up.fromBytes ? 1 : 0, up.start | 0, up.count | 0, up.length || 0, up.byteOffset || 0)));
  }

  // An upload into the texture checkTexture passed: { fromBytes, side, level,
  // bitmapWidth, bitmapHeight, length, byteOffset }.
  checkTextureUpload(texture, up) {
    this.withBytes([textureDesc(texture)], (t) => this.answer(this.m._web_check_texture_upload(this.ctx, t,
      up.fromBytes ? 1 : 0, up.side >>> 0, up.level >>> 0, up.bitmapWidth >>> 0, up.bitmapHeight >>> 0,
      up.length || 0, up.byteOffset || 0)));
  }

  // drawToBitmapData into a bitmapWidth x bitmapHeight BitmapData; srcRect [x, y,
  // width, height] and destPoint [x, y], or null when not given.
  checkDrawToBitmap(context, bitmapWidth, bitmapHeight, srcRect = null, destPoint = null) {
    const given = new Float64Array([...(srcRect || [0, 0, 0, 0]), ...(destPoint || [0, 0])]);
    this.withContext(context, [new Uint8Array(given.buffer)], (c, g) => this.m._web_check_draw_to_bitmap(this.ctx, c,
      bitmapWidth >>> 0, bitmapHeight >>> 0, srcRect ? g : 0, destPoint ? g + 32 : 0));
  }

  // withBytes over the inputs (8-byte aligned first) and the context's web_context3d
  // (agal_web.c: nine 32-bit fields); fn's answer is checked (a thrown error throws).
  withContext(context, inputs, fn) {
    const o = context.objects || {};
    const bb = context.backBuffer || { width: 0, height: 0 };
    const fields = new Int32Array([option(C3D_PROFILES, context.profile, 'profile', 1), bb.width | 0, bb.height | 0,
      o.vertexBuffer | 0, o.indexBuffer | 0, o.program | 0, o.texture | 0, context.ignoreResourceLimits ? 1 : 0,
      context.renderToTexture ? 1 : 0]);
    this.withBytes([...inputs, new Uint8Array(fields.buffer)], (...ptrs) =>
      this.answer(fn(ptrs[inputs.length], ...ptrs.slice(0, inputs.length))));
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

// ---- Context3D's checks: the tables and layouts (agal_web.c, <agal/stage3d.h>) ----
// agal_stage3d_enum's classes, by their AS3 names.
const ENUM_CLASSES = {
  Context3DBlendFactor: 0, Context3DCompareMode: 1, Context3DStencilAction: 2, Context3DTriangleFace: 3,
  Context3DVertexBufferFormat: 4, Context3DTextureFormat: 5, Context3DProgramType: 6, Context3DWrapMode: 7,
  Context3DTextureFilter: 8, Context3DMipFilter: 9, Context3DProfile: 10, Context3DBufferUsage: 11,
};
const C3D_PROFILES = {
  baselineConstrained: 0, baseline: 1, baselineExtended: 2, standardConstrained: 3, standard: 4,
  standardExtended: 5, enhanced: 6,
};
const RESOURCE_KINDS = { vertexBuffer: 0, indexBuffer: 1, program: 2, texture: 3 };
const BUFFER_CALLS = { createVertexBuffer: 0, createVertexBufferForInstances: 1, createIndexBuffer: 2 };
const TEXTURE_KINDS = { '2d': 0, cube: 1, rectangle: 2 };
const TEXTURE_FORMATS = {
  bgra: 0, bgraPacked4444: 1, bgrPacked565: 2, compressed: 3, compressedAlpha: 4, rgbaHalfFloat: 5,
};

function cString(s) { return new TextEncoder().encode(`${s}\0`); }

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
