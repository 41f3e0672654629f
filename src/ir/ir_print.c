/* ir_print.c: the IR as text, for `agal2spv -t ir` and tests.
 *
 *   %3 = uniform vc4
 *   %4 = swizzle %3.xxyz
 *   %5 = alu add %1, %4 -> vt0  ; token 2   (tokens counted from 1)
 *   if %7 {  ...  } else {  ...  }
 *   %9 = phi %5, %8              -> vt0
 *   store op.xyzw %9
 *
 * Used constants come first (they belong to no list); before them, comment lines
 * with what the passes read besides the instructions, where it is not the default
 * (the target's clip and window, unread varyings, the packing). ir_read.c reads it all back. */
#include "ir.h"

#include <stdio.h>

static void reg(agal_strbuf *b, const agal_ir *ir, unsigned type, unsigned num)
{
    char name[32];
    if (type == IR_REG_PACKED) snprintf(name, sizeof name, "p%u", num);
    else agal_format_reg(name, sizeof name, ir->prog->stage, type, num);
    agal_sb_printf(b, "%s", name);
}

static void operands(agal_strbuf *b, const agal_ir_inst *in)
{
    for (unsigned a = 0; a < in->nargs; a++) agal_sb_printf(b, "%s%%%u", a ? ", " : " ", in->args[a]);
}

static void body(agal_strbuf *b, const agal_ir *ir, const agal_ir_inst *in)
{
    const agal_opinfo *info = agal_opinfo_get(in->aop);
    char m[5];
    switch (in->op) {
    case IR_INPUT:
    case IR_UNIFORM:
        agal_sb_printf(b, " ");
        reg(b, ir, in->reg_type, in->reg_num);
        return;
    case IR_UNIFORM_INDIRECT:
        agal_sb_printf(b, " %s[%%%u+%u] (range %u)", agal_reg_name(ir->prog->stage, AGAL_REG_CONSTANT), in->args[0],
                       in->reg_num, in->range);
        return;
    case IR_SWIZZLE:
        for (unsigned c = 0; c < 4; c++) m[c] = "xyzw"[agal_swizzle_comp(in->swizzle, c)];
        m[4] = 0;
        agal_sb_printf(b, " %%%u.%s", in->args[0], m);
        return;
    case IR_EXTRACT: agal_sb_printf(b, " %%%u.%c", in->args[0], "xyzw"[in->comp & 3]); return;
    case IR_MERGE:
        agal_mask_letters(m, in->mask);
        agal_sb_printf(b, " %%%u, %%%u.%s", in->args[0], in->args[1], m);
        return;
    case IR_TEX:
        agal_sb_printf(b, " %s%s fs%u <%s,bias %d>", info ? info->name : "?", "", in->smp.num,
                       in->smp.dim == AGAL_DIM_CUBE ? "cube" : "2d", in->smp.bias);
        operands(b, in);
        return;
    case IR_ALU:
    case IR_MATRIX:
    case IR_CMP:
        agal_sb_printf(b, " %s", info ? info->name : "?");
        operands(b, in);
        return;
    default: operands(b, in); return;
    }
}

static void inst(agal_strbuf *b, const agal_ir *ir, uint32_t v, unsigned depth);

static void list(agal_strbuf *b, const agal_ir *ir, uint32_t l, unsigned depth)
{
    for (uint32_t i = 0; i < ir->lists[l].n; i++) inst(b, ir, ir->lists[l].items[i], depth);
}

