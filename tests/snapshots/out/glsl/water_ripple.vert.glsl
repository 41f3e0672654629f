#version 330 core
// agal2spv: AGAL 2 vertex program, 14 tokens
layout(std140) uniform agal_vc_block { vec4 vc[250]; };
uniform float agal_yflip = 1.0;
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
out vec4 v0;
out vec4 v1;

void main()
{
    vec4 vt0 = vec4(0.0);
    vec4 vt1 = vec4(0.0);
    vec4 vt2 = vec4(0.0);
    vec4 op = vec4(0.0);
    // 1: mul vt0.xy, va0.xz, vc5.xy
    vt0.xy = va0.xz * vc[5].xy;
    // 2: add vt0.x, vt0.x, vt0.y
    vt0.x = vt0.x + vt0.y;
    // 3: mul vt0.x, vt0.x, vc4.y
    vt0.x = vt0.x * vc[4].y;
    // 4: mov vt0.y, vc4.x
    vt0.y = vc[4].x;
    // 5: mul vt0.y, vt0.y, vc4.w
    vt0.y = vt0.y * vc[4].w;
    // 6: sub vt0.x, vt0.x, vt0.y
    vt0.x = vt0.x - vt0.y;
    // 7: sin vt0.z, vt0.x
    vt0.z = sin(vt0.x);
    // 8: cos vt0.w, vt0.x
    vt0.w = cos(vt0.x);
    // 9: mov vt1, va0
    vt1 = va0;
    // 10: mul vt2.x, vt0.z, vc4.z
    vt2.x = vt0.z * vc[4].z;
    // 11: add vt1.y, vt1.y, vt2.x
    vt1.y = vt1.y + vt2.x;
    // 12: m44 op, vt1, vc0
    op = vec4(dot(vt1, vc[0]), dot(vt1, vc[1]), dot(vt1, vc[2]), dot(vt1, vc[3]));
    // 13: mov v0, va1
    v0 = va1;
    // 14: mov v1, vt0
    v1 = vt0;
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
