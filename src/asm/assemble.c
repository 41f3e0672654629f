/* assemble.c: AGAL text (Adobe's AGALMiniAssembler syntax, spec section 6) -> bytes.
 *
 * Each line is first read as Adobe's assembler reads it (the observable behaviour
 * of the oracle, OpenFL 8.9.6's port of it, with ted): the line is trimmed and cut
 * at "//"; the sampler options are the words from the first '<' that a '>' follows
 * to the end of the line; the first three characters are the mnemonic or the line
 * is skipped; the operands are whatever its operand pattern finds in the rest,
 * anything between them ignored. For every text Adobe's assembler accepts the
 * bytes are its bytes: dest = u16 number, u8 mask, u8 type; source = u16 number,
 * u8 offset, u8 swizzle, u8 type, u8 index type, u16 (index component | 0x8000
 * when relative); sampler = u16 number, u8 int(bias * 8), u8 0, u32 (5 | option
 * fields); slots an opcode does not use are zero.
 *
 * Where that reading ignores text or reads it its own way (a line without a known
 * mnemonic, `ft3.xytz` read as ft3.xy, `ft1,xy` read as ft1, a missing comma, an
 * unknown sampler option read as the LOD bias) the line is still assembled that
 * way and a warning says what, with line and column; AGAL_ASM_STRICT makes the
 * first one an error.
 *
 * A line Adobe's reading refuses is parsed in the project's own syntax instead,
 * which encodes and does not validate: registers past Adobe's limits or of the
 * other stage, opcodes of a later version or the other stage (agal_decode reports
 * Flash's rules), and any register indexed (`fc[ft0.x+1]`, where Adobe's syntax
 * indexes only vc) so that the disassembler can write every token. Every line that
 * syntax accepts is one Adobe's assembler either reads identically or refuses, so
 * the two readings never give one line two encodings. A line neither accepts is an
 * error with line and column. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Register names and Adobe's aliases (op = vo, v = vi = i = fi, oc = fo, fd = od),
 * with the stages and highest numbers Adobe's assembler allows in versions 1, 2
 * and 3 (any other version: 3's); NO_LIMIT: fd in version 1 (Adobe's uint(-1)). */
enum { IN_V = 1, IN_F = 2, NO_LIMIT = -1 };
typedef struct regname {
    const char *name;
    uint8_t type, stages;
    int32_t max[3];
} regname;
static const regname regnames[] = {
    {"va", AGAL_REG_ATTRIBUTE, IN_V, {7, 7, 15}},     {"vc", AGAL_REG_CONSTANT, IN_V, {127, 249, 249}},
    {"vt", AGAL_REG_TEMP, IN_V, {7, 25, 25}},         {"vo", AGAL_REG_OUTPUT, IN_V, {0, 0, 0}},
    {"op", AGAL_REG_OUTPUT, IN_V, {0, 0, 0}},         {"vi", AGAL_REG_VARYING, IN_V | IN_F, {7, 9, 9}},
    {"v", AGAL_REG_VARYING, IN_V | IN_F, {7, 9, 9}},  {"i", AGAL_REG_VARYING, IN_V | IN_F, {7, 9, 9}},
    {"fi", AGAL_REG_VARYING, IN_V | IN_F, {7, 9, 9}}, {"fc", AGAL_REG_CONSTANT, IN_F, {27, 63, 199}},
    {"ft", AGAL_REG_TEMP, IN_F, {7, 25, 25}},         {"fs", AGAL_REG_SAMPLER, IN_F, {7, 7, 7}},
    {"fo", AGAL_REG_OUTPUT, IN_F, {0, 3, 3}},         {"oc", AGAL_REG_OUTPUT, IN_F, {0, 3, 3}},
    {"fd", AGAL_REG_DEPTH, IN_F, {NO_LIMIT, 0, 0}},   {"od", AGAL_REG_DEPTH, IN_F, {NO_LIMIT, 0, 0}},
    {"iid", AGAL_REG_IID, IN_V, {0, 0, 0}},
};

/* Sampler options: the names of agal_sampler_option_name, and Adobe's aliases. */
static const struct {
    const char *name;
    uint8_t field, value;
} aliases[] = {
    {"compressed", AGAL_SMP_FORMAT, AGAL_FMT_DXT1},
    {"compressedalpha", AGAL_SMP_FORMAT, AGAL_FMT_DXT5},
    {"nomip", AGAL_SMP_MIPMAP, AGAL_MIP_NONE},
    {"wrap", AGAL_SMP_WRAP, AGAL_WRAP_REPEAT},
};

/* One line being assembled: [p, end) of the text, comment cut, for positions. */
typedef struct line {
    agal_context *ctx;
    const char *text; /* start of the whole input */
    const char *bol;  /* start of the line (column 1) */
    const char *p, *end;
    int lineno;
    agal_stage stage;
    uint32_t version;
    unsigned flags;
} line;

/* An operand to encode. */
typedef struct operand {
    const char *at; /* where it starts, for errors */
    uint8_t type;
    uint32_t num; /* Adobe's "regidx": with [ ], the first number inside the brackets */
    bool indirect;
    uint8_t index_type, index_comp;
    uint32_t offset;
    int nletters;       /* 0: no .xyzw suffix */
    uint8_t letters[4]; /* components 0..3 */
} operand;

