/* assemble.c: AGAL text (Adobe AGALMiniAssembler syntax, spec section 6) -> bytes.
 *
 * For every program Adobe's assembler accepts, the bytes are the ones it writes:
 * dest = u16 number, u8 mask, u8 type; source = u16 number, u8 offset, u8 swizzle,
 * u8 type, u8 index type, u16 (index component | 0x8000 when relative); sampler =
 * u16 number, u8 int(bias * 8), u8 0, u32 (5 | option fields); operand slots an
 * opcode does not use are zero (no-dest opcodes write a zero dest first).
 *
 * Where Adobe's regular expressions skip text they do not understand (unknown
 * mnemonics, stray words, unknown sampler options), this assembler reports an error
 * with line and column instead. It encodes and does not validate: a program that
 * is well-formed text but breaks a Flash rule (a sampler in a vertex program,
 * fs17) assembles, and agal_decode reports the rule. One extension: any register
 * may be indexed (`fc[ft0.x+1]`, Adobe's syntax has only `vc[...]`), so that the
 * disassembler can write such tokens, which Flash rejects, as text. */
#include "internal.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Register names and Adobe's aliases (op = vo, v = vi = i = fi, oc = fo, fd = od). */
static const struct { const char *name; uint8_t type; } regnames[] = {
    {"va", AGAL_REG_ATTRIBUTE}, {"vc", AGAL_REG_CONSTANT}, {"vt", AGAL_REG_TEMP},
    {"vo", AGAL_REG_OUTPUT},    {"op", AGAL_REG_OUTPUT},   {"vi", AGAL_REG_VARYING},
    {"v", AGAL_REG_VARYING},    {"i", AGAL_REG_VARYING},   {"fi", AGAL_REG_VARYING},
    {"fc", AGAL_REG_CONSTANT},  {"ft", AGAL_REG_TEMP},     {"fs", AGAL_REG_SAMPLER},
    {"fo", AGAL_REG_OUTPUT},    {"oc", AGAL_REG_OUTPUT},   {"fd", AGAL_REG_DEPTH},
    {"od", AGAL_REG_DEPTH},     {"iid", AGAL_REG_IID},
};

/* Sampler options: the field's shift in the sampler's upper word and its value.
 * Shift 16 (special flags) ORs; every other option replaces its field. */
enum { SHIFT_FORMAT = 8, SHIFT_DIM = 12, SHIFT_SPECIAL = 16, SHIFT_WRAP = 20, SHIFT_MIP = 24, SHIFT_FILTER = 28 };
static const struct { const char *name; uint8_t shift, value; } smpopts[] = {
    {"rgba", SHIFT_FORMAT, 0},          {"compressed", SHIFT_FORMAT, 1},  {"compressedalpha", SHIFT_FORMAT, 2},
    {"dxt1", SHIFT_FORMAT, 1},          {"dxt5", SHIFT_FORMAT, 2},        {"video", SHIFT_FORMAT, 3},
    {"2d", SHIFT_DIM, 0},               {"3d", SHIFT_DIM, 2},             {"cube", SHIFT_DIM, 1},
    {"mipnearest", SHIFT_MIP, 1},       {"miplinear", SHIFT_MIP, 2},      {"mipnone", SHIFT_MIP, 0},
    {"nomip", SHIFT_MIP, 0},            {"nearest", SHIFT_FILTER, 0},     {"linear", SHIFT_FILTER, 1},
    {"anisotropic2x", SHIFT_FILTER, 2}, {"anisotropic4x", SHIFT_FILTER, 3}, {"anisotropic8x", SHIFT_FILTER, 4},
    {"anisotropic16x", SHIFT_FILTER, 5}, {"centroid", SHIFT_SPECIAL, 1},  {"single", SHIFT_SPECIAL, 2},
    {"ignoresampler", SHIFT_SPECIAL, 4}, {"repeat", SHIFT_WRAP, 1},       {"wrap", SHIFT_WRAP, 1},
    {"clamp", SHIFT_WRAP, 0},           {"clamp_u_repeat_v", SHIFT_WRAP, 2}, {"repeat_u_clamp_v", SHIFT_WRAP, 3},
};

/* One line being assembled: [p, end) of the text, for error positions. */
typedef struct line {
    agal_context *ctx;
    const char *text; /* start of the whole input */
    const char *p, *end;
    int lineno;
} line;

