// agal2spv: AGAL 2 fragment program, 26 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
}

// pow(x, y), 0 at x = 0: WGSL bounds no error of log2(0)
fn agal_pow1(x: f32, y: f32) -> f32 { return pow(x, y) * sign(x); }
fn agal_pow2(x: vec2f, y: vec2f) -> vec2f { return pow(x, y) * sign(x); }
fn agal_pow3(x: vec3f, y: vec3f) -> vec3f { return pow(x, y) * sign(x); }
fn agal_pow4(x: vec4f, y: vec4f) -> vec4f { return pow(x, y) * sign(x); }

@fragment
fn main(@location(0) v0: vec4f, @location(1) v1: vec4f, @location(2) v2: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var ft2: vec4f;
    var ft3: vec4f;
    var ft4: vec4f;
    var ft5: vec4f;
    var ft6: vec4f;
    var ft7: vec4f;
    var oc0: vec4f;
    // 1: nrm ft0.xyz, v0.xyz
    ft0 = vec4f(normalize(v0.xyz), 0.0);
    // 2: sub ft1.xyz, fc0.xyz, v1.xyz
    ft1 = vec4f(fc[0].xyz - v1.xyz, 0.0);
    // 3: dp3 ft1.w, ft1.xyz, ft1.xyz
    ft1.w = dot(ft1.xyz, ft1.xyz);
    // 4: rsq ft2.x, ft1.w
    ft2.x = inverseSqrt(ft1.w);
    // 5: mul ft1.xyz, ft1.xyz, ft2.x
    ft1 = vec4f(ft1.xyz * ft2.x, ft1.w);
    // 6: sub ft3.xyz, fc1.xyz, v1.xyz
    ft3 = vec4f(fc[1].xyz - v1.xyz, 0.0);
    // 7: nrm ft3.xyz, ft3.xyz
    ft3 = vec4f(normalize(ft3.xyz), ft3.w);
    // 8: add ft4.xyz, ft1.xyz, ft3.xyz
    ft4 = vec4f(ft1.xyz + ft3.xyz, 0.0);
    // 9: nrm ft4.xyz, ft4.xyz
    ft4 = vec4f(normalize(ft4.xyz), ft4.w);
    // 10: dp3 ft5.x, ft0.xyz, ft1.xyz
    ft5.x = dot(ft0.xyz, ft1.xyz);
    // 11: sat ft5.x, ft5.x
    ft5.x = saturate(ft5.x);
    // 12: dp3 ft5.y, ft0.xyz, ft4.xyz
    ft5.y = dot(ft0.xyz, ft4.xyz);
    // 13: sat ft5.y, ft5.y
    ft5.y = saturate(ft5.y);
    // 14: abs ft5.z, fc2.x
    ft5.z = abs(fc[2].x);
    // 15: pow ft5.y, ft5.y, ft5.z
    ft5.y = agal_pow1(ft5.y, ft5.z);
    // 16: mul ft5.w, ft2.x, ft2.x
    ft5.w = ft2.x * ft2.x;
    // 17: mul ft5.w, ft5.w, fc2.y
    ft5.w = ft5.w * fc[2].y;
    // 18: sat ft5.w, ft5.w
    ft5.w = saturate(ft5.w);
    // 19: tex ft6, v2, fs0 <2d, anisotropic8x, miplinear, repeat>
    ft6 = textureSample(fs0, fs0_sampler, v2.xy);
    // 20: mul ft7, fc3, ft5.x
    ft7 = fc[3] * ft5.x;
    // 21: add ft7, ft7, fc4
    ft7 = ft7 + fc[4];
    // 22: mul ft6, ft6, ft7
    ft6 = ft6 * ft7;
    // 23: mul ft7, fc3, ft5.y
    ft7 = fc[3] * ft5.y;
    // 24: add ft6.xyz, ft6.xyz, ft7.xyz
    ft6 = vec4f(ft6.xyz + ft7.xyz, ft6.w);
    // 25: mul ft6.xyz, ft6.xyz, ft5.w
    ft6 = vec4f(ft6.xyz * ft5.w, ft6.w);
    // 26: mov oc0, ft6
    oc0 = ft6;
    return agal_out(oc0);
}
