/* internal.h: what the library's stages share and the public API does not show.
 * Grouped by the file that defines it. */
#ifndef AGAL_INTERNAL_H
#define AGAL_INTERNAL_H

#include "agal/agal.h"
#include "agal/interp.h"
#include "agal/stage3d.h"
#include "agal/text.h"
#include "private.h"

#include <stdarg.h>
#include <string.h>

#define AGAL_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))
/* A rarely taken path (an array's growth) kept out of the hot function that calls
 * it, so that function's common path saves no registers for it. */
#if defined(__GNUC__)
#define AGAL_COLD __attribute__((noinline, cold))
#else
#define AGAL_COLD
#endif
/* A small function a hot path relies on being inlined (its comment says where),
 * whatever the compiler's budget for a caller that has grown; and one kept out of
 * line on purpose (its comment says why). */
#if defined(__GNUC__)
#define AGAL_ALWAYS_INLINE inline __attribute__((always_inline))
#define AGAL_NOINLINE __attribute__((noinline))
#else
#define AGAL_ALWAYS_INLINE inline
#define AGAL_NOINLINE
#endif

/* splitmix64's finalizer: each bit of z moves about half of the result's bits (the
 * interpreter's perturbed draws, the pipeline layer's hash). */
static inline uint64_t agal_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The index of the lowest set bit of a set that is not empty: a walk of a set's
 * members, lowest first, visits only them (set &= set - 1 drops the one visited). */
static inline int agal_lowest_bit(uint64_t set)
{
#if defined(__GNUC__)
    return __builtin_ctzll(set);
#else
    int i = 0;
    while (!(set >> i & 1)) i++;
    return i;
#endif
}

/* ---- names.c: the names a GLSL-family text declares -------------------------- */

/* given's names, ours where it has none; AGAL_ERR_ARG (with a diagnostic) for a name
 * that is no GLSL identifier. */
agal_status agal_names_resolve(agal_context *ctx, const agal_names *given, agal_names *out);

/* ---- json_read.c: the small JSON documents the library reads ------------------ */

/* A document's text and where the reader is; doc ("limits JSON") starts each error. */
typedef struct agal_json_reader {
    agal_context *ctx;
    const char *doc;
    const char *s;
    size_t n, at;
} agal_json_reader;

/* "DOC, byte N: what" (with member: `byte N ("member")`), reported at the reader's byte. */
agal_status agal_json_error(agal_json_reader *r, const char *what, const char *member);
void agal_json_skip_space(agal_json_reader *r);
/* c after any space: taken (true), or left (false). */
bool agal_json_take(agal_json_reader *r, char c);
/* A string without escapes (no member name or value the library reads needs one):
 * its bytes are [*first, *first + *len) of the text. */
agal_status agal_json_string(agal_json_reader *r, size_t *first, size_t *len);
/* An integer 0 .. max: false, the reader left where the value begins, for anything
 * else (a sign, a fraction, an exponent, too many digits). */
bool agal_json_uint(agal_json_reader *r, uint32_t max, uint32_t *out);

/* ---- context.c: the context, its arena and its diagnostics ---------------- */

typedef struct arena_block arena_block;

struct agal_context {
    agal_alloc_fn alloc;
    void *ud;
    arena_block *blocks; /* bump blocks, newest (the one bumped) first */
    arena_block *large;  /* blocks of one large allocation each, newest first */
    /* The blocks of the work before the last reset, oldest first, taken again
     * before the hook is asked for new ones. */
    arena_block *spare_blocks, *spare_large;
    size_t nblocks, nlarge;
    void *last; /* the newest bump allocation, which agal_grow may extend in place */
    size_t last_size;
    agal_diag *diags;
    size_t ndiags, diag_cap;
    bool every_alloc; /* tests: each allocation its own block, from the hook */
};

/* agal_context_reset keeps no more than this: the largest program's translation
 * (AGAL_MAX_TOKENS tokens, about 4 MiB for the costliest shapes) fits, so an
 * emulator's reused context never gives back and asks again for the memory of a
 * program it translates over and over, yet a context kept for a session holds
 * no more than this. */
