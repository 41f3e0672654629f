#version 330 core
// agal2spv: AGAL 2 fragment program, 11 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
in vec4 v2;
layout(location = 0) out vec4 oc0;
layout(location = 1) out vec4 oc1;
layout(location = 2) out vec4 oc2;
layout(location = 3) out vec4 oc3;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    vec4 ft2 = vec4(0.0);
    // 1: tex ft0, v2, fs0 <2d, linear, miplinear, repeat>
    ft0 = texture(fs0, v2.xy);
    // 2: mov oc0, ft0
    oc0 = ft0;
    // 3: nrm ft1.xyz, v1.xyz
    ft1.xyz = normalize(v1.xyz);
    // 4: mul ft1.xyz, ft1.xyz, fc0.xyz
    ft1.xyz = ft1.xyz * fc[0].xyz;
    // 5: add ft1.xyz, ft1.xyz, fc0.xyz
    ft1.xyz = ft1.xyz + fc[0].xyz;
    // 6: mov ft1.w, fc0.w
    ft1.w = fc[0].w;
    // 7: mov oc1, ft1
    oc1 = ft1;
    // 8: mov oc2, v0
    oc2 = v0;
    // 9: mov ft2, fc1
    ft2 = fc[1];
    // 10: mul ft2.z, ft2.z, ft0.w
    ft2.z = ft2.z * ft0.w;
    // 11: mov oc3, ft2
    oc3 = ft2;
}
