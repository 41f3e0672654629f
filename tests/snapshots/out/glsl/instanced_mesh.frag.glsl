#version 330 core
// agal2spv: AGAL 3 fragment program, 11 tokens
layout(std140) uniform agal_fc_block { vec4 fc[200]; };
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
in vec4 v2;
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
    // 3: mul ft1.x, ft1.x, fc1.x
    ft1.x = ft1.x * fc[1].x;
    // 4: add ft1.x, ft1.x, fc1.y
    ft1.x = ft1.x + fc[1].y;
    // 5: sat ft1.x, ft1.x
    ft1.x = clamp(ft1.x, 0.0, 1.0);
    // 6: mul ft2, fc2, ft1.x
    ft2 = fc[2] * ft1.x;
    // 7: add ft2, ft2, fc3
    ft2 = ft2 + fc[3];
    // 8: tex ft3, v1, fs0 <2d, anisotropic2x, miplinear, repeat>
    ft3 = texture(fs0, v1.xy);
    // 9: mul ft3, ft3, ft2
    ft3 = ft3 * ft2;
    // 10: mul ft3, ft3, v2
    ft3 = ft3 * v2;
    // 11: mov oc0, ft3
    oc0 = ft3;
}