/* A diagnostic "line L, column C: ..." at `at`; a warning (AGAL_OK) unless it is
 * an error or AGAL_ASM_STRICT makes every warning one (AGAL_ERR_INVALID). */
static agal_status vreport_at(line *ln, bool warning, const char *at, const char *fmt, va_list ap)
{
    char *msg = agal_vsprintf(ln->ctx, fmt, ap);
    if (!msg) return AGAL_ERR_NOMEM;
    warning = warning && !(ln->flags & AGAL_ASM_STRICT);
    const agal_diag proto = {.token = -1, .offset = (long)(at - ln->text), .warning = warning};
    agal_status st = agal_report(ln->ctx, &proto, "line %d, column %d: %s", ln->lineno, (int)(at - ln->bol) + 1, msg);
    return st == AGAL_ERR_NOMEM || !warning ? st : AGAL_OK;
}

static agal_status at_error(line *ln, const char *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    agal_status st = vreport_at(ln, false, at, fmt, ap);
    va_end(ap);
    return st;
}

static agal_status at_warning(line *ln, const char *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    agal_status st = vreport_at(ln, true, at, fmt, ap);
    va_end(ap);
    return st;
}

/* A character for a message: 'c' when printable, else its byte value (the input
 * may be anything, and messages end up on terminals). */
static const char *shown(char c, char buf[16])
{
    if (c >= 0x20 && c < 0x7f) snprintf(buf, 16, "'%c'", c);
    else snprintf(buf, 16, "byte 0x%02x", (unsigned char)c);
    return buf;
}

/* A span of the text in quotes for a message: bytes outside printable ASCII as
 * \xNN, at most 40 bytes of it. */
typedef struct quote {
    char s[200];
} quote;

static const char *quoted(quote *q, const char *p, size_t n)
{
    size_t k = 0;
    q->s[k++] = '\'';
    for (size_t i = 0; i < n && i < 40; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= 0x20 && c < 0x7f && c != '\\') q->s[k++] = (char)c;
        else k += (size_t)snprintf(q->s + k, sizeof q->s - k, "\\x%02x", c);
    }
    if (n > 40) {
        memcpy(q->s + k, "...", 3);
        k += 3;
    }
    q->s[k++] = '\'';
    q->s[k] = 0;
    return q->s;
}

/* Whether a span is printable ASCII, so a message may quote it. */
static bool printable(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < 0x20 || s[i] >= 0x7f) return false;
    return true;
}

/* Characters. Space, tab, \v and \f separate like spaces (Adobe's assembler trims
 * them and its patterns pass over them); only \n and \r end a line. */
static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
static bool is_alpha(char c) { return is_lower(c) || (c >= 'A' && c <= 'Z'); }
static bool is_word(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }
static bool is_optchar(char c) { return is_word(c) || c == '.' || c == '-' || c == '+'; }
static bool is_break(char c) { return c == '\n' || c == '\r'; }
/* One of the letters of set, in either case (Adobe's operand pattern ignores case). */
static bool in_set(char c, const char *set) { return is_alpha(c) && strchr(set, c | 0x20); }

static const char *skip_space(const char *p, const char *end)
{
    while (p < end && is_space(*p)) p++;
    return p;
}

static size_t count_digits(const char *p, const char *end)
{
    const char *q = p;
    while (q < end && is_digit(*q)) q++;
    return (size_t)(q - p);
}

