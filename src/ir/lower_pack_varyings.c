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

/* A new instruction of one or two operands, appended to the body. */
static uint32_t add(agal_ir *ir, agal_ir_op op, uint32_t a, uint32_t b, uint8_t bits, agal_status *err)
{
    uint32_t v = *err == AGAL_OK ? agal_ir_new(ir, op, op == IR_STORE ? IR_VOID : IR_F4, -1) : 0;
    if (v && !agal_ir_append(ir, 0, v)) v = 0;
    if (!v) {
        agal_fail(err, AGAL_ERR_NOMEM);
        return 0;
    }
    agal_ir_inst *in = &ir->insts[v];
    in->args[0] = a, in->args[1] = b;
    in->nargs = op == IR_MERGE ? 2 : a ? 1 : 0;
    in->mask = bits; /* the swizzle, merge mask or store mask */
    return v;
}

/* Vertex: the varyings' stores give way to one store a slot. */
static agal_status pack_stores(agal_ir *ir, bool *changed)
{
    const agal_ir_packing *p = &ir->packing;
    uint32_t stored[16] = {0};
    agal_ir_list *body = &ir->lists[0]; /* stores are in the body only */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < body->n; i++) {
        agal_ir_inst *in = &ir->insts[body->items[i]];
        if (in->op == IR_STORE && in->reg_type == AGAL_REG_VARYING) {
            stored[in->reg_num & 15] = in->args[0];
            in->op = IR_NOP;
            *changed = true;
            continue;
        }
        body->items[kept++] = body->items[i];
    }
    body->n = kept;
    agal_status err = AGAL_OK;
    for (unsigned s = 0; s < p->nslots; s++) {
        uint32_t value = 0;
        for (unsigned n = 0; n < 16; n++) {
            if (p->slot[n] != s || !stored[n]) continue;
            /* whole and in place: copy_prop would fold the swizzle away */
            uint8_t sw = to_slot(p, n);
            uint32_t moved = sw == AGAL_SWIZZLE_IDENTITY ? stored[n] : add(ir, IR_SWIZZLE, stored[n], 0, sw, &err);
            value = !value ? moved : add(ir, IR_MERGE, value, moved, lanes_of(p, n), &err);
        }
        if (!value) continue; /* no member the fragment program reads live (unread_varyings) */
        uint32_t st = add(ir, IR_STORE, value, 0, (uint8_t)((1u << p->width[s]) - 1u), &err);
        if (st) ir->insts[st].reg_type = IR_REG_PACKED, ir->insts[st].reg_num = (uint16_t)s;
    }
    return err;
}

/* The load of v<n>'s slot, made once (loads[slot]). */
static uint32_t loads_slot(agal_ir *ir, unsigned n, uint32_t *loads, agal_status *err)
{
    unsigned s = ir->packing.slot[n];
    if (!loads[s] && (loads[s] = add(ir, IR_INPUT, 0, 0, 0, err)) != 0)
        ir->insts[loads[s]].reg_type = IR_REG_PACKED, ir->insts[loads[s]].reg_num = (uint16_t)s;
    return loads[s];
}

/* Fragment: v<n>, rebuilt from its slot (one load a slot, loads[s]) in front of the
 * body: the components not carried are those it does not read, whatever they hold,
 * and those the vertex program never wrote, 0. */
static uint32_t unpacked(agal_ir *ir, unsigned n, uint32_t zero, uint32_t *loads, agal_status *err)
{
    const agal_ir_packing *p = &ir->packing;
    if (p->slot[n] == IR_NO_SLOT) return zero;
    if (p->carried[n] == 15) return loads_slot(ir, n, loads, err); /* alone in its slot, in order */
    uint32_t back = add(ir, IR_SWIZZLE, loads_slot(ir, n, loads, err), 0, from_slot(p, n), err);
    return p->zeroed[n] ? add(ir, IR_MERGE, back, zero, p->zeroed[n], err) : back;
}

/* by[v], v < n: what replaces load v (0: nothing). */
static uint32_t replacement(const uint32_t *by, uint32_t n, uint32_t v) { return v < n ? by[v] : 0; }

/* Every use of a replaced load reads its replacement, and the load is removed. */
static void replace_uses(agal_ir *ir, const uint32_t *by, uint32_t n)
{
    for (uint32_t v = 1; v < ir->ninsts; v++) {
        agal_ir_inst *in = &ir->insts[v];
        if (replacement(by, n, v)) {
            in->op = IR_NOP, in->nargs = 0;
            continue;
        }
        for (unsigned a = 0; a < in->nargs && in->op != IR_CONST; a++)
            if (replacement(by, n, in->args[a]))
                in->args[a] = by[in->args[a]], agal_ir_note_operand(ir, v, in->args[a]);
    }
}

static void drop_listed(agal_ir *ir, const uint32_t *by, uint32_t n)
{
    for (uint32_t l = 0; l < ir->nlists; l++) {
        agal_ir_list *list = &ir->lists[l];
        uint32_t kept = 0;
        for (uint32_t i = 0; i < list->n; i++)
            if (!replacement(by, n, list->items[i])) list->items[kept++] = list->items[i];
        list->n = kept;
    }
}

static agal_status unpack_loads(agal_ir *ir, bool *changed)
{
    uint32_t n0 = ir->ninsts, rebuilt[16] = {0}, loads[16] = {0};
    uint32_t *by = agal_zalloc(ir->ctx, n0 * sizeof *by);
    uint32_t zero = agal_ir_const(ir, 0, 0, 0, 0);
    if (!by || !zero) return AGAL_ERR_NOMEM;
    /* new instructions go to the body's end for now, then to its front */
    uint32_t body_n = ir->lists[0].n;
    agal_status err = AGAL_OK;
    for (uint32_t v = 1; v < n0 && err == AGAL_OK; v++) {
        const agal_ir_inst *in = &ir->insts[v];
        if (in->op != IR_INPUT || in->reg_type != AGAL_REG_VARYING) continue;
        unsigned n = in->reg_num & 15;
        if (!rebuilt[n]) rebuilt[n] = unpacked(ir, n, zero, loads, &err);
        ir->unpacked[n] = rebuilt[n] == zero ? 0 : rebuilt[n];
        by[v] = rebuilt[n];
        *changed = true;
    }
    if (err != AGAL_OK) return err;
    /* At most a load, a swizzle and a merge for each of the 16 varyings. */
    agal_ir_list *body = &ir->lists[0];
    uint32_t added = body->n - body_n, moved[3 * 16];
    if (added > AGAL_COUNTOF(moved)) return AGAL_ERR_INTERNAL;
    memcpy(moved, body->items + body_n, added * sizeof *moved);
    memmove(body->items + added, body->items, body_n * sizeof *body->items);
    memcpy(body->items, moved, added * sizeof *moved);
    replace_uses(ir, by, n0);
    drop_listed(ir, by, n0);
    return AGAL_OK;
}

agal_status agal_lower_pack_varyings(agal_ir *ir, bool *changed)
{
    *changed = false;
    if (!ir->packing.on) return AGAL_OK;
    /* once: a packed program has no AGAL varying left to pack */
    for (uint32_t v = 1; v < ir->ninsts; v++)
        if (ir->insts[v].reg_type == IR_REG_PACKED && ir->insts[v].op != IR_NOP) return AGAL_OK;
    return ir->prog->stage == AGAL_VERTEX ? pack_stores(ir, changed) : unpack_loads(ir, changed);
}