/* An operand as written. */
typedef struct operand {
    const char *at;       /* where it starts, for errors */
    uint8_t type;
    uint32_t num;         /* Adobe's "regidx": with [ ], the first number inside the brackets */
    bool indirect;
    uint8_t index_type, index_comp;
    uint32_t offset;
    int nletters;         /* 0: no .xyzw suffix */
    uint8_t letters[4];   /* components 0..3 */
} operand;

static agal_status at_error(line *ln, const char *at, const char *fmt, ...)
{
    const char *bol = ln->p;
    while (bol > ln->text && bol[-1] != '\n' && bol[-1] != '\r' && bol[-1] != '\f' && bol[-1] != '\v') bol--;
    char *msg;
    va_list ap;
    va_start(ap, fmt);
    msg = agal_vsprintf(ln->ctx, fmt, ap);
    va_end(ap);
    if (!msg) return AGAL_ERR_NOMEM;
    return agal_error(ln->ctx, 0, -1, (long)(at - ln->text), NULL, "line %d, column %d: %s", ln->lineno,
                      (int)(at - bol) + 1, msg);
}

/* A character for a message: 'c' when printable, else its byte value (the input
 * may be anything, and messages end up on terminals). */
static const char *shown(char c, char buf[16])
{
    if (c >= 0x20 && c < 0x7f) snprintf(buf, 16, "'%c'", c);
    else snprintf(buf, 16, "byte 0x%02x", (unsigned char)c);
    return buf;
}

/* Whether a span is printable ASCII, so a message may quote it. */
static bool printable(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < 0x20 || s[i] >= 0x7f) return false;
    return true;
}

static bool is_space(char c) { return c == ' ' || c == '\t'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
static bool is_alpha(char c) { return is_lower(c) || (c >= 'A' && c <= 'Z'); }
static bool is_word(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }
static bool is_optchar(char c) { return is_word(c) || c == '.' || c == '-' || c == '+'; }

static const char *skip_space(const char *p, const char *end)
{
    while (p < end && is_space(*p)) p++;
    return p;
}

static int find_reg(const char *s, size_t n)
{
    for (size_t i = 0; i < AGAL_COUNTOF(regnames); i++)
        if (strlen(regnames[i].name) == n && !memcmp(regnames[i].name, s, n)) return regnames[i].type;
    return -1;
}

/* Decimal digits at *pp (at least one), capped so a long run cannot overflow. */
static bool read_number(const char **pp, const char *end, uint32_t *out)
{
    const char *p = *pp;
    uint64_t v = 0;
    if (p >= end || !is_digit(*p)) return false;
    while (p < end && is_digit(*p)) {
        if (v <= 0xffffffffu) v = v * 10 + (unsigned)(*p - '0');
        p++;
    }
    *out = v > 0xffffffffu ? 0xffffffffu : (uint32_t)v;
    *pp = p;
    return true;
}

/* A component letter, as Adobe maps it: x y z w -> 0 1 2 3. */
static int comp_of(char c)
{
    switch (c) {
    case 'x': return 0;
    case 'y': return 1;
    case 'z': return 2;
    case 'w': return 3;
    default: return -1;
    }
}

/* A register name at *pp: lowercase letters, then known. */
static agal_status read_regname(line *ln, const char **pp, uint8_t *type)
{
    const char *p = *pp, *s = p;
    while (p < ln->end && is_alpha(*p)) p++;
    if (p == s) return at_error(ln, s, "expected a register name");
    int t = find_reg(s, (size_t)(p - s));
    if (t < 0) return at_error(ln, s, "unknown register '%.*s'", (int)(p - s), s);
    *type = (uint8_t)t;
    *pp = p;
    return AGAL_OK;
}

/* `[va1.x+12]` after the indexed register's name. Adobe takes the register number
 * from the first digits inside the brackets, so `vc[iid.x+5]` has number 5: kept. */
static agal_status read_index(line *ln, const char **pp, operand *o)
{
    const char *p = *pp + 1; /* past '[' */
    agal_status st = read_regname(ln, &p, &o->index_type);
    if (st) return st;
    uint32_t n = 0;
    bool has_num = read_number(&p, ln->end, &n);
    if (p >= ln->end || *p != '.' || p + 1 >= ln->end || comp_of(p[1]) < 0)
        return at_error(ln, p, "expected the index register's component (.x, .y, .z or .w)");
    o->index_comp = (uint8_t)comp_of(p[1]);
    p += 2;
    if (p < ln->end && *p == '+') {
        const char *q = p + 1;
        if (!read_number(&q, ln->end, &o->offset)) return at_error(ln, q, "expected digits after '+'");
        if (o->offset > 255) return at_error(ln, p + 1, "index offset %u is out of range 0..255", o->offset);
        if (!has_num) n = o->offset;
        has_num = true;
        p = q;
    }
    if (p >= ln->end || *p != ']') return at_error(ln, p, "expected ']'");
    o->num = n;
    o->indirect = true;
    *pp = p + 1;
    return AGAL_OK;
}

static agal_status read_letters(line *ln, const char **pp, operand *o)
{
    const char *p = *pp + 1; /* past '.' */
    while (p < ln->end && is_alpha(*p)) {
        int c = comp_of(*p);
        if (c < 0) return at_error(ln, p, "'%c' is not a component (x, y, z, w)", *p);
        if (o->nletters == 4) return at_error(ln, p, "more than four components");
        o->letters[o->nletters++] = (uint8_t)c;
        p++;
    }
    if (o->nletters == 0) return at_error(ln, p, "expected components after '.'");
    *pp = p;
    return AGAL_OK;
}

static agal_status read_operand(line *ln, const char **pp, operand *o)
{
    memset(o, 0, sizeof *o);
    const char *p = *pp;
    o->at = p;
    agal_status st = read_regname(ln, &p, &o->type);
    if (st) return st;
    if (p < ln->end && *p == '[') {
        if ((st = read_index(ln, &p, o))) return st;
    } else if (p < ln->end && is_digit(*p)) {
        read_number(&p, ln->end, &o->num);
    }
    if (o->num > 0xffff) return at_error(ln, o->at, "register number %u does not fit in 16 bits", o->num);
    if (p < ln->end && *p == '.' && (st = read_letters(ln, &p, o))) return st;
    if (p < ln->end && !is_space(*p) && *p != ',') return at_error(ln, p, "unexpected %s in operand", shown(*p, (char[16]){0}));
    *pp = p;
    return AGAL_OK;
}

static uint8_t mask_of(const operand *o)
{
    if (!o->nletters) return 0xf;
    uint8_t m = 0;
    for (int i = 0; i < o->nletters; i++) m |= (uint8_t)(1u << o->letters[i]);
    return m;
}

/* A swizzle shorter than four repeats its last letter (`.xy` = xyyy). */
static uint8_t swizzle_of(const operand *o)
{
    if (!o->nletters) return AGAL_SWIZZLE_IDENTITY;
    uint8_t s = 0;
    for (int i = 0; i < 4; i++) s |= (uint8_t)(o->letters[i < o->nletters ? i : o->nletters - 1] << (2 * i));
    return s;
}

static void put16(uint8_t *p, unsigned v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v & 0xffff); put16(p + 2, v >> 16); }

