/* lower_pack_varyings.c: a pair's varyings packed into as few slots as the
 * components they carry allow, so that a pair fits a device that counts varying
 * vectors (ES 1.00's Appendix A.7), inter-stage variables or locations (WebGPU,
 * Vulkan) or components (wgpu's GL backend). Run only for a pair under limits
 * (agal_upload with limits): both stages get the same table (ir->packing, made by
 * agal_pack_plan from the tokens' masks), and without limits nothing changes.
 *
 * The rule (docs/decisions.md, "Packing varyings"): an AGAL varying carries the
 * components the fragment program reads of those the vertex program writes; it is
 * never split (one slot, its components in order from one offset), so every slot
 * is one declared variable of 1 to 4 components and each stage's shift is one
 * swizzle. Widest first, each into the first slot of its kind (centroid or not)
 * with room: no two slots could share one, so ES 1.00's own packing cannot gain
 * on it. A component the fragment program reads but the vertex program never wrote
 * reads 0, as Flash and the interpreter give and the unpacked translation stores. */
#include "ir.h"

static unsigned popcount4(unsigned m) { return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1); }

/* The first slot of the same kind with room for k components, or a new one. */
static unsigned slot_for(agal_ir_packing *p, unsigned k, bool centroid)
{
    for (unsigned s = 0; s < p->nslots; s++)
        if ((p->centroid >> s & 1) == centroid && p->width[s] + k <= 4) return s;
    unsigned s = p->nslots++;
    if (centroid) p->centroid |= (uint16_t)(1u << s);
    return s;
}

void agal_pack_plan(const uint8_t read[16], const uint8_t written[16], uint16_t centroid, agal_ir_packing *out)
{
    memset(out, 0, sizeof *out);
    out->on = true;
    memset(out->slot, IR_NO_SLOT, sizeof out->slot);
    for (unsigned n = 0; n < 16; n++) out->zeroed[n] = (uint8_t)(read[n] & ~written[n] & 15u);
    for (unsigned k = 4; k >= 1; k--)
        for (unsigned n = 0; n < 16; n++) {
            unsigned carried = read[n] & written[n] & 15u;
            if (popcount4(carried) != k) continue;
            unsigned s = slot_for(out, k, centroid >> n & 1);
            out->slot[n] = (uint8_t)s;
            out->offset[n] = out->width[s];
            out->carried[n] = (uint8_t)carried;
            out->width[s] = (uint8_t)(out->width[s] + k);
        }
}

/* By a varying's carried components (bit 0 x), swizzles (2 bits a lane, x lowest):
 * COMPACT, lane i the i-th carried component, lanes past the last repeating it (xz:
 * .xzzz, 0xa8); RANK, lane c the rank of component c among them, 0 where not
 * carried (xz: z's 1 in lane 2, 0x10). */
static const uint8_t COMPACT[16] = {0x00, 0x00, 0x55, 0x54, 0xaa, 0xa8, 0xa9, 0xa4,
                                    0xff, 0xfc, 0xfd, 0xf4, 0xfe, 0xf8, 0xf9, 0xe4};
static const uint8_t RANK[16] = {0x00, 0x00, 0x00, 0x04, 0x00, 0x10, 0x10, 0x24,
                                 0x00, 0x40, 0x40, 0x84, 0x40, 0x90, 0x90, 0xe4};

/* The swizzle moving v<n>'s carried components to their offset in the slot
 * (vertex: lanes past them repeat the last, lanes before it the first), or back
 * (fragment: lanes not carried read the slot's first, which the merge then
 * replaces by 0): lane sums stay below 4, so no lane carries into the next. */
static uint8_t to_slot(const agal_ir_packing *p, unsigned n)
{
    unsigned compact = COMPACT[p->carried[n] & 15], off = 2 * p->offset[n];
    return (uint8_t)(compact << off | (compact & 3) * (0x55u & ((1u << off) - 1)));
}

static uint8_t from_slot(const agal_ir_packing *p, unsigned n)
{
    return (uint8_t)(p->offset[n] * 0x55u + RANK[p->carried[n] & 15]);
}

