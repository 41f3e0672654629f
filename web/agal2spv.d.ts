// agal2spv's JavaScript API (agal2spv.js).

export type Target = 'spirv' | 'glsl' | 'essl3' | 'essl1' | 'ir' | 'wgsl';
/** The targets a GLSL-family text comes out in: they declare names. */
export type GlslTarget = 'glsl' | 'essl3' | 'essl1';
export type Stage = 'vertex' | 'fragment';
/** Context3DProfile's names: the one profile vocabulary of `profile` and `contextProfile`. */
export type ContextProfile =
  | 'baselineConstrained' | 'baseline' | 'baselineExtended'
  | 'standardConstrained' | 'standard' | 'standardExtended' | 'enhanced';
/** `profile`: a Context3DProfile name; 'auto' (as leaving it out) is the old spelling,
 * read for one more version. */
export type Profile = ContextProfile | 'auto';
export type Bytes = Uint8Array | ArrayBuffer | SharedArrayBuffer | ArrayBufferView;

/** Context3DWrapMode, Context3DTextureFilter and Context3DMipFilter's names. */
export type WrapMode = 'clamp' | 'repeat' | 'clamp_u_repeat_v' | 'repeat_u_clamp_v';
export type TextureFilter = 'nearest' | 'linear' | 'anisotropic2x' | 'anisotropic4x' | 'anisotropic8x' |
  'anisotropic16x';
export type MipFilter = 'mipnone' | 'mipnearest' | 'miplinear';

/** A sampler's state in WebGPU's words, GPUSamplerDescriptor's shape: pass it to
 * device.createSampler. Flash's rules: a cube clamps, mipnone samples level 0 only
 * (lodMaxClamp 0), an anisotropic filter gives maxAnisotropy with miplinear. */
export interface SamplerDescriptor {
  magFilter: 'nearest' | 'linear';
  minFilter: 'nearest' | 'linear';
  mipmapFilter: 'nearest' | 'linear';
  addressModeU: 'clamp-to-edge' | 'repeat';
  addressModeV: 'clamp-to-edge' | 'repeat';
  addressModeW: 'clamp-to-edge';
  lodMinClamp: number;
  lodMaxClamp: number;
  maxAnisotropy?: number;
}

/** One fs<num> the program samples. */
export interface SamplerEntry<T extends Target = Target> {
  num: number;
  /** The texture unit: GLSL's gl.activeTexture(gl.TEXTURE0 + unit) and
   * gl.uniform1i(location of `name`, unit); setTextureAt's sampler number. */
  unit: number;
  /** SPIR-V and WGSL: the texture's binding (GLSL: the library's model, 2 + num). */
  binding: number;
  samplerBinding: number;
  /** GLSL: the sampler uniform, with the host's `names.sampler` prefix; WGSL: the variable. */
  name: string;
  dim: '2d' | 'cube' | '3d';
  /** The sampling token's state, in Context3D's names: what setProgram gives the slot. */
  wrap: WrapMode;
  filter: TextureFilter;
  mipmap: MipFilter;
  ignoreSampler: boolean;
  tex: boolean;
  ted: boolean;
  /** WGSL: the GPUSampler to bind at samplerBinding. */
  samplerDescriptor: T extends 'wgsl' ? SamplerDescriptor : undefined;
}

/** A name the text declares: a GLSL-family target's (the host's names applied), null
 * for SPIR-V and WGSL, which bind by number. */
export type DeclaredName<T extends Target> = T extends GlslTarget ? string : null;

