/* lower_unread_varyings.c: a vertex program's varyings that no fragment program reads are
 * not outputs (the upload knows which its fragment program reads): their stores
 * go, and dead code then drops what computed them only for that. No driver then
 * warns about an output nothing consumes. Required when the pipeline is asked for
 * it (agal_ir_options.unread_varyings). */
#include "ir.h"

/* Out of line, so that a program with none to drop (most) does not pay for its frame. */
static AGAL_NOINLINE void drop_stores(agal_ir *ir, uint16_t drop, bool *changed)
{
    agal_ir_list *body = &ir->lists[0]; /* stores are in the body only */
    uint32_t n = 0;
    for (uint32_t i = 0; i < body->n; i++) {
        uint32_t v = body->items[i];
        agal_ir_inst *in = &ir->insts[v];
        if (in->op == IR_STORE && in->reg_type == AGAL_REG_VARYING && in->reg_num < 16 && (drop >> in->reg_num & 1)) {
            in->op = IR_NOP;
            *changed = true;
            continue;
        }
        body->items[n++] = v;
    }
    body->n = n;
    if (*changed) ir->live_only = ir->info.gathered = false; /* what computed them may be dead now */
}

agal_status agal_lower_unread_varyings(agal_ir *ir, bool *changed)
{
    *changed = false;
    if (ir->unread_varyings && ir->prog->stage == AGAL_VERTEX) drop_stores(ir, ir->unread_varyings, changed);
    return AGAL_OK;
}
