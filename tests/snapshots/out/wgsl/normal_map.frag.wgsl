// agal2spv: AGAL 2 fragment program, 21 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
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
    var oc0: vec4f;
    // 1: tex ft0, v2, fs0 <2d, anisotropic4x, miplinear, repeat, dxt5>
    ft0 = textureSample(fs0, fs0_sampler, v2.xy);
    // 2: mul ft0.xyz, ft0.xyz, fc0.x
    ft0 = vec4f(ft0.xyz * fc[0].x, ft0.w);
    // 3: sub ft0.xyz, ft0.xyz, fc0.y
    ft0 = vec4f(ft0.xyz - fc[0].y, ft0.w);
    // 4: nrm ft0.xyz, ft0.xyz
    ft0 = vec4f(normalize(ft0.xyz), ft0.w);
    // 5: nrm ft1.xyz, v0.xyz
    ft1 = vec4f(normalize(v0.xyz), 0.0);
    // 6: nrm ft2.xyz, v1.xyz
    ft2 = vec4f(normalize(v1.xyz), 0.0);
    // 7: add ft3.xyz, ft1.xyz, ft2.xyz
    ft3 = vec4f(ft1.xyz + ft2.xyz, 0.0);
    // 8: nrm ft3.xyz, ft3.xyz
    ft3 = vec4f(normalize(ft3.xyz), ft3.w);
    // 9: dp3 ft4.x, ft0.xyz, ft1.xyz
    ft4.x = dot(ft0.xyz, ft1.xyz);
    // 10: sat ft4.x, ft4.x
    ft4.x = saturate(ft4.x);
    // 11: dp3 ft4.y, ft0.xyz, ft3.xyz
    ft4.y = dot(ft0.xyz, ft3.xyz);
    // 12: sat ft4.y, ft4.y
    ft4.y = saturate(ft4.y);
    // 13: abs ft4.z, fc0.z
    ft4.z = abs(fc[0].z);
    // 14: pow ft4.y, ft4.y, ft4.z
    ft4.y = agal_pow1(ft4.y, ft4.z);
    // 15: tex ft5, v2, fs1 <2d, anisotropic4x, miplinear, repeat, dxt1>
    ft5 = textureSample(fs1, fs1_sampler, v2.xy);
    // 16: mul ft6, fc1, ft4.x
    ft6 = fc[1] * ft4.x;
    // 17: add ft6, ft6, fc2
    ft6 = ft6 + fc[2];
    // 18: mul ft5, ft5, ft6
    ft5 = ft5 * ft6;
    // 19: mul ft6.xyz, fc1.xyz, ft4.y
    ft6 = vec4f(fc[1].xyz * ft4.y, ft6.w);
    // 20: add ft5.xyz, ft5.xyz, ft6.xyz
    ft5 = vec4f(ft5.xyz + ft6.xyz, ft5.w);
    // 21: mov oc0, ft5
    oc0 = ft5;
    return agal_out(oc0);
}