/** What one translation declares for a runtime to bind (docs/binding-models.md). */
export interface Binding<T extends Target = Target> {
  stage: Stage;
  constants: {
    binding: number;
    /** Registers: ES 1.00 and WGSL 1 + the highest one read, GLSL and ES 3.00 the profile's file. */
    count: number;
    size: number;
    /** The library's name: GLSL and ES 3.00 the block, ES 1.00 and WGSL the array. */
    name: string;
    indirect: boolean;
    /** Only where limits packed the constants: registers first .. first + count - 1
     *  are the block's vec4s offset ..; absent, register n is vec4 n. */
    ranges?: { first: number; count: number; offset: number }[];
    /** GLSL and ES 3.00: the uniform block (gl.getUniformBlockIndex); else null. */
    block: T extends 'glsl' | 'essl3' ? string : null;
    /** GLSL family: the vec4 array in it (ES 1.00: gl.getUniformLocation(`${array}[0]`)); else null. */
    array: DeclaredName<T>;
  } | null;
  samplers: SamplerEntry<T>[];
  /** Vertex: gl.bindAttribLocation(program, location, name) (ES 1.00), @location(location) (WGSL). */
  attributes: { location: number; mask: number; name: DeclaredName<T> }[];
  /** v<location>; under limits, packed into agal_pack<slot> (location slot) from its
   * component `component`, the components `carried` (bit 0 x) in a varying of `width`;
   * `name` is what the text declares (agal_pack<slot> when packed). */
  varyings: { location: number; centroid: boolean; name: DeclaredName<T>; packed?: true; slot?: number;
              component?: number; carried?: number; width?: number }[];
  outputs: number;
  yflip: boolean;
  /** GLSL family, where the text declares the flip: the uniform and, for a vec4, its
   * component (the host's names.yflip / yflipComponent); else null (WGSL: the
   * `agal_yflip` override). */
  yflipUniform: T extends GlslTarget ? { name: string; component: 'x' | 'y' | 'z' | 'w' | null } | null : null;
  writesDepth: boolean;
  kil: boolean;
  instanceId: boolean;
  derivatives: boolean;
  /** WebGL 1 extensions to enable (getExtension names). */
  extensions: string[];
}

/** A WGSL translation's (or upload's) WebGPU bind group layout, group 0, in
 * GPUBindGroupLayoutDescriptor's shape: pass it to device.createBindGroupLayout. */
export interface BindGroupLayout {
  entries: {
    binding: number;
    /** GPUShaderStage's bits: 1 vertex, 2 fragment. */
    visibility: number;
    buffer?: { type: 'uniform'; minBindingSize: number };
    texture?: { sampleType: 'float'; viewDimension: '2d' | 'cube' };
    sampler?: { type: 'filtering' };
    /** The WGSL variable (vc, fc, fs0, fs0_sampler); WebGPU ignores it. */
    name: string;
  }[];
}

/** Names the GLSL-family texts declare instead of ours (the C library's agal_names):
 * a runtime with its own naming takes the text as it is. Each a GLSL identifier of
 * at most 63 characters, not starting gl_ (else a TypeError). */
export interface Names {
  vertexConstants?: string;   // 'vc'
  fragmentConstants?: string; // 'fc'
  vertexBlock?: string;       // 'agal_vc_block' (not in ES 1.00)
  fragmentBlock?: string;     // 'agal_fc_block'
  sampler?: string;           // prefix: 'fs' gives fs0
  attribute?: string;         // prefix: 'va'
  varying?: string;           // prefix: 'v'
  yflip?: string;             // 'agal_yflip'
  /** The flip as that component of a vec4 uniform (OpenFL's vcPositionScale: 'y'); a float by default. */
  yflipComponent?: 'x' | 'y' | 'z' | 'w';
}

/** A device's limits (docs/binding-models.md, "Limits"): a preset's name, or an
 * object in the library's JSON form, whose keys are agal_limits' field names: each
 * a count from 0 to 65535 (0: the device has none), a key left out unlimited. A
 * program or pair that cannot fit throws FlashError #3613, its diagnostic naming
 * the limit; an unknown preset or key is a TypeError, a count out of range a
 * RangeError. */
export type Limits =
  | 'webgl1' | 'webgl2' | 'gl33' | 'vulkan' | 'webgpu' | 'webgpu-compat' | 'wgpu-gl31'
  | {
      /** Named in the diagnostic. */
      name?: string;
      varying_vectors?: number;
      varying_components?: number;
      interstage_variables?: number;
      vertex_uniform_vectors?: number;
      fragment_uniform_vectors?: number;
      vertex_texture_units?: number;
      fragment_texture_units?: number;
      vertex_attributes?: number;
      color_attachments?: number;
    };

