#version 330 core
// agal2spv: AGAL 2 fragment program, 7 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
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
    // 1: nrm ft0.xyz, v0.xyz
    ft0.xyz = normalize(v0.xyz);
    // 2: dp3 ft1.x, ft0.xyz, fc0.xyz
    ft1.x = dot(ft0.xyz, fc[0].xyz);
    // 3: sat ft1.x, ft1.x
    ft1.x = clamp(ft1.x, 0.0, 1.0);
    // 4: tex ft2, v1, fs0 <2d, linear, miplinear, repeat>
    ft2 = texture(fs0, v1.xy);
    // 5: mul ft2.xyz, ft2.xyz, ft1.x
    ft2.xyz = ft2.xyz * ft1.x;
    // 6: mul ft2, ft2, v2
    ft2 = ft2 * v2;
    // 7: mov oc0, ft2
    oc0 = ft2;
}
