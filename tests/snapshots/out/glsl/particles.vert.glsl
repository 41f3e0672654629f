#version 330 core
// agal2spv: AGAL 2 vertex program, 27 tokens
layout(std140) uniform agal_vc_block { vec4 vc[250]; };
uniform float agal_yflip = 1.0;
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
layout(location = 2) in vec4 va2;
layout(location = 3) in vec4 va3;
layout(location = 4) in vec4 va4;
out vec4 v0;
out vec4 v1;

void main()
{
    vec4 vt0 = vec4(0.0);
    vec4 vt1 = vec4(0.0);
    vec4 vt2 = vec4(0.0);
    vec4 vt3 = vec4(0.0);
    vec4 vt4 = vec4(0.0);
    vec4 vt5 = vec4(0.0);
    vec4 op = vec4(0.0);
    // 1: sub vt0.x, vc4.x, va1.x
    vt0.x = vc[4].x - va1.x;
    // 2: abs vt0.y, va1.y
    vt0.y = abs(va1.y);
    // 3: div vt0.z, vt0.x, vt0.y
    vt0.z = vt0.x / vt0.y;
    // 4: frc vt0.z, vt0.z
    vt0.z = fract(vt0.z);
    // 5: mul vt0.w, vt0.z, vt0.y
    vt0.w = vt0.z * vt0.y;
    // 6: mul vt1.xyz, va3.xyz, vt0.w
    vt1.xyz = va3.xyz * vt0.w;
    // 7: add vt1.xyz, vt1.xyz, va2.xyz
    vt1.xyz = vt1.xyz + va2.xyz;
    // 8: mul vt2.x, vt0.w, vt0.w
    vt2.x = vt0.w * vt0.w;
    // 9: mul vt2.x, vt2.x, vc4.y
    vt2.x = vt2.x * vc[4].y;
    // 10: mul vt2.xyz, vc5.xyz, vt2.x
    vt2.xyz = vc[5].xyz * vt2.x;
    // 11: add vt1.xyz, vt1.xyz, vt2.xyz
    vt1.xyz = vt1.xyz + vt2.xyz;
    // 12: mul vt3.x, vt0.z, vc8.y
    vt3.x = vt0.z * vc[8].y;
    // 13: add vt3.x, vt3.x, vc8.x
    vt3.x = vt3.x + vc[8].x;
    // 14: mul vt4.xyz, vc6.xyz, va0.x
    vt4.xyz = vc[6].xyz * va0.x;
    // 15: mul vt4.xyz, vt4.xyz, vt3.x
    vt4.xyz = vt4.xyz * vt3.x;
    // 16: add vt1.xyz, vt1.xyz, vt4.xyz
    vt1.xyz = vt1.xyz + vt4.xyz;
    // 17: mul vt4.xyz, vc7.xyz, va0.y
    vt4.xyz = vc[7].xyz * va0.y;
    // 18: mul vt4.xyz, vt4.xyz, vt3.x
    vt4.xyz = vt4.xyz * vt3.x;
    // 19: add vt1.xyz, vt1.xyz, vt4.xyz
    vt1.xyz = vt1.xyz + vt4.xyz;
    // 20: mov vt1.w, vc4.w
    vt1.w = vc[4].w;
    // 21: m44 op, vt1, vc0
    op = vec4(dot(vt1, vc[0]), dot(vt1, vc[1]), dot(vt1, vc[2]), dot(vt1, vc[3]));
    // 22: mov vt5, vc10
    vt5 = vc[10];
    // 23: sub vt5, vt5, vc9
    vt5 = vt5 - vc[9];
    // 24: mul vt5, vt5, vt0.z
    vt5 = vt5 * vt0.z;
    // 25: add vt5, vt5, vc9
    vt5 = vt5 + vc[9];
    // 26: mov v0, vt5
    v0 = vt5;
    // 27: mov v1, va4
    v1 = va4;
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
