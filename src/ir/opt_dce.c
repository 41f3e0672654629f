/* opt_dce.c: dead code. What no store or kil needs goes, empty ifs included, and
 * the uses of what stays are counted (agal_ir_inst.nuses, agal_ir.nlive).
 *
 * Liveness from the effects: a store or kil is live; a live value makes its operands
 * live; a live instruction inside a branch makes the if that holds it live, and so
 * does a live phi of that if (the nearest if before it in its list); a live if
 * makes its condition live.
 *
 * The lists in reverse are the program backwards: every use of a value comes after
 * it (ir.h), in its list, in a branch of a later if or in a later phi, so a walk of
 * each list from its end, into an if's branches after its phis and before the if
 * itself, meets every user of a value before the value. A value is then live when
 * it is a store or kil, or a live user has counted a use of it already: the use
 * counts are the marks, and no table of dependencies, no work list and no second
 * walk to sweep are needed. One run reaches the fixed point: removing what is not
 * live changes no live operand. Nesting is at most 4 deep (ir.h), so the walk's
 * recursion on lists is bounded. */
#include "ir.h"

typedef struct sweep {
    agal_ir *ir;
    agal_ir_inst *insts; /* ir->insts, which no pass moves: held here, as the byte
                            stores to nuses and op could otherwise alias it, and
                            every value would reload it */
    uint32_t nlive;
    bool changed;
} sweep;

static bool walk(sweep *sw, uint32_t l);

/* Is v live, given what the walk has met after it, when no live user has counted a
 * use of it (most values have one: live() asks this only of the others): a store
 * or kil is, an if when its branches (walked and swept here) hold something live
 * or phi_live (a live phi of it follows). */
static bool live_unused(sweep *sw, const agal_ir_inst *in, bool phi_live)
{
    switch (in->op) {
    case IR_STORE:
    case IR_KIL: return true;
    case IR_IF: {
        uint32_t else_list = in->else_list;
        bool then_live = walk(sw, in->then_list);
        bool else_live = walk(sw, else_list);
        return then_live || else_live || phi_live;
    }
    default: return false;
    }
}

/* Stores, kils and ifs have no uses (IR_VOID): a counted use says live at once. */
static inline bool live(sweep *sw, const agal_ir_inst *in, bool phi_live)
{
    return in->nuses != 0 || live_unused(sw, in, phi_live);
}

/* List l from its end: the live instructions stay, in order, their operands'
 * uses counted; the others are removed. Whether anything in it is live. The
 * list's items and count are held in locals for the same reason as insts. */
static bool walk(sweep *sw, uint32_t l)
{
    agal_ir_inst *insts = sw->insts;
    uint32_t *items = sw->ir->lists[l].items, n = sw->ir->lists[l].n;
    uint32_t kept = n; /* the live ones gather at the end, then move down */
    bool phi_live = false;
    for (uint32_t i = n; i-- > 0;) {
        uint32_t v = items[i];
        agal_ir_inst *in = &insts[v];
        bool is_live = live(sw, in, phi_live);
        if (in->op == IR_PHI) phi_live |= is_live;
        else if (in->op == IR_IF) phi_live = false;
        if (!is_live) {
            in->op = IR_NOP;
            sw->changed = true;
            continue;
        }
        for (unsigned a = 0; a < in->nargs; a++) agal_ir_add_use(&insts[in->args[a]]);
        items[--kept] = v;
    }
    uint32_t live_n = n - kept;
    if (kept) memmove(items, items + kept, live_n * sizeof *items);
    sw->ir->lists[l].n = live_n;
    sw->nlive += live_n;
    return live_n != 0;
}

agal_status agal_opt_dce(agal_ir *ir, bool *changed)
{
    /* Nothing listed is dead, and the uses are counted (the builder counts them as
     * it makes the operands): nothing to do. */
    *changed = false;
    if (ir->live_only) return AGAL_OK;
    sweep sw = {ir, ir->insts, 0, false};
    /* Uses counted before (IR read from text, a second run) start again from 0.
     * Every instruction is made with none, and while nlive is 0 none has been
     * counted (no instruction was listed live to count one): then there is
     * nothing to clear, as after the builder. */
    for (uint32_t v = 0, n = ir->nlive ? ir->ninsts : 0; v < n; v++) sw.insts[v].nuses = 0;
    walk(&sw, 0);
    ir->nlive = sw.nlive;
    ir->live_only = true;
    if (sw.changed) ir->info.gathered = false; /* what it removed may have told something */
    *changed = sw.changed;
    return AGAL_OK;
}
