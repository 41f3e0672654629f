/* validate.c: the Flash Player validation rules (docs/format.md section 5).
 *
 * One linear walk over the decoded tokens, checking each token's fields in a fixed
 * order (opcode, unused fields, reserved bits, block structure, destination,
 * sources, sampler, opcode-specific rules) and stopping at the first rule broken,
 * as Flash reports one error. Each diagnostic records what Flash's message names
 * (the operand, the token, a number: agal_diag), so flash.c can spell the line
 * Flash throws. agal_link adds the rules that need both programs.
 *
 * Ids and messages follow Flash Player's own record (docs/format.md section 5); where
 * Flash's behaviour is not recorded, these decisions (docs/decisions.md, "Validation"):
 * - temporaries are tracked linearly in token order, as a single-pass validator
 *   does: a component written anywhere earlier counts as written (every backend
 *   starts temporaries at zero, so a path that skipped the write reads 0);
 * - only the components an instruction really reads are checked (positional
 *   swizzle for componentwise ops, xyz for dp3/m33/nrm/crs, the scalar for kil and
 *   conditions, xy/xyz (+w for ted) for texture coordinates);
 * - 3621 is the reserved opcode values 0x22-0x25, 3726 an opcode newer than the
 *   program's version or profile;
 * - 3641: indirect addressing in an operand of ife/ine/ifg/ifl or kil;
 * - an iid number other than 0 is 3655 (unknown register); iid as an index
 *   register is not checked for its number, which Adobe's assembler fills with the
 *   offset (`vc[iid.x+5]`);
 * - a sampler format above 3 is reported as reserved bits (3654);
 * - 3696 compares every sampler setting except the LOD bias (a per-token value). */
#include "internal.h"

#include <stdio.h>

enum { MAX_DEPTH = 4, MAX_TEMPS = 32, MAX_SAMPLERS = 16, MAX_COLORS = 8 };

typedef struct block {
    bool has_else;
    unsigned branch_len; /* tokens in the current branch so far */
} block;

typedef struct vstate {
    agal_context *ctx;
    const agal_program *prog;
    agal_stage slot; /* the program Flash's messages name */
    const agal_token *t;
    const agal_opinfo *info;
    int index;
    agal_operand operand; /* the operand being checked (Flash's %2) */
    bool lenient;
    /* Per-program facts the per-token checks look up, not recompute: */
    const uint16_t *counts;          /* registers of each type (agal_reg_counts) */
    unsigned readable;               /* bit per type a source may name in this stage and version */
    unsigned writable;               /* bit per type a destination may name in this stage */
    unsigned min_version;            /* the lower of the program's version and its profile */
    unsigned stage_excludes;         /* AGAL_OPF_FRAGMENT in a vertex program */
    uint8_t temp_written[MAX_TEMPS]; /* component masks, linear in token order */
    block blocks[MAX_DEPTH];
    unsigned depth;
    unsigned samplers_seen; /* bit per sampler number */
    /* Each sampler's first settings, set where samplers_seen says: outside the
     * zeroed state (half of it), which a program without samplers never reads. */
    agal_sampler *samplers;
    uint8_t oc_written[MAX_COLORS]; /* components of oc<i> written so far */
    unsigned oc_slots;              /* bit i: oc<i> written */
} vstate;

/* Records the rule broken by the current token, with the number Flash's message
 * shows (agal_diag.value). */
static agal_status fail_value(vstate *v, int flash_id, long value, const char *fmt, ...)
{
    const agal_diag proto = {.flash_id = flash_id,
                             .token = v->index,
                             .offset = v->index >= 0 ? agal_token_offset(v->index) : -1,
                             .opname = v->info ? v->info->name : NULL,
                             .stage = v->slot,
                             .operand = (uint8_t)v->operand,
                             .value = value};
    va_list ap;
    va_start(ap, fmt);
    agal_status st = agal_vreport(v->ctx, &proto, fmt, ap);
    va_end(ap);
    return st;
}

