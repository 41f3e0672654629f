/* opt_copy_prop.c: copy folding. Uses of a plain copy (an AGAL mov's IR_COPY, unless
 * the GLSL back end keeps them as statements), of an identity swizzle, of a merge
 * that takes all of one side, and of a phi with equal operands, are replaced by
 * the copied value. Run before dead code, which then drops the copies. Follows
 * whole copy chains, so one run reaches the fixed point. */
#include "ir.h"

/* The ops that can be a copy, as a set: one test passes the others (loads,
 * operations), which most operands are, before the switch. */
_Static_assert(IR_OP_COUNT <= 32, "copy_of's set of ops is a uint32_t");
static const uint32_t maybe_copy = 1u << IR_COPY | 1u << IR_SWIZZLE | 1u << IR_MERGE | 1u << IR_PHI;

/* The operand a value is a plain copy of, or 0. */
static inline uint32_t copy_of(const agal_ir *ir, uint32_t v)
{
    const agal_ir_inst *in = &ir->insts[v];
    if (!(maybe_copy >> in->op & 1)) return 0;
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

/* The lowest value that is a copy, or 0. */
static uint32_t first_copy(const agal_ir *ir)
{
    for (uint32_t v = 1; v < ir->ninsts; v++)
        if (copy_of(ir, v)) return v;
    return 0;
}

agal_status agal_opt_copy_prop(agal_ir *ir, bool *changed)
{
    *changed = false;
    /* Every instruction that is neither removed nor a constant is listed (ir.h), and
     * those two have no operands: a plain loop sees the same ones as a walk. Below
     * the first copy and below the first value with a later operand (a lowering's:
     * op's store, a packed varying's uses), no value reads a copy. */
    uint32_t first = first_copy(ir);
    if (!first) return AGAL_OK;
    uint32_t start = ir->first_late_user && ir->first_late_user < first ? ir->first_late_user : first;
    for (uint32_t v = start; v < ir->ninsts; v++) fold_one(ir, v, first, changed);
    return AGAL_OK;
}
