// agal2spv/openfl: OpenFL's Stage3D (npm openfl, its HTML5 target) translating every
// Program3D.upload with agal2spv instead of its own AGAL converter, which takes AGAL 1
// only ("Version must be 1"). The package writes GLSL ES 1.00 (OpenFL draws with
// WebGL 1) under OpenFL's own names, so OpenFL binds it as it binds its converter's
// output, with the tokens' sampler states for setProgram; a program Flash Player
// would refuse throws Flash's error (a FlashError: errorID, name, message) from
// Program3D.upload, as in Flash, #3725 included: the pair is held to the Context3D's
// `profile` (OpenFL 8.9.6 sets it to 'standard' whatever requestContext3D asked for;
// an emulator of a baseline context sets `context3D.profile = 'baseline'`).
//
//   <script src="pako.min.js"></script>     <!-- OpenFL's dist needs both first -->
//   <script src="howler.min.js"></script>
//   <script src="openfl.min.js"></script>
//   <script type="module">
//     import { load } from './node_modules/agal2spv/agal2spv.js';
//     import { routeOpenFL } from './node_modules/agal2spv/openfl.js';
//     routeOpenFL(openfl, await load());   // before the first Program3D.upload
//   </script>
//
// tests/web/openfl_dropin.html drives OpenFL 8.9.6 through this file.

// The names OpenFL's converter gives: vc0[N], fc0[N], sampler<n>, and the y of the
// vec4 vcPositionScale that it sets to flip rendering to a texture.
const OPENFL_NAMES = { vertexConstants: 'vc0', fragmentConstants: 'fc0', sampler: 'sampler', yflip: 'vcPositionScale',
                       yflipComponent: 'y' };

// An openfl.utils.ByteArray's bytes.
function bytesOf(byteArray) {
  const bytes = new Uint8Array(byteArray.length);
  byteArray.position = 0;
  for (let i = 0; i < bytes.length; i++) bytes[i] = byteArray.readUnsignedByte();
  return bytes;
}

// The sampler states Flash's setProgram gives the slots: each sampling token's (the
// bindings carry them; OpenFL's converter records them the same way). OpenFL keeps
// its SamplerState class to itself, so one is made by setSamplerStateAt on a slot
// and taken, and the slot's own state put back. A slot the program does not sample
// gets a state marked ignoreSampler, which setProgram leaves alone (OpenFL's
// setProgram reads every entry up to the last).
function samplerStates(context, samplers) {
  const slots = context.__state.samplerStates, states = [];
  const make = (n, wrap, filter, mipmap, ignore) => {
    const own = slots[n];
    slots[n] = null;
    context.setSamplerStateAt(n, wrap, filter, mipmap);
    const state = slots[n];
    slots[n] = own;
    state.ignoreSampler = ignore;
    state.lodBias = 0; // the shader applies each token's bias
    return state;
  };
  for (const s of samplers) states[s.num] = make(s.num, s.wrap, s.filter, s.mipmap, s.ignoreSampler);
  for (let n = 0; n < states.length; n++) if (!states[n]) states[n] = make(n, 'clamp', 'nearest', 'mipnone', true);
  return states;
}

// Replaces Program3D.prototype.upload; returns a function that puts OpenFL's back.
export function routeOpenFL(openfl, agal) {
  const prototype = openfl.display3D.Program3D.prototype, own = prototype.upload;
  prototype.upload = function (vertexProgram, fragmentProgram) {
    const r = agal.upload(bytesOf(vertexProgram), bytesOf(fragmentProgram),
                          { target: 'essl1', names: OPENFL_NAMES, contextProfile: this.__context.profile });
    // WebGL 1 has AGAL 2's derivatives, ted, fd and MRT only through extensions,
    // which must be enabled before the shaders compile.
    const gl = this.__context.gl;
    for (const name of [...r.bindings.vertex.extensions, ...r.bindings.fragment.extensions]) gl.getExtension(name);
    this.__deleteShaders();
    this.__uploadFromGLSL(r.vertex, r.fragment);
    this.__buildAGALUniformList();
    this.__samplerStates = samplerStates(this.__context, r.bindings.fragment.samplers);
  };
  return () => { prototype.upload = own; };
}