#define fail(v, id, ...) fail_value(v, id, 0, __VA_ARGS__)

static const char *reg(vstate *v, char buf[24], unsigned type, unsigned num)
{
    agal_format_reg(buf, 24, v->prog->stage, type, num);
    return buf;
}

static unsigned count(const vstate *v, unsigned type) { return v->counts[type]; }

/* Flash's out-of-range id for each register type (an iid other than iid0: 3655). */
static int range_id(unsigned type)
{
    static const int ids[AGAL_REG_TYPES] = {3658, 3659, 3661, 3660, 3657, 3656, 3749, 3655};
    return ids[type];
}

static AGAL_COLD agal_status range_error(vstate *v, unsigned type, unsigned num, unsigned rows)
{
    unsigned n = count(v, type);
    char b[24];
    const char *name = agal_reg_name(v->prog->stage, (agal_regtype)type);
    if (!name) name = "such";
    if (rows > 1)
        return fail(v, range_id(type), "%s: rows %u..%u exceed the %u %s registers of this profile",
                    reg(v, b, type, num), num, num + rows - 1, n, name);
    return fail(v, range_id(type), "%s is out of range: this profile has %u %s registers", reg(v, b, type, num), n,
                name);
}

/* type < AGAL_REG_TYPES. */
static agal_status check_range(vstate *v, unsigned type, unsigned num, unsigned rows)
{
    return num + rows - 1 < count(v, type) ? AGAL_OK : range_error(v, type, num, rows);
}

/* ---- opcode and raw fields ------------------------------------------------ */

static AGAL_COLD agal_status opcode_error(vstate *v)
{
    const agal_token *t = v->t;
    if (!v->info) {
        if (t->raw_op >= 0x22 && t->raw_op <= 0x25)
            return fail_value(v, 3621, t->raw_op, "opcode 0x%x is reserved, not implemented", t->raw_op);
        return fail_value(v, 3620, t->raw_op, "unknown opcode 0x%x", t->raw_op);
    }
    const agal_program *p = v->prog;
    if (p->version < v->info->min_version)
        return fail(v, 3726, "%s needs AGAL version %u, the program is version %u", v->info->name, v->info->min_version,
                    p->version);
    if ((unsigned)p->profile < v->info->min_version)
        return fail(v, 3726, "%s is not available in the baseline profile", v->info->name);
    if ((v->info->flags & AGAL_OPF_FRAGMENT) && p->stage == AGAL_VERTEX)
        return fail(v, 3622, "%s is only allowed in fragment programs", v->info->name);
    return AGAL_OK;
}

/* One test for the common case, opcode_error for Flash's order of the rules broken. */
static agal_status check_opcode(vstate *v)
{
    const agal_opinfo *info = v->info;
    if (info && info->min_version <= v->min_version && !(info->flags & v->stage_excludes)) return AGAL_OK;
    return opcode_error(v);
}