/** translate's options: any other key is a TypeError. */
export interface TranslateOptions<T extends Target = Target> {
  /** Default 'essl3'. */
  target?: T;
  /** The Program3D.upload argument the bytes stand for: Flash's messages name it. */
  stage?: Stage;
  /** Accept what is safe to translate (docs/decisions.md, "Lenient decoding"). */
  lenient?: boolean;
  /** The register limits to validate against; by default the program's version's. */
  profile?: Profile;
  names?: Names;
  /** The device's limits the translation must fit; none by default. */
  limits?: Limits;
  /** -g: `#line` per token in GLSL-family texts (WGSL keeps its comments), SPIR-V's
   * OpSource and OpLines; the result then takes mapDriverLog (docs/debug-info.md). */
  debugInfo?: boolean;
  /** -g0: no comments in the texts, no OpName in SPIR-V (the texts a shipped
   * emulator compiles: shorter, and sooner made); wins over debugInfo. */
  stripNames?: boolean;
  /** How op is mapped from Stage3D's clip space (z 0..w, y up); by default the
   * target's: GLSL's z = 2z - w, WGSL's none. 'none' for a GL context with
   * EXT_clip_control at ZERO_TO_ONE; 'control' as 'none' with no flip in the
   * vertex program either, the context's clip origin turning a texture over
   * (UPPER_LEFT_EXT), front faces clockwise for both targets: the sooner first draw
   * (web/README.md, "clip"); 'vulkan' negates y. */
  clip?: Clip;
}
export type Clip = 'gl' | 'vulkan' | 'none' | 'control';

/** upload's options: any other key is a TypeError. */
export interface UploadOptions<T extends UploadTarget = UploadTarget> {
  /** Default 'essl3'. */
  target?: T;
  lenient?: boolean;
  profile?: Profile;
  /** The Context3D's profile: a program of a later AGAL version is Flash's #3725. */
  contextProfile?: ContextProfile;
  names?: Names;
  /** The device's limits the pair must fit; none by default. */
  limits?: Limits;
  /** As translate's: the texts carry their tokens' lines, the result takes mapDriverLog. */
  debugInfo?: boolean;
  /** As translate's: no comments, no OpName. */
  stripNames?: boolean;
  /** The samples of the render targets the pair is drawn to; any by default. 1
   * (single-sampled: a canvas without antialias, antiAlias 0): no varying is
   * declared centroid, whose compile costs WebGL more; that pair is then for
   * single-sampled targets only. Any other number is a RangeError. */
  samples?: 1 | 2 | 4 | 8 | 16;
  /** As translate's. */
  clip?: Clip;
}
export type UploadTarget = Exclude<Target, 'ir'>;

/** The code of a target: SPIR-V words, or text. */
export type Code<T extends Target> = T extends 'spirv' ? Uint32Array : string;
/** WGSL's bindings carry the bind group layout. */
export type WithLayout<T extends Target, B> = T extends 'wgsl' ? B & { bindGroupLayout: BindGroupLayout } : B;

export interface Translation<T extends Target> {
  code: Code<T>;
  bindings: WithLayout<T, Binding<T>>;
}

export interface Upload<T extends UploadTarget> {
  vertex: Code<T>;
  fragment: Code<T>;
  bindings: WithLayout<T, { vertex: Binding<T>; fragment: Binding<T> }>;
}

/** One error of a driver's log that mapDriverLog placed: its AGAL token (from 1,
 * as the log and the texts' comments count), the token's line in the program's
 * disassembly, that line, and the driver's line it follows. */
export interface MappedError {
  line: number;
  token: number;
  disassembly: string;
  message: string;
}

/** mapDriverLog's answer: the log with a line "  AGAL: token N (line L): ..." after
 * each error it placed, and those errors. */
export interface MappedLog {
  log: string;
  errors: MappedError[];
}

