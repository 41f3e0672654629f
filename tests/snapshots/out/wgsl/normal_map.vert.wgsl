// agal2spv: AGAL 2 vertex program, 21 tokens
@group(0) @binding(0) var<uniform> vc: array<vec4f, 250>;
@id(0) override agal_yflip: f32 = 1.0;

struct agal_out {
    @builtin(position) position: vec4f,
    @location(0) v0: vec4f,
    @location(1) v1: vec4f,
    @location(2) v2: vec4f,
}

@vertex
fn main(@location(0) va0: vec4f, @location(1) va1: vec4f, @location(2) va2: vec4f, @location(3) va3: vec4f) -> agal_out {
    var vt0: vec4f;
    var vt1: vec4f;
    var vt2: vec4f;
    var vt3: vec4f;
    var vt4: vec4f;
    var vt5: vec4f;
    var vt6: vec4f;
    var op: vec4f;
    var v0: vec4f;
    var v1: vec4f;
    var v2: vec4f;
    // 1: m44 op, va0, vc0
    op = vec4f(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: m34 vt0.xyz, va0, vc4
    vt0 = vec4f(vec3f(dot(va0, vc[4]), dot(va0, vc[5]), dot(va0, vc[6])), 0.0);
    // 3: m33 vt1.xyz, va1.xyz, vc7
    vt1 = vec4f(vec3f(dot(va1.xyz, vc[7].xyz), dot(va1.xyz, vc[8].xyz), dot(va1.xyz, vc[9].xyz)), 0.0);
    // 4: nrm vt1.xyz, vt1.xyz
    vt1 = vec4f(normalize(vt1.xyz), vt1.w);
    // 5: m33 vt2.xyz, va2.xyz, vc7
    vt2 = vec4f(vec3f(dot(va2.xyz, vc[7].xyz), dot(va2.xyz, vc[8].xyz), dot(va2.xyz, vc[9].xyz)), 0.0);
    // 6: nrm vt2.xyz, vt2.xyz
    vt2 = vec4f(normalize(vt2.xyz), vt2.w);
    // 7: crs vt3.xyz, vt1.xyz, vt2.xyz
    vt3 = vec4f(cross(vt1.xyz, vt2.xyz), 0.0);
    // 8: mul vt3.xyz, vt3.xyz, va2.w
    vt3 = vec4f(vt3.xyz * va2.w, vt3.w);
    // 9: sub vt4.xyz, vc10.xyz, vt0.xyz
    vt4 = vec4f(vc[10].xyz - vt0.xyz, 0.0);
    // 10: dp3 vt5.x, vt4.xyz, vt2.xyz
    vt5.x = dot(vt4.xyz, vt2.xyz);
    // 11: dp3 vt5.y, vt4.xyz, vt3.xyz
    vt5.y = dot(vt4.xyz, vt3.xyz);
    // 12: dp3 vt5.z, vt4.xyz, vt1.xyz
    vt5.z = dot(vt4.xyz, vt1.xyz);
    // 13: mov vt5.w, vc12.x
    vt5.w = vc[12].x;
    // 14: mov v0, vt5
    v0 = vt5;
    // 15: sub vt4.xyz, vc11.xyz, vt0.xyz
    vt4 = vec4f(vc[11].xyz - vt0.xyz, vt4.w);
    // 16: dp3 vt6.x, vt4.xyz, vt2.xyz
    vt6.x = dot(vt4.xyz, vt2.xyz);
    // 17: dp3 vt6.y, vt4.xyz, vt3.xyz
    vt6.y = dot(vt4.xyz, vt3.xyz);
    // 18: dp3 vt6.z, vt4.xyz, vt1.xyz
    vt6.z = dot(vt4.xyz, vt1.xyz);
    // 19: mov vt6.w, vc12.x
    vt6.w = vc[12].x;
    // 20: mov v1, vt6
    v1 = vt6;
    // 21: mov v2, va3
    v2 = va3;
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1, v2);
}