static AGAL_COLD agal_status raw_field_error(vstate *v)
{
    const agal_token *t = v->t;
    unsigned opnd = v->info->operands;
    if (!(opnd & AGAL_OPND_D) && t->raw_dst)
        return fail(v, 3627, "the destination field of %s must be zero (it is 0x%08x)", v->info->name, t->raw_dst);
    v->operand = AGAL_OPERAND_SOURCE1;
    if (!(opnd & AGAL_OPND_A) && t->raw_a)
        return fail(v, 3636, "source 1 is not used by %s and must be zero", v->info->name);
    v->operand = AGAL_OPERAND_SOURCE2;
    if (!(opnd & (AGAL_OPND_B | AGAL_OPND_S)) && t->raw_b)
        return fail(v, 3636, "source 2 is not used by %s and must be zero", v->info->name);
    v->operand = AGAL_OPERAND_DEST;
    if ((opnd & AGAL_OPND_D) && (t->raw_dst & DST_RESERVED))
        return fail(v, 3654, "reserved bits of the destination are set (0x%08x)", t->raw_dst & DST_RESERVED);
    const uint64_t srcs[2] = {t->raw_a, t->raw_b};
    for (int i = 0; i < 2; i++) {
        if (!(opnd & (i ? AGAL_OPND_B : AGAL_OPND_A))) continue;
        v->operand = i ? AGAL_OPERAND_SOURCE2 : AGAL_OPERAND_SOURCE1;
        if (srcs[i] & SRC_RESERVED) return fail(v, 3654, "reserved bits of source %d are set", i + 1);
        if (!src_indirect(srcs[i]) && (srcs[i] & SRC_INDIRECT_FIELDS))
            return fail(v, 3643, "source %d is direct but has indirect-addressing fields set", i + 1);
    }
    /* A non-sampler in the sampler slot is reported as such (3693), not as bad bits. */
    v->operand = AGAL_OPERAND_SOURCE2;
    if ((opnd & AGAL_OPND_S) && smp_type(t->raw_b) == AGAL_REG_SAMPLER && (t->raw_b & SMP_RESERVED))
        return fail(v, 3654, "reserved bits of the sampler are set");
    v->operand = AGAL_OPERAND_NONE;
    return AGAL_OK;
}

/* The bits of a source word that must be zero: reserved, and the indirect fields of a
 * direct source. */
static uint64_t source_zero_bits(uint64_t s) { return SRC_RESERVED | (src_indirect(s) ? 0 : SRC_INDIRECT_FIELDS); }

/* Every bit raw_field_error looks at in one test; it runs only when one is set, and
 * says which rule, in its order. */
static agal_status check_raw_fields(vstate *v)
{
    const agal_token *t = v->t;
    unsigned opnd = v->info->operands;
    if (v->lenient) return AGAL_OK;
    uint32_t dst_zero = opnd & AGAL_OPND_D ? DST_RESERVED : ~0u;
    uint64_t a_zero = opnd & AGAL_OPND_A ? source_zero_bits(t->raw_a) : ~(uint64_t)0;
    uint64_t b_zero = opnd & (AGAL_OPND_B | AGAL_OPND_S) ? 0 : ~(uint64_t)0;
    if (opnd & AGAL_OPND_B) b_zero |= source_zero_bits(t->raw_b);
    if ((opnd & AGAL_OPND_S) && smp_type(t->raw_b) == AGAL_REG_SAMPLER) b_zero |= SMP_RESERVED;
    if (!(t->raw_dst & dst_zero) && !(t->raw_a & a_zero) && !(t->raw_b & b_zero)) return AGAL_OK;
    return raw_field_error(v);
}

/* ---- blocks --------------------------------------------------------------- */

static agal_status check_block(vstate *v)
{
    unsigned f = v->info->flags;
    if (!v->depth && !(f & (AGAL_OPF_IF | AGAL_OPF_ELSE | AGAL_OPF_ENDIF))) return AGAL_OK;
    block *top = v->depth ? &v->blocks[v->depth - 1] : NULL;
    if (f & (AGAL_OPF_ELSE | AGAL_OPF_ENDIF)) {
        if (!top) return fail(v, 3623, "%s without an open if", v->info->name);
        if (!top->branch_len && !v->lenient)
            return fail(v, 3748, "empty %s branch before %s", top->has_else ? "else" : "if", v->info->name);
        if (f & AGAL_OPF_ENDIF) {
            v->depth--;
            return AGAL_OK;
        }
        if (top->has_else) return fail(v, 3752, "second els in one block");
        top->has_else = true;
        top->branch_len = 0;
        return AGAL_OK;
    }
    if (top) top->branch_len++;
    if (f & AGAL_OPF_IF) {
        if (v->depth == MAX_DEPTH) return fail(v, 3624, "blocks nested deeper than %d", MAX_DEPTH);
        v->blocks[v->depth++] = (block){0};
    }
    return AGAL_OK;
}

/* ---- destination ---------------------------------------------------------- */

