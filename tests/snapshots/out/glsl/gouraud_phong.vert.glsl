#version 330 core
// agal2spv: AGAL 1 vertex program, 20 tokens
layout(std140) uniform agal_vc_block { vec4 vc[128]; };
uniform float agal_yflip = 1.0;
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
layout(location = 2) in vec4 va2;
out vec4 v0;
out vec4 v1;
out vec4 v2;

void main()
{
    vec4 vt0 = vec4(0.0);
    vec4 vt1 = vec4(0.0);
    vec4 vt2 = vec4(0.0);
    vec4 vt3 = vec4(0.0);
    vec4 vt4 = vec4(0.0);
    vec4 vt5 = vec4(0.0);
    vec4 vt6 = vec4(0.0);
    vec4 op = vec4(0.0);
    // 1: m44 op, va0, vc0
    op = vec4(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: m34 vt0.xyz, va0, vc12
    vt0.xyz = vec3(dot(va0, vc[12]), dot(va0, vc[13]), dot(va0, vc[14]));
    // 3: m33 vt1.xyz, va1.xyz, vc4
    vt1.xyz = vec3(dot(va1.xyz, vc[4].xyz), dot(va1.xyz, vc[5].xyz), dot(va1.xyz, vc[6].xyz));
    // 4: nrm vt1.xyz, vt1.xyz
    vt1.xyz = normalize(vt1.xyz);
    // 5: dp3 vt2.x, vt1.xyz, vc7.xyz
    vt2.x = dot(vt1.xyz, vc[7].xyz);
    // 6: add vt2.y, vt2.x, vt2.x
    vt2.y = vt2.x + vt2.x;
    // 7: mul vt3.xyz, vt1.xyz, vt2.y
    vt3.xyz = vt1.xyz * vt2.y;
    // 8: sub vt3.xyz, vt3.xyz, vc7.xyz
    vt3.xyz = vt3.xyz - vc[7].xyz;
    // 9: sub vt4.xyz, vc10.xyz, vt0.xyz
    vt4.xyz = vc[10].xyz - vt0.xyz;
    // 10: nrm vt4.xyz, vt4.xyz
    vt4.xyz = normalize(vt4.xyz);
    // 11: dp3 vt2.z, vt3.xyz, vt4.xyz
    vt2.z = dot(vt3.xyz, vt4.xyz);
    // 12: sat vt2.xz, vt2.xz
    vt2.xz = clamp(vt2.xz, 0.0, 1.0);
    // 13: abs vt2.w, vc11.x
    vt2.w = abs(vc[11].x);
    // 14: pow vt2.z, vt2.z, vt2.w
    vt2.z = pow(vt2.z, vt2.w);
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
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
