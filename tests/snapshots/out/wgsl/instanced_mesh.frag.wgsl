// agal2spv: AGAL 3 fragment program, 11 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 200>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f, @location(1) v1: vec4f, @location(2) v2: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var ft2: vec4f;
    var ft3: vec4f;
    var oc0: vec4f;
    // 1: nrm ft0.xyz, v0.xyz
    ft0 = vec4f(normalize(v0.xyz), 0.0);
    // 2: dp3 ft1.x, ft0.xyz, fc0.xyz
    ft1.x = dot(ft0.xyz, fc[0].xyz);
    // 3: mul ft1.x, ft1.x, fc1.x
    ft1.x = ft1.x * fc[1].x;
    // 4: add ft1.x, ft1.x, fc1.y
    ft1.x = ft1.x + fc[1].y;
    // 5: sat ft1.x, ft1.x
    ft1.x = saturate(ft1.x);
    // 6: mul ft2, fc2, ft1.x
    ft2 = fc[2] * ft1.x;
    // 7: add ft2, ft2, fc3
    ft2 = ft2 + fc[3];
    // 8: tex ft3, v1, fs0 <2d, anisotropic2x, miplinear, repeat>
    ft3 = textureSample(fs0, fs0_sampler, v1.xy);
    // 9: mul ft3, ft3, ft2
    ft3 = ft3 * ft2;
    // 10: mul ft3, ft3, v2
    ft3 = ft3 * v2;
    // 11: mov oc0, ft3
    oc0 = ft3;
    return agal_out(oc0);
}
