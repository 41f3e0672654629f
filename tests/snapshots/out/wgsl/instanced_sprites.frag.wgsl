// agal2spv: AGAL 3 fragment program, 8 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 200>;
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
    var oc0: vec4f;
    // 1: tex ft0, v0, fs0 <2d, linear, mipnearest, clamp>
    ft0 = textureSample(fs0, fs0_sampler, v0.xy);
    // 2: mul ft0, ft0, v1
    ft0 = ft0 * v1;
    // 3: sub ft1.x, ft0.w, fc150.x
    ft1.x = ft0.w - fc[150].x;
    // 4: kil ft1.x
    if (ft1.x < 0.0) { discard; }
    // 5: sub ft2.xyz, fc199.xyz, ft0.xyz
    ft2 = vec4f(fc[199].xyz - ft0.xyz, 0.0);
    // 6: mul ft2.xyz, ft2.xyz, fc199.w
    ft2 = vec4f(ft2.xyz * fc[199].w, ft2.w);
    // 7: add ft0.xyz, ft0.xyz, ft2.xyz
    ft0 = vec4f(ft0.xyz + ft2.xyz, ft0.w);
    // 8: mov oc0, ft0
    oc0 = ft0;
    return agal_out(oc0);
}
