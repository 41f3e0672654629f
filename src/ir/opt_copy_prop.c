/* opt_copy_prop.c: copy folding. Uses of a plain copy (an AGAL mov's IR_COPY, unless
 * the GLSL back end keeps them as statements), of an identity swizzle, of a merge
 * that takes all of one side, and of a phi with equal operands, are replaced by
 * the copied value. Run before dead code, which then drops the copies. Follows
 * whole copy chains, so one run reaches the fixed point. */
#include "ir.h"

/* Follows copy chains; the chain is finite since operands precede their users. */
static uint32_t resolve(const agal_ir *ir, uint32_t v)
{
    for (uint32_t c; (c = agal_ir_copy_of(ir, v)) != 0;) v = c;
    return v;
}

/* Operands below `first` (the lowest copy) are no copies: only the rest are resolved. */
static void fold_one(agal_ir *ir, uint32_t v, uint32_t first, bool *changed)
{
    agal_ir_inst *in = &ir->insts[v];
    for (unsigned a = 0; a < in->nargs; a++) {
        if (in->args[a] < first) continue;
        uint32_t r = resolve(ir, in->args[a]);
        if (r != in->args[a]) {
            /* keep_copies: a mov's copy stays, but whatever it copied is folded. */
            ir->insts[v].args[a] = r;
            *changed = true;
        }
    }
}

/* Every instruction that is neither removed nor a constant is listed (ir.h), and
 * those two have no operands: a plain loop sees the same ones as a walk. Below the
 * first copy (the IR's fact: no search) and below the first value with a later
 * operand (a lowering's: op's store, a packed varying's uses), no value reads a
 * copy. Out of line, so that a program with no copy (most) does not pay for its frame. */
static AGAL_NOINLINE void fold(agal_ir *ir, uint32_t first, bool *changed)
{
    uint32_t start = ir->first_late_user && ir->first_late_user < first ? ir->first_late_user : first;
    for (uint32_t v = start; v < ir->ninsts; v++) fold_one(ir, v, first, changed);
    /* the copies folded are unread, and a sample's coordinate may be a varying now */
    if (*changed) ir->live_only = ir->info.gathered = false;
}

agal_status agal_opt_copy_prop(agal_ir *ir, bool *changed)
{
    *changed = false;
    if (ir->first_copy) fold(ir, ir->first_copy, changed);
    return AGAL_OK;
}
