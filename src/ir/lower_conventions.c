/* lower_conventions.c: where Stage3D's conventions and the target's differ, decided
 * once for every emitter (ir.h, agal_ir_conventions).
 *
 * Stage3D's clip space is Direct3D's: +y up, depth 0..w. Its screen, and so its
 * ddy, runs down the rows. The target gives two facts: its window's y (GL's points
 * up, Vulkan's down) and op's mapping (the clip option, the target's own by
 * default):
 * - AGAL_CLIP_VULKAN negates y (Vulkan's clip space has y down); depth is kept,
 *   since Vulkan's is 0..w too.
 * - AGAL_CLIP_GL maps depth to GL's -w..w; y stays up, as GL's clip space has it.
 * - AGAL_CLIP_NONE leaves op as written: the runtime fixes it with viewport state.
 * - ddy: d/dy is taken along the window's rows. Vulkan's run down, as Stage3D's:
 *   ddy is d/dy whatever op's mapping (with GL's or no mapping a Vulkan runtime
 *   flips with its viewport, which keeps the rows). GL's run up, so ddy is -d/dy,
 *   unless the shader itself negates y (AGAL_CLIP_VULKAN on GL), which turns the
 *   image over and the rows with it.
 * Every target also multiplies op.y and ddy by the runtime's render-to-texture flip,
 * which the emitters declare (a specialization constant, a uniform). */
#include "ir.h"

void agal_conventions(bool window_y_up, agal_clip clip, agal_ir_conventions *out)
{
    out->negate_y = clip == AGAL_CLIP_VULKAN;
    out->gl_depth = clip == AGAL_CLIP_GL;
    out->ddy_negate = window_y_up && !out->negate_y;
}

agal_status agal_lower_conventions(agal_ir *ir, bool *changed)
{
    agal_ir_conventions was = ir->conv;
    agal_conventions(ir->window_y_up, ir->clip, &ir->conv);
    *changed = memcmp(&was, &ir->conv, sizeof was) != 0;
    return AGAL_OK;
}
