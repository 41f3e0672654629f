/* opt.c: IR passes. Run after building (agal_ir_build does), before emitting.
 * Each pass returns whether it changed anything; agal_ir_optimize is the pipeline.
 * Walks are iterative over the list tree (no recursion on value chains, whose depth
 * untrusted input controls). */
#include "ir.h"

/* Calls fn on every instruction of list l and, depth first, of its nested lists,
 * in program order. Nesting is at most a few levels (the validator caps it at 4),
 * so recursion on lists is bounded. */
typedef void (*visit_fn)(agal_ir *ir, uint32_t v, void *ud);

static void walk(agal_ir *ir, uint32_t l, visit_fn fn, void *ud)
{
    for (uint32_t i = 0; i < ir->lists[l].n; i++) {
        uint32_t v = ir->lists[l].items[i];
        fn(ir, v, ud);
        if (ir->insts[v].op == IR_IF) {
            walk(ir, ir->insts[v].then_list, fn, ud);
            walk(ir, ir->insts[v].else_list, fn, ud);
        }
    }
}

/* One more use of a value; the count saturates ("used", "used once" stay exact). */
static void add_use(agal_ir_inst *used)
{
    if (used->nuses < UINT16_MAX) used->nuses++;
}

static void count_one(agal_ir *ir, uint32_t v, void *ud)
{
    (void)ud;
    agal_ir_inst *in = &ir->insts[v];
    for (unsigned a = 0; a < in->nargs; a++) add_use(&ir->insts[in->args[a]]);
    ir->nlive++;
}

void agal_ir_count_uses(agal_ir *ir)
{
    for (uint32_t v = 0; v < ir->ninsts; v++) ir->insts[v].nuses = 0;
    ir->nlive = 0;
    walk(ir, 0, count_one, NULL);
}

/* ---- copy folding --------------------------------------------------------- */

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

static void fold_one(agal_ir *ir, uint32_t v, void *ud)
{
    bool *changed = ud;
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

bool agal_opt_fold_copies(agal_ir *ir)
{
    bool changed = false;
    walk(ir, 0, fold_one, &changed);
    return changed;
}

/* ---- dead code ------------------------------------------------------------ */

/* Liveness from the effects: a store or kil is live; a live value makes its operands
 * live; a live instruction inside a branch makes the if that holds it live, and so
 * does a live phi of that if; a live if makes its condition live. What is not live
 * goes, empty ifs included, in one pass. */

typedef struct marker {
    uint32_t *stack, *dep;
    uint8_t *live;
    uint32_t n;
} marker;

static void mark(marker *m, uint32_t v)
{
    if (!v || m->live[v]) return;
    m->live[v] = 1;
    m->stack[m->n++] = v;
}

/* dep[v]: the IR_IF that instruction v needs (the one holding it, or for a phi the
 * one it joins), 0 at top level. The roots, stores and kils, are marked live. */
static void fill_deps(agal_ir *ir, uint32_t l, uint32_t owner, marker *m)
{
    uint32_t last_if = 0;
    for (uint32_t i = 0; i < ir->lists[l].n; i++) {
        uint32_t v = ir->lists[l].items[i];
        agal_ir_inst *in = &ir->insts[v];
        m->dep[v] = in->op == IR_PHI ? last_if : owner;
        if (in->op == IR_KIL || in->op == IR_STORE) mark(m, v);
        if (in->op == IR_IF) {
            last_if = v;
            fill_deps(ir, in->then_list, v, m);
            fill_deps(ir, in->else_list, v, m);
        }
    }
}

/* Drops instructions that are not live from list l and below. */
static bool sweep(agal_ir *ir, uint32_t l, const uint8_t *live)
{
    agal_ir_list *list = &ir->lists[l];
    bool changed = false;
    uint32_t n = 0;
    for (uint32_t i = 0; i < list->n; i++) {
        uint32_t v = list->items[i];
        agal_ir_inst *in = &ir->insts[v];
        if (!live[v]) {
            in->op = IR_NOP;
            changed = true;
            continue;
        }
        if (in->op == IR_IF) {
            changed |= sweep(ir, in->then_list, live);
            changed |= sweep(ir, in->else_list, live);
        }
        list->items[n++] = v;
    }
    list->n = n;
    return changed;
}

bool agal_opt_dead_code(agal_ir *ir)
{
    /* The stack, deps and marks are scratch, given back at the end. */
    agal_arena_mark scratch = agal_arena_save(ir->ctx);
    marker m = {agal_alloc(ir->ctx, ir->ninsts * sizeof *m.stack), agal_zalloc(ir->ctx, ir->ninsts * sizeof *m.dep),
                agal_zalloc(ir->ctx, ir->ninsts), 0};
    if (!m.stack || !m.dep || !m.live) { /* out of memory: leave the IR as it is (still correct) */
        agal_arena_restore(ir->ctx, scratch);
        return false;
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
            add_use(&ir->insts[in->args[a]]);
            mark(&m, in->args[a]);
        }
        mark(&m, m.dep[v]);
    }
    bool changed = sweep(ir, 0, m.live);
    agal_arena_restore(ir->ctx, scratch);
    return changed;
}

