#version 330 core
// agal2spv: AGAL 2 fragment program, 9 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    vec4 fd = vec4(0.0);
    // 1: tex ft0, v1, fs0 <2d, linear, mipnone, clamp>
    ft0 = texture(fs0, v1.xy);
    // 2: neg ft1.x, v0.z
    ft1.x = -v0.z;
    // 3: sub ft1.x, ft1.x, fc0.x
    ft1.x = ft1.x - fc[0].x;
    // 4: mul ft1.x, ft1.x, fc0.y
    ft1.x = ft1.x * fc[0].y;
    // 5: mul ft1.y, ft0.w, fc1.x
    ft1.y = ft0.w * fc[1].x;
    // 6: sub ft1.x, ft1.x, ft1.y
    ft1.x = ft1.x - ft1.y;
    // 7: sat ft1.x, ft1.x
    ft1.x = clamp(ft1.x, 0.0, 1.0);
    // 8: mov fd.x, ft1.x
    fd.x = ft1.x;
    // 9: mov oc0, ft0
    oc0 = ft0;
    gl_FragDepth = fd.x;
}