#define AGAL_ARENA_KEEP_MAX ((size_t)8 << 20)

/* An allocation of this many bytes or more gets an arena block of its own, which
 * agal_grow resizes in place; smaller ones share bump blocks. */
enum { AGAL_ARENA_LARGE = 4 * 1024 };

/* Tests: every allocation from now on asks the hook for a block of its own, so an
 * allocation-failure sweep reaches each allocation, not only the arena's blocks. */
void agal_context_hook_every_alloc(agal_context *ctx, bool on);

/* Zeroed arena memory; NULL when out of memory. */
void *agal_zalloc(agal_context *ctx, size_t size);
/* Grows an arena array: returns old (n elements of size elem) with room for cap
 * elements, or NULL (old is then unchanged). The newest bump allocation grows in
 * place when its block has room, a large allocation is resized by the hook (old
 * is then gone); otherwise it is copied and the old copy stays until reset. */
void *agal_grow(agal_context *ctx, void *old, size_t n, size_t cap, size_t elem);
/* Scratch memory: agal_arena_save notes the arena's top, agal_arena_restore gives
 * back everything allocated since (blocks added since become spares for what
 * follows), so a pass's working arrays do not add to a translation's peak.
 * Nothing made in between may outlive the restore: no results, no diagnostics. */
typedef struct agal_arena_mark {
    size_t nblocks, nlarge, used;
    void *last;
    size_t last_size;
} agal_arena_mark;

agal_arena_mark agal_arena_save(const agal_context *ctx);
void agal_arena_restore(agal_context *ctx, agal_arena_mark m);
char *agal_strdup(agal_context *ctx, const char *s, size_t len);
/* printf into the arena. */
char *agal_sprintf(agal_context *ctx, const char *fmt, ...);
char *agal_vsprintf(agal_context *ctx, const char *fmt, va_list ap);

/* ---- the sticky error ----------------------------------------------------------
 * The library's one way to fail part-way through a walk (the IR builder, the
 * emitters, the text buffer): the walker's state holds an `agal_status err`, AGAL_OK
 * until the first failure. agal_fail records a failure only while err is AGAL_OK, so
 * the first cause is the one reported; each later step finds err set and does
 * nothing (a helper that must hand back a value returns 0 or NULL), and the entry
 * point returns err. No step has to check what the one before it returned. */
static inline agal_status agal_fail(agal_status *err, agal_status st)
{
    if (*err == AGAL_OK) *err = st;
    return *err;
}

/* A growable NUL-terminated text buffer in the arena, shared by every stage that
 * writes text (disassembler, IR printer, GLSL emitter, reflection JSON). Its error
 * is sticky: after an allocation failure (err AGAL_ERR_NOMEM) it writes nothing
 * more. */
typedef struct agal_strbuf {
    agal_context *ctx;
    char *p;
    size_t n, cap;
    agal_status err;
} agal_strbuf;

/* agal_sb_putn's path that grows the buffer (or finds it failed). */
void agal_sb_putn_grow(agal_strbuf *b, const char *s, size_t len);
/* Room for len more bytes and the NUL: a writer then spells a piece straight at
 * b->p + b->n, adds its length to b->n and writes the NUL. false: the buffer failed
 * (err set). */
bool agal_sb_reserve(agal_strbuf *b, size_t len);
/* Inline: the emitters append many small pieces, and a call and a strlen each were
 * a fifth of a GLSL translation. */
static inline void agal_sb_putn(agal_strbuf *b, const char *s, size_t len)
{
    if (b->err || len >= b->cap - b->n) {
        agal_sb_putn_grow(b, s, len);
        return;
    }
    memcpy(b->p + b->n, s, len);
    b->n += len;
    b->p[b->n] = 0;
}
/* A number as printf's "%.*g" writes it in the C locale, whatever locale the host
 * set: the decimal point is always '.' (text output must not depend on the host).
 * NUL-terminated into buf (at least 32 bytes); returns its length. */