static uint8_t lanes_of(const agal_ir_packing *p, unsigned n)
{
    return (uint8_t)(((1u << popcount4(p->carried[n])) - 1u) << p->offset[n]);
}

/* The most instructions the pass adds to a fragment program: a load a slot, and a
 * swizzle and a merge for each varying carried (a vertex program's bound is in
 * pack_stores). Reserved at once, so that adding one cannot fail. */
static uint32_t most_unpacked(const agal_ir_packing *p)
{
    uint32_t n = p->nslots;
    for (unsigned v = 0; v < 16; v++) n += p->slot[v] != IR_NO_SLOT ? 2 : 0;
    return n;
}

/* Value v made an instruction of one or two operands (a new one, or a varying's
 * load turned into its rebuilt value, whose readers then read it as they are), its
 * operands' uses counted as the builder counts them (agal_ir.live_only): the pass
 * keeps the count exact where it can. Listed at the body's end (room reserved). */
static uint32_t make(agal_ir *ir, uint32_t v, uint8_t nuses, agal_ir_op op, uint32_t a, uint32_t b, uint8_t bits)
{
    unsigned nargs = op == IR_MERGE ? 2 : a ? 1 : 0;
    agal_ir_list *body = &ir->lists[0];
    body->items[body->n++] = v;
    if (nargs > 0) agal_ir_add_use(&ir->insts[a]);
    if (nargs > 1) agal_ir_add_use(&ir->insts[b]);
    agal_ir_note_operand(ir, v, a > b ? a : b);
    ir->insts[v] = (agal_ir_inst){.op = (uint8_t)op,
                                  .type = (uint8_t)(op == IR_STORE ? IR_VOID : IR_F4),
                                  .nargs = (uint8_t)nargs,
                                  .mask = bits, /* the swizzle, merge mask or store mask */
                                  .reg_type = IR_NO_REG,
                                  .token = -1,
                                  .nuses = nuses,
                                  .args = {a, b}};
    return v; /* no copy (agal_ir_copy_of): its swizzles move and its merges join parts */
}

/* A new instruction, live. */
static uint32_t add(agal_ir *ir, agal_ir_op op, uint32_t a, uint32_t b, uint8_t bits)
{
    ir->nlive++;
    return make(ir, ir->ninsts++, 0, op, a, b, bits);
}

static bool stores_varying(const agal_ir *ir, uint32_t v)
{
    return ir->insts[v].op == IR_STORE && ir->insts[v].reg_type == AGAL_REG_VARYING;
}

/* The body's first varying store (its length for none). The stores end the body
 * (ir.h), each varying stored once: where the info record holds, the last as many
 * as it says are stored hold them all, found from the end. */
static uint32_t first_varying_store(const agal_ir *ir)
{
    const agal_ir_list *body = &ir->lists[0];
    uint32_t i = 0, first = body->n;
    if (!ir->info.gathered) {
        while (i < body->n && !stores_varying(ir, body->items[i])) i++;
        return i;
    }
    for (unsigned left = ir->info.varyings_written; left && first;)
        if (stores_varying(ir, body->items[--first])) left &= left - 1;
    return first;
}

