/* disassemble.c: bytes -> AGAL text in Adobe's syntax, which agal_assemble turns
 * back into the identical bytes.
 *
 * It reads raw words, not decoded fields, so it also shows tokens agal_decode would
 * reject (for debugging with AGAL_DIS_TOKENS). A token the syntax cannot express
 * (unknown opcode, reserved bits set, a zero write mask, unused fields not zero, a
 * sampler option value with no name) is written as a comment saying why: the text
 * then no longer assembles to the same bytes, so AGAL_DIS_STRICT makes it an error.
 *
 * Every line it writes is one Adobe's assembler either reads to the same bytes or
 * refuses, never one it reads differently: lowercase names and components, commas,
 * the index register always with its number, and any indexed register other than
 * vertex `vc[...]` (the project's extension, `fc[ft0.x+1]`) is a line Adobe's
 * operand pattern reads as one operand too many. agal_assemble encodes the refused
 * ones in the project's syntax (tests/oracle/test_asm_vs_adobe.py checks this line by
 * line against the oracle). */
#include "internal.h"

#include <stdio.h>

typedef struct rawtok {
    uint32_t op, d;
    uint64_t a, b;
} rawtok;

/* An instruction is spelled at a cursor straight into the buffer, its room
 * (AGAL_INSTRUCTION_TEXT_MAX) reserved once: the text back ends name every token in
 * a comment, so no check or copy a piece; the cursor stays in a register where a
 * length in a struct went through memory at every letter. */

static char *put_str(char *p, const char *s)
{
    while (*s) *p++ = *s++;
    return p;
}

static char *put_uint(char *p, unsigned v) { return p + agal_put_uint(p, v); }

/* The registers' spellings of a stage, a type the stage lacks as the other stage
 * names it (agal_put_reg_either): its row of the table, looked up once a token. */
static const agal_reg_spelling *reg_row(agal_stage stage)
{
    return agal_reg_spellings[stage == AGAL_FRAGMENT]; /* the only two stages */
}

/* Register num of the row's type (below AGAL_REG_TYPES: the token's checks saw to
 * it), at p with room to spare. A single register's 0 (op, fd, iid) is not
 * written: its digit is stored and left past the end, where the next piece goes,
 * and whether it counts is arithmetic, where a branch on it followed the data. */
static AGAL_ALWAYS_INLINE char *put_reg(char *p, const agal_reg_spelling *row, unsigned type, unsigned num)
{
    const agal_reg_spelling *r = &row[type];
    memcpy(p, r->s, sizeof r->s);
    p += r->n;
    if (num >= 10) return put_uint(p, num);
    *p = (char)('0' + num);
    return p + ((num != 0) | !r->single);
}

static const char letters[] = "xyzw";

/* Spellings copied as one 8-byte piece (the cursor moves by n): every swizzle's
 * and mask's, made by the compiler from the rules below. */
typedef struct spelled {
    char s[8];
    uint8_t n;
} spelled;

/* Component c of swizzle w as its letter, x y z w. */
#define SWZ_C(w, c) (((w) >> (2 * (c))) & 3)
#define SWZ_L(w, c) (SWZ_C(w, c) == 3 ? 'w' : 'x' + SWZ_C(w, c))
/* The shortest spelling: Adobe repeats the last letter of a short swizzle; the
 * identity is none. */
#define SWZ_N(w) \
    ((w) == AGAL_SWIZZLE_IDENTITY ? 0 \
     : SWZ_C(w, 3) != SWZ_C(w, 2) ? 5 \
     : SWZ_C(w, 2) != SWZ_C(w, 1) ? 4 \
     : SWZ_C(w, 1) != SWZ_C(w, 0) ? 3 \
                                  : 2)
#define SWZ(w) {{'.', SWZ_L(w, 0), SWZ_L(w, 1), SWZ_L(w, 2), SWZ_L(w, 3)}, SWZ_N(w)},
#define SWZ4(w) SWZ(w) SWZ((w) + 1) SWZ((w) + 2) SWZ((w) + 3)
#define SWZ16(w) SWZ4(w) SWZ4((w) + 4) SWZ4((w) + 8) SWZ4((w) + 12)
#define SWZ64(w) SWZ16(w) SWZ16((w) + 16) SWZ16((w) + 32) SWZ16((w) + 48)
static const spelled swizzles[256] = {SWZ64(0) SWZ64(64) SWZ64(128) SWZ64(192)};

