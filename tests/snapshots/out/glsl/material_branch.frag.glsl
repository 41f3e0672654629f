#version 330 core
// agal2spv: AGAL 3 fragment program, 24 tokens
layout(std140) uniform agal_fc_block { vec4 fc[200]; };
uniform sampler2D fs0;
uniform sampler2D fs1;
in vec4 v0;
in vec4 v1;
in vec4 v2;
layout(location = 0) out vec4 oc0;
layout(location = 1) out vec4 oc1;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    vec4 ft2 = vec4(0.0);
    vec4 ft4 = vec4(0.0);
    // 1: tex ft0, v0, fs0 <2d, linear, miplinear, repeat>
    ft0 = texture(fs0, v0.xy);
    // 2: mov ft1, ft0
    ft1 = ft0;
    vec4 t37 = texture(fs1, v0.xy); // 12: tex ft3, v0, fs1 <2d, nearest, mipnone, repeat> (hoisted: implicit LOD needs uniform control flow)
    if (v1.x < fc[0].x) { // 3: ifl v1.x, fc0.x
        // 4: mul ft1, ft1, fc1
        ft1 = ft1 * fc[1];
    } else { // 5: els
        if (v1.x < fc[0].y) { // 6: ifl v1.x, fc0.y
            // 7: sin ft2.x, fc0.w
            ft2.x = sin(fc[0].w);
            // 8: abs ft2.x, ft2.x
            ft2.x = abs(ft2.x);
            // 9: mul ft1.xyz, ft1.xyz, ft2.x
            ft1.xyz = ft1.xyz * ft2.x;
        } else { // 10: els
            if (!(v1.y == fc[0].z)) { // 11: ine v1.y, fc0.z
                // 12: tex ft3, v0, fs1 <2d, nearest, mipnone, repeat>
                // 13: mul ft1, ft1, ft3
                ft1 = ft1 * t37;
            } else { // 14: els
                if (v1.z == v1.w) { // 15: ife v1.z, v1.w
                    // 16: neg ft1.xyz, ft1.xyz
                    ft1.xyz = -ft1.xyz;
                    // 17: add ft1.xyz, ft1.xyz, fc2.xyz
                    ft1.xyz = ft1.xyz + fc[2].xyz;
                } // 18: eif
            } // 19: eif
        } // 20: eif
    } // 21: eif
    // 22: mov oc0, ft1
    oc0 = ft1;
    // 23: mul ft4, v2, ft0.w
    ft4 = v2 * ft0.w;
    // 24: mov oc1, ft4
    oc1 = ft4;
}
