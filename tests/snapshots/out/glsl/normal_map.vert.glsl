#version 330 core
// agal2spv: AGAL 2 vertex program, 21 tokens
layout(std140) uniform agal_vc_block { vec4 vc[250]; };
uniform float agal_yflip = 1.0;
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
layout(location = 2) in vec4 va2;
layout(location = 3) in vec4 va3;
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
    // 2: m34 vt0.xyz, va0, vc4
    vt0.xyz = vec3(dot(va0, vc[4]), dot(va0, vc[5]), dot(va0, vc[6]));
    // 3: m33 vt1.xyz, va1.xyz, vc7
    vt1.xyz = vec3(dot(va1.xyz, vc[7].xyz), dot(va1.xyz, vc[8].xyz), dot(va1.xyz, vc[9].xyz));
    // 4: nrm vt1.xyz, vt1.xyz
    vt1.xyz = normalize(vt1.xyz);
    // 5: m33 vt2.xyz, va2.xyz, vc7
    vt2.xyz = vec3(dot(va2.xyz, vc[7].xyz), dot(va2.xyz, vc[8].xyz), dot(va2.xyz, vc[9].xyz));
    // 6: nrm vt2.xyz, vt2.xyz
    vt2.xyz = normalize(vt2.xyz);
    // 7: crs vt3.xyz, vt1.xyz, vt2.xyz
    vt3.xyz = cross(vt1.xyz, vt2.xyz);
    // 8: mul vt3.xyz, vt3.xyz, va2.w
    vt3.xyz = vt3.xyz * va2.w;
    // 9: sub vt4.xyz, vc10.xyz, vt0.xyz
    vt4.xyz = vc[10].xyz - vt0.xyz;
    // 10: dp3 vt5.x, vt4.xyz, vt2.xyz
    vt5.x = dot(vt4.xyz, vt2.xyz);
    // 11: dp3 vt5.y, vt4.xyz, vt3.xyz
    vt5.y = dot(vt4.xyz, vt3.xyz);
    // 12: dp3 vt5.z, vt4.xyz, vt1.xyz
    vt5.z = dot(vt4.xyz, vt1.xyz);
    // 13: mov vt5.w, vc12.x
    vt5.w = vc[12].x;
    // 14: mov v0, vt5
    v0 = vt5;
    // 15: sub vt4.xyz, vc11.xyz, vt0.xyz
    vt4.xyz = vc[11].xyz - vt0.xyz;
    // 16: dp3 vt6.x, vt4.xyz, vt2.xyz
    vt6.x = dot(vt4.xyz, vt2.xyz);
    // 17: dp3 vt6.y, vt4.xyz, vt3.xyz
    vt6.y = dot(vt4.xyz, vt3.xyz);
    // 18: dp3 vt6.z, vt4.xyz, vt1.xyz
    vt6.z = dot(vt4.xyz, vt1.xyz);
    // 19: mov vt6.w, vc12.x
    vt6.w = vc[12].x;
    // 20: mov v1, vt6
    v1 = vt6;
    // 21: mov v2, va3
    v2 = va3;
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