/* A write mask's letters in order; all four are none (a zero mask is refused). */
static const spelled masks[16] = {
    {"", 0},   {".x", 2},  {".y", 2},  {".xy", 3},  {".z", 2},  {".xz", 3},  {".yz", 3},  {".xyz", 4},
    {".w", 2}, {".xw", 3}, {".yw", 3}, {".xyw", 4}, {".zw", 3}, {".xzw", 4}, {".yzw", 4}, {"", 0},
};

static char *put_spelled(char *p, const spelled *s)
{
    memcpy(p, s->s, sizeof s->s);
    return p + s->n;
}

static char *put_mask(char *p, unsigned mask) { return put_spelled(p, &masks[mask & 15]); }

static char *put_swizzle(char *p, unsigned swz) { return put_spelled(p, &swizzles[swz & 255]); }

/* An indexed source's register and brackets: "vc[va0.x+5]". Apart, so that the
 * direct source's spelling is small enough to inline at each operand. */
static AGAL_COLD char *put_indirect(char *p, agal_stage stage, uint64_t s)
{
    /* The index register always with its number: Adobe reads the first digits
     * inside the brackets as that number. */
    p = put_str(p, agal_reg_name_either(stage, src_type(s)));
    *p++ = '[';
    p = put_str(p, agal_reg_name_either(stage, src_index_type(s)));
    p = put_uint(p, src_num(s));
    *p++ = '.';
    *p++ = letters[src_index_comp(s)];
    if (src_offset(s)) {
        *p++ = '+';
        p = put_uint(p, src_offset(s));
    }
    *p++ = ']';
    return p;
}

static inline char *put_source(char *p, agal_stage stage, const agal_reg_spelling *row, uint64_t s)
{
    p = src_indirect(s) ? put_indirect(p, stage, s) : put_reg(p, row, src_type(s), src_num(s));
    return put_swizzle(p, src_swizzle(s));
}

/* A sampler field's value by name (agal_sampler_option_name). */
static const char *option(uint64_t s, agal_sampler_field f) { return agal_sampler_option_name(f, smp_field(s, f)); }

/* bias / 8 as %g writes it: at most three decimals, each an eighth's digits. */
static char *put_eighths(char *p, int v)
{
    static const char *const fractions[8] = {"", ".125", ".25", ".375", ".5", ".625", ".75", ".875"};
    unsigned a = (unsigned)(v < 0 ? -v : v);
    if (v < 0) *p++ = '-';
    p = put_uint(p, a >> 3);
    return put_str(p, fractions[a & 7]);
}

/* Each sampler option's name (sampler_options.def) as a piece copied at once; n 0:
 * the value has no name. */
typedef struct option_spelled {
    char s[16];
    uint8_t n;
} option_spelled;
static const option_spelled option_rows[AGAL_SMP_FIELDS][6] = {
#define AGAL_SAMPLER_OPTION(field, value, name) [AGAL_SMP_##field][value] = {name, sizeof(name) - 1},
#include "sampler_options.def"
#undef AGAL_SAMPLER_OPTION
};

/* Field f's spelling in s (n 0: none). */
static const option_spelled *option_spelling(uint64_t s, agal_sampler_field f)
{
    static const option_spelled none = {"", 0};
    unsigned v = smp_field(s, f);
    return v < 6 ? &option_rows[f][v] : &none;
}

/* ", name" */
static char *put_option_spelled(char *p, const option_spelled *o)
{
    memcpy(p, ", ", 2);
    memcpy(p + 2, o->s, sizeof o->s);
    return p + 2 + o->n;
}

/* Does every option of s have a name, its type the sampler's and no reserved bit
 * set (sampler_problem's rules in one run of tests)? */
static bool plain_sampler(uint64_t s)
{
    bool named = true;
    static const agal_sampler_field named_fields[] = {AGAL_SMP_FORMAT, AGAL_SMP_DIM, AGAL_SMP_WRAP, AGAL_SMP_MIPMAP,
                                                      AGAL_SMP_FILTER};
    for (unsigned i = 0; i < AGAL_COUNTOF(named_fields); i++) named &= option_spelling(s, named_fields[i])->n != 0;
    /* the tests in locals: clang takes a call in a bitwise & for a logical one */
    bool sampler = smp_type(s) == AGAL_REG_SAMPLER, special = smp_special(s) <= 7;
    return named & !(s & SMP_RESERVED) & sampler & special;
}

