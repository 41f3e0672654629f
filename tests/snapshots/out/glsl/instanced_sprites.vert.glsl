#version 330 core
// agal2spv: AGAL 3 vertex program, 16 tokens
layout(std140) uniform agal_vc_block { vec4 vc[250]; };
uniform float agal_yflip = 1.0;
layout(location = 0) in vec4 va0;
layout(location = 9) in vec4 va9;
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
    vec4 op = vec4(0.0);
    // 1: mov vt0, vc4
    vt0 = vc[4];
    // 2: mul vt0.xy, va0.xy, vc[iid0.x+8].zw
    vec4 t7 = agal_vc(int(float(gl_InstanceID)) + 8);
    vt0.xy = va0.xy * t7.zw;
    // 3: add vt0.xy, vt0.xy, vc[iid0.x+8].xy
    vt0.xy = vt0.xy + t7.xy;
    // 4: m44 op, vt0, vc0
    op = vec4(dot(vt0, vc[0]), dot(vt0, vc[1]), dot(vt0, vc[2]), dot(vt0, vc[3]));
    // 5: mov vt1, vc[iid0.x+120]
    vt1 = agal_vc(int(float(gl_InstanceID)) + 120);
    // 6: mul vt1.y, vt1.x, vc5.y
    vt1.y = vt1.x * vc[5].y;
    // 7: frc vt1.z, vt1.y
    vt1.z = fract(vt1.y);
    // 8: sub vt1.w, vt1.y, vt1.z
    vt1.w = vt1.y - vt1.z;
    // 9: mul vt2.x, vt1.w, vc5.x
    vt2.x = vt1.w * vc[5].x;
    // 10: sub vt1.z, vt1.x, vt2.x
    vt1.z = vt1.x - vt2.x;
    // 11: mov vt3, va9
    vt3 = va9;
    // 12: add vt3.x, vt3.x, vt1.z
    vt3.x = vt3.x + vt1.z;
    // 13: add vt3.y, vt3.y, vt1.w
    vt3.y = vt3.y + vt1.w;
    // 14: mul vt3.xy, vt3.xy, vc5.y
    vt3.xy = vt3.xy * vc[5].y;
    // 15: mov v0, vt3
    v0 = vt3;
    // 16: mov v1, vc[iid0.x+60]
    v1 = agal_vc(int(float(gl_InstanceID)) + 60);
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