/** What Flash Player throws: errorID its id, name its class, message its line. */
export class FlashError extends Error {
  constructor(errorID: number, name: FlashError['name'], message: string, diagnostic?: string);
  errorID: number;
  name: 'Error' | 'ArgumentError' | 'RangeError' | 'TypeError' | 'SecurityError';
  /** translate and upload: the library's diagnostic, which Flash's line does not
   * carry (for #3613, the limit: "fragment program: 9 texture units needed, the
   * limits allow 8 (webgl1)"). */
  diagnostic?: string;
}

/** One of the assembler's diagnostics: a warning (Adobe's assembler ignores or reads
 * the text its own way) or the error (a SyntaxError's `diagnostics`, last). */
export interface AsmDiagnostic {
  line: number;
  column: number;
  warning: boolean;
  message: string;
}

/** What the Context3D checks read (web/README.md, "Context3D's checks"). */
export interface Context3DState {
  /** Context3DProfile; default 'baseline'. */
  profile?: ContextProfile;
  /** configureBackBuffer's size; absent: not configured. */
  backBuffer?: { width: number; height: number };
  /** A render target is set (clear leaves the back buffer alone). */
  renderToTexture?: boolean;
  /** The live objects of each kind (3691 past 4096). */
  objects?: { vertexBuffer?: number; indexBuffer?: number; program?: number; texture?: number };
  /** AIR's Context3D.ignoreResourceLimits: no object count. */
  ignoreResourceLimits?: boolean;
}

export type TextureFormat = 'bgra' | 'bgraPacked4444' | 'bgrPacked565' | 'compressed' | 'compressedAlpha' |
  'rgbaHalfFloat';

export interface BufferDesc {
  call: 'createVertexBuffer' | 'createVertexBufferForInstances' | 'createIndexBuffer';
  /** numVertices or numIndices. */
  count: number;
  data32PerVertex?: number;
  instancesPerElement?: number;
}

export interface TextureDesc {
  kind: '2d' | 'cube' | 'rectangle';
  /** A cube texture's size in both. */
  width: number;
  height: number;
  format: TextureFormat;
  streamingLevels?: number;
}

/** Context3D's state of a draw in its own names, for pipelineKey (web/README.md,
 * "Pipeline keys"): each member a call's arguments; absent, a new Context3D's. */
export interface PipelineState {
  blendFactors?: { sourceFactor?: BlendFactor; destinationFactor?: BlendFactor };
  colorMask?: { red?: boolean; green?: boolean; blue?: boolean; alpha?: boolean };
  culling?: TriangleFace;
  depthTest?: { depthMask?: boolean; passCompareMode?: CompareMode };
  stencilActions?: { triangleFace?: TriangleFace; compareMode?: CompareMode; actionOnBothPass?: StencilAction;
    actionOnDepthFail?: StencilAction; actionOnDepthPassStencilFail?: StencilAction };
  /** Each 0 to 255. */
  stencilReferenceValue?: { referenceValue?: number; readMask?: number; writeMask?: number };
  /** configureBackBuffer's; enableDepthAndStencil true when absent. */
  backBuffer?: { antiAlias?: number; enableDepthAndStencil?: boolean };
  /** setRenderToTexture's textures by colorOutputIndex; absent or empty: the back buffer. */
  renderToTexture?: ({ format: TextureFormat; enableDepthAndStencil?: boolean; antiAlias?: number } | null |
    undefined)[];
  /** setVertexBufferAt's by index: the buffer's data32PerVertex and instancesPerElement. */
  vertexBuffers?: ({ format?: VertexBufferFormat; bufferOffset?: number; data32PerVertex: number;
    instancesPerElement?: number } | null | undefined)[];
  /** setSamplerStateAt's by sampler, since setProgram. */
  samplerStates?: ({ wrap: 'clamp' | 'repeat' | 'clamp_u_repeat_v' | 'repeat_u_clamp_v';
    filter: 'nearest' | 'linear' | 'anisotropic2x' | 'anisotropic4x' | 'anisotropic8x' | 'anisotropic16x';
    mipfilter: 'mipnone' | 'mipnearest' | 'miplinear' } | null | undefined)[];
}
export type BlendFactor = 'zero' | 'one' | 'sourceColor' | 'oneMinusSourceColor' | 'sourceAlpha' |
  'oneMinusSourceAlpha' | 'destinationColor' | 'oneMinusDestinationColor' | 'destinationAlpha' |
  'oneMinusDestinationAlpha';
