#version 330 core
// agal2spv: AGAL 2 fragment program, 11 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
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
    vec4 ft4 = vec4(0.0);
    // 1: nrm ft0.xyz, v0.xyz
    ft0.xyz = normalize(v0.xyz);
    // 2: dp3 ft1.x, ft0.xyz, fc0.xyz
    ft1.x = dot(ft0.xyz, fc[0].xyz);
    // 3: dp3 ft1.y, ft0.xyz, fc1.xyz
    ft1.y = dot(ft0.xyz, fc[1].xyz);
    // 4: sat ft1.xy, ft1.xy
    ft1.xy = clamp(ft1.xy, 0.0, 1.0);
    // 5: mul ft2, fc2, ft1.x
    ft2 = fc[2] * ft1.x;
    // 6: mul ft3, fc3, ft1.y
    ft3 = fc[3] * ft1.y;
    // 7: add ft2, ft2, ft3
    ft2 = ft2 + ft3;
    // 8: add ft2, ft2, fc4
    ft2 = ft2 + fc[4];
    // 9: tex ft4, v1, fs0 <2d, linear, miplinear, repeat>
    ft4 = texture(fs0, v1.xy);
    // 10: mul ft4, ft4, ft2
    ft4 = ft4 * ft2;
    // 11: mov oc0, ft4
    oc0 = ft4;
}
