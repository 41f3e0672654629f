#version 330 core
// agal2spv: AGAL 2 vertex program, 25 tokens
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
    vec4 vt7 = vec4(0.0);
    vec4 op = vec4(0.0);
    // 1: m44 vt0, va0, vc0
    vt0 = vec4(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));
    // 2: mov vt1, va1
    vt1 = va1;
    if (va3.x == vc[6].y) { // 3: ife va3.x, vc6.y
        // 4: mul vt2.xyz, vc4.xyz, va2.x
        vt2.xyz = vc[4].xyz * va2.x;
        // 5: mul vt3.xyz, vc5.xyz, va2.y
        vt3.xyz = vc[5].xyz * va2.y;
        // 6: add vt2.xyz, vt2.xyz, vt3.xyz
        vt2.xyz = vt2.xyz + vt3.xyz;
        // 7: mul vt2.xyz, vt2.xyz, vc6.z
        vt2.xyz = vt2.xyz * vc[6].z;
        // 8: mov vt4, va0
        vt4 = va0;
        // 9: add vt4.xyz, vt4.xyz, vt2.xyz
        vt4.xyz = vt4.xyz + vt2.xyz;
        // 10: m44 vt0, vt4, vc0
        vt0 = vec4(dot(vt4, vc[0]), dot(vt4, vc[1]), dot(vt4, vc[2]), dot(vt4, vc[3]));
    } else { // 11: els
        if (!(va3.y == vc[6].x)) { // 12: ine va3.y, vc6.x
            // 13: neg vt1, vt1
            vt1 = -vt1;
        } // 14: eif
    } // 15: eif
    // 16: m44 vt5, va0, vc7
    vt5 = vec4(dot(va0, vc[7]), dot(va0, vc[8]), dot(va0, vc[9]), dot(va0, vc[10]));
    // 17: dp3 vt6.x, vt5.xyz, vt5.xyz
    vt6.x = dot(vt5.xyz, vt5.xyz);
    // 18: mov vt7, vc12
    vt7 = vc[12];
    if (vt6.x < vc[6].w) { // 19: ifl vt6.x, vc6.w
        // 20: mov vt7, vc11
        vt7 = vc[11];
    } // 21: eif
    // 22: mov op, vt0
    op = vt0;
    // 23: mov v0, vt1
    v0 = vt1;
    // 24: mov v1, va2
    v1 = va2;
    // 25: mov v2, vt7
    v2 = vt7;
    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);
}