static const regname *find_reg(const char *s, size_t n)
{
    for (size_t i = 0; i < AGAL_COUNTOF(regnames); i++)
        if (strlen(regnames[i].name) == n && !memcmp(regnames[i].name, s, n)) return &regnames[i];
    return NULL;
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

/* ---- numbers ------------------------------------------------------------------ */

/* A sampler word that is a whole decimal number; its value. */
static bool parse_decimal(const char *s, size_t n, double *out)
{
    if (!n || agal_decimal_prefix(s, n) != n) return false;
    *out = agal_decimal_value(s, n);
    return true;
}

/* JavaScript's parseFloat of a sampler word (which has no white space): the
 * decimal prefix, or [+-]Infinity, else NaN. */
static double js_parse_float(const char *s, size_t n)
{
    size_t d = agal_decimal_prefix(s, n);
    if (d) return agal_decimal_value(s, d);
    size_t sign = n && (s[0] == '+' || s[0] == '-');
    if (n - sign >= 8 && !memcmp(s + sign, "Infinity", 8)) return s[0] == '-' ? -INFINITY : INFINITY;
    return NAN;
}

/* ActionScript's int(bias * 8) stored with writeByte: truncate, then keep the low 8
 * bits (ToInt32 is modular, so fmod over the truncated value is exact); NaN and
 * infinities give 0. */
static uint8_t bias_byte(double v)
{
    double t = trunc(v * 8.0);
    if (!isfinite(t)) return 0;
    double m = fmod(t, 256.0);
    if (m < 0) m += 256.0;
    return (uint8_t)m;
}

/* ---- encoding --------------------------------------------------------------- */

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

static void emit_dest(uint8_t *p, const operand *o)
{
    agal_wr16(p, o->num);
    p[2] = mask_of(o);
    p[3] = o->type;
}

static void emit_source(uint8_t *p, const operand *o)
{
    agal_wr16(p, o->num);
    p[2] = (uint8_t)o->offset;
    p[3] = swizzle_of(o);
    p[4] = o->type;
    p[5] = o->indirect ? o->index_type : 0;
    agal_wr16(p + 6, o->indirect ? (o->index_comp | 0x8000u) : 0);
}

/* Sampler options (a list of words): names replace or OR their field, any other
 * word is the LOD bias. */
typedef struct samplerbits {
    bool present;
    uint32_t bits;
    uint8_t bias; /* low byte of int(bias * 8), as Adobe's writeByte stores it */
} samplerbits;

/* A sampler option: the field it sets and the value. */
typedef struct smpopt {
    agal_sampler_field field;
    unsigned value;
} smpopt;

static bool find_option(const char *w, size_t n, smpopt *o)
{
    if (agal_sampler_option_find(w, n, &o->field, &o->value)) return true;
    for (size_t i = 0; i < AGAL_COUNTOF(aliases); i++)
        if (strlen(aliases[i].name) == n && !memcmp(aliases[i].name, w, n)) {
            *o = (smpopt){(agal_sampler_field)aliases[i].field, aliases[i].value};
            return true;
        }
    return false;
}

/* Special flags OR; every other option replaces its field (in the sampler's upper
 * word, where sb->bits is). */
static void set_option(samplerbits *sb, smpopt o)
{
    unsigned shift = smp_shift(o.field) - 32;
    if (o.field == AGAL_SMP_SPECIAL) {
        sb->bits |= 1u << (shift + o.value);
        return;
    }
    sb->bits &= ~(0xfu << shift);
    sb->bits |= (uint32_t)o.value << shift;
}

static int expected_operands(const agal_opinfo *info)
{
    int n = 0;
    if (info->operands & AGAL_OPND_D) n++;
    if (info->operands & AGAL_OPND_A) n++;
    if (info->operands & (AGAL_OPND_B | AGAL_OPND_S)) n++;
    return n;
}

/* Encodes the operands into the 20 bytes after the opcode: the third operand of a
 * texture opcode is written as a sampler, whatever register it names, as Adobe's
 * assembler does. */
static agal_status encode_operands(line *ln, const agal_opinfo *info, const operand *ops, int n, const samplerbits *sb,
                                   uint8_t *out)
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
        agal_wr16(out + 12, s->num);
        out[14] = sb->bias;
        agal_wr32(out + 16, sb->bits);
    } else if (k < n) {
        emit_source(out + 12, &ops[k]);
    }
    return AGAL_OK;
}

/* ==== Adobe's reading ============================================================ */

/* One operand as Adobe's operand pattern finds it (its alternatives, tried in this
 * order at each position, letters in either case):
 *   vc[ R digits* (.c (+ddd)?)? ] (.cccc)?      R = [vofi][acostdip]?[d]?, c = [xyzw]
 *   R digits* (.cccc)?                           cccc = one to four c */
typedef struct found {
    const char *at, *end;                     /* the match */
    bool rel;                                 /* the vc[...] alternative */
    const char *name_end;                     /* the register letters end: "vc" or R */
    const char *num, *num_end;                /* the digits Adobe's number comes from (may be empty) */
    const char *swz, *swz_end;                /* '.' and its letters (empty: none) */
    size_t nlower;                            /* the letters read: those before the first uppercase one */
    const char *iname, *iname_end, *inum_end; /* relative: R inside the brackets, its digits */
    const char *plus, *plus_end;              /* relative: '+' and the offset's digits (empty: none) */
    double value;                             /* the register number, as JavaScript's parseInt reads it */
} found;

/* R = [vofi][acostdip]?[d]?: its length, 0 when p does not start one. */
static size_t reg_letters(const char *p, const char *end)
{
    size_t n = 0;
    if (p < end && in_set(p[0], "vofi")) n++;
    else return 0;
    if (p + n < end && in_set(p[n], "acostdip")) n++;
    if (p + n < end && in_set(p[n], "d")) n++;
    return n;
}

/* '.' and one to max component letters of either case: its length, or 0. */
static size_t swizzle_group(const char *p, const char *end, size_t max)
{
    if (end - p < 2 || p[0] != '.' || !in_set(p[1], "xyzw")) return 0;
    size_t n = 1;
    while (p + n < end && n <= max && in_set(p[n], "xyzw")) n++;
    return n;
}

