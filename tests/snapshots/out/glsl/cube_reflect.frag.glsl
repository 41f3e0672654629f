#version 330 core
// agal2spv: AGAL 2 fragment program, 21 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
uniform samplerCube fs0;
uniform sampler2D fs1;
in vec4 v0;
in vec4 v1;
in vec4 v2;
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
    // 1: nrm ft0.xyz, v1.xyz
    ft0.xyz = normalize(v1.xyz);
    // 2: nrm ft1.xyz, v0.xyz
    ft1.xyz = normalize(v0.xyz);
    // 3: dp3 ft2.x, ft0.xyz, ft1.xyz
    ft2.x = dot(ft0.xyz, ft1.xyz);
    // 4: add ft2.y, ft2.x, ft2.x
    ft2.y = ft2.x + ft2.x;
    // 5: mul ft3.xyz, ft0.xyz, ft2.y
    ft3.xyz = ft0.xyz * ft2.y;
    // 6: sub ft3.xyz, ft1.xyz, ft3.xyz
    ft3.xyz = ft1.xyz - ft3.xyz;
    // 7: tex ft4, ft3.xyz, fs0 <cube, linear, miplinear, clamp>
    ft4 = texture(fs0, ft3.xyz);
    // 8: neg ft2.z, ft2.x
    ft2.z = -ft2.x;
    // 9: sat ft2.z, ft2.z
    ft2.z = clamp(ft2.z, 0.0, 1.0);
    // 10: sub ft2.w, fc0.x, ft2.z
    ft2.w = fc[0].x - ft2.z;
    // 11: sat ft2.w, ft2.w
    ft2.w = clamp(ft2.w, 0.0, 1.0);
    // 12: abs ft5.x, fc0.y
    ft5.x = abs(fc[0].y);
    // 13: pow ft2.w, ft2.w, ft5.x
    ft2.w = pow(ft2.w, ft5.x);
    // 14: mul ft5.z, ft2.w, fc0.w
    ft5.z = ft2.w * fc[0].w;
    // 15: add ft5.z, ft5.z, fc0.z
    ft5.z = ft5.z + fc[0].z;
    // 16: sat ft5.z, ft5.z
    ft5.z = clamp(ft5.z, 0.0, 1.0);
    // 17: tex ft6, v2, fs1 <2d, linear, miplinear, repeat>
    ft6 = texture(fs1, v2.xy);
    // 18: sub ft7, ft4, ft6
    ft7 = ft4 - ft6;
    // 19: mul ft7, ft7, ft5.z
    ft7 = ft7 * ft5.z;
    // 20: add ft6, ft6, ft7
    ft6 = ft6 + ft7;
    // 21: mov oc0, ft6
    oc0 = ft6;
}
