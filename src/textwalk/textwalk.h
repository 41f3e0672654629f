/* textwalk.h: what the text back ends (glsl.c, wgsl.c) share, so that each is only
 * its language: giving SSA values back their registers, the walk of the IR's if
 * tree into statements, the comments naming the AGAL tokens, which value is
 * printed where (found as the walk goes), and the expressions both languages spell
 * alike.
 *
 * A back end embeds agal_text as its first member and describes its language in an
 * agal_text_lang (SPIRV-Cross's CompilerGLSL and its subclasses, in C): its types,
 * literals, inputs, samples, comparisons and function names, and the statements
 * whose syntax differs. Readability comes from the registers: each
 * written register (vt/ft, op, oc, v, fd) is one variable, and a value tagged with a
 * register becomes one assignment to it ("vt0.xz = va0.wy + vc[5].xz;"). A use
 * prints the register's name while the variable still holds that value; the walk
 * tracks which value each variable holds. Where a value outlives its register (the
 * IR allows it; AGAL's own data flow never produces it) it is copied into a
 * temporary "tN" right after its assignment. The body is written by one walk, which
 * also finds those values; a walk that found one wrote its earlier uses as the
 * register, so the body is written again by a walk that knows them all and makes
 * the same decisions. */
#ifndef AGAL_TEXTWALK_H
#define AGAL_TEXTWALK_H

#include "emit.h"

/* Components selected from a value, in order, as one word: component i's index
 * (0-3) in bits 2i and 2i+1, the count in bits 8 and up; .xz is 0x208 (x 0, z 2,
 * two of them). Made and changed by arithmetic, it stays in a register: as bytes of
 * a struct, GCC built each selection in memory a byte at a time and passed it by one
 * 8-byte load of them, a store that cannot forward, at nearly every operand (perf:
 * a fifth of the text path's time in ref). Components past the count are 0. */
typedef struct agal_sel {
    uint32_t bits;
} agal_sel;

static inline agal_sel sel_make(unsigned comps, unsigned n) { return (agal_sel){comps | n << 8}; }
static inline agal_sel sel_one(unsigned c) { return sel_make(c, 1); }
static inline unsigned sel_n(agal_sel s) { return s.bits >> 8; }
static inline unsigned sel_c(agal_sel s, unsigned i) { return (s.bits >> (2 * i)) & 3u; }
/* s with component c after its last. */
static inline agal_sel sel_push(agal_sel s, unsigned c)
{
    return sel_make((s.bits & 0xffu) | c << (2 * sel_n(s)), sel_n(s) + 1);
}

typedef struct agal_text agal_text;

/* What a language spells its own way. */
typedef struct agal_text_lang {
    const char *name;          /* "GLSL": internal errors name the emitter */
    const char *vec_types[5];  /* by width: "float" for 0 and 1, "vec2" ... "vec4" */
    const char *temp_types[4]; /* "vec4 t" ... by agal_ir_type: an intermediate's declaration */
    const char *int_cast;      /* "int(": a relative read's index */
    const char *sat[2];        /* around sat's operand: "clamp(", ", 0.0, 1.0)" */
    const char *kil_end;       /* after `if (x`: " < 0.0) discard;\n" */
    bool assigns_swizzles;     /* `vt0.xz = ...`: else only one component is assigned so */
    /* A function of the opcode table (GLSL's names: "inversesqrt", "dFdx") as the
     * language calls it on a value of width components. */
    const char *(*function)(const agal_text *t, const char *glsl_name, unsigned width);
    /* A float literal; a constant (the value 0 is one too: a register never written). */
    void (*number)(agal_text *t, float f);
    void (*constant)(agal_text *t, const agal_ir_inst *in, agal_sel s);
    /* va<n>, v<n>, iid; sge/slt/seq/sne; a texture sample: selection s of them. */
    void (*input)(agal_text *t, const agal_ir_inst *in, agal_sel s);
    void (*set_cmp)(agal_text *t, const agal_ir_inst *in, agal_sel s);
    void (*tex)(agal_text *t, const agal_ir_inst *in, agal_sel s);
    /* A merge whose new components interleave with the old (NULL: by runs). */
    void (*interleaved)(agal_text *t, const agal_ir_inst *in, agal_sel s);
    /* After an output's final value is in its variable (GLSL: gl_Position...); may be NULL. */
    void (*stored)(agal_text *t, const agal_ir_inst *in);
} agal_text_lang;

/* A register variable's name ("vt3"), spelled at its first use (n 0: not yet),
 * in 8 bytes that text_put8 copies at once. */
typedef struct agal_reg_text {
    char s[8];
    uint8_t n;
} agal_reg_text;

_Static_assert(IR_TRACKED_REGS <= 64, "a slot is a bit of a uint64_t");

/* The host's names the expressions repeat (agal_names: this stage's constant array,
 * the attribute, varying and sampler prefixes), spelled once by the plan (n 0: longer
 * than 8 bytes, written from agal_names). */
typedef struct agal_text_names {
    agal_reg_text constants, attribute, varying, sampler;
} agal_text_names;

