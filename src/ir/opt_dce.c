/* opt_dce.c: dead code. What no store or kil needs goes, empty ifs included, and
 * the uses of what stays are counted (agal_ir_inst.nuses, agal_ir.nlive).
 *
 * Liveness from the effects: a store or kil is live; a live value makes its operands
 * live; a live instruction inside a branch makes the if that holds it live, and so
 * does a live phi of that if; a live if makes its condition live. One run reaches
 * the fixed point: removing what is not live changes no live operand. The work
 * list is explicit (no recursion on value chains, whose depth the input controls). */
#include "ir.h"

typedef struct marker {
    uint32_t *stack, *dep;
    uint8_t *live;
    uint32_t n;
} marker;

static inline void mark(marker *m, uint32_t v)
{
    if (!v || m->live[v]) return;
    m->live[v] = 1;
    m->stack[m->n++] = v;
}

/* dep[v]: the IR_IF that instruction v needs (the one holding it, or for a phi the
 * one it joins), 0 at top level (no dep: no blocks). The roots, stores and kils,
 * are marked live. */
static void fill_deps(agal_ir *ir, uint32_t l, uint32_t owner, marker *m)
{
    uint32_t last_if = 0;
    for (uint32_t i = 0; i < ir->lists[l].n; i++) {
        uint32_t v = ir->lists[l].items[i];
        agal_ir_inst *in = &ir->insts[v];
        if (m->dep) m->dep[v] = in->op == IR_PHI ? last_if : owner;
        if (in->op == IR_KIL || in->op == IR_STORE) mark(m, v);
        if (in->op == IR_IF) {
            last_if = v;
            fill_deps(ir, in->then_list, v, m);
            fill_deps(ir, in->else_list, v, m);
        }
    }
}

/* Drops instructions that are not live from list l and below, and removes them
 * (IR_NOP). A dead if's branches hold nothing live: they are swept too, so no
 * instruction stays behind in a list the tree no longer reaches. */
static bool sweep(agal_ir *ir, uint32_t l, const uint8_t *live)
{
    agal_ir_list *list = &ir->lists[l];
    bool changed = false;
    uint32_t n = 0;
    for (uint32_t i = 0; i < list->n; i++) {
        uint32_t v = list->items[i];
        agal_ir_inst *in = &ir->insts[v];
        if (in->op == IR_IF) {
            changed |= sweep(ir, in->then_list, live);
            changed |= sweep(ir, in->else_list, live);
        }
        if (!live[v]) {
            in->op = IR_NOP;
            changed = true;
            continue;
        }
        list->items[n++] = v;
    }
    list->n = n;
    return changed;
}

agal_status agal_opt_dce(agal_ir *ir, bool *changed)
{
    /* The stack, deps and marks are scratch, given back at the end. Without blocks
     * (one list) nothing depends on an if: no deps. */
    agal_arena_mark scratch = agal_arena_save(ir->ctx);
    bool blocks = ir->nlists > 1;
    marker m = {agal_alloc(ir->ctx, ir->ninsts * sizeof *m.stack),
                blocks ? agal_zalloc(ir->ctx, ir->ninsts * sizeof *m.dep) : NULL, agal_zalloc(ir->ctx, ir->ninsts), 0};
    if (!m.stack || (blocks && !m.dep) || !m.live) {
        agal_arena_restore(ir->ctx, scratch);
        return AGAL_ERR_NOMEM;
    }
    fill_deps(ir, 0, 0, &m);
    /* Each live instruction is taken off the stack once: its operands' uses are
     * counted there, as agal_ir_count_uses would over the swept lists. */
    for (uint32_t v = 0; v < ir->ninsts; v++) ir->insts[v].nuses = 0;
    ir->nlive = 0;
    while (m.n) {
        uint32_t v = m.stack[--m.n];
        const agal_ir_inst *in = &ir->insts[v];
        ir->nlive += in->op != IR_CONST; /* constants are in no list */
        for (unsigned a = 0; a < in->nargs; a++) {
            agal_ir_add_use(&ir->insts[in->args[a]]);
            mark(&m, in->args[a]);
        }
        if (blocks) mark(&m, m.dep[v]);
    }
    *changed = sweep(ir, 0, m.live);
    agal_arena_restore(ir->ctx, scratch);
    return AGAL_OK;
}
