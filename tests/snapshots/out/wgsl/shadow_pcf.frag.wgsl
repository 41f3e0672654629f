// agal2spv: AGAL 2 fragment program, 19 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;
@group(0) @binding(3) var fs1: texture_2d<f32>;
@group(0) @binding(19) var fs1_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f, @location(1) v1: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var ft2: vec4f;
    var ft3: vec4f;
    var ft4: vec4f;
    var ft5: vec4f;
    var ft6: vec4f;
    var ft7: vec4f;
    var oc0: vec4f;
    // 1: div ft0, v0, v0.w
    ft0 = v0 / v0.w;
    // 2: mul ft0.xy, ft0.xy, fc0.xy
    ft0 = vec4f(ft0.xy * fc[0].xy, ft0.zw);
    // 3: add ft0.xy, ft0.xy, fc0.zw
    ft0 = vec4f(ft0.xy + fc[0].zw, ft0.zw);
    // 4: sub ft0.z, ft0.z, fc1.x
    ft0.z = ft0.z - fc[1].x;
    // 5: add ft1, ft0.xyxy, fc2
    ft1 = ft0.xyxy + fc[2];
    // 6: add ft2, ft0.xyxy, fc3
    ft2 = ft0.xyxy + fc[3];
    // 7: tex ft3, ft1.xy, fs0 <2d, nearest, mipnone, clamp>
    ft3 = textureSample(fs0, fs0_sampler, ft1.xy);
    // 8: tex ft4, ft1.zw, fs0 <2d, nearest, mipnone, clamp>
    ft4 = textureSample(fs0, fs0_sampler, ft1.zw);
    // 9: tex ft5, ft2.xy, fs0 <2d, nearest, mipnone, clamp>
    ft5 = textureSample(fs0, fs0_sampler, ft2.xy);
    // 10: tex ft6, ft2.zw, fs0 <2d, nearest, mipnone, clamp>
    ft6 = textureSample(fs0, fs0_sampler, ft2.zw);
    // 11: sge ft7.x, ft3.x, ft0.z
    ft7.x = select(0.0, 1.0, ft3.x >= ft0.z);
    // 12: sge ft7.y, ft4.x, ft0.z
    ft7.y = select(0.0, 1.0, ft4.x >= ft0.z);
    // 13: sge ft7.z, ft5.x, ft0.z
    ft7.z = select(0.0, 1.0, ft5.x >= ft0.z);
    // 14: slt ft7.w, ft0.z, ft6.x
    ft7.w = select(0.0, 1.0, ft0.z < ft6.x);
    // 15: dp4 ft7.x, ft7, fc4
    ft7.x = dot(ft7, fc[4]);
    // 16: max ft7.x, ft7.x, fc1.y
    ft7.x = max(ft7.x, fc[1].y);
    // 17: tex ft3, v1, fs1 <2d, linear, miplinear, repeat>
    ft3 = textureSample(fs1, fs1_sampler, v1.xy);
    // 18: mul ft3.xyz, ft3.xyz, ft7.x
    ft3 = vec4f(ft3.xyz * ft7.x, ft3.w);
    // 19: mov oc0, ft3
    oc0 = ft3;
    return agal_out(oc0);
}
