// webgpu_runner.js: the browser side of agal2spv's WebGPU backend (tools/gpu/webgpu_page.c
// writes it into the page with the draws; nothing is loaded from the network).
//
// The page holds a job list in <script type="application/json" id="agal-jobs">:
//   {"mode": "webgpu", "draws": [DRAW, ...]}
// DRAW (the JSON of one harness_draw, tools/gpu/harness.h, with WGSL):
//   {"vs": WGSL, "fs": WGSL|null,   the translations; fs null: a vertex-only draw
//    "nverts": N, "ninst": N, "attribs": {"LOC": HEX, ...}   (N * 4 floats each)
//    "vc": HEX, "fc": HEX,          the constants as the blocks hold them (vec4s)
//    "layout": [ENTRY, ...],        the bind group layout, GPUBindGroupLayoutEntry's
//                                   shape plus what to bind: "data" ("vc" | "fc") for a
//                                   buffer, "unit" for a texture or sampler, and a
//                                   sampler's "descriptor" (a GPUSamplerDescriptor)
//    "textures": [{"unit", "cube", "size", "levels", "texels": HEX}],
//    "noc": N, "width": W, "height": H, "depth_less": BOOL,
//    "capture": ["v0", ...] | null}  vertex outputs to capture after the position
// HEX: a float array as the hex of each IEEE-754 bit pattern (8 digits a float).
//
// window.agalDone is a promise of the results' JSON text (harness_web.c awaits it
// through the DevTools protocol, since WebGPU answers asynchronously):
// {"renderers": {"webgpu": NAME}, "draws": [...]}, one entry per draw:
// {"ok": true, "color": [HEX per oc], "depth": HEX, "xfb": HEX} with rows top-down
// (WebGPU's framebuffer rows run as Stage3D's) and discarded pixels holding CLEAR,
// or {"ok": false, "error": TEXT}: a validation error, or any error or warning the
// WGSL compiler gives (getCompilationInfo).
//
// Fragment draws use the bind group layout the page gives (agal_upload's, written
// by webgpu_page.c), so a layout that does not fit the shaders fails the draw.
// Vertex outputs: WebGPU has no transform feedback and no storage writes in the
// vertex stage, so the translation's main becomes a function that an added vertex
// entry point calls, drawing one point per vertex and instance into a one-row
// rgba32float target, with op and the varyings as flat inter-stage values that a
// fragment shader copies into up to 8 targets a pass.
'use strict';
(function () {
  const CLEAR = -7777.25; // HARNESS_CLEAR: the clear colour, kept by discarded pixels
  const VERTEX = 1, FRAGMENT = 2; // GPUShaderStage's bits

  const fromHex = agalFromHex, toHex = agalToHex; // web_floats.js

  // A module with every compiler message an error: the tests want none.
  async function module(dev, code, what) {
    const m = dev.createShaderModule({ code: code });
    const info = await m.getCompilationInfo();
    const msgs = info.messages.filter(function (x) { return x.type === 'error' || x.type === 'warning'; });
    if (msgs.length)
      throw new Error(what + ': ' + msgs.map(function (x) {
        return x.type + ' at ' + x.lineNum + ':' + x.linePos + ': ' + x.message;
      }).join('; '));
    return m;
  }

  // Validation errors of what fn does, as an exception.
  async function validated(dev, what, fn) {
    dev.pushErrorScope('validation');
    const value = await fn();
    const e = await dev.popErrorScope();
    if (e) throw new Error(what + ': ' + e.message.replace(/\s+/g, ' '));
    return value;
  }

  function buffer(dev, data, usage) {
    const b = dev.createBuffer({ size: Math.max(16, (data.byteLength + 15) & ~15), usage: usage | GPUBufferUsage.COPY_DST });
    dev.queue.writeBuffer(b, 0, data);
    return b;
  }

  // Every attribute in one interleaved vertex buffer, float32x4 each (WebGPU's
  // 8 vertex buffers are fewer than AGAL 3's 16 attributes; its 16 attributes are not).
  function vertexInputs(dev, d) {
    const keys = Object.keys(d.attribs), stride = 16 * keys.length;
    if (!keys.length) return { layouts: [], buffers: [] };
    const data = new Float32Array(d.nverts * 4 * keys.length);
    keys.forEach(function (key, k) {
      const f = fromHex(d.attribs[key]);
      for (let v = 0; v < d.nverts; v++) data.set(f.subarray(4 * v, 4 * v + 4), (v * keys.length + k) * 4);
    });
    const attributes = keys.map(function (key, k) { return { shaderLocation: Number(key), offset: 16 * k, format: 'float32x4' }; });
    return { layouts: [{ arrayStride: stride, stepMode: 'vertex', attributes: attributes }],
             buffers: [buffer(dev, data, GPUBufferUsage.VERTEX)] };
  }

  function texture(dev, t) {
    const texels = fromHex(t.texels), faces = t.cube ? 6 : 1;
    const tex = dev.createTexture({ size: [t.size, t.size, faces], mipLevelCount: t.levels, format: 'rgba32float',
                                    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
    let off = 0;
    for (let f = 0; f < faces; f++)
      for (let l = 0; l < t.levels; l++) {
        const s = t.size >> l, n = s * s * 4;
        dev.queue.writeTexture({ texture: tex, mipLevel: l, origin: [0, 0, f] }, texels.subarray(off, off + n),
                               { bytesPerRow: s * 16, rowsPerImage: s }, [s, s, 1]);
        off += n;
      }
    return tex.createView({ dimension: t.cube ? 'cube' : '2d' });
  }

  // The layout's entries bound to the draw's data: the descriptor's own fields go to
  // createBindGroupLayout, "data", "unit" and "descriptor" say what each binds.
  function bindGroup(dev, d) {
    const layoutEntries = [], entries = [], views = {};
    for (const t of d.textures) views[t.unit] = texture(dev, t);
    for (const e of d.layout) {
      const le = { binding: e.binding, visibility: e.visibility };
      if (e.buffer) {
        le.buffer = e.buffer;
        const f = fromHex(d[e.data]), bytes = new Float32Array(Math.max(e.buffer.minBindingSize / 4, f.length));
        bytes.set(f);
        entries.push({ binding: e.binding, resource: { buffer: buffer(dev, bytes, GPUBufferUsage.UNIFORM) } });
      } else if (e.texture) {
        le.texture = e.texture;
        if (!views[e.unit]) throw new Error('no texture for fs' + e.unit);
        entries.push({ binding: e.binding, resource: views[e.unit] });
      } else {
        le.sampler = e.sampler;
        entries.push({ binding: e.binding, resource: dev.createSampler(e.descriptor) });
      }
      layoutEntries.push(le);
    }
    const layout = dev.createBindGroupLayout({ entries: layoutEntries });
    return { layout: layout, group: dev.createBindGroup({ layout: layout, entries: entries }) };
  }

  function target(dev, format, w, h) {
    return dev.createTexture({ size: [w, h], format: format,
                               usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  }

  // Copies each texture (4 bytes a component) into a buffer, rows padded to 256 bytes,
  // and returns the values, rows top-down.
  async function readBack(dev, enc, textures, w, h, comps, aspect) {
    const row = w * comps * 4, stride = (row + 255) & ~255;
    const reads = textures.map(function (t) {
      const b = dev.createBuffer({ size: stride * h, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
      enc.copyTextureToBuffer({ texture: t, aspect: aspect || 'all' }, { buffer: b, bytesPerRow: stride }, [w, h]);
      return b;
    });
    dev.queue.submit([enc.finish()]);
    const out = [];
    for (const b of reads) {
      await b.mapAsync(GPUMapMode.READ);
      const all = new Float32Array(b.getMappedRange()), f = new Float32Array(w * h * comps);
      for (let y = 0; y < h; y++) f.set(all.subarray((y * stride) / 4, (y * stride) / 4 + w * comps), y * w * comps);
      b.unmap();
      out.push(f);
    }
    return out;
  }

  // ---- fragment draws ---------------------------------------------------------------
  async function fragmentDraw(dev, d) {
    const vs = await module(dev, d.vs, 'vertex shader'), fs = await module(dev, d.fs, 'fragment shader');
    const written = new Set(Array.from(d.fs.matchAll(/@location\((\d+)\) oc\d+: vec4f/g), function (m) { return Number(m[1]); }));
    const w = d.width, h = d.height, inputs = vertexInputs(dev, d);
    const colours = [];
    for (let i = 0; i < d.noc; i++) colours.push(target(dev, 'rgba32float', w, h));
    const depth = target(dev, 'depth32float', w, h);
    const binding = bindGroup(dev, d);
    const pipeline = await validated(dev, 'the pipeline', function () {
      return dev.createRenderPipeline({
        layout: dev.createPipelineLayout({ bindGroupLayouts: [binding.layout] }),
        vertex: { module: vs, entryPoint: 'main', buffers: inputs.layouts },
        fragment: { module: fs, entryPoint: 'main', targets: colours.map(function (c, i) {
          return { format: 'rgba32float', writeMask: written.has(i) ? GPUColorWrite.ALL : 0 };
        }) },
        primitive: { topology: 'triangle-list', cullMode: 'none' },
        depthStencil: { format: 'depth32float', depthWriteEnabled: true, depthCompare: d.depth_less ? 'less' : 'always' },
      });
    });
    return validated(dev, 'the draw', async function () {
      const enc = dev.createCommandEncoder();
      const pass = enc.beginRenderPass({
        colorAttachments: colours.map(function (t) {
          return { view: t.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [CLEAR, CLEAR, CLEAR, CLEAR] };
        }),
        depthStencilAttachment: { view: depth.createView(), depthLoadOp: 'clear', depthStoreOp: 'store', depthClearValue: 1 },
      });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, binding.group);
      inputs.buffers.forEach(function (b, i) { pass.setVertexBuffer(i, b); });
      pass.draw(d.nverts, d.ninst);
      pass.end();
      const colour = await readBack(dev, enc, colours, w, h, 4);
      const z = await readBack(dev, dev.createCommandEncoder(), [depth], w, h, 1, 'depth-only');
      return { ok: true, color: colour.map(toHex), depth: toHex(z[0]) };
    });
  }

  // ---- vertex outputs ---------------------------------------------------------------
  // The vertex translation with its entry point made a plain function agal_main (its
  // parameters lose their @location / @builtin), and the names of those parameters.
  function asFunction(vs) {
    const m = vs.match(/@vertex\s+fn main\((.*)\)\s*->/);
    if (!m) throw new Error('the vertex shader has no @vertex fn main');
    const params = m[1].split(',').map(function (p) { return p.trim(); }).filter(Boolean);
    const plain = params.map(function (p) { return p.replace(/@(location|builtin)\([a-z_0-9]+\)\s*/g, ''); });
    const text = vs.replace(m[0], 'fn agal_main(' + plain.join(', ') + ') ->');
    return { text: text, params: params };
  }

  async function vertexCapture(dev, d) {
    const slots = ['position'].concat(d.capture || []), n = d.nverts * d.ninst, PER_PASS = 8;
    const f = asFunction(d.vs), inputs = vertexInputs(dev, d);
    const args = [], ins = ['@builtin(vertex_index) agal_vi: u32', '@builtin(instance_index) agal_ii: u32'];
    for (const p of f.params) {
      const name = p.replace(/@\w+\([^)]*\)\s*/g, '').split(':')[0].trim();
      if (/@builtin\(instance_index\)/.test(p)) args.push('agal_ii');
      else {
        args.push(name);
        ins.push(p);
      }
    }
    const fields = slots.map(function (s, i) { return '@location(' + i + ') @interpolate(flat) s' + i + ': vec4f,'; });
    const code = f.text + '\nstruct agal_capture {\n    @builtin(position) agal_p: vec4f,\n    ' + fields.join('\n    ') +
      '\n}\n@vertex\nfn agal_capture_main(' + ins.join(', ') + ') -> agal_capture {\n' +
      '    let o = agal_main(' + args.join(', ') + ');\n' +
      '    let x = f32(agal_vi + ' + d.nverts + 'u * agal_ii);\n' +
      '    return agal_capture(vec4f((2.0 * x + 1.0) / ' + n + '.0 - 1.0, 0.0, 0.5, 1.0), ' +
      slots.map(function (s) { return 'o.' + s; }).join(', ') + ');\n}\n';
    const vs = await module(dev, code, 'vertex shader');
    const binding = bindGroup(dev, d);
    const xfb = new Float32Array(n * slots.length * 4);
    for (let first = 0; first < slots.length; first += PER_PASS) {
      const count = Math.min(PER_PASS, slots.length - first), loc = [], outs = [], copies = [];
      for (let k = 0; k < count; k++) {
        loc.push('@location(' + (first + k) + ') @interpolate(flat) s' + (first + k) + ': vec4f');
        outs.push('@location(' + k + ') c' + k + ': vec4f,');
        copies.push('s' + (first + k));
      }
      const fs = await module(dev, 'struct agal_copy {\n    ' + outs.join('\n    ') + '\n}\n@fragment\nfn main(' + loc.join(', ') +
        ') -> agal_copy {\n    return agal_copy(' + copies.join(', ') + ');\n}\n', 'capture fragment shader');
      const targets = [];
      for (let k = 0; k < count; k++) targets.push(target(dev, 'rgba32float', n, 1));
      const values = await validated(dev, 'the capture', async function () {
        const pipeline = dev.createRenderPipeline({
          layout: dev.createPipelineLayout({ bindGroupLayouts: [binding.layout] }),
          vertex: { module: vs, entryPoint: 'agal_capture_main', buffers: inputs.layouts },
          fragment: { module: fs, entryPoint: 'main', targets: targets.map(function () { return { format: 'rgba32float' }; }) },
          primitive: { topology: 'point-list' },
        });
        const enc = dev.createCommandEncoder();
        const pass = enc.beginRenderPass({ colorAttachments: targets.map(function (t) {
          return { view: t.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [CLEAR, CLEAR, CLEAR, CLEAR] };
        }) });
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, binding.group);
        inputs.buffers.forEach(function (b, i) { pass.setVertexBuffer(i, b); });
        pass.draw(d.nverts, d.ninst);
        pass.end();
        return readBack(dev, enc, targets, n, 1, 4);
      });
      for (let k = 0; k < count; k++)
        for (let i = 0; i < n; i++)
          xfb.set(values[k].subarray(4 * i, 4 * i + 4), (i * slots.length + first + k) * 4);
    }
    return { ok: true, xfb: toHex(xfb) };
  }

  // ---- the page -----------------------------------------------------------------------
  // The adapter's limits where the draws need more than the defaults: 8 rgba32float
  // targets are 128 bytes a sample, and op plus 16 varyings 17 inter-stage values.
  async function device() {
    if (!navigator.gpu) throw new Error('no WebGPU in this browser (--enable-unsafe-webgpu?)');
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) throw new Error('no WebGPU adapter');
    if (!adapter.features.has('float32-filterable')) throw new Error('the adapter cannot filter rgba32float textures');
    const l = adapter.limits, info = adapter.info || {};
    const dev = await adapter.requestDevice({
      requiredFeatures: ['float32-filterable'],
      requiredLimits: { maxColorAttachmentBytesPerSample: l.maxColorAttachmentBytesPerSample,
                        maxInterStageShaderVariables: l.maxInterStageShaderVariables },
    });
    const name = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ');
    return { dev: dev, name: 'WebGPU (' + (name || 'unnamed adapter') + (adapter.isFallbackAdapter ? ', fallback adapter' : '') + ')' };
  }

  async function main() {
    const el = document.getElementById('agal-jobs'), jobs = JSON.parse(el.textContent);
    el.remove();
    const gpu = await device();
    const out = [];
    for (const d of jobs.draws) {
      try {
        out.push(await (d.fs ? fragmentDraw(gpu.dev, d) : vertexCapture(gpu.dev, d)));
      } catch (e) {
        out.push({ ok: false, error: String(e.message || e) });
      }
    }
    return JSON.stringify({ renderers: { webgpu: gpu.name }, draws: out });
  }
  window.agalDone = main().catch(function (e) { return JSON.stringify({ error: String(e.message || e) }); });
})();
