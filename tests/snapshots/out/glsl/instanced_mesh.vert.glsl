#version 330 core
// agal2spv: AGAL 3 vertex program, 12 tokens
layout(std140) uniform agal_vc_block { vec4 vc[250]; };
uniform float agal_yflip = 1.0;
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
layout(location = 8) in vec4 va8;
layout(location = 15) in vec4 va15;
out vec4 v0;
out vec4 v1;
out vec4 v2;

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
    // 1: mul vt0.x, iid.x, vc4.x
    vt0.x = float(gl_InstanceID) * vc[4].x;
    // 2: m44 vt1, va0, vc[vt0.x+16]
    vec4 t10 = agal_vc(int(vt0.x) + 16);
    vec4 t12 = agal_vc(int(vt0.x) + 17);
    vec4 t14 = agal_vc(int(vt0.x) + 18);
    vt1 = vec4(dot(va0, t10), dot(va0, t12), dot(va0, t14), dot(va0, agal_vc(int(vt0.x) + 19)));
    // 3: m44 op, vt1, vc0
    op = vec4(dot(vt1, vc[0]), dot(vt1, vc[1]), dot(vt1, vc[2]), dot(vt1, vc[3]));
    // 4: m33 vt2.xyz, va1.xyz, vc[vt0.x+16]
    vt2.xyz = vec3(dot(va1.xyz, t10.xyz), dot(va1.xyz, t12.xyz), dot(va1.xyz, t14.xyz));
    // 5: mul vt4.xyz, va1.xyz, vc5.x
    vt4.xyz = va1.xyz * vc[5].x;
    // 6: add vt2.xyz, vt2.xyz, vt4.xyz
    vt2.xyz = vt2.xyz + vt4.xyz;
    // 7: nrm vt2.xyz, vt2.xyz
    vt2.xyz = normalize(vt2.xyz);
    // 8: mov vt2.w, vc4.y
    vt2.w = vc[4].y;
    // 9: mov v0, vt2
    v0 = vt2;
    // 10: mov v1, va8
    v1 = va8;
    // 11: mul vt3, va15, vc[iid0.x+200]
    vt3 = va15 * agal_vc(int(float(gl_InstanceID)) + 200);
    // 12: mov v2, vt3
    v2 = vt3;
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
