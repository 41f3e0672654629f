// agal2spv: AGAL 1 vertex program, 17 tokens
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
fn main(@location(0) va0: vec4f, @location(1) va1: vec4f, @location(2) va2: vec4f, @location(3) va3: vec4f, @location(4) va4: vec4f) -> agal_out {
    var vt0: vec4f;
    var vt1: vec4f;
    var vt2: vec4f;
    var vt3: vec4f;
    var op: vec4f;
    var v0: vec4f;
    var v1: vec4f;
    // 1: m34 vt0.xyz, va0, vc[va3.x+8]
    let t4 = agal_vc(i32(va3.x) + 8);
    let t7 = agal_vc(i32(va3.x) + 9);
    let t10 = agal_vc(i32(va3.x) + 10);
    vt0 = vec4f(vec3f(dot(va0, t4), dot(va0, t7), dot(va0, t10)), 0.0);
    // 2: m34 vt1.xyz, va0, vc[va3.y+8]
    let t17 = agal_vc(i32(va3.y) + 8);
    let t20 = agal_vc(i32(va3.y) + 9);
    let t23 = agal_vc(i32(va3.y) + 10);
    vt1 = vec4f(vec3f(dot(va0, t17), dot(va0, t20), dot(va0, t23)), 0.0);
    // 3: mul vt0.xyz, vt0.xyz, va4.x
    vt0 = vec4f(vt0.xyz * va4.x, vt0.w);
    // 4: mul vt1.xyz, vt1.xyz, va4.y
    vt1 = vec4f(vt1.xyz * va4.y, vt1.w);
    // 5: add vt0.xyz, vt0.xyz, vt1.xyz
    vt0 = vec4f(vt0.xyz + vt1.xyz, vt0.w);
    // 6: mov vt0.w, vc4.w
    vt0.w = vc[4].w;
    // 7: m44 op, vt0, vc0
    op = vec4f(dot(vt0, vc[0]), dot(vt0, vc[1]), dot(vt0, vc[2]), dot(vt0, vc[3]));
    // 8: m33 vt2.xyz, va1.xyz, vc[va3.x+8]
    vt2 = vec4f(vec3f(dot(va1.xyz, t4.xyz), dot(va1.xyz, t7.xyz), dot(va1.xyz, t10.xyz)), 0.0);
    // 9: m33 vt3.xyz, va1.xyz, vc[va3.y+8]
    vt3 = vec4f(vec3f(dot(va1.xyz, t17.xyz), dot(va1.xyz, t20.xyz), dot(va1.xyz, t23.xyz)), 0.0);
    // 10: mul vt2.xyz, vt2.xyz, va4.x
    vt2 = vec4f(vt2.xyz * va4.x, vt2.w);
    // 11: mul vt3.xyz, vt3.xyz, va4.y
    vt3 = vec4f(vt3.xyz * va4.y, vt3.w);
    // 12: add vt2.xyz, vt2.xyz, vt3.xyz
    vt2 = vec4f(vt2.xyz + vt3.xyz, vt2.w);
    // 13: mul vt3.xyz, va1.xyz, vc5.x
    vt3 = vec4f(va1.xyz * vc[5].x, vt3.w);
    // 14: add vt2.xyz, vt2.xyz, vt3.xyz
    vt2 = vec4f(vt2.xyz + vt3.xyz, vt2.w);
    // 15: mov vt2.w, vc4.x
    vt2.w = vc[4].x;
    // 16: mov v0, vt2
    v0 = vt2;
    // 17: mov v1, va2
    v1 = va2;
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1);
}
