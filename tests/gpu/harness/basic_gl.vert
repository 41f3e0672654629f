#version 330 core
// Hand-written stand-in for the GLSL emitter's output (docs/binding-models.md,
// z -> 2z - w, agal_yflip): tests harness_gl.c.
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
layout(std140) uniform agal_vc_block { vec4 vc[4]; };
uniform float agal_yflip = 1.0;
out vec4 v0;
void main()
{
    v0 = va1 * vc[0] + vc[1] * float(gl_InstanceID);
    vec4 p = va0;
    p.z = 2.0 * p.z - p.w;
    p.y *= agal_yflip;
    gl_Position = p;
}
