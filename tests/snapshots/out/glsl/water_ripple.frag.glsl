#version 330 core
// agal2spv: AGAL 2 fragment program, 14 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    vec4 ft2 = vec4(0.0);
    // 1: mul ft0.xy, v1.wz, fc0.x
    ft0.xy = v1.wz * fc[0].x;
    // 2: add ft0.xy, ft0.xy, v0.xy
    ft0.xy = ft0.xy + v0.xy;
    // 3: sub ft1.xy, v0.xy, fc1.xy
    ft1.xy = v0.xy - fc[1].xy;
    // 4: mul ft1.xy, ft1.xy, ft1.xy
    ft1.xy = ft1.xy * ft1.xy;
    // 5: add ft1.x, ft1.x, ft1.y
    ft1.x = ft1.x + ft1.y;
    // 6: sqt ft1.x, ft1.x
    ft1.x = sqrt(ft1.x);
    // 7: mul ft1.y, ft1.x, fc1.z
    ft1.y = ft1.x * fc[1].z;
    // 8: sub ft1.y, ft1.y, fc1.w
    ft1.y = ft1.y - fc[1].w;
    // 9: sin ft1.z, ft1.y
    ft1.z = sin(ft1.y);
    // 10: mul ft1.z, ft1.z, fc0.y
    ft1.z = ft1.z * fc[0].y;
    // 11: add ft0.xy, ft0.xy, ft1.z
    ft0.xy = ft0.xy + ft1.z;
    // 12: tex ft2, ft0.xy, fs0 <2d, linear, miplinear, repeat, 0.25>
    ft2 = texture(fs0, ft0.xy, 0.25);
    // 13: mul ft2, ft2, fc2
    ft2 = ft2 * fc[2];
    // 14: mov oc0, ft2
    oc0 = ft2;
}
