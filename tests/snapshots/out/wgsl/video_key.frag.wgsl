// agal2spv: AGAL 2 fragment program, 11 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
    @builtin(frag_depth) fd: f32,
}

@fragment
fn main(@location(0) v0: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var oc0: vec4f;
    var fd: vec4f;
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp, video>
    ft0 = textureSample(fs0, fs0_sampler, v0.xy);
    // 2: sub ft1.xyz, ft0.xyz, fc0.xyz
    ft1 = vec4f(ft0.xyz - fc[0].xyz, 0.0);
    // 3: dp3 ft1.x, ft1.xyz, ft1.xyz
    ft1.x = dot(ft1.xyz, ft1.xyz);
    // 4: sqt ft1.x, ft1.x
    ft1.x = sqrt(ft1.x);
    // 5: sub ft1.y, ft1.x, fc1.x
    ft1.y = ft1.x - fc[1].x;
    // 6: kil ft1.y
    if (ft1.y < 0.0) { discard; }
    // 7: mul ft1.z, ft1.y, fc1.y
    ft1.z = ft1.y * fc[1].y;
    // 8: sat ft1.z, ft1.z
    ft1.z = saturate(ft1.z);
    // 9: mul ft0, ft0, ft1.z
    ft0 = ft0 * ft1.z;
    // 10: mov fd.x, fc2.x
    fd.x = fc[2].x;
    // 11: mov oc0, ft0
    oc0 = ft0;
    return agal_out(oc0, fd.x);
}