static void emit_dest(uint8_t *p, const operand *o)
{
    put16(p, o->num);
    p[2] = mask_of(o);
    p[3] = o->type;
}

static void emit_source(uint8_t *p, const operand *o)
{
    put16(p, o->num);
    p[2] = (uint8_t)o->offset;
    p[3] = swizzle_of(o);
    p[4] = o->type;
    p[5] = o->indirect ? o->index_type : 0;
    put16(p + 6, o->indirect ? (o->index_comp | 0x8000u) : 0);
}

/* Sampler options (a list of words): names replace or OR their field, any other
 * word is the LOD bias. */
typedef struct samplerbits {
    bool present;
    uint32_t bits;
    uint8_t bias; /* low byte of int(bias * 8), as Adobe's writeByte stores it */
} samplerbits;

/* Adobe's int(bias * 8) stored with writeByte: truncate, then keep the low 8 bits
 * (ToInt32 is modular, so fmod over the truncated value is exact). */
static uint8_t bias_byte(double v)
{
    double t = trunc(v * 8.0);
    if (!isfinite(t)) return 0;
    double m = fmod(t, 256.0);
    if (m < 0) m += 256.0;
    return (uint8_t)m;
}

/* The double nearest to a well-formed decimal, as ActionScript's Number() gives.
 * Up to 15 significant digits and a power of ten up to 22 are exact doubles, so one
 * correctly rounded multiply or divide gives the nearest double without strtod
 * (whose decimal point follows the host's locale). Longer numbers go to strtod
 * with the point translated. */
