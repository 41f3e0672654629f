#version 450
// Hand-written stand-in for the SPIR-V emitter's output (docs/binding-models.md,
// y negated, xfb option): tests harness_vk.c before and independently of the emitter.
layout(location = 0) in vec4 va0;
layout(location = 1) in vec4 va1;
layout(std140, set = 0, binding = 0) uniform agal_vc_block { vec4 vc[4]; };
layout(xfb_buffer = 0, xfb_stride = 32) out;
layout(location = 0, xfb_buffer = 0, xfb_offset = 16) out vec4 v0;
out gl_PerVertex { layout(xfb_buffer = 0, xfb_offset = 0) vec4 gl_Position; };
void main()
{
    v0 = va1 * vc[0] + vc[1] * float(gl_InstanceIndex);
    vec4 p = va0;
    p.y = -p.y;
    gl_Position = p;
}
