// agal2spv: AGAL 2 vertex program, 2 tokens
@id(0) override agal_yflip: f32 = 1.0;

struct agal_out {
    @builtin(position) position: vec4f,
    @location(0) v0: vec4f,
}

@vertex
fn main(@location(0) va0: vec4f, @location(1) va1: vec4f) -> agal_out {
    var op: vec4f;
    var v0: vec4f;
    // 1: mov op, va0
    op = va0;
    // 2: mov v0, va1
    v0 = va1;
    return agal_out(vec4f(op.x, op.y * agal_yflip, op.z, op.w), v0);
}
