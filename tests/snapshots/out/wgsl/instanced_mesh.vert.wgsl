// agal2spv: AGAL 3 vertex program, 12 tokens
@group(0) @binding(0) var<uniform> vc: array<vec4f, 250>;
@id(0) override agal_yflip: f32 = 1.0;

struct agal_out {
    @builtin(position) position: vec4f,
    @location(0) v0: vec4f,
    @location(1) v1: vec4f,
    @location(2) v2: vec4f,
}

// vc[a], or 0 outside the register file (AGAL's bounded relative read)
fn agal_vc(a: i32) -> vec4f {
    let c = clamp(a, 0, 249);
    return select(vec4f(0.0), vc[c], c == a);
}

@vertex
fn main(@location(0) va0: vec4f, @location(1) va1: vec4f, @location(8) va8: vec4f, @location(15) va15: vec4f, @builtin(instance_index) iid: u32) -> agal_out {
    var vt0: vec4f;
    var vt1: vec4f;
    var vt2: vec4f;
    var vt3: vec4f;
    var vt4: vec4f;
    var op: vec4f;
    var v0: vec4f;
    var v1: vec4f;
    var v2: vec4f;
    // 1: mul vt0.x, iid.x, vc4.x
    vt0.x = f32(iid) * vc[4].x;
    // 2: m44 vt1, va0, vc[vt0.x+16]
    let t10 = agal_vc(i32(vt0.x) + 16);
    let t12 = agal_vc(i32(vt0.x) + 17);
    let t14 = agal_vc(i32(vt0.x) + 18);
    vt1 = vec4f(dot(va0, t10), dot(va0, t12), dot(va0, t14), dot(va0, agal_vc(i32(vt0.x) + 19)));
    // 3: m44 op, vt1, vc0
    op = vec4f(dot(vt1, vc[0]), dot(vt1, vc[1]), dot(vt1, vc[2]), dot(vt1, vc[3]));
    // 4: m33 vt2.xyz, va1.xyz, vc[vt0.x+16]
    vt2 = vec4f(vec3f(dot(va1.xyz, t10.xyz), dot(va1.xyz, t12.xyz), dot(va1.xyz, t14.xyz)), 0.0);
    // 5: mul vt4.xyz, va1.xyz, vc5.x
    vt4 = vec4f(va1.xyz * vc[5].x, 0.0);
    // 6: add vt2.xyz, vt2.xyz, vt4.xyz
    vt2 = vec4f(vt2.xyz + vt4.xyz, vt2.w);
    // 7: nrm vt2.xyz, vt2.xyz
    vt2 = vec4f(normalize(vt2.xyz), vt2.w);
    // 8: mov vt2.w, vc4.y
    vt2.w = vc[4].y;
    // 9: mov v0, vt2
    v0 = vt2;
    // 10: mov v1, va8
    v1 = va8;
    // 11: mul vt3, va15, vc[iid0.x+200]
    vt3 = va15 * agal_vc(i32(f32(iid)) + 200);
    // 12: mov v2, vt3
    v2 = vt3;
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1, v2);
}
