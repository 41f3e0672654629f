// agal2spv: AGAL 2 fragment program, 18 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;
@group(0) @binding(3) var fs1: texture_2d<f32>;
@group(0) @binding(19) var fs1_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var ft3: vec4f;
    var ft4: vec4f;
    var ft5: vec4f;
    var oc0: vec4f;
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>
    ft0 = textureSample(fs0, fs0_sampler, v0.xy);
    // 2: tex ft1, v0, fs1 <2d, linear, mipnone, clamp>
    ft1 = textureSample(fs1, fs1_sampler, v0.xy);
    // 3: mul ft1, ft1, fc0.x
    ft1 = ft1 * fc[0].x;
    // 4: add ft0, ft0, ft1
    ft0 = ft0 + ft1;
    // 5: mul ft0.xyz, ft0.xyz, fc0.y
    ft0 = vec4f(ft0.xyz * fc[0].y, ft0.w);
    // 6: abs ft0.xyz, ft0.xyz
    ft0 = vec4f(abs(ft0.xyz), ft0.w);
    // 7: abs ft4.x, fc1.x
    ft4.x = abs(fc[1].x);
    // 8: add ft3.xyz, ft0.xyz, ft4.x
    ft3 = vec4f(ft0.xyz + ft4.x, 0.0);
    // 9: div ft0.xyz, ft0.xyz, ft3.xyz
    ft0 = vec4f(ft0.xyz / ft3.xyz, ft0.w);
    // 10: abs ft4.y, fc1.z
    ft4.y = abs(fc[1].z);
    // 11: add ft0.xyz, ft0.xyz, ft4.y
    ft0 = vec4f(ft0.xyz + ft4.y, ft0.w);
    // 12: sat ft0.xyz, ft0.xyz
    ft0 = vec4f(saturate(ft0.xyz), ft0.w);
    // 13: log ft5.xyz, ft0.xyz
    ft5 = vec4f(log2(ft0.xyz), 0.0);
    // 14: abs ft4.z, fc1.y
    ft4.z = abs(fc[1].y);
    // 15: mul ft5.xyz, ft5.xyz, ft4.z
    ft5 = vec4f(ft5.xyz * ft4.z, ft5.w);
    // 16: exp ft0.xyz, ft5.xyz
    ft0 = vec4f(exp2(ft5.xyz), ft0.w);
    // 17: sat ft0, ft0
    ft0 = saturate(ft0);
    // 18: mov oc0, ft0
    oc0 = ft0;
    return agal_out(oc0);
}
