// test_pipeline.mjs: the package's pipeline keys (pipelineKey, pipelineDescriptor)
// under node's test runner (run by tests/web/test_web.py beside test_web.mjs): a key
// built from Context3D's state in its own names equals, byte for byte, the native
// key tests/web/pipeline_keys.c builds for the same state (the manifest's
// `pipelineKeys`); the WebGPU descriptor of a key says what docs/pipeline.md's
// WebGPU column says; a state passed wrong is a TypeError or RangeError; dispose
// frees the pairs the keys kept.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from 'agal2spv';

const manifest = JSON.parse(readFileSync(process.env.AGAL_MANIFEST, 'utf8'));
const agal = await load();
const vertex = agal.assemble('m44 op, va0, vc0\nmov v0, va1\n', { stage: 'vertex' });
const fragment = agal.assemble('tex ft0, v0, fs1 <2d, nearest, repeat, mipnone>\nmul oc, ft0, fc0\n',
                               { stage: 'fragment' });
const upload = agal.upload(vertex, fragment, { target: 'wgsl' });
const float4 = { format: 'float4', data32PerVertex: 4 };

// pipeline_keys.c's states, by name, as an emulator's Context3D calls set them.
const states = {
  'new Context3D': { vertexBuffers: [float4, float4] },
  'blend, cull, colour mask, interleaved': {
    blendFactors: { sourceFactor: 'sourceAlpha', destinationFactor: 'oneMinusSourceAlpha' },
    culling: 'back',
    colorMask: { red: true, green: true, blue: true, alpha: false },
    vertexBuffers: [{ format: 'float3', data32PerVertex: 6 }, { format: 'float2', bufferOffset: 3, data32PerVertex: 6 }],
  },
  'depth and stencil, antialiased': {
    depthTest: { depthMask: false, passCompareMode: 'greater' },
    stencilActions: { triangleFace: 'front', compareMode: 'equal', actionOnBothPass: 'incrementWrap',
                      actionOnDepthFail: 'decrementSaturate', actionOnDepthPassStencilFail: 'invert' },
    stencilReferenceValue: { referenceValue: 7, readMask: 15, writeMask: 240 },
    backBuffer: { antiAlias: 4, enableDepthAndStencil: true },
    vertexBuffers: [float4, float4],
  },
  'sampler state, instanced bytes': {
    samplerStates: [undefined, { wrap: 'clamp', filter: 'linear', mipfilter: 'miplinear' }],
    vertexBuffers: [float4, { format: 'bytes4', data32PerVertex: 1, instancesPerElement: 1 }],
  },
  'render to texture': {
    blendFactors: { sourceFactor: 'one', destinationFactor: 'one' },
    renderToTexture: [{ format: 'rgbaHalfFloat', enableDepthAndStencil: true, antiAlias: 2 }, { format: 'bgra' }],
    vertexBuffers: [float4, float4],
  },
  'no depth buffer': {
    backBuffer: { antiAlias: 0, enableDepthAndStencil: false },
    depthTest: { depthMask: true, passCompareMode: 'never' },
    vertexBuffers: [float4, { format: 'float4', bufferOffset: 2, data32PerVertex: 8 }],
  },
};

test('a key built by the package is the native key of the same state, byte for byte', () => {
  assert.deepEqual(manifest.pipelineKeys.map((k) => k.name), Object.keys(states));
  for (const native of manifest.pipelineKeys) {
    const key = agal.pipelineKey(upload, states[native.name]);
    assert.equal(key.json, native.key, native.name);
    assert.equal(key.hash, native.hash, native.name);
    assert.equal(key.webgpu.json, native.webgpu, native.name);
    assert.equal(key.webgpu.hash, native.webgpuHash, native.name);
  }
  const hashes = new Set(manifest.pipelineKeys.map((k) => k.webgpuHash));
  assert.equal(hashes.size, manifest.pipelineKeys.length, 'each state its own WebGPU pipeline');
});

test('an upload for single-sampled targets is another program in the key; any other count is not', () => {
  const state = states['no depth buffer'];
  const program = (options) => JSON.parse(agal.pipelineKey(agal.upload(vertex, fragment, options), state).json).program;
  const any = program({ target: 'wgsl' });
  assert.equal(any, JSON.parse(agal.pipelineKey(upload, state).json).program);
  assert.equal(program({ target: 'wgsl', samples: 4 }), any);
  assert.notEqual(program({ target: 'wgsl', samples: 1 }), any);
});

test("an upload with another clip is another program in the key; the target's own is its default", () => {
  const state = states['no depth buffer'];
  const program = (options) => JSON.parse(agal.pipelineKey(agal.upload(vertex, fragment, options), state).json).program;
  const gl = program({ target: 'wgsl', clip: 'gl' });
  assert.notEqual(gl, program({ target: 'wgsl' }));
  assert.notEqual(program({ target: 'wgsl', clip: 'none' }), gl);
  assert.equal(program({ target: 'wgsl', clip: 'none' }), program({ target: 'wgsl' }), "WGSL's own clip is its default");
});

