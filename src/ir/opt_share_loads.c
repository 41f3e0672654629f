/* opt_share_loads.c: one load per register, at the top of the program. Inputs (va, v,
 * iid) and constants (vc, fc) do not change while a program runs, and the builder
 * loads them afresh at every read: each register's first load (in value order)
 * becomes the only one, every use of the others reads it, and the kept loads move,
 * in value order, to the front of the program body, which dominates every use
 * (spirv-opt merges loads the same way; the SPIR-V then loads each register once,
 * in its entry block). Indirect reads depend on their index and stay where they are.
 * GLSL prints loads at their uses, so its text does not change. Use counts stay
 * right: a dropped load's uses become its kept load's.
 *
 * The builder lists its loads in value order in front of the body, and gathers the
 * info record, which counts them. The pass, the pipeline's last, gathers the record
 * again where a pass changed what the IR uses (by value number, info.c's rules:
 * dead code removes loads but moves none), and where the count finds every load in
 * that run still, reads only the run. Otherwise (IR read from text, loads
 * elsewhere) a walk of every value finds them, gathering the record on its way,
 * and takes them out of every list. Where the builder shared them as it read the
 * tokens (agal_ir.loads_unique), no register has two: the run only moves in front
 * of what a lowering put before it (the flip). */
#include "ir.h"

enum { KEYS = IR_LOAD_KEYS };

/* The register a load reads, as an index into the first-load table; -1 for others. */
static int load_key(const agal_ir_inst *in) { return agal_ir_is_load(in) ? (int)agal_ir_load_key(in) : -1; }

/* Each register's kept load, where bit k of has_first says there is one (a bit
 * map to clear, not the 1 KiB table), and the kept loads in value order: on the
 * stack. to[v]: the kept load that load v becomes (itself when kept), v itself for
 * any other value, so that the walk reads one word per operand and writes it back
 * without a test. */
typedef struct loads {
    uint32_t has_first[(KEYS + 31) / 32];
    uint32_t first[KEYS];
    uint32_t kept[KEYS];
    uint32_t nkept, ndup;
    uint32_t *to;
} loads;

/* Whether load key k is met for the first time (its bit in has_first set now). */
static inline bool first_of_key(uint32_t *has_first, unsigned k)
{
    uint32_t bit = 1u << (k & 31), *word = &has_first[k >> 5];
    bool first = !(*word & bit);
    *word |= bit;
    return first;
}

/* A duplicate load's uses become its kept load's (saturating). */
static inline void give_uses(agal_ir_inst *kept, const agal_ir_inst *dup)
{
    unsigned uses = kept->nuses + dup->nuses;
    kept->nuses = (uint8_t)(uses < IR_MAX_USES ? uses : IR_MAX_USES);
}

/* Phi v, its operands rewritten to kept loads, may read one load twice: then a
 * copy, which the pipeline folds in another run (copy_after_folding). */
static inline void note_phi_of_one(agal_ir *ir, uint32_t v, const agal_ir_inst *in)
{
    if (in->op == IR_PHI && in->args[0] == in->args[1]) {
        agal_ir_note_copy(ir, v);
        ir->copy_after_folding = true;
    }
}

/* One walk of list l and below: every load leaves its list (the kept ones go to the
 * front of the body, the duplicates are removed, their uses given to their kept
 * loads) and every other instruction reads the kept loads (only with a duplicate
 * does any operand change). The arrays and counts it uses are held in locals: a
 * store to an operand or an item could alias them, and every value would reload
 * them. */
static void share(agal_ir *ir, const uint32_t *to, bool any_dup, uint32_t l)
{
    agal_ir_inst *insts = ir->insts;
    uint32_t *items = ir->lists[l].items, count = ir->lists[l].n, n = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t v = items[i];
        agal_ir_inst *in = &insts[v];
        if (agal_ir_is_load(in)) { /* to[v]: its kept load */
            if (to[v] == v) continue;
            give_uses(&insts[to[v]], in);
            in->op = IR_NOP;
            continue;
        }
        if (any_dup) {
            for (unsigned a = 0; a < in->nargs; a++) in->args[a] = to[in->args[a]];
            note_phi_of_one(ir, v, in);
        }
        if (in->op == IR_IF) {
            share(ir, to, any_dup, in->then_list);
            share(ir, to, any_dup, in->else_list);
        }
        items[n++] = v;
    }
    ir->lists[l].n = n;
}

/* A second run finds each load once, in value order, at the front of the body. */
static bool shared_already(const agal_ir *ir, const loads *ld)
{
    const agal_ir_list *body = &ir->lists[0];
    if (ld->ndup || ld->nkept > body->n) return false;
    for (uint32_t i = 0; i < ld->nkept; i++)
        if (body->items[i] != ld->kept[i]) return false;
    return true;
}

