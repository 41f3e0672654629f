// wgsl_render.mjs: runs programs' WGSL on Dawn (the npm package webgpu) and prints
// what they write, for test_wgsl_render.py to hold to the interpreter's. Run with
// VK_ICD_FILENAMES naming SwiftShader's ICD.
//
// usage: node wgsl_render.mjs CASES.json
//   CASES.json: [{"name", "wgsl" (a fragment program's text), "constants": [[4
//   floats] x N], "varyings": {"v0": [4 floats], ...}, "textures": [{"sampler", "dim":
//   "2d"|"cube", "texel": [4 bytes]}]}, ...]
// Each case fills a 2x2 target with one full-screen triangle whose varyings are the
// same at every vertex (so every pixel reads them, and derivatives are 0, as in the
// interpreter's quad of equal invocations); every texture is 1x1 (rgba8unorm), so
// any filter and wrap read its texel. Prints one JSON line per case: {"name",
// "oc0": [4 floats] ... or "killed": true}, or {"name", "error"}.
// A case with "stage": "vertex" ("attributes": {"va0": [4 floats], ...}, "iid")
// runs the vertex program's main from a compute shader instead, which stores its
// result in a buffer (a vertex stage can write none): {"name", "op", "v0", ...}.
import { readFileSync } from 'node:fs';
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);
const gpu = create([]); // outlives the device (see wgsl_compile.mjs)
const CLEAR = -7; // a killed fragment leaves this in every component

function fail(why) {
  console.error(`wgsl_render: ${why}`);
  process.exit(2);
}

// The vertex stage: constant varyings from a uniform array, at binding 0 (the
// fragment program's are 1 and up).
function vertexCode(locations) {
  const fields = locations.map((n) => `@location(${n}) v${n}: vec4f,`).join(' ');
  const values = locations.map((n) => `, vary[${n}]`).join('');
  return `@group(0) @binding(0) var<uniform> vary: array<vec4f, 16>;
struct vout { @builtin(position) p: vec4f, ${fields} }
@vertex fn main(@builtin(vertex_index) i: u32) -> vout {
    var pos = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
    return vout(vec4f(pos[i], 0.5, 1.0)${values});
}`;
}