test("an upload's profile counts as it resolves: a version 1 pair's baseline is its default", () => {
  const state = states['no depth buffer'];
  const program = (options) => JSON.parse(agal.pipelineKey(agal.upload(vertex, fragment, options), state).json).program;
  assert.equal(program({ target: 'essl3', profile: 'baselineConstrained' }), program({ target: 'essl3' }));
  assert.notEqual(program({ target: 'essl3', profile: 'standard' }), program({ target: 'essl3' }));
});

test('an upload with stripNames is another program in the key', () => {
  const state = states['no depth buffer'];
  const program = (options) => JSON.parse(agal.pipelineKey(agal.upload(vertex, fragment, options), state).json).program;
  assert.notEqual(program({ target: 'essl3', stripNames: true }), program({ target: 'essl3' }));
  assert.equal(program({ target: 'essl3', stripNames: false }), program({ target: 'essl3' }));
});

test('the WebGPU key leaves out what WebGPU sets per draw: stencil reference, samplers, offsets', () => {
  const base = states['depth and stencil, antialiased'];
  const a = agal.pipelineKey(upload, base);
  const b = agal.pipelineKey(upload, { ...base, stencilReferenceValue: { referenceValue: 9, readMask: 15, writeMask: 240 },
                                       samplerStates: [undefined, { wrap: 'repeat', filter: 'linear', mipfilter: 'mipnone' }] });
  assert.notEqual(a.hash, b.hash);
  assert.equal(a.webgpu.json, b.webgpu.json);
  const c = agal.pipelineKey(upload, { ...base, stencilReferenceValue: { referenceValue: 7, readMask: 3, writeMask: 240 } });
  assert.notEqual(a.webgpu.hash, c.webgpu.hash, 'a stencil mask is baked');
});

const modules = { vertex: { label: 'vertex module' }, fragment: { label: 'fragment module' } };