/* Every load's kept load into ld (every instruction that is neither removed nor a
 * constant is listed, ir.h, so a walk by value number meets them all), and what
 * every value tells into the info record: the pass is the pipeline's last, and the
 * IR it leaves tells the same (its loads read the registers the removed ones read,
 * a sample's coordinate the same varying), so no walk of its own gathers it. */
static void find_loads(const agal_ir *ir, loads *ld, agal_ir_info *info)
{
    const agal_ir_inst *insts = ir->insts;
    uint32_t *to = ld->to, nkept = 0, ndup = 0;
    to[0] = 0;
    agal_ir_info_start(info);
    for (uint32_t v = 1, n = ir->ninsts; v < n; v++) {
        const agal_ir_inst *in = &insts[v];
        to[v] = v;
        int k = load_key(in);
        if (k < 0) {
            agal_ir_info_note(info, ir, in);
            continue;
        }
        if (first_of_key(ld->has_first, (unsigned)k)) { /* a duplicate tells what its kept load does */
            ld->first[k] = ld->kept[nkept++] = v;
            agal_ir_info_note(info, ir, in);
        } else ndup++;
        to[v] = ld->first[k];
    }
    ld->nkept = nkept, ld->ndup = ndup;
}

/* The builder's loads: every one in a run of the body near its front (after what a
 * lowering put first, the y flip), in value order, as many as the info record
 * counts where it holds since the builder (info.gathered). The run's start, or
 * UINT32_MAX where the loads are elsewhere too (IR read from text, a pass that
 * changed them). */
static uint32_t loads_run(const agal_ir *ir)
{
    if (!ir->info.gathered) return UINT32_MAX;
    const agal_ir_inst *insts = ir->insts;
    const agal_ir_list *body = &ir->lists[0];
    const uint32_t *items = body->items;
    uint32_t start = 0, n = body->n;
    while (start < n && !agal_ir_is_load(&insts[items[start]])) start++;
    /* the next info.loads items loads in value order, and no load after them: one
     * test of each, without a branch */
    uint32_t end = start + ir->info.loads;
    if (end > n || (end < n && agal_ir_is_load(&insts[items[end]]))) return UINT32_MAX;
    if (start == end) return start; /* no load */
    bool run = true;
    for (uint32_t i = start + 1, last = items[start]; i < end; i++) {
        uint32_t v = items[i];
        run &= agal_ir_is_load(&insts[v]) & (v > last);
        last = v;
    }
    return run ? start : UINT32_MAX;
}

/* Value v reads the kept load of each duplicate it read (a removed duplicate's
 * args[0] names it: no map of every value); how many operands it rewrote. */
static AGAL_ALWAYS_INLINE unsigned read_kept_at(agal_ir *ir, uint32_t v)
{
    agal_ir_inst *insts = ir->insts, *in = &insts[v];
    unsigned n = 0;
    if (in->op == IR_NOP) return 0; /* removed: its operands are no uses */
    for (unsigned a = 0, nargs = in->nargs; a < nargs; a++) {
        const agal_ir_inst *x = &insts[in->args[a]];
        if (x->op == IR_NOP) in->args[a] = x->args[0], n++;
    }
    note_phi_of_one(ir, v, in);
    return n;
}

/* Every value from `from` reads the kept loads, by value number rather than a walk
 * of every list. */
static void read_kept(agal_ir *ir, uint32_t from)
{
    for (uint32_t v = from, n = ir->ninsts; v < n; v++) read_kept_at(ir, v);
}

/* The same where the duplicates' uses are counted and no value reads one it
 * follows: from each duplicate (dup, in value order) only until its uses are read,
 * which most are in its own token, not to the program's end. */
static void read_kept_near(agal_ir *ir, const uint32_t *dup, uint32_t ndup)
{
    const agal_ir_inst *insts = ir->insts;
    uint32_t r = 0, pending = 0, v = 0;
    for (;;) {
        if (!pending) { /* on to the next duplicate */
            if (r == ndup) return;
            v = dup[r];
        }
        for (; r < ndup && dup[r] <= v; r++) pending += insts[dup[r]].nuses; /* the duplicates up to v: their uses */
        pending -= read_kept_at(ir, v++);
    }
}

/* The run of loads at items[start], each its register's only one (agal_ir.loads_unique,
 * the builder's where it shared them), in front of what precedes it. */
static bool run_in_front(uint32_t *items, uint32_t start, uint32_t nrun)
{
    if (!start || !nrun) return false; /* in front already, or none to move */
    if (start == 1) {                  /* what a lowering put first, the flip: the run moves down over it */
        uint32_t first = items[0];
        memmove(items, items + 1, nrun * sizeof *items);
        items[nrun] = first;
        return true;
    }
    uint32_t run[KEYS];
    memcpy(run, items + start, nrun * sizeof *items);
    memmove(items + nrun, items, start * sizeof *items);
    memcpy(items, run, nrun * sizeof *items);
    return true;
}

