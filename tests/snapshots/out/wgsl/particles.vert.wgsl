// agal2spv: AGAL 2 vertex program, 27 tokens
@group(0) @binding(0) var<uniform> vc: array<vec4f, 250>;
@id(0) override agal_yflip: f32 = 1.0;

struct agal_out {
    @builtin(position) position: vec4f,
    @location(0) v0: vec4f,
    @location(1) v1: vec4f,
}

@vertex
fn main(@location(0) va0: vec4f, @location(1) va1: vec4f, @location(2) va2: vec4f, @location(3) va3: vec4f, @location(4) va4: vec4f) -> agal_out {
    var vt0: vec4f;
    var vt1: vec4f;
    var vt2: vec4f;
    var vt3: vec4f;
    var vt4: vec4f;
    var vt5: vec4f;
    var op: vec4f;
    var v0: vec4f;
    var v1: vec4f;
    // 1: sub vt0.x, vc4.x, va1.x
    vt0.x = vc[4].x - va1.x;
    // 2: abs vt0.y, va1.y
    vt0.y = abs(va1.y);
    // 3: div vt0.z, vt0.x, vt0.y
    vt0.z = vt0.x / vt0.y;
    // 4: frc vt0.z, vt0.z
    vt0.z = fract(vt0.z);
    // 5: mul vt0.w, vt0.z, vt0.y
    vt0.w = vt0.z * vt0.y;
    // 6: mul vt1.xyz, va3.xyz, vt0.w
    vt1 = vec4f(va3.xyz * vt0.w, 0.0);
    // 7: add vt1.xyz, vt1.xyz, va2.xyz
    vt1 = vec4f(vt1.xyz + va2.xyz, vt1.w);
    // 8: mul vt2.x, vt0.w, vt0.w
    vt2.x = vt0.w * vt0.w;
    // 9: mul vt2.x, vt2.x, vc4.y
    vt2.x = vt2.x * vc[4].y;
    // 10: mul vt2.xyz, vc5.xyz, vt2.x
    vt2 = vec4f(vc[5].xyz * vt2.x, vt2.w);
    // 11: add vt1.xyz, vt1.xyz, vt2.xyz
    vt1 = vec4f(vt1.xyz + vt2.xyz, vt1.w);
    // 12: mul vt3.x, vt0.z, vc8.y
    vt3.x = vt0.z * vc[8].y;
    // 13: add vt3.x, vt3.x, vc8.x
    vt3.x = vt3.x + vc[8].x;
    // 14: mul vt4.xyz, vc6.xyz, va0.x
    vt4 = vec4f(vc[6].xyz * va0.x, 0.0);
    // 15: mul vt4.xyz, vt4.xyz, vt3.x
    vt4 = vec4f(vt4.xyz * vt3.x, vt4.w);
    // 16: add vt1.xyz, vt1.xyz, vt4.xyz
    vt1 = vec4f(vt1.xyz + vt4.xyz, vt1.w);
    // 17: mul vt4.xyz, vc7.xyz, va0.y
    vt4 = vec4f(vc[7].xyz * va0.y, vt4.w);
    // 18: mul vt4.xyz, vt4.xyz, vt3.x
    vt4 = vec4f(vt4.xyz * vt3.x, vt4.w);
    // 19: add vt1.xyz, vt1.xyz, vt4.xyz
    vt1 = vec4f(vt1.xyz + vt4.xyz, vt1.w);
    // 20: mov vt1.w, vc4.w
    vt1.w = vc[4].w;
    // 21: m44 op, vt1, vc0
    op = vec4f(dot(vt1, vc[0]), dot(vt1, vc[1]), dot(vt1, vc[2]), dot(vt1, vc[3]));
    // 22: mov vt5, vc10
    vt5 = vc[10];
    // 23: sub vt5, vt5, vc9
    vt5 = vt5 - vc[9];
    // 24: mul vt5, vt5, vt0.z
    vt5 = vt5 * vt0.z;
    // 25: add vt5, vt5, vc9
    vt5 = vt5 + vc[9];
    // 26: mov v0, vt5
    v0 = vt5;
    // 27: mov v1, va4
    v1 = va4;
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1);
}
