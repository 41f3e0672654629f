// wgsl_compile.mjs: compiles WGSL files with Dawn's Tint (the npm package webgpu,
// Dawn for node) and reports every error and warning. Run by test_wgsl_compile.py
// with VK_ICD_FILENAMES naming SwiftShader's ICD (Dawn finds no adapter through
// lavapipe).
//
// usage: node wgsl_compile.mjs LIST
//   LIST: one line per check: "module FILE" compiles FILE (createShaderModule and
//   getCompilationInfo: no message at all is a pass); "module FILE REFLECTION" also
//   makes a pipeline of it with the bind group layout its reflection's "webgpu" part
//   gives (agal_reflect_json: `createBindGroupLayout({entries})` as it is), beside a
//   vertex stage writing the varyings it lists for a fragment program, so a layout
//   that misses or mistypes a binding fails; "pair VERT FRAG" also makes a
//   render pipeline of the two (layout "auto", a float32x4 vertex attribute per
//   @location of VERT's main, all in one buffer, an rgba8unorm target per colour of FRAG, depth32float
//   when FRAG writes frag_depth), which checks what joins the stages: locations,
//   types and interpolation of the varyings, and both stages' bindings together.
// Prints one line per message and a summary; exit status 0 when nothing was said,
// 1 when something was, 2 when no check could be made (no adapter, no device, or a
// compiler that stays silent on a module with an error).
import { readFileSync } from 'node:fs';
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);

function fail(why) {
  console.error(`wgsl_compile: ${why}`);
  process.exit(2);
}

// Dawn's instance must outlive the device: collected, it takes the device's threads
// with it (a crash a few modules later).
const gpu = create([]);

async function device() {
  const adapter = await gpu.requestAdapter();
  if (!adapter) fail('no WebGPU adapter (is VK_ICD_FILENAMES set to SwiftShader\'s ICD?)');
  const dev = await adapter.requestDevice();
  if (!dev) fail('no device');
  return dev;
}

// The module and its compilation messages. The error scope catches the module's
// validation error (uncaught, Dawn prints it and the process can crash).
async function messages(dev, code) {
  dev.pushErrorScope('validation');
  const module = dev.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const error = await dev.popErrorScope();
  const out = info.messages.map((m) => `${m.type} ${m.lineNum}:${m.linePos} ${m.message}`);
  if (error && !out.length) out.push(`error ${error.message.replace(/\s+/g, ' ')}`);
  return { module, messages: out };
}

// The pipeline of a vertex and a fragment module, its validation error or null.
async function pipeline(dev, vert, frag) {
  const locations = [...vert.code.matchAll(/@location\((\d+)\) va\d+: vec4f/g)].map((m) => Number(m[1]));
  const colours = [...frag.code.matchAll(/@location\((\d+)\) oc\d+: vec4f/g)].map((m) => Number(m[1]));
  const targets = [];
  for (const n of colours) targets[n] = { format: 'rgba8unorm' };
  for (let n = 0; n < targets.length; n++) if (!targets[n]) targets[n] = null;
  const desc = {
    layout: 'auto',
    vertex: {
      module: vert.module,
      entryPoint: 'main',
      // one buffer: the default limit is 8 buffers but 16 attributes
      buffers: locations.length
        ? [{
            arrayStride: 16 * locations.length,
            attributes: locations.map((n, i) => ({ shaderLocation: n, offset: 16 * i, format: 'float32x4' })),
          }]
        : [],
    },
    fragment: { module: frag.module, entryPoint: 'main', targets },
    primitive: { topology: 'triangle-list' },
  };
  if (/@builtin\(frag_depth\)/.test(frag.code)) {
    desc.depthStencil = { format: 'depth32float', depthWriteEnabled: true, depthCompare: 'always' };
  }
  dev.pushErrorScope('validation');
  dev.createRenderPipeline(desc);
  const error = await dev.popErrorScope();
  return error ? error.message.replace(/\s+/g, ' ') : null;
}

// A vertex module that writes the varyings a fragment program's reflection lists.
function varyingSource(webgpu) {
  const fields = webgpu.varyings.map((v) =>
    `@location(${v.location})${v.centroid ? ' @interpolate(perspective, centroid)' : ''} ${v.name}: vec4f,`);
  const values = webgpu.varyings.map(() => ', vec4f(0.5)').join('');
  return `struct agal_out { @builtin(position) position: vec4f, ${fields.join(' ')} }
@vertex fn main() -> agal_out { return agal_out(vec4f(0.0, 0.0, 0.5, 1.0)${values}); }`;
}

