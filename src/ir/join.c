/* join.c: the builder's if/else, NIR's nir_push_if / nir_push_else / nir_pop_if:
 * AGAL's ife/ine/ifg/ifl ... els ... eif become an IR_IF with two branch lists, and
 * the phis of the join after it.
 *
 * AGAL blocks are properly nested (the validator checks 3623/3624/3739/3752), so this
 * is a stack: push_if opens a frame that remembers the register values before the
 * block; push_else saves the values at the end of the then list and restarts from
 * the saved ones; pop_if compares the two ends and emits one phi per register that
 * differs, right after the IR_IF in the parent list. The IR_IF records the tokens of
 * its els and eif. The result is exactly what SPIR-V's OpSelectionMerge and GLSL's
 * if/else need; nothing is recovered later.
 *
 * Only a register a branch assigned can differ at the join, so the builder keeps the
 * set of slots assigned since the innermost branch began (b->changed), and pop_if
 * compares those alone, in slot order as before: a block of a few writes no longer
 * pays a test per tracked register, most of them mispredicted. */
#include "ir.h"

_Static_assert(IR_TRACKED_REGS <= 64, "a slot set is one 64-bit word");

struct agal_ir_frame {
    agal_ir_frame *up;
    uint32_t if_inst;     /* the IR_IF */
    uint32_t parent_list; /* list holding the IR_IF */
    bool in_else;
    uint64_t outer_changed;             /* the enclosing branch's b->changed at the if */
    uint64_t then_changed;              /* slots the then list assigned (valid when in_else) */
    uint32_t before[IR_TRACKED_REGS];   /* register values at the if */
    uint32_t then_end[IR_TRACKED_REGS]; /* register values at els (valid when in_else) */
};

/* A block token with no open block: the validator refuses it (3623), so a program
 * that gets here is a bug. */
static agal_status block_error(agal_ir_builder *b, int32_t token, const char *msg)
{
    agal_status st =
        agal_error(b->ir->ctx, 0, token, token >= 0 ? agal_token_offset(token) : -1, NULL, "internal: %s", msg);
    return st == AGAL_ERR_NOMEM ? st : AGAL_ERR_INTERNAL;
}

agal_status agal_ir_push_if(agal_ir_builder *b, uint32_t cond, int32_t token)
{
    agal_ir *ir = b->ir;
    /* A closed block's frame serves again: nesting is shallow, blocks many. */
    agal_ir_frame *f = b->spare;
    if (f) b->spare = f->up;
    else f = agal_alloc(ir->ctx, sizeof *f);
    uint32_t v = agal_ir_new(ir, IR_IF, IR_VOID, token);
    if (!f || !v || !agal_ir_append(ir, b->list, v)) return AGAL_ERR_NOMEM;
    uint32_t then_list = agal_ir_new_list(ir), else_list = agal_ir_new_list(ir);
    if (then_list == UINT32_MAX || else_list == UINT32_MAX) return AGAL_ERR_NOMEM;
    agal_ir_inst *in = &ir->insts[v];
    in->nargs = 1;
    in->args[0] = cond;
    agal_ir_add_use(&ir->insts[cond]); /* the builder counts uses as it makes them */
    in->then_list = then_list;
    in->else_list = else_list;
    in->els_token = in->eif_token = -1;
    f->up = b->top;
    f->if_inst = v;
    f->parent_list = b->list;
    f->in_else = false;
    f->outer_changed = b->changed;
    memcpy(f->before, b->regs.val, sizeof f->before);
    b->changed = 0;
    b->top = f;
    b->depth++;
    b->list = then_list;
    return AGAL_OK;
}

agal_status agal_ir_push_else(agal_ir_builder *b, int32_t token)
{
    agal_ir_frame *f = b->top;
    if (!f || f->in_else) return block_error(b, token, "els without an open if");
    f->in_else = true;
    f->then_changed = b->changed;
    b->changed = 0;
    memcpy(f->then_end, b->regs.val, sizeof f->then_end);
    b->ir->insts[f->if_inst].els_token = (int16_t)token;
    /* The else branch starts from the registers at the if; what either branch has
     * written stays "written" (outputs are stored at the end whatever the path). */
    memcpy(b->regs.val, f->before, sizeof b->regs.val);
    b->list = b->ir->insts[f->if_inst].else_list;
    return AGAL_OK;
}

uint32_t agal_ir_builder_zero(agal_ir_builder *b)
{
    /* No constant is made before the builder's: it is new, and zeroed as made. */
    if (!b->zero) b->zero = agal_ir_new(b->ir, IR_CONST, IR_F4, -1);
    return b->zero;
}

/* The value of a register on one path: its SSA value, or 0 (never written). */
static uint32_t or_zero(agal_ir_builder *b, uint32_t v) { return v ? v : agal_ir_builder_zero(b); }

/* The phis of the slots in candidates whose values differ at the ends of the two
 * branches; they become the registers' values. then_end or else_end may be
 * b->regs.val itself: a slot is read before its phi replaces it. *made: the slots
 * given a phi. */
static agal_status join(agal_ir_builder *b, agal_ir_frame *f, const uint32_t *then_end, const uint32_t *else_end,
                        uint64_t candidates, uint64_t *made, int32_t token)
{
    agal_ir *ir = b->ir;
    for (; candidates; candidates &= candidates - 1) {
        int s = agal_lowest_bit(candidates);
        uint32_t t = then_end[s], e = else_end[s];
        if (t == e) continue;
        uint32_t t0 = or_zero(b, t), e0 = or_zero(b, e);
        uint32_t phi = agal_ir_new(ir, IR_PHI, IR_F4, token);
        if (!t0 || !e0 || !phi || !agal_ir_append(ir, f->parent_list, phi)) return AGAL_ERR_NOMEM;
        agal_ir_inst *in = &ir->insts[phi];
        unsigned type, num;
        agal_ir_slot_reg(s, &type, &num);
        in->nargs = 2;
        in->args[0] = t0;
        in->args[1] = e0;
        agal_ir_add_use(&ir->insts[t0]), agal_ir_add_use(&ir->insts[e0]);
        in->reg_type = (uint8_t)type;
        in->reg_num = (uint16_t)num;
        if (t0 == e0) agal_ir_note_copy(ir, phi); /* both paths read the zero */
        b->regs.val[s] = phi;
        *made |= 1ull << s;
    }
    return AGAL_OK;
}

agal_status agal_ir_pop_if(agal_ir_builder *b, int32_t token)
{
    agal_ir_frame *f = b->top;
    if (!f) return block_error(b, token, "eif without an open if");
    b->ir->insts[f->if_inst].eif_token = (int16_t)token;
    const uint32_t *then_end = f->in_else ? f->then_end : b->regs.val;
    const uint32_t *else_end = f->in_else ? b->regs.val : f->before;
    uint64_t candidates = b->changed | (f->in_else ? f->then_changed : 0), made = 0;
    b->list = f->parent_list;
    agal_status st = join(b, f, then_end, else_end, candidates, &made, token);
    b->changed = f->outer_changed | made;
    b->joined = made;
    b->top = f->up;
    b->depth--;
    f->up = b->spare;
    b->spare = f;
    return st;
}