static bool decimal_value(const char *s, size_t n, double *out)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    size_t i = 0;
    bool neg = s[0] == '-';
    if (s[0] == '+' || s[0] == '-') i++;
    uint64_t m = 0;
    int sig = 0, e = 0;
    bool frac = false;
    for (; i < n && s[i] != 'e' && s[i] != 'E'; i++) {
        if (s[i] == '.') { frac = true; continue; }
        if (m == 0 && s[i] == '0') { if (frac) e--; continue; }
        if (sig < 18) { m = m * 10 + (uint64_t)(s[i] - '0'); sig++; if (frac) e--; }
        else { sig++; if (!frac) e++; }
    }
    long x = 0;
    if (i < n) {
        bool xneg = s[++i] == '-';
        if (s[i] == '+' || s[i] == '-') i++;
        for (; i < n; i++) x = x < 100000 ? x * 10 + (s[i] - '0') : x;
        if (xneg) x = -x;
    }
    long p = (long)e + x;
    if (sig <= 15 && p >= -22 && p <= 22) {
        double v = p >= 0 ? (double)m * pow10[p] : (double)m / pow10[-p];
        *out = neg ? -v : v;
        return true;
    }
    char buf[64];
    if (n >= sizeof buf) return false;
    const char *point = localeconv()->decimal_point;
    for (size_t k = 0; k < n; k++) buf[k] = s[k] == '.' && point && point[0] ? point[0] : s[k];
    buf[n] = 0;
    *out = strtod(buf, NULL);
    return true;
}

/* A decimal number, the whole word: [+-] digits [. digits] [e [+-] digits]. */
static bool parse_decimal(const char *s, size_t n, double *out)
{
    size_t i = 0, digits = 0;
    /* ActionScript's Number() also reads 0x hex (no sign). */
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        double v = 0;
        for (i = 2; i < n; i++) {
            int d = is_digit(s[i]) ? s[i] - '0' : (s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f' ? (s[i] | 0x20) - 'a' + 10 : -1;
            if (d < 0) return false;
            v = v * 16 + d;
        }
        *out = v;
        return true;
    }
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    while (i < n && is_digit(s[i])) i++, digits++;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit(s[i])) i++, digits++;
    }
    if (!digits) return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1, ed = 0;
        if (j < n && (s[j] == '+' || s[j] == '-')) j++;
        while (j < n && is_digit(s[j])) j++, ed++;
        if (!ed) return false;
        i = j;
    }
    if (i != n) return false;
    return decimal_value(s, n, out);
}

static agal_status apply_option(line *ln, const char *w, size_t n, samplerbits *sb)
{
    for (size_t i = 0; i < AGAL_COUNTOF(smpopts); i++) {
        if (strlen(smpopts[i].name) != n || memcmp(smpopts[i].name, w, n)) continue;
        if (smpopts[i].shift != SHIFT_SPECIAL) sb->bits &= ~(0xfu << smpopts[i].shift);
        sb->bits |= (uint32_t)smpopts[i].value << smpopts[i].shift;
        return AGAL_OK;
    }
    double v;
    if (!parse_decimal(w, n, &v)) return at_error(ln, w, "unknown sampler option '%.*s'", (int)n, w);
    sb->bias = bias_byte(v);
    return AGAL_OK;
}

/* Adobe takes the options from the first '<' with a '>' somewhere after it to the
 * end of the line, as words of [A-Za-z0-9_.+-]; the instruction is what precedes. */
static agal_status split_options(line *ln, const char **opt_end, samplerbits *sb)
{
    const char *lt = memchr(ln->p, '<', (size_t)(ln->end - ln->p));
    *sb = (samplerbits){.bits = 5};
    *opt_end = ln->end;
    if (!lt) return AGAL_OK;
    const char *gt = NULL;
    for (const char *q = ln->end; q > lt; q--)
        if (q[-1] == '>') { gt = q - 1; break; }
    if (!gt) return at_error(ln, lt, "sampler options are not closed with '>'");
    sb->present = true;
    for (const char *q = lt + 1; q < ln->end;) {
        if (!is_optchar(*q)) {
            if (q > gt && !is_space(*q)) return at_error(ln, q, "unexpected %s after the sampler options", shown(*q, (char[16]){0}));
            q++;
            continue;
        }
        const char *w = q;
        while (q < ln->end && is_optchar(*q)) q++;
        if (w > gt) return at_error(ln, w, "unexpected text after the sampler options");
        agal_status st = apply_option(ln, w, (size_t)(q - w), sb);
        if (st) return st;
    }
    *opt_end = lt;
    return AGAL_OK;
}

