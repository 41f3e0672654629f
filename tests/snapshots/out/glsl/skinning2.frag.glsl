#version 330 core
// agal2spv: AGAL 1 fragment program, 11 tokens
layout(std140) uniform agal_fc_block { vec4 fc[28]; };
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    vec4 ft2 = vec4(0.0);
    vec4 ft3 = vec4(0.0);
    // 1: nrm ft0.xyz, v0.xyz
    ft0.xyz = normalize(v0.xyz);
    // 2: dp3 ft1.x, ft0.xyz, fc0.xyz
    ft1.x = dot(ft0.xyz, fc[0].xyz);
    // 3: mul ft1.x, ft1.x, fc3.x
    ft1.x = ft1.x * fc[3].x;
    // 4: add ft1.x, ft1.x, fc3.x
    ft1.x = ft1.x + fc[3].x;
    // 5: mov ft2, fc1
    ft2 = fc[1];
    // 6: sub ft2, ft2, fc2
    ft2 = ft2 - fc[2];
    // 7: mul ft2, ft2, ft1.x
    ft2 = ft2 * ft1.x;
    // 8: add ft2, ft2, fc2
    ft2 = ft2 + fc[2];
    // 9: tex ft3, v1, fs0 <2d, linear, mipnearest, repeat>
    ft3 = texture(fs0, v1.xy);
    // 10: mul ft3, ft3, ft2
    ft3 = ft3 * ft2;
    // 11: mov oc0, ft3
    oc0 = ft3;
}
