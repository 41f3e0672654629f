#version 330 core
// agal2spv: AGAL 2 fragment program, 19 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
uniform sampler2D fs0;
uniform sampler2D fs1;
uniform sampler2D fs2;
uniform sampler2D fs3;
uniform sampler2D fs4;
in vec4 v0;
in vec4 v1;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    vec4 ft2 = vec4(0.0);
    vec4 ft3 = vec4(0.0);
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>
    ft0 = texture(fs0, v0.xy);
    // 2: tex ft1, v1, fs1 <2d, anisotropic2x, mipnearest, repeat, dxt1>
    ft1 = texture(fs1, v1.xy);
    // 3: mul ft1, ft1, ft0.x
    ft1 = ft1 * ft0.x;
    // 4: tex ft2, v1, fs2 <2d, anisotropic16x, miplinear, clamp_u_repeat_v, dxt1>
    ft2 = texture(fs2, v1.xy);
    // 5: mul ft2, ft2, ft0.y
    ft2 = ft2 * ft0.y;
    // 6: add ft1, ft1, ft2
    ft1 = ft1 + ft2;
    // 7: tex ft2, v1, fs3 <2d, linear, miplinear, repeat_u_clamp_v, dxt5>
    ft2 = texture(fs3, v1.xy);
    // 8: mul ft2, ft2, ft0.z
    ft2 = ft2 * ft0.z;
    // 9: add ft1, ft1, ft2
    ft1 = ft1 + ft2;
    // 10: tex ft2, v1.zw, fs4 <2d, nearest, mipnearest, repeat>
    ft2 = texture(fs4, v1.zw);
    // 11: mul ft2, ft2, ft0.w
    ft2 = ft2 * ft0.w;
    // 12: add ft1, ft1, ft2
    ft1 = ft1 + ft2;
    // 13: dp4 ft3.x, ft0, fc0
    ft3.x = dot(ft0, fc[0]);
    // 14: abs ft3.x, ft3.x
    ft3.x = abs(ft3.x);
    // 15: abs ft3.y, fc1.x
    ft3.y = abs(fc[1].x);
    // 16: add ft3.x, ft3.x, ft3.y
    ft3.x = ft3.x + ft3.y;
    // 17: rcp ft3.x, ft3.x
    ft3.x = 1.0 / ft3.x;
    // 18: mul ft1, ft1, ft3.x
    ft1 = ft1 * ft3.x;
    // 19: mov oc0, ft1
    oc0 = ft1;
}
