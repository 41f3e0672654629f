#version 330 core
// agal2spv: AGAL 1 fragment program, 5 tokens
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
in vec4 v2;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    // 1: tex ft0, v2, fs0 <2d, linear, miplinear, repeat>
    ft0 = texture(fs0, v2.xy);
    // 2: mul ft0, ft0, v0
    ft0 = ft0 * v0;
    // 3: add ft0.xyz, ft0.xyz, v1.xyz
    ft0.xyz = ft0.xyz + v1.xyz;
    // 4: sat ft0, ft0
    ft0 = clamp(ft0, 0.0, 1.0);
    // 5: mov oc0, ft0
    oc0 = ft0;
}