size_t agal_format_number(char *buf, size_t size, double v, int precision);
void agal_sb_number(agal_strbuf *b, double v, int precision);
/* Numbers read in any locale: the length of the longest prefix of [s, s+n) that is
 * [+-] digits [. digits] [e [+-] digits], as JavaScript's parseFloat reads it (0:
 * none), and the double nearest to such a decimal, as ActionScript's Number(). */
size_t agal_decimal_prefix(const char *s, size_t n);
double agal_decimal_value(const char *s, size_t n);
static inline void agal_sb_put(agal_strbuf *b, const char *s) { agal_sb_putn(b, s, strlen(s)); }
/* One character; an unsigned number in decimal. The emitters' small pieces, without
 * the cost of a printf call each (most of GLSL's time when they had one). */
static inline void agal_sb_putc(agal_strbuf *b, char c) { agal_sb_putn(b, &c, 1); }
void agal_sb_uint(agal_strbuf *b, unsigned v);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void agal_sb_printf(agal_strbuf *b, const char *fmt, ...);

/* Records a diagnostic with the fields of *proto and the formatted message; returns
 * AGAL_ERR_INVALID (or AGAL_ERR_NOMEM when it cannot be stored), like agal_error. */
agal_status agal_report(agal_context *ctx, const agal_diag *proto, const char *fmt, ...);
agal_status agal_vreport(agal_context *ctx, const agal_diag *proto, const char *fmt, va_list ap);
/* Records a diagnostic; always returns AGAL_ERR_INVALID (or AGAL_ERR_NOMEM when even
 * the diagnostic cannot be stored) so callers can `return agal_error(...)`. */
agal_status agal_error(agal_context *ctx, int flash_id, int token, long offset, const char *opname, const char *fmt,
                       ...);

/* The ABI rule for structs that grow (agal.h, "Growing without breaking the ABI").
 * agal_options_read: *dst (dst_size bytes, its first field the size) holds the
 * defaults; the caller's struct src (NULL: none) is copied over them up to the
 * smaller size, and dst's size field is set to dst_size. A size of 0, one too small
 * for the size field or implausibly large is AGAL_ERR_ARG, and bytes past what this
 * version knows that are not 0 (an option it does not have) AGAL_ERR_UNSUPPORTED,
 * each with a diagnostic naming `what`. agal_result_check: a result struct's size is
 * usable. agal_result_write: the first out->size bytes of full (its own size field
 * kept). */
agal_status agal_options_read(agal_context *ctx, void *dst, size_t dst_size, const void *src, const char *what);
agal_status agal_result_check(agal_context *ctx, uint32_t size, const char *what);
void agal_result_write(void *out, const void *full, size_t full_size);

/* ---- reflect.c (src/runtime/) ---------------------------------------------------- */

/* The components of the attributes source s of token t reads (rows registers from
 * its number; an attribute as an index: its component), OR-ed into mask[n] for
 * va<n>: the one rule for agal_reflect's attribute_mask and the binding description
 * (build.c notes it as it reads the tokens). Nothing for a source that names no
 * attribute (agal_source_names_attribute). */
void agal_source_attributes(uint16_t mask[16], const agal_token *t, const agal_source *s, unsigned rows);
/* Whether source s names an attribute, as its register or its index: most sources do
 * not, and then their rows need no look. */
static inline bool agal_source_names_attribute(const agal_source *s)
{
    return (s->indirect ? s->index_type : s->type) == AGAL_REG_ATTRIBUTE;
}
/* agal_source_attributes for a source indexed by an attribute: inline, as the builder
 * notes it at every relative read (a call and a token's look for one bit). */
static inline void agal_index_attribute(uint16_t mask[16], const agal_source *s)
{
    if (s->index_num < 16) mask[s->index_num] |= (uint16_t)(1u << (s->index_comp & 3));
}

/* What Flash's checks count a program's tokens for, dead code included: the flags of
 * agal_reflection and of agal_upload_result.tokens, one rule for both. */