export type CompareMode = 'never' | 'less' | 'equal' | 'lessEqual' | 'greater' | 'notEqual' | 'greaterEqual' | 'always';
export type StencilAction = 'keep' | 'zero' | 'set' | 'incrementSaturate' | 'decrementSaturate' | 'invert' |
  'incrementWrap' | 'decrementWrap';
export type TriangleFace = 'none' | 'front' | 'back' | 'frontAndBack';
export type VertexBufferFormat = 'float1' | 'float2' | 'float3' | 'float4' | 'bytes4';

/** A draw's pipeline key (docs/pipeline.md): the native agal_pipeline_key_json text
 * and hash (16 hex digits), and the key baked with WebGPU's dynamic state, which a
 * WebGPU cache keys its pipelines on. */
export interface PipelineKey {
  readonly json: string;
  readonly hash: string;
  readonly webgpu: { readonly json: string; readonly hash: string };
}

/** pipelineDescriptor's modules: the upload's WGSL as GPUShaderModules. */
export interface PipelineModules<M, L, F extends string, D extends string> {
  vertex: M;
  fragment: M;
  /** A GPUPipelineLayout; 'auto' when absent. */
  layout?: L;
  /** The back buffer's GPUTextureFormat; 'bgra8unorm' when absent. */
  backBufferFormat?: F;
  /** The depth-stencil buffer's; 'depth24plus-stencil8' when absent. */
  depthStencilFormat?: D;
}

type GpuCompare = 'never' | 'less' | 'equal' | 'less-equal' | 'greater' | 'not-equal' | 'greater-equal' | 'always';
type GpuStencilOp = 'keep' | 'zero' | 'replace' | 'invert' | 'increment-clamp' | 'decrement-clamp' | 'increment-wrap' |
  'decrement-wrap';
type GpuBlendFactor = 'zero' | 'one' | 'src' | 'one-minus-src' | 'src-alpha' | 'one-minus-src-alpha' | 'dst' |
  'one-minus-dst' | 'dst-alpha' | 'one-minus-dst-alpha';
interface GpuStencilFace { compare: GpuCompare; passOp: GpuStencilOp; depthFailOp: GpuStencilOp; failOp: GpuStencilOp }
interface GpuBlendComponent { operation: 'add'; srcFactor: GpuBlendFactor; dstFactor: GpuBlendFactor }

/** A GPURenderPipelineDescriptor's shape: pass it to device.createRenderPipeline. */
export interface PipelineDescriptor<M, L, F extends string, D extends string> {
  layout: L | 'auto';
  vertex: {
    module: M;
    entryPoint: 'main';
    /** One buffer a stream read, in the order of their indices: bind each at its bufferOffset * 4. */
    buffers: { arrayStride: number; stepMode: 'vertex' | 'instance';
      attributes: { shaderLocation: number; offset: number;
        format: 'float32' | 'float32x2' | 'float32x3' | 'float32x4' | 'unorm8x4' }[] }[];
    constants?: Record<string, number>;
  };
  primitive: { topology: 'triangle-list'; frontFace: 'cw'; cullMode: 'none' | 'front' | 'back' };
  multisample: { count: number };
  fragment: {
    module: M;
    entryPoint: 'main';
    targets: { format: F | 'rgba8unorm' | 'rgba16float'; writeMask: number;
      blend?: { color: GpuBlendComponent; alpha: GpuBlendComponent } }[];
    constants?: Record<string, number>;
  };
  depthStencil?: { format: D; depthWriteEnabled: boolean; depthCompare: GpuCompare; stencilFront: GpuStencilFace;
    stencilBack: GpuStencilFace; stencilReadMask: number; stencilWriteMask: number };
}