/* Why a destination of a type writable_types leaves out is refused. */
static AGAL_COLD agal_status dest_access_error(vstate *v, const agal_dest *d)
{
    char b[24];
    switch (d->type) {
    case AGAL_REG_ATTRIBUTE: return fail(v, 3651, "cannot write to an attribute register");
    case AGAL_REG_CONSTANT: return fail(v, 3652, "cannot write to constant register %s", reg(v, b, d->type, d->num));
    case AGAL_REG_SAMPLER: return fail(v, 3649, "cannot write to a sampler register");
    case AGAL_REG_IID: return fail(v, 3786, "cannot write to iid");
    case AGAL_REG_VARYING: return fail(v, 3650, "fragment programs cannot write varyings");
    case AGAL_REG_DEPTH: return fail(v, 3750, "fd exists only in fragment programs");
    default: return fail(v, 3655, "unknown destination register type %u", d->type);
    }
}

/* 3744: a component of a colour output written a second time. */
static AGAL_COLD agal_status color_again_error(vstate *v, const agal_dest *d, unsigned again)
{
    char b[24], m[5];
    return fail(v, 3744, "%s.%s is written a second time", reg(v, b, d->type, d->num), agal_mask_letters(m, again));
}

static agal_status check_color_once(vstate *v, const agal_dest *d)
{
    if (d->type != AGAL_REG_OUTPUT || v->prog->stage != AGAL_FRAGMENT || d->num >= MAX_COLORS || v->lenient)
        return AGAL_OK;
    unsigned again = v->oc_written[d->num] & d->mask;
    return again ? color_again_error(v, d, again) : AGAL_OK;
}

static AGAL_COLD agal_status output_in_block_error(vstate *v, const agal_dest *d)
{
    char b[24];
    return fail(v, 3751, "output %s is written inside a block", reg(v, b, d->type, d->num));
}

static agal_status check_dest(vstate *v)
{
    const agal_dest *d = &v->t->dst;
    v->operand = AGAL_OPERAND_DEST;
    agal_status st;
    if (!(v->writable >> d->type & 1u) && (st = dest_access_error(v, d))) return st;
    if (!d->mask) return fail(v, 3653, "write mask is zero");
    if ((st = check_range(v, d->type, d->num, 1))) return st;
    if (d->type == AGAL_REG_DEPTH && d->mask != 1) return fail(v, 3756, "fd must be written with mask .x exactly");
    if ((v->info->flags & AGAL_OPF_NO_W) && (d->mask & 8)) return fail(v, 3628, "%s must mask out w", v->info->name);
    if ((d->type == AGAL_REG_OUTPUT || d->type == AGAL_REG_DEPTH) && v->depth && !v->lenient)
        return output_in_block_error(v, d);
    return check_color_once(v, d);
}

/* ---- sources -------------------------------------------------------------- */

static AGAL_COLD agal_status temp_read_error(vstate *v, unsigned num, unsigned missing)
{
    char b[24];
    reg(v, b, AGAL_REG_TEMP, num);
    if (!v->temp_written[num]) return fail(v, 3647, "%s is read before it is written", b);
    char comps[5];
    return fail(v, 3648, "%s.%s is read before it is written", b, agal_mask_letters(comps, missing));
}

static agal_status check_temp_read(vstate *v, unsigned num, unsigned need)
{
    if (v->lenient || num >= MAX_TEMPS) return AGAL_OK;
    unsigned missing = need & ~v->temp_written[num];
    return missing ? temp_read_error(v, num, missing) : AGAL_OK;
}

