/* lower_hoist_tex.c: the required lowering of texture samples inside blocks.
 *
 * A sample with implicit LOD inside a branch takes derivatives in non-uniform
 * control flow, which Vulkan and GL leave undefined. Flash only allows a tex in a
 * block when its coordinates are a varying (3741), so the sample, its varying load
 * and swizzle depend on nothing the block computes: they move in front of the
 * outermost if, where every fragment of the quad runs them. Sampling has no side
 * effect, so running it on both paths changes no result. Moved instructions are
 * flagged IR_HOISTED: the GLSL back end gives them a temporary, not their register
 * (the register is written where the block joins). */
#include "ir.h"

static bool varying_chain(const agal_ir *ir, uint32_t v)
{
    const agal_ir_inst *in = &ir->insts[v];
    if (in->op == IR_SWIZZLE) in = &ir->insts[in->args[0]];
    return in->op == IR_INPUT && in->reg_type == AGAL_REG_VARYING;
}

static void mark_hoist(agal_ir *ir, uint32_t l, uint8_t *hoist)
{
    agal_ir_list *list = &ir->lists[l];
    for (uint32_t i = 0; i < list->n; i++) {
        agal_ir_inst *in = &ir->insts[list->items[i]];
        if (in->op == IR_IF) {
            mark_hoist(ir, in->then_list, hoist);
            mark_hoist(ir, in->else_list, hoist);
        } else if (in->op == IR_TEX && in->aop == AGAL_OP_TEX && varying_chain(ir, in->args[0])) {
            uint32_t c = in->args[0];
            hoist[list->items[i]] = hoist[c] = 1;
            if (ir->insts[c].op == IR_SWIZZLE) hoist[ir->insts[c].args[0]] = 1;
        }
    }
}

/* Whether a block inside list l (depth: blocks around l) holds a sample to move. */
static bool any_to_hoist(const agal_ir *ir, uint32_t l, unsigned depth)
{
    const agal_ir_list *list = &ir->lists[l];
    for (uint32_t i = 0; i < list->n; i++) {
        const agal_ir_inst *in = &ir->insts[list->items[i]];
        if (in->op == IR_IF &&
            (any_to_hoist(ir, in->then_list, depth + 1) || any_to_hoist(ir, in->else_list, depth + 1)))
            return true;
        if (depth && in->op == IR_TEX && in->aop == AGAL_OP_TEX && varying_chain(ir, in->args[0])) return true;
    }
    return false;
}

/* Moves the marked instructions of list l (and nested lists), in order, to out. */
static bool take_hoisted(agal_ir *ir, uint32_t l, const uint8_t *hoist, uint32_t *out, uint32_t *nout)
{
    agal_ir_list *list = &ir->lists[l];
    uint32_t n = 0;
    bool any = false;
    for (uint32_t i = 0; i < list->n; i++) {
        uint32_t v = list->items[i];
        if (hoist[v]) {
            out[(*nout)++] = v;
            ir->insts[v].flags |= IR_HOISTED;
            any = true;
            continue;
        }
        if (ir->insts[v].op == IR_IF) {
            any |= take_hoisted(ir, ir->insts[v].then_list, hoist, out, nout);
            any |= take_hoisted(ir, ir->insts[v].else_list, hoist, out, nout);
        }
        list->items[n++] = v;
    }
    list->n = n;
    return any;
}

/* The samples to move, moved (*changed false on entry). */
static AGAL_NOINLINE agal_status hoist(agal_ir *ir, bool *changed)
{
    agal_ir_list *top = &ir->lists[0];
    if (!any_to_hoist(ir, 0, 0)) return AGAL_OK;
    /* The new top list stays only if something moves; the marks are scratch. */
    agal_arena_mark before_items = agal_arena_save(ir->ctx);
    uint32_t *items = agal_alloc(ir->ctx, (top->n + ir->ninsts) * sizeof *items);
    agal_arena_mark before_marks = agal_arena_save(ir->ctx);
    uint8_t *hoist = items ? agal_zalloc(ir->ctx, ir->ninsts) : NULL;
    if (!hoist) {
        agal_arena_restore(ir->ctx, before_items);
        return AGAL_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < top->n; i++) {
        const agal_ir_inst *in = &ir->insts[top->items[i]];
        if (in->op != IR_IF) continue;
        mark_hoist(ir, in->then_list, hoist);
        mark_hoist(ir, in->else_list, hoist);
    }
    bool any = false;
    uint32_t n = 0;
    for (uint32_t i = 0; i < top->n; i++) {
        uint32_t v = top->items[i];
        if (ir->insts[v].op == IR_IF) {
            any |= take_hoisted(ir, ir->insts[v].then_list, hoist, items, &n);
            any |= take_hoisted(ir, ir->insts[v].else_list, hoist, items, &n);
        }
        items[n++] = v;
    }
    agal_arena_restore(ir->ctx, any ? before_marks : before_items);
    if (any) {
        top->items = items;
        top->n = n;
        top->cap = (uint32_t)(top->n + ir->ninsts);
    }
    *changed = any; /* one run reaches the fixed point: nothing is left in a block to move */
    return AGAL_OK;
}

agal_status agal_lower_hoist_tex(agal_ir *ir, bool *changed)
{
    *changed = false;
    /* Most programs sample in no block: no walk, no memory to pay for, and not
     * even the frame of a function that could (hoist is not inlined here). */
    return ir->samples_in_blocks ? hoist(ir, changed) : AGAL_OK;
}
