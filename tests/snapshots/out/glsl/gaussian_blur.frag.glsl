#version 330 core
// agal2spv: AGAL 2 fragment program, 27 tokens
layout(std140) uniform agal_fc_block { vec4 fc[64]; };
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
    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>
    ft0 = texture(fs0, v0.xy);
    // 2: mul ft0, ft0, fc2.x
    ft0 = ft0 * fc[2].x;
    // 3: add ft1, v0.xyxy, fc4
    ft1 = v0.xyxy + fc[4];
    // 4: sub ft2, v0.xyxy, fc4
    ft2 = v0.xyxy - fc[4];
    // 5: tex ft3, ft1.xy, fs0 <2d, linear, mipnone, clamp>
    ft3 = texture(fs0, ft1.xy);
    // 6: tex ft4, ft2.xy, fs0 <2d, linear, mipnone, clamp>
    ft4 = texture(fs0, ft2.xy);
    // 7: add ft3, ft3, ft4
    ft3 = ft3 + ft4;
    // 8: mul ft3, ft3, fc2.y
    ft3 = ft3 * fc[2].y;
    // 9: add ft0, ft0, ft3
    ft0 = ft0 + ft3;
    // 10: tex ft3, ft1.zw, fs0 <2d, linear, mipnone, clamp>
    ft3 = texture(fs0, ft1.zw);
    // 11: tex ft4, ft2.zw, fs0 <2d, linear, mipnone, clamp>
    ft4 = texture(fs0, ft2.zw);
    // 12: add ft3, ft3, ft4
    ft3 = ft3 + ft4;
    // 13: mul ft3, ft3, fc2.z
    ft3 = ft3 * fc[2].z;
    // 14: add ft0, ft0, ft3
    ft0 = ft0 + ft3;
    // 15: add ft1, v0.xyxy, fc5
    ft1 = v0.xyxy + fc[5];
    // 16: sub ft2, v0.xyxy, fc5
    ft2 = v0.xyxy - fc[5];
    // 17: tex ft3, ft1.xy, fs0 <2d, linear, mipnone, clamp>
    ft3 = texture(fs0, ft1.xy);
    // 18: tex ft4, ft2.xy, fs0 <2d, linear, mipnone, clamp>
    ft4 = texture(fs0, ft2.xy);
    // 19: add ft3, ft3, ft4
    ft3 = ft3 + ft4;
    // 20: mul ft3, ft3, fc2.w
    ft3 = ft3 * fc[2].w;
    // 21: add ft0, ft0, ft3
    ft0 = ft0 + ft3;
    // 22: tex ft3, ft1.zw, fs0 <2d, linear, mipnone, clamp>
    ft3 = texture(fs0, ft1.zw);
    // 23: tex ft4, ft2.zw, fs0 <2d, linear, mipnone, clamp>
    ft4 = texture(fs0, ft2.zw);
    // 24: add ft3, ft3, ft4
    ft3 = ft3 + ft4;
    // 25: mul ft3, ft3, fc3.x
    ft3 = ft3 * fc[3].x;
    // 26: add ft0, ft0, ft3
    ft0 = ft0 + ft3;
    // 27: mov oc0, ft0
    oc0 = ft0;
}
