// agal2spv: AGAL 3 vertex program, 16 tokens
@group(0) @binding(0) var<uniform> vc: array<vec4f, 250>;
@id(0) override agal_yflip: f32 = 1.0;

struct agal_out {
    @builtin(position) position: vec4f,
    @location(0) v0: vec4f,
    @location(1) v1: vec4f,
}

// vc[a], or 0 outside the register file (AGAL's bounded relative read)
fn agal_vc(a: i32) -> vec4f {
    let c = clamp(a, 0, 249);
    return select(vec4f(0.0), vc[c], c == a);
}

@vertex
fn main(@location(0) va0: vec4f, @location(9) va9: vec4f, @builtin(instance_index) iid: u32) -> agal_out {
    var vt0: vec4f;
    var vt1: vec4f;
    var vt2: vec4f;
    var vt3: vec4f;
    var op: vec4f;
    var v0: vec4f;
    var v1: vec4f;
    // 1: mov vt0, vc4
    vt0 = vc[4];
    // 2: mul vt0.xy, va0.xy, vc[iid0.x+8].zw
    let t7 = agal_vc(i32(f32(iid)) + 8);
    vt0 = vec4f(va0.xy * t7.zw, vt0.zw);
    // 3: add vt0.xy, vt0.xy, vc[iid0.x+8].xy
    vt0 = vec4f(vt0.xy + t7.xy, vt0.zw);
    // 4: m44 op, vt0, vc0
    op = vec4f(dot(vt0, vc[0]), dot(vt0, vc[1]), dot(vt0, vc[2]), dot(vt0, vc[3]));
    // 5: mov vt1, vc[iid0.x+120]
    vt1 = agal_vc(i32(f32(iid)) + 120);
    // 6: mul vt1.y, vt1.x, vc5.y
    vt1.y = vt1.x * vc[5].y;
    // 7: frc vt1.z, vt1.y
    vt1.z = fract(vt1.y);
    // 8: sub vt1.w, vt1.y, vt1.z
    vt1.w = vt1.y - vt1.z;
    // 9: mul vt2.x, vt1.w, vc5.x
    vt2.x = vt1.w * vc[5].x;
    // 10: sub vt1.z, vt1.x, vt2.x
    vt1.z = vt1.x - vt2.x;
    // 11: mov vt3, va9
    vt3 = va9;
    // 12: add vt3.x, vt3.x, vt1.z
    vt3.x = vt3.x + vt1.z;
    // 13: add vt3.y, vt3.y, vt1.w
    vt3.y = vt3.y + vt1.w;
    // 14: mul vt3.xy, vt3.xy, vc5.y
    vt3 = vec4f(vt3.xy * vc[5].y, vt3.zw);
    // 15: mov v0, vt3
    v0 = vt3;
    // 16: mov v1, vc[iid0.x+60]
    v1 = agal_vc(i32(f32(iid)) + 60);
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1);
}
