#version 330 core
// agal2spv: AGAL 2 vertex program, 30 tokens
layout(std140) uniform agal_vc_block { vec4 vc[250]; };
uniform float agal_yflip = 1.0;
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
layout(location = 2) in vec4 va2;
layout(location = 3) in vec4 va3;
layout(location = 4) in vec4 va4;
out vec4 v0;
out vec4 v1;

/* vc[a], or 0 outside the register file (AGAL's bounded relative read). */
vec4 agal_vc(int a) { int c = clamp(a, 0, 249); return mix(vec4(0.0), vc[c], bvec4(c == a)); }

void main()
{
    vec4 vt0 = vec4(0.0);
    vec4 vt1 = vec4(0.0);
    vec4 vt2 = vec4(0.0);
    vec4 vt3 = vec4(0.0);
    vec4 vt4 = vec4(0.0);
    vec4 op = vec4(0.0);
    // 1: mul vt0, va3, vc4.x
    vt0 = va3 * vc[4].x;
    // 2: m34 vt1.xyz, va0, vc[vt0.x+10]
    vec4 t7 = agal_vc(int(vt0.x) + 10);
    vec4 t9 = agal_vc(int(vt0.x) + 11);
    vec4 t11 = agal_vc(int(vt0.x) + 12);
    vt1.xyz = vec3(dot(va0, t7), dot(va0, t9), dot(va0, t11));
    // 3: mul vt1.xyz, vt1.xyz, va4.x
    vt1.xyz = vt1.xyz * va4.x;
    // 4: m34 vt2.xyz, va0, vc[vt0.y+10]
    vec4 t22 = agal_vc(int(vt0.y) + 10);
    vec4 t24 = agal_vc(int(vt0.y) + 11);
    vec4 t26 = agal_vc(int(vt0.y) + 12);
    vt2.xyz = vec3(dot(va0, t22), dot(va0, t24), dot(va0, t26));
    // 5: mul vt2.xyz, vt2.xyz, va4.y
    vt2.xyz = vt2.xyz * va4.y;
    // 6: add vt1.xyz, vt1.xyz, vt2.xyz
    vt1.xyz = vt1.xyz + vt2.xyz;
    // 7: m34 vt2.xyz, va0, vc[vt0.z+10]
    vec4 t40 = agal_vc(int(vt0.z) + 10);
    vec4 t42 = agal_vc(int(vt0.z) + 11);
    vec4 t44 = agal_vc(int(vt0.z) + 12);
    vt2.xyz = vec3(dot(va0, t40), dot(va0, t42), dot(va0, t44));
    // 8: mul vt2.xyz, vt2.xyz, va4.z
    vt2.xyz = vt2.xyz * va4.z;
    // 9: add vt1.xyz, vt1.xyz, vt2.xyz
    vt1.xyz = vt1.xyz + vt2.xyz;
    // 10: m34 vt2.xyz, va0, vc[vt0.w+10]
    vec4 t58 = agal_vc(int(vt0.w) + 10);
    vec4 t60 = agal_vc(int(vt0.w) + 11);
    vec4 t62 = agal_vc(int(vt0.w) + 12);
    vt2.xyz = vec3(dot(va0, t58), dot(va0, t60), dot(va0, t62));
    // 11: mul vt2.xyz, vt2.xyz, va4.w
    vt2.xyz = vt2.xyz * va4.w;
    // 12: add vt1.xyz, vt1.xyz, vt2.xyz
    vt1.xyz = vt1.xyz + vt2.xyz;
    // 13: mov vt1.w, vc4.w
    vt1.w = vc[4].w;
    // 14: m44 op, vt1, vc0
    op = vec4(dot(vt1, vc[0]), dot(vt1, vc[1]), dot(vt1, vc[2]), dot(vt1, vc[3]));
    // 15: m33 vt3.xyz, va1.xyz, vc[vt0.x+10]
    vt3.xyz = vec3(dot(va1.xyz, t7.xyz), dot(va1.xyz, t9.xyz), dot(va1.xyz, t11.xyz));
    // 16: mul vt3.xyz, vt3.xyz, va4.x
    vt3.xyz = vt3.xyz * va4.x;
    // 17: m33 vt4.xyz, va1.xyz, vc[vt0.y+10]
    vt4.xyz = vec3(dot(va1.xyz, t22.xyz), dot(va1.xyz, t24.xyz), dot(va1.xyz, t26.xyz));
    // 18: mul vt4.xyz, vt4.xyz, va4.y
    vt4.xyz = vt4.xyz * va4.y;
    // 19: add vt3.xyz, vt3.xyz, vt4.xyz
    vt3.xyz = vt3.xyz + vt4.xyz;
    // 20: m33 vt4.xyz, va1.xyz, vc[vt0.z+10]
    vt4.xyz = vec3(dot(va1.xyz, t40.xyz), dot(va1.xyz, t42.xyz), dot(va1.xyz, t44.xyz));
    // 21: mul vt4.xyz, vt4.xyz, va4.z
    vt4.xyz = vt4.xyz * va4.z;
    // 22: add vt3.xyz, vt3.xyz, vt4.xyz
    vt3.xyz = vt3.xyz + vt4.xyz;
    // 23: m33 vt4.xyz, va1.xyz, vc[vt0.w+10]
    vt4.xyz = vec3(dot(va1.xyz, t58.xyz), dot(va1.xyz, t60.xyz), dot(va1.xyz, t62.xyz));
    // 24: mul vt4.xyz, vt4.xyz, va4.w
    vt4.xyz = vt4.xyz * va4.w;
    // 25: add vt3.xyz, vt3.xyz, vt4.xyz
    vt3.xyz = vt3.xyz + vt4.xyz;
    // 26: mul vt4.xyz, va1.xyz, vc5.x
    vt4.xyz = va1.xyz * vc[5].x;
    // 27: add vt3.xyz, vt3.xyz, vt4.xyz
    vt3.xyz = vt3.xyz + vt4.xyz;
    // 28: mov vt3.w, vc4.y
    vt3.w = vc[4].y;
    // 29: mov v0, vt3
    v0 = vt3;
    // 30: mov v1, va2
    v1 = va2;
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
