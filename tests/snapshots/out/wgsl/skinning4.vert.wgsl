// agal2spv: AGAL 2 vertex program, 30 tokens
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
fn main(@location(0) va0: vec4f, @location(1) va1: vec4f, @location(2) va2: vec4f, @location(3) va3: vec4f, @location(4) va4: vec4f) -> agal_out {
    var vt0: vec4f;
    var vt1: vec4f;
    var vt2: vec4f;
    var vt3: vec4f;
    var vt4: vec4f;
    var op: vec4f;
    var v0: vec4f;
    var v1: vec4f;
    // 1: mul vt0, va3, vc4.x
    vt0 = va3 * vc[4].x;
    // 2: m34 vt1.xyz, va0, vc[vt0.x+10]
    let t7 = agal_vc(i32(vt0.x) + 10);
    let t9 = agal_vc(i32(vt0.x) + 11);
    let t11 = agal_vc(i32(vt0.x) + 12);
    vt1 = vec4f(vec3f(dot(va0, t7), dot(va0, t9), dot(va0, t11)), 0.0);
    // 3: mul vt1.xyz, vt1.xyz, va4.x
    vt1 = vec4f(vt1.xyz * va4.x, vt1.w);
    // 4: m34 vt2.xyz, va0, vc[vt0.y+10]
    let t22 = agal_vc(i32(vt0.y) + 10);
    let t24 = agal_vc(i32(vt0.y) + 11);
    let t26 = agal_vc(i32(vt0.y) + 12);
    vt2 = vec4f(vec3f(dot(va0, t22), dot(va0, t24), dot(va0, t26)), 0.0);
    // 5: mul vt2.xyz, vt2.xyz, va4.y
    vt2 = vec4f(vt2.xyz * va4.y, vt2.w);
    // 6: add vt1.xyz, vt1.xyz, vt2.xyz
    vt1 = vec4f(vt1.xyz + vt2.xyz, vt1.w);
    // 7: m34 vt2.xyz, va0, vc[vt0.z+10]
    let t40 = agal_vc(i32(vt0.z) + 10);
    let t42 = agal_vc(i32(vt0.z) + 11);
    let t44 = agal_vc(i32(vt0.z) + 12);
    vt2 = vec4f(vec3f(dot(va0, t40), dot(va0, t42), dot(va0, t44)), vt2.w);
    // 8: mul vt2.xyz, vt2.xyz, va4.z
    vt2 = vec4f(vt2.xyz * va4.z, vt2.w);
    // 9: add vt1.xyz, vt1.xyz, vt2.xyz
    vt1 = vec4f(vt1.xyz + vt2.xyz, vt1.w);
    // 10: m34 vt2.xyz, va0, vc[vt0.w+10]
    let t58 = agal_vc(i32(vt0.w) + 10);
    let t60 = agal_vc(i32(vt0.w) + 11);
    let t62 = agal_vc(i32(vt0.w) + 12);
    vt2 = vec4f(vec3f(dot(va0, t58), dot(va0, t60), dot(va0, t62)), vt2.w);
    // 11: mul vt2.xyz, vt2.xyz, va4.w
    vt2 = vec4f(vt2.xyz * va4.w, vt2.w);
    // 12: add vt1.xyz, vt1.xyz, vt2.xyz
    vt1 = vec4f(vt1.xyz + vt2.xyz, vt1.w);
    // 13: mov vt1.w, vc4.w
    vt1.w = vc[4].w;
    // 14: m44 op, vt1, vc0
    op = vec4f(dot(vt1, vc[0]), dot(vt1, vc[1]), dot(vt1, vc[2]), dot(vt1, vc[3]));
    // 15: m33 vt3.xyz, va1.xyz, vc[vt0.x+10]
    vt3 = vec4f(vec3f(dot(va1.xyz, t7.xyz), dot(va1.xyz, t9.xyz), dot(va1.xyz, t11.xyz)), 0.0);
    // 16: mul vt3.xyz, vt3.xyz, va4.x
    vt3 = vec4f(vt3.xyz * va4.x, vt3.w);
    // 17: m33 vt4.xyz, va1.xyz, vc[vt0.y+10]
    vt4 = vec4f(vec3f(dot(va1.xyz, t22.xyz), dot(va1.xyz, t24.xyz), dot(va1.xyz, t26.xyz)), 0.0);
    // 18: mul vt4.xyz, vt4.xyz, va4.y
    vt4 = vec4f(vt4.xyz * va4.y, vt4.w);
    // 19: add vt3.xyz, vt3.xyz, vt4.xyz
    vt3 = vec4f(vt3.xyz + vt4.xyz, vt3.w);
    // 20: m33 vt4.xyz, va1.xyz, vc[vt0.z+10]
    vt4 = vec4f(vec3f(dot(va1.xyz, t40.xyz), dot(va1.xyz, t42.xyz), dot(va1.xyz, t44.xyz)), vt4.w);
    // 21: mul vt4.xyz, vt4.xyz, va4.z
    vt4 = vec4f(vt4.xyz * va4.z, vt4.w);
    // 22: add vt3.xyz, vt3.xyz, vt4.xyz
    vt3 = vec4f(vt3.xyz + vt4.xyz, vt3.w);
    // 23: m33 vt4.xyz, va1.xyz, vc[vt0.w+10]
    vt4 = vec4f(vec3f(dot(va1.xyz, t58.xyz), dot(va1.xyz, t60.xyz), dot(va1.xyz, t62.xyz)), vt4.w);
    // 24: mul vt4.xyz, vt4.xyz, va4.w
    vt4 = vec4f(vt4.xyz * va4.w, vt4.w);
    // 25: add vt3.xyz, vt3.xyz, vt4.xyz
    vt3 = vec4f(vt3.xyz + vt4.xyz, vt3.w);
    // 26: mul vt4.xyz, va1.xyz, vc5.x
    vt4 = vec4f(va1.xyz * vc[5].x, vt4.w);
    // 27: add vt3.xyz, vt3.xyz, vt4.xyz
    vt3 = vec4f(vt3.xyz + vt4.xyz, vt3.w);
    // 28: mov vt3.w, vc4.y
    vt3.w = vc[4].y;
    // 29: mov v0, vt3
    v0 = vt3;
    // 30: mov v1, va2
    v1 = va2;
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1);
}
