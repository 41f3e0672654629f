#version 330 core
in vec4 v0;
layout(std140) uniform agal_fc_block { vec4 fc[4]; };
uniform sampler2D fs0;
layout(location = 0) out vec4 oc0;
layout(location = 1) out vec4 oc1;
void main()
{
    if (v0.x < 0.0)
        discard;
    oc0 = v0 + fc[0];
    oc1 = texture(fs0, v0.xy * fc[1].xy);
    gl_FragDepth = v0.z;
}
