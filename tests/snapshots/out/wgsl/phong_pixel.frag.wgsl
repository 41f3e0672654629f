// agal2spv: AGAL 1 fragment program, 26 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 28>;
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
fn main(@location(0) v0: vec4f, @location(1) v1: vec4f, @location(2) v2: vec4f, @location(3) v3: vec4f) -> agal_out {
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
    // 2: nrm ft1.xyz, v1.xyz
    ft1 = vec4f(normalize(v1.xyz), 0.0);
    // 3: nrm ft2.xyz, v2.xyz
    ft2 = vec4f(normalize(v2.xyz), 0.0);
    // 4: dp3 ft3.x, ft0.xyz, ft1.xyz
    ft3.x = dot(ft0.xyz, ft1.xyz);
    // 5: add ft3.y, ft3.x, ft3.x
    ft3.y = ft3.x + ft3.x;
    // 6: mul ft4.xyz, ft0.xyz, ft3.y
    ft4 = vec4f(ft0.xyz * ft3.y, 0.0);
    // 7: sub ft4.xyz, ft4.xyz, ft1.xyz
    ft4 = vec4f(ft4.xyz - ft1.xyz, ft4.w);
    // 8: dp3 ft3.z, ft4.xyz, ft2.xyz
    ft3.z = dot(ft4.xyz, ft2.xyz);
    // 9: sat ft3.xz, ft3.xz
    ft3 = select(ft3, saturate(ft3.xzzz), vec4<bool>(true, false, true, false));
    // 10: abs ft3.w, fc2.x
    ft3.w = abs(fc[2].x);
    // 11: pow ft3.z, ft3.z, ft3.w
    ft3.z = agal_pow1(ft3.z, ft3.w);
    // 12: dp3 ft5.x, v1.xyz, v1.xyz
    ft5.x = dot(v1.xyz, v1.xyz);
    // 13: abs ft5.y, fc2.y
    ft5.y = abs(fc[2].y);
    // 14: mul ft5.x, ft5.x, ft5.y
    ft5.x = ft5.x * ft5.y;
    // 15: abs ft5.z, fc2.z
    ft5.z = abs(fc[2].z);
    // 16: add ft5.z, ft5.z, ft5.y
    ft5.z = ft5.z + ft5.y;
    // 17: add ft5.x, ft5.x, ft5.z
    ft5.x = ft5.x + ft5.z;
    // 18: rcp ft5.x, ft5.x
    ft5.x = 1.0 / ft5.x;
    // 19: tex ft6, v3, fs0 <2d, linear, miplinear, repeat>
    ft6 = textureSample(fs0, fs0_sampler, v3.xy);
    // 20: mul ft7, fc0, ft3.x
    ft7 = fc[0] * ft3.x;
    // 21: add ft7, ft7, fc1
    ft7 = ft7 + fc[1];
    // 22: mul ft6, ft6, ft7
    ft6 = ft6 * ft7;
    // 23: mul ft7, fc0, ft3.z
    ft7 = fc[0] * ft3.z;
    // 24: add ft6, ft6, ft7
    ft6 = ft6 + ft7;
    // 25: mul ft6.xyz, ft6.xyz, ft5.x
    ft6 = vec4f(ft6.xyz * ft5.x, ft6.w);
    // 26: mov oc0, ft6
    oc0 = ft6;
    return agal_out(oc0);
}