static void inst(agal_strbuf *b, const agal_ir *ir, uint32_t v, unsigned depth)
{
    const agal_ir_inst *in = &ir->insts[v];
    agal_sb_printf(b, "%*s", (int)(2 * depth), "");
    if (in->op == IR_IF) {
        agal_sb_printf(b, "if %%%u {\n", in->args[0]);
        list(b, ir, in->then_list, depth + 1);
        agal_sb_printf(b, "%*s} else {\n", (int)(2 * depth), "");
        list(b, ir, in->else_list, depth + 1);
        agal_sb_printf(b, "%*s}\n", (int)(2 * depth), "");
        return;
    }
    if (in->op == IR_STORE) {
        char m[5];
        agal_mask_letters(m, in->mask);
        agal_sb_printf(b, "store ");
        reg(b, ir, in->reg_type, in->reg_num);
        agal_sb_printf(b, ".%s %%%u\n", m, in->args[0]);
        return;
    }
    if (in->type != IR_VOID) agal_sb_printf(b, "%%%u = ", v);
    agal_sb_printf(b, "%s", agal_ir_op_name(in->op));
    body(b, ir, in);
    if (in->reg_type != IR_NO_REG && in->op != IR_INPUT && in->op != IR_UNIFORM && in->op != IR_UNIFORM_INDIRECT) {
        agal_sb_printf(b, " -> ");
        reg(b, ir, in->reg_type, in->reg_num);
    }
    if (in->token >= 0) agal_sb_printf(b, "  ; token %d", in->token + 1); /* counting from 1 */
    agal_sb_printf(b, "\n");
}

static void components(agal_strbuf *b, unsigned mask)
{
    agal_sb_put(b, ".");
    for (unsigned c = 0; c < 4; c++)
        if (mask >> c & 1) agal_sb_printf(b, "%c", "xyzw"[c]);
}

/* "; pack v0.xz->p0.xy v3.w->p0.z", each varying carried, in number order, then
 * "zero v3.x" for what reads 0 and "centroid p1" for each centroid slot. */
static void packing(agal_strbuf *b, const agal_ir_packing *p)
{
    agal_sb_put(b, "; pack");
    for (unsigned n = 0; n < 16; n++) {
        if (p->slot[n] == IR_NO_SLOT) continue;
        unsigned k = 0;
        for (unsigned c = 0; c < 4; c++) k += p->carried[n] >> c & 1;
        agal_sb_printf(b, " v%u", n);
        components(b, p->carried[n]);
        agal_sb_printf(b, "->p%u", p->slot[n]);
        components(b, ((1u << k) - 1u) << p->offset[n]);
    }
    for (unsigned n = 0; n < 16; n++)
        if (p->zeroed[n]) {
            agal_sb_printf(b, " zero v%u", n);
            components(b, p->zeroed[n]);
        }
    for (unsigned s = 0; s < p->nslots; s++)
        if (p->centroid >> s & 1) agal_sb_printf(b, " centroid p%u", s);
    agal_sb_put(b, "\n");
}

/* What the passes read besides the instructions, where it is not the default:
 * the target's options (what lower_conventions meets), the unread varyings. */
static void facts(agal_strbuf *b, const agal_ir *ir)
{
    if (ir->clip != AGAL_CLIP_DEFAULT || ir->window_y_up)
        agal_sb_printf(b, "; clip %s, window y %s\n", agal_ir_clip_name(ir->clip), ir->window_y_up ? "up" : "down");
    if (ir->unread_varyings) {
        agal_sb_put(b, "; unread");
        for (unsigned n = 0; n < 16; n++)
            if (ir->unread_varyings >> n & 1) agal_sb_printf(b, " v%u", n);
        agal_sb_put(b, "\n");
    }
    if (ir->packing.on) packing(b, &ir->packing);
}

char *agal_ir_print(const agal_ir *ir)
{
    agal_strbuf b = {.ctx = ir->ctx};
    agal_sb_printf(&b, "; %s agal%u, %u tokens\n", ir->prog->stage == AGAL_VERTEX ? "vertex" : "fragment",
                   ir->prog->version, ir->prog->ntokens);
    facts(&b, ir);
    for (uint32_t v = 1; v < ir->ninsts; v++) {
        const agal_ir_inst *in = &ir->insts[v];
        if (in->op == IR_CONST && in->nuses) /* uses as counted by agal_ir_count_uses */
        {
            agal_sb_printf(&b, "%%%u = const (", v);
            for (unsigned c = 0; c < 4; c++) {
                if (c) agal_sb_put(&b, ", ");
                agal_sb_number(&b, in->imm[c], 6);
            }
            agal_sb_put(&b, ")\n");
        }
    }
    list(&b, ir, 0, 0);
    return b.err ? NULL : b.p;
}
