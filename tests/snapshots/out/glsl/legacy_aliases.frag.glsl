#version 330 core
// agal2spv: AGAL 1 fragment program, 3 tokens
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    // 1: tex ft0, v0, fs0 <2d, linear, mipnearest, repeat>
    ft0 = texture(fs0, v0.xy);
    // 2: mul ft0, ft0, v1
    ft0 = ft0 * v1;
    // 3: mov oc0, ft0
    oc0 = ft0;
}