static bool match_relative(const char *p, const char *end, found *f)
{
    if (end - p < 3 || (p[0] | 0x20) != 'v' || (p[1] | 0x20) != 'c' || p[2] != '[') return false;
    const char *q = p + 3;
    size_t n = reg_letters(q, end);
    if (!n) return false;
    f->iname = q;
    f->iname_end = q += n;
    f->inum_end = q += count_digits(q, end);
    f->plus = f->plus_end = NULL;
    if (end - q >= 2 && q[0] == '.' && in_set(q[1], "xyzw")) {
        q += 2;
        if (q < end && *q == '+') {
            size_t d = count_digits(q + 1, end);
            if (d < 1 || d > 3) return false; /* \+\d{1,3} must be followed by ']' */
            f->plus = q;
            f->plus_end = q += 1 + d;
        }
    }
    if (q >= end || *q != ']') return false;
    q++;
    f->rel = true;
    f->at = p;
    f->name_end = p + 2;
    f->swz = q;
    f->swz_end = f->end = q + swizzle_group(q, end, 4);
    return true;
}

static bool match_direct(const char *p, const char *end, found *f)
{
    size_t n = reg_letters(p, end);
    if (!n) return false;
    f->rel = false;
    f->at = p;
    f->name_end = f->num = p + n;
    f->num_end = f->swz = f->num + count_digits(f->num, end);
    f->swz_end = f->end = f->swz + swizzle_group(f->swz, end, 4);
    return true;
}

/* JavaScript's parseInt of a run of digits, as a double: the nearest double (past
 * 25 significant digits the number is over 2^80 and a multiple of 2^27, which is
 * all Adobe's range check and its 16-bit write see). */
static double digits_value(const char *p, const char *end)
{
    while (p < end && *p == '0') p++;
    if (end - p > 25) return 0x1p100;
    return p < end ? agal_decimal_value(p, (size_t)(end - p)) : 0;
}

typedef enum { READ_BLANK, READ_SKIPPED, READ_INSTRUCTION, READ_REFUSED } verdict;

/* Adobe's reading of one line. */
typedef struct reading {
    verdict what;
    const char *b, *e;   /* the line, trimmed and cut at "//" */
    const char *lt, *gt; /* sampler options: the first '<' a '>' follows, the last such '>' */
    const char *ie;      /* the end of the instruction: lt, or e */
    const agal_opinfo *info;
    int n;
    found ops[3];
    operand enc[3];
    samplerbits sb;
} reading;

/* A Unicode line or paragraph separator (UTF-8), which '.' in Adobe's option
 * pattern `<.*>` does not match. */
static bool is_unicode_break(const char *p, const char *end)
{
    return end - p >= 3 && (unsigned char)p[0] == 0xe2 && (unsigned char)p[1] == 0x80 &&
           ((unsigned char)p[2] == 0xa8 || (unsigned char)p[2] == 0xa9);
}

/* `<.*>`: the first '<' with a '>' after it before any Unicode line separator,
 * to the last such '>'. */
static void find_options(reading *rd)
{
    rd->lt = rd->gt = NULL;
    for (const char *seg = rd->b; seg < rd->e;) {
        const char *segend = seg, *lt = NULL, *gt = NULL;
        while (segend < rd->e && !is_unicode_break(segend, rd->e)) {
            if (*segend == '<' && !lt) lt = segend;
            if (*segend == '>') gt = segend;
            segend++;
        }
        if (lt && gt && gt > lt) {
            rd->lt = lt;
            rd->gt = gt;
            return;
        }
        if (segend == rd->e) break;
        seg = segend + 3;
    }
}

/* Adobe's register number, mask or swizzle and index of operand j; false where its
 * assembler refuses the operand. */
static bool take_operand(const line *ln, reading *rd, int j)
{
    found *f = &rd->ops[j];
    operand *o = &rd->enc[j];
    memset(o, 0, sizeof *o);
    o->at = f->at;
    const regname *r = find_reg(f->at, (size_t)(f->name_end - f->at));
    if (!r) return false;
    if (ln->stage == AGAL_FRAGMENT ? !(r->stages & IN_F) || f->rel : !(r->stages & IN_V)) return false;
    if (f->rel) {
        bool own = f->inum_end > f->iname_end;
        f->num = own ? f->iname_end : f->plus ? f->plus + 1 : f->inum_end;
        f->num_end = own ? f->inum_end : f->plus ? f->plus_end : f->inum_end;
    }
    f->value = digits_value(f->num, f->num_end);
    int32_t max = r->max[ln->version == 1 ? 0 : ln->version == 2 ? 1 : 2];
    if (max != NO_LIMIT && f->value > max) return false;
    o->type = r->type;
    o->num = (uint32_t)fmod(f->value, 65536.0);
    f->nlower = 0;
    if (f->swz_end > f->swz)
        for (const char *q = f->swz + 1; q < f->swz_end && is_lower(*q); q++) f->nlower++;
    o->nletters = (int)f->nlower;
    for (size_t k = 0; k < f->nlower; k++) o->letters[k] = (uint8_t)comp_of(f->swz[1 + k]);
    if (!f->rel) return true;
    if (j == 0 && (rd->info->operands & AGAL_OPND_D)) return false; /* a relative destination */
    const regname *ir = find_reg(f->iname, (size_t)(f->iname_end - f->iname));
    if (!ir || f->inum_end[0] != '.' || !is_lower(f->inum_end[1]))
        return false; /* unknown index register, or its component missing or not lowercase */
    o->indirect = true;
    o->index_type = ir->type;
    o->index_comp = (uint8_t)comp_of(f->inum_end[1]);
    o->offset = f->plus ? (uint32_t)digits_value(f->plus + 1, f->plus_end) : 0;
    return o->offset <= 255;
}