/* Why a source of a type readable_types leaves out is refused. */
static AGAL_COLD agal_status source_access_error(vstate *v, unsigned type, int which)
{
    agal_stage stage = v->prog->stage;
    switch (type) {
    case AGAL_REG_VARYING: return fail(v, 3644, "vertex programs cannot read varyings");
    case AGAL_REG_ATTRIBUTE: return fail(v, 3645, "fragment programs cannot read attributes");
    case AGAL_REG_OUTPUT: return fail(v, 3646, "cannot read from an output register");
    case AGAL_REG_DEPTH: {
        if (stage == AGAL_VERTEX) return fail(v, 3750, "fd exists only in fragment programs");
        agal_status st = check_range(v, type, 0, 1); /* AGAL1 has no fd: 3749, as Flash reports it */
        return st ? st : fail(v, 3646, "cannot read from an output register");
    }
    case AGAL_REG_SAMPLER:
        if (stage == AGAL_VERTEX) return fail(v, 3637, "vertex programs cannot use samplers");
        return fail(v, 3638, "a sampler may only be the second operand of tex/ted");
    case AGAL_REG_IID:
        if (stage == AGAL_FRAGMENT) return fail(v, 3788, "iid exists only in vertex programs");
        return fail(v, 3789, "iid needs AGAL version 3");
    default: return fail(v, 3655, "unknown register type %u in source %d", type, which + 1);
    }
}

static AGAL_COLD agal_status check_indirect(vstate *v, const agal_source *s)
{
    if (v->prog->stage == AGAL_FRAGMENT) return fail(v, 3639, "indirect addressing is only allowed in vertex programs");
    if (s->type != AGAL_REG_CONSTANT) return fail(v, 3640, "indirect addressing can only index constants");
    if (v->info->flags & AGAL_OPF_SCALAR) return fail(v, 3641, "an operand of %s cannot be indirect", v->info->name);
    unsigned it = s->index_type;
    bool ok = it == AGAL_REG_ATTRIBUTE || it == AGAL_REG_CONSTANT || it == AGAL_REG_TEMP ||
              (it == AGAL_REG_IID && v->prog->version >= 3);
    if (!ok) return fail(v, 3642, "the index register must be va, vc or vt%s", v->prog->version >= 3 ? " or iid" : "");
    /* iid is one register, so its number is not checked as an index: Adobe's
     * assembler writes `vc[iid.x+5]` with the first number in the brackets (5) as
     * the index register's number. */
    agal_status st = it == AGAL_REG_IID ? AGAL_OK : check_range(v, it, s->index_num, 1);
    if (st) return st;
    if (it == AGAL_REG_TEMP) return check_temp_read(v, s->index_num, 1u << s->index_comp);
    return AGAL_OK;
}

/* Inlined: each call names its source, so the first source's rows are known. */
static AGAL_ALWAYS_INLINE agal_status check_source(vstate *v, const agal_source *s, int which)
{
    v->operand = which ? AGAL_OPERAND_SOURCE2 : AGAL_OPERAND_SOURCE1;
    agal_status st;
    if (!(v->readable >> s->type & 1u) && (st = source_access_error(v, s->type, which))) return st;
    if (s->indirect) return check_indirect(v, s);
    unsigned rows = agal_source_rows(v->info, which);
    if ((st = check_range(v, s->type, s->num, rows))) return st;
    if (s->type == AGAL_REG_TEMP && !v->lenient) {
        unsigned need = agal_swizzle_read_mask(s->swizzle, agal_read_lanes(v->info, v->t));
        for (unsigned k = 0; k < rows; k++)
            if ((st = check_temp_read(v, s->num + k, need))) return st;
    }
    return AGAL_OK;
}

/* ---- sampler -------------------------------------------------------------- */

static agal_status check_sampler_fields(vstate *v, const agal_sampler *s)
{
    if (s->dim > AGAL_DIM_CUBE) return fail_value(v, 3664, s->dim, "sampler dimension %u is not 2d or cube", s->dim);
    if (s->filter > AGAL_FILTER_ANISO16X) return fail_value(v, 3665, s->filter, "unknown sampler filter %u", s->filter);
    if (s->mipmap > AGAL_MIP_LINEAR) return fail_value(v, 3666, s->mipmap, "unknown sampler mipmap mode %u", s->mipmap);
    if (s->wrap > AGAL_WRAP_REPEAT_U_CLAMP_V)
        return fail_value(v, 3667, s->wrap, "unknown sampler wrap mode %u", s->wrap);
    if (s->special & ~7u) return fail_value(v, 3668, s->special, "unknown sampler special flags 0x%x", s->special);
    if (s->format > AGAL_FMT_VIDEO && !v->lenient) return fail(v, 3654, "unknown texture format %u", s->format);
    if (s->dim == AGAL_DIM_CUBE && s->wrap != AGAL_WRAP_CLAMP) return fail(v, 3662, "cube samplers must use clamp");
    return AGAL_OK;
}

