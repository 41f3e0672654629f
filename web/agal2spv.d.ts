// agal2spv's JavaScript API (agal2spv.js).

export type Target = 'spirv' | 'glsl' | 'essl3' | 'essl1' | 'ir' | 'wgsl';
export type Stage = 'vertex' | 'fragment';
export type Profile = 'auto' | 'baseline' | 'standard' | 'standardExtended';
export type ContextProfile =
  | 'baselineConstrained' | 'baseline' | 'baselineExtended'
  | 'standardConstrained' | 'standard' | 'standardExtended' | 'enhanced';
export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView;

/** What one translation declares for a runtime to bind (docs/binding-models.md). */
export interface Binding {
  stage: Stage;
  constants: { binding: number; count: number; size: number; name: string; indirect: boolean } | null;
  samplers: { num: number; binding: number; samplerBinding: number; name: string; dim: '2d' | 'cube' | '3d';
              /** The sampling token's state, in Context3D's names: what setProgram gives the slot. */
              wrap: string; filter: string; mipmap: string; ignoreSampler: boolean;
              tex: boolean; ted: boolean }[];
  attributes: { location: number; mask: number }[];
  /** v<location>; under limits, packed into agal_pack<slot> (location slot) from its
   * component `component`, the components `carried` (bit 0 x) in a varying of `width`. */
  varyings: { location: number; centroid: boolean; packed?: true; slot?: number; component?: number;
              carried?: number; width?: number }[];
  outputs: number;
  yflip: boolean;
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
 * a runtime with its own naming takes the text as it is. */
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

export interface TranslateOptions {
  /** Default 'essl3'. */
  target?: Target;
  /** The Program3D.upload argument the bytes stand for: Flash's messages name it. */
  stage?: Stage;
  /** Accept what is safe to translate (docs/decisions.md, "Lenient decoding"). */
  lenient?: boolean;
  /** The register limits to validate against; by default the program's version's. */
  profile?: Profile;
  names?: Names;
  /** The device's limits the translation must fit; none by default. */
  limits?: Limits;
}

export interface UploadOptions {
  target?: Exclude<Target, 'ir'>;
  lenient?: boolean;
  profile?: Profile;
  /** The Context3D's profile: a program of a later AGAL version is Flash's #3725. */
  contextProfile?: ContextProfile;
  names?: Names;
  /** The device's limits the pair must fit; none by default. */
  limits?: Limits;
}

/** What Flash Player throws: errorID its id, name its class, message its line. */
export interface FlashError extends Error {
  errorID: number;
  name: 'Error' | 'ArgumentError' | 'RangeError' | 'TypeError';
  /** translate and upload: the library's diagnostic, which Flash's line does not
   * carry (for #3613, the limit: "fragment program: 9 texture units needed, the
   * limits allow 8 (webgl1)"). */
  diagnostic?: string;
}

/** What the Context3D checks read (web/README.md, "Context3D's checks"). */
export interface Context3DState {
  /** Context3DProfile; default 'baseline'. */
  profile?: 'baselineConstrained' | 'baseline' | 'baselineExtended' | 'standardConstrained' | 'standard' |
    'standardExtended' | 'enhanced';
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

export interface Agal {
  /** The library's version. */
  readonly version: string;
  /** The module's WebAssembly.Memory. */
  readonly memory: WebAssembly.Memory;
  /** bindings.bindGroupLayout: with target 'wgsl' only. */
  translate(bytes: Bytes, options?: TranslateOptions):
    { code: string | Uint32Array; bindings: Binding & { bindGroupLayout?: BindGroupLayout } };
  /** Program3D.upload: both programs decoded, linked and translated. */
  upload(vertex: Bytes, fragment: Bytes, options?: UploadOptions):
    { vertex: string | Uint32Array; fragment: string | Uint32Array;
      bindings: { vertex: Binding; fragment: Binding; bindGroupLayout?: BindGroupLayout } };
  /** Adobe's AGALMiniAssembler syntax to its bytes. */
  assemble(text: string, options?: { stage?: Stage; version?: number }): Uint8Array;
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
  /** Bytes the WASM heap's allocator holds. */
  heapUsed(): number;
  dispose(): void;
}

export function load(options?: object): Promise<Agal>;
