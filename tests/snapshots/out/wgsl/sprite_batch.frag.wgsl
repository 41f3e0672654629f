// agal2spv: AGAL 1 fragment program, 5 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 28>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f, @location(1) v1: vec4f) -> agal_out {
    var ft0: vec4f;
    var oc0: vec4f;
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>
    ft0 = textureSample(fs0, fs0_sampler, v0.xy);
    // 2: mul ft0, ft0, v1
    ft0 = ft0 * v1;
    // 3: mul ft0.xyz, ft0.xyz, v1.w
    ft0 = vec4f(ft0.xyz * v1.w, ft0.w);
    // 4: mul ft0, ft0, fc0.x
    ft0 = ft0 * fc[0].x;
    // 5: mov oc0, ft0
    oc0 = ft0;
    return agal_out(oc0);
}