/* Field by field, the bias aside: memcmp would also compare agal_sampler's padding
 * byte, which no one sets. */
static bool same_settings(const agal_sampler *a, const agal_sampler *b)
{
    return a->num == b->num && a->format == b->format && a->dim == b->dim && a->special == b->special &&
           a->wrap == b->wrap && a->mipmap == b->mipmap && a->filter == b->filter;
}

static agal_status check_sampler(vstate *v)
{
    const agal_token *t = v->t;
    const agal_sampler *s = &t->s;
    v->operand = AGAL_OPERAND_SOURCE2;
    if (smp_type(t->raw_b) != AGAL_REG_SAMPLER)
        return fail(v, 3693, "the second operand of %s must be a sampler", v->info->name);
    agal_status st = check_range(v, AGAL_REG_SAMPLER, s->num, 1);
    if (st || (st = check_sampler_fields(v, s))) return st;
    v->operand = AGAL_OPERAND_NONE;
    if (t->op == AGAL_OP_TED && s->bias) return fail(v, 3740, "ted cannot have a LOD bias");
    if (t->op == AGAL_OP_TED && s->mipmap == AGAL_MIP_NONE)
        return fail(v, 3743, "ted needs a sampler with mipmapping (explicit LOD)");
    if ((v->samplers_seen >> s->num & 1u) && !same_settings(&v->samplers[s->num], s))
        return fail(v, 3696, "fs%u is used again with different sampler settings", s->num);
    v->samplers_seen |= 1u << s->num;
    v->samplers[s->num] = *s;
    if (t->op == AGAL_OP_TEX && v->depth && t->a.type != AGAL_REG_VARYING)
        return fail(v, 3741, "tex inside a block needs varying (not computed) coordinates");
    return AGAL_OK;
}

/* ---- opcode-specific rules ------------------------------------------------ */

static bool scalar_swizzle(uint8_t sw) { return sw == 0x00 || sw == 0x55 || sw == 0xaa || sw == 0xff; }

static agal_status check_opcode_rules(vstate *v)
{
    const agal_token *t = v->t;
    unsigned f = v->info->flags, opnd = v->info->operands;
    v->operand = AGAL_OPERAND_NONE;
    if ((f & AGAL_OPF_DERIV) && v->depth) return fail(v, 3742, "%s inside a block", v->info->name);
    if (f & AGAL_OPF_SCALAR) {
        v->operand = AGAL_OPERAND_SOURCE1;
        if (!scalar_swizzle(t->a.swizzle)) return fail(v, 3703, "source 1 of %s needs a scalar swizzle", v->info->name);
        v->operand = AGAL_OPERAND_SOURCE2;
        if ((opnd & AGAL_OPND_B) && !scalar_swizzle(t->b.swizzle))
            return fail(v, 3703, "source 2 of %s needs a scalar swizzle", v->info->name);
    }
    v->operand = AGAL_OPERAND_SOURCE2;
    if (agal_flags_rows(f) && t->b.swizzle != AGAL_SWIZZLE_IDENTITY)
        return fail(v, 3689, "the matrix operand of %s cannot be swizzled", v->info->name);
    v->operand = AGAL_OPERAND_NONE;
    if (!(opnd & AGAL_OPND_B) || v->lenient) return AGAL_OK;
    /* Indirect sources always index constants, so 3626 is checked before 3625. */
    if (t->a.indirect && t->b.indirect) return fail(v, 3626, "both sources are indirect");
    if (t->a.type == AGAL_REG_CONSTANT && t->b.type == AGAL_REG_CONSTANT)
        return fail(v, 3625, "both sources are constants");
    if ((f & AGAL_OPF_IF) && t->raw_a == t->raw_b)
        return fail(v, 3758, "the condition compares an operand with itself");
    return AGAL_OK;
}

