// agal2spv: AGAL 2 fragment program, 14 tokens
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
    var oc0: vec4f;
    // 1: mul ft0.xy, v1.wz, fc0.x
    ft0 = vec4f(v1.wz * fc[0].x, vec2f(0.0));
    // 2: add ft0.xy, ft0.xy, v0.xy
    ft0 = vec4f(ft0.xy + v0.xy, ft0.zw);
    // 3: sub ft1.xy, v0.xy, fc1.xy
    ft1 = vec4f(v0.xy - fc[1].xy, vec2f(0.0));
    // 4: mul ft1.xy, ft1.xy, ft1.xy
    ft1 = vec4f(ft1.xy * ft1.xy, ft1.zw);
    // 5: add ft1.x, ft1.x, ft1.y
    ft1.x = ft1.x + ft1.y;
    // 6: sqt ft1.x, ft1.x
    ft1.x = sqrt(ft1.x);
    // 7: mul ft1.y, ft1.x, fc1.z
    ft1.y = ft1.x * fc[1].z;
    // 8: sub ft1.y, ft1.y, fc1.w
    ft1.y = ft1.y - fc[1].w;
    // 9: sin ft1.z, ft1.y
    ft1.z = sin(ft1.y);
    // 10: mul ft1.z, ft1.z, fc0.y
    ft1.z = ft1.z * fc[0].y;
    // 11: add ft0.xy, ft0.xy, ft1.z
    ft0 = vec4f(ft0.xy + ft1.z, ft0.zw);
    // 12: tex ft2, ft0.xy, fs0 <2d, linear, miplinear, repeat, 0.25>
    ft2 = textureSampleBias(fs0, fs0_sampler, ft0.xy, 0.25);
    // 13: mul ft2, ft2, fc2
    ft2 = ft2 * fc[2];
    // 14: mov oc0, ft2
    oc0 = ft2;
    return agal_out(oc0);
}