static agal_status read_operands(line *ln, const char *p, const char *end, operand *ops, int *n)
{
    *n = 0;
    p = skip_space(p, end);
    while (p < end) {
        if (*n == 3) return at_error(ln, p, "more than three operands");
        const char *save_end = ln->end;
        ln->end = end;
        agal_status st = read_operand(ln, &p, &ops[(*n)++]);
        ln->end = save_end;
        if (st) return st;
        p = skip_space(p, end);
        if (p < end && *p == ',') {
            p = skip_space(p + 1, end);
            if (p >= end || *p == ',') return at_error(ln, p, "expected an operand after ','");
        }
    }
    return AGAL_OK;
}

static int expected_operands(const agal_opinfo *info)
{
    int n = 0;
    if (info->operands & AGAL_OPND_D) n++;
    if (info->operands & AGAL_OPND_A) n++;
    if (info->operands & (AGAL_OPND_B | AGAL_OPND_S)) n++;
    return n;
}

/* Encodes the operands into the 20 bytes after the opcode. */
static agal_status encode_operands(line *ln, const agal_opinfo *info, const operand *ops, int n,
                                   const samplerbits *sb, uint8_t *out)
{
    memset(out, 0, 20);
    int k = 0;
    if (info->operands & AGAL_OPND_D) {
        if (ops[0].indirect) return at_error(ln, ops[0].at, "a destination cannot be indirect");
        emit_dest(out, &ops[k++]);
    }
    if (k < n) emit_source(out + 4, &ops[k++]);
    if (k < n && (info->operands & AGAL_OPND_S)) {
        const operand *s = &ops[k];
        if (s->indirect) return at_error(ln, s->at, "a sampler cannot be indirect");
        put16(out + 12, s->num);
        out[14] = sb->bias;
        put32(out + 16, sb->bits);
    } else if (k < n) {
        emit_source(out + 12, &ops[k]);
    }
    return AGAL_OK;
}

static agal_status assemble_line(line *ln, uint8_t *out, bool *emitted)
{
    *emitted = false;
    samplerbits sb;
    const char *end;
    agal_status st = split_options(ln, &end, &sb);
    if (st) return st;
    const char *p = skip_space(ln->p, end), *m = p;
    if (p == end) {
        if (sb.present) return at_error(ln, p, "sampler options without an instruction");
        return AGAL_OK;
    }
    while (p < end && is_word(*p)) p++;
    const agal_opinfo *info = agal_opinfo_find(m, (size_t)(p - m));
    if (!info) {
        if (p == m) return at_error(ln, m, "expected a mnemonic, found %s", shown(*m, (char[16]){0}));
        return at_error(ln, m, "unknown mnemonic '%.*s'", (int)(p - m), m);
    }
    if (p < end && !is_space(*p)) return at_error(ln, p, "unexpected %s after '%s'", shown(*p, (char[16]){0}), info->name);
    operand ops[3];
    int n;
    if ((st = read_operands(ln, p, end, ops, &n))) return st;
    int want = expected_operands(info);
    if (n != want)
        return at_error(ln, m, "'%s' takes %d operand%s, found %d", info->name, want, want == 1 ? "" : "s", n);
    if (sb.present && !(info->operands & AGAL_OPND_S))
        return at_error(ln, m, "sampler options on '%s', which has no sampler", info->name);
    put32(out, info->code);
    if ((st = encode_operands(ln, info, ops, n, &sb, out + 4))) return st;
    *emitted = true;
    return AGAL_OK;
}

enum { MAX_INSTRUCTIONS = 65536 };

/* A UTF-8 byte order mark: ActionScript's trim removes it (\uFEFF is white space). */
static size_t bom_size(const char *text, size_t len)
{
    return len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? 3 : 0;
}

