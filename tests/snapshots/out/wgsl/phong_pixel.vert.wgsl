// agal2spv: AGAL 1 vertex program, 13 tokens
@group(0) @binding(0) var<uniform> vc: array<vec4f, 128>;
@id(0) override agal_yflip: f32 = 1.0;

struct agal_out {
    @builtin(position) position: vec4f,
    @location(0) v0: vec4f,
    @location(1) v1: vec4f,
    @location(2) v2: vec4f,
    @location(3) v3: vec4f,
}

@vertex
fn main(@location(0) va0: vec4f, @location(1) va1: vec4f, @location(2) va2: vec4f) -> agal_out {
    var vt0: vec4f;
    var vt1: vec4f;
    var vt2: vec4f;
    var vt3: vec4f;
    var op: vec4f;
    var v0: vec4f;
    var v1: vec4f;
    var v2: vec4f;
    var v3: vec4f;
    // 1: m44 op, va0, vc0
    op = vec4f(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: m34 vt0.xyz, va0, vc4
    vt0 = vec4f(vec3f(dot(va0, vc[4]), dot(va0, vc[5]), dot(va0, vc[6])), 0.0);
    // 3: mov vt0.w, vc12.w
    vt0.w = vc[12].w;
    // 4: m33 vt1.xyz, va1.xyz, vc7
    vt1 = vec4f(vec3f(dot(va1.xyz, vc[7].xyz), dot(va1.xyz, vc[8].xyz), dot(va1.xyz, vc[9].xyz)), 0.0);
    // 5: mov vt1.w, vc12.x
    vt1.w = vc[12].x;
    // 6: mov v0, vt1
    v0 = vt1;
    // 7: sub vt2.xyz, vc10.xyz, vt0.xyz
    vt2 = vec4f(vc[10].xyz - vt0.xyz, 0.0);
    // 8: mov vt2.w, vc12.x
    vt2.w = vc[12].x;
    // 9: mov v1, vt2
    v1 = vt2;
    // 10: sub vt3.xyz, vc11.xyz, vt0.xyz
    vt3 = vec4f(vc[11].xyz - vt0.xyz, 0.0);
    // 11: mov vt3.w, vc12.x
    vt3.w = vc[12].x;
    // 12: mov v2, vt3
    v2 = vt3;
    // 13: mov v3, va2
    v3 = va2;
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1, v2, v3);
}
