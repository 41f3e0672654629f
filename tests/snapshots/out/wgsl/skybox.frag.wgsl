// agal2spv: AGAL 1 fragment program, 1 tokens
@group(0) @binding(2) var fs0: texture_cube<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f) -> agal_out {
    var oc0: vec4f;
    // 1: tex oc0, v0, fs0 <cube, linear, miplinear, clamp>
    oc0 = textureSample(fs0, fs0_sampler, v0.xyz);
    return agal_out(oc0);
}
