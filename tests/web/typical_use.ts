// typical_use.ts: a WebGL 2, a WebGL 1 and a WebGPU runtime binding from the package's
// types alone, with no cast; test_web.py compiles it with `tsc --strict` against the
// installed package (agal2spv.d.ts) and @webgpu/types, so a type that does not narrow
// by target fails the test.
import { load, FlashError, type ContextProfile } from 'agal2spv';

export async function webgl2(gl: WebGL2RenderingContext, vertex: Uint8Array, fragment: Uint8Array): Promise<void> {
  const agal = await load();
  // a single-sampled canvas (antialias: false) takes pairs without centroid varyings
  const samples = gl.getParameter(gl.SAMPLES) > 1 ? undefined : 1;
  const up = agal.upload(vertex, fragment, { target: 'essl3', debugInfo: true, samples });
  const program = gl.createProgram()!;
  for (const [type, text] of [[gl.VERTEX_SHADER, up.vertex], [gl.FRAGMENT_SHADER, up.fragment]] as const) {
    const shader = gl.createShader(type)!;
    gl.shaderSource(shader, text); // a string: essl3's code is text
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
      const stage = type === gl.VERTEX_SHADER ? 'vertex' : 'fragment';
      const { log, errors } = agal.mapDriverLog(up, stage, gl.getShaderInfoLog(shader) ?? '');
      const first: number | undefined = errors[0]?.token;
      throw new Error(`${log} (first token ${first})`);
    }
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  const { vertex: v, fragment: f } = up.bindings;
  if (v.constants) gl.uniformBlockBinding(program, gl.getUniformBlockIndex(program, v.constants.block), 0);
  for (const s of f.samplers) {
    gl.activeTexture(gl.TEXTURE0 + s.unit);
    gl.uniform1i(gl.getUniformLocation(program, s.name), s.unit);
    const wrap: 'clamp' | 'repeat' | 'clamp_u_repeat_v' | 'repeat_u_clamp_v' = s.wrap;
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, wrap === 'repeat' ? gl.REPEAT : gl.CLAMP_TO_EDGE);
  }
  if (v.yflipUniform) gl.uniform1f(gl.getUniformLocation(program, v.yflipUniform.name), 1);
}

export async function webgl1(gl: WebGLRenderingContext, vertex: Uint8Array, fragment: Uint8Array): Promise<void> {
  const agal = await load();
  const up = agal.upload(vertex, fragment, { target: 'essl1', names: { attribute: 'a_' }, stripNames: true });
  const program = gl.createProgram()!;
  for (const a of up.bindings.vertex.attributes) gl.bindAttribLocation(program, a.location, a.name);
  const { constants } = up.bindings.vertex;
  if (constants) gl.getUniformLocation(program, `${constants.array}[0]`);
  const block: null = up.bindings.fragment.constants ? up.bindings.fragment.constants.block : null;
  void block;
}

export async function webgpu(device: GPUDevice, vertex: Uint8Array, fragment: Uint8Array,
                             profile: ContextProfile): Promise<void> {
  const agal = await load();
  let up;
  try {
    up = agal.upload(vertex, fragment, { target: 'wgsl', contextProfile: profile });
  } catch (e) {
    if (e instanceof FlashError) throw new Error(`${e.errorID}: ${e.message} (${e.diagnostic ?? ''})`);
    throw e;
  }
  const layout = device.createBindGroupLayout(up.bindings.bindGroupLayout); // present for wgsl
  const module = device.createShaderModule({ code: up.vertex + up.fragment });
  const samplers = up.bindings.fragment.samplers.map((s) => device.createSampler(s.samplerDescriptor));
  const key = agal.pipelineKey(up, { vertexBuffers: [{ format: 'float4', data32PerVertex: 4 }], culling: 'back',
                                     blendFactors: { sourceFactor: 'sourceAlpha', destinationFactor: 'oneMinusSourceAlpha' } });
  const cached: string = key.webgpu.hash;
  const pipeline = device.createRenderPipeline(agal.pipelineDescriptor(key, {
    vertex: device.createShaderModule({ code: up.vertex }), fragment: device.createShaderModule({ code: up.fragment }),
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    backBufferFormat: navigator.gpu.getPreferredCanvasFormat() }));
  const stencilRef: number = JSON.parse(key.json).stencil_ref;
  const words: Uint32Array = agal.translate(vertex, { target: 'spirv' }).code;
  const text: string = agal.translate(vertex).code;
  const bytes = agal.assemble('mov oc, v0', { stage: 'fragment', strict: true });
  const warnings: number = bytes.warnings.length;
  void [layout, module, samplers, words, text, warnings, cached, pipeline, stencilRef];
}