/* ---- texture hoisting -------------------------------------------------------- */

/* A sample with implicit LOD inside a branch takes derivatives in non-uniform
 * control flow, which Vulkan and GL leave undefined. Flash only allows a tex in a
 * block when its coordinates are a varying (3741), so the sample, its varying load
 * and swizzle depend on nothing the block computes: they move in front of the
 * outermost if, where every fragment of the quad runs them. Sampling has no side
 * effect, so running it on both paths changes no result. */
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

/* Moves the marked instructions of list l (and nested lists), in order, to out. */
static bool take_hoisted(agal_ir *ir, uint32_t l, const uint8_t *hoist, uint32_t *out, uint32_t *nout)
{
    agal_ir_list *list = &ir->lists[l];
    uint32_t n = 0;
    bool any = false;
    for (uint32_t i = 0; i < list->n; i++) {
        uint32_t v = list->items[i];
        if (hoist[v]) { out[(*nout)++] = v; any = true; continue; }
        if (ir->insts[v].op == IR_IF) {
            any |= take_hoisted(ir, ir->insts[v].then_list, hoist, out, nout);
            any |= take_hoisted(ir, ir->insts[v].else_list, hoist, out, nout);
        }
        list->items[n++] = v;
    }
    list->n = n;
    return any;
}

bool agal_opt_hoist_textures(agal_ir *ir)
{
    agal_ir_list *top = &ir->lists[0];
    bool has_if = false;
    for (uint32_t i = 0; i < top->n && !has_if; i++) has_if = ir->insts[top->items[i]].op == IR_IF;
    if (!has_if) return false; /* nothing to hoist out of: no scratch to pay for */
    /* The new top list stays only if something moves; the marks are scratch. */
    agal_arena_mark before_items = agal_arena_save(ir->ctx);
    uint32_t *items = agal_alloc(ir->ctx, (top->n + ir->ninsts) * sizeof *items);
    agal_arena_mark before_marks = agal_arena_save(ir->ctx);
    uint8_t *hoist = items ? agal_zalloc(ir->ctx, ir->ninsts) : NULL;
    if (!hoist) { /* out of memory: leave the IR as it is */
        agal_arena_restore(ir->ctx, before_items);
        return false;
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
    return false; /* a single run reaches its fixed point: no iteration needed */
}

/* ---- the pipeline --------------------------------------------------------- */

typedef bool (*pass_fn)(agal_ir *ir);

void agal_ir_optimize(agal_ir *ir)
{
    static const pass_fn pipeline[] = {
        agal_opt_fold_copies, /* forward operands through movs, identity swizzles, full merges */
        agal_opt_dead_code,   /* then drop what no store, kil or branch needs */
    };
    /* One round reaches the fixed point: folding follows whole copy chains, and
     * removing dead code changes no live operand, so a second round would find
     * nothing (it cost a tenth of a translation). dead_code leaves nuses counted,
     * and hoisting only moves live instructions between lists. */
    for (size_t i = 0; i < AGAL_COUNTOF(pipeline); i++) pipeline[i](ir);
    agal_opt_hoist_textures(ir); /* once, last: defined derivatives for tex in blocks */
}
