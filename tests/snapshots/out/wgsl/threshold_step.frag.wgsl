// agal2spv: AGAL 1 fragment program, 20 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 28>;
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
    var ft5: vec4f;
    var oc0: vec4f;
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>
    ft0 = textureSample(fs0, fs0_sampler, v0.xy);
    // 2: dp3 ft1.x, ft0.xyz, fc0.xyz
    ft1.x = dot(ft0.xyz, fc[0].xyz);
    // 3: sge ft1.y, ft1.x, fc1.x
    ft1.y = select(0.0, 1.0, ft1.x >= fc[1].x);
    // 4: slt ft1.z, ft1.x, fc1.y
    ft1.z = select(0.0, 1.0, ft1.x < fc[1].y);
    // 5: add ft1.w, ft1.y, ft1.z
    ft1.w = ft1.y + ft1.z;
    // 6: mul ft2, ft0, fc2.x
    ft2 = ft0 * fc[2].x;
    // 7: frc ft3, ft2
    ft3 = fract(ft2);
    // 8: sub ft2, ft2, ft3
    ft2 = ft2 - ft3;
    // 9: mul ft2, ft2, fc2.y
    ft2 = ft2 * fc[2].y;
    // 10: sub ft4.xyz, ft0.xyz, ft1.x
    ft4 = vec4f(ft0.xyz - ft1.x, 0.0);
    // 11: sgn ft4.xyz, ft4.xyz
    ft4 = vec4f(sign(ft4.xyz), ft4.w);
    // 12: mul ft4.xyz, ft4.xyz, ft1.w
    ft4 = vec4f(ft4.xyz * ft1.w, ft4.w);
    // 13: mul ft4.xyz, ft4.xyz, fc3.xyz
    ft4 = vec4f(ft4.xyz * fc[3].xyz, ft4.w);
    // 14: add ft2.xyz, ft2.xyz, ft4.xyz
    ft2 = vec4f(ft2.xyz + ft4.xyz, ft2.w);
    // 15: sne ft5.xyz, ft2.xyz, fc4.xyz
    ft5 = vec4f(select(vec3f(0.0), vec3f(1.0), !(ft2.xyz == fc[4].xyz)), 0.0);
    // 16: mul ft2.xyz, ft2.xyz, ft5.xyz
    ft2 = vec4f(ft2.xyz * ft5.xyz, ft2.w);
    // 17: seq ft5.w, ft2.w, fc4.w
    ft5.w = select(0.0, 1.0, ft2.w == fc[4].w);
    // 18: max ft2.w, ft2.w, ft5.w
    ft2.w = max(ft2.w, ft5.w);
    // 19: sat ft2, ft2
    ft2 = saturate(ft2);
    // 20: mov oc0, ft2
    oc0 = ft2;
    return agal_out(oc0);
}
