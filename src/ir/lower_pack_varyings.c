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

/* The swizzle moving v<n>'s carried components to their offset in the slot
 * (vertex: lanes past them repeat the last), or back (fragment: lanes not carried
 * read the slot's first, which the merge then replaces by 0). */
static uint8_t to_slot(const agal_ir_packing *p, unsigned n)
{
    unsigned comps[4], k = 0, sw = 0;
    for (unsigned c = 0; c < 4; c++)
        if (p->carried[n] >> c & 1) comps[k++] = c;
    for (unsigned lane = 0; lane < 4; lane++) {
        unsigned i = lane < p->offset[n] ? 0 : lane - p->offset[n];
        sw |= comps[i < k ? i : k - 1] << (2 * lane);
    }
    return (uint8_t)sw;
}

static uint8_t from_slot(const agal_ir_packing *p, unsigned n)
{
    unsigned sw = 0, at = p->offset[n];
    for (unsigned c = 0; c < 4; c++) {
        unsigned lane = p->offset[n];
        if (p->carried[n] >> c & 1) lane = at++;
        sw |= lane << (2 * c);
    }
    return (uint8_t)sw;
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

/* A new instruction of one or two operands, appended to the body (room reserved),
 * its operands' uses counted and itself live, as the builder counts them
 * (agal_ir.live_only): the pass keeps the count exact where it can. */
static uint32_t add(agal_ir *ir, agal_ir_op op, uint32_t a, uint32_t b, uint8_t bits)
{
    uint32_t v = ir->ninsts++;
    unsigned nargs = op == IR_MERGE ? 2 : a ? 1 : 0;
    agal_ir_list *body = &ir->lists[0];
    body->items[body->n++] = v;
    ir->nlive++;
    if (nargs > 0) agal_ir_add_use(&ir->insts[a]);
    if (nargs > 1) agal_ir_add_use(&ir->insts[b]);
    ir->insts[v] = (agal_ir_inst){.op = (uint8_t)op,
                                  .type = (uint8_t)(op == IR_STORE ? IR_VOID : IR_F4),
                                  .nargs = (uint8_t)nargs,
                                  .mask = bits, /* the swizzle, merge mask or store mask */
                                  .reg_type = IR_NO_REG,
                                  .token = -1,
                                  .args = {a, b}};
    if (agal_ir_copy_of(ir, v)) agal_ir_note_copy(ir, v);
    return v;
}

static bool stores_varying(const agal_ir *ir, uint32_t v)
{
    return ir->insts[v].op == IR_STORE && ir->insts[v].reg_type == AGAL_REG_VARYING;
}

/* Vertex: the varyings' stores give way to one store a slot. */
static agal_status pack_stores(agal_ir *ir, bool *changed)
{
    const agal_ir_packing *p = &ir->packing;
    uint32_t stored[16] = {0};
    uint16_t members[16] = {0};         /* slot s: bit n, v<n> is stored and carried there */
    uint32_t carried = 0;               /* such stores: each makes at most two instructions */
    agal_ir_list *body = &ir->lists[0]; /* stores are in the body only */
    uint32_t i = 0;
    while (i < body->n && !stores_varying(ir, body->items[i])) i++;
    uint32_t kept = i; /* the body is rewritten from its first varying store */
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

/* The load of v<n>'s slot, made once (loads[slot]). */
static uint32_t loads_slot(agal_ir *ir, unsigned n, uint32_t *loads)
{
    unsigned s = ir->packing.slot[n];
    if (!loads[s]) {
        loads[s] = add(ir, IR_INPUT, 0, 0, 0);
        ir->insts[loads[s]].reg_type = IR_REG_PACKED, ir->insts[loads[s]].reg_num = (uint16_t)s;
        ir->info.packed |= (uint16_t)(1u << s), ir->info.loads++;
    }
    return loads[s];
}

/* Fragment: v<n>, rebuilt from its slot (one load a slot, loads[s]) in front of the
 * body: the components not carried are those it does not read, whatever they hold,
 * and those the vertex program never wrote, 0. */
static uint32_t unpacked(agal_ir *ir, unsigned n, uint32_t zero, uint32_t *loads)
{
    const agal_ir_packing *p = &ir->packing;
    if (p->slot[n] == IR_NO_SLOT) return zero;
    if (p->carried[n] == 15) return loads_slot(ir, n, loads); /* alone in its slot, in order */
    uint32_t back = add(ir, IR_SWIZZLE, loads_slot(ir, n, loads), 0, from_slot(p, n));
    return p->zeroed[n] ? add(ir, IR_MERGE, back, zero, p->zeroed[n]) : back;
}

/* Value v's operands that are replaced loads (by[a], a < n) read their replacement. */
static inline void replace_operands(agal_ir *ir, const uint32_t *by, uint32_t n, uint32_t v)
{
    agal_ir_inst *in = &ir->insts[v]; /* a constant has none: its bits are there */
    for (unsigned a = 0; a < in->nargs; a++) {
        uint32_t x = in->args[a], y = x < n ? by[x] : 0;
        if (y) in->args[a] = y, agal_ir_note_operand(ir, v, y), agal_ir_add_use(&ir->insts[y]);
    }
    if (in->op == IR_PHI) agal_ir_note_copy(ir, v); /* both loads of one varying: one value */
}

/* The replaced loads (dropped of them: how many) leave the lists; each is in one. */
static void drop_listed(agal_ir *ir, const uint32_t *by, uint32_t n, uint32_t dropped)
{
    for (uint32_t l = 0; l < ir->nlists && dropped; l++) {
        agal_ir_list *list = &ir->lists[l];
        uint32_t kept = 0, i = 0;
        for (; i < list->n && dropped; i++) {
            uint32_t v = list->items[i];
            if (v < n && by[v]) dropped--;
            else list->items[kept++] = v;
        }
        if (kept == i) continue; /* nothing of this list dropped */
        memmove(list->items + kept, list->items + i, (list->n - i) * sizeof *list->items);
        list->n = kept + (list->n - i);
    }
}

/* The unpacking's instructions (the body's last `added`), loads first, go in front
 * of every user: after the run of loads that starts the body where the info record
 * holds (the builder's, which opt_share_loads then reads alone, the slots' loads
 * joining it), else first. */
static void place_unpacked(agal_ir *ir, uint32_t added)
{
    agal_ir_list *body = &ir->lists[0];
    uint32_t *items = body->items, old_n = body->n - added, at = 0, moved[16 + 2 * 16], k = 0;
    while (ir->info.gathered && at < old_n && agal_ir_is_load(&ir->insts[items[at]])) at++;
    for (uint32_t i = old_n; i < body->n; i++)
        if (ir->insts[items[i]].op == IR_INPUT) moved[k++] = items[i];
    for (uint32_t i = old_n; i < body->n; i++)
        if (ir->insts[items[i]].op != IR_INPUT) moved[k++] = items[i];
    memmove(items + at + added, items + at, (old_n - at) * sizeof *items);
    memcpy(items + at, moved, added * sizeof *items);
}

/* The first varying load, or 0: a program without one has nothing to unpack (as a
 * packed one, run again). */
static uint32_t first_varying_load(const agal_ir *ir)
{
    for (uint32_t v = 1; v < ir->ninsts; v++)
        if (ir->insts[v].op == IR_INPUT && ir->insts[v].reg_type == AGAL_REG_VARYING) return v;
    return 0;
}

static agal_status unpack_loads(agal_ir *ir, bool *changed)
{
    uint32_t first = first_varying_load(ir);
    if (!first) return AGAL_OK;
    uint32_t n0 = ir->ninsts, rebuilt[16] = {0}, loads[16] = {0}, late = ir->first_late_user, dropped = 0;
    uint32_t *by = agal_zalloc(ir->ctx, n0 * sizeof *by);
    uint32_t zero = agal_ir_const(ir, 0, 0, 0, 0);
    if (!by || !zero || !agal_ir_reserve(ir, 0, most_unpacked(&ir->packing))) return AGAL_ERR_NOMEM;
    /* new instructions go to the body's end for now, then to its front */
    uint32_t body_n = ir->lists[0].n;
    *changed = true;
    ir->loads_unique = false; /* the slots' loads join the varyings' (agal_ir_load_key) */
    /* One walk: a load is replaced before the values after it read it; values below
     * the first one read nothing replaced. */
    for (uint32_t v = first; v < n0; v++) {
        agal_ir_inst *in = &ir->insts[v];
        if (in->op != IR_INPUT || in->reg_type != AGAL_REG_VARYING) {
            replace_operands(ir, by, n0, v);
            continue;
        }
        unsigned n = in->reg_num & 15;
        if (!rebuilt[n]) rebuilt[n] = unpacked(ir, n, zero, loads);
        ir->unpacked[n] = rebuilt[n] == zero ? 0 : rebuilt[n];
        by[v] = rebuilt[n];
        in->op = IR_NOP, in->nargs = 0;
        ir->info.inputs &= (uint16_t) ~(1u << n);
        dropped++;
    }
    /* values that read later ones (from the pass's start) read loads the walk had
     * not reached */
    for (uint32_t v = late; late && v < n0; v++)
        if (ir->insts[v].op != IR_NOP) replace_operands(ir, by, n0, v);
    uint32_t added = ir->lists[0].n - body_n;
    drop_listed(ir, by, n0, dropped);
    ir->nlive -= dropped;
    ir->info.loads -= dropped;
    ir->info.centroid_varyings = 0; /* no sample's coordinate is a varying's load now */
    place_unpacked(ir, added);
    return AGAL_OK;
}

agal_status agal_lower_pack_varyings(agal_ir *ir, bool *changed)
{
    *changed = false;
    if (!ir->packing.on) return AGAL_OK;
    /* once by itself: a packed program has no AGAL varying left to pack */
    /* The uses, the live count and the info record are kept as the builder made
     * them (a dropped store's value unread is the one thing that can die), so the
     * passes after it still skip what the builder's facts let them. */
    return ir->prog->stage == AGAL_VERTEX ? pack_stores(ir, changed) : unpack_loads(ir, changed);
}
