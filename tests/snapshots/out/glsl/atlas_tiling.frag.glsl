#version 330 core
// agal2spv: AGAL 1 fragment program, 9 tokens
layout(std140) uniform agal_fc_block { vec4 fc[28]; };
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    // 1: mul ft0, v0, fc0
    ft0 = v0 * fc[0];
    // 2: frc ft0, ft0
    ft0 = fract(ft0);
    // 3: mul ft0, ft0, fc1.zwzw
    ft0 = ft0 * fc[1].zwzw;
    // 4: add ft0, ft0, fc1.xyxy
    ft0 = ft0 + fc[1].xyxy;
    // 5: max ft0.xy, ft0.xy, fc2.xy
    ft0.xy = max(ft0.xy, fc[2].xy);
    // 6: min ft0.xy, ft0.xy, fc2.zw
    ft0.xy = min(ft0.xy, fc[2].zw);
    // 7: tex ft1, ft0.xy, fs0 <2d, nearest, mipnone, clamp>
    ft1 = texture(fs0, ft0.xy);
    // 8: mul ft1, ft1, v1
    ft1 = ft1 * v1;
    // 9: mov oc0, ft1
    oc0 = ft1;
}