/* Vertex: the varyings' stores give way to one store a slot. */
static AGAL_NOINLINE agal_status pack_stores(agal_ir *ir, bool *changed)
{
    const agal_ir_packing *p = &ir->packing;
    uint32_t stored[16] = {0};
    uint16_t members[16] = {0};                     /* slot s: bit n, v<n> is stored and carried there */
    uint32_t carried = 0;                           /* such stores: each makes at most two instructions */
    agal_ir_list *body = &ir->lists[0];             /* stores are in the body only */
    uint32_t i = first_varying_store(ir), kept = i; /* the body is rewritten from there */
    for (; i < body->n; i++) {
        uint32_t v = body->items[i];
        if (!stores_varying(ir, v)) {
            body->items[kept++] = v;
            continue;
        }
        unsigned n = ir->insts[v].reg_num & 15;
        stored[n] = ir->insts[v].args[0];
        if (p->slot[n] != IR_NO_SLOT) members[p->slot[n]] |= (uint16_t)(1u << n), carried++;
        else ir->live_only = false; /* a value only this store read is dead now */
        agal_ir_drop_use(ir, &ir->insts[stored[n]]);
        ir->insts[v].op = IR_NOP;
        ir->info.varyings_written &= (uint16_t) ~(1u << n);
        *changed = true;
    }
    ir->nlive -= body->n - kept;
    body->n = kept;
    if (!agal_ir_reserve(ir, 0, 2 * carried)) return AGAL_ERR_NOMEM;
    for (unsigned s = 0; s < p->nslots; s++) {
        uint32_t value = 0;
        for (unsigned n = 0, m = members[s]; m >> n; n++) {
            if (!(m >> n & 1)) continue;
            /* whole and in place: copy_prop would fold the swizzle away */
            uint8_t sw = to_slot(p, n);
            uint32_t moved = sw == AGAL_SWIZZLE_IDENTITY ? stored[n] : add(ir, IR_SWIZZLE, stored[n], 0, sw);
            value = !value ? moved : add(ir, IR_MERGE, value, moved, lanes_of(p, n));
        }
        if (!value) continue; /* no member the fragment program reads live (unread_varyings) */
        uint32_t st = add(ir, IR_STORE, value, 0, (uint8_t)((1u << p->width[s]) - 1u));
        ir->insts[st].reg_type = IR_REG_PACKED, ir->insts[st].reg_num = (uint16_t)s;
        ir->info.packed |= (uint16_t)(1u << s);
    }
    return AGAL_OK;
}

/* What a fragment program's unpacking makes once. */
typedef struct unpacking {
    uint32_t zero;       /* the (0,0,0,0) constant, made when a component reads 0 */
    uint16_t slots_made; /* bit s: loads[s] holds slot s's load */
    uint32_t loads[16];
} unpacking;

/* The load of v<n>'s slot, made once. */
static uint32_t loads_slot(agal_ir *ir, unsigned n, unpacking *u)
{
    unsigned s = ir->packing.slot[n];
    if (!(u->slots_made >> s & 1)) {
        u->slots_made |= (uint16_t)(1u << s);
        u->loads[s] = add(ir, IR_INPUT, 0, 0, 0);
        ir->insts[u->loads[s]].reg_type = IR_REG_PACKED, ir->insts[u->loads[s]].reg_num = (uint16_t)s;
        ir->info.packed |= (uint16_t)(1u << s), ir->info.loads++;
    }
    return u->loads[s];
}

/* The zero constant, found or made (the room for it reserved). */
static uint32_t zero_of(agal_ir *ir, unpacking *u)
{
    if (!u->zero) u->zero = agal_ir_const(ir, 0, 0, 0, 0);
    return u->zero;
}

/* Value `at` made that instruction in place (a varying's load turned into its
 * rebuilt value: its readers read it as they are), or a new one for none. */
static uint32_t made_at(agal_ir *ir, uint32_t at, agal_ir_op op, uint32_t a, uint32_t b, uint8_t bits)
{
    return at ? make(ir, at, ir->insts[at].nuses, op, a, b, bits) : add(ir, op, a, b, bits);
}

/* Fragment: v<n>, rebuilt from its slot (one load a slot) in front of the body: the
 * components not carried are those it does not read, whatever they hold, and those
 * the vertex program never wrote, 0. Where it is an instruction of its own (a
 * swizzle, or a merge after one), load `at` becomes it, if any. */
static uint32_t unpacked(agal_ir *ir, unsigned n, unpacking *u, uint32_t at)
{
    const agal_ir_packing *p = &ir->packing;
    if (p->slot[n] == IR_NO_SLOT) return zero_of(ir, u);
    uint32_t slot = loads_slot(ir, n, u);
    if (p->carried[n] == 15) return slot; /* alone in its slot, in order */
    if (!p->zeroed[n]) return made_at(ir, at, IR_SWIZZLE, slot, 0, from_slot(p, n));
    uint32_t back = add(ir, IR_SWIZZLE, slot, 0, from_slot(p, n));
    return made_at(ir, at, IR_MERGE, back, zero_of(ir, u), p->zeroed[n]);
}

