/* opt_copy_prop.c: copy folding. Uses of a plain copy (an AGAL mov's IR_COPY, unless
 * the GLSL back end keeps them as statements), of an identity swizzle, of a merge
 * that takes all of one side, and of a phi with equal operands, are replaced by
 * the copied value. Run before dead code, which then drops the copies. Follows
 * whole copy chains, so one run reaches the fixed point. */
#include "ir.h"

/* The operand a value is a plain copy of, or 0. */
static uint32_t copy_of(const agal_ir *ir, uint32_t v)
{
    const agal_ir_inst *in = &ir->insts[v];
    switch (in->op) {
    case IR_COPY: return ir->keep_copies ? 0 : in->args[0];
    case IR_SWIZZLE: return in->swizzle == AGAL_SWIZZLE_IDENTITY ? in->args[0] : 0;
    case IR_MERGE: return in->mask == 0xf ? in->args[1] : in->mask == 0 ? in->args[0] : 0;
    case IR_PHI: return in->args[0] == in->args[1] ? in->args[0] : 0;
    default: return 0;
    }
}

/* Follows copy chains; the chain is finite since operands precede their users. */
static uint32_t resolve(const agal_ir *ir, uint32_t v)
{
    for (uint32_t c; (c = copy_of(ir, v)) != 0;) v = c;
    return v;
}

static void fold_one(agal_ir *ir, uint32_t v, bool *changed)
{
    agal_ir_inst *in = &ir->insts[v];
    for (unsigned a = 0; a < in->nargs; a++) {
        uint32_t r = resolve(ir, in->args[a]);
        if (r != in->args[a]) {
            /* keep_copies: a mov's copy stays, but whatever it copied is folded. */
            ir->insts[v].args[a] = r;
            *changed = true;
        }
    }
}

agal_status agal_opt_copy_prop(agal_ir *ir, bool *changed)
{
    *changed = false;
    /* Every instruction that is neither removed nor a constant is listed (ir.h), and
     * those two have no operands: a plain loop sees the same ones as a walk. */
    for (uint32_t v = 1; v < ir->ninsts; v++) fold_one(ir, v, changed);
    return AGAL_OK;
}
