// agal2spv: AGAL 1 fragment program, 9 tokens
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
    var ft3: vec4f;
    var oc0: vec4f;
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp, centroid, -0.5>
    ft0 = textureSampleBias(fs0, fs0_sampler, v0.xy, -0.5);
    // 2: sub ft3.x, ft0.w, fc0.w
    ft3.x = ft0.w - fc[0].w;
    // 3: kil ft3.x
    if (ft3.x < 0.0) { discard; }
    // 4: sub ft1.x, ft0.w, fc0.x
    ft1.x = ft0.w - fc[0].x;
    // 5: mul ft1.x, ft1.x, fc0.y
    ft1.x = ft1.x * fc[0].y;
    // 6: add ft1.x, ft1.x, fc0.z
    ft1.x = ft1.x + fc[0].z;
    // 7: sat ft1.x, ft1.x
    ft1.x = saturate(ft1.x);
    // 8: mul ft2, v1, ft1.x
    ft2 = v1 * ft1.x;
    // 9: mov oc0, ft2
    oc0 = ft2;
    return agal_out(oc0);
}
