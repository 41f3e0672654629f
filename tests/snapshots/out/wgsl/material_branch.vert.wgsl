// agal2spv: AGAL 3 vertex program, 4 tokens
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
fn main(@location(0) va0: vec4f, @location(1) va1: vec4f, @location(2) va2: vec4f, @builtin(instance_index) iid: u32) -> agal_out {
    var op: vec4f;
    var v0: vec4f;
    var v1: vec4f;
    var v2: vec4f;
    // 1: m44 op, va0, vc0
    op = vec4f(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: mov v0, va1
    v0 = va1;
    // 3: mov v1, va2
    v1 = va2;
    // 4: mov v2, vc[iid0.x+10]
    v2 = agal_vc(i32(f32(iid)) + 10);
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0, v1, v2);
}
