#version 330 core
// agal2spv: AGAL 1 vertex program, 13 tokens
layout(std140) uniform agal_vc_block { vec4 vc[128]; };
uniform float agal_yflip = 1.0;
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
layout(location = 2) in vec4 va2;
out vec4 v0;
out vec4 v1;
out vec4 v2;
out vec4 v3;

void main()
{
    vec4 vt0 = vec4(0.0);
    vec4 vt1 = vec4(0.0);
    vec4 vt2 = vec4(0.0);
    vec4 vt3 = vec4(0.0);
    vec4 op = vec4(0.0);
    // 1: m44 op, va0, vc0
    op = vec4(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: m34 vt0.xyz, va0, vc4
    vt0.xyz = vec3(dot(va0, vc[4]), dot(va0, vc[5]), dot(va0, vc[6]));
    // 3: mov vt0.w, vc12.w
    vt0.w = vc[12].w;
    // 4: m33 vt1.xyz, va1.xyz, vc7
    vt1.xyz = vec3(dot(va1.xyz, vc[7].xyz), dot(va1.xyz, vc[8].xyz), dot(va1.xyz, vc[9].xyz));
    // 5: mov vt1.w, vc12.x
    vt1.w = vc[12].x;
    // 6: mov v0, vt1
    v0 = vt1;
    // 7: sub vt2.xyz, vc10.xyz, vt0.xyz
    vt2.xyz = vc[10].xyz - vt0.xyz;
    // 8: mov vt2.w, vc12.x
    vt2.w = vc[12].x;
    // 9: mov v1, vt2
    v1 = vt2;
    // 10: sub vt3.xyz, vc11.xyz, vt0.xyz
    vt3.xyz = vc[11].xyz - vt0.xyz;
    // 11: mov vt3.w, vc12.x
    vt3.w = vc[12].x;
    // 12: mov v2, vt3
    v2 = vt3;
    // 13: mov v3, va2
    v3 = va2;
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
