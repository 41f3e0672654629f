#version 330 core
// agal2spv: AGAL 3 vertex program, 4 tokens
layout(std140) uniform agal_vc_block { vec4 vc[250]; };
uniform float agal_yflip = 1.0;
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
layout(location = 2) in vec4 va2;
out vec4 v0;
out vec4 v1;
out vec4 v2;

/* vc[a], or 0 outside the register file (AGAL's bounded relative read). */
vec4 agal_vc(int a) { int c = clamp(a, 0, 249); return mix(vec4(0.0), vc[c], bvec4(c == a)); }

void main()
{
    vec4 op = vec4(0.0);
    // 1: m44 op, va0, vc0
    op = vec4(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: mov v0, va1
    v0 = va1;
    // 3: mov v1, va2
    v1 = va2;
    // 4: mov v2, vc[iid0.x+10]
    v2 = agal_vc(int(float(gl_InstanceID)) + 10);
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
