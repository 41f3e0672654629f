/* lower_conventions.c: where Stage3D's conventions and the target's differ, decided
 * once (agal_conventions) and written into the IR as ordinary instructions, so no
 * back end spells them (Mesa's nir_lower_wpos_ytransform).
 *
 * Stage3D's clip space is Direct3D's: +y up, depth 0..w. Its screen, and so its
 * ddy, runs down the rows. The target gives two facts: its window's y (GL's points
 * up, Vulkan's down) and op's mapping (the clip option, the target's own by
 * default):
 * - AGAL_CLIP_VULKAN negates y (Vulkan's clip space has y down); depth is kept,
 *   since Vulkan's is 0..w too.
 * - AGAL_CLIP_GL maps depth to GL's -w..w; y stays up, as GL's clip space has it.
 * - AGAL_CLIP_NONE leaves op as written: the runtime fixes it with viewport state.
 * - AGAL_CLIP_CONTROL leaves op as written and unflipped: the runtime's clip
 *   control sets the depth range and, for a texture, the origin, which turns the
 *   image over as the flip would, the rows with it (ddy as below), but not the
 *   triangles' facing.
 * - ddy: d/dy is taken along the window's rows. Vulkan's run down, as Stage3D's:
 *   ddy is d/dy whatever op's mapping (with GL's or no mapping a Vulkan runtime
 *   flips with its viewport, which keeps the rows). GL's run up, so ddy is -d/dy,
 *   unless the shader itself negates y (AGAL_CLIP_VULKAN on GL), which turns the
 *   image over and the rows with it.
 * Every target also multiplies op.y (but AGAL_CLIP_CONTROL's) and ddy by the
 * runtime's render-to-texture flip: drawing to a texture turns the image over, and
 * the screen's y derivative with it. The flip is a system value, IR_YFLIP, read
 * once at the front of the body; each back end declares it its own way (a
 * specialization constant, a uniform, an override constant).
 *
 * What the pass writes, in the order the text back ends print it (`-op.y *
 * agal_yflip`, `2.0 * op.z - op.w`, `dFdy(x) * -agal_yflip`):
 *   vertex, before op's store, which then stores the last of them:
 *     %n = alu neg %op             (negate_y)
 *     %y = alu mul %op|%n, %flip
 *     %m = merge %op, %y.y
 *     %d = alu mul %two, %op       (gl_depth; %two the constant (2, 2, 2, 2))
 *     %w = swizzle %op.wwww
 *     %z = alu sub %d, %w
 *     %p = merge %m, %z.z
 *   fragment, after each ddy %a, whose register and uses %b takes over:
 *     %f = alu neg %flip           (ddy_negate)
 *     %b = alu mul %a, %flip|%f
 * The position's instructions come from no token (-1), ddy's from the ddy's.
 * Without a target (AGAL_CLIP_DEFAULT: -t ir) the IR stays as the program wrote it;
 * IR that reads the flip already has its conventions. */
#include "ir.h"

void agal_conventions(bool window_y_up, agal_clip clip, agal_ir_conventions *out)
{
    out->negate_y = clip == AGAL_CLIP_VULKAN;
    out->gl_depth = clip == AGAL_CLIP_GL;
    out->flip_position = clip != AGAL_CLIP_CONTROL;
    out->ddy_negate = window_y_up && !out->negate_y;
}

/* The same arithmetic as position() below, in the same order, on floats. */
void agal_conventions_position(const agal_ir_conventions *conv, float yflip, const float op[4], float out[4])
{
    float y = conv->negate_y ? -op[1] : op[1];
    out[0] = op[0];
    out[1] = conv->flip_position ? y * yflip : y;
    out[2] = conv->gl_depth ? 2.0f * op[2] - op[3] : op[2];
    out[3] = op[3];
}

typedef struct lowering {
    agal_ir *ir;
    agal_ir_conventions conv;
    uint32_t flip;   /* the IR_YFLIP */
    agal_ir_list at; /* the instructions the list being rewritten gets, in order */
    unsigned nddy;   /* the ddys scaled: their uses need redirecting */
    bool nomem;
} lowering;

/* The list being rewritten twice as long (out of line: most lists have room). */
static AGAL_COLD bool grow_at(lowering *lw)
{
    agal_ir_list *at = &lw->at;
    uint32_t cap = at->cap ? 2 * at->cap : 16;
    uint32_t *items = agal_grow(lw->ir->ctx, at->items, at->n, cap, sizeof *items);
    if (items) at->items = items, at->cap = cap;
    return items != NULL;
}