static void read_adobe(const line *ln, reading *rd)
{
    memset(rd, 0, sizeof *rd);
    const char *b = ln->p, *e = ln->end;
    while (b < e && (is_space(*b) || is_break(*b))) b++;
    while (e > b && (is_space(e[-1]) || is_break(e[-1]))) e--;
    rd->b = b;
    rd->e = e;
    find_options(rd);
    rd->ie = rd->lt ? rd->lt : e;
    if (rd->ie == b) {
        rd->what = READ_BLANK;
        return;
    }
    if (rd->ie - b < 3 || !is_word(b[0]) || !is_word(b[1]) || !is_word(b[2]) || !(rd->info = agal_opinfo_find(b, 3))) {
        rd->what = READ_SKIPPED;
        return;
    }
    const agal_opinfo *info = rd->info;
    rd->what = READ_REFUSED;
    if ((info->min_version >= 2 && ln->version < 2) ||
        ((info->flags & AGAL_OPF_FRAGMENT) && ln->stage != AGAL_FRAGMENT))
        return;
    int want = expected_operands(info);
    for (const char *q = b + 3; q < rd->ie;) {
        found f;
        if (!match_relative(q, rd->ie, &f) && !match_direct(q, rd->ie, &f)) {
            q++;
            continue;
        }
        if (rd->n == want) return; /* too many */
        rd->ops[rd->n++] = f;
        q = f.end;
    }
    if (rd->n != want) return;
    for (int j = 0; j < rd->n; j++)
        if (!take_operand(ln, rd, j)) return;
    rd->sb = (samplerbits){.present = rd->lt != NULL, .bits = 5};
    double bias = 0;
    for (const char *q = rd->lt ? rd->lt : e; q < e;) {
        if (!is_optchar(*q)) {
            q++;
            continue;
        }
        const char *w = q;
        while (q < e && is_optchar(*q)) q++;
        smpopt o;
        if (find_option(w, (size_t)(q - w), &o)) set_option(&rd->sb, o);
        else bias = js_parse_float(w, (size_t)(q - w));
    }
    rd->sb.bias = bias_byte(bias);
    rd->what = READ_INSTRUCTION;
}

/* ---- what Adobe's reading ignores: the warnings ------------------------------ */

/* The gap [g, ge) after `prev` (a piece read: the mnemonic, an operand, a sampler
 * option, or NULL) and before [next, next_end) (or the end). White space may be
 * there, and one separator `sep` (the comma between two operands or two options,
 * the closing '>'); anything else is ignored, and said so ("reads 'ft3.xy' and
 * ignores 'tz'" when it follows prev directly). Where a comma belongs (`comma`)
 * and nothing was ignored, a missing comma is said. */
static agal_status warn_gap(line *ln, const reading *rd, const char *prev, const char *g, const char *ge,
                            const char *next_end, const char *sep, bool comma)
{
    const char *first = NULL, *last = NULL;
    for (const char *q = g; q < ge; q++)
        if (!is_space(*q) && q != sep) {
            if (!first) first = q;
            last = q;
        }
    quote a, b;
    if (!first && comma && !sep)
        return at_warning(ln, ge, "missing ',' between %s and %s", quoted(&a, prev, (size_t)(g - prev)),
                          quoted(&b, ge, (size_t)(next_end - ge)));
    if (!first) return AGAL_OK;
    size_t n = (size_t)(last - first) + 1;
    const char *hint = !rd->lt && memchr(first, '<', n) ? " (no '>' closes the sampler options)" : "";
    if (first == g && prev)
        return at_warning(ln, first, "Adobe's assembler reads %s and ignores %s%s",
                          quoted(&a, prev, (size_t)(g - prev)), quoted(&b, first, n), hint);
    return at_warning(ln, first, "Adobe's assembler ignores %s%s", quoted(&b, first, n), hint);
}

static const char *last_comma(const char *g, const char *ge)
{
    for (const char *q = ge; q > g; q--)
        if (q[-1] == ',') return q - 1;
    return NULL;
}

static agal_status warn_operand(line *ln, const reading *rd, int j)
{
    const found *f = &rd->ops[j];
    const operand *o = &rd->enc[j];
    quote a, b;
    agal_status st = AGAL_OK;
    /* vc[va.x+5] reads va5; for iid, a single register, the number does not matter */
    if (f->rel && f->plus && f->num == f->plus + 1 && o->index_type != AGAL_REG_IID)
        st = at_warning(ln, f->iname,
                        "the index register %s has no number: Adobe's assembler takes the offset's %u "
                        "as its number",
                        quoted(&a, f->iname, (size_t)(f->iname_end - f->iname)), o->num);
    if (!st && f->value > 65535)
        st = at_warning(ln, f->num, "register number %s does not fit in 16 bits: Adobe's assembler writes %u",
                        quoted(&a, f->num, (size_t)(f->num_end - f->num)), o->num);
    size_t nletters = f->swz_end > f->swz ? (size_t)(f->swz_end - f->swz) - 1 : 0;
    if (!st && !f->nlower && nletters)
        st = at_warning(ln, f->swz, "Adobe's assembler ignores %s: components are lowercase letters",
                        quoted(&a, f->swz, nletters + 1));
    else if (!st && f->nlower < nletters)
        st = at_warning(ln, f->swz + 1 + f->nlower,
                        "Adobe's assembler reads %s and ignores %s: components are "
                        "lowercase letters",
                        quoted(&a, f->swz, f->nlower + 1), quoted(&b, f->swz + 1 + f->nlower, nletters - f->nlower));
    if (!st && j == 2 && (rd->info->operands & AGAL_OPND_S) && o->type != AGAL_REG_SAMPLER)
        st = at_warning(ln, f->at, "%s is not a sampler: Adobe's assembler writes it as sampler %u",
                        quoted(&a, f->at, (size_t)(f->end - f->at)), o->num);
    return st;
}