test('pipelineDescriptor: the key\'s state in WebGPU\'s names', () => {
  const d = agal.pipelineDescriptor(agal.pipelineKey(upload, states['blend, cull, colour mask, interleaved']), modules);
  assert.equal(d.layout, 'auto');
  assert.equal(d.vertex.module, modules.vertex);
  assert.deepEqual(d.vertex.buffers, [
    { arrayStride: 24, stepMode: 'vertex', attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x3' }] },
    { arrayStride: 24, stepMode: 'vertex', attributes: [{ shaderLocation: 1, offset: 0, format: 'float32x2' }] }]);
  assert.deepEqual(d.primitive, { topology: 'triangle-list', frontFace: 'cw', cullMode: 'back' });
  const blend = { operation: 'add', srcFactor: 'src-alpha', dstFactor: 'one-minus-src-alpha' };
  assert.deepEqual(d.fragment.targets, [{ format: 'bgra8unorm', writeMask: 7, blend: { color: blend, alpha: blend } }]);
  assert.deepEqual(d.multisample, { count: 1 });
  assert.deepEqual(d.depthStencil, { format: 'depth24plus-stencil8', depthWriteEnabled: true, depthCompare: 'less-equal',
    stencilFront: { compare: 'always', passOp: 'keep', depthFailOp: 'keep', failOp: 'keep' },
    stencilBack: { compare: 'always', passOp: 'keep', depthFailOp: 'keep', failOp: 'keep' },
    stencilReadMask: 255, stencilWriteMask: 255 });

  const s = agal.pipelineDescriptor(agal.pipelineKey(upload, states['depth and stencil, antialiased']),
                                    { ...modules, backBufferFormat: 'rgba8unorm', depthStencilFormat: 'depth32float-stencil8' });
  assert.deepEqual(s.depthStencil, { format: 'depth32float-stencil8', depthWriteEnabled: false, depthCompare: 'greater',
    stencilFront: { compare: 'equal', passOp: 'increment-wrap', depthFailOp: 'decrement-clamp', failOp: 'invert' },
    stencilBack: { compare: 'always', passOp: 'keep', depthFailOp: 'keep', failOp: 'keep' },
    stencilReadMask: 15, stencilWriteMask: 240 });
  assert.deepEqual(s.multisample, { count: 4 });
  assert.deepEqual(s.fragment.targets, [{ format: 'rgba8unorm', writeMask: 15 }], '(one, zero) blends nothing');

  const t = agal.pipelineDescriptor(agal.pipelineKey(upload, states['render to texture']), modules);
  const add = { operation: 'add', srcFactor: 'one', dstFactor: 'one' };
  assert.deepEqual(t.fragment.targets.map((x) => x.format), ['rgba16float', 'rgba8unorm']);
  assert.deepEqual(t.fragment.targets[1].blend, { color: add, alpha: add });
  // WebGPU's framebuffers have their first row at the top, as Stage3D's textures:
  // no flip into a texture (bind_page.html draws one)
  assert.equal(t.vertex.constants, undefined, 'no flip into a texture');
  assert.equal(t.fragment.constants, undefined, 'no flip into a texture');

  const i = agal.pipelineDescriptor(agal.pipelineKey(upload, states['sampler state, instanced bytes']), modules);
  assert.deepEqual(i.vertex.buffers[1], { arrayStride: 4, stepMode: 'instance',
                                          attributes: [{ shaderLocation: 1, offset: 0, format: 'unorm8x4' }] });
  assert.equal(agal.pipelineDescriptor(agal.pipelineKey(upload, states['no depth buffer']), modules).depthStencil, undefined);

  const none = agal.pipelineDescriptor(agal.pipelineKey(upload, { ...states['new Context3D'], culling: 'frontAndBack' }), modules);
  assert.equal(none.primitive.cullMode, 'none');
  assert.equal(none.fragment.targets[0].writeMask, 0, 'culling both faces draws nothing');
  assert.equal(none.depthStencil.depthWriteEnabled, false);
  assert.equal(none.depthStencil.stencilWriteMask, 0);
});

test('a state or key passed wrong is a TypeError or RangeError naming it', () => {
  const wrong = [
    [null, TypeError, /state must be an object/],
    [{ cull: 'back' }, TypeError, /state has no "cull"/],
    [{ culling: 'sideways' }, TypeError, /state.culling must be one of none, front, back, frontAndBack/],
    [{ culling: 'toString' }, TypeError, /state.culling must be one of/],
    [{ blendFactors: { sourceFactor: 'one', destination: 'zero' } }, TypeError, /state.blendFactors has no "destination"/],
    [{ colorMask: { red: 1 } }, TypeError, /state.colorMask.red must be a boolean/],
    [{ stencilReferenceValue: { referenceValue: 256 } }, RangeError, /referenceValue is an integer from 0 to 255/],
    [{ stencilReferenceValue: { readMask: 1.5 } }, RangeError, /readMask is an integer/],
    [{ backBuffer: { antiAlias: '4' } }, TypeError, /antiAlias must be a number/],
    [{ vertexBuffers: [{ format: 'float4' }] }, TypeError, /vertexBuffers\[0\].data32PerVertex is missing/],
    [{ vertexBuffers: [{ format: 'float5', data32PerVertex: 4 }] }, TypeError, /vertexBuffers\[0\].format must be one of/],
    [{ vertexBuffers: [{ data32PerVertex: 0 }] }, RangeError, /data32PerVertex is an integer from 1 to 64/],
    [{ vertexBuffers: new Array(17).fill(float4) }, RangeError, /17 entries, more than 16/],
    [{ vertexBuffers: float4 }, TypeError, /vertexBuffers must be an array/],
    [{ samplerStates: [{ wrap: 'clamp', filter: 'linear' }] }, TypeError, /samplerStates\[0\].mipfilter is missing/],
    [{ renderToTexture: [{ format: 'compressedAlpha', antiAlias: 17 }] }, RangeError, /antiAlias is an integer from 0 to 16/],
    [Object.create({ culling: 'back' }, { colorMask: { value: 1, enumerable: false } }), TypeError, /colorMask must be an object/],
  ];
  for (const [state, type, message] of wrong) {
    assert.throws(() => agal.pipelineKey(upload, state), (e) => e instanceof type && /^agal2spv: /.test(e.message) &&
      message.test(e.message), JSON.stringify(state));
  }
  assert.throws(() => agal.pipelineKey({ ...upload }, {}), /upload must be what this object's upload\(\) returned/);
  const key = agal.pipelineKey(upload, states['new Context3D']);
  assert.throws(() => agal.pipelineDescriptor({ ...key }, modules), /key must be what pipelineKey returned/);
  assert.throws(() => agal.pipelineDescriptor(key, { vertex: modules.vertex }), /modules.fragment must be a GPUShaderModule/);
  assert.throws(() => agal.pipelineDescriptor(key, { ...modules, format: 'rgba8unorm' }), /modules has no "format"/);
  const instanced = agal.pipelineKey(upload, { vertexBuffers: [float4, { ...float4, instancesPerElement: 2 }] });
  assert.throws(() => agal.pipelineDescriptor(instanced, modules), RangeError);
  const heap = agal.heapUsed();
  for (let i = 0; i < 300; i++) agal.pipelineKey(upload, states['render to texture']);
  assert.equal(agal.heapUsed(), heap, 'keys leave the heap as it was');
});

test('the pairs pipelineKey keeps in the library go with dispose', async () => {
  const [used, idle] = [await load(), await load()];
  for (let i = 0; i < 20; i++) {
    const f = used.assemble(`tex ft0, v0, fs${i % 8} <2d, nearest, repeat, mipnone>\nmul oc, ft0, fc0\n`,
                            { stage: 'fragment' });
    used.pipelineKey(used.upload(vertex, f, { target: 'wgsl' }), states['new Context3D']).webgpu.json;
  }
  used.dispose();
  idle.dispose();
  assert.equal(used.heapUsed(), idle.heapUsed(), 'nothing left after dispose');
});
