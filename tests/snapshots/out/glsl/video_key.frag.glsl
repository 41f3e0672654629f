#version 330 core
// agal2spv: AGAL 2 fragment program, 11 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
uniform sampler2D fs0;
in vec4 v0;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    vec4 fd = vec4(0.0);
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp, video>
    ft0 = texture(fs0, v0.xy);
    // 2: sub ft1.xyz, ft0.xyz, fc0.xyz
    ft1.xyz = ft0.xyz - fc[0].xyz;
    // 3: dp3 ft1.x, ft1.xyz, ft1.xyz
    ft1.x = dot(ft1.xyz, ft1.xyz);
    // 4: sqt ft1.x, ft1.x
    ft1.x = sqrt(ft1.x);
    // 5: sub ft1.y, ft1.x, fc1.x
    ft1.y = ft1.x - fc[1].x;
    // 6: kil ft1.y
    if (ft1.y < 0.0) discard;
    // 7: mul ft1.z, ft1.y, fc1.y
    ft1.z = ft1.y * fc[1].y;
    // 8: sat ft1.z, ft1.z
    ft1.z = clamp(ft1.z, 0.0, 1.0);
    // 9: mul ft0, ft0, ft1.z
    ft0 = ft0 * ft1.z;
    // 10: mov fd.x, fc2.x
    fd.x = fc[2].x;
    // 11: mov oc0, ft0
    oc0 = ft0;
    gl_FragDepth = fd.x;
}
