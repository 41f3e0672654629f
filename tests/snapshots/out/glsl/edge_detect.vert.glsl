#version 330 core
// agal2spv: AGAL 2 vertex program, 4 tokens
layout(std140) uniform agal_vc_block { vec4 vc[250]; };
uniform float agal_yflip = 1.0;
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
out vec4 v0;
out vec4 v1;

void main()
{
    vec4 vt0 = vec4(0.0);
    vec4 op = vec4(0.0);
    // 1: m44 op, va0, vc0
    op = vec4(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: mov v0, va1
    v0 = va1;
    // 3: m44 vt0, va0, vc4
    vt0 = vec4(dot(va0, vc[4]), dot(va0, vc[5]), dot(va0, vc[6]), dot(va0, vc[7]));
    // 4: mov v1, vt0
    v1 = vt0;
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