typedef struct agal_token_uses {
    bool uses_derivatives, uses_kil, writes_depth, uses_iid;
} agal_token_uses;
void agal_token_uses_of(const agal_program *prog, agal_token_uses *out);

/* ---- reflect_json.c (src/runtime/): the one JSON writer of an agal_binding ------- */

/* {"entries": [...]}: the WebGPU bind group layout of n WGSL bindings (an upload's
 * two: vertex, then fragment), agal_reflect_json's "webgpu" entries one after
 * another. */
void agal_binding_layout_json(agal_strbuf *b, const agal_binding *const *g, size_t n);
/* The binding as the web package gives it to JavaScript (web/agal2spv.d.ts's
 * Binding): one line; with_layout adds its "bindGroupLayout" (a WGSL binding's). */
void agal_binding_json(agal_strbuf *b, const agal_binding *g, bool with_layout);

/* ---- opcodes.c ----------------------------------------------------------- */

/* The comparison predicates of the set ops (sge slt seq sne) and the branches (ife
 * ine ifg ifl): IEEE, a NaN is unequal to everything (docs/format.md section 4), so GE,
 * LT and EQ are ordered (false with a NaN) and NE is unordered (true).
 *   X(ID, C operator, SPIR-V instruction, GLSL operator, GLSL vector function, negated)
 * GLSL writes NE as the negation of EQ (`!(a == b)`, `not(equal(a, b))`): true for a
 * NaN whatever a driver's != does. The row of an opcode names its predicate
 * (agal_opcodes.def, column CMP). */
#define AGAL_CMPS(X) \
    X(NONE, ==, SpvOpNop, "", "", false) \
    X(GE, >=, SpvOpFOrdGreaterThanEqual, ">=", "greaterThanEqual", false) \
    X(LT, <, SpvOpFOrdLessThan, "<", "lessThan", false) \
    X(EQ, ==, SpvOpFOrdEqual, "==", "equal", false) \
    X(NE, !=, SpvOpFUnordNotEqual, "==", "equal", true)

typedef enum agal_cmp {
#define AGAL_CMP_ENUM(id, ...) AGAL_CMP_##id,
    AGAL_CMPS(AGAL_CMP_ENUM)
#undef AGAL_CMP_ENUM
} agal_cmp;

/* Whether a cmp b holds (the interpreter's comparisons). */
static inline bool agal_cmp_holds(agal_cmp c, float a, float b)
{
    switch (c) {
#define AGAL_CMP_CASE(id, op, ...) \
    case AGAL_CMP_##id: return a op b;
        AGAL_CMPS(AGAL_CMP_CASE)
#undef AGAL_CMP_CASE
    }
    return false;
}

/* The predicate of a set or branch opcode, AGAL_CMP_NONE for the others. */
agal_cmp agal_op_cmp(unsigned op);

/* The opcode table, by opcode value (a row without a name: no such opcode), and
 * agal_opinfo_get inline, for the decoder and validator, which look up every token. */
extern const agal_opinfo agal_optable[AGAL_OP_LIMIT];
static inline const agal_opinfo *agal_opinfo_at(uint32_t code)
{
    return code < AGAL_OP_LIMIT && agal_optable[code].name ? &agal_optable[code] : NULL;
}

/* agal_opinfo_rows of an opcode's flags, inline: 3 or 4 rows of a matrix operand, 0. */
static inline unsigned agal_flags_rows(unsigned flags)
{
    return flags & AGAL_OPF_ROWS3 ? 3u : flags & AGAL_OPF_ROWS4 ? 4u : 0u;
}

/* The register counts of a profile and stage (AGAL_VERTEX or AGAL_FRAGMENT), indexed
 * by agal_regtype: agal_reg_count's row, for a caller that looks up many. */
const uint16_t *agal_reg_counts(agal_profile profile, agal_stage stage);

/* Short name of a register: name + number ("vt2", "oc1"; "op", "fd", "iid" alone). */
int agal_format_reg(char *buf, size_t size, agal_stage stage, unsigned type, unsigned num);
/* The same written at p, which has AGAL_REG_TEXT_MAX bytes free, without a NUL;
 * returns its length (the longest: "r4294967295[4294967295]"). */