/* "fs0 <2d, linear, mipnone, repeat>", its options named (plain_sampler). */
static char *put_sampler(char *p, uint64_t s)
{
    memcpy(p, "fs", 2);
    p = put_uint(p + 2, smp_num(s));
    memcpy(p, " <", 2);
    const option_spelled *dim = option_spelling(s, AGAL_SMP_DIM);
    memcpy(p + 2, dim->s, sizeof dim->s);
    p += 2 + dim->n;
    p = put_option_spelled(p, option_spelling(s, AGAL_SMP_FILTER));
    p = put_option_spelled(p, option_spelling(s, AGAL_SMP_MIPMAP));
    p = put_option_spelled(p, option_spelling(s, AGAL_SMP_WRAP));
    if (smp_format(s)) p = put_option_spelled(p, option_spelling(s, AGAL_SMP_FORMAT));
    for (unsigned i = 0; i < 3; i++)
        if (smp_special(s) & (1u << i)) p = put_option_spelled(p, &option_rows[AGAL_SMP_SPECIAL][i]);
    if (smp_bias(s)) {
        *p++ = ',';
        *p++ = ' ';
        p = put_eighths(p, smp_bias(s));
    }
    *p++ = '>';
    return p;
}

/* Why a field cannot be written in the syntax, or NULL. */
static const char *dest_problem(uint32_t d)
{
    if (d & DST_RESERVED) return "destination reserved bits set";
    if (dst_type(d) >= AGAL_REG_TYPES) return "destination register type unknown";
    if (!dst_mask(d)) return "write mask is zero";
    return NULL;
}

static const char *source_problem(uint64_t s)
{
    /* the common case in one test: direct, no reserved or indirect bits, a known type */
    if (!(s & (SRC_RESERVED | SRC_INDIRECT_FIELDS | 1ull << 63)) && src_type(s) < AGAL_REG_TYPES) return NULL;
    if (s & SRC_RESERVED) return "source reserved bits set";
    if (src_type(s) >= AGAL_REG_TYPES) return "source register type unknown";
    if (!src_indirect(s) && (s & SRC_INDIRECT_FIELDS)) return "indirect fields set on a direct source";
    if (src_indirect(s) && src_index_type(s) >= AGAL_REG_TYPES) return "index register type unknown";
    return NULL;
}

static const char *sampler_problem(uint64_t s)
{
    if (s & SMP_RESERVED) return "sampler reserved bits set";
    if (smp_type(s) != AGAL_REG_SAMPLER) return "sampler register type is not 5";
    if (!option(s, AGAL_SMP_FORMAT)) return "sampler format has no name";
    if (!option(s, AGAL_SMP_DIM)) return "sampler dimension has no name";
    if (smp_special(s) > 7) return "sampler special flag has no name";
    if (!option(s, AGAL_SMP_WRAP)) return "sampler wrap has no name";
    if (!option(s, AGAL_SMP_MIPMAP)) return "sampler mipmap has no name";
    if (!option(s, AGAL_SMP_FILTER)) return "sampler filter has no name";
    return NULL;
}

/* info: the opcode's row (NULL: unknown) */
static const char *token_problem(const rawtok *t, const agal_opinfo *info)
{
    if (!info) return "unknown opcode";
    const char *why = NULL;
    if (info->operands & AGAL_OPND_D) why = dest_problem(t->d);
    else if (t->d) why = "unused destination not zero";
    if (!why && (info->operands & AGAL_OPND_A)) why = source_problem(t->a);
    else if (!why && t->a) why = "unused source 1 not zero";
    if (!why && (info->operands & AGAL_OPND_B)) why = source_problem(t->b);
    else if (!why && (info->operands & AGAL_OPND_S)) why = sampler_problem(t->b);
    else if (!why && !(info->operands & (AGAL_OPND_B | AGAL_OPND_S)) && t->b) why = "unused source 2 not zero";
    return why;
}

/* The bits a plainly written operand has clear: reserved, indirect, and a type's
 * bit 3 (the types are 0-7), so that a known type is one test with the rest. */
