// agal2spv: AGAL 2 vertex program, 4 tokens
@group(0) @binding(0) var<uniform> vc: array<vec4f, 250>;
@id(0) override agal_yflip: f32 = 1.0;

struct agal_out {
    @builtin(position) position: vec4f,
    @location(0) v0: vec4f,
    @location(1) v1: vec4f,
}

@vertex
fn main(@location(0) va0: vec4f, @location(1) va1: vec4f) -> agal_out {
    var vt0: vec4f;
    var op: vec4f;
    var v0: vec4f;
    var v1: vec4f;
    // 1: m44 op, va0, vc0
    op = vec4f(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: mov v0, va1
    v0 = va1;
    // 3: m44 vt0, va0, vc4
    vt0 = vec4f(dot(va0, vc[4]), dot(va0, vc[5]), dot(va0, vc[6]), dot(va0, vc[7]));
    // 4: mov v1, vt0
    v1 = vt0;
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1);
}
