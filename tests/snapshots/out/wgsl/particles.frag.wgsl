// agal2spv: AGAL 2 fragment program, 5 tokens
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
    var oc0: vec4f;
    // 1: tex ft0, v1, fs0 <2d, linear, mipnone, clamp>
    ft0 = textureSample(fs0, fs0_sampler, v1.xy);
    // 2: mul ft0, ft0, v0
    ft0 = ft0 * v0;
    // 3: sub ft1.x, ft0.w, fc0.x
    ft1.x = ft0.w - fc[0].x;
    // 4: kil ft1.x
    if (ft1.x < 0.0) { discard; }
    // 5: mov oc0, ft0
    oc0 = ft0;
    return agal_out(oc0);
}
