#version 330 core
// agal2spv: AGAL 1 vertex program, 11 tokens
layout(std140) uniform agal_vc_block { vec4 vc[128]; };
uniform float agal_yflip = 1.0;
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
layout(location = 2) in vec4 va2;
out vec4 v0;
out vec4 v1;

/* vc[a], or 0 outside the register file (AGAL's bounded relative read). */
vec4 agal_vc(int a) { int c = clamp(a, 0, 127); return mix(vec4(0.0), vc[c], bvec4(c == a)); }

void main()
{
    vec4 vt0 = vec4(0.0);
    vec4 vt1 = vec4(0.0);
    vec4 vt2 = vec4(0.0);
    vec4 op = vec4(0.0);
    // 1: mul vt1, va0.xyxy, vc[va2.x+4].xyyx
    vec4 t5 = agal_vc(int(va2.x) + 4);
    vt1 = va0.xyxy * t5.xyyx;
    // 2: sub vt0.x, vt1.x, vt1.y
    vt0.x = vt1.x - vt1.y;
    // 3: add vt0.y, vt1.z, vt1.w
    vt0.y = vt1.z + vt1.w;
    // 4: add vt0.xy, vt0.xy, vc[va2.x+4].zw
    vt0.xy = vt0.xy + t5.zw;
    // 5: mov vt0.zw, vc127.zw
    vt0.zw = vc[127].ww;
    // 6: m44 op, vt0, vc0
    op = vec4(dot(vt0, vc[0]), dot(vt0, vc[1]), dot(vt0, vc[2]), dot(vt0, vc[3]));
    // 7: mul vt2.xy, va1.xy, vc[va2.x+6].zw
    vec4 t34 = agal_vc(int(va2.x) + 6);
    vt2.xy = va1.xy * t34.zw;
    // 8: add vt2.xy, vt2.xy, vc[va2.x+6].xy
    vt2.xy = vt2.xy + t34.xy;
    // 9: mov vt2.zw, vc127.zw
    vt2.zw = vc[127].ww;
    // 10: mov v0, vt2
    v0 = vt2;
    // 11: mov v1, vc[va2.x+5]
    v1 = agal_vc(int(va2.x) + 5);
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
