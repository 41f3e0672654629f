#version 330 core
// agal2spv: AGAL 2 vertex program, 11 tokens
layout(std140) uniform agal_vc_block { vec4 vc[250]; };
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
    vec4 op = vec4(0.0);
    // 1: m44 op, va0, vc0
    op = vec4(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: m33 vt0.xyz, va1.xyz, vc4
    vt0.xyz = vec3(dot(va1.xyz, vc[4].xyz), dot(va1.xyz, vc[5].xyz), dot(va1.xyz, vc[6].xyz));
    // 3: nrm vt0.xyz, vt0.xyz
    vt0.xyz = normalize(vt0.xyz);
    // 4: mov vt0.w, vc8.x
    vt0.w = vc[8].x;
    // 5: mov vt1, vc9
    vt1 = vc[9];
    if (vt0.y >= vc[8].y) { // 6: ifg vt0.y, vc8.y
        // 7: mov vt1, vc10
        vt1 = vc[10];
    } // 8: eif
    // 9: mov v0, vt0
    v0 = vt0;
    // 10: mov v1, vt1
    v1 = vt1;
    // 11: mov v2, va2
    v2 = va2;
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
