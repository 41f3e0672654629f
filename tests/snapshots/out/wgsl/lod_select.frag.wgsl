// agal2spv: AGAL 2 fragment program, 7 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
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
    var oc0: vec4f;
    // 1: nrm ft0.xyz, v0.xyz
    ft0 = vec4f(normalize(v0.xyz), 0.0);
    // 2: dp3 ft1.x, ft0.xyz, fc0.xyz
    ft1.x = dot(ft0.xyz, fc[0].xyz);
    // 3: sat ft1.x, ft1.x
    ft1.x = saturate(ft1.x);
    // 4: tex ft2, v1, fs0 <2d, linear, miplinear, repeat>
    ft2 = textureSample(fs0, fs0_sampler, v1.xy);
    // 5: mul ft2.xyz, ft2.xyz, ft1.x
    ft2 = vec4f(ft2.xyz * ft1.x, ft2.w);
    // 6: mul ft2, ft2, v2
    ft2 = ft2 * v2;
    // 7: mov oc0, ft2
    oc0 = ft2;
    return agal_out(oc0);
}