/* The walk's state; the back end's own follows it. */
struct agal_text {
    const agal_text_lang *lang;
    agal_context *ctx;
    const agal_ir *ir;
    const agal_program *prog;
    const agal_names *names; /* varyings' names (the host's, in the GLSL family) */
    agal_text_names spelled; /* the same, to copy */
    bool comments;
    bool lines;        /* debug_info in GLSL: `#line N 1` before each token's statements */
    uint16_t centroid; /* bit n: v<n> is interpolated at the centroid */
    const char *flip;  /* the render-to-texture y flip (IR_YFLIP) as a float expression */
    agal_strbuf out;
    agal_status err;
    uint8_t *flags;                           /* per value: how it is printed (textwalk.c) */
    int8_t *slots;                            /* per value: its register's slot, or -1 */
    uint32_t held[IR_TRACKED_REGS];           /* value each register variable holds */
    uint64_t zero_used;                       /* bit s: slot s relies on starting at 0 */
    agal_reg_text reg_names[IR_TRACKED_REGS]; /* per slot: its name, once spelled */
    uint32_t next_tok;                        /* first token not commented yet */
    bool copies_known;                        /* the copies are known: a use that needs one more is a bug */
    bool copies_found;                        /* this walk found a value needing a copy */
    unsigned indent;
    unsigned depth;
    unsigned computing; /* inside an ALU or matrix op's operands */
    uint32_t position;  /* vertex: the value op's store stores, once walked (0: none) */
    uint64_t written;   /* bit s: slot s is some listed value's home (agal_text_usage.temps) */
    bool pow;           /* the walk wrote a pow (agal_text_usage.pow) */
    size_t body;        /* out's offset of main's statements, after the room left in front */
    size_t start;       /* out's offset of the text's first byte (agal_text_put_front) */
};

/* What the program uses, as the declarations need it. */
typedef struct agal_text_usage {
    /* From the info record: */
    uint32_t inputs, outputs, varyings; /* bit n: va/v<n> read, oc<n> / v<n> written */
    bool constants, indirect, op, fd, yflip, derivatives, lod, iid;
    uint32_t samplers;           /* bit n: fs<n> sampled */
    const agal_sampler *sampler; /* fs<n>: the first sample's sampler (16 of them) */
    uint16_t packed;             /* bit n: packed varying n written (vertex) or read (fragment) */
    /* From the statements' walk (agal_text_body): */
    bool pow;
    uint64_t temps; /* bit s: slot s's register variable, to declare in main */
} agal_text_usage;

/* ---- pieces of text ----------------------------------------------------------
 * The back ends append to t->out through these, which keep room for the NUL but do
 * not store it after each piece (a byte store may alias every field the walk reads
 * through t, so each piece reloaded them): agal_text_finish writes it once. Nor do
 * they test the buffer's error before a piece that fits: a failed growth leaves
 * the block and its size as they were, so a piece written after it stays inside
 * the block, and agal_text_finish refuses the text. */

/* len bytes at s. Inline: the emitters append many small pieces. */
static inline void text_putn(agal_text *t, const char *s, size_t len)
{
    agal_strbuf *b = &t->out;
    if (len >= b->cap - b->n) {
        agal_sb_putn_grow(b, s, len);
        return;
    }
    memcpy(b->p + b->n, s, len);
    b->n += len;
}
/* Room for len bytes and the NUL: the buffer's own test inline, a call only to grow. */
static inline bool text_reserve(agal_text *t, size_t len)
{
    agal_strbuf *b = &t->out;
    return (!b->err && len < b->cap - b->n) || agal_sb_reserve(b, len);
}
static inline void text_put(agal_text *t, const char *s) { text_putn(t, s, strlen(s)); }
static inline void text_putc(agal_text *t, char c) { text_putn(t, &c, 1); }

/* The text, NUL-terminated, and its length (len may be NULL); NULL when the buffer
 * failed. */
static inline const char *agal_text_finish(agal_text *t, size_t *len)
{
    if (t->out.err || !agal_sb_reserve(&t->out, 0)) return NULL;
    t->out.p[t->out.n] = 0;
    if (len) *len = t->out.n - t->start;
    return t->out.p + t->start;
}

/* a, then b, then c (NULL: nothing): the pieces of an expression, without a
 * printf call each. */
static inline void text_put3(agal_text *t, const char *a, const char *b, const char *c)
{
    text_put(t, a);
    if (b) text_put(t, b);
    if (c) text_put(t, c);
}

/* The first n (at most 8) of the 8 bytes at s: where the buffer has room for all
 * 8, one fixed-size copy, not a memcpy call of n bytes (what follows overwrites
 * the rest). Registers' names and swizzles, the most frequent pieces. */
static inline void text_put8(agal_text *t, const char s[8], size_t n)
{
    agal_strbuf *b = &t->out;
    if (b->cap - b->n <= 8) { /* one call, so that a caller's usual path needs no frame */
        agal_sb_putn_grow(b, s, n);
        return;
    }
    memcpy(b->p + b->n, s, 8);
    b->n += n;
}

