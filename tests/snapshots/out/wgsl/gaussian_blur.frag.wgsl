// agal2spv: AGAL 2 fragment program, 27 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var ft2: vec4f;
    var ft3: vec4f;
    var ft4: vec4f;
    var oc0: vec4f;
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>
    ft0 = textureSample(fs0, fs0_sampler, v0.xy);
    // 2: mul ft0, ft0, fc2.x
    ft0 = ft0 * fc[2].x;
    // 3: add ft1, v0.xyxy, fc4
    ft1 = v0.xyxy + fc[4];
    // 4: sub ft2, v0.xyxy, fc4
    ft2 = v0.xyxy - fc[4];
    // 5: tex ft3, ft1.xy, fs0 <2d, linear, mipnone, clamp>
    ft3 = textureSample(fs0, fs0_sampler, ft1.xy);
    // 6: tex ft4, ft2.xy, fs0 <2d, linear, mipnone, clamp>
    ft4 = textureSample(fs0, fs0_sampler, ft2.xy);
    // 7: add ft3, ft3, ft4
    ft3 = ft3 + ft4;
    // 8: mul ft3, ft3, fc2.y
    ft3 = ft3 * fc[2].y;
    // 9: add ft0, ft0, ft3
    ft0 = ft0 + ft3;
    // 10: tex ft3, ft1.zw, fs0 <2d, linear, mipnone, clamp>
    ft3 = textureSample(fs0, fs0_sampler, ft1.zw);
    // 11: tex ft4, ft2.zw, fs0 <2d, linear, mipnone, clamp>
    ft4 = textureSample(fs0, fs0_sampler, ft2.zw);
    // 12: add ft3, ft3, ft4
    ft3 = ft3 + ft4;
    // 13: mul ft3, ft3, fc2.z
    ft3 = ft3 * fc[2].z;
    // 14: add ft0, ft0, ft3
    ft0 = ft0 + ft3;
    // 15: add ft1, v0.xyxy, fc5
    ft1 = v0.xyxy + fc[5];
    // 16: sub ft2, v0.xyxy, fc5
    ft2 = v0.xyxy - fc[5];
    // 17: tex ft3, ft1.xy, fs0 <2d, linear, mipnone, clamp>
    ft3 = textureSample(fs0, fs0_sampler, ft1.xy);
    // 18: tex ft4, ft2.xy, fs0 <2d, linear, mipnone, clamp>
    ft4 = textureSample(fs0, fs0_sampler, ft2.xy);
    // 19: add ft3, ft3, ft4
    ft3 = ft3 + ft4;
    // 20: mul ft3, ft3, fc2.w
    ft3 = ft3 * fc[2].w;
    // 21: add ft0, ft0, ft3
    ft0 = ft0 + ft3;
    // 22: tex ft3, ft1.zw, fs0 <2d, linear, mipnone, clamp>
    ft3 = textureSample(fs0, fs0_sampler, ft1.zw);
    // 23: tex ft4, ft2.zw, fs0 <2d, linear, mipnone, clamp>
    ft4 = textureSample(fs0, fs0_sampler, ft2.zw);
    // 24: add ft3, ft3, ft4
    ft3 = ft3 + ft4;
    // 25: mul ft3, ft3, fc3.x
    ft3 = ft3 * fc[3].x;
    // 26: add ft0, ft0, ft3
    ft0 = ft0 + ft3;
    // 27: mov oc0, ft0
    oc0 = ft0;
    return agal_out(oc0);
}