/* Appends v (0: its making failed) to the list being rewritten. */
static uint32_t put(lowering *lw, uint32_t v)
{
    agal_ir_list *at = &lw->at;
    if (!v || (at->n == at->cap && !grow_at(lw))) return lw->nomem = true, 0;
    at->items[at->n++] = v;
    return v;
}

/* put for an instruction the list had: where there is room, a plain store. */
static inline void keep(lowering *lw, uint32_t v)
{
    if (lw->at.n < lw->at.cap) lw->at.items[lw->at.n++] = v;
    else put(lw, v);
}

/* A new instruction where the instructions have no room (out of line: rare). */
static AGAL_COLD uint32_t new_grown(agal_ir *ir) { return agal_ir_new(ir, IR_NOP, IR_VOID, -1); }

/* A new instruction (agal_ir_new's: zeroed, no register) with its fields set at
 * once, made in place where the instructions have room, which the vertex body's
 * rewrite makes first. */
static uint32_t op2(lowering *lw, agal_ir_op op, unsigned aop, int32_t token, uint32_t a, uint32_t b)
{
    agal_ir *ir = lw->ir;
    uint32_t v = lw->nomem ? 0 : ir->ninsts < ir->inst_cap ? ir->ninsts++ : new_grown(ir);
    if (!v) return lw->nomem = true, 0;
    agal_ir_inst *insts = ir->insts;
    insts[v] = (agal_ir_inst){.op = (uint8_t)op,
                              .type = IR_F4,
                              .aop = (uint8_t)aop,
                              .nargs = b ? 2 : 1,
                              .reg_type = IR_NO_REG,
                              .token = (int16_t)token,
                              .args = {a, b}};
    /* its uses counted, as the builder counts them (agal_ir.live_only) */
    agal_ir_add_use(&insts[a]);
    if (b) agal_ir_add_use(&insts[b]);
    ir->nlive++;
    return put(lw, v);
}

static uint32_t alu(lowering *lw, unsigned aop, int32_t token, uint32_t a, uint32_t b)
{
    return op2(lw, IR_ALU, aop, token, a, b);
}

static uint32_t merge(lowering *lw, uint32_t old, uint32_t new, unsigned mask)
{
    uint32_t v = op2(lw, IR_MERGE, 0, -1, old, new);
    if (v) lw->ir->insts[v].mask = (uint8_t)mask;
    return v;
}

/* op in the target's clip space: the value its store then stores. Its constant 2
 * is made, not looked for among every value (agal_ir_const): the pass runs once,
 * first, when the builder's IR holds no constant but the zero; in IR read from
 * text that holds a 2 already it is a second literal alike, which every back end
 * writes as it would the first. */
static uint32_t position(lowering *lw, uint32_t op)
{
    uint32_t y = lw->conv.negate_y ? alu(lw, AGAL_OP_NEG, -1, op, 0) : op;
    uint32_t p = merge(lw, op, alu(lw, AGAL_OP_MUL, -1, y, lw->flip), 1u << 1);
    if (!lw->conv.gl_depth || !p) return p;
    uint32_t two = agal_ir_new(lw->ir, IR_CONST, IR_F4, -1);
    if (!two) return lw->nomem = true, 0;
    for (unsigned c = 0; c < 4; c++) lw->ir->insts[two].imm[c] = 2.0f;
    uint32_t d = alu(lw, AGAL_OP_MUL, -1, two, op);
    uint32_t w = op2(lw, IR_SWIZZLE, 0, -1, op, 0);
    if (w) lw->ir->insts[w].swizzle = 0xff; /* .wwww */
    return merge(lw, p, alu(lw, AGAL_OP_SUB, -1, d, w), 1u << 2);
}

/* ddy %a times the flip, as %b, which takes a's register: b is the ddy now. */
static uint32_t scaled_ddy(lowering *lw, uint32_t a)
{
    agal_ir_inst *in = &lw->ir->insts[a];
    int32_t token = in->token;
    uint32_t flip = lw->conv.ddy_negate ? alu(lw, AGAL_OP_NEG, token, lw->flip, 0) : lw->flip;
    uint32_t b = alu(lw, AGAL_OP_MUL, token, a, flip);
    if (!b) return 0;
    in = &lw->ir->insts[a];
    lw->ir->insts[b].reg_type = in->reg_type, lw->ir->insts[b].reg_num = in->reg_num;
    in->reg_type = IR_NO_REG, in->reg_num = 0;
    return b;
}

