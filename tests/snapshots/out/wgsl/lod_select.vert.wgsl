// agal2spv: AGAL 2 vertex program, 25 tokens
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
    var vt7: vec4f;
    var op: vec4f;
    var v0: vec4f;
    var v1: vec4f;
    var v2: vec4f;
    // 1: m44 vt0, va0, vc0
    vt0 = vec4f(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: mov vt1, va1
    vt1 = va1;
    if (va3.x == vc[6].y) { // 3: ife va3.x, vc6.y
        // 4: mul vt2.xyz, vc4.xyz, va2.x
        vt2 = vec4f(vc[4].xyz * va2.x, 0.0);
        // 5: mul vt3.xyz, vc5.xyz, va2.y
        vt3 = vec4f(vc[5].xyz * va2.y, 0.0);
        // 6: add vt2.xyz, vt2.xyz, vt3.xyz
        vt2 = vec4f(vt2.xyz + vt3.xyz, vt2.w);
        // 7: mul vt2.xyz, vt2.xyz, vc6.z
        vt2 = vec4f(vt2.xyz * vc[6].z, vt2.w);
        // 8: mov vt4, va0
        vt4 = va0;
        // 9: add vt4.xyz, vt4.xyz, vt2.xyz
        vt4 = vec4f(vt4.xyz + vt2.xyz, vt4.w);
        // 10: m44 vt0, vt4, vc0
        vt0 = vec4f(dot(vt4, vc[0]), dot(vt4, vc[1]), dot(vt4, vc[2]), dot(vt4, vc[3]));
    } else { // 11: els
        if (!(va3.y == vc[6].x)) { // 12: ine va3.y, vc6.x
            // 13: neg vt1, vt1
            vt1 = -vt1;
        } // 14: eif
    } // 15: eif
    // 16: m44 vt5, va0, vc7
    vt5 = vec4f(dot(va0, vc[7]), dot(va0, vc[8]), dot(va0, vc[9]), dot(va0, vc[10]));
    // 17: dp3 vt6.x, vt5.xyz, vt5.xyz
    vt6.x = dot(vt5.xyz, vt5.xyz);
    // 18: mov vt7, vc12
    vt7 = vc[12];
    if (vt6.x < vc[6].w) { // 19: ifl vt6.x, vc6.w
        // 20: mov vt7, vc11
        vt7 = vc[11];
    } // 21: eif
    // 22: mov op, vt0
    op = vt0;
    // 23: mov v0, vt1
    v0 = vt1;
    // 24: mov v1, va2
    v1 = va2;
    // 25: mov v2, vt7
    v2 = vt7;
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1, v2);
}
