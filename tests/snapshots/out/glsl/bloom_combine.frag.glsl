#version 330 core
// agal2spv: AGAL 2 fragment program, 18 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
uniform sampler2D fs0;
uniform sampler2D fs1;
in vec4 v0;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    vec4 ft3 = vec4(0.0);
    vec4 ft4 = vec4(0.0);
    vec4 ft5 = vec4(0.0);
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>
    ft0 = texture(fs0, v0.xy);
    // 2: tex ft1, v0, fs1 <2d, linear, mipnone, clamp>
    ft1 = texture(fs1, v0.xy);
    // 3: mul ft1, ft1, fc0.x
    ft1 = ft1 * fc[0].x;
    // 4: add ft0, ft0, ft1
    ft0 = ft0 + ft1;
    // 5: mul ft0.xyz, ft0.xyz, fc0.y
    ft0.xyz = ft0.xyz * fc[0].y;
    // 6: abs ft0.xyz, ft0.xyz
    ft0.xyz = abs(ft0.xyz);
    // 7: abs ft4.x, fc1.x
    ft4.x = abs(fc[1].x);
    // 8: add ft3.xyz, ft0.xyz, ft4.x
    ft3.xyz = ft0.xyz + ft4.x;
    // 9: div ft0.xyz, ft0.xyz, ft3.xyz
    ft0.xyz = ft0.xyz / ft3.xyz;
    // 10: abs ft4.y, fc1.z
    ft4.y = abs(fc[1].z);
    // 11: add ft0.xyz, ft0.xyz, ft4.y
    ft0.xyz = ft0.xyz + ft4.y;
    // 12: sat ft0.xyz, ft0.xyz
    ft0.xyz = clamp(ft0.xyz, 0.0, 1.0);
    // 13: log ft5.xyz, ft0.xyz
    ft5.xyz = log2(ft0.xyz);
    // 14: abs ft4.z, fc1.y
    ft4.z = abs(fc[1].y);
    // 15: mul ft5.xyz, ft5.xyz, ft4.z
    ft5.xyz = ft5.xyz * ft4.z;
    // 16: exp ft0.xyz, ft5.xyz
    ft0.xyz = exp2(ft5.xyz);
    // 17: sat ft0, ft0
    ft0 = clamp(ft0, 0.0, 1.0);
    // 18: mov oc0, ft0
    oc0 = ft0;
}
