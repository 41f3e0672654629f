#version 330 core
// agal2spv: AGAL 1 vertex program, 2 tokens
uniform float agal_yflip = 1.0;
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
out vec4 v0;

void main()
{
    vec4 op = vec4(0.0);
    // 1: mov op, va0
    op = va0;
    // 2: mov v0, va1
    v0 = va1;
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
