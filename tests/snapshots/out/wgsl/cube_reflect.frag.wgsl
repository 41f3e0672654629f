// agal2spv: AGAL 2 fragment program, 21 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
@group(0) @binding(2) var fs0: texture_cube<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;
@group(0) @binding(3) var fs1: texture_2d<f32>;
@group(0) @binding(19) var fs1_sampler: sampler;

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
    // 1: nrm ft0.xyz, v1.xyz
    ft0 = vec4f(normalize(v1.xyz), 0.0);
    // 2: nrm ft1.xyz, v0.xyz
    ft1 = vec4f(normalize(v0.xyz), 0.0);
    // 3: dp3 ft2.x, ft0.xyz, ft1.xyz
    ft2.x = dot(ft0.xyz, ft1.xyz);
    // 4: add ft2.y, ft2.x, ft2.x
    ft2.y = ft2.x + ft2.x;
    // 5: mul ft3.xyz, ft0.xyz, ft2.y
    ft3 = vec4f(ft0.xyz * ft2.y, 0.0);
    // 6: sub ft3.xyz, ft1.xyz, ft3.xyz
    ft3 = vec4f(ft1.xyz - ft3.xyz, ft3.w);
    // 7: tex ft4, ft3.xyz, fs0 <cube, linear, miplinear, clamp>
    ft4 = textureSample(fs0, fs0_sampler, ft3.xyz);
    // 8: neg ft2.z, ft2.x
    ft2.z = -ft2.x;
    // 9: sat ft2.z, ft2.z
    ft2.z = saturate(ft2.z);
    // 10: sub ft2.w, fc0.x, ft2.z
    ft2.w = fc[0].x - ft2.z;
    // 11: sat ft2.w, ft2.w
    ft2.w = saturate(ft2.w);
    // 12: abs ft5.x, fc0.y
    ft5.x = abs(fc[0].y);
    // 13: pow ft2.w, ft2.w, ft5.x
    ft2.w = agal_pow1(ft2.w, ft5.x);
    // 14: mul ft5.z, ft2.w, fc0.w
    ft5.z = ft2.w * fc[0].w;
    // 15: add ft5.z, ft5.z, fc0.z
    ft5.z = ft5.z + fc[0].z;
    // 16: sat ft5.z, ft5.z
    ft5.z = saturate(ft5.z);
    // 17: tex ft6, v2, fs1 <2d, linear, miplinear, repeat>
    ft6 = textureSample(fs1, fs1_sampler, v2.xy);
    // 18: sub ft7, ft4, ft6
    ft7 = ft4 - ft6;
    // 19: mul ft7, ft7, ft5.z
    ft7 = ft7 * ft5.z;
    // 20: add ft6, ft6, ft7
    ft6 = ft6 + ft7;
    // 21: mov oc0, ft6
    oc0 = ft6;
    return agal_out(oc0);
}