static agal_status warn_option_word(line *ln, const char *w, size_t n)
{
    double v;
    smpopt o;
    if (find_option(w, n, &o) || parse_decimal(w, n, &v)) return AGAL_OK;
    v = js_parse_float(w, n);
    quote a;
    char value[48];
    if (isnan(v)) snprintf(value, sizeof value, "NaN, written as 0");
    else if (isinf(v)) snprintf(value, sizeof value, "%sInfinity, written as 0", v < 0 ? "-" : "");
    else agal_format_number(value, sizeof value, v, 6);
    return at_warning(ln, w, "unknown sampler option %s: Adobe's assembler reads it as LOD bias %s", quoted(&a, w, n),
                      value);
}

/* The options of a texture instruction: words with one comma between two of them,
 * then the closing '>'; words after it are read as options too. */
static agal_status warn_options(line *ln, const reading *rd)
{
    const char *prev = NULL, *prev_end = rd->lt + 1;
    agal_status st = AGAL_OK;
    quote a;
    for (const char *q = rd->lt + 1; q < rd->e && !st;) {
        if (!is_optchar(*q)) {
            q++;
            continue;
        }
        const char *w = q;
        while (q < rd->e && is_optchar(*q)) q++;
        bool between = prev && w < rd->gt;
        const char *sep = between ? last_comma(prev_end, w) : prev_end <= rd->gt && rd->gt < w ? rd->gt : NULL;
        st = warn_gap(ln, rd, between ? prev : NULL, prev_end, w, q, sep, between);
        if (!st && w > rd->gt)
            st = at_warning(ln, w, "Adobe's assembler reads %s after '>' as a sampler option",
                            quoted(&a, w, (size_t)(q - w)));
        if (!st) st = warn_option_word(ln, w, (size_t)(q - w));
        prev = w;
        prev_end = q;
    }
    if (!st) st = warn_gap(ln, rd, NULL, prev_end, rd->e, rd->e, prev_end <= rd->gt ? rd->gt : NULL, false);
    return st;
}

static agal_status warn_reading(line *ln, const reading *rd)
{
    quote a, b;
    if (rd->what == READ_BLANK && rd->lt)
        return at_warning(ln, rd->lt, "sampler options without an instruction: Adobe's assembler ignores them");
    if (rd->what == READ_BLANK) return AGAL_OK;
    if (rd->what == READ_SKIPPED) {
        const char *w = rd->b;
        while (w < rd->ie && is_word(*w)) w++;
        if (w - rd->b >= 3)
            return at_warning(ln, rd->b, "unknown mnemonic %s: Adobe's assembler skips the line",
                              quoted(&a, rd->b, (size_t)(w - rd->b)));
        return at_warning(ln, rd->b, "not an instruction: Adobe's assembler skips %s",
                          quoted(&a, rd->b, (size_t)(rd->e - rd->b)));
    }
    /* The gaps: after the mnemonic, between operands (one comma), after the last. */
    const char *prev = rd->b, *prev_end = rd->b + 3;
    agal_status st = AGAL_OK;
    for (int j = 0; j <= rd->n && !st; j++) {
        const char *next = j < rd->n ? rd->ops[j].at : rd->ie, *next_end = j < rd->n ? rd->ops[j].end : rd->ie;
        bool between = j > 0 && j < rd->n;
        st = warn_gap(ln, rd, prev, prev_end, next, next_end, between ? last_comma(prev_end, next) : NULL, between);
        if (!st && j == 0 && rd->n && next == prev_end)
            st = at_warning(ln, next, "missing space between %s and %s", quoted(&a, prev, 3),
                            quoted(&b, next, (size_t)(next_end - next)));
        if (!st && j < rd->n) st = warn_operand(ln, rd, j);
        prev = next;
        prev_end = next_end;
    }
    if (st || !rd->lt) return st;
    if (!(rd->info->operands & AGAL_OPND_S))
        return at_warning(ln, rd->lt, "Adobe's assembler ignores sampler options on '%s'", rd->info->name);
    return warn_options(ln, rd);
}

/* ==== the project's syntax, for lines Adobe's reading refuses ================= */

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

