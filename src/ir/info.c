/* info.c: what an IR uses after the passes, gathered in one place (Mesa's
 * nir_gather_info): the rules for one value (agal_ir_info_note, ir.h, and the rarer
 * kinds here), which agal_ir_gather_info's walk and opt_share_loads' (the pipeline's
 * last pass, so no walk of its own) apply. It is kept in ir->info; the back ends, the binding
 * description (translate.c) and the upload read it, and the IR checker gathers it
 * again to compare. Every instruction that is neither removed nor a constant is
 * listed (ir.h), so a walk by value number sees exactly the live program; "first"
 * below means the lowest value number, the order the builder made them in. */
#include "ir.h"

static void store(agal_ir_info *info, const agal_ir *ir, const agal_ir_inst *in)
{
    bool vertex = ir->prog->stage == AGAL_VERTEX;
    if (in->reg_type == AGAL_REG_OUTPUT && vertex) info->writes_op = true;
    else if (in->reg_type == AGAL_REG_OUTPUT && in->reg_num < 8) info->outputs |= (uint8_t)(1u << in->reg_num);
    else if (in->reg_type == AGAL_REG_VARYING && in->reg_num < 16)
        info->varyings_written |= (uint16_t)(1u << in->reg_num);
    else if (in->reg_type == AGAL_REG_DEPTH) info->writes_depth = true;
    else if (in->reg_type == IR_REG_PACKED) info->packed |= (uint16_t)(1u << (in->reg_num & 15));
}

/* The varying a centroid sample's coordinate is (through one swizzle), if any. */
static void centroid(agal_ir_info *info, const agal_ir *ir, const agal_ir_inst *in)
{
    if (!(in->smp.special & AGAL_SPECIAL_CENTROID)) return;
    const agal_ir_inst *c = &ir->insts[in->args[0]];
    if (c->op == IR_SWIZZLE) c = &ir->insts[c->args[0]];
    if (c->op == IR_INPUT && c->reg_type == AGAL_REG_VARYING && c->reg_num < 16)
        info->centroid_varyings |= (uint16_t)(1u << c->reg_num);
}

static void sample(agal_ir_info *info, const agal_ir *ir, const agal_ir_inst *in)
{
    unsigned n = in->smp.num & 15;
    uint16_t bit = (uint16_t)(1u << n);
    if (!(info->samplers & bit)) {
        info->sampler[n] = in->smp;
        info->sampler[n].bias = 0; /* per token; the state is the sampler's */
    }
    info->samplers |= bit;
    if (in->aop == AGAL_OP_TED) info->samplers_ted |= bit, info->ted = true;
    else info->samplers_tex |= bit;
    centroid(info, ir, in);
}

void agal_ir_info_start(agal_ir_info *info)
{
    memset(info, 0, sizeof *info);
    info->gathered = true;
}

void agal_ir_info_note_rare(agal_ir_info *info, const agal_ir *ir, const agal_ir_inst *in)
{
    switch (in->op) {
    case IR_UNIFORM_INDIRECT: info->reads_constants = info->reads_indirect = true; break;
    case IR_TEX: sample(info, ir, in); break;
    case IR_KIL: info->kills = true; break;
    case IR_YFLIP: info->yflip = true; break;
    case IR_STORE: store(info, ir, in); break;
    default: break;
    }
}

void agal_ir_gather_info(const agal_ir *ir, agal_ir_info *info)
{
    agal_ir_info_start(info);
    for (uint32_t v = 1; v < ir->ninsts; v++) agal_ir_info_note(info, ir, &ir->insts[v]);
}

unsigned agal_ir_essl1_extensions(const agal_ir_info *info)
{
    return (info->ddx || info->ddy ? AGAL_EXT_STANDARD_DERIVATIVES : 0) |
           (info->ted ? AGAL_EXT_SHADER_TEXTURE_LOD : 0) | (info->writes_depth ? AGAL_EXT_FRAG_DEPTH : 0) |
           ((info->outputs & ~1u) ? AGAL_EXT_DRAW_BUFFERS : 0);
}