enum { AGAL_REG_TEXT_MAX = 24 };
size_t agal_put_reg(char *p, agal_stage stage, unsigned type, unsigned num);
/* Its name alone (NULL: neither stage has the type). */
const char *agal_reg_name_either(agal_stage stage, unsigned type);
/* v's decimal digits at p (at most 10), without a NUL; returns how many. Inline:
 * the numbers every emitter writes (registers, tokens) have one or two digits. */
static inline size_t agal_put_uint(char *p, unsigned v)
{
    if (v < 10) {
        p[0] = (char)('0' + v);
        return 1;
    }
    if (v < 100) {
        p[0] = (char)('0' + v / 10);
        p[1] = (char)('0' + v % 10);
        return 2;
    }
    char rev[10];
    size_t n = 0;
    do rev[n++] = (char)('0' + v % 10);
    while (v /= 10);
    for (size_t i = 0; i < n; i++) p[i] = rev[n - 1 - i];
    return n;
}
/* Registers' spellings by stage and type (opcodes.c): the name NUL-terminated in 4
 * bytes copied at once, its length, and whether the register is single (op, fd and
 * iid, which Adobe's syntax writes without a number). A type the stage lacks is
 * spelled as the other stage names it. */
typedef struct agal_reg_spelling {
    char s[4];
    uint8_t n;
    bool single;
} agal_reg_spelling;
extern const agal_reg_spelling agal_reg_spellings[2][AGAL_REG_TYPES];
/* Register number num spelled r at p; returns the length. */
static inline size_t agal_put_spelling(char *p, const agal_reg_spelling *r, unsigned num)
{
    memcpy(p, r->s, sizeof r->s);
    size_t n = r->n;
    if (num || !r->single) n += agal_put_uint(p + n, num);
    return n;
}
/* agal_put_reg, but a type the stage lacks is named as the other stage names it
 * (the disassembler's `va0` in a fragment program). Inline: a token comment names
 * two or three registers. */
static inline size_t agal_put_reg_either(char *p, agal_stage stage, unsigned type, unsigned num)
{
    if (stage > AGAL_FRAGMENT || type >= AGAL_REG_TYPES) return agal_put_reg(p, stage, type, num); /* "r9[0]" */
    return agal_put_spelling(p, &agal_reg_spellings[stage][type], num);
}
/* The positions of the operation's input that a source of token t feeds (before its
 * swizzle): what agal_source_read_mask reads through each source's swizzle. */
static inline unsigned agal_read_lanes(const agal_opinfo *info, const agal_token *t)
{
    if (info->flags & AGAL_OPF_SCALAR) return 1;
    if (info->flags & AGAL_OPF_TEXTURE) return (t->s.dim == AGAL_DIM_CUBE ? 7u : 3u) | (t->op == AGAL_OP_TED ? 8u : 0u);
    if (info->width) return info->width == 3 ? 7u : 15u;
    return t->dst.mask & 15u;
}
/* The components read through two swizzle positions, by those positions' lanes (2
 * bits) and their half of the swizzle (4 bits). */
extern const uint8_t agal_swizzle_pair_reads[4][16];
/* The components swizzle sw reads at those positions: a half of each from a table. */
static inline unsigned agal_swizzle_read_mask(uint8_t sw, unsigned lanes)
{
    return agal_swizzle_pair_reads[lanes & 3u][sw & 15u] | agal_swizzle_pair_reads[lanes >> 2 & 3u][sw >> 4];
}
/* Components of register source s of token t that the operation really reads,
 * after the swizzle: the written mask's positions for componentwise ops, the first
 * 3 or 4 for dot/matrix/vector ops (each row of a matrix operand alike), one for
 * conditions and kil, xy (2D) or xyz (cube) of texture coordinates, plus w for ted.
 * Inline: the builder asks at every attribute read (agal_source_attributes). */