function buffer(dev, floats) {
  const b = dev.createBuffer({ size: floats.length * 4, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  dev.queue.writeBuffer(b, 0, new Float32Array(floats));
  return b;
}

function texture(dev, t) {
  const cube = t.dim === 'cube';
  const tex = dev.createTexture({
    size: [1, 1, cube ? 6 : 1],
    format: 'rgba8unorm',
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
  for (let layer = 0; layer < (cube ? 6 : 1); layer++)
    dev.queue.writeTexture({ texture: tex, origin: [0, 0, layer] }, new Uint8Array(t.texel), { bytesPerRow: 4 }, [1, 1]);
  return tex.createView({ dimension: cube ? 'cube' : '2d' });
}

async function draw(dev, c) {
  const locations = [...c.wgsl.matchAll(/@location\((\d+)\) v\d+: vec4f/g)].map((m) => Number(m[1]));
  const colours = [...c.wgsl.matchAll(/@location\((\d+)\) oc\d+: vec4f/g)].map((m) => Number(m[1]));
  const depth = /@builtin\(frag_depth\)/.test(c.wgsl);
  const vary = new Array(64).fill(0);
  for (const n of locations) c.varyings[`v${n}`].forEach((x, k) => (vary[4 * n + k] = x));
  const targets = colours.map(() =>
    dev.createTexture({ size: [2, 2], format: 'rgba32float', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC }));
  dev.pushErrorScope('validation');
  const pipeline = dev.createRenderPipeline({
    layout: 'auto',
    vertex: { module: dev.createShaderModule({ code: vertexCode(locations) }), entryPoint: 'main' },
    fragment: {
      module: dev.createShaderModule({ code: c.wgsl }),
      entryPoint: 'main',
      targets: colours.map(() => ({ format: 'rgba32float' })),
    },
    depthStencil: depth ? { format: 'depth32float', depthWriteEnabled: true, depthCompare: 'always' } : undefined,
  });
  const entries = [{ binding: 0, resource: { buffer: buffer(dev, vary) } }];
  if (/var<uniform> fc/.test(c.wgsl)) entries.push({ binding: 1, resource: { buffer: buffer(dev, c.constants.flat()) } });
  for (const t of c.textures) {
    entries.push({ binding: 2 + t.sampler, resource: texture(dev, t) });
    entries.push({ binding: 18 + t.sampler, resource: dev.createSampler({}) });
  }
  const group = dev.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries });
  const enc = dev.createCommandEncoder();
  const pass = enc.beginRenderPass({
    colorAttachments: targets.map((t) => ({
      view: t.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [CLEAR, CLEAR, CLEAR, CLEAR],
    })),
    depthStencilAttachment: depth
      ? {
          view: dev.createTexture({ size: [2, 2], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT }).createView(),
          depthLoadOp: 'clear', depthStoreOp: 'store', depthClearValue: 1,
        }
      : undefined,
  });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  pass.draw(3);
  pass.end();
  const reads = targets.map((t) => {
    const b = dev.createBuffer({ size: 512, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    enc.copyTextureToBuffer({ texture: t }, { buffer: b, bytesPerRow: 256 }, [2, 2]);
    return b;
  });
  dev.queue.submit([enc.finish()]);
  const error = await dev.popErrorScope();
  if (error) return { name: c.name, error: error.message.replace(/\s+/g, ' ') };
  const out = { name: c.name };
  for (let i = 0; i < reads.length; i++) {
    await reads[i].mapAsync(GPUMapMode.READ);
    out[`oc${colours[i]}`] = Array.from(new Float32Array(reads[i].getMappedRange(), 0, 4));
    reads[i].unmap();
  }
  if (colours.length && out[`oc${colours[0]}`].every((x) => x === CLEAR)) return { name: c.name, killed: true };
  return out;
}

// The vertex program's main as a function a compute shader calls with the inputs
// as literals, and its agal_out stored: op first, then each varying in order.
function computeCode(c) {
  const text = c.wgsl
    .replace('@vertex\n', '')
    .replace(/fn main\((.*)\) ->/, (_, params) => `fn main(${params.replace(/@(location|builtin)\([a-z_0-9]+\) /g, '')}) ->`);
  const params = text.match(/fn main\((.*)\) ->/)[1].split(', ').filter((p) => p);
  const args = params.map((p) => {
    const name = p.split(':')[0];
    return name === 'iid' ? `${c.iid}u` : `vec4f(${c.attributes[name].join(', ')})`;
  });
  const varyings = [...c.wgsl.matchAll(/@location\((\d+)\)[^,]* v(\d+): vec4f,/g)].map((m) => `v${m[2]}`);
  const stores = ['position', ...varyings].map((f, i) => `agal_result[${i}] = o.${f};`).join(' ');
  return { varyings, code: `${text}
@group(0) @binding(30) var<storage, read_write> agal_result: array<vec4f, 17>;
@compute @workgroup_size(1) fn agal_run() { let o = main(${args.join(', ')}); ${stores} }` };
}

async function run(dev, c) {
  const { varyings, code } = computeCode(c);
  dev.pushErrorScope('validation');
  const pipeline = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code }), entryPoint: 'agal_run' } });
  const result = dev.createBuffer({ size: 17 * 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const read = dev.createBuffer({ size: 17 * 16, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const entries = [{ binding: 30, resource: { buffer: result } }];
  if (/var<uniform> vc/.test(c.wgsl)) entries.push({ binding: 0, resource: { buffer: buffer(dev, c.constants.flat()) } });
  const enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, dev.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries }));
  pass.dispatchWorkgroups(1);
  pass.end();
  enc.copyBufferToBuffer(result, 0, read, 0, 17 * 16);
  dev.queue.submit([enc.finish()]);
  const error = await dev.popErrorScope();
  if (error) return { name: c.name, error: error.message.replace(/\s+/g, ' ') };
  await read.mapAsync(GPUMapMode.READ);
  const f = new Float32Array(read.getMappedRange());
  const out = { name: c.name, op: Array.from(f.slice(0, 4)) };
  varyings.forEach((v, i) => (out[v] = Array.from(f.slice(4 * (i + 1), 4 * (i + 2)))));
  read.unmap();
  return out;
}

async function main() {
  if (process.argv.length !== 3) fail('usage: node wgsl_render.mjs CASES.json');
  const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const adapter = await gpu.requestAdapter();
  if (!adapter) fail('no WebGPU adapter (is VK_ICD_FILENAMES set to SwiftShader\'s ICD?)');
  // four rgba32float colours are 64 bytes a sample: past the default limit of 32
  const limit = adapter.limits.maxColorAttachmentBytesPerSample;
  const dev = await adapter.requestDevice({ requiredLimits: { maxColorAttachmentBytesPerSample: limit } });
  for (const c of cases) console.log(JSON.stringify(await (c.stage === 'vertex' ? run(dev, c) : draw(dev, c))));
  process.exit(0);
}

main().catch((e) => fail(e.stack || String(e)));
