// agal2spv: AGAL 1 fragment program, 9 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 28>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f, @location(1) v1: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var oc0: vec4f;
    // 1: mul ft0, v0, fc0
    ft0 = v0 * fc[0];
    // 2: frc ft0, ft0
    ft0 = fract(ft0);
    // 3: mul ft0, ft0, fc1.zwzw
    ft0 = ft0 * fc[1].zwzw;
    // 4: add ft0, ft0, fc1.xyxy
    ft0 = ft0 + fc[1].xyxy;
    // 5: max ft0.xy, ft0.xy, fc2.xy
    ft0 = vec4f(max(ft0.xy, fc[2].xy), ft0.zw);
    // 6: min ft0.xy, ft0.xy, fc2.zw
    ft0 = vec4f(min(ft0.xy, fc[2].zw), ft0.zw);
    // 7: tex ft1, ft0.xy, fs0 <2d, nearest, mipnone, clamp>
    ft1 = textureSample(fs0, fs0_sampler, ft0.xy);
    // 8: mul ft1, ft1, v1
    ft1 = ft1 * v1;
    // 9: mov oc0, ft1
    oc0 = ft1;
    return agal_out(oc0);
}