_Static_assert(AGAL_REG_TYPES == 8, "a known register type is bit 3 of its field clear");
#define DST_UNPLAIN (DST_RESERVED | 0x08000000u)
#define SRC_UNPLAIN (SRC_RESERVED | SRC_INDIRECT_FIELDS | 1ull << 63 | 1ull << 35)

/* ", " between operands, " " after the opcode. */
static char *put_sep(char *p, bool first)
{
    if (!first) *p++ = ',';
    *p++ = ' ';
    return p;
}

/* What the spelling needs of each opcode, from their table: its name as a spelling
 * to copy (n 0: the value is no opcode), its operands, and whether its tokens may
 * take the plain path (put_plain: a destination, a direct source, then a direct
 * source, a sampler or nothing). Read here rather than through agal_opinfo_get, a
 * call a token. */
typedef struct opcode_row {
    spelled name;
    uint8_t operands; /* AGAL_OPND_* */
    bool plain;
} opcode_row;
#define PLAIN_SHAPE(operands) (((operands) & (AGAL_OPND_D | AGAL_OPND_A)) == (AGAL_OPND_D | AGAL_OPND_A))
static const opcode_row opcode_rows[AGAL_OP_LIMIT] = {
#define AGAL_OPCODE(ID, name, hex, operands, ver, width, flags) \
    [hex] = {{name, sizeof(name) - 1}, operands, PLAIN_SHAPE(operands)},
#include "agal/agal_opcodes.def"
#undef AGAL_OPCODE
};
#undef PLAIN_SHAPE

/* ", " and a direct source's register and swizzle. */
static AGAL_ALWAYS_INLINE char *put_next_source(char *p, const agal_reg_spelling *row, uint64_t s)
{
    memcpy(p, ", ", 2);
    p = put_reg(p + 2, row, src_type(s), src_num(s));
    return put_swizzle(p, src_swizzle(s));
}

/* The common token, a destination, a direct source and a direct source, a named
 * sampler or nothing (op->plain, plain_operands): no operand's presence or kind
 * tested again. */
static AGAL_ALWAYS_INLINE char *put_plain(char *p, const agal_reg_spelling *row, const opcode_row *op, uint32_t d,
                                          uint64_t a, uint64_t b)
{
    p = put_spelled(p, &op->name);
    *p = ' ';
    p = put_mask(put_reg(p + 1, row, dst_type(d), dst_num(d)), dst_mask(d));
    p = put_next_source(p, row, a);
    if (op->operands & AGAL_OPND_B) p = put_next_source(p, row, b);
    if (op->operands & AGAL_OPND_S) {
        memcpy(p, ", ", 2);
        p = put_sampler(p + 2, b);
    }
    return p;
}

/* Are a plain-shaped token's operands all the syntax writes: every test in one run,
 * without a branch each; an unused source 2 is zero. */
static bool plain_operands(const opcode_row *op, uint32_t d, uint64_t a, uint64_t b)
{
    bool dest = !(d & DST_UNPLAIN) & (dst_mask(d) != 0), source = !(a & SRC_UNPLAIN);
    if (op->operands & AGAL_OPND_S) return dest && source && plain_sampler(b);
    uint64_t b_unplain = (op->operands & AGAL_OPND_B) ? SRC_UNPLAIN : ~0ull;
    return dest & source & !(b & b_unplain);
}

/* Inline in agal_put_instruction, which names every token of a text target's
 * comments: a frame less a token. */
static AGAL_ALWAYS_INLINE char *put_instruction(char *p, agal_stage stage, const rawtok *t, const opcode_row *op)
{
    const agal_reg_spelling *row = reg_row(stage);
    unsigned operands = op->operands;
    p = put_spelled(p, &op->name);
    bool first = true;
    if (operands & AGAL_OPND_D) {
        p = put_sep(p, first);
        p = put_reg(p, row, dst_type(t->d), dst_num(t->d));
        p = put_mask(p, dst_mask(t->d));
        first = false;
    }
    if (operands & AGAL_OPND_A) {
        p = put_sep(p, first);
        p = put_source(p, stage, row, t->a);
        first = false;
    }
    if (operands & (AGAL_OPND_B | AGAL_OPND_S)) p = put_sep(p, first);
    if (operands & AGAL_OPND_B) p = put_source(p, stage, row, t->b);
    if (operands & AGAL_OPND_S) p = put_sampler(p, t->b);
    return p;
}