/* A register name at *pp: letters, then known. */
static agal_status read_regname(line *ln, const char **pp, uint8_t *type)
{
    const char *p = *pp, *s = p;
    while (p < ln->end && is_alpha(*p)) p++;
    if (p == s) return at_error(ln, s, "expected a register name");
    const regname *r = find_reg(s, (size_t)(p - s));
    if (!r) return at_error(ln, s, "unknown register '%.*s'", (int)(p - s), s);
    *type = r->type;
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
    if (p < ln->end && !is_space(*p) && *p != ',')
        return at_error(ln, p, "unexpected %s in operand", shown(*p, (char[16]){0}));
    *pp = p;
    return AGAL_OK;
}

static agal_status apply_option(line *ln, const char *w, size_t n, samplerbits *sb)
{
    smpopt o;
    if (find_option(w, n, &o)) {
        set_option(sb, o);
        return AGAL_OK;
    }
    double v;
    if (!parse_decimal(w, n, &v))
        return at_error(ln, w, "unknown sampler option '%.*s'", printable(w, n) ? (int)n : 0, w);
    sb->bias = bias_byte(v);
    return AGAL_OK;
}

/* The options: from the first '<' to a '>' ending the line, words of
 * [A-Za-z0-9_.+-]; the instruction is what precedes. */
