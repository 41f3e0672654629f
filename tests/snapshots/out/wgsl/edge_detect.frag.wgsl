// agal2spv: AGAL 2 fragment program, 20 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
@id(0) override agal_yflip: f32 = 1.0;
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
    var ft4: vec4f;
    var ft5: vec4f;
    var oc0: vec4f;
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>
    ft0 = textureSample(fs0, fs0_sampler, v0.xy);
    // 2: dp3 ft1.x, ft0.xyz, fc0.xyz
    ft1.x = dot(ft0.xyz, fc[0].xyz);
    // 3: ddx ft2.x, ft1.x
    ft2.x = dpdx(ft1.x);
    // 4: ddy ft2.y, ft1.x
    ft2.y = dpdy(ft1.x) * agal_yflip;
    // 5: abs ft2.xy, ft2.xy
    ft2 = vec4f(abs(ft2.xy), ft2.zw);
    // 6: add ft2.z, ft2.x, ft2.y
    ft2.z = ft2.x + ft2.y;
    // 7: mul ft2.z, ft2.z, fc1.x
    ft2.z = ft2.z * fc[1].x;
    // 8: sat ft2.z, ft2.z
    ft2.z = saturate(ft2.z);
    // 9: ddx ft3, v1
    ft3 = dpdx(v1);
    // 10: ddy ft4, v1
    ft4 = dpdy(v1) * agal_yflip;
    // 11: abs ft3, ft3
    ft3 = abs(ft3);
    // 12: abs ft4, ft4
    ft4 = abs(ft4);
    // 13: add ft3, ft3, ft4
    ft3 = ft3 + ft4;
    // 14: dp4 ft3.x, ft3, fc2
    ft3.x = dot(ft3, fc[2]);
    // 15: sge ft3.y, ft3.x, fc1.y
    ft3.y = select(0.0, 1.0, ft3.x >= fc[1].y);
    // 16: max ft2.z, ft2.z, ft3.y
    ft2.z = max(ft2.z, ft3.y);
    // 17: sub ft5, fc3, ft0
    ft5 = fc[3] - ft0;
    // 18: mul ft5, ft5, ft2.z
    ft5 = ft5 * ft2.z;
    // 19: add ft0, ft0, ft5
    ft0 = ft0 + ft5;
    // 20: mov oc0, ft0
    oc0 = ft0;
    return agal_out(oc0);
}
