// agal2spv: AGAL 2 fragment program, 11 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
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
    var ft3: vec4f;
    var ft4: vec4f;
    var oc0: vec4f;
    // 1: nrm ft0.xyz, v0.xyz
    ft0 = vec4f(normalize(v0.xyz), 0.0);
    // 2: dp3 ft1.x, ft0.xyz, fc0.xyz
    ft1.x = dot(ft0.xyz, fc[0].xyz);
    // 3: dp3 ft1.y, ft0.xyz, fc1.xyz
    ft1.y = dot(ft0.xyz, fc[1].xyz);
    // 4: sat ft1.xy, ft1.xy
    ft1 = vec4f(saturate(ft1.xy), ft1.zw);
    // 5: mul ft2, fc2, ft1.x
    ft2 = fc[2] * ft1.x;
    // 6: mul ft3, fc3, ft1.y
    ft3 = fc[3] * ft1.y;
    // 7: add ft2, ft2, ft3
    ft2 = ft2 + ft3;
    // 8: add ft2, ft2, fc4
    ft2 = ft2 + fc[4];
    // 9: tex ft4, v1, fs0 <2d, linear, miplinear, repeat>
    ft4 = textureSample(fs0, fs0_sampler, v1.xy);
    // 10: mul ft4, ft4, ft2
    ft4 = ft4 * ft2;
    // 11: mov oc0, ft4
    oc0 = ft4;
    return agal_out(oc0);
}