static agal_status split_options(line *ln, const char **opt_end, samplerbits *sb)
{
    const char *lt = memchr(ln->p, '<', (size_t)(ln->end - ln->p));
    *sb = (samplerbits){.bits = 5};
    *opt_end = ln->end;
    if (!lt) return AGAL_OK;
    const char *gt = NULL;
    for (const char *q = ln->end; q > lt; q--)
        if (q[-1] == '>') {
            gt = q - 1;
            break;
        }
    if (!gt) return at_error(ln, lt, "sampler options are not closed with '>'");
    sb->present = true;
    for (const char *q = lt + 1; q < ln->end;) {
        if (!is_optchar(*q)) {
            if (q > gt && !is_space(*q))
                return at_error(ln, q, "unexpected %s after the sampler options", shown(*q, (char[16]){0}));
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

static agal_status assemble_ours(line *ln, uint8_t *out, bool *emitted)
{
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
    if (p < end && !is_space(*p))
        return at_error(ln, p, "unexpected %s after '%s'", shown(*p, (char[16]){0}), info->name);
    operand ops[3];
    int n;
    if ((st = read_operands(ln, p, end, ops, &n))) return st;
    int want = expected_operands(info);
    if (n != want)
        return at_error(ln, m, "'%s' takes %d operand%s, found %d", info->name, want, want == 1 ? "" : "s", n);
    if (sb.present && !(info->operands & AGAL_OPND_S))
        return at_error(ln, m, "sampler options on '%s', which has no sampler", info->name);
    agal_wr32(out, info->code);
    if ((st = encode_operands(ln, info, ops, n, &sb, out + 4))) return st;
    *emitted = true;
    return AGAL_OK;
}

/* ==== the program ============================================================== */

static agal_status assemble_line(line *ln, uint8_t *out, bool *emitted)
{
    *emitted = false;
    reading rd;
    read_adobe(ln, &rd);
    if (rd.what == READ_REFUSED) return assemble_ours(ln, out, emitted);
    agal_status st = warn_reading(ln, &rd);
    if (st || rd.what != READ_INSTRUCTION) return st;
    agal_wr32(out, rd.info->code);
    if ((st = encode_operands(ln, rd.info, rd.enc, rd.n, &rd.sb, out + 4))) return st;
    *emitted = true;
    return AGAL_OK;
}

enum { MAX_INSTRUCTIONS = 65536 };

/* A UTF-8 byte order mark: not part of the text (a decoder drops it before the
 * text reaches Adobe's assembler). */
static size_t bom_size(const char *text, size_t len) { return len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? 3 : 0; }

/* Walks the lines of text: [ln->p, e) is each in turn, e at its line break. */
static const char *line_end(const line *ln, const char *end)
{
    const char *e = ln->p;
    while (e < end && !is_break(*e)) e++;
    return e;
}

/* \r\n is one line break; \r or \n alone is one too. */
static void next_line(line *ln, const char *e, const char *end)
{
    ln->p = ln->bol = e + (e[0] == '\r' && e + 1 < end && e[1] == '\n' ? 2 : 1);
    ln->lineno++;
}

/* The line and column where the instruction on ln starts (its first character). */
static agal_source_pos position_of(const line *ln)
{
    return (agal_source_pos){(uint32_t)ln->lineno, (uint32_t)(skip_space(ln->p, ln->end) - ln->bol) + 1};
}

/* agal_assemble, and with pos set each token's place in the text (*pos in ctx, one
 * entry a token). */
static agal_status assemble(agal_context *ctx, const char *text, size_t len, agal_stage stage, uint32_t version,
                            unsigned flags, const uint8_t **bytes, size_t *size, const agal_source_pos **pos)
{
    if (!ctx || !bytes || !size || (!text && len) || stage > AGAL_FRAGMENT) return AGAL_ERR_ARG;
    if (!text) text = ""; /* no pointer arithmetic on NULL */
    *bytes = NULL;
    *size = 0;
    size_t cap = 64, n = AGAL_HEADER_SIZE;
    uint8_t *buf = agal_alloc(ctx, cap * AGAL_TOKEN_SIZE + AGAL_HEADER_SIZE);
    agal_source_pos *where = pos ? agal_alloc(ctx, cap * sizeof *where) : NULL;
    if (!buf || (pos && !where)) return AGAL_ERR_NOMEM;
    buf[0] = AGAL_MAGIC;
    agal_wr32(buf + 1, version);
    buf[5] = AGAL_TYPE_ID;
    buf[6] = (uint8_t)stage;
    line ln = {.ctx = ctx,
               .text = text,
               .p = text + bom_size(text, len),
               .lineno = 1,
               .stage = stage,
               .version = version,
               .flags = flags};
    ln.bol = ln.p;
    const char *end = text + len;
    while (ln.p <= end) {
        const char *e = line_end(&ln, end);
        ln.end = e;
        /* Comments end the line: cut at "//" before anything else looks at it. */
        for (const char *q = ln.p; q + 1 < e; q++)
            if (q[0] == '/' && q[1] == '/') {
                ln.end = q;
                break;
            }
        if ((n - AGAL_HEADER_SIZE) / AGAL_TOKEN_SIZE == cap) {
            uint8_t *nb = agal_grow(ctx, buf, n, cap * 2 * AGAL_TOKEN_SIZE + AGAL_HEADER_SIZE, 1);
            agal_source_pos *nw = where ? agal_grow(ctx, where, cap, cap * 2, sizeof *where) : NULL;
            if (!nb || (where && !nw)) return AGAL_ERR_NOMEM;
            buf = nb;
            where = nw;
            cap *= 2;
        }
        bool emitted;
        agal_status st = assemble_line(&ln, buf + n, &emitted);
        if (st) return st;
        if (emitted && where) where[(n - AGAL_HEADER_SIZE) / AGAL_TOKEN_SIZE] = position_of(&ln);
        if (emitted) n += AGAL_TOKEN_SIZE;
        /* Far above any profile's limit (agal_decode reports that), but bounded. */
        if ((n - AGAL_HEADER_SIZE) / AGAL_TOKEN_SIZE > MAX_INSTRUCTIONS)
            return at_error(&ln, ln.p, "more than %d instructions", MAX_INSTRUCTIONS);
        if (e == end) break;
        next_line(&ln, e, end);
    }
    *bytes = buf;
    *size = n;
    if (pos) *pos = where;
    return AGAL_OK;
}

agal_status agal_assemble(agal_context *ctx, const char *text, size_t len, agal_stage stage, uint32_t version,
                          unsigned flags, const uint8_t **bytes, size_t *size)
{
    return assemble(ctx, text, len, stage, version, flags, bytes, size, NULL);
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

agal_status agal_assemble_text(agal_context *ctx, const char *text, size_t len, unsigned flags, int *stage,
                               uint32_t *version, const uint8_t **bytes, size_t *size)
{
    return agal_assemble_text_pos(ctx, text, len, flags, stage, version, bytes, size, NULL);
}

agal_status agal_assemble_text_pos(agal_context *ctx, const char *text, size_t len, unsigned flags, int *stage,
                                   uint32_t *version, const uint8_t **bytes, size_t *size, const agal_source_pos **pos)
{
    if (!ctx || !stage || !version || !bytes || !size || (!text && len)) return AGAL_ERR_ARG;
    if (pos) *pos = NULL;
    int hstage;
    uint32_t hversion;
    agal_status st = agal_asm_header(ctx, text, len, &hstage, &hversion);
    if (st != AGAL_OK) return st;
    if (*stage < 0) *stage = hstage;
    if (!*version) *version = hversion ? hversion : 1;
    if (*stage < 0)
        return agal_error(ctx, 0, -1, -1, NULL, "no stage: add a `// stage: vertex|fragment` line or give the stage");
    return assemble(ctx, text, len, (agal_stage)*stage, *version, flags, bytes, size, pos);
}

agal_status agal_asm_header(agal_context *ctx, const char *text, size_t len, int *stage, uint32_t *version)
{
    if (!ctx || !stage || !version || (!text && len)) return AGAL_ERR_ARG;
    if (!text) text = "";
    *stage = -1;
    *version = 0;
    line ln = {.ctx = ctx, .text = text, .p = text + bom_size(text, len), .lineno = 1};
    ln.bol = ln.p;
    const char *end = text + len;
    while (ln.p < end) {
        const char *e = line_end(&ln, end), *v, *ve;
        ln.end = e;
        const char *first = skip_space(ln.p, e);
        if (first < e && !(e - first >= 2 && first[0] == '/' && first[1] == '/')) break; /* an instruction */
        if (header_value(ln.p, e, "stage", &v, &ve)) {
            if (ve - v == 6 && !memcmp(v, "vertex", 6)) *stage = AGAL_VERTEX;
            else if (ve - v == 8 && !memcmp(v, "fragment", 8)) *stage = AGAL_FRAGMENT;
            else
                return at_error(&ln, v, "stage must be 'vertex' or 'fragment', not '%.*s'",
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
        next_line(&ln, e, end);
    }
    return AGAL_OK;
}