/* ---- the walk ------------------------------------------------------------- */

static void record_write(vstate *v)
{
    const agal_dest *d = &v->t->dst;
    if (d->type == AGAL_REG_TEMP && d->num < MAX_TEMPS) v->temp_written[d->num] |= d->mask;
    if (d->type == AGAL_REG_OUTPUT && v->prog->stage == AGAL_FRAGMENT && d->num < MAX_COLORS) {
        v->oc_written[d->num] |= d->mask;
        v->oc_slots |= d->mask ? 1u << d->num : 0;
    }
}

static agal_status check_token(vstate *v)
{
    agal_status st;
    unsigned opnd;
    if ((st = check_opcode(v)) || (st = check_raw_fields(v)) || (st = check_block(v))) return st;
    opnd = v->info->operands;
    if ((opnd & AGAL_OPND_D) && (st = check_dest(v))) return st;
    if ((opnd & AGAL_OPND_A) && (st = check_source(v, &v->t->a, 0))) return st;
    if ((opnd & AGAL_OPND_B) && (st = check_source(v, &v->t->b, 1))) return st;
    if ((opnd & AGAL_OPND_S) && (st = check_sampler(v))) return st;
    if ((st = check_opcode_rules(v))) return st;
    if (opnd & AGAL_OPND_D) record_write(v);
    return AGAL_OK;
}

#define REG_BIT(type) (1u << AGAL_REG_##type)

/* The register types an operand may have, by stage and version: the one place
 * that says so. Every other type is refused with source_access_error's or
 * dest_access_error's message. */
static unsigned readable_types(const agal_program *p)
{
    if (p->stage == AGAL_FRAGMENT) return REG_BIT(CONSTANT) | REG_BIT(TEMP) | REG_BIT(VARYING);
    return REG_BIT(ATTRIBUTE) | REG_BIT(CONSTANT) | REG_BIT(TEMP) | (p->version >= 3 ? REG_BIT(IID) : 0);
}

static unsigned writable_types(const agal_program *p)
{
    /* fd passes in an AGAL1 fragment program too: its count is 0, and the range
     * check says 3749, as Flash does. */
    return REG_BIT(TEMP) | REG_BIT(OUTPUT) | (p->stage == AGAL_FRAGMENT ? REG_BIT(DEPTH) : REG_BIT(VARYING));
}

#undef REG_BIT

agal_status agal_validate(agal_context *ctx, agal_program *prog, agal_stage slot)
{
    agal_sampler samplers[MAX_SAMPLERS];
    vstate v = {.ctx = ctx,
                .prog = prog,
                .slot = slot,
                .lenient = prog->lenient,
                .counts = agal_reg_counts(prog->profile, prog->stage),
                .readable = readable_types(prog),
                .writable = writable_types(prog),
                .min_version = prog->version < (unsigned)prog->profile ? prog->version : (unsigned)prog->profile,
                .stage_excludes = prog->stage == AGAL_VERTEX ? AGAL_OPF_FRAGMENT : 0,
                .samplers = samplers};
    for (uint32_t i = 0; i < prog->ntokens; i++) {
        v.index = (int)i;
        v.t = &prog->tokens[i];
        v.info = agal_opinfo_at(v.t->raw_op);
        v.operand = AGAL_OPERAND_NONE;
        agal_status st = check_token(&v);
        if (st) return st;
    }
    v.info = NULL;
    v.index = -1;
    v.operand = AGAL_OPERAND_NONE;
    if (v.depth)
        return fail(&v, 3739, "%u block%s still open at the end of the program", v.depth, v.depth > 1 ? "s" : "");
    /* 3775: the colour slots in use must be oc0..ocN. */
    unsigned oc = v.oc_slots;
    if (oc & (oc + 1)) return fail(&v, 3775, "colour outputs must use consecutive slots from oc0 (written: 0x%x)", oc);
    return AGAL_OK;
}

