/* opcodes.c: the opcode table (expanded from agal_opcodes.def and opcode_meaning.def) and the profiles'
 * register counts (docs/format.md section 3). */
#include "internal.h"

const agal_opinfo agal_optable[AGAL_OP_LIMIT] = {
#define AGAL_OPCODE(ID, nm, hex, opnd, ver, wd, fl) \
    [hex] = {.name = nm, .code = hex, .operands = opnd, .min_version = ver, .width = wd, .flags = fl},
#include "agal/agal_opcodes.def"
#undef AGAL_OPCODE
};

enum {
#define AGAL_OPCODE(ID, nm, hex, opnd, ver, wd, fl) +1
    OPCODE_ROWS = 0
#include "agal/agal_opcodes.def"
#undef AGAL_OPCODE
};
_Static_assert(OPCODE_ROWS == 42, "docs/format.md section 4 lists 42 opcodes");

/* The two tables have the same rows: each row of the meanings names an opcode of the
 * public list (AGAL_OP_##ID), and there are as many of them. */
enum {
#define AGAL_OPCODE_MEANING(ID, c, glsl, spv, cmp) +(AGAL_OP_##ID >= 0)
    MEANING_ROWS = 0
#include "opcode_meaning.def"
#undef AGAL_OPCODE_MEANING
};
_Static_assert((int)MEANING_ROWS == (int)OPCODE_ROWS, "opcode_meaning.def has one row per opcode of agal_opcodes.def");

static const uint8_t op_cmps[AGAL_OP_LIMIT] = {
#define AGAL_OPCODE_MEANING(ID, c, glsl, spv, cmp) [AGAL_OP_##ID] = cmp,
#include "opcode_meaning.def"
#undef AGAL_OPCODE_MEANING
};

agal_cmp agal_op_cmp(unsigned op) { return op < AGAL_OP_LIMIT ? (agal_cmp)op_cmps[op] : AGAL_CMP_NONE; }

const agal_opinfo *agal_opinfo_get(uint32_t code) { return agal_opinfo_at(code); }

const agal_opinfo *agal_opinfo_find(const char *name, size_t len)
{
    for (unsigned i = 0; i < AGAL_OP_LIMIT; i++)
        if (agal_optable[i].name && strlen(agal_optable[i].name) == len && !memcmp(agal_optable[i].name, name, len))
            return &agal_optable[i];
    return NULL;
}

unsigned agal_opinfo_rows(const agal_opinfo *info) { return agal_flags_rows(info->flags); }

/* The sampler option names, one spelling a value (agal.h). */
static const char *const sampler_names[AGAL_SMP_FIELDS][6] = {
#define AGAL_SAMPLER_OPTION(field, value, name) [AGAL_SMP_##field][value] = name,
#include "sampler_options.def"
#undef AGAL_SAMPLER_OPTION
};

const char *agal_sampler_option_name(agal_sampler_field field, unsigned value)
{
    return (unsigned)field < AGAL_SMP_FIELDS && value < 6 ? sampler_names[field][value] : NULL;
}

bool agal_sampler_option_find(const char *name, size_t len, agal_sampler_field *field, unsigned *value)
{
    for (unsigned f = 0; f < AGAL_SMP_FIELDS; f++)
        for (unsigned v = 0; v < 6 && sampler_names[f][v]; v++)
            if (strlen(sampler_names[f][v]) == len && !memcmp(sampler_names[f][v], name, len)) {
                *field = (agal_sampler_field)f;
                *value = v;
                return true;
            }
    return false;
}

/* Register counts by [profile - 1][stage][type] (docs/format.md section 3). */
static const uint16_t reg_counts[3][2][AGAL_REG_TYPES] = {
    /*         va  vc/fc vt/ft op/oc v   fs  fd  iid */
    {{8, 128, 8, 1, 8, 0, 0, 0},     /* baseline vertex */
     {0, 28, 8, 1, 8, 8, 0, 0}},     /* baseline fragment */
    {{8, 250, 26, 1, 10, 0, 0, 0},   /* standard vertex */
     {0, 64, 26, 4, 10, 16, 1, 0}},  /* standard fragment */
    {{16, 250, 26, 1, 10, 0, 0, 1},  /* standard extended vertex */
     {0, 200, 26, 4, 10, 16, 1, 0}}, /* standard extended fragment */
};

static unsigned profile_row(agal_profile p)
{
    return p >= AGAL_PROFILE_BASELINE && p <= AGAL_PROFILE_STANDARD_EXTENDED ? (unsigned)p - 1 : 0;
}

const uint16_t *agal_reg_counts(agal_profile profile, agal_stage stage)
{
    return reg_counts[profile_row(profile)][stage == AGAL_FRAGMENT];
}

unsigned agal_reg_count(agal_profile profile, agal_stage stage, agal_regtype type)
{
    if (type >= AGAL_REG_TYPES || stage > AGAL_FRAGMENT) return 0;
    return agal_reg_counts(profile, stage)[type];
}

unsigned agal_token_limit(agal_profile profile)
{
    static const uint16_t limits[3] = {200, 1024, 2048};
    return limits[profile_row(profile)];
}

/* Registers' names (agal_reg_spelling), the types each stage has first: own_types
 * says which are the stage's own, the only ones agal_reg_name and agal_put_reg name. */