export interface Agal {
  /** The library's version. */
  readonly version: string;
  /** The module's WebAssembly.Memory. */
  readonly memory: WebAssembly.Memory;
  /** One program for one target: the code (words for 'spirv', else text) and its bindings. */
  translate<T extends Target = 'essl3'>(bytes: Bytes, options?: TranslateOptions<T>): Translation<T>;
  /** Program3D.upload: both programs decoded, linked and translated. */
  upload<T extends UploadTarget = 'essl3'>(vertex: Bytes, fragment: Bytes, options?: UploadOptions<T>): Upload<T>;
  /** Adobe's AGALMiniAssembler syntax to its bytes (a SyntaxError with `diagnostics`
   * for text it cannot assemble; with `strict`, for any warning). */
  assemble(text: string, options?: { stage?: Stage; version?: 1 | 2 | 3; strict?: boolean }):
    Uint8Array & { warnings: AsmDiagnostic[] };
  disassemble(bytes: Bytes): string;
  /** Context3D's checks: each returns or throws a FlashError (web/README.md). The
   * index of an enumeration string (#2007 for null, #2008 for another string). */
  checkEnum(className: 'Context3DBlendFactor' | 'Context3DCompareMode' | 'Context3DStencilAction' |
    'Context3DTriangleFace' | 'Context3DVertexBufferFormat' | 'Context3DTextureFormat' | 'Context3DProgramType' |
    'Context3DWrapMode' | 'Context3DTextureFilter' | 'Context3DMipFilter' | 'Context3DProfile' |
    'Context3DBufferUsage', value: string | null, param: string): number;
  checkNonNull(value: unknown, param: string): void;
  checkBackBuffer(context: Context3DState, width: number, height: number): void;
  checkClear(context: Context3DState): void;
  checkDrawInstanced(context: Context3DState): void;
  checkObjectCount(context: Context3DState, kind: 'vertexBuffer' | 'indexBuffer' | 'program' | 'texture'): void;
  checkMemory(budget: number, inUse: number, held: number, transient?: number): void;
  checkBuffer(context: Context3DState, buffer: BufferDesc): void;
  checkTexture(context: Context3DState, texture: TextureDesc): void;
  checkBufferUpload(buffer: BufferDesc, upload: { fromBytes?: boolean; start: number; count: number;
    length: number; byteOffset?: number }): void;
  checkTextureUpload(texture: TextureDesc, upload: { fromBytes?: boolean; side?: number; level?: number;
    bitmapWidth?: number; bitmapHeight?: number; length?: number; byteOffset?: number }): void;
  checkDrawToBitmap(context: Context3DState, bitmapWidth: number, bitmapHeight: number,
    srcRect?: [number, number, number, number] | null, destPoint?: [number, number] | null): void;
  /** A driver's compile or link log (gl.getShaderInfoLog, getCompilationInfo's
   * messages as text) of a result this object's translate or upload returned with
   * debugInfo, each error followed by its AGAL token (docs/debug-info.md). `stage`
   * names an upload's shader; a translation's is its own. */
  mapDriverLog(result: Translation<Target> | Upload<UploadTarget>, stage: Stage | undefined, log: string): MappedLog;
  /** The pipeline key of a draw of `upload` (this object's) with `state`: the native
   * key's JSON and hash, and WebGPU's baked key (web/README.md, "Pipeline keys"). */
  pipelineKey(upload: Upload<UploadTarget>, state: PipelineState): PipelineKey;
  /** The GPURenderPipelineDescriptor of a WGSL upload's key; the stencil reference is
   * the pass's setStencilReference (the key's JSON's stencil_ref). */
  pipelineDescriptor<M, L = 'auto', F extends string = 'bgra8unorm', D extends string = 'depth24plus-stencil8'>(
    key: PipelineKey, modules: PipelineModules<M, L, F, D>): PipelineDescriptor<M, L, F, D>;
  /** Bytes the WASM heap's allocator holds. */
  heapUsed(): number;
  /** Frees the library's context: every later call throws Error('agal2spv: disposed'). */
  dispose(): void;
}

export function load(options?: object): Promise<Agal>;