/* ---- linkage -------------------------------------------------------------- */

typedef struct io_masks {
    uint8_t op;    /* vertex: op components written */
    uint8_t v[16]; /* vertex: varying components written; fragment: read */
    uint8_t oc[4]; /* fragment: oc components written */
} io_masks;

static void scan_io(const agal_program *p, io_masks *m)
{
    memset(m, 0, sizeof *m);
    for (uint32_t i = 0; i < p->ntokens; i++) {
        const agal_token *t = &p->tokens[i];
        const agal_opinfo *info = agal_opinfo_at(t->raw_op);
        if (!info) continue;
        if (p->stage == AGAL_FRAGMENT) {
            const agal_source *src[2] = {&t->a, &t->b};
            for (int k = 0; k < 2; k++) {
                if (!(info->operands & (k ? AGAL_OPND_B : AGAL_OPND_A)) || src[k]->type != AGAL_REG_VARYING) continue;
                unsigned mask = 0;
                for (unsigned c = 0; c < 4; c++) mask |= 1u << agal_swizzle_comp(src[k]->swizzle, c);
                for (unsigned row = 0; row < agal_source_rows(info, k) && src[k]->num + row < 16; row++)
                    m->v[src[k]->num + row] |= mask;
            }
        }
        if (!(info->operands & AGAL_OPND_D)) continue;
        const agal_dest *d = &t->dst;
        if (p->stage == AGAL_VERTEX && d->type == AGAL_REG_OUTPUT) m->op |= d->mask;
        if (p->stage == AGAL_VERTEX && d->type == AGAL_REG_VARYING && d->num < 16) m->v[d->num] |= d->mask;
        if (p->stage == AGAL_FRAGMENT && d->type == AGAL_REG_OUTPUT && d->num < 4) m->oc[d->num] |= d->mask;
    }
}

/* A linkage error: the program as a whole (token -1), named as the fragment. */
static agal_status link_error(agal_context *ctx, int id, long value, const char *fmt, ...)
{
    const agal_diag proto = {.flash_id = id, .token = -1, .offset = -1, .stage = AGAL_FRAGMENT, .value = value};
    va_list ap;
    va_start(ap, fmt);
    agal_status st = agal_vreport(ctx, &proto, fmt, ap);
    va_end(ap);
    return st;
}

/* In the order of Flash's linkage table (docs/format.md section 5). */
agal_status agal_link(agal_context *ctx, const agal_program *vp, const agal_program *fp)
{
    if (!ctx || !vp || !fp || vp->stage != AGAL_VERTEX || fp->stage != AGAL_FRAGMENT) return AGAL_ERR_ARG;
    if (vp->version != fp->version)
        return link_error(ctx, 3757, 0, "vertex program is version %u, fragment program version %u", vp->version,
                          fp->version);
    io_masks vm, fm;
    scan_io(vp, &vm);
    scan_io(fp, &fm);
    for (unsigned i = 0; i < 16; i++) {
        if (fm.v[i] && !vm.v[i])
            return link_error(ctx, 3632, i, "varying v%u is read by the fragment program but not written", i);
        if (vm.v[i] && vm.v[i] != 15)
            return link_error(ctx, 3633, i, "varying v%u is only partly written (mask 0x%x)", i, vm.v[i]);
    }
    if (vm.op != 15) return link_error(ctx, 3635, 0, "vertex output op is not fully written (mask 0x%x)", vm.op);
    if (!fm.oc[0]) return link_error(ctx, 3634, 0, "fragment output oc is never written");
    for (unsigned i = 0; i < 4; i++)
        if (fm.oc[i] && fm.oc[i] != 15)
            return link_error(ctx, 3634, 0, "fragment output oc%u is not fully written (mask 0x%x)", i, fm.oc[i]);
    return AGAL_OK;
}
