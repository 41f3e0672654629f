/* lower_constant_ranges.c: a stage's constants packed into the vec4s it reads, for a
 * device whose uniform-vector limit lies below the highest register the stage reads
 * (fc60 under WebGL 1's 16). Each run of registers read becomes a range, the ranges
 * packed from vec4 0 in register order, and every IR_UNIFORM then reads its
 * register's vec4: the back ends declare and index what the IR says
 * (agal_ir_constant_count), the binding lists the ranges (translate.c) and the host
 * gathers its registers by them (agal_binding_block_gather). A relative read
 * addresses the whole file at run time, so a program with one is left as it is.
 * Not in the pipeline's list: the translate driver runs it where the limits ask
 * (limits.c decides), after the pipeline, so the reads are those that survived. */
#include "ir.h"

/* Marks the registers read: slot[r] = 1. */
static void mark_reads(const agal_ir *ir, uint16_t *slot)
{
    for (uint32_t v = 1; v < ir->ninsts; v++)
        if (ir->insts[v].op == IR_UNIFORM) slot[ir->insts[v].reg_num] = 1;
}

/* One range per run of marked registers, packed from vec4 0; slot[r] becomes
 * register r's vec4. Returns the number of ranges. */
static uint32_t pack(uint16_t *slot, uint32_t n, agal_binding_range *ranges)
{
    uint32_t nranges = 0, packed = 0;
    for (uint32_t r = 0; r < n; r++) {
        if (!slot[r]) continue;
        if (r == 0 || !slot[r - 1] || !nranges) ranges[nranges++] = (agal_binding_range){r, 0, packed};
        ranges[nranges - 1].count++;
        slot[r] = (uint16_t)(packed++ + 1u); /* + 1: slot[r + 1]'s test still reads "marked" */
    }
    return nranges;
}

agal_status agal_lower_constant_ranges(agal_ir *ir, bool *changed)
{
    *changed = false;
    uint32_t n = ir->info.constants_read;
    if (!n || ir->info.reads_indirect || ir->nconst_ranges) return AGAL_OK;
    uint16_t *slot = agal_alloc(ir->ctx, n * sizeof *slot);
    agal_binding_range *ranges = agal_alloc(ir->ctx, (n / 2 + 1) * sizeof *ranges);
    if (!slot || !ranges) return AGAL_ERR_NOMEM;
    memset(slot, 0, n * sizeof *slot);
    mark_reads(ir, slot);
    ir->nconst_ranges = pack(slot, n, ranges);
    ir->const_ranges = ranges;
    for (uint32_t v = 1; v < ir->ninsts; v++) {
        agal_ir_inst *in = &ir->insts[v];
        if (in->op != IR_UNIFORM) continue;
        *changed |= slot[in->reg_num] - 1u != in->reg_num;
        in->reg_num = (uint16_t)(slot[in->reg_num] - 1u);
    }
    if (*changed) ir->loads_unique = false; /* registers renumbered */
    agal_ir_gather_info(ir, &ir->info);     /* constants_read: the vec4s declared */
    return AGAL_OK;
}

uint32_t agal_ir_constant_count(const agal_ir *ir, bool plain_array)
{
    if (ir->nconst_ranges || (plain_array && !ir->info.reads_indirect)) return ir->info.constants_read;
    return agal_reg_count(ir->prog->profile, ir->prog->stage, AGAL_REG_CONSTANT);
}
