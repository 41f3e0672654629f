#version 330 core
// agal2spv: AGAL 1 fragment program, 26 tokens
layout(std140) uniform agal_fc_block { vec4 fc[28]; };
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
in vec4 v2;
in vec4 v3;
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
    // 1: nrm ft0.xyz, v0.xyz
    ft0.xyz = normalize(v0.xyz);
    // 2: nrm ft1.xyz, v1.xyz
    ft1.xyz = normalize(v1.xyz);
    // 3: nrm ft2.xyz, v2.xyz
    ft2.xyz = normalize(v2.xyz);
    // 4: dp3 ft3.x, ft0.xyz, ft1.xyz
    ft3.x = dot(ft0.xyz, ft1.xyz);
    // 5: add ft3.y, ft3.x, ft3.x
    ft3.y = ft3.x + ft3.x;
    // 6: mul ft4.xyz, ft0.xyz, ft3.y
    ft4.xyz = ft0.xyz * ft3.y;
    // 7: sub ft4.xyz, ft4.xyz, ft1.xyz
    ft4.xyz = ft4.xyz - ft1.xyz;
    // 8: dp3 ft3.z, ft4.xyz, ft2.xyz
    ft3.z = dot(ft4.xyz, ft2.xyz);
    // 9: sat ft3.xz, ft3.xz
    ft3.xz = clamp(ft3.xz, 0.0, 1.0);
    // 10: abs ft3.w, fc2.x
    ft3.w = abs(fc[2].x);
    // 11: pow ft3.z, ft3.z, ft3.w
    ft3.z = pow(ft3.z, ft3.w);
    // 12: dp3 ft5.x, v1.xyz, v1.xyz
    ft5.x = dot(v1.xyz, v1.xyz);
    // 13: abs ft5.y, fc2.y
    ft5.y = abs(fc[2].y);
    // 14: mul ft5.x, ft5.x, ft5.y
    ft5.x = ft5.x * ft5.y;
    // 15: abs ft5.z, fc2.z
    ft5.z = abs(fc[2].z);
    // 16: add ft5.z, ft5.z, ft5.y
    ft5.z = ft5.z + ft5.y;
    // 17: add ft5.x, ft5.x, ft5.z
    ft5.x = ft5.x + ft5.z;
    // 18: rcp ft5.x, ft5.x
    ft5.x = 1.0 / ft5.x;
    // 19: tex ft6, v3, fs0 <2d, linear, miplinear, repeat>
    ft6 = texture(fs0, v3.xy);
    // 20: mul ft7, fc0, ft3.x
    ft7 = fc[0] * ft3.x;
    // 21: add ft7, ft7, fc1
    ft7 = ft7 + fc[1];
    // 22: mul ft6, ft6, ft7
    ft6 = ft6 * ft7;
    // 23: mul ft7, fc0, ft3.z
    ft7 = fc[0] * ft3.z;
    // 24: add ft6, ft6, ft7
    ft6 = ft6 + ft7;
    // 25: mul ft6.xyz, ft6.xyz, ft5.x
    ft6.xyz = ft6.xyz * ft5.x;
    // 26: mov oc0, ft6
    oc0 = ft6;
}
