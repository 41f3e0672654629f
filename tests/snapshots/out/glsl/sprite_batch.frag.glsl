#version 330 core
// agal2spv: AGAL 1 fragment program, 5 tokens
layout(std140) uniform agal_fc_block { vec4 fc[28]; };
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>
    ft0 = texture(fs0, v0.xy);
    // 2: mul ft0, ft0, v1
    ft0 = ft0 * v1;
    // 3: mul ft0.xyz, ft0.xyz, v1.w
    ft0.xyz = ft0.xyz * v1.w;
    // 4: mul ft0, ft0, fc0.x
    ft0 = ft0 * fc[0].x;
    // 5: mov oc0, ft0
    oc0 = ft0;
}
