#version 330 core
// agal2spv: AGAL 1 fragment program, 1 tokens
uniform samplerCube fs0;
in vec4 v0;
layout(location = 0) out vec4 oc0;

void main()
{
    // 1: tex oc0, v0, fs0 <cube, linear, miplinear, clamp>
    oc0 = texture(fs0, v0.xyz);
}
