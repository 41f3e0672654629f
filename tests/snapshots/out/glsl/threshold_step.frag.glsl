#version 330 core
// agal2spv: AGAL 1 fragment program, 20 tokens
layout(std140) uniform agal_fc_block { vec4 fc[28]; };
uniform sampler2D fs0;
in vec4 v0;
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
    // 3: sge ft1.y, ft1.x, fc1.x
    ft1.y = float(ft1.x >= fc[1].x);
    // 4: slt ft1.z, ft1.x, fc1.y
    ft1.z = float(ft1.x < fc[1].y);
    // 5: add ft1.w, ft1.y, ft1.z
    ft1.w = ft1.y + ft1.z;
    // 6: mul ft2, ft0, fc2.x
    ft2 = ft0 * fc[2].x;
    // 7: frc ft3, ft2
    ft3 = fract(ft2);
    // 8: sub ft2, ft2, ft3
    ft2 = ft2 - ft3;
    // 9: mul ft2, ft2, fc2.y
    ft2 = ft2 * fc[2].y;
    // 10: sub ft4.xyz, ft0.xyz, ft1.x
    ft4.xyz = ft0.xyz - ft1.x;
    // 11: sgn ft4.xyz, ft4.xyz
    ft4.xyz = sign(ft4.xyz);
    // 12: mul ft4.xyz, ft4.xyz, ft1.w
    ft4.xyz = ft4.xyz * ft1.w;
    // 13: mul ft4.xyz, ft4.xyz, fc3.xyz
    ft4.xyz = ft4.xyz * fc[3].xyz;
    // 14: add ft2.xyz, ft2.xyz, ft4.xyz
    ft2.xyz = ft2.xyz + ft4.xyz;
    // 15: sne ft5.xyz, ft2.xyz, fc4.xyz
    ft5.xyz = vec3(not(equal(ft2.xyz, fc[4].xyz)));
    // 16: mul ft2.xyz, ft2.xyz, ft5.xyz
    ft2.xyz = ft2.xyz * ft5.xyz;
    // 17: seq ft5.w, ft2.w, fc4.w
    ft5.w = float(ft2.w == fc[4].w);
    // 18: max ft2.w, ft2.w, ft5.w
    ft2.w = max(ft2.w, ft5.w);
    // 19: sat ft2, ft2
    ft2 = clamp(ft2, 0.0, 1.0);
    // 20: mov oc0, ft2
    oc0 = ft2;
}
