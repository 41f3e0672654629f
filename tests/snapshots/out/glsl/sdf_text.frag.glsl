#version 330 core
// agal2spv: AGAL 1 fragment program, 9 tokens
layout(std140) uniform agal_fc_block { vec4 fc[28]; };
uniform sampler2D fs0;
in vec4 v0;
in vec4 v1;
layout(location = 0) out vec4 oc0;

void main()
{
    vec4 ft0 = vec4(0.0);
    vec4 ft1 = vec4(0.0);
    vec4 ft2 = vec4(0.0);
    vec4 ft3 = vec4(0.0);
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp, centroid, -0.5>
    ft0 = texture(fs0, v0.xy, -0.5);
    // 2: sub ft3.x, ft0.w, fc0.w
    ft3.x = ft0.w - fc[0].w;
    // 3: kil ft3.x
    if (ft3.x < 0.0) discard;
    // 4: sub ft1.x, ft0.w, fc0.x
    ft1.x = ft0.w - fc[0].x;
    // 5: mul ft1.x, ft1.x, fc0.y
    ft1.x = ft1.x * fc[0].y;
    // 6: add ft1.x, ft1.x, fc0.z
    ft1.x = ft1.x + fc[0].z;
    // 7: sat ft1.x, ft1.x
    ft1.x = clamp(ft1.x, 0.0, 1.0);
    // 8: mul ft2, v1, ft1.x
    ft2 = v1 * ft1.x;
    // 9: mov oc0, ft2
    oc0 = ft2;
}
