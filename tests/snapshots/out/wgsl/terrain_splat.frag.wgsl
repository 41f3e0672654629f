// agal2spv: AGAL 2 fragment program, 19 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;
@group(0) @binding(3) var fs1: texture_2d<f32>;
@group(0) @binding(19) var fs1_sampler: sampler;
@group(0) @binding(4) var fs2: texture_2d<f32>;
@group(0) @binding(20) var fs2_sampler: sampler;
@group(0) @binding(5) var fs3: texture_2d<f32>;
@group(0) @binding(21) var fs3_sampler: sampler;
@group(0) @binding(6) var fs4: texture_2d<f32>;
@group(0) @binding(22) var fs4_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f, @location(1) v1: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var ft2: vec4f;
    var ft3: vec4f;
    var oc0: vec4f;
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>
    ft0 = textureSample(fs0, fs0_sampler, v0.xy);
    // 2: tex ft1, v1, fs1 <2d, anisotropic2x, mipnearest, repeat, dxt1>
    ft1 = textureSample(fs1, fs1_sampler, v1.xy);
    // 3: mul ft1, ft1, ft0.x
    ft1 = ft1 * ft0.x;
    // 4: tex ft2, v1, fs2 <2d, anisotropic16x, miplinear, clamp_u_repeat_v, dxt1>
    ft2 = textureSample(fs2, fs2_sampler, v1.xy);
    // 5: mul ft2, ft2, ft0.y
    ft2 = ft2 * ft0.y;
    // 6: add ft1, ft1, ft2
    ft1 = ft1 + ft2;
    // 7: tex ft2, v1, fs3 <2d, linear, miplinear, repeat_u_clamp_v, dxt5>
    ft2 = textureSample(fs3, fs3_sampler, v1.xy);
    // 8: mul ft2, ft2, ft0.z
    ft2 = ft2 * ft0.z;
    // 9: add ft1, ft1, ft2
    ft1 = ft1 + ft2;
    // 10: tex ft2, v1.zw, fs4 <2d, nearest, mipnearest, repeat>
    ft2 = textureSample(fs4, fs4_sampler, v1.zw);
    // 11: mul ft2, ft2, ft0.w
    ft2 = ft2 * ft0.w;
    // 12: add ft1, ft1, ft2
    ft1 = ft1 + ft2;
    // 13: dp4 ft3.x, ft0, fc0
    ft3.x = dot(ft0, fc[0]);
    // 14: abs ft3.x, ft3.x
    ft3.x = abs(ft3.x);
    // 15: abs ft3.y, fc1.x
    ft3.y = abs(fc[1].x);
    // 16: add ft3.x, ft3.x, ft3.y
    ft3.x = ft3.x + ft3.y;
    // 17: rcp ft3.x, ft3.x
    ft3.x = 1.0 / ft3.x;
    // 18: mul ft1, ft1, ft3.x
    ft1 = ft1 * ft3.x;
    // 19: mov oc0, ft1
    oc0 = ft1;
    return agal_out(oc0);
}
