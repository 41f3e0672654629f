#version 330 core
// agal2spv: AGAL 1 fragment program, 8 tokens
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
    // 1: tex ft0, v1, fs0 <2d, linear, miplinear, repeat>
    ft0 = texture(fs0, v1.xy);
    // 2: dp3 ft1.x, v0.yzw, fc1.xyz
    ft1.x = dot(v0.yzw, fc[1].xyz);
    // 3: sat ft1.x, ft1.x
    ft1.x = clamp(ft1.x, 0.0, 1.0);
    // 4: sub ft2, ft0, fc0
    ft2 = ft0 - fc[0];
    // 5: mul ft2, ft2, ft1.x
    ft2 = ft2 * ft1.x;
    // 6: add ft2.xyz, ft2.xyz, fc0.xyz
    ft2.xyz = ft2.xyz + fc[0].xyz;
    // 7: mov ft2.w, ft0.w
    ft2.w = ft0.w;
    // 8: mov oc0, ft2
    oc0 = ft2;
}
