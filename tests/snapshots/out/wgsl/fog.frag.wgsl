// agal2spv: AGAL 1 fragment program, 8 tokens
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
    var ft2: vec4f;
    var oc0: vec4f;
    // 1: tex ft0, v1, fs0 <2d, linear, miplinear, repeat>
    ft0 = textureSample(fs0, fs0_sampler, v1.xy);
    // 2: dp3 ft1.x, v0.yzw, fc1.xyz
    ft1.x = dot(v0.yzw, fc[1].xyz);
    // 3: sat ft1.x, ft1.x
    ft1.x = saturate(ft1.x);
    // 4: sub ft2, ft0, fc0
    ft2 = ft0 - fc[0];
    // 5: mul ft2, ft2, ft1.x
    ft2 = ft2 * ft1.x;
    // 6: add ft2.xyz, ft2.xyz, fc0.xyz
    ft2 = vec4f(ft2.xyz + fc[0].xyz, ft2.w);
    // 7: mov ft2.w, ft0.w
    ft2.w = ft0.w;
    // 8: mov oc0, ft2
    oc0 = ft2;
    return agal_out(oc0);
}