/* The run of loads from start: each register's first load kept, the others
 * removed, their uses given to it and read from it instead (from the lowest
 * duplicate, or a lower value with a later operand); the kept loads, in value
 * order, go in front of what preceded the run. Whether anything changed. */
static bool share_run(agal_ir *ir, uint32_t start)
{
    agal_ir_inst *insts = ir->insts;
    agal_ir_list *body = &ir->lists[0];
    uint32_t *items = body->items, nrun = ir->info.loads, nkept = 0;
    if (ir->loads_unique && nrun <= KEYS) return run_in_front(items, start, nrun);
    bool counted = ir->live_only; /* the uses exact, after dead code (agal_ir.live_only) */
    uint32_t has_first[(KEYS + 31) / 32] = {0}, first[KEYS], kept[KEYS];
    /* The duplicates gather at the run's front, behind the loop's reading: the run
     * is moved over at the end, and read_kept_near takes them from there. */
    uint32_t *dup = items + start, ndup = 0, last_load = nrun ? items[start + nrun - 1] : 0;
    for (uint32_t i = start; i < start + nrun; i++) {
        uint32_t v = items[i];
        agal_ir_inst *in = &insts[v];
        unsigned k = (unsigned)load_key(in);
        if (first_of_key(has_first, k)) {
            first[k] = kept[nkept++] = v;
            continue;
        }
        give_uses(&insts[first[k]], in);
        counted &= in->nuses < IR_MAX_USES;
        in->op = IR_NOP;
        in->args[0] = first[k];
        dup[ndup++] = v;
    }
    uint32_t first_dup = ndup ? dup[0] : 0, late = ir->first_late_user;
    if (!ndup && (!start || !nkept)) return false; /* nothing shared, nothing to move in front */
    /* A value below the last duplicate reading a later value may read one; where
     * duplicates are dense (a fourth of the values after the first), the plain
     * sweep, with no bookkeeping between them, costs less. */
    bool sparse = ndup * 4 < ir->ninsts - first_dup;
    if (ndup && counted && sparse && (!late || late > last_load)) read_kept_near(ir, dup, ndup);
    else if (ndup) read_kept(ir, late && late < first_dup ? late : first_dup);
    /* The list starts ndup items later, so that what follows the run, most of the
     * body, stays where it is (agal_grow copies a list that does not start its
     * allocation); in front of it, what preceded the run, and the kept loads. */
    uint32_t *front = items + ndup;
    memmove(front + nkept, items, start * sizeof *items);
    memcpy(front, kept, nkept * sizeof *items);
    body->items = front;
    body->cap -= ndup;
    body->n -= ndup;
    ir->nlive -= ndup;
    ir->info.loads = nkept;
    return true;
}

agal_status agal_opt_share_loads(agal_ir *ir, bool *changed)
{
    *changed = false;
    /* A pass that changed what the IR uses (dead code, a copy folded) leaves the
     * builder's run of loads as it was, less the loads it removed: the info record
     * gathered again (by value number, with no list walked), the run is read as the
     * builder left it. */
    if (!ir->info.gathered) agal_ir_gather_info(ir, &ir->info);
    uint32_t start = loads_run(ir);
    if (start != UINT32_MAX) {
        *changed = share_run(ir, start);
        return AGAL_OK;
    }
    loads ld;
    memset(ld.has_first, 0, sizeof ld.has_first);
    ld.to = agal_alloc(ir->ctx, ir->ninsts * sizeof *ld.to);
    if (!ld.to) return AGAL_ERR_NOMEM;
    find_loads(ir, &ld, &ir->info);
    if (shared_already(ir, &ld)) return AGAL_OK;
    /* Room first: the IR stays as it was when there is none. At most one load of
     * each register joins the body (its own ones included). */
    agal_ir_list *body = &ir->lists[0];
    uint32_t need = body->n + ld.nkept;
    if (body->cap < need) {
        uint32_t *items = agal_grow(ir->ctx, body->items, body->n, need, sizeof *items);
        if (!items) return AGAL_ERR_NOMEM;
        body->items = items;
        body->cap = need;
    }
    share(ir, ld.to, ld.ndup != 0, 0);
    ir->nlive -= ld.ndup;
    memmove(body->items + ld.nkept, body->items, body->n * sizeof *body->items);
    memcpy(body->items, ld.kept, ld.nkept * sizeof *ld.kept);
    body->n += ld.nkept;
    *changed = true;
    return AGAL_OK;
}
