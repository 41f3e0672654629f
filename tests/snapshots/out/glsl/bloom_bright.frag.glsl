#version 330 core
// agal2spv: AGAL 2 fragment program, 10 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
uniform sampler2D fs0;
in vec4 v0;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    vec4 ft2 = vec4(0.0);
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>
    ft0 = texture(fs0, v0.xy);
    // 2: dp3 ft1.x, ft0.xyz, fc0.xyz
    ft1.x = dot(ft0.xyz, fc[0].xyz);
    // 3: sub ft1.y, ft1.x, fc1.x
    ft1.y = ft1.x - fc[1].x;
    // 4: max ft1.y, ft1.y, fc1.y
    ft1.y = max(ft1.y, fc[1].y);
    // 5: abs ft1.z, ft1.x
    ft1.z = abs(ft1.x);
    // 6: abs ft2.x, fc1.z
    ft2.x = abs(fc[1].z);
    // 7: add ft1.z, ft1.z, ft2.x
    ft1.z = ft1.z + ft2.x;
    // 8: div ft1.y, ft1.y, ft1.z
    ft1.y = ft1.y / ft1.z;
    // 9: mul ft0.xyz, ft0.xyz, ft1.y
    ft0.xyz = ft0.xyz * ft1.y;
    // 10: mov oc0, ft0
    oc0 = ft0;
}
