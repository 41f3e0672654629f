#version 330 core
// agal2spv: AGAL 1 vertex program, 16 tokens
layout(std140) uniform agal_vc_block { vec4 vc[128]; };
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
    // 1: m44 op, va0, vc0
    op = vec4(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: m44 vt0, va0, vc4
    vt0 = vec4(dot(va0, vc[4]), dot(va0, vc[5]), dot(va0, vc[6]), dot(va0, vc[7]));
    // 3: dp3 vt1.x, vt0.xyz, vt0.xyz
    vt1.x = dot(vt0.xyz, vt0.xyz);
    // 4: sqt vt1.x, vt1.x
    vt1.x = sqrt(vt1.x);
    // 5: sub vt1.y, vc8.x, vt1.x
    vt1.y = vc[8].x - vt1.x;
    // 6: mul vt1.y, vt1.y, vc8.y
    vt1.y = vt1.y * vc[8].y;
    // 7: sat vt1.y, vt1.y
    vt1.y = clamp(vt1.y, 0.0, 1.0);
    // 8: abs vt2.x, vc8.z
    vt2.x = abs(vc[8].z);
    // 9: mul vt2.y, vt1.x, vt2.x
    vt2.y = vt1.x * vt2.x;
    // 10: neg vt1.z, vt2.y
    vt1.z = -vt2.y;
    // 11: exp vt1.z, vt1.z
    vt1.z = exp2(vt1.z);
    // 12: mul vt1.w, vt2.y, vt2.y
    vt1.w = vt2.y * vt2.y;
    // 13: neg vt1.w, vt1.w
    vt1.w = -vt1.w;
    // 14: exp vt1.w, vt1.w
    vt1.w = exp2(vt1.w);
    // 15: mov v0, vt1
    v0 = vt1;
    // 16: mov v1, va1
    v1 = va1;
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
