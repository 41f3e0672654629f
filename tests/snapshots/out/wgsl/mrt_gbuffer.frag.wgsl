// agal2spv: AGAL 2 fragment program, 11 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
    @location(1) oc1: vec4f,
    @location(2) oc2: vec4f,
    @location(3) oc3: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f, @location(1) v1: vec4f, @location(2) v2: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var ft2: vec4f;
    var oc0: vec4f;
    var oc1: vec4f;
    var oc2: vec4f;
    var oc3: vec4f;
    // 1: tex ft0, v2, fs0 <2d, linear, miplinear, repeat>
    ft0 = textureSample(fs0, fs0_sampler, v2.xy);
    // 2: mov oc0, ft0
    oc0 = ft0;
    // 3: nrm ft1.xyz, v1.xyz
    ft1 = vec4f(normalize(v1.xyz), 0.0);
    // 4: mul ft1.xyz, ft1.xyz, fc0.xyz
    ft1 = vec4f(ft1.xyz * fc[0].xyz, ft1.w);
    // 5: add ft1.xyz, ft1.xyz, fc0.xyz
    ft1 = vec4f(ft1.xyz + fc[0].xyz, ft1.w);
    // 6: mov ft1.w, fc0.w
    ft1.w = fc[0].w;
    // 7: mov oc1, ft1
    oc1 = ft1;
    // 8: mov oc2, v0
    oc2 = v0;
    // 9: mov ft2, fc1
    ft2 = fc[1];
    // 10: mul ft2.z, ft2.z, ft0.w
    ft2.z = ft2.z * ft0.w;
    // 11: mov oc3, ft2
    oc3 = ft2;
    return agal_out(oc0, oc1, oc2, oc3);
}
