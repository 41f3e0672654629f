// agal2spv: AGAL 2 vertex program, 14 tokens
@group(0) @binding(0) var<uniform> vc: array<vec4f, 250>;
@id(0) override agal_yflip: f32 = 1.0;

struct agal_out {
    @builtin(position) position: vec4f,
    @location(0) v0: vec4f,
    @location(1) v1: vec4f,
}

@vertex
fn main(@location(0) va0: vec4f, @location(1) va1: vec4f) -> agal_out {
    var vt0: vec4f;
    var vt1: vec4f;
    var vt2: vec4f;
    var op: vec4f;
    var v0: vec4f;
    var v1: vec4f;
    // 1: mul vt0.xy, va0.xz, vc5.xy
    vt0 = vec4f(va0.xz * vc[5].xy, vec2f(0.0));
    // 2: add vt0.x, vt0.x, vt0.y
    vt0.x = vt0.x + vt0.y;
    // 3: mul vt0.x, vt0.x, vc4.y
    vt0.x = vt0.x * vc[4].y;
    // 4: mov vt0.y, vc4.x
    vt0.y = vc[4].x;
    // 5: mul vt0.y, vt0.y, vc4.w
    vt0.y = vt0.y * vc[4].w;
    // 6: sub vt0.x, vt0.x, vt0.y
    vt0.x = vt0.x - vt0.y;
    // 7: sin vt0.z, vt0.x
    vt0.z = sin(vt0.x);
    // 8: cos vt0.w, vt0.x
    vt0.w = cos(vt0.x);
    // 9: mov vt1, va0
    vt1 = va0;
    // 10: mul vt2.x, vt0.z, vc4.z
    vt2.x = vt0.z * vc[4].z;
    // 11: add vt1.y, vt1.y, vt2.x
    vt1.y = vt1.y + vt2.x;
    // 12: m44 op, vt1, vc0
    op = vec4f(dot(vt1, vc[0]), dot(vt1, vc[1]), dot(vt1, vc[2]), dot(vt1, vc[3]));
    // 13: mov v0, va1
    v0 = va1;
    // 14: mov v1, vt0
    v1 = vt0;
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1);
}