static inline unsigned agal_source_read_mask(const agal_token *t, const agal_source *s)
{
    const agal_opinfo *info = agal_opinfo_at((uint32_t)t->op);
    return info ? agal_swizzle_read_mask(s->swizzle, agal_read_lanes(info, t)) : 0;
}
/* How many consecutive registers source `which` (0: the first, 1: the second) of an
 * operation reads: a matrix op's second source reads its rows, number + k (with an
 * indirect source, address + k) for k below 3 (m33, m34) or 4 (m44), each in the
 * components agal_source_read_mask gives; every other source reads one register.
 * Every reader of operands counts registers through this (docs/format.md section 4). */
static inline unsigned agal_source_rows(const agal_opinfo *info, int which)
{
    unsigned rows = which == 1 ? agal_flags_rows(info->flags) : 0;
    return rows ? rows : 1;
}
/* The letters of a component mask ("xzw"; "" for 0). */
const char *agal_mask_letters(char out[5], unsigned mask);

/* ---- disassemble.c ------------------------------------------------------- */

/* One instruction in assembler syntax ("add vt0.xz, va0.wzyx, vc5"), from the
 * token's raw words; a token the syntax cannot write is named with the reason
 * ("tex (cannot be written in assembler syntax: sampler format has no name)"). */
void agal_format_instruction(agal_strbuf *b, agal_stage stage, const agal_token *t);
/* The same spelled at p, which has AGAL_INSTRUCTION_TEXT_MAX bytes free, without a
 * NUL; returns its end, or NULL for a token the syntax cannot write (nothing
 * written). The bound: an opcode, three operands of at most 2 register names with
 * numbers and a swizzle each, a sampler's 8 options and its bias, under 200. */
enum { AGAL_INSTRUCTION_TEXT_MAX = 256 };
char *agal_put_instruction(char *p, agal_stage stage, const agal_token *t);
/* With debug_info, a token's line in its source text, the program's disassembly
 * (agal_disassemble_program: two header comment lines, then a line a token): the
 * line every output names it by (OpLine, GLSL's #line, the source map's readers). */
static inline uint32_t agal_token_line(uint32_t token) { return token + 3; }

/* ---- decode.c ------------------------------------------------------------ */

/* The profile a program of this version is validated against: the one given, or
 * (AGAL_PROFILE_AUTO) its version's; a version no profile has leaves it AUTO. */
static inline agal_profile agal_profile_of(agal_profile given, uint32_t version)
{
    if (given != AGAL_PROFILE_AUTO) return given;
    return version >= 1 && version <= 3 ? (agal_profile)version : AGAL_PROFILE_AUTO;
}

/* Little-endian fields (every multi-byte field of the format, docs/format.md section 1). */
static inline uint32_t agal_rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t agal_rd64(const uint8_t *p) { return (uint64_t)agal_rd32(p) | (uint64_t)agal_rd32(p + 4) << 32; }
/* The version in the header of the n bytes at b, or 0 where there is no header
 * (before the validator has read it: what it refuses is left to it). */
static inline uint32_t agal_header_version(const uint8_t *b, size_t n)
{
    return b && n >= 5 && b[0] == AGAL_MAGIC ? agal_rd32(b + 1) : 0;
}
static inline void agal_wr16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void agal_wr32(uint8_t *p, uint32_t v)
{
    agal_wr16(p, v & 0xffffu);
    agal_wr16(p + 2, v >> 16);
}
static inline void agal_wr64(uint8_t *p, uint64_t v)
{
    agal_wr32(p, (uint32_t)v);
    agal_wr32(p + 4, (uint32_t)(v >> 32));
}