/* The instruction's room reserved once, then spelled at a cursor. */
static void format_line(agal_strbuf *b, agal_stage stage, const rawtok *t, const agal_opinfo *info)
{
    if (!agal_sb_reserve(b, AGAL_INSTRUCTION_TEXT_MAX)) return;
    b->n = (size_t)(put_instruction(b->p + b->n, stage, t, &opcode_rows[info->code]) - b->p);
    b->p[b->n] = 0;
}

char *agal_put_instruction(char *p, agal_stage stage, const agal_token *t)
{
    uint32_t code = t->raw_op, d = t->raw_dst;
    uint64_t a = t->raw_a, b = t->raw_b;
    const opcode_row *op = code < AGAL_OP_LIMIT ? &opcode_rows[code] : NULL;
    if (!op || !op->name.n) return NULL; /* no opcode (agal_opinfo_get's NULL) */
    if (op->plain && plain_operands(op, d, a, b)) return put_plain(p, reg_row(stage), op, d, a, b);
    rawtok r = {code, d, a, b};
    if (token_problem(&r, agal_opinfo_get(code))) return NULL;
    return put_instruction(p, stage, &r, op);
}

void agal_format_instruction(agal_strbuf *b, agal_stage stage, const agal_token *t)
{
    rawtok r = {t->raw_op, t->raw_dst, t->raw_a, t->raw_b};
    const agal_opinfo *info = agal_opinfo_get(r.op);
    /* A lenient program keeps fields the syntax has no name for (a reserved
     * sampler format, say): say so rather than index a name table with them. */
    const char *why = token_problem(&r, info);
    if (why) {
        agal_sb_printf(b, "%s (cannot be written in assembler syntax: %s)", info ? info->name : "?", why);
        return;
    }
    format_line(b, stage, &r, info);
}

/* The raw fields, for --tokens: every interpretation, whether the opcode uses it or not. */
static void put_fields(agal_strbuf *b, const char *indent, unsigned i, const rawtok *t)
{
    agal_sb_printf(b, "%s// [%u] op 0x%08x | dst 0x%08x (num %u mask 0x%x type %u)\n", indent, i + 1, t->op, t->d,
                   dst_num(t->d), dst_mask(t->d), dst_type(t->d));
    const uint64_t w[2] = {t->a, t->b};
    for (int k = 0; k < 2; k++)
        agal_sb_printf(b,
                       "%s//     src%d 0x%016llx (num %u offset %u swizzle 0x%02x type %u itype %u icomp %u rel %u)\n",
                       indent, k + 1, (unsigned long long)w[k], src_num(w[k]), src_offset(w[k]), src_swizzle(w[k]),
                       src_type(w[k]), src_index_type(w[k]), src_index_comp(w[k]), (unsigned)src_indirect(w[k]));
    agal_sb_printf(b,
                   "%s//     smp  (num %u bias %d type %u format %u dim %u special %u wrap %u mipmap %u filter %u)\n",
                   indent, smp_num(t->b), smp_bias(t->b), smp_type(t->b), smp_format(t->b), smp_dim(t->b),
                   smp_special(t->b), smp_wrap(t->b), smp_mipmap(t->b), smp_filter(t->b));
}

static rawtok read_token(const uint8_t *p)
{
    return (rawtok){agal_rd32(p), agal_rd32(p + 4), agal_rd64(p + 8), agal_rd64(p + 16)};
}

static agal_status put_header(agal_strbuf *b, const uint8_t *p, unsigned flags, agal_stage *stage)
{
    uint32_t version = agal_rd32(p + 1);
    *stage = p[6] == AGAL_FRAGMENT ? AGAL_FRAGMENT : AGAL_VERTEX;
    if (p[0] != AGAL_MAGIC || p[5] != AGAL_TYPE_ID || p[6] > 1 || version < 1 || version > 3) {
        agal_sb_printf(
            b, "// header cannot be written as header comments: magic 0x%02x version %u type id 0x%02x stage %u\n",
            p[0], version, p[5], p[6]);
        if (flags & AGAL_DIS_STRICT)
            return agal_error(b->ctx, 0, -1, 0, NULL, "the header is not magic 0xa0, version 1..3, 0xa1, stage 0 or 1");
        return AGAL_OK;
    }
    agal_sb_printf(b, "// agal-version: %u\n// stage: %s\n", version, *stage == AGAL_FRAGMENT ? "fragment" : "vertex");
    return AGAL_OK;
}