// The pipeline of one program with the layout of its reflection (entries: the
// "webgpu" part's, or given), its validation error or null.
async function reflectedPipeline(dev, program, webgpu, entries) {
  dev.pushErrorScope('validation');
  const layout = dev.createPipelineLayout({ bindGroupLayouts: [dev.createBindGroupLayout({ entries })] });
  let desc;
  if (/@vertex/.test(program.code)) {
    const attributes = webgpu.attributes.map((a, i) => ({ shaderLocation: a.location, offset: 16 * i, format: 'float32x4' }));
    desc = {
      layout,
      vertex: { module: program.module, entryPoint: 'main',
                buffers: attributes.length ? [{ arrayStride: 16 * attributes.length, attributes }] : [] },
      // no fragment stage: a depth attachment is the pipeline's one attachment
      depthStencil: { format: 'depth32float', depthWriteEnabled: false, depthCompare: 'always' },
    };
  } else {
    const targets = [];
    for (const o of webgpu.outputs) targets[o.location] = { format: 'rgba8unorm' };
    for (let n = 0; n < targets.length; n++) if (!targets[n]) targets[n] = null;
    desc = {
      layout,
      vertex: { module: dev.createShaderModule({ code: varyingSource(webgpu) }), entryPoint: 'main' },
      fragment: { module: program.module, entryPoint: 'main', targets },
    };
    if (webgpu.depth) desc.depthStencil = { format: 'depth32float', depthWriteEnabled: true, depthCompare: 'always' };
  }
  dev.createRenderPipeline(desc);
  const error = await dev.popErrorScope();
  return error ? error.message.replace(/\s+/g, ' ') : null;
}

async function main() {
  if (process.argv.length !== 3) fail('usage: node wgsl_compile.mjs LIST');
  const lines = readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l.trim());
  const dev = await device();
  // A compiler that accepts everything would pass every module: it must refuse this.
  const probe = await messages(dev, '@fragment fn main() -> @location(0) vec4f { return vec3f(1.0); }');
  if (!probe.messages.some((m) => m.startsWith('error'))) fail('Tint reported no error on a wrong module');
  const compiled = new Map();
  async function compile(file) {
    if (!compiled.has(file)) {
      const code = readFileSync(file, 'utf8');
      compiled.set(file, { code, ...(await messages(dev, code)) });
    }
    return compiled.get(file);
  }
  let modules = 0, pairs = 0, layouts = 0, bad = 0, probed = false;
  for (const line of lines) {
    const [kind, ...files] = line.trim().split(/\s+/);
    if (kind === 'module' && files.length === 2) {
      const program = await compile(files[0]), webgpu = JSON.parse(readFileSync(files[1], 'utf8')).webgpu;
      modules++;
      for (const m of program.messages) console.log(`${files[0]}: ${m}`);
      if (program.messages.length) {
        bad++;
        continue;
      }
      layouts++;
      const error = await reflectedPipeline(dev, program, webgpu, webgpu.entries);
      if (error) {
        console.log(`${files[0]}: the reflection's layout: ${error}`);
        bad++;
      }
      // The check must be able to fail: the layout without its last entry is refused.
      if (!probed && webgpu.entries.length) {
        probed = true;
        if (!(await reflectedPipeline(dev, program, webgpu, webgpu.entries.slice(0, -1))))
          fail(`${files[0]}: a layout missing a binding made a pipeline`);
      }
      continue;
    }
    const results = [];
    for (const f of files) results.push(await compile(f));
    for (let i = 0; i < files.length; i++) {
      modules++;
      for (const m of results[i].messages) console.log(`${files[i]}: ${m}`);
      if (results[i].messages.length) bad++;
    }
    if (kind === 'pair' && results.every((r) => !r.messages.length)) {
      pairs++;
      const error = await pipeline(dev, results[0], results[1]);
      if (error) {
        console.log(`${files[0]} + ${files[1]}: pipeline: ${error}`);
        bad++;
      }
    } else if (kind !== 'pair' && kind !== 'module') fail(`unknown check "${kind}"`);
  }
  if (layouts && !probed) fail('no reflection had a binding to leave out');
  console.log(`wgsl_compile: ${modules} modules compiled, ${layouts} made pipelines with their reflection's layout, ` +
              `${pairs} pairs made pipelines, ${bad} with messages`);
  process.exit(bad ? 1 : 0);
}

main().catch((e) => fail(e.stack || String(e)));