static bool is_ddy(const agal_ir_inst *in) { return in->op == IR_ALU && in->aop == AGAL_OP_DDY; }
static bool is_position(const agal_ir *ir, const agal_ir_inst *in)
{
    return in->op == IR_STORE && in->reg_type == AGAL_REG_OUTPUT && ir->prog->stage == AGAL_VERTEX;
}

/* List l again, with the conventions' instructions where they go; scaled[a]: the
 * ddy that replaces a. The body starts with the flip. */
static void rewrite(lowering *lw, uint32_t l, uint32_t *scaled)
{
    agal_ir *ir = lw->ir;
    /* Room for the list and what the body gets (the flip, op's seven at most): a
     * ddy's two more may grow it. */
    uint32_t cap = ir->lists[l].n + 8;
    lw->at = (agal_ir_list){agal_alloc(ir->ctx, cap * sizeof *lw->at.items), 0, cap};
    if (!lw->at.items) lw->at.cap = 0;
    if (l == 0) put(lw, lw->flip);
    for (uint32_t i = 0; i < ir->lists[l].n && !lw->nomem; i++) {
        uint32_t v = ir->lists[l].items[i];
        agal_ir_inst *in = &ir->insts[v];
        if (is_position(ir, in)) {
            uint32_t p = position(lw, in->args[0]);
            ir->insts[v].args[0] = p ? p : ir->insts[v].args[0];
            agal_ir_note_operand(ir, v, ir->insts[v].args[0]);
        }
        keep(lw, v);
        if (is_ddy(&ir->insts[v])) scaled[v] = scaled_ddy(lw, v), lw->nddy++;
    }
    agal_ir_list done = lw->at;
    if (!lw->nomem) ir->lists[l] = done;
}

/* Every use of a ddy but its scaling reads the scaled ddy; scaled has n entries
 * (the values before the pass). The uses move with it (a removed value's operands
 * are none), so the counts stay as exact as they were: nothing is left dead, and
 * dead code need not count them again. */
static void redirect(agal_ir *ir, const uint32_t *scaled, uint32_t n)
{
    for (uint32_t v = 1; v < ir->ninsts; v++) {
        agal_ir_inst *in = &ir->insts[v];
        for (unsigned a = 0; a < in->nargs; a++) {
            uint32_t x = in->args[a];
            if (x >= n || !scaled[x] || scaled[x] == v) continue;
            in->args[a] = scaled[x], agal_ir_note_operand(ir, v, scaled[x]);
            if (in->op == IR_NOP) continue;
            agal_ir_drop_use(ir, &ir->insts[x]);
            agal_ir_add_use(&ir->insts[scaled[x]]);
        }
    }
}

/* The body (the flip, op's store) and the lists holding a ddy. */
static bool needs_rewrite(const agal_ir *ir, uint32_t l)
{
    if (l == 0) return true;
    for (uint32_t i = 0; i < ir->lists[l].n; i++)
        if (is_ddy(&ir->insts[ir->lists[l].items[i]])) return true;
    return false;
}

/* How many instructions position() lists for these conventions (gl_depth's
 * constant 2 aside, which is in no list). */
static uint32_t position_length(const agal_ir_conventions *conv)
{
    return 2u + (conv->negate_y ? 1u : 0u) + (conv->gl_depth ? 4u : 0u);
}

/* A vertex program's body: no ddy, so nothing moves but op's store (the item at
 * at_store), which the builder put with the other stores at the body's end. The
 * flip goes in front and op's instructions before its store: the room for all of
 * them (and the constant 2) is made first, so that nothing fails half way, and the
 * list shifted in place once; position() then writes its instructions into the gap
 * rather than into a list of their own to copy. */
