// agal2spv: AGAL 2 fragment program, 19 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;
@group(0) @binding(3) var fs1: texture_2d<f32>;
@group(0) @binding(19) var fs1_sampler: sampler;
@group(0) @binding(4) var fs2: texture_2d<f32>;
@group(0) @binding(20) var fs2_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f, @location(1) v1: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var ft2: vec4f;
    var ft3: vec4f;
    var ft4: vec4f;
    var ft5: vec4f;
    var oc0: vec4f;
    // 1: dp3 ft0.x, v1.xyz, v1.xyz
    ft0.x = dot(v1.xyz, v1.xyz);
    // 2: sqt ft0.x, ft0.x
    ft0.x = sqrt(ft0.x);
    // 3: mul ft0.x, ft0.x, fc0.x
    ft0.x = ft0.x * fc[0].x;
    // 4: abs ft0.x, ft0.x
    ft0.x = abs(ft0.x);
    // 5: abs ft0.y, fc0.y
    ft0.y = abs(fc[0].y);
    // 6: add ft0.x, ft0.x, ft0.y
    ft0.x = ft0.x + ft0.y;
    // 7: log ft0.x, ft0.x
    ft0.x = log2(ft0.x);
    // 8: max ft0.x, ft0.x, fc0.z
    ft0.x = max(ft0.x, fc[0].z);
    // 9: min ft0.x, ft0.x, fc0.w
    ft0.x = min(ft0.x, fc[0].w);
    // 10: mov ft1, v0
    ft1 = v0;
    // 11: mov ft1.w, ft0.x
    ft1.w = ft0.x;
    // 12: ted ft2, ft1, fs0 <2d, linear, miplinear, repeat>
    ft2 = textureSampleLevel(fs0, fs0_sampler, ft1.xy, ft1.w);
    // 13: tex ft3, v0, fs1 <2d, linear, mipnearest, repeat, ignoresampler>
    ft3 = textureSample(fs1, fs1_sampler, v0.xy);
    // 14: tex ft4, v0, fs2 <2d, nearest, mipnone, clamp, single>
    ft4 = textureSample(fs2, fs2_sampler, v0.xy);
    // 15: mul ft4.x, ft4.x, fc1.x
    ft4.x = ft4.x * fc[1].x;
    // 16: sub ft5, ft3, ft2
    ft5 = ft3 - ft2;
    // 17: mul ft5, ft5, ft4.x
    ft5 = ft5 * ft4.x;
    // 18: add ft2, ft2, ft5
    ft2 = ft2 + ft5;
    // 19: mov oc0, ft2
    oc0 = ft2;
    return agal_out(oc0);
}
