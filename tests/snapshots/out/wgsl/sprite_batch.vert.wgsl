// agal2spv: AGAL 1 vertex program, 11 tokens
@group(0) @binding(0) var<uniform> vc: array<vec4f, 128>;
@id(0) override agal_yflip: f32 = 1.0;

struct agal_out {
    @builtin(position) position: vec4f,
    @location(0) v0: vec4f,
    @location(1) v1: vec4f,
}

// vc[a], or 0 outside the register file (AGAL's bounded relative read)
fn agal_vc(a: i32) -> vec4f {
    let c = clamp(a, 0, 127);
    return select(vec4f(0.0), vc[c], c == a);
}

@vertex
fn main(@location(0) va0: vec4f, @location(1) va1: vec4f, @location(2) va2: vec4f) -> agal_out {
    var vt0: vec4f;
    var vt1: vec4f;
    var vt2: vec4f;
    var op: vec4f;
    var v0: vec4f;
    var v1: vec4f;
    // 1: mul vt1, va0.xyxy, vc[va2.x+4].xyyx
    let t5 = agal_vc(i32(va2.x) + 4);
    vt1 = va0.xyxy * t5.xyyx;
    // 2: sub vt0.x, vt1.x, vt1.y
    vt0.x = vt1.x - vt1.y;
    // 3: add vt0.y, vt1.z, vt1.w
    vt0.y = vt1.z + vt1.w;
    // 4: add vt0.xy, vt0.xy, vc[va2.x+4].zw
    vt0 = vec4f(vt0.xy + t5.zw, vt0.zw);
    // 5: mov vt0.zw, vc127.zw
    vt0 = vec4f(vt0.xy, vc[127].ww);
    // 6: m44 op, vt0, vc0
    op = vec4f(dot(vt0, vc[0]), dot(vt0, vc[1]), dot(vt0, vc[2]), dot(vt0, vc[3]));
    // 7: mul vt2.xy, va1.xy, vc[va2.x+6].zw
    let t34 = agal_vc(i32(va2.x) + 6);
    vt2 = vec4f(va1.xy * t34.zw, vec2f(0.0));
    // 8: add vt2.xy, vt2.xy, vc[va2.x+6].xy
    vt2 = vec4f(vt2.xy + t34.xy, vt2.zw);
    // 9: mov vt2.zw, vc127.zw
    vt2 = vec4f(vt2.xy, vc[127].ww);
    // 10: mov v0, vt2
    v0 = vt2;
    // 11: mov v1, vc[va2.x+5]
    v1 = agal_vc(i32(va2.x) + 5);
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1);
}