static bool is_break(char c) { return c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

agal_status agal_assemble(agal_context *ctx, const char *text, size_t len, agal_stage stage, uint32_t version,
                          const uint8_t **bytes, size_t *size)
{
    if (!ctx || !bytes || !size || (!text && len) || stage > AGAL_FRAGMENT) return AGAL_ERR_ARG;
    if (!text) text = ""; /* no pointer arithmetic on NULL */
    *bytes = NULL;
    *size = 0;
    size_t cap = 64, n = AGAL_HEADER_SIZE;
    uint8_t *buf = agal_alloc(ctx, cap * AGAL_TOKEN_SIZE + AGAL_HEADER_SIZE);
    if (!buf) return AGAL_ERR_NOMEM;
    buf[0] = AGAL_MAGIC;
    put32(buf + 1, version);
    buf[5] = AGAL_TYPE_ID;
    buf[6] = (uint8_t)stage;
    line ln = {.ctx = ctx, .text = text, .p = text + bom_size(text, len), .lineno = 1};
    const char *end = text + len;
    while (ln.p <= end) {
        const char *e = ln.p;
        while (e < end && !is_break(*e)) e++;
        ln.end = e;
        /* Comments end the line: cut at "//" before anything else looks at it. */
        for (const char *q = ln.p; q + 1 < e; q++)
            if (q[0] == '/' && q[1] == '/') { ln.end = q; break; }
        if ((n - AGAL_HEADER_SIZE) / AGAL_TOKEN_SIZE == cap) {
            uint8_t *nb = agal_grow(ctx, buf, n, cap * 2 * AGAL_TOKEN_SIZE + AGAL_HEADER_SIZE, 1);
            if (!nb) return AGAL_ERR_NOMEM;
            buf = nb;
            cap *= 2;
        }
        bool emitted;
        agal_status st = assemble_line(&ln, buf + n, &emitted);
        if (st) return st;
        if (emitted) n += AGAL_TOKEN_SIZE;
        /* Far above any profile's limit (agal_decode reports that), but bounded. */
        if ((n - AGAL_HEADER_SIZE) / AGAL_TOKEN_SIZE > MAX_INSTRUCTIONS)
            return at_error(&ln, ln.p, "more than %d instructions", MAX_INSTRUCTIONS);
        if (e == end) break;
        /* \r\n is one line break; any other break character is one too. */
        ln.p = e + (e[0] == '\r' && e + 1 < end && e[1] == '\n' ? 2 : 1);
        ln.lineno++;
    }
    *bytes = buf;
    *size = n;
    return AGAL_OK;
}

/* ---- the header comment convention ---------------------------------------- */

/* A `// key: value` line; true with the value's span when the key matches. */
static bool header_value(const char *p, const char *e, const char *key, const char **v, const char **ve)
{
    p = skip_space(p, e);
    if (e - p < 2 || p[0] != '/' || p[1] != '/') return false;
    p = skip_space(p + 2, e);
    size_t k = strlen(key);
    if ((size_t)(e - p) < k || memcmp(p, key, k)) return false;
    p = skip_space(p + k, e);
    if (p >= e || *p != ':') return false;
    p = skip_space(p + 1, e);
    while (e > p && is_space(e[-1])) e--;
    *v = p;
    *ve = e;
    return true;
}

agal_status agal_asm_header(agal_context *ctx, const char *text, size_t len, int *stage, uint32_t *version)
{
    if (!ctx || !stage || !version || (!text && len)) return AGAL_ERR_ARG;
    if (!text) text = "";
    *stage = -1;
    *version = 0;
    line ln = {.ctx = ctx, .text = text, .p = text + bom_size(text, len), .lineno = 1};
    const char *end = text + len;
    while (ln.p < end) {
        const char *e = ln.p, *v, *ve;
        while (e < end && !is_break(*e)) e++;
        ln.end = e;
        const char *first = skip_space(ln.p, e);
        if (first < e && !(e - first >= 2 && first[0] == '/' && first[1] == '/')) break; /* an instruction */
        if (header_value(ln.p, e, "stage", &v, &ve)) {
            if (ve - v == 6 && !memcmp(v, "vertex", 6)) *stage = AGAL_VERTEX;
            else if (ve - v == 8 && !memcmp(v, "fragment", 8)) *stage = AGAL_FRAGMENT;
            else return at_error(&ln, v, "stage must be 'vertex' or 'fragment', not '%.*s'",
                                 printable(v, (size_t)(ve - v)) && ve - v < 40 ? (int)(ve - v) : 0, v);
        } else if (header_value(ln.p, e, "agal-version", &v, &ve)) {
            uint32_t n;
            const char *q = v;
            if (!read_number(&q, ve, &n) || q != ve || n < 1 || n > 3)
                return at_error(&ln, v, "agal-version must be 1, 2 or 3, not '%.*s'",
                                printable(v, (size_t)(ve - v)) && ve - v < 40 ? (int)(ve - v) : 0, v);
            *version = n;
        }
        if (e == end) break;
        ln.p = e + (e[0] == '\r' && e + 1 < end && e[1] == '\n' ? 2 : 1);
        ln.lineno++;
    }
    return AGAL_OK;
}