/* Field accessors of the raw token words (see the drawing in agal.h). */
static inline unsigned dst_num(uint32_t d) { return d & 0xffffu; }
static inline unsigned dst_mask(uint32_t d) { return (d >> 16) & 0xfu; }
static inline unsigned dst_type(uint32_t d) { return (d >> 24) & 0xfu; }
static inline unsigned src_num(uint64_t s) { return (unsigned)(s & 0xffffu); }
static inline unsigned src_offset(uint64_t s) { return (unsigned)((s >> 16) & 0xffu); }
static inline unsigned src_swizzle(uint64_t s) { return (unsigned)((s >> 24) & 0xffu); }
static inline unsigned src_type(uint64_t s) { return (unsigned)((s >> 32) & 0xfu); }
static inline unsigned src_index_type(uint64_t s) { return (unsigned)((s >> 40) & 0xfu); }
static inline unsigned src_index_comp(uint64_t s) { return (unsigned)((s >> 48) & 0x3u); }
static inline bool src_indirect(uint64_t s) { return (s >> 63) & 1u; }
static inline unsigned smp_num(uint64_t s) { return (unsigned)(s & 0xffffu); }
static inline int smp_bias(uint64_t s) { return (int8_t)((s >> 16) & 0xffu); }
static inline unsigned smp_type(uint64_t s) { return (unsigned)((s >> 32) & 0xfu); }
/* The sampler's option fields, 4 bits each at these bits (agal_sampler_field order). */
static inline unsigned smp_shift(agal_sampler_field f) { return 40u + 4u * (unsigned)f; }
static inline unsigned smp_field(uint64_t s, agal_sampler_field f) { return (unsigned)((s >> smp_shift(f)) & 0xfu); }
static inline unsigned smp_format(uint64_t s) { return smp_field(s, AGAL_SMP_FORMAT); }
static inline unsigned smp_dim(uint64_t s) { return smp_field(s, AGAL_SMP_DIM); }
static inline unsigned smp_special(uint64_t s) { return smp_field(s, AGAL_SMP_SPECIAL); }
static inline unsigned smp_wrap(uint64_t s) { return smp_field(s, AGAL_SMP_WRAP); }
static inline unsigned smp_mipmap(uint64_t s) { return smp_field(s, AGAL_SMP_MIPMAP); }
static inline unsigned smp_filter(uint64_t s) { return smp_field(s, AGAL_SMP_FILTER); }

/* Every value of a sampler state is one AGAL_WRAP_*, AGAL_FILTER_* and AGAL_MIP_* name. */
static inline bool agal_sampler_state_valid(agal_sampler_state s)
{
    return s.wrap <= AGAL_WRAP_REPEAT_U_CLAMP_V && s.filter <= AGAL_FILTER_ANISO16X && s.mipmap <= AGAL_MIP_LINEAR;
}

/* Bits that must be zero in each field. */
#define DST_RESERVED 0xf0f00000u
#define SRC_RESERVED 0x7ffcf0f000000000ull        /* bits 36-39, 44-47, 50-62 */
#define SRC_INDIRECT_FIELDS 0x00030f0000ff0000ull /* bits 16-23, 40-43, 48-49 */
#define SMP_RESERVED 0x000000f0ff000000ull        /* bits 24-31, 36-39 */

uint32_t agal_encode_dest(const agal_dest *d);
uint64_t agal_encode_source(const agal_source *s);
uint64_t agal_encode_sampler(const agal_sampler *s);

/* ---- validate.c ---------------------------------------------------------- */

/* Validates the decoded tokens of prog (decode.c has checked the header and split
 * the fields). Records the first rule broken; its diagnostic names `slot` as the
 * program (Flash's %1). */
agal_status agal_validate(agal_context *ctx, agal_program *prog, agal_stage slot);

/* ---- runtime/upload.c ------------------------------------------------------------ */

/* Whether the upload's targets are single-sampled, where a centroid sample is a
 * centre sample: its pair declares no varying centroid (and packs them so), and
 * agal_pipeline_program_id tells its translation apart. */
static inline bool agal_upload_centre_only(const agal_upload_options *o) { return o->samples == 1; }

/* ---- runtime/context3d.c: Context3D's checks ----------------------------------- */

/* Fills err with id and up to three numbers (long) as its message arguments;
 * returns id. */
int agal_check_fail(agal_flash_error *err, int id, int nargs, ...);

#endif