static void rewrite_vertex_body(lowering *lw, uint32_t at_store)
{
    agal_ir *ir = lw->ir;
    agal_ir_list *body = &ir->lists[0];
    uint32_t k = position_length(&lw->conv), need = body->n + 1 + k;
    if (body->cap < need) {
        uint32_t *items = agal_grow(ir->ctx, body->items, body->n, need, sizeof *items);
        if (!items) return (void)(lw->nomem = true);
        body->items = items, body->cap = need;
    }
    /* the list has its room: only the instructions' may grow */
    if (!agal_ir_reserve(ir, 0, k + lw->conv.gl_depth)) return (void)(lw->nomem = true);
    uint32_t *items = body->items, op_store = items[at_store];
    memmove(items + at_store + 1 + k, items + at_store, (body->n - at_store) * sizeof *items);
    memmove(items + 1, items, at_store * sizeof *items);
    items[0] = lw->flip;
    body->n += 1 + k;
    ir->nlive++;
    lw->at = (agal_ir_list){items + at_store + 1, 0, k};
    uint32_t op = ir->insts[op_store].args[0];
    bool saturated = ir->insts[op].nuses == IR_MAX_USES; /* before position's uses */
    uint32_t p = position(lw, op);
    if (lw->nomem) return;
    /* The store's use moves from op to p. position read op at least once more, so
     * a count saturated before it still is, exactly: then nothing to drop (a
     * register read everywhere, a shared load, keeps live_only). */
    if (!saturated) agal_ir_drop_use(ir, &ir->insts[op]);
    agal_ir_add_use(&ir->insts[p]);
    ir->insts[op_store].args[0] = p, agal_ir_note_operand(ir, op_store, p);
}

/* List l and the lists of its ifs, depth first (nesting is at most 4 deep, ir.h). */
static void rewrite_tree(lowering *lw, uint32_t l, uint32_t *scaled)
{
    agal_ir *ir = lw->ir;
    for (uint32_t i = 0; i < ir->lists[l].n; i++) {
        const agal_ir_inst *in = &ir->insts[ir->lists[l].items[i]];
        if (in->op != IR_IF) continue;
        uint32_t else_list = in->else_list; /* the rewrite makes instructions: insts moves */
        rewrite_tree(lw, in->then_list, scaled);
        rewrite_tree(lw, else_list, scaled);
    }
    if (!lw->nomem && needs_rewrite(ir, l)) rewrite(lw, l, scaled);
}

/* The index of op's store in the body (where every store is), or UINT32_MAX. */
static uint32_t position_at(const agal_ir *ir)
{
    const agal_ir_list *body = &ir->lists[0];
    for (uint32_t i = body->n; i-- > 0;)
        if (is_position(ir, &ir->insts[body->items[i]])) return i;
    return UINT32_MAX;
}

/* Is there anything the conventions change: op's store (at *at_store), or a ddy?
 * Not where they are in the IR already, which then reads the flip: only IR read
 * from text can (the pipeline runs this pass once, first, and only this pass makes
 * the flip), and the reader gathers its info record. Not op where it stays as
 * written, unflipped (AGAL_CLIP_CONTROL, which neither negates nor maps). */
static bool needs_conventions(const agal_ir *ir, const agal_ir_conventions *conv, uint32_t *at_store)
{
    if (ir->info.gathered && ir->info.yflip) return false;
    if (ir->prog->stage != AGAL_VERTEX) return ir->takes_ddy; /* the builder's note */
    if (!conv->flip_position) return false;
    *at_store = position_at(ir);
    return *at_store != UINT32_MAX;
}

agal_status agal_lower_conventions(agal_ir *ir, bool *changed)
{
    *changed = false;
    uint32_t at_store = UINT32_MAX;
    if (ir->clip == AGAL_CLIP_DEFAULT) return AGAL_OK;
    lowering lw = {.ir = ir};
    agal_conventions(ir->window_y_up, ir->clip, &lw.conv);
    if (!needs_conventions(ir, &lw.conv, &at_store)) return AGAL_OK;
    uint32_t n = ir->ninsts;
    lw.flip = agal_ir_new(ir, IR_YFLIP, IR_F4, -1);
    if (!lw.flip) return AGAL_ERR_NOMEM;
    ir->info.yflip = true; /* what else it adds tells nothing (info.c) */
    if (ir->prog->stage == AGAL_VERTEX) {
        rewrite_vertex_body(&lw, at_store);
    } else {
        uint32_t *scaled = agal_zalloc(ir->ctx, n * sizeof *scaled);
        if (!scaled) return AGAL_ERR_NOMEM;
        ir->nlive++; /* the flip, which the body's rewrite lists */
        rewrite_tree(&lw, 0, scaled);
        if (!lw.nomem && lw.nddy) redirect(ir, scaled, n);
    }
    if (lw.nomem) return AGAL_ERR_NOMEM;
    *changed = true;
    return AGAL_OK;
}
