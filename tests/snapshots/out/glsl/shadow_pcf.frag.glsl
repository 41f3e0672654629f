#version 330 core
// agal2spv: AGAL 2 fragment program, 19 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
uniform sampler2D fs0;
uniform sampler2D fs1;
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
    vec4 ft6 = vec4(0.0);
    vec4 ft7 = vec4(0.0);
    // 1: div ft0, v0, v0.w
    ft0 = v0 / v0.w;
    // 2: mul ft0.xy, ft0.xy, fc0.xy
    ft0.xy = ft0.xy * fc[0].xy;
    // 3: add ft0.xy, ft0.xy, fc0.zw
    ft0.xy = ft0.xy + fc[0].zw;
    // 4: sub ft0.z, ft0.z, fc1.x
    ft0.z = ft0.z - fc[1].x;
    // 5: add ft1, ft0.xyxy, fc2
    ft1 = ft0.xyxy + fc[2];
    // 6: add ft2, ft0.xyxy, fc3
    ft2 = ft0.xyxy + fc[3];
    // 7: tex ft3, ft1.xy, fs0 <2d, nearest, mipnone, clamp>
    ft3 = texture(fs0, ft1.xy);
    // 8: tex ft4, ft1.zw, fs0 <2d, nearest, mipnone, clamp>
    ft4 = texture(fs0, ft1.zw);
    // 9: tex ft5, ft2.xy, fs0 <2d, nearest, mipnone, clamp>
    ft5 = texture(fs0, ft2.xy);
    // 10: tex ft6, ft2.zw, fs0 <2d, nearest, mipnone, clamp>
    ft6 = texture(fs0, ft2.zw);
    // 11: sge ft7.x, ft3.x, ft0.z
    ft7.x = float(ft3.x >= ft0.z);
    // 12: sge ft7.y, ft4.x, ft0.z
    ft7.y = float(ft4.x >= ft0.z);
    // 13: sge ft7.z, ft5.x, ft0.z
    ft7.z = float(ft5.x >= ft0.z);
    // 14: slt ft7.w, ft0.z, ft6.x
    ft7.w = float(ft0.z < ft6.x);
    // 15: dp4 ft7.x, ft7, fc4
    ft7.x = dot(ft7, fc[4]);
    // 16: max ft7.x, ft7.x, fc1.y
    ft7.x = max(ft7.x, fc[1].y);
    // 17: tex ft3, v1, fs1 <2d, linear, miplinear, repeat>
    ft3 = texture(fs1, v1.xy);
    // 18: mul ft3.xyz, ft3.xyz, ft7.x
    ft3.xyz = ft3.xyz * ft7.x;
    // 19: mov oc0, ft3
    oc0 = ft3;
}
