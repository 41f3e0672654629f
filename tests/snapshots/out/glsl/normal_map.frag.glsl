#version 330 core
// agal2spv: AGAL 2 fragment program, 21 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
uniform sampler2D fs0;
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
    // 1: tex ft0, v2, fs0 <2d, anisotropic4x, miplinear, repeat, dxt5>
    ft0 = texture(fs0, v2.xy);
    // 2: mul ft0.xyz, ft0.xyz, fc0.x
    ft0.xyz = ft0.xyz * fc[0].x;
    // 3: sub ft0.xyz, ft0.xyz, fc0.y
    ft0.xyz = ft0.xyz - fc[0].y;
    // 4: nrm ft0.xyz, ft0.xyz
    ft0.xyz = normalize(ft0.xyz);
    // 5: nrm ft1.xyz, v0.xyz
    ft1.xyz = normalize(v0.xyz);
    // 6: nrm ft2.xyz, v1.xyz
    ft2.xyz = normalize(v1.xyz);
    // 7: add ft3.xyz, ft1.xyz, ft2.xyz
    ft3.xyz = ft1.xyz + ft2.xyz;
    // 8: nrm ft3.xyz, ft3.xyz
    ft3.xyz = normalize(ft3.xyz);
    // 9: dp3 ft4.x, ft0.xyz, ft1.xyz
    ft4.x = dot(ft0.xyz, ft1.xyz);
    // 10: sat ft4.x, ft4.x
    ft4.x = clamp(ft4.x, 0.0, 1.0);
    // 11: dp3 ft4.y, ft0.xyz, ft3.xyz
    ft4.y = dot(ft0.xyz, ft3.xyz);
    // 12: sat ft4.y, ft4.y
    ft4.y = clamp(ft4.y, 0.0, 1.0);
    // 13: abs ft4.z, fc0.z
    ft4.z = abs(fc[0].z);
    // 14: pow ft4.y, ft4.y, ft4.z
    ft4.y = pow(ft4.y, ft4.z);
    // 15: tex ft5, v2, fs1 <2d, anisotropic4x, miplinear, repeat, dxt1>
    ft5 = texture(fs1, v2.xy);
    // 16: mul ft6, fc1, ft4.x
    ft6 = fc[1] * ft4.x;
    // 17: add ft6, ft6, fc2
    ft6 = ft6 + fc[2];
    // 18: mul ft5, ft5, ft6
    ft5 = ft5 * ft6;
    // 19: mul ft6.xyz, fc1.xyz, ft4.y
    ft6.xyz = fc[1].xyz * ft4.y;
    // 20: add ft5.xyz, ft5.xyz, ft6.xyz
    ft5.xyz = ft5.xyz + ft6.xyz;
    // 21: mov oc0, ft5
    oc0 = ft5;
}
