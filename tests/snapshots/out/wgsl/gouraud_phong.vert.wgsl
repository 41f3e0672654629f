// agal2spv: AGAL 1 vertex program, 20 tokens
@group(0) @binding(0) var<uniform> vc: array<vec4f, 128>;
@id(0) override agal_yflip: f32 = 1.0;

struct agal_out {
    @builtin(position) position: vec4f,
    @location(0) v0: vec4f,
    @location(1) v1: vec4f,
    @location(2) v2: vec4f,
}

// pow(x, y), 0 at x = 0: WGSL bounds no error of log2(0)
fn agal_pow1(x: f32, y: f32) -> f32 { return pow(x, y) * sign(x); }
fn agal_pow2(x: vec2f, y: vec2f) -> vec2f { return pow(x, y) * sign(x); }
fn agal_pow3(x: vec3f, y: vec3f) -> vec3f { return pow(x, y) * sign(x); }
fn agal_pow4(x: vec4f, y: vec4f) -> vec4f { return pow(x, y) * sign(x); }

@vertex
fn main(@location(0) va0: vec4f, @location(1) va1: vec4f, @location(2) va2: vec4f) -> agal_out {
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
    // 2: m34 vt0.xyz, va0, vc12
    vt0 = vec4f(vec3f(dot(va0, vc[12]), dot(va0, vc[13]), dot(va0, vc[14])), 0.0);
    // 3: m33 vt1.xyz, va1.xyz, vc4
    vt1 = vec4f(vec3f(dot(va1.xyz, vc[4].xyz), dot(va1.xyz, vc[5].xyz), dot(va1.xyz, vc[6].xyz)), 0.0);
    // 4: nrm vt1.xyz, vt1.xyz
    vt1 = vec4f(normalize(vt1.xyz), vt1.w);
    // 5: dp3 vt2.x, vt1.xyz, vc7.xyz
    vt2.x = dot(vt1.xyz, vc[7].xyz);
    // 6: add vt2.y, vt2.x, vt2.x
    vt2.y = vt2.x + vt2.x;
    // 7: mul vt3.xyz, vt1.xyz, vt2.y
    vt3 = vec4f(vt1.xyz * vt2.y, 0.0);
    // 8: sub vt3.xyz, vt3.xyz, vc7.xyz
    vt3 = vec4f(vt3.xyz - vc[7].xyz, vt3.w);
    // 9: sub vt4.xyz, vc10.xyz, vt0.xyz
    vt4 = vec4f(vc[10].xyz - vt0.xyz, 0.0);
    // 10: nrm vt4.xyz, vt4.xyz
    vt4 = vec4f(normalize(vt4.xyz), vt4.w);
    // 11: dp3 vt2.z, vt3.xyz, vt4.xyz
    vt2.z = dot(vt3.xyz, vt4.xyz);
    // 12: sat vt2.xz, vt2.xz
    vt2 = select(vt2, saturate(vt2.xzzz), vec4<bool>(true, false, true, false));
    // 13: abs vt2.w, vc11.x
    vt2.w = abs(vc[11].x);
    // 14: pow vt2.z, vt2.z, vt2.w
    vt2.z = agal_pow1(vt2.z, vt2.w);
    // 15: mul vt5, vc8, vt2.x
    vt5 = vc[8] * vt2.x;
    // 16: add vt5, vt5, vc9
    vt5 = vt5 + vc[9];
    // 17: mov v0, vt5
    v0 = vt5;
    // 18: mul vt6, vc8, vt2.z
    vt6 = vc[8] * vt2.z;
    // 19: mov v1, vt6
    v1 = vt6;
    // 20: mov v2, va2
    v2 = va2;
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1, v2);
}
