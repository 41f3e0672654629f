#version 330 core
// agal2spv: AGAL 2 fragment program, 20 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
uniform float agal_yflip = 1.0;
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    vec4 ft2 = vec4(0.0);
    vec4 ft3 = vec4(0.0);
    vec4 ft4 = vec4(0.0);
    vec4 ft5 = vec4(0.0);
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>
    ft0 = texture(fs0, v0.xy);
    // 2: dp3 ft1.x, ft0.xyz, fc0.xyz
    ft1.x = dot(ft0.xyz, fc[0].xyz);
    // 3: ddx ft2.x, ft1.x
    ft2.x = dFdx(ft1.x);
    // 4: ddy ft2.y, ft1.x
    ft2.y = dFdy(ft1.x) * -agal_yflip;
    // 5: abs ft2.xy, ft2.xy
    ft2.xy = abs(ft2.xy);
    // 6: add ft2.z, ft2.x, ft2.y
    ft2.z = ft2.x + ft2.y;
    // 7: mul ft2.z, ft2.z, fc1.x
    ft2.z = ft2.z * fc[1].x;
    // 8: sat ft2.z, ft2.z
    ft2.z = clamp(ft2.z, 0.0, 1.0);
    // 9: ddx ft3, v1
    ft3 = dFdx(v1);
    // 10: ddy ft4, v1
    ft4 = dFdy(v1) * -agal_yflip;
    // 11: abs ft3, ft3
    ft3 = abs(ft3);
    // 12: abs ft4, ft4
    ft4 = abs(ft4);
    // 13: add ft3, ft3, ft4
    ft3 = ft3 + ft4;
    // 14: dp4 ft3.x, ft3, fc2
    ft3.x = dot(ft3, fc[2]);
    // 15: sge ft3.y, ft3.x, fc1.y
    ft3.y = float(ft3.x >= fc[1].y);
    // 16: max ft2.z, ft2.z, ft3.y
    ft2.z = max(ft2.z, ft3.y);
    // 17: sub ft5, fc3, ft0
    ft5 = fc[3] - ft0;
    // 18: mul ft5, ft5, ft2.z
    ft5 = ft5 * ft2.z;
    // 19: add ft0, ft0, ft5
    ft0 = ft0 + ft5;
    // 20: mov oc0, ft0
    oc0 = ft0;
}