const agal_reg_spelling agal_reg_spellings[2][AGAL_REG_TYPES] = {
    {{"va", 2, false},
     {"vc", 2, false},
     {"vt", 2, false},
     {"op", 2, true},
     {"v", 1, false},
     {"fs", 2, false},
     {"fd", 2, true},
     {"iid", 3, true}},
    {{"va", 2, false},
     {"fc", 2, false},
     {"ft", 2, false},
     {"oc", 2, false},
     {"v", 1, false},
     {"fs", 2, false},
     {"fd", 2, true},
     {"iid", 3, true}},
};
#define REG_BIT(type) (1u << AGAL_REG_##type)
static const uint8_t own_types[2] = {
    REG_BIT(ATTRIBUTE) | REG_BIT(CONSTANT) | REG_BIT(TEMP) | REG_BIT(OUTPUT) | REG_BIT(VARYING) | REG_BIT(IID),
    REG_BIT(CONSTANT) | REG_BIT(TEMP) | REG_BIT(OUTPUT) | REG_BIT(VARYING) | REG_BIT(SAMPLER) | REG_BIT(DEPTH),
};
#undef REG_BIT

static const agal_reg_spelling *reg_spelled(agal_stage stage, unsigned type)
{
    if (stage > AGAL_FRAGMENT || type >= AGAL_REG_TYPES || !(own_types[stage] >> type & 1u)) return NULL;
    return &agal_reg_spellings[stage][type];
}

const char *agal_reg_name(agal_stage stage, agal_regtype type)
{
    const agal_reg_spelling *r = reg_spelled(stage, type);
    return r ? r->s : NULL;
}

size_t agal_put_reg(char *p, agal_stage stage, unsigned type, unsigned num)
{
    const agal_reg_spelling *r = reg_spelled(stage, type);
    if (r) return agal_put_spelling(p, r, num);
    size_t n = 0; /* no such register in the stage: its type and number */
    p[n++] = 'r';
    n += agal_put_uint(p + n, type);
    p[n++] = '[';
    n += agal_put_uint(p + n, num);
    p[n++] = ']';
    return n;
}

const char *agal_reg_name_either(agal_stage stage, unsigned type)
{
    return stage <= AGAL_FRAGMENT && type < AGAL_REG_TYPES ? agal_reg_spellings[stage][type].s : NULL;
}

/* Spelled by hand, not with snprintf: every emitter names registers, and snprintf
 * was a twentieth of a SPIR-V translation. */
int agal_format_reg(char *buf, size_t size, agal_stage stage, unsigned type, unsigned num)
{
    if (size >= AGAL_REG_TEXT_MAX + 1) {
        size_t n = agal_put_reg(buf, stage, type, num);
        buf[n] = 0;
        return (int)n;
    }
    char tmp[AGAL_REG_TEXT_MAX];
    size_t n = agal_put_reg(tmp, stage, type, num);
    if (size) {
        size_t k = n < size - 1 ? n : size - 1;
        memcpy(buf, tmp, k);
        buf[k] = 0;
    }
    return (int)n;
}

const char *agal_mask_letters(char out[5], unsigned mask)
{
    size_t n = 0;
    for (unsigned c = 0; c < 4; c++)
        if (mask & (1u << c)) out[n++] = "xyzw"[c];
    out[n] = 0;
    return out;
}

unsigned agal_program_reads(const agal_program *prog, agal_regtype type)
{
    unsigned m = 0;
    for (uint32_t i = 0; prog && i < prog->ntokens; i++) {
        const agal_token *t = &prog->tokens[i];
        const agal_opinfo *info = agal_opinfo_get((uint32_t)t->op);
        const agal_source *src[2] = {&t->a, &t->b};
        for (int k = 0; info && k < 2; k++) {
            const agal_source *s = src[k];
            if (!(info->operands & (k ? AGAL_OPND_B : AGAL_OPND_A))) continue;
            if (s->indirect && s->index_type == type && s->index_num < 32) m |= 1u << s->index_num;
            if (s->indirect || s->type != type) continue;
            for (unsigned row = 0; row < agal_source_rows(info, k) && s->num + row < 32; row++)
                m |= 1u << (s->num + row);
        }
    }
    return m;
}

unsigned agal_program_writes(const agal_program *prog, agal_regtype type)
{
    unsigned mask = 0;
    for (uint32_t i = 0; prog && i < prog->ntokens; i++) {
        const agal_token *t = &prog->tokens[i];
        const agal_opinfo *info = agal_opinfo_get((uint32_t)t->op);
        if (info && (info->operands & AGAL_OPND_D) && t->dst.type == type && t->dst.mask && t->dst.num < 32)
            mask |= 1u << t->dst.num;
    }
    return mask;
}

#define PAIR_READS(l, s) (uint8_t)(((l)&1u) << ((s)&3u) | ((l) >> 1 & 1u) << ((s) >> 2 & 3u))
#define PAIR_ROW(l) \
    { \
        PAIR_READS(l, 0), PAIR_READS(l, 1), PAIR_READS(l, 2), PAIR_READS(l, 3), PAIR_READS(l, 4), PAIR_READS(l, 5), \
            PAIR_READS(l, 6), PAIR_READS(l, 7), PAIR_READS(l, 8), PAIR_READS(l, 9), PAIR_READS(l, 10), \
            PAIR_READS(l, 11), PAIR_READS(l, 12), PAIR_READS(l, 13), PAIR_READS(l, 14), PAIR_READS(l, 15) \
    }
const uint8_t agal_swizzle_pair_reads[4][16] = {PAIR_ROW(0), PAIR_ROW(1), PAIR_ROW(2), PAIR_ROW(3)};
#undef PAIR_ROW
#undef PAIR_READS
