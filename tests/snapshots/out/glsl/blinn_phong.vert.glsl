#version 330 core
// agal2spv: AGAL 2 vertex program, 8 tokens
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
    // 2: m33 vt0.xyz, va1.xyz, vc7
    vt0.xyz = vec3(dot(va1.xyz, vc[7].xyz), dot(va1.xyz, vc[8].xyz), dot(va1.xyz, vc[9].xyz));
    // 3: mov vt0.w, vc10.x
    vt0.w = vc[10].x;
    // 4: mov v0, vt0
    v0 = vt0;
    // 5: m34 vt1.xyz, va0, vc4
    vt1.xyz = vec3(dot(va0, vc[4]), dot(va0, vc[5]), dot(va0, vc[6]));
    // 6: mov vt1.w, vc10.w
    vt1.w = vc[10].w;
    // 7: mov v1, vt1
    v1 = vt1;
    // 8: mov v2, va2
    v2 = va2;
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
