// agal2spv: AGAL 1 fragment program, 5 tokens
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f, @location(1) v1: vec4f, @location(2) v2: vec4f) -> agal_out {
    var ft0: vec4f;
    var oc0: vec4f;
    // 1: tex ft0, v2, fs0 <2d, linear, miplinear, repeat>
    ft0 = textureSample(fs0, fs0_sampler, v2.xy);
    // 2: mul ft0, ft0, v0
    ft0 = ft0 * v0;
    // 3: add ft0.xyz, ft0.xyz, v1.xyz
    ft0 = vec4f(ft0.xyz + v1.xyz, ft0.w);
    // 4: sat ft0, ft0
    ft0 = saturate(ft0);
    // 5: mov oc0, ft0
    oc0 = ft0;
    return agal_out(oc0);
}
