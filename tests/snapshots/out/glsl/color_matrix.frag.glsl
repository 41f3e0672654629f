#version 330 core
// agal2spv: AGAL 1 fragment program, 11 tokens
layout(std140) uniform agal_fc_block { vec4 fc[28]; };
uniform sampler2D fs0;
in vec4 v0;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    vec4 ft2 = vec4(0.0);
    // 1: tex ft0, v0, fs0 <2d, nearest, mipnone, clamp>
    ft0 = texture(fs0, v0.xy);
    // 2: abs ft1.x, ft0.w
    ft1.x = abs(ft0.w);
    // 3: abs ft1.y, fc5.x
    ft1.y = abs(fc[5].x);
    // 4: max ft1.x, ft1.x, ft1.y
    ft1.x = max(ft1.x, ft1.y);
    // 5: rcp ft1.x, ft1.x
    ft1.x = 1.0 / ft1.x;
    // 6: mul ft0.xyz, ft0.xyz, ft1.x
    ft0.xyz = ft0.xyz * ft1.x;
    // 7: m44 ft2, ft0, fc0
    ft2 = vec4(dot(ft0, fc[0]), dot(ft0, fc[1]), dot(ft0, fc[2]), dot(ft0, fc[3]));
    // 8: add ft2, ft2, fc4
    ft2 = ft2 + fc[4];
    // 9: sat ft2, ft2
    ft2 = clamp(ft2, 0.0, 1.0);
    // 10: mul ft2.xyz, ft2.xyz, ft2.w
    ft2.xyz = ft2.xyz * ft2.w;
    // 11: mov oc0, ft2
    oc0 = ft2;
}
