// agal2spv: AGAL 2 fragment program, 10 tokens
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
    var oc0: vec4f;
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>
    ft0 = textureSample(fs0, fs0_sampler, v0.xy);
    // 2: dp3 ft1.x, ft0.xyz, fc0.xyz
    ft1.x = dot(ft0.xyz, fc[0].xyz);
    // 3: sub ft1.y, ft1.x, fc1.x
    ft1.y = ft1.x - fc[1].x;
    // 4: max ft1.y, ft1.y, fc1.y
    ft1.y = max(ft1.y, fc[1].y);
    // 5: abs ft1.z, ft1.x
    ft1.z = abs(ft1.x);
    // 6: abs ft2.x, fc1.z
    ft2.x = abs(fc[1].z);
    // 7: add ft1.z, ft1.z, ft2.x
    ft1.z = ft1.z + ft2.x;
    // 8: div ft1.y, ft1.y, ft1.z
    ft1.y = ft1.y / ft1.z;
    // 9: mul ft0.xyz, ft0.xyz, ft1.y
    ft0 = vec4f(ft0.xyz * ft1.y, ft0.w);
    // 10: mov oc0, ft0
    oc0 = ft0;
    return agal_out(oc0);
}