static agal_status put_token(agal_strbuf *b, agal_stage stage, unsigned flags, unsigned i, const rawtok *t, int *depth)
{
    static const char spaces[] = "                ";
    const agal_opinfo *info = agal_opinfo_get(t->op);
    const char *why = token_problem(t, info);
    if (why) info = NULL;
    /* Indent by open blocks; an els or eif with no open block (invalid) stays at 0. */
    bool reopen = false;
    if (info && (info->flags & (AGAL_OPF_ELSE | AGAL_OPF_ENDIF)) && *depth > 0) {
        (*depth)--;
        reopen = (info->flags & AGAL_OPF_ELSE) != 0;
    }
    const char *indent = spaces + sizeof spaces - 1 - 4 * (*depth < 4 ? *depth : 4);
    if (why) {
        agal_sb_printf(b, "%s// token %u cannot be written in assembler syntax: %s\n", indent, i + 1, why);
        if (!(flags & AGAL_DIS_TOKENS)) put_fields(b, indent, i, t);
        if (flags & AGAL_DIS_STRICT)
            return agal_error(b->ctx, 0, (int)i, agal_token_offset(i), NULL,
                              "cannot be written in assembler syntax: %s", why);
    } else {
        agal_sb_put(b, indent);
        format_line(b, stage, t, info);
        agal_sb_putc(b, '\n');
    }
    if (flags & AGAL_DIS_TOKENS) put_fields(b, indent, i, t);
    if ((info && (info->flags & AGAL_OPF_IF)) || reopen) (*depth)++;
    return AGAL_OK;
}

agal_status agal_disassemble(agal_context *ctx, const void *bytes, size_t size, unsigned flags, const char **text)
{
    if (!ctx || !text || (!bytes && size)) return AGAL_ERR_ARG;
    *text = NULL;
    const uint8_t *p = bytes;
    if (size < AGAL_HEADER_SIZE)
        return agal_error(ctx, 0, -1, 0, NULL, "%zu bytes are too few for the 7-byte header", size);
    agal_strbuf b = {.ctx = ctx};
    agal_stage stage;
    agal_status st = put_header(&b, p, flags, &stage);
    if (st) return st;
    size_t n = (size - AGAL_HEADER_SIZE) / AGAL_TOKEN_SIZE;
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        rawtok t = read_token(p + agal_token_offset((long)i));
        if ((st = put_token(&b, stage, flags, (unsigned)i, &t, &depth))) return st;
    }
    size_t rest = (size - AGAL_HEADER_SIZE) % AGAL_TOKEN_SIZE;
    if (rest) {
        agal_sb_printf(&b, "// %zu trailing bytes after the last token\n", rest);
        if (flags & AGAL_DIS_STRICT)
            return agal_error(ctx, 0, (int)n, (long)(size - rest), NULL, "%zu trailing bytes after the last token",
                              rest);
    }
    agal_sb_printf(&b, "%s", "");
    if (b.err || !b.p) return AGAL_ERR_NOMEM;
    *text = b.p;
    return AGAL_OK;
}

agal_status agal_disassemble_program(agal_context *ctx, const agal_program *prog, unsigned flags, const char **text)
{
    if (!ctx || !prog || !text) return AGAL_ERR_ARG;
    size_t size = agal_program_size(prog->ntokens);
    uint8_t *buf = agal_alloc(ctx, size);
    if (!buf) return AGAL_ERR_NOMEM;
    buf[0] = AGAL_MAGIC;
    agal_wr32(buf + 1, prog->version);
    buf[5] = AGAL_TYPE_ID;
    buf[6] = (uint8_t)prog->stage;
    for (uint32_t i = 0; i < prog->ntokens; i++) {
        const agal_token *t = &prog->tokens[i];
        uint8_t *q = buf + agal_token_offset(i);
        agal_wr32(q, t->raw_op);
        agal_wr32(q + 4, t->raw_dst);
        agal_wr64(q + 8, t->raw_a);
        agal_wr64(q + 16, t->raw_b);
    }
    return agal_disassemble(ctx, buf, size, flags, text);
}
