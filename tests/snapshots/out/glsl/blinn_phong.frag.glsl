#version 330 core
// agal2spv: AGAL 2 fragment program, 26 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
uniform sampler2D fs0;
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
    // 1: nrm ft0.xyz, v0.xyz
    ft0.xyz = normalize(v0.xyz);
    // 2: sub ft1.xyz, fc0.xyz, v1.xyz
    ft1.xyz = fc[0].xyz - v1.xyz;
    // 3: dp3 ft1.w, ft1.xyz, ft1.xyz
    ft1.w = dot(ft1.xyz, ft1.xyz);
    // 4: rsq ft2.x, ft1.w
    ft2.x = inversesqrt(ft1.w);
    // 5: mul ft1.xyz, ft1.xyz, ft2.x
    ft1.xyz = ft1.xyz * ft2.x;
    // 6: sub ft3.xyz, fc1.xyz, v1.xyz
    ft3.xyz = fc[1].xyz - v1.xyz;
    // 7: nrm ft3.xyz, ft3.xyz
    ft3.xyz = normalize(ft3.xyz);
    // 8: add ft4.xyz, ft1.xyz, ft3.xyz
    ft4.xyz = ft1.xyz + ft3.xyz;
    // 9: nrm ft4.xyz, ft4.xyz
    ft4.xyz = normalize(ft4.xyz);
    // 10: dp3 ft5.x, ft0.xyz, ft1.xyz
    ft5.x = dot(ft0.xyz, ft1.xyz);
    // 11: sat ft5.x, ft5.x
    ft5.x = clamp(ft5.x, 0.0, 1.0);
    // 12: dp3 ft5.y, ft0.xyz, ft4.xyz
    ft5.y = dot(ft0.xyz, ft4.xyz);
    // 13: sat ft5.y, ft5.y
    ft5.y = clamp(ft5.y, 0.0, 1.0);
    // 14: abs ft5.z, fc2.x
    ft5.z = abs(fc[2].x);
    // 15: pow ft5.y, ft5.y, ft5.z
    ft5.y = pow(ft5.y, ft5.z);
    // 16: mul ft5.w, ft2.x, ft2.x
    ft5.w = ft2.x * ft2.x;
    // 17: mul ft5.w, ft5.w, fc2.y
    ft5.w = ft5.w * fc[2].y;
    // 18: sat ft5.w, ft5.w
    ft5.w = clamp(ft5.w, 0.0, 1.0);
    // 19: tex ft6, v2, fs0 <2d, anisotropic8x, miplinear, repeat>
    ft6 = texture(fs0, v2.xy);
    // 20: mul ft7, fc3, ft5.x
    ft7 = fc[3] * ft5.x;
    // 21: add ft7, ft7, fc4
    ft7 = ft7 + fc[4];
    // 22: mul ft6, ft6, ft7
    ft6 = ft6 * ft7;
    // 23: mul ft7, fc3, ft5.y
    ft7 = fc[3] * ft5.y;
    // 24: add ft6.xyz, ft6.xyz, ft7.xyz
    ft6.xyz = ft6.xyz + ft7.xyz;
    // 25: mul ft6.xyz, ft6.xyz, ft5.w
    ft6.xyz = ft6.xyz * ft5.w;
    // 26: mov oc0, ft6
    oc0 = ft6;
}
