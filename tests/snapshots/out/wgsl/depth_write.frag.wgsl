// agal2spv: AGAL 2 fragment program, 9 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
    @builtin(frag_depth) fd: f32,
}

@fragment
fn main(@location(0) v0: vec4f, @location(1) v1: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var oc0: vec4f;
    var fd: vec4f;
    // 1: tex ft0, v1, fs0 <2d, linear, mipnone, clamp>
    ft0 = textureSample(fs0, fs0_sampler, v1.xy);
    // 2: neg ft1.x, v0.z
    ft1.x = -v0.z;
    // 3: sub ft1.x, ft1.x, fc0.x
    ft1.x = ft1.x - fc[0].x;
    // 4: mul ft1.x, ft1.x, fc0.y
    ft1.x = ft1.x * fc[0].y;
    // 5: mul ft1.y, ft0.w, fc1.x
    ft1.y = ft0.w * fc[1].x;
    // 6: sub ft1.x, ft1.x, ft1.y
    ft1.x = ft1.x - ft1.y;
    // 7: sat ft1.x, ft1.x
    ft1.x = saturate(ft1.x);
    // 8: mov fd.x, ft1.x
    fd.x = ft1.x;
    // 9: mov oc0, ft0
    oc0 = ft0;
    return agal_out(oc0, fd.x);
}
