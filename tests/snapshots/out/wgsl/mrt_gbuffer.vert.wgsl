// agal2spv: AGAL 2 vertex program, 8 tokens
@group(0) @binding(0) var<uniform> vc: array<vec4f, 250>;
@id(0) override agal_yflip: f32 = 1.0;

struct agal_out {
    @builtin(position) position: vec4f,
    @location(0) v0: vec4f,
    @location(1) v1: vec4f,
    @location(2) v2: vec4f,
}

@vertex
fn main(@location(0) va0: vec4f, @location(1) va1: vec4f, @location(2) va2: vec4f) -> agal_out {
    var vt0: vec4f;
    var vt1: vec4f;
    var op: vec4f;
    var v0: vec4f;
    var v1: vec4f;
    var v2: vec4f;
    // 1: m44 op, va0, vc0
    op = vec4f(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: m34 vt0.xyz, va0, vc4
    vt0 = vec4f(vec3f(dot(va0, vc[4]), dot(va0, vc[5]), dot(va0, vc[6])), 0.0);
    // 3: mov vt0.w, vc8.w
    vt0.w = vc[8].w;
    // 4: mov v0, vt0
    v0 = vt0;
    // 5: m33 vt1.xyz, va1.xyz, vc4
    vt1 = vec4f(vec3f(dot(va1.xyz, vc[4].xyz), dot(va1.xyz, vc[5].xyz), dot(va1.xyz, vc[6].xyz)), 0.0);
    // 6: mov vt1.w, vc8.x
    vt1.w = vc[8].x;
    // 7: mov v1, vt1
    v1 = vt1;
    // 8: mov v2, va2
    v2 = va2;
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1, v2);
}
