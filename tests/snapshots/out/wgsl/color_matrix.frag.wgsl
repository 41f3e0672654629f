// agal2spv: AGAL 1 fragment program, 11 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 28>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var ft2: vec4f;
    var oc0: vec4f;
    // 1: tex ft0, v0, fs0 <2d, nearest, mipnone, clamp>
    ft0 = textureSample(fs0, fs0_sampler, v0.xy);
    // 2: abs ft1.x, ft0.w
    ft1.x = abs(ft0.w);
    // 3: abs ft1.y, fc5.x
    ft1.y = abs(fc[5].x);
    // 4: max ft1.x, ft1.x, ft1.y
    ft1.x = max(ft1.x, ft1.y);
    // 5: rcp ft1.x, ft1.x
    ft1.x = 1.0 / ft1.x;
    // 6: mul ft0.xyz, ft0.xyz, ft1.x
    ft0 = vec4f(ft0.xyz * ft1.x, ft0.w);
    // 7: m44 ft2, ft0, fc0
    ft2 = vec4f(dot(ft0, fc[0]), dot(ft0, fc[1]), dot(ft0, fc[2]), dot(ft0, fc[3]));
    // 8: add ft2, ft2, fc4
    ft2 = ft2 + fc[4];
    // 9: sat ft2, ft2
    ft2 = saturate(ft2);
    // 10: mul ft2.xyz, ft2.xyz, ft2.w
    ft2 = vec4f(ft2.xyz * ft2.w, ft2.w);
    // 11: mov oc0, ft2
    oc0 = ft2;
    return agal_out(oc0);
}
