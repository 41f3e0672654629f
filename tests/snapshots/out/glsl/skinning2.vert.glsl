#version 330 core
// agal2spv: AGAL 1 vertex program, 17 tokens
layout(std140) uniform agal_vc_block { vec4 vc[128]; };
uniform float agal_yflip = 1.0;
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
layout(location = 2) in vec4 va2;
layout(location = 3) in vec4 va3;
layout(location = 4) in vec4 va4;
out vec4 v0;
out vec4 v1;

/* vc[a], or 0 outside the register file (AGAL's bounded relative read). */
vec4 agal_vc(int a) { int c = clamp(a, 0, 127); return mix(vec4(0.0), vc[c], bvec4(c == a)); }

void main()
{
    vec4 vt0 = vec4(0.0);
    vec4 vt1 = vec4(0.0);
    vec4 vt2 = vec4(0.0);
    vec4 vt3 = vec4(0.0);
    vec4 op = vec4(0.0);
    // 1: m34 vt0.xyz, va0, vc[va3.x+8]
    vec4 t4 = agal_vc(int(va3.x) + 8);
    vec4 t7 = agal_vc(int(va3.x) + 9);
    vec4 t10 = agal_vc(int(va3.x) + 10);
    vt0.xyz = vec3(dot(va0, t4), dot(va0, t7), dot(va0, t10));
    // 2: m34 vt1.xyz, va0, vc[va3.y+8]
    vec4 t17 = agal_vc(int(va3.y) + 8);
    vec4 t20 = agal_vc(int(va3.y) + 9);
    vec4 t23 = agal_vc(int(va3.y) + 10);
    vt1.xyz = vec3(dot(va0, t17), dot(va0, t20), dot(va0, t23));
    // 3: mul vt0.xyz, vt0.xyz, va4.x
    vt0.xyz = vt0.xyz * va4.x;
    // 4: mul vt1.xyz, vt1.xyz, va4.y
    vt1.xyz = vt1.xyz * va4.y;
    // 5: add vt0.xyz, vt0.xyz, vt1.xyz
    vt0.xyz = vt0.xyz + vt1.xyz;
    // 6: mov vt0.w, vc4.w
    vt0.w = vc[4].w;
    // 7: m44 op, vt0, vc0
    op = vec4(dot(vt0, vc[0]), dot(vt0, vc[1]), dot(vt0, vc[2]), dot(vt0, vc[3]));
    // 8: m33 vt2.xyz, va1.xyz, vc[va3.x+8]
    vt2.xyz = vec3(dot(va1.xyz, t4.xyz), dot(va1.xyz, t7.xyz), dot(va1.xyz, t10.xyz));
    // 9: m33 vt3.xyz, va1.xyz, vc[va3.y+8]
    vt3.xyz = vec3(dot(va1.xyz, t17.xyz), dot(va1.xyz, t20.xyz), dot(va1.xyz, t23.xyz));
    // 10: mul vt2.xyz, vt2.xyz, va4.x
    vt2.xyz = vt2.xyz * va4.x;
    // 11: mul vt3.xyz, vt3.xyz, va4.y
    vt3.xyz = vt3.xyz * va4.y;
    // 12: add vt2.xyz, vt2.xyz, vt3.xyz
    vt2.xyz = vt2.xyz + vt3.xyz;
    // 13: mul vt3.xyz, va1.xyz, vc5.x
    vt3.xyz = va1.xyz * vc[5].x;
    // 14: add vt2.xyz, vt2.xyz, vt3.xyz
    vt2.xyz = vt2.xyz + vt3.xyz;
    // 15: mov vt2.w, vc4.x
    vt2.w = vc[4].x;
    // 16: mov v0, vt2
    v0 = vt2;
    // 17: mov v1, va2
    v1 = va2;
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
