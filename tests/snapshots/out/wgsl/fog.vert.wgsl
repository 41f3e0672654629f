// agal2spv: AGAL 1 vertex program, 16 tokens
@group(0) @binding(0) var<uniform> vc: array<vec4f, 128>;
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
    // 1: m44 op, va0, vc0
    op = vec4f(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: m44 vt0, va0, vc4
    vt0 = vec4f(dot(va0, vc[4]), dot(va0, vc[5]), dot(va0, vc[6]), dot(va0, vc[7]));
    // 3: dp3 vt1.x, vt0.xyz, vt0.xyz
    vt1.x = dot(vt0.xyz, vt0.xyz);
    // 4: sqt vt1.x, vt1.x
    vt1.x = sqrt(vt1.x);
    // 5: sub vt1.y, vc8.x, vt1.x
    vt1.y = vc[8].x - vt1.x;
    // 6: mul vt1.y, vt1.y, vc8.y
    vt1.y = vt1.y * vc[8].y;
    // 7: sat vt1.y, vt1.y
    vt1.y = saturate(vt1.y);
    // 8: abs vt2.x, vc8.z
    vt2.x = abs(vc[8].z);
    // 9: mul vt2.y, vt1.x, vt2.x
    vt2.y = vt1.x * vt2.x;
    // 10: neg vt1.z, vt2.y
    vt1.z = -vt2.y;
    // 11: exp vt1.z, vt1.z
    vt1.z = exp2(vt1.z);
    // 12: mul vt1.w, vt2.y, vt2.y
    vt1.w = vt2.y * vt2.y;
    // 13: neg vt1.w, vt1.w
    vt1.w = -vt1.w;
    // 14: exp vt1.w, vt1.w
    vt1.w = exp2(vt1.w);
    // 15: mov v0, vt1
    v0 = vt1;
    // 16: mov v1, va1
    v1 = va1;
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1);
}