/* Value v's operands that are replaced loads (removed, args[0] their replacement:
 * no map of every value) read their replacement; how many it replaced. */
static inline uint32_t replace_operands(agal_ir *ir, uint32_t v)
{
    agal_ir_inst *insts = ir->insts, *in = &insts[v]; /* a constant has none: its bits are there */
    uint32_t n = 0;
    for (unsigned a = 0, nargs = in->nargs; a < nargs; a++) {
        const agal_ir_inst *x = &insts[in->args[a]];
        if (x->op != IR_NOP) continue;
        uint32_t y = x->args[0];
        in->args[a] = y, agal_ir_note_operand(ir, v, y), agal_ir_add_use(&insts[y]), n++;
    }
    if (n && agal_ir_copy_of(ir, v)) agal_ir_note_copy(ir, v); /* a phi of both loads of one varying */
    return n;
}

/* The replaced loads (dropped of them: how many, each removed) leave the lists;
 * each is in one. */
static void drop_listed(agal_ir *ir, uint32_t dropped)
{
    for (uint32_t l = 0; l < ir->nlists && dropped; l++) {
        agal_ir_list *list = &ir->lists[l];
        uint32_t kept = 0, i = 0;
        for (; i < list->n && dropped; i++) {
            uint32_t v = list->items[i];
            if (ir->insts[v].op == IR_NOP) dropped--;
            else list->items[kept++] = v;
        }
        if (kept == i) continue; /* nothing of this list dropped */
        memmove(list->items + kept, list->items + i, (list->n - i) * sizeof *list->items);
        list->n = kept + (list->n - i);
    }
}

/* The unpacking's instructions (the body's last `added`), loads first, go in front
 * of every user: after the body's first `run` items' loads (the builder's run,
 * which opt_share_loads then reads alone, the slots' loads joining it), which stay
 * and close up (the varyings' loads there leave it), else first. One move. */
static void place_unpacked(agal_ir *ir, uint32_t run, uint32_t added)
{
    agal_ir_list *body = &ir->lists[0];
    uint32_t *items = body->items, end = body->n - added, kept = 0, made[16 + 2 * 16], k = 0;
    for (uint32_t i = 0; i < run; i++)
        if (agal_ir_is_load(&ir->insts[items[i]])) items[kept++] = items[i];
    for (uint32_t i = end; i < body->n; i++)
        if (ir->insts[items[i]].op == IR_INPUT) made[k++] = items[i];
    for (uint32_t i = end; i < body->n; i++)
        if (ir->insts[items[i]].op != IR_INPUT) made[k++] = items[i];
    memmove(items + kept + added, items + run, (end - run) * sizeof *items);
    memcpy(items + kept, made, added * sizeof *items);
    body->n = kept + added + (end - run);
}

/* The loads that start the body (before the unpacking's last `added`) where the
 * info record holds, else none. */
static uint32_t leading_loads(const agal_ir *ir, uint32_t added)
{
    const agal_ir_list *body = &ir->lists[0];
    uint32_t n = 0;
    while (ir->info.gathered && n < body->n - added && agal_ir_is_load(&ir->insts[body->items[n]])) n++;
    return n;
}

static bool loads_varying(const agal_ir_inst *in) { return in->op == IR_INPUT && in->reg_type == AGAL_REG_VARYING; }

/* The builder's loads, where they all are in a run in front of the body in value
 * order (the info record, which counts them, holds): its length, else 0. */
