#version 330 core
// agal2spv: AGAL 2 fragment program, 5 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    // 1: tex ft0, v1, fs0 <2d, linear, mipnone, clamp>
    ft0 = texture(fs0, v1.xy);
    // 2: mul ft0, ft0, v0
    ft0 = ft0 * v0;
    // 3: sub ft1.x, ft0.w, fc0.x
    ft1.x = ft0.w - fc[0].x;
    // 4: kil ft1.x
    if (ft1.x < 0.0) discard;
    // 5: mov oc0, ft0
    oc0 = ft0;
}
