#version 330 core
// agal2spv: AGAL 3 fragment program, 8 tokens
layout(std140) uniform agal_fc_block { vec4 fc[200]; };
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    vec4 ft2 = vec4(0.0);
    // 1: tex ft0, v0, fs0 <2d, linear, mipnearest, clamp>
    ft0 = texture(fs0, v0.xy);
    // 2: mul ft0, ft0, v1
    ft0 = ft0 * v1;
    // 3: sub ft1.x, ft0.w, fc150.x
    ft1.x = ft0.w - fc[150].x;
    // 4: kil ft1.x
    if (ft1.x < 0.0) discard;
    // 5: sub ft2.xyz, fc199.xyz, ft0.xyz
    ft2.xyz = fc[199].xyz - ft0.xyz;
    // 6: mul ft2.xyz, ft2.xyz, fc199.w
    ft2.xyz = ft2.xyz * fc[199].w;
    // 7: add ft0.xyz, ft0.xyz, ft2.xyz
    ft0.xyz = ft0.xyz + ft2.xyz;
    // 8: mov oc0, ft0
    oc0 = ft0;
}