static uint32_t loads_in_front(const agal_ir *ir)
{
    const agal_ir_list *body = &ir->lists[0];
    uint32_t n = ir->info.gathered ? ir->info.loads : 0, last = 0;
    if (n > body->n) return 0;
    for (uint32_t i = 0; i < n; last = body->items[i++])
        if (!agal_ir_is_load(&ir->insts[body->items[i]]) || body->items[i] < last) return 0;
    return n;
}

/* What the loads' replacement leaves to do: loads removed (their readers to be
 * rewritten: their uses, the lowest), loads turned in place into their varying
 * rebuilt. */
typedef struct replaced {
    uint32_t removed, uses, first, turned;
    bool saturated;
} replaced;

/* Varying load v replaced by the varying rebuilt (made at its first load, there in
 * place where `in_place` and it is an instruction of its own), or removed, its
 * replacement in args[0]. */
static void replace_load(agal_ir *ir, uint32_t v, bool in_place, unpacking *u, replaced *r)
{
    unsigned n = ir->insts[v].reg_num & 15;
    uint32_t by = ir->unpacked[n]; /* 0: not made yet, or the zero */
    if (!by) by = unpacked(ir, n, u, in_place ? v : 0), ir->unpacked[n] = by == u->zero ? 0 : by;
    ir->info.inputs &= (uint16_t) ~(1u << n);
    if (by == v) {
        r->turned++;
        return;
    }
    agal_ir_inst *in = &ir->insts[v];
    in->op = IR_NOP, in->args[0] = by;
    r->first = r->first ? r->first : v, r->removed++, r->uses += in->nuses;
    r->saturated |= in->nuses == IR_MAX_USES;
}

static AGAL_NOINLINE agal_status unpack_loads(agal_ir *ir, bool *changed)
{
    uint32_t n0 = ir->ninsts, late = ir->first_late_user; /* the loads turned in place lower it */
    unpacking u = {0};
    replaced r = {0};
    /* room for the zero too: nothing made here can fail */
    if (!agal_ir_reserve(ir, 0, most_unpacked(&ir->packing) + 1)) return AGAL_ERR_NOMEM;
    /* The loads in value order, each replaced (the rebuilt values made in that
     * order): from the run where it holds them all (in place where it can: then
     * they leave the run only), else from every value. */
    const uint32_t *items = ir->lists[0].items;
    uint32_t body_n = ir->lists[0].n, run = loads_in_front(ir);
    for (uint32_t i = 0, n = run ? run : n0; i < n; i++) {
        uint32_t v = run ? items[i] : i;
        if (loads_varying(&ir->insts[v])) replace_load(ir, v, run != 0, &u, &r);
    }
    if (!r.removed && !r.turned) return AGAL_OK; /* nothing to unpack (as in a packed program, run again) */
    *changed = true;
    /* The removed loads' readers follow them (or read later values, from
     * first_late_user): where the uses are counted (live_only, none saturated),
     * the walk ends at the last. */
    uint32_t from = late && late < r.first ? late : r.first + 1;
    if (!ir->live_only || r.saturated) r.uses = UINT32_MAX;
    for (uint32_t v = from; r.removed && v < n0 && r.uses; v++) r.uses -= replace_operands(ir, v);
    uint32_t added = ir->lists[0].n - body_n;
    if (!run) drop_listed(ir, r.removed), run = leading_loads(ir, added);
    ir->nlive -= r.removed;
    ir->info.loads -= r.removed + r.turned;
    ir->info.centroid_varyings = 0; /* no sample's coordinate is a varying's load now */
    place_unpacked(ir, run, added);
    return AGAL_OK;
}

agal_status agal_lower_pack_varyings(agal_ir *ir, bool *changed)
{
    *changed = false;
    if (!ir->packing.on) return AGAL_OK; /* most programs: the two are out of line, and their frames not paid */
    /* once by itself: a packed program has no AGAL varying left to pack */
    /* The uses, the live count and the info record are kept as the builder made
     * them (a dropped store's value unread is the one thing that can die), so the
     * passes after it still skip what the builder's facts let them. */
    return ir->prog->stage == AGAL_VERTEX ? pack_stores(ir, changed) : unpack_loads(ir, changed);
}