/* A run of pieces of bounded length (at most len bytes) written at a cursor: the room
 * for all of them tested once and the text's end stored once (text_set_end), where a
 * piece each loaded and stored it through t. NULL where the buffer has not the room:
 * then the caller writes them a piece at a time, which grows it. No call, so that
 * the usual path sets up no frame. */
static inline char *text_room(agal_text *t, size_t len)
{
    agal_strbuf *b = &t->out;
    return len < b->cap - b->n ? b->p + b->n : NULL;
}
static inline void text_set_end(agal_text *t, const char *p) { t->out.n = (size_t)(p - t->out.p); }
/* The first n (at most 8) of the 8 bytes at s, at cursor p with room for 8. */
static inline char *put8_at(char *p, const char s[8], size_t n)
{
    memcpy(p, s, 8);
    return p + n;
}

/* An unsigned number, its digits stored at the cursor: spelled in a local and copied
 * as 8 bytes, the copy's load waited for the digits' byte stores to retire. */
static inline void text_uint(agal_text *t, unsigned v)
{
    agal_strbuf *b = &t->out;
    if (b->cap - b->n <= 10) {
        agal_sb_uint(b, v);
        return;
    }
    b->n += agal_put_uint(b->p + b->n, v);
}

/* A name of the host's, spelled (agal_text_names) or as long as name is. */
static inline void text_put_host(agal_text *t, const agal_reg_text *spelled, const char *name)
{
    if (spelled->n) text_put8(t, spelled->s, spelled->n);
    else text_put(t, name);
}

/* A name of the host's and its number: "sampler2", "va3". */
static inline void text_put_host_num(agal_text *t, const agal_reg_text *spelled, const char *name, unsigned n)
{
    text_put_host(t, spelled, name);
    text_uint(t, n);
}

/* A name and its number: "t12", "va3". */
static inline void text_put_num(agal_text *t, const char *name, unsigned n)
{
    text_put(t, name);
    text_uint(t, n);
}

static inline const char *text_vec_type(const agal_text *t, unsigned n) { return t->lang->vec_types[n <= 4 ? n : 4]; }
/* ".xz" for a selection out of a `width`-component value ("" when it is all of it). */
void agal_text_put_swz(agal_text *t, agal_sel s, unsigned width);
/* A register of the host's and its number, then selection s of its vec4: "va3.xy"
 * (a name longer than 8 bytes, spelled 0, written from host). */
void agal_text_put_reg_sel(agal_text *t, const agal_reg_text *spelled, const char *host, unsigned num, agal_sel s);
/* What the target cannot express: a clear error naming it. */
void agal_text_unsupported(agal_text *t, const char *what);
/* The current line's indentation. */
void agal_text_indent(agal_text *t);
/* The name of the register variable of a slot. */
void agal_text_reg_name(agal_text *t, int slot);

/* ---- expressions ------------------------------------------------------------- */

/* A use of value v: its register's name while the register holds it, its
 * temporary, or (for an intermediate of the same instruction) its expression. */
void agal_text_ref(agal_text *t, uint32_t v, agal_sel s, bool atom);
/* a cmp b (in->aop's predicate) on one selection of both: "v0.x < fc[1].x",
 * "!(a == b)" (ne is true for NaN). */
void agal_text_compare(agal_text *t, const agal_ir_inst *in, agal_sel s);
/* A sample's operands after the sampler, and its selection s: "A.xy)", "A.xyz,
 * A.w)" (ted's LOD), "A.xy, 0.25)" (the token's bias / 8), then ".x". */
void agal_text_sample_operands(agal_text *t, const agal_ir_inst *in, agal_sel s);
/* A vec4 value component by component: "vec4(op.x, op.y * agal_yflip, op.z, op.w)"
 * (each component's expression on its own: the position the conventions made), or
 * one that is no merge as itself: "op". */
void agal_text_components(agal_text *t, uint32_t v);
/* A float expression in every selected component: "vec4(float(gl_InstanceID))". */
void agal_text_splat(agal_text *t, agal_sel s, const char *scalar);
/* Packed varying n's selection s (lower_pack_varyings.c): "agal_pack0.xy", or of a
 * float, "vec2(agal_pack1)". */
void agal_text_packed(agal_text *t, unsigned n, agal_sel s);
/* A constant's selection s as literals: "0.5", "vec4(1.0, 0.0, 0.0, 1.0)". */
void agal_text_literal(agal_text *t, const agal_ir_inst *in, agal_sel s);
/* A finite float as a literal: "0.5", "1.0". */
void agal_text_put_finite(agal_text *t, float f);

/* ---- the program --------------------------------------------------------------- */

/* Allocates the per-value tables and fills u with the info record's uses. */
agal_status agal_text_plan(agal_text *t, agal_text_usage *u);
/* main's statements, then the comments of the tokens left; then u's registers
 * written and pow's use, which the walk finds as it goes: a back end writes its
 * declarations after the body and puts them in front (agal_text_put_front). The
 * body starts after room left for them. */
void agal_text_body(agal_text *t, agal_text_usage *u);
/* The text from body_end on (the declarations, what opens main, its locals) goes in
 * front of main's statements, which end at body_end: what the walk found needed,
 * written where it belongs. */
void agal_text_put_front(agal_text *t, size_t body_end);

#endif
