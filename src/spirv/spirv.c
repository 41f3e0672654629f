/* spirv.c: IR -> SPIR-V 1.0 words for Vulkan 1.0 (Shader capability only).
 *
 * The module is written into one word buffer per section of SPIR-V's logical layout
 * (entry point, execution modes, names, decorations, types/constants/globals,
 * function), all first in one block in that order; the function section is written
 * where the module ends up, and the other sections move up against it at the end,
 * behind the front every module shares (the header with the id bound, the
 * capability, the GLSL.std.450 import, the memory model: front_words).
 * Each type and constant exists once and is emitted before its users: those only
 * one memoized maker makes (the scalar and vector types, vec4 pointers, small ints,
 * 0.0 and 1.0 and their vec4s) straight, the rest through one hash table keyed by
 * their instruction's words in the globals section.
 *
 * Binding model (docs/binding-models.md, "SPIR-V binding model"): vc/fc = std140 uniform block of vec4[count] at set 0
 * binding 0 (vertex) / 1 (fragment); fs<i> = combined image sampler at binding 2+i;
 * va<i>/v<i>/oc<i> = Location i; op = Position, fd = FragDepth (DepthReplacing),
 * iid = InstanceIndex; the interface variables are those the IR's info record
 * names (info.c), declared before the body. The render-to-texture flip (IR_YFLIP)
 * is specialization constant 0 (default 1.0); what multiplies op.y and ddy by it,
 * and the rest of the target's conventions, are instructions of the IR
 * (lower_conventions.c).
 * The function body is a straight walk of the IR's if tree: IR_IF becomes
 * OpSelectionMerge + OpBranchConditional, its phis OpPhi in the merge block. */
#include "emit.h"
#include "nonsemantic.h"

#include <stdio.h>
/* The SPIR-V and GLSL.std.450 numbers, from Khronos (spirv-headers). */
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

/* Vulkan's default id bound (spirv-val's limit). */
#define ID_LIMIT 0x3fffffu

typedef struct wbuf {
    uint32_t *w;
    size_t n, cap;
    bool shared; /* w is its part of the small sections' one block (first_room) */
} wbuf;

/* S_SOURCE: OpString and OpSource (debug_info), which come before the names.
 * S_CAP and S_IMPORT hold only what follows the fixed front's capability and import
 * (front_words): the transform feedback capability, the non-semantic debug info's. */
enum { S_CAP, S_IMPORT, S_ENTRY, S_MODE, S_SOURCE, S_NAME, S_DECO, S_GLOBAL, S_FUNC, S_COUNT };

/* A type or constant: its instruction is at word pos - 1 of the globals section
 * (pos 0: an empty slot). */
typedef struct hslot {
    uint32_t hash, pos;
} hslot;

/* A recent single- or two-source OpVectorShuffle: composing a shuffle of it reads
 * its sources directly. Direct-mapped by result id. */
typedef struct shuf {
    uint32_t id, a, b;
    uint8_t sel[4];
} shuf;
enum { SHUF_CACHE = 64 };

/* Block-local value numbering of the function's instructions (all pure: loads
 * only read uniforms, inputs and images): a slot holds 1 + the word offset of an
 * instruction in the function section, a candidate while it lies in the current
 * block (past block_start). Direct-mapped by the instruction's hash: a collision
 * only forgets a candidate. It stays here, not in an IR pass, because most of what
 * it shares is made by this lowering: OpVectorShuffle and OpCompositeExtract (the
 * vec3 of a value dp3/m33/nrm/crs read twice, a component read through a merge),
 * which the IR has no instruction for; an IR pass could share only the repeated
 * extended instructions, and would hash every IR instruction to do so (the figures:
 * docs/internals.md, "Figures behind the decisions"). */
enum { CSE_SLOTS = 512 }; /* fewer lose candidates on the corpus: larger modules */
/* The loads of input and constant registers are numbered by their register instead
 * (load_of): v<n> / va<n> at key n, vc<i> / fc<i> at LOAD_UNIFORM + i. */
enum { LOAD_UNIFORM = 16, LOAD_KEYS = LOAD_UNIFORM + 256 };

typedef struct spv {
    hslot *tab;
    size_t tab_n, tab_cap;
    agal_status err; /* sticky (internal.h): out of memory, or IR the emitter does not know (a builder bug) */
    unsigned niface;
    bool outgrown; /* a section outgrew its first room and left the block (resize) */
    uint32_t glsl, label;
    /* Interface variables by register, declared from the info record (interface);
     * var_packed and var_sampler among the tables (see there). */
    uint32_t var_in[16], var_out[16], var_const, var_iid, var_smp[16], var_depth;
    uint32_t yflip;       /* the flip's vec4, made at the IR_YFLIP */
    uint32_t indirect_fn; /* agal_vc / agal_fc, made on the first relative read */
    unsigned indirect_range;
    /* Memoized ids of the types and constants every instruction asks for. */
    uint32_t ty_float, ty_int, ty_bool, ty_bvec4, ty_vec[5], ty_void, ty_sampler, ty_image[2], ty_sampled[2];
    uint32_t ty_ptr_v4[3]; /* Input, Output and Uniform vec4 pointers (t_ptr) */
    /* UniformConstant pointers to the sampled image (2D, cube), the image (2D, cube)
     * and the sampler: only bound_var makes them */
    uint32_t ty_ptr_bound[5];
    uint32_t c_float01[2], c_splat01[2];
    uint32_t *c_offsets; /* the float constants of relative reads' offsets 0..255, made at the first */
    /* The last extract made (extract_comp): its vector, component, value-numbering
     * slot and that slot's entry. Every relative read of a register extracts the
     * same index again; while the slot still names it in this block, fn_numbered
     * would find it there, so it is found without hashing or comparing words. */
    struct last_extract {
        uint32_t v, k, slot, entry;
    } last_extract;
    uint32_t block_start;   /* word offset of the current block's OpLabel in the function */
    uint32_t unshared_load; /* load_of's slot where each register is loaded once */
    uint32_t file;          /* debug_info: the OpString naming the source (0: no lines) */
    agal_spv_ns *ns;        /* debug_info_nonsemantic: its writer (nonsemantic.c), else NULL */
    /* Bit i: entry i of the table of that name below holds something. */
    uint64_t c_int_made[4], shuf_used, mat_used, splat_used, load_used[(LOAD_KEYS + 63) / 64];
    wbuf sec[S_COUNT]; /* written whole by first_room, so not cleared (spv_init) */
    /* Nor these, each written before it is read (spv_init, first_room, build_module). */
    agal_context *ctx;
    const agal_ir *ir;
    const agal_program *prog;
    const agal_emit_options *opt;
    uint32_t *block; /* the sections' first rooms, behind room for the front (first_room) */
    size_t block_words;
    uint32_t next_id;
    int32_t line_tok;     /* the token the current OpLine names (-1: none in force) */
    char temp_letters[4]; /* a temporary's two letters, "vt" or "ft", and two NULs (temp_name) */
    uint32_t *ids;        /* SPIR-V id per IR value */
    uint32_t *cse;
    /* Per IR value: EAGER (a phi operand, so emitted where it is defined), or for a
     * virtual value its depth, the longest chain of virtual values under it, and
     * SPLAT for a lazy splat. */
    uint8_t *virt;
    /* Per virtual value, where each of its components comes from: the real id << 2 |
     * its component there (an id is far under 2^30: the arena would run out first),
     * written when the value is made virtual (note_sources) from its operands' own,
     * so that reading a component is one lookup, never a walk down a chain of
     * merges and swizzles (a chain's every token reads one or four). */
    uint32_t (*comp_src)[4];
    /* The tables, last: a translation clears only what comes before the sections
     * (spv_init) and reads an entry only under its bit, so a small module does not
     * pay for clearing four kilobytes. */
    struct spv_tables {
        uint32_t c_ints[256];      /* int constants 0..255 (c_int) */
        shuf shuf[SHUF_CACHE];     /* recent vec4 shuffles (recorded) */
        struct mat {               /* recent materializations of virtual */
            uint32_t v, block, id; /* values, in this block (see real) */
        } mat[64];
        uint32_t iface[64]; /* Input/Output variables for OpEntryPoint */
        /* A packed slot's variable, made for each slot the info record names
         * (interface), which names every slot the body reads or writes; a separate
         * sampler, made with its image (sampler_var): never read unwritten. */
        uint32_t var_packed[16], var_sampler[16];
        struct splat_memo { /* the splats made (splat) */
            uint32_t f, id;
        } splat[64];
        /* The high half of the hash of the instruction each value-numbering slot
         * (cse) names, read only under a slot this translation wrote: a candidate
         * whose hash differs is no match, known without reading its words, which in
         * a large block lie far back in the function section (a cache miss for
         * every numbered instruction of a long chain). */
        uint16_t cse_tag[CSE_SLOTS];
        struct load { /* each register's load in a block (see load_of) */
            uint32_t block, id;
        } load[LOAD_KEYS];
    } t;
} spv;

/* Clears what comes before the sections (the tables' bits included). */
static void spv_init(spv *s, agal_context *ctx, const agal_ir *ir, const agal_emit_options *opt)
{
    memset(s, 0, offsetof(spv, sec));
    s->ctx = ctx;
    s->ir = ir;
    s->prog = ir->prog;
    s->opt = opt;
    s->line_tok = -1;
    memcpy(s->temp_letters, agal_reg_spellings[s->prog->stage == AGAL_VERTEX ? 0 : 1][AGAL_REG_TEMP].s, 4);
}

static inline bool bit(const uint64_t *set, unsigned i) { return set[i / 64] >> (i % 64) & 1; }
static inline void set_bit(uint64_t *set, unsigned i) { set[i / 64] |= (uint64_t)1 << (i % 64); }

/* An IR_SWIZZLE or IR_MERGE is not emitted where it is defined: its id is VIRT | its
 * IR index, and whoever reads it reads the components it selects from its sources
 * (shuffles compose, extracts read through), so most masked writes and swizzles
 * never become instructions. A reader that needs the vector materializes it, in its
 * own block (fn's value numbering shares it within the block). This is lowering,
 * not an IR pass: the IR keeps each AGAL instruction's own swizzle and mask, which
 * GLSL prints as written, and SPIR-V's shuffle of two vectors is what composes. */
#define VIRT 0x80000000u
/* A chain of virtual values deeper than this is materialized where it is defined
 * (`add vt0.x, vt0.y, vcK` or `dp4 vt0.x, vt0, vt0` repeated make chains as long
 * as the program): the shuffles the output has there. */
enum { EAGER = 0x80, MAX_VIRT_DEPTH = 16 };
/* A scalar in every component (dp3, dp4, a packed float: AGAL's values are
 * vec4s) is a lazy splat: a virtual value too (SPLAT, depth 1), whose
 * comp_src names the scalar in all four entries. AGAL writes most such results to
 * one component (`dp4 vt0.x`), so a reader of components takes the scalar itself
 * and a merge inserts it; the OpCompositeConstruct of the four is made only where
 * the vector is read whole. */
enum { SPLAT = 0x20, DEPTH_BITS = 0x1f };
/* On an id a component walk returns (source_comp): it is a scalar, the component
 * of a lazy splat, not a vector. Ids stay far under 2^29 (the arena would run out
 * first), so comp_src holds a scalar as (SCALAR | id) << 2, and decoding it as a
 * vector's id << 2 | component gives SCALAR | id, component 0. */
#define SCALAR 0x20000000u

/* ---- words ------------------------------------------------------------------ */

/* The function section, the block's last, grows with the whole block (the arena
 * extends it in place where it can), which keeps the module's sections together. */
static bool grow_block(spv *s, wbuf *f, size_t cap)
{
    size_t words = s->block_words + (cap - f->cap), at[S_COUNT];
    for (int i = 0; i < S_COUNT; i++) at[i] = s->sec[i].shared ? (size_t)(s->sec[i].w - s->block) : 0;
    uint32_t *nb = agal_grow(s->ctx, s->block, s->block_words, words, sizeof *nb);
    if (!nb) {
        agal_fail(&s->err, AGAL_ERR_NOMEM);
        return false;
    }
    for (int i = 0; i < S_COUNT; i++)
        if (s->sec[i].shared) s->sec[i].w = nb + at[i]; /* offsets taken before: the old block may be gone */
    s->block = nb;
    s->block_words = words;
    f->cap = cap;
    return true;
}

/* Gives b room for exactly cap words (false, with err set, when out of memory). A
 * section in the shared block moves out of it whole: the arena would grow the
 * block's first part in place, over the next. */
static bool resize(spv *s, wbuf *b, size_t cap)
{
    if (b == &s->sec[S_FUNC] && b->shared) return grow_block(s, b, cap);
    uint32_t *nw = agal_grow(s->ctx, b->shared ? NULL : b->w, b->shared ? 0 : b->n, cap, sizeof *nw);
    if (!nw) {
        agal_fail(&s->err, AGAL_ERR_NOMEM);
        return false;
    }
    if (b->shared && b->n) memcpy(nw, b->w, b->n * sizeof *nw);
    s->outgrown |= b->shared;
    b->w = nw;
    b->cap = cap;
    b->shared = false;
    return true;
}

/* Room for n more words than b holds: twice as much, or what it needs. */
static AGAL_COLD bool grow_for(spv *s, wbuf *b, size_t n)
{
    size_t cap = b->cap ? 2 * b->cap : 16;
    if (cap < b->n + n) cap = b->n + n;
    return resize(s, b, cap);
}

/* The module's front, the same words in every module: the header (the id bound at
 * FRONT_BOUND, known last), the Shader capability, the GLSL.std.450 import (id 1)
 * and the memory model. Copied from here where the module is made, not written
 * into sections of their own and moved with them; S_CAP and S_IMPORT hold only
 * what follows the capability and the import in the rare module that has more. */
#define WORD4(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
enum { GLSL_ID = 1, FRONT_BOUND = 3, FRONT_CAP_END = 7, FRONT_IMPORT_END = 13, FRONT = 16 };
static const uint32_t front_words[FRONT] = {SpvMagicNumber,
                                            0x00010000u /* SPIR-V 1.0 */,
                                            0 /* generator */,
                                            0 /* the id bound */,
                                            0,
                                            2u << 16 | SpvOpCapability,
                                            SpvCapabilityShader,
                                            6u << 16 | SpvOpExtInstImport,
                                            GLSL_ID,
                                            WORD4('G', 'L', 'S', 'L'),
                                            WORD4('.', 's', 't', 'd'),
                                            WORD4('.', '4', '5', '0'),
                                            0,
                                            3u << 16 | SpvOpMemoryModel,
                                            SpvAddressingModelLogical,
                                            SpvMemoryModelGLSL450};

/* Every section's first room, in one allocation in the module's order behind room
 * for the front (none for S_CAP and S_IMPORT: a word there moves them out), instead of one each and then their growth: the small sections'
 * where most programs' end (corpus: globals 50 to 170 words, decorations 16 to 72,
 * the entry point under 16), names and the function as the caller sizes them from
 * the program, and constants words more for the globals. The module is then made
 * in this block (module_in_place): the sections before the function move up
 * against it, the function stays. */
static bool first_room(spv *s, size_t names, size_t function, size_t constants)
{
    enum { R_ENTRY = 16, R_MODE = 12, R_DECO = 64, R_GLOBAL = 192 };
    enum { FIXED = R_ENTRY + R_MODE + R_DECO + R_GLOBAL };
    static const uint32_t fixed[S_COUNT] = {
        [S_ENTRY] = R_ENTRY, [S_MODE] = R_MODE, [S_DECO] = R_DECO, [S_GLOBAL] = R_GLOBAL};
    size_t total = FRONT + FIXED + constants + names + function;
    uint32_t *w = agal_alloc(s->ctx, total * sizeof *w);
    if (!w) return false;
    s->block = w;
    s->block_words = total;
    w += FRONT;
    /* Every section (spv_init having left them), in one unrolled run of stores; a
     * section of no room (the source's, or the names' when stripped) is in the
     * block too, empty: its first word moves it out (resize). */
#pragma GCC unroll 10
    for (int i = 0; i < S_COUNT; i++) {
        size_t cap = i == S_NAME ? names : i == S_FUNC ? function : fixed[i] + (i == S_GLOBAL ? constants : 0);
        s->sec[i] = (wbuf){.w = w, .cap = cap, .shared = true};
        w += cap;
    }
    return true;
}

/* Room for n more words at the end of b (NULL, with err set, when out of memory).
 * Inline: every instruction passes here, and it almost never grows. */
static inline uint32_t *reserve(spv *s, wbuf *b, size_t n)
{
    if (n > b->cap - b->n && !grow_for(s, b, n)) return NULL;
    uint32_t *w = b->w + b->n;
    b->n += n;
    return w;
}

/* One instruction: opcode, then n operand words. Inline: INS's and DECO's counts
 * are constants, so the copy unrolls into a few stores. */
static AGAL_ALWAYS_INLINE void ins(spv *s, int sec, unsigned op, const uint32_t *ops, size_t n)
{
    uint32_t *d = reserve(s, &s->sec[sec], n + 1);
    if (!d) return;
    d[0] = (uint32_t)(n + 1) << 16 | op;
    for (size_t i = 0; i < n; i++) d[1 + i] = ops[i]; /* a few words: no memcpy call */
}

#define INS(s, sec, op, ...) \
    ins(s, sec, op, (const uint32_t[]){__VA_ARGS__}, sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))

static uint32_t new_id(spv *s) { return s->next_id++; }

/* ---- deduplicated types and constants ------------------------------------- */

/* FNV-1a over words. */
#define FNV_BASIS 2166136261u
static inline uint32_t fnv_step(uint32_t h, uint32_t w) { return (h ^ w) * 16777619u; }

static uint32_t hash_words(const uint32_t *w, size_t n)
{
    uint32_t h = FNV_BASIS;
    for (size_t i = 0; i < n; i++) h = fnv_step(h, w[i]);
    return h;
}

static bool tab_grow(spv *s)
{
    size_t cap = s->tab_cap ? s->tab_cap * 2 : 64;
    hslot *nt = agal_zalloc(s->ctx, cap * sizeof *nt);
    if (!nt) return false;
    for (size_t i = 0; i < s->tab_cap; i++) {
        if (!s->tab[i].pos) continue;
        size_t j = s->tab[i].hash & (cap - 1);
        while (nt[j].pos) j = (j + 1) & (cap - 1);
        nt[j] = s->tab[i];
    }
    s->tab = nt;
    s->tab_cap = cap;
    return true;
}

/* Emits global `op [type] %id ops...` (type 0: a type declaration, which has no
 * result type word); returns %id. */
static AGAL_ALWAYS_INLINE uint32_t global_new(spv *s, unsigned op, uint32_t type, const uint32_t *ops, size_t n)
{
    size_t k = type ? 2 : 1; /* words between the opcode and the operands */
    uint32_t id = new_id(s), *d = reserve(s, &s->sec[S_GLOBAL], 1 + k + n);
    if (!d) return 0;
    d[0] = (uint32_t)(1 + k + n) << 16 | op;
    d[1] = type; /* the id, when there is no type: written again below */
    d[k] = id;
    for (size_t i = 0; i < n; i++) d[1 + k + i] = ops[i];
    return s->err ? 0 : id;
}

static bool same_words(const uint32_t *a, const uint32_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return false;
    return true;
}

/* The id of global `op [type] %id ops...`, emitting it the first time. */
static uint32_t global(spv *s, unsigned op, uint32_t type, const uint32_t *ops, size_t n)
{
    size_t k = type ? 2 : 1; /* words between the opcode and the operands */
    uint32_t head = (uint32_t)(1 + k + n) << 16 | op;
    uint32_t h = hash_words(ops, n) ^ head ^ type * 0x9e3779b1u;
    /* The table takes the low bits, which a word-wise FNV leaves equal for the
     * float constants of small integers (their low mantissa bits are zero): fold
     * the high bits down first. */
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    if (2 * (s->tab_n + 1) > s->tab_cap && !tab_grow(s)) {
        agal_fail(&s->err, AGAL_ERR_NOMEM);
        return 0;
    }
    size_t j = h & (s->tab_cap - 1);
    for (; s->tab[j].pos; j = (j + 1) & (s->tab_cap - 1)) {
        if (s->tab[j].hash != h) continue;
        const uint32_t *w = s->sec[S_GLOBAL].w + s->tab[j].pos - 1;
        if (w[0] == head && (!type || w[1] == type) && same_words(w + 1 + k, ops, n)) return w[k];
    }
    size_t at = s->sec[S_GLOBAL].n;
    uint32_t id = global_new(s, op, type, ops, n);
    if (!id) return 0;
    s->tab[j] = (hslot){.hash = h, .pos = (uint32_t)at + 1};
    s->tab_n++;
    return id;
}

#define TYPE(s, op, ...) \
    global(s, op, 0, (const uint32_t[]){__VA_ARGS__}, sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))

/* A global that only a memoized maker below makes (its slot is asked first): no
 * other request can name the same words, so it skips the hash table. Most modules
 * have only these (types, pointers to vec4, small ints, 0.0 and 1.0). */
#define UNIQUE(s, op, type, ...) \
    global_new(s, op, type, (const uint32_t[]){__VA_ARGS__}, sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))

/* The common types are asked for by nearly every instruction: memoized, so each is
 * made once, without hashing (a 0 from out of memory is simply asked again). */
#define MEMO(slot, expr) ((slot) ? (slot) : ((slot) = (expr)))
static uint32_t t_void(spv *s) { return MEMO(s->ty_void, global_new(s, SpvOpTypeVoid, 0, NULL, 0)); }
static uint32_t t_bool(spv *s) { return MEMO(s->ty_bool, global_new(s, SpvOpTypeBool, 0, NULL, 0)); }
static uint32_t t_float(spv *s) { return MEMO(s->ty_float, UNIQUE(s, SpvOpTypeFloat, 0, 32)); }
static uint32_t t_int(spv *s) { return MEMO(s->ty_int, UNIQUE(s, SpvOpTypeInt, 0, 32, 1)); }
static uint32_t t_vec_new(spv *s, unsigned n) { return UNIQUE(s, SpvOpTypeVector, 0, t_float(s), n); }
/* Inline: nearly every instruction of the body asks for its vector type. */
static inline uint32_t t_vec(spv *s, unsigned n) { return MEMO(s->ty_vec[n & 3 ? n & 7 : 4], t_vec_new(s, n)); }
static uint32_t t_bvec4(spv *s) { return MEMO(s->ty_bvec4, UNIQUE(s, SpvOpTypeVector, 0, t_bool(s), 4)); }
static uint32_t t_sampler(spv *s) { return MEMO(s->ty_sampler, global_new(s, SpvOpTypeSampler, 0, NULL, 0)); }

/* Pointers to vec4 (the interface's and the constant block's loads) memoized by
 * storage class (ty_ptr_v4's slots), the rest (iid, fd, packed varyings, samplers)
 * hashed. The memoized case inline: every load of a constant asks for it. */
enum { PTR_V4_INPUT, PTR_V4_OUTPUT, PTR_V4_UNIFORM };
static uint32_t t_ptr_v4_new(spv *s, unsigned slot)
{
    static const uint32_t storage[3] = {SpvStorageClassInput, SpvStorageClassOutput, SpvStorageClassUniform};
    return s->ty_ptr_v4[slot] = UNIQUE(s, SpvOpTypePointer, 0, storage[slot], t_vec(s, 4));
}

static AGAL_ALWAYS_INLINE uint32_t t_ptr_v4(spv *s, unsigned slot)
{
    return s->ty_ptr_v4[slot] ? s->ty_ptr_v4[slot] : t_ptr_v4_new(s, slot);
}

static uint32_t t_ptr(spv *s, unsigned storage, uint32_t type)
{
    int slot = storage == SpvStorageClassInput     ? PTR_V4_INPUT
               : storage == SpvStorageClassOutput  ? PTR_V4_OUTPUT
               : storage == SpvStorageClassUniform ? PTR_V4_UNIFORM
                                                   : -1;
    if (slot < 0 || !type || type != s->ty_vec[4]) return TYPE(s, SpvOpTypePointer, storage, type);
    return t_ptr_v4(s, (unsigned)slot);
}

static uint32_t c_float_hashed(spv *s, uint32_t bits) { return global(s, SpvOpConstant, t_float(s), &bits, 1); }

/* 0.0 and 1.0, the commonest, memoized; -0.0 is another constant. */
static uint32_t c_float(spv *s, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    if (bits == 0) return MEMO(s->c_float01[0], UNIQUE(s, SpvOpConstant, t_float(s), 0));
    if (bits == 0x3f800000u) return MEMO(s->c_float01[1], UNIQUE(s, SpvOpConstant, t_float(s), bits));
    return c_float_hashed(s, bits);
}

/* Integer constants index the constant block, one per register read: 0..255 are
 * memoized by value and bypass the hash table (nothing else makes int constants).
 * The memoized case inline (c_int), the making in a call; the rest hashed. */
static AGAL_ALWAYS_INLINE uint32_t c_int_small(spv *s, uint32_t i)
{
    uint32_t id = global_new(s, SpvOpConstant, t_int(s), &i, 1);
    if (id) set_bit(s->c_int_made, i), s->t.c_ints[i] = id;
    return id;
}

static AGAL_COLD AGAL_NOINLINE uint32_t c_int_first(spv *s, uint32_t i) { return c_int_small(s, i); }

/* Where the int type is made and the globals have room (most calls): no call
 * left on the way, so no register saved for one. */
static AGAL_NOINLINE uint32_t c_int_new(spv *s, uint32_t i)
{
    const wbuf *g = &s->sec[S_GLOBAL];
    if (!s->ty_int || g->cap - g->n < 4) return c_int_first(s, i);
    return c_int_small(s, i);
}

static AGAL_COLD uint32_t c_int_hashed(spv *s, int32_t i)
{
    const uint32_t bits = (uint32_t)i;
    return global(s, SpvOpConstant, t_int(s), &bits, 1);
}

static AGAL_ALWAYS_INLINE uint32_t c_int(spv *s, int32_t i)
{
    if ((uint32_t)i >= 256) return c_int_hashed(s, i);
    return bit(s->c_int_made, (unsigned)i) ? s->t.c_ints[i] : c_int_new(s, (uint32_t)i);
}

/* The vec4 of 0.0 or of 1.0 (which: 0 or 1; its component made), memoized as its
 * component is: only this makes it, however it is asked for (a splat, an IR_CONST),
 * so it needs no hashing, and a module whose only hashed global it would be has no
 * hash table. */
static uint32_t c_splat01(spv *s, unsigned which)
{
    uint32_t c = s->c_float01[which];
    return MEMO(s->c_splat01[which], UNIQUE(s, SpvOpConstantComposite, t_vec(s, 4), c, c, c, c));
}

static uint32_t c_vec4(spv *s, const float f[4])
{
    uint32_t c[4];
    for (int i = 0; i < 4; i++) c[i] = c_float(s, f[i]);
    if (c[0] == c[1] && c[0] == c[2] && c[0] == c[3] && (c[0] == s->c_float01[0] || c[0] == s->c_float01[1]))
        return c_splat01(s, c[0] == s->c_float01[1]);
    return global(s, SpvOpConstantComposite, t_vec(s, 4), c, 4);
}

/* f in every component (0 and 1, the callers', memoized). */
static uint32_t c_splat(spv *s, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    if (bits == 0 && s->c_splat01[0]) return s->c_splat01[0];
    if (bits == 0x3f800000u && s->c_splat01[1]) return s->c_splat01[1];
    return c_vec4(s, (const float[4]){f, f, f, f});
}

/* ---- debug names and decorations --------------------------------------------- */

/* Written straight into the section: a translation names most of its values.
 * Inline: most names are literals, whose length and copy then fold. */
static AGAL_ALWAYS_INLINE void name(spv *s, uint32_t id, const char *str)
{
    if (s->opt->pub.strip_names) return;
    size_t len = strlen(str), n = len / 4 + 1;
    uint32_t *d = reserve(s, &s->sec[S_NAME], n + 2);
    if (!d) return;
    d[0] = (uint32_t)(n + 2) << 16 | SpvOpName;
    d[1] = id;
    d[n + 1] = 0; /* the string's last word: its NUL and zero padding */
    memcpy(d + 2, str, len);
}

/* A register's name spelled straight into its OpName's words: room for the longest,
 * then the section cut back to what it took. */
static void reg_name(spv *s, uint32_t id, unsigned type, unsigned num)
{
    if (s->opt->pub.strip_names) return;
    enum { ROOM = AGAL_REG_TEXT_MAX / 4 + 1 };
    wbuf *b = &s->sec[S_NAME];
    uint32_t *d = reserve(s, b, 2 + ROOM);
    if (!d) return;
    for (unsigned i = 0; i < ROOM; i++) d[2 + i] = 0; /* the NUL and zero padding */
    size_t n = agal_put_reg((char *)(d + 2), s->prog->stage, type, num) / 4 + 1;
    d[0] = (uint32_t)(n + 2) << 16 | SpvOpName;
    d[1] = id;
    b->n -= ROOM - n;
}

/* The name of a register of one digit and at most two letters (every interface
 * variable but op, and the first ten temporaries: most names), its one word made
 * straight: the letters' four bytes, zero padded (an agal_reg_spelling's), and the
 * digit after them. */
static AGAL_ALWAYS_INLINE void one_word_name(spv *s, uint32_t id, const char letters[4], unsigned len, unsigned num)
{
    uint32_t *d = reserve(s, &s->sec[S_NAME], 3);
    if (!d) return;
    d[0] = 3u << 16 | SpvOpName;
    d[1] = id;
    memcpy(d + 2, letters, 4);
    ((char *)(d + 2))[len] = (char)('0' + num); /* its NUL and padding the letters' */
}

/* The same for a register the stage has (a temporary, an input, an output: every
 * name but a sampler's), spelled from its stage's table inline rather than by
 * agal_put_reg, which also spells the registers a stage lacks: the interface and
 * every temporary are named so. Its longest, a 3-letter name and 10 digits, and the
 * NUL take 4 words. */
static AGAL_ALWAYS_INLINE void own_reg_name_inline(spv *s, uint32_t id, unsigned type, unsigned num)
{
    if (s->opt->pub.strip_names) return;
    const agal_reg_spelling *r = &agal_reg_spellings[s->prog->stage == AGAL_VERTEX ? 0 : 1][type & 7];
    if (num < 10 && r->n < 3 && !r->single) {
        one_word_name(s, id, r->s, r->n, num);
        return;
    }
    enum { ROOM = 4 };
    wbuf *b = &s->sec[S_NAME];
    uint32_t *d = reserve(s, b, 2 + ROOM);
    if (!d) return;
    for (unsigned i = 0; i < ROOM; i++) d[2 + i] = 0; /* the NUL and zero padding */
    size_t n = agal_put_spelling((char *)(d + 2), r, num) / 4 + 1;
    d[0] = (uint32_t)(n + 2) << 16 | SpvOpName;
    d[1] = id;
    b->n -= ROOM - n;
}

/* Out of line: temp_name's rare case (two digits), which would make the common one
 * save registers. */
static AGAL_COLD AGAL_NOINLINE void own_reg_name(spv *s, uint32_t id, unsigned type, unsigned num)
{
    own_reg_name_inline(s, id, type, num);
}

/* A temporary's new value named, its letters (temp_letters, "vt" or "ft") spelled
 * once a module rather than looked up for each value: straight-line code names
 * every value it makes. */
static AGAL_NOINLINE void temp_name(spv *s, uint32_t id, unsigned num)
{
    if (s->opt->pub.strip_names) return;
    if (num < 10) one_word_name(s, id, s->temp_letters, 2, num);
    else own_reg_name(s, id, AGAL_REG_TEMP, num);
}

/* A register of no number (op, iid, fd, vc, fc): its spelling's four bytes, zero
 * padded, are its name's one word. */
static AGAL_ALWAYS_INLINE void spelled_name(spv *s, uint32_t id, unsigned type)
{
    if (s->opt->pub.strip_names) return;
    uint32_t word;
    memcpy(&word, agal_reg_spellings[s->prog->stage == AGAL_VERTEX ? 0 : 1][type & 7].s, 4);
    INS(s, S_NAME, SpvOpName, id, word);
}

#define DECO(s, id, ...) INS(s, S_DECO, SpvOpDecorate, id, __VA_ARGS__)

/* ---- the source: OpString, OpSource, OpLine (debug_info) --------------------- */

/* An instruction of head words then a literal string of len bytes (NUL-terminated,
 * zero-padded) in the source section. */
static void ins_string(spv *s, unsigned op, const uint32_t *head, size_t nhead, const char *str, size_t len)
{
    size_t n = nhead + len / 4 + 1;
    uint32_t *d = reserve(s, &s->sec[S_SOURCE], n + 1);
    if (!d) return;
    d[0] = (uint32_t)(n + 1) << 16 | op;
    if (nhead) memcpy(d + 1, head, nhead * sizeof *d);
    memset(d + 1 + nhead, 0, (len / 4 + 1) * sizeof *d);
    memcpy(d + 1 + nhead, str, len);
}

/* OpString with the source's name and OpSource with its text, the rest of a text
 * too long for one instruction (65535 words) in OpSourceContinued. */
static void source(spv *s)
{
    const char *text = s->opt->source, *file = s->opt->pub.source_name;
    if (!text) return;
    if (!file) file = s->prog->stage == AGAL_VERTEX ? "vertex.agal" : "fragment.agal";
    s->file = new_id(s);
    ins_string(s, SpvOpString, (const uint32_t[]){s->file}, 1, file, strlen(file));
    enum { MAX_WORDS = 0xffff };
    size_t len = strlen(text), chunk = (MAX_WORDS - 4) * 4 - 1; /* OpSource: 3 words before the text */
    if (chunk > len) chunk = len;
    ins_string(s, SpvOpSource, (const uint32_t[]){SpvSourceLanguageUnknown, 0, s->file}, 3, text, chunk);
    for (size_t at = chunk; at < len; at += chunk) {
        chunk = (MAX_WORDS - 1) * 4 - 1;
        if (chunk > len - at) chunk = len - at;
        ins_string(s, SpvOpSourceContinued, NULL, 0, text + at, chunk);
    }
}

/* ---- NonSemantic.Shader.DebugInfo.100 (debug_info_nonsemantic, nonsemantic.c) -- */

/* Its writer, once the source is in (its DebugSource names the same OpString). */
static void nonsemantic_begin(spv *s)
{
    s->ns = agal_spv_ns_new(s->ctx, &s->next_id, s->file, t_void(s), s->opt->source, agal_token_line(s->prog->ntokens));
    if (!s->ns) agal_fail(&s->err, AGAL_ERR_NOMEM);
}

static void function_words(spv *s, const uint32_t *w, size_t n)
{
    uint32_t *d = reserve(s, &s->sec[S_FUNC], n);
    if (d) memcpy(d, w, n * sizeof *d);
}

/* DebugLine (line 0: DebugNoLine) beside the OpLine, under the block's scope. */
static void nonsemantic_line(spv *s, uint32_t n)
{
    uint32_t w[AGAL_SPV_NS_MAX_WORDS];
    function_words(s, w, agal_spv_ns_line(s->ns, s->label, n, w));
}

/* Its words outside the function, each in its section. */
static void nonsemantic_finish(spv *s)
{
    static const int into[AGAL_SPV_NS_SECTIONS] = {S_CAP, S_IMPORT, S_SOURCE, S_GLOBAL};
    agal_spv_words sec[AGAL_SPV_NS_SECTIONS];
    if (agal_fail(&s->err, agal_spv_ns_finish(s->ns, sec))) return;
    for (int i = 0; i < AGAL_SPV_NS_SECTIONS; i++) {
        uint32_t *d = reserve(s, &s->sec[into[i]], sec[i].n);
        if (d && sec[i].n) memcpy(d, sec[i].w, sec[i].n * sizeof *d);
    }
}

/* Before the code of IR instruction in: OpLine naming its token's line in the
 * source, once per token and block (a line's scope ends with its block), or
 * OpNoLine before code of no token (the conventions' own). */
static void line(spv *s, const agal_ir_inst *in)
{
    if (!s->file || in->token == s->line_tok) return;
    uint32_t n = in->token >= 0 ? agal_token_line((uint32_t)in->token) : 0;
    if (n) INS(s, S_FUNC, SpvOpLine, s->file, n, 0);
    else if (s->line_tok >= 0) ins(s, S_FUNC, SpvOpNoLine, NULL, 0);
    if (s->ns && (n || s->line_tok >= 0)) nonsemantic_line(s, n);
    s->line_tok = in->token;
}

/* ---- interface variables ---------------------------------------------------- */

/* OpVariable %id of pointer type ptr (its storage class's), an entry point's
 * interface when Input or Output. */
static AGAL_ALWAYS_INLINE void declare(spv *s, unsigned storage, uint32_t id, uint32_t ptr)
{
    INS(s, S_GLOBAL, SpvOpVariable, ptr, id, storage);
    if ((storage == SpvStorageClassInput || storage == SpvStorageClassOutput) && s->niface < AGAL_COUNTOF(s->t.iface))
        s->t.iface[s->niface++] = id;
}

static uint32_t variable(spv *s, unsigned storage, uint32_t type)
{
    uint32_t id = new_id(s); /* before its pointer type's: the ids' order is the output's */
    declare(s, storage, id, t_ptr(s, storage, type));
    return id;
}

/* va<n>, v<n> or oc<n>: a vec4 at Location n (storage Input or Output). */
static uint32_t located(spv *s, unsigned storage, unsigned type, unsigned n)
{
    t_vec(s, 4); /* before the variable's id: the ids' order is the output's */
    uint32_t var = new_id(s);
    declare(s, storage, var, t_ptr_v4(s, storage == SpvStorageClassOutput ? PTR_V4_OUTPUT : PTR_V4_INPUT));
    DECO(s, var, SpvDecorationLocation, n);
    /* A varying feeding a centroid sampler: both stages say so (the upload's). */
    if (type == AGAL_REG_VARYING && (s->opt->centroid_varyings >> n & 1)) DECO(s, var, SpvDecorationCentroid);
    own_reg_name_inline(s, var, type, n); /* inline: every interface variable's */
    return var;
}

/* A float or vector of the width a packed varying carries. */
static uint32_t t_width(spv *s, unsigned width) { return width == 1 ? t_float(s) : t_vec(s, width); }

/* Packed slot n (lower_pack_varyings.c): one variable at location n, as wide as it
 * carries, so no two share a location's components. */
static uint32_t packed_var(spv *s, unsigned storage, unsigned n)
{
    const agal_ir_packing *p = &s->ir->packing;
    uint32_t var = variable(s, storage, t_width(s, p->width[n]));
    DECO(s, var, SpvDecorationLocation, n);
    if (p->centroid >> n & 1) DECO(s, var, SpvDecorationCentroid);
    char str[16];
    snprintf(str, sizeof str, "%s%u", AGAL_GLSL_PACK_PREFIX, n);
    name(s, var, str);
    return var;
}

/* vc / fc: `uniform { vec4 r[count]; }` (the profile's count, or the packed one), std140, set 0 binding 0 or 1.
 * Made once (var_const), as is the pointer to the block: nothing else uses this
 * array or struct, so decorating them is safe. Its globals and decorations are
 * fixed but for their ids, so each section's words are written in one run from a
 * template (every module that reads a constant makes them). */
static uint32_t const_block(spv *s)
{
    if (s->var_const) return s->var_const;
    unsigned count = agal_ir_constant_count(s->ir, false);
    uint32_t elem = t_vec(s, 4), len = c_int(s, (int32_t)count);
    uint32_t arr = new_id(s), blk = new_id(s), var = new_id(s), ptr = new_id(s); /* the ids' order is the output's */
    bool vertex = s->prog->stage == AGAL_VERTEX;
    /* An instruction a line. */
    /* clang-format off */
    const uint32_t globals[] = {
        4u << 16 | SpvOpTypeArray, arr, elem, len,
        3u << 16 | SpvOpTypeStruct, blk, arr,
        4u << 16 | SpvOpTypePointer, ptr, SpvStorageClassUniform, blk,
        4u << 16 | SpvOpVariable, ptr, var, SpvStorageClassUniform,
    };
    const uint32_t decorations[] = {
        4u << 16 | SpvOpDecorate, arr, SpvDecorationArrayStride, 16,
        3u << 16 | SpvOpDecorate, blk, SpvDecorationBlock,
        5u << 16 | SpvOpMemberDecorate, blk, 0, SpvDecorationOffset, 0,
        4u << 16 | SpvOpDecorate, var, SpvDecorationDescriptorSet, 0,
        4u << 16 | SpvOpDecorate, var, SpvDecorationBinding, vertex ? 0 : 1,
    };
    /* clang-format on */
    uint32_t *g = reserve(s, &s->sec[S_GLOBAL], AGAL_COUNTOF(globals));
    uint32_t *d = reserve(s, &s->sec[S_DECO], AGAL_COUNTOF(decorations));
    if (!g || !d) return 0;
    memcpy(g, globals, sizeof globals);
    memcpy(d, decorations, sizeof decorations);
    name(s, blk, vertex ? AGAL_GLSL_VC_BLOCK : AGAL_GLSL_FC_BLOCK);
    spelled_name(s, var, AGAL_REG_CONSTANT);
    return s->var_const = var;
}

static uint32_t image_only_type(spv *s, unsigned dim)
{
    bool cube = dim == AGAL_DIM_CUBE;
    return MEMO(s->ty_image[cube],
                UNIQUE(s, SpvOpTypeImage, 0, t_float(s), cube ? SpvDimCube : SpvDim2D, 0, 0, 0, 1, 0));
}

static uint32_t image_type(spv *s, unsigned dim)
{
    bool cube = dim == AGAL_DIM_CUBE;
    return MEMO(s->ty_sampled[cube], UNIQUE(s, SpvOpTypeSampledImage, 0, image_only_type(s, dim)));
}

/* A sampler's image or sampler variable: its pointer type memoized in its slot
 * of ty_ptr_bound, which nothing else makes (no hashing). */
static uint32_t bound_var(spv *s, uint32_t type, unsigned ptr_slot, unsigned binding)
{
    uint32_t v = new_id(s); /* before its pointer type's, as variable's */
    uint32_t *ptr = &s->ty_ptr_bound[ptr_slot];
    declare(s, SpvStorageClassUniformConstant, v,
            MEMO(*ptr, UNIQUE(s, SpvOpTypePointer, 0, SpvStorageClassUniformConstant, type)));
    DECO(s, v, SpvDecorationDescriptorSet, 0);
    DECO(s, v, SpvDecorationBinding, binding);
    return v;
}

/* fs<i>: a combined image sampler at binding 2 + i, or (separate samplers) the
 * image there and a sampler at AGAL_SEPARATE_SAMPLER_BINDING + i. */
static uint32_t sampler_var(spv *s, const agal_sampler *smp)
{
    unsigned i = smp->num & 15;
    if (!s->var_smp[i]) {
        bool separate = s->opt->pub.separate_samplers, cube = smp->dim == AGAL_DIM_CUBE;
        uint32_t type = separate ? image_only_type(s, smp->dim) : image_type(s, smp->dim);
        s->var_smp[i] = bound_var(s, type, 2u * separate + cube, AGAL_SAMPLER_BINDING + i);
        reg_name(s, s->var_smp[i], AGAL_REG_SAMPLER, i);
        if (separate) s->t.var_sampler[i] = bound_var(s, t_sampler(s), 4, AGAL_SEPARATE_SAMPLER_BINDING + i);
    }
    return s->var_smp[i];
}

/* ---- function body ---------------------------------------------------------- */

static uint32_t real(spv *s, uint32_t v);

/* `op %type %id ops...` written at the function's end, a new id; the words, or
 * NULL when out of memory. */
static AGAL_ALWAYS_INLINE uint32_t *fn_write(spv *s, unsigned op, uint32_t type, const uint32_t *ops, size_t n)
{
    uint32_t *d = reserve(s, &s->sec[S_FUNC], n + 3);
    if (!d) return NULL;
    d[0] = (uint32_t)(n + 3) << 16 | op;
    d[1] = type;
    d[2] = new_id(s);
#pragma GCC unroll 6
    for (size_t i = 0; i < n; i++) d[3 + i] = ops[i]; /* a few words: no memcpy call, unrolled where n is known */
    return d;
}

/* The same, not value-numbered: for what only one maker makes and numbers itself
 * (load_of). Its id. */
static uint32_t fn_unnumbered(spv *s, unsigned op, uint32_t type, const uint32_t *ops, size_t n)
{
    const uint32_t *d = fn_write(s, op, type, ops, n);
    return d ? d[2] : 0;
}

/* The hash fn_numbered files an instruction under, from h, its operands' words'. */
static inline uint32_t cse_hash(unsigned op, uint32_t type, uint32_t h) { return h ^ (op * 0x9e3779b1u) ^ type; }

/* `op %type %id ops...` in the function, its operands real and h the FNV hash of
 * their words: the block's earlier equal instruction's id, or the new one's. Inline,
 * so that a caller with a constant operand count (the shuffles) gets its loops
 * unrolled. */
static AGAL_ALWAYS_INLINE uint32_t fn_numbered(spv *s, unsigned op, uint32_t type, const uint32_t *ops, size_t n,
                                               uint32_t h)
{
    h = cse_hash(op, type, h);
    uint32_t slot = h % CSE_SLOTS, *e = &s->cse[slot];
    wbuf *f = &s->sec[S_FUNC];
    uint32_t head = (uint32_t)(n + 3) << 16 | op;
    if (*e > s->block_start && s->t.cse_tag[slot] == h >> 16) {
        const uint32_t *old = f->w + *e - 1;
        if (old[0] == head && old[1] == type && same_words(old + 3, ops, n)) return old[2];
    }
    const uint32_t *d = fn_write(s, op, type, ops, n);
    if (!d) return 0;
    *e = (uint32_t)(d - f->w) + 1;
    s->t.cse_tag[slot] = (uint16_t)(h >> 16);
    return d[2];
}

/* Emits `op %type %id ops...` in the function; returns %id. Virtual operands (no
 * literal operand has bit 31 set) are materialized first. Inline into one copy per
 * operand count (fn_1 to fn_6), whose loops then unroll: a call takes half the
 * instructions of the generic loops, and no loop exit to mispredict. The copies
 * stay out of line (AGAL_NOINLINE): clang's -O3 put one into every FN, 4 KB more of the
 * web package (web_package's budget). */
static AGAL_ALWAYS_INLINE uint32_t fn_body(spv *s, unsigned op, uint32_t type, const uint32_t *ops, size_t n)
{
    uint32_t m[12];
    if (n > AGAL_COUNTOF(m)) {
        agal_fail(&s->err, AGAL_ERR_NOMEM);
        return 0;
    }
    uint32_t any = 0;
    for (size_t i = 0; i < n; i++) any |= ops[i];
    if (any & VIRT) {
        for (size_t i = 0; i < n; i++) m[i] = real(s, ops[i]);
        ops = m;
    }
    return fn_numbered(s, op, type, ops, n, hash_words(ops, n)); /* the words written: hashed once */
}

static uint32_t fn(spv *s, unsigned op, uint32_t type, const uint32_t *ops, size_t n)
{
    return fn_body(s, op, type, ops, n);
}

#define FN_ARITY(k) \
    static AGAL_NOINLINE uint32_t fn_##k(spv *s, unsigned op, uint32_t type, const uint32_t *ops) \
    { \
        return fn_body(s, op, type, ops, k); \
    }
FN_ARITY(1)
FN_ARITY(2)
FN_ARITY(3)
FN_ARITY(4)
FN_ARITY(5)
FN_ARITY(6)
#undef FN_ARITY

/* fn for n operands: n is a constant in FN, so this folds to one call. */
static AGAL_ALWAYS_INLINE uint32_t fn_n(spv *s, unsigned op, uint32_t type, const uint32_t *ops, size_t n)
{
    switch (n) {
    case 1: return fn_1(s, op, type, ops);
    case 2: return fn_2(s, op, type, ops);
    case 3: return fn_3(s, op, type, ops);
    case 4: return fn_4(s, op, type, ops);
    case 5: return fn_5(s, op, type, ops);
    case 6: return fn_6(s, op, type, ops);
    default: return fn(s, op, type, ops, n);
    }
}

#define FN(s, op, type, ...) \
    fn_n(s, op, type, (const uint32_t[]){__VA_ARGS__}, sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))
#define GL(s, type, inst, ...) FN(s, SpvOpExtInst, type, s->glsl, inst, __VA_ARGS__)

#define FN_UNNUMBERED(s, op, type, ...) \
    fn_unnumbered(s, op, type, (const uint32_t[]){__VA_ARGS__}, \
                  sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))

/* The splat of scalar f made already, else 0. Remembered for the whole function,
 * not a block: a splat is made in its scalar's block where a phi needs it, in a
 * later block only in a program without ifs (lazy_splat), whose every block
 * dominates the next (kil's). */
static uint32_t splat_made(const spv *s, uint32_t f)
{
    unsigned i = f % AGAL_COUNTOF(s->t.splat);
    return (s->splat_used >> i & 1) && s->t.splat[i].f == f ? s->t.splat[i].id : 0;
}

/* Scalar f in every component of a vec4, once. */
static uint32_t splat(spv *s, uint32_t f)
{
    uint32_t id = splat_made(s, f);
    if (id) return id;
    unsigned i = f % AGAL_COUNTOF(s->t.splat);
    id = FN(s, SpvOpCompositeConstruct, t_vec(s, 4), f, f, f, f);
    s->t.splat[i] = (struct splat_memo){f, id};
    s->splat_used |= (uint64_t)1 << i;
    return id;
}

/* The load of register key in this block, if any. Only input() and uniform_at load
 * these registers, by their variables and constant indices, so numbering their
 * loads here shares what fn would share (the same load twice in a block, without
 * opt_share_loads) at a lookup, not a hash of the words. Where the IR loads each
 * register once (loads_unique, the pipeline's usual end) there is none to share:
 * an empty slot, without the lookup or the note. */
static AGAL_ALWAYS_INLINE uint32_t *load_of(spv *s, unsigned key)
{
    if (s->ir->loads_unique) {
        s->unshared_load = 0;
        return &s->unshared_load;
    }
    struct load *l = &s->t.load[key];
    if (bit(s->load_used, key) && l->block == s->block_start) return &l->id;
    set_bit(s->load_used, key);
    *l = (struct load){s->block_start, 0};
    return &l->id;
}

/* Block id begins: its OpLabel at d, the last two words reserved in the function
 * section (a caller may have reserved the instruction ending the block before in
 * the same call). Values of the previous block need not dominate this one: value
 * numbering starts afresh here. */
static uint32_t label_at(spv *s, uint32_t *d, uint32_t id)
{
    s->block_start = (uint32_t)(s->sec[S_FUNC].n - 2);
    d[0] = 2u << 16 | SpvOpLabel;
    d[1] = id;
    s->label = id;
    s->line_tok = -1; /* an OpLine's scope ends with its block */
    return id;
}

static uint32_t label(spv *s, uint32_t id)
{
    uint32_t *d = reserve(s, &s->sec[S_FUNC], 2);
    return d ? label_at(s, d, id) : id;
}

/* OpBranch m, then block next begun: one reserve for the two. */
static void branch_to(spv *s, uint32_t m, uint32_t next)
{
    uint32_t *d = reserve(s, &s->sec[S_FUNC], 4);
    if (!d) return;
    d[0] = 2u << 16 | SpvOpBranch, d[1] = m;
    label_at(s, d + 2, next);
}

/* The selection construct of condition c (merge block m, branches t and e), and
 * block t begun: one reserve for the three instructions. */
static void selection(spv *s, uint32_t c, uint32_t m, uint32_t t, uint32_t e)
{
    uint32_t *d = reserve(s, &s->sec[S_FUNC], 9);
    if (!d) return;
    d[0] = 3u << 16 | SpvOpSelectionMerge, d[1] = m, d[2] = SpvSelectionControlMaskNone;
    d[3] = 4u << 16 | SpvOpBranchConditional, d[4] = c, d[5] = t, d[6] = e;
    label_at(s, d + 7, t);
}

/* OpVectorShuffle of width n (2 to 4) of real vectors a and b: each width its own
 * constant word count, so fn's loops over the operands unroll. A dot-product or
 * component chain makes two or three of these for every token (materializing
 * its merges), against one instruction for straight-line code. */
static inline uint32_t shuffle_words(spv *s, unsigned n, uint32_t a, uint32_t b, const uint8_t *sel)
{
    uint32_t ops[6] = {a, b, sel[0], sel[1], n > 2 ? sel[2] : 0, n > 3 ? sel[3] : 0};
    /* hash_words(ops, n + 2) spelled out from the arguments: as a loop over ops the
     * compiler kept it rolled, through the stack. */
    uint32_t h = fnv_step(fnv_step(fnv_step(fnv_step(FNV_BASIS, a), b), sel[0]), sel[1]);
    if (n > 2) h = fnv_step(h, sel[2]);
    if (n > 3) h = fnv_step(h, sel[3]);
    return fn_numbered(s, SpvOpVectorShuffle, t_vec(s, n), ops, n + 2, h);
}

static uint32_t raw_shuffle(spv *s, unsigned n, uint32_t a, uint32_t b, const uint8_t *sel)
{
    if ((a | b) & (VIRT | SCALAR)) { /* the callers pass sources read through to real vectors */
        agal_fail(&s->err, AGAL_ERR_INTERNAL);
        return 0;
    }
    if (n == 2) return shuffle_words(s, 2, a, b, sel);
    return n == 4 ? shuffle_words(s, 4, a, b, sel) : shuffle_words(s, 3, a, b, sel);
}

/* The recorded shuffle whose result is v, or NULL. */
static AGAL_ALWAYS_INLINE const shuf *recorded(const spv *s, uint32_t v)
{
    unsigned i = v % SHUF_CACHE;
    return (s->shuf_used >> i & 1) && s->t.shuf[i].id == v ? &s->t.shuf[i] : NULL;
}

/* Records the vec4 shuffle id of a and b by sel (0..3 from a, 4..7 from b). */
static void record(spv *s, uint32_t id, uint32_t a, uint32_t b, const uint8_t *sel)
{
    unsigned i = id % SHUF_CACHE;
    s->shuf_used |= (uint64_t)1 << i;
    s->t.shuf[i] = (shuf){id, a, b, {sel[0], sel[1], sel[2], sel[3]}};
}

/* Component *k of vector id v, read through a virtual value (its comp_src) and a
 * recorded shuffle: returns the real vec4 it comes from, *k its component there.
 * Inline: a lookup and a test, where a call took as many instructions again. */
static AGAL_ALWAYS_INLINE uint32_t source_comp(spv *s, uint32_t v, unsigned *k)
{
    if (v & VIRT) {
        uint32_t from = s->comp_src[v & ~VIRT][*k];
        v = from >> 2, *k = from & 3;
    }
    const shuf *d = recorded(s, v);
    if (d && v) {
        unsigned sel = d->sel[*k];
        v = sel < 4 ? d->a : d->b;
        *k = sel & 3;
    }
    return v;
}

/* The n components vec[c].comp[c] from three or four distinct vectors: a shuffle of
 * the first two, then one shuffle for each further vector, in order of first use
 * (a component still to come holds a placeholder). Built from the components'
 * sources, not by materializing the operands, so a deep chain of masked writes
 * costs one to three shuffles and no walk of its own chain. */
static inline uint32_t gather(spv *s, unsigned n, const uint32_t *vec, const uint8_t *comp)
{
    uint32_t acc = vec[0];
    bool done[4] = {false, false, false, false};
    for (unsigned c = 0; c < n; c++) done[c] = vec[c] == acc;
    for (unsigned first = 1; first < n; first++) {
        if (done[first]) continue;
        uint32_t src = vec[first];
        uint8_t out[4] = {0, 1, 2, 3};
        bool last = true;
#pragma GCC unroll 4
        for (unsigned c = 0; c < n; c++) {
            if (vec[c] == src) out[c] = (uint8_t)(4 + comp[c]), done[c] = true;
            else if (acc == vec[0] && vec[c] == acc) out[c] = comp[c]; /* the first shuffle places acc's too */
            last &= done[c];
        }
        unsigned width = last ? n : 4;
        uint32_t id = raw_shuffle(s, width, acc, src, out);
        if (width == 4 && id) record(s, id, acc, src, out);
        acc = id;
    }
    return acc;
}

static AGAL_ALWAYS_INLINE uint32_t made_here(const spv *s, uint32_t v);

/* The vec4 components vec[c].comp[c] of virtual value x (its IR index), which come
 * from three or four vectors: when x is a merge whose first operand is already a
 * vector in this block and its merged components all come from one vector, one
 * shuffle of the two, where gathering the three or four takes two or three (a
 * dot-product chain's every token). */
static uint32_t merge_or_gather(spv *s, const uint32_t *vec, const uint8_t *comp, uint32_t x)
{
    const agal_ir_inst *in = &s->ir->insts[x];
    uint32_t onto = in->op == IR_MERGE ? made_here(s, s->ids[in->args[0]]) : 0, src = 0;
    uint8_t out[4];
    for (unsigned c = 0; c < 4 && onto; c++) {
        out[c] = (uint8_t)c;
        if (!(in->mask >> c & 1)) continue;
        if (src && vec[c] != src) onto = 0;
        src = vec[c];
        out[c] = (uint8_t)(4 + comp[c]);
    }
    if (!onto || !src) return gather(s, 4, vec, comp);
    uint32_t id = raw_shuffle(s, 4, onto, src, out);
    if (id) record(s, id, onto, src, out);
    return id;
}

/* The n components vec[c].comp[c], each of a real vector: one shuffle of the one or
 * two vectors they come from (none for an identity), else gathered. made: the
 * virtual value they are (its IR index), else 0. */
static AGAL_ALWAYS_INLINE uint32_t of_vectors(spv *s, unsigned n, const uint32_t *vec, const uint8_t *comp,
                                              uint32_t made)
{
    uint32_t x = vec[0], y = 0;
    uint8_t out[4];
#pragma GCC unroll 4
    for (unsigned c = 1; c < n; c++) {
        if (vec[c] == x || vec[c] == y) continue;
        if (y) return made ? merge_or_gather(s, vec, comp, made) : gather(s, n, vec, comp);
        y = vec[c];
    }
    bool identity = n == 4;
    for (unsigned c = 0; c < n; c++) {
        out[c] = (uint8_t)(vec[c] == x ? comp[c] : 4 + comp[c]);
        identity &= out[c] == c;
    }
    if (identity) return x;
    if (!y) y = x;
    uint32_t id = raw_shuffle(s, n, x, y, out);
    if (n == 4 && id) record(s, id, x, y, out);
    return id;
}

static uint32_t compose(spv *s, unsigned n, uint32_t *vec, uint8_t *comp);

/* A shuffle of vec4 a and b to n (3 or 4) components, sel[c] 0..3 from a and 4..7
 * from b. A component taken from a recorded vec4 shuffle is read from that
 * shuffle's source instead, so swizzle-of-merge and vec3-of-swizzle chains become
 * one instruction (or none, for an identity), as spirv-opt would fold them. Inline
 * in real, the commonest caller, where n, a == b and sel are constants; real's
 * virtual value (its IR index, else 0) in made. */
static AGAL_ALWAYS_INLINE uint32_t shuffle_inline(spv *s, unsigned n, uint32_t a, uint32_t b, const uint8_t *sel,
                                                  uint32_t made)
{
    uint32_t vec[4], any = 0;
    uint8_t comp[4];
#pragma GCC unroll 4
    for (unsigned c = 0; c < n; c++) {
        unsigned k = sel[c] & 3;
        /* A component selected again (a splat's) walks as the one before did: no
         * shuffle is recorded between them, so the same source. */
        vec[c] = c && sel[c] == sel[c - 1] ? vec[c - 1] : source_comp(s, sel[c] < 4 ? a : b, &k);
        comp[c] = c && sel[c] == sel[c - 1] ? comp[c - 1] : (uint8_t)k;
        any |= vec[c];
    }
    return any & SCALAR ? compose(s, n, vec, comp) : of_vectors(s, n, vec, comp, made);
}

/* Words of the shuffles that gather n components from k vectors (of_vectors). */
static unsigned shuffle_words_for(unsigned n, unsigned k) { return k > 2 ? 9 * (k - 2) + 5 + n : 5 + n; }

/* One OpCompositeConstruct of the n components vec[c].comp[c], each vector's
 * extracted, each scalar (SCALAR) itself. */
static uint32_t construct(spv *s, unsigned n, const uint32_t *vec, const uint8_t *comp)
{
    uint32_t parts[4];
    for (unsigned c = 0; c < n; c++)
        parts[c] = vec[c] & SCALAR ? vec[c] & ~SCALAR : FN(s, SpvOpCompositeExtract, t_float(s), vec[c], comp[c]);
    return fn_n(s, SpvOpCompositeConstruct, t_vec(s, n), parts, n);
}

/* The n components vec[c].comp[c], some of them scalars (SCALAR), in whichever of
 * three ways takes the fewest words: one construct of them all (a splat's four the
 * same scalar); the vectors' components (of_vectors, a placeholder where a scalar
 * goes) with each scalar inserted; or, where one scalar fills them, its splat
 * shuffled in as a vector, the way before lazy splats and still the shortest when
 * the block has made the splat already or the scalar fills two or three
 * components. */
static AGAL_NOINLINE uint32_t compose(spv *s, unsigned n, uint32_t *vec, uint8_t *comp)
{
    uint32_t scalar = 0, base = 0, scalars_at[4];
    unsigned scalars = 0, vectors = 0;
    bool one_scalar = true, in_place = n == 4;
    for (unsigned c = 0; c < n; c++) {
        scalars_at[c] = vec[c] & SCALAR ? vec[c] & ~SCALAR : 0;
        if (scalars_at[c]) {
            one_scalar &= !scalar || vec[c] == scalar;
            scalar = vec[c], scalars++;
            continue;
        }
        bool first = true;
        for (unsigned d = 0; d < c; d++) first &= vec[d] != vec[c];
        vectors += first;
        base = base ? base : vec[c];
        in_place &= vec[c] == base && comp[c] == c;
    }
    if (!vectors) return one_scalar && n == 4 ? splat(s, scalar & ~SCALAR) : construct(s, n, vec, comp);
    uint32_t splat_id = one_scalar ? splat_made(s, scalar & ~SCALAR) : 0;
    unsigned by_construct = 3 + n + 5 * (n - scalars);
    unsigned by_insert = 5 * scalars + (in_place ? 0 : shuffle_words_for(n, vectors));
    unsigned by_splat = one_scalar ? (splat_id ? 0 : 7) + shuffle_words_for(n, vectors + 1) : ~0u;
    if (by_construct < by_insert && by_construct <= by_splat) return construct(s, n, vec, comp);
    bool insert = by_insert <= by_splat;
    if (!insert && !splat_id) splat_id = splat(s, scalar & ~SCALAR);
    for (unsigned c = 0; c < n; c++)
        if (scalars_at[c])
            vec[c] = insert ? base : splat_id, comp[c] = (uint8_t)c; /* base's: what the insert replaces */
    uint32_t id = of_vectors(s, n, vec, comp, 0);                    /* 0: gathered, as by_insert and by_splat count */
    for (unsigned c = 0; c < n && insert; c++)
        if (scalars_at[c]) id = FN(s, SpvOpCompositeInsert, t_vec(s, n), scalars_at[c], id, c);
    return id;
}

static uint32_t shuffle(spv *s, unsigned n, uint32_t a, uint32_t b, const uint8_t *sel)
{
    return shuffle_inline(s, n, a, b, sel, 0);
}

static uint32_t vec3_of(spv *s, uint32_t v) { return shuffle(s, 3, v, v, (const uint8_t[]){0, 1, 2}); }

static uint32_t swizzle_value(spv *s, const agal_ir_inst *in);
static uint32_t merge_value(spv *s, const agal_ir_inst *in);

/* Whether swizzle selects one component four times (a component chain's read). */
static AGAL_ALWAYS_INLINE bool is_splat(unsigned swizzle) { return swizzle == (swizzle & 3u) * 0x55u; }

/* Component k of vector v (possibly virtual) in all four components: one walk to
 * its source, one shuffle of it (or the splat of a lazy splat's scalar). */
static AGAL_ALWAYS_INLINE uint32_t splat_of(spv *s, uint32_t v, unsigned k)
{
    uint32_t x = source_comp(s, v, &k);
    if (x & SCALAR) return splat(s, x & ~SCALAR);
    uint8_t sel[4];
    memset(sel, (int)k, sizeof sel);
    uint32_t id = shuffle_words(s, 4, x, x, sel); /* x is a real vector: no raw_shuffle test */
    if (id) record(s, id, x, x, sel);
    return id;
}

/* What swizzle_value makes of the commonest swizzle, of a real vector that is no
 * recorded shuffle (a constant's or input's load read .xxxx), without walking each
 * component to its source; 0 for any other. */
static AGAL_ALWAYS_INLINE uint32_t swizzle_of_real(spv *s, const agal_ir_inst *in)
{
    uint32_t src = s->ids[in->args[0]];
    if ((src & VIRT) || !src || recorded(s, src)) return 0;
    if (in->swizzle == AGAL_SWIZZLE_IDENTITY) return src;
    uint8_t sel[4];
    for (unsigned c = 0; c < 4; c++) sel[c] = (uint8_t)agal_swizzle_comp(in->swizzle, c);
    uint32_t id = raw_shuffle(s, 4, src, src, sel);
    if (id) record(s, id, src, src, sel);
    return id;
}

/* Virtual value x's materialization in this block (real's), or NULL. */
static AGAL_ALWAYS_INLINE const struct mat *made_in_block(const spv *s, uint32_t x)
{
    uint32_t slot = x % AGAL_COUNTOF(s->t.mat);
    const struct mat *m = &s->t.mat[slot];
    return (s->mat_used >> slot & 1) && m->v == x && m->block == s->block_start ? m : NULL;
}

/* The real id of v made in this block: v itself when it is real, a virtual value's
 * materialization (real), or 0. */
static AGAL_ALWAYS_INLINE uint32_t made_here(const spv *s, uint32_t v)
{
    if (!(v & VIRT)) return v;
    const struct mat *m = made_in_block(s, v & ~VIRT);
    return m ? m->id : 0;
}

static uint32_t insert_onto(spv *s, const agal_ir_inst *in);

/* Whether merge in writes a lazy splat (insert_onto's first test, inline: most
 * merges write a real vector). */
static AGAL_ALWAYS_INLINE bool merges_splat(const spv *s, const agal_ir_inst *in)
{
    uint32_t b = s->ids[in->args[1]];
    return (b & VIRT) && (s->virt[b & ~VIRT] & SPLAT);
}

/* The vector v (possibly virtual) as a real id: the shuffle (or shuffles) of the
 * components it selects (a swizzle's of its source, swizzle_value; a merge's
 * perhaps of its operands, merge_or_gather). Remembered for the block, so a value
 * read through many chains is made once. */
static uint32_t real(spv *s, uint32_t v)
{
    if (!(v & VIRT)) return v;
    uint32_t x = v & ~VIRT, slot = x % AGAL_COUNTOF(s->t.mat);
    const struct mat *made = made_in_block(s, x);
    if (made) return made->id;
    const agal_ir_inst *in = &s->ir->insts[x];
    uint32_t id = 0;
    if (in->op == IR_SWIZZLE) {
        /* A splat's own comp_src names its component's source: no read of its
         * operand's id and comp_src. */
        if (is_splat(in->swizzle)) id = splat_of(s, v, 0);
        else if (!(id = swizzle_of_real(s, in))) id = swizzle_value(s, in);
    } else if (in->op != IR_MERGE || !merges_splat(s, in) || !(id = insert_onto(s, in)))
        id = shuffle_inline(s, 4, v, v, (const uint8_t[]){0, 1, 2, 3}, x); /* a merge, or a lazy splat */
    s->t.mat[slot] = (struct mat){x, s->block_start, id};
    s->mat_used |= (uint64_t)1 << slot;
    return id;
}

/* How deep id's chain of virtual values is (0: id is real). */
static AGAL_ALWAYS_INLINE unsigned virt_depth(const spv *s, uint32_t id)
{
    return id & VIRT ? s->virt[id & ~VIRT] & DEPTH_BITS : 0;
}

/* A swizzle or merge written where it is defined (virtual_or_real), named as
 * emit_inst names a temporary's new value. */
static AGAL_NOINLINE uint32_t materialized_here(spv *s, const agal_ir_inst *in)
{
    uint32_t first_new = s->next_id, id = in->op == IR_SWIZZLE ? swizzle_value(s, in) : merge_value(s, in);
    if (in->reg_type == AGAL_REG_TEMP && id >= first_new) temp_name(s, id, in->reg_num);
    return id;
}

/* Where component c of vector id v comes from: a virtual value's comp_src entry, or
 * a real vector's own component. Read a component at a time, not through a copy of
 * all four: a merge's real operand (a chain's every new value) is then no stores
 * and loads of a scratch array. */
static AGAL_ALWAYS_INLINE uint32_t source_of(const spv *s, uint32_t v, unsigned c)
{
    return v & VIRT ? s->comp_src[v & ~VIRT][c] : v << 2 | c;
}

/* comp_src of swizzle or merge in, made virtual, into src, from its operands'
 * (their ids a and b, known already): a component of a merge is its first or
 * second operand's, of a swizzle the one it selects of its operand's. */
static AGAL_ALWAYS_INLINE void note_sources(const spv *s, uint32_t *src, const agal_ir_inst *in, uint32_t a, uint32_t b)
{
    if (in->op == IR_SWIZZLE && is_splat(in->swizzle)) { /* a component chain's read: one component */
        uint32_t from = source_of(s, a, in->swizzle & 3u);
        src[0] = src[1] = src[2] = src[3] = from;
        return;
    }
    /* Read into from, then stored: src is a comp_src entry as a's or b's are, so a
     * store between the reads would make the compiler load those again. */
    uint32_t from[4];
    if (in->op == IR_SWIZZLE) {
#pragma GCC unroll 4
        for (unsigned c = 0; c < 4; c++) from[c] = source_of(s, a, agal_swizzle_comp(in->swizzle, c));
    } else {
        unsigned mask = in->mask;
#pragma GCC unroll 4
        for (unsigned c = 0; c < 4; c++) from[c] = mask >> c & 1 ? source_of(s, b, c) : source_of(s, a, c);
    }
    for (unsigned c = 0; c < 4; c++) src[c] = from[c];
}

/* A swizzle or merge stays virtual, unless it is a phi operand (its branch's end
 * needs it) or its chain of virtual values has grown too deep. A swizzle has one
 * operand, a merge two: read as such, not through a loop to nargs, and once, for
 * the depth and the note. Inline in emit_list: this runs for every swizzle and
 * merge of the program, most of its values. */
static AGAL_ALWAYS_INLINE uint32_t virtual_or_real(spv *s, uint32_t v, const agal_ir_inst *in)
{
    uint32_t a = s->ids[in->args[0]], b = in->op == IR_MERGE ? s->ids[in->args[1]] : 0;
    unsigned depth = virt_depth(s, a), depth_b = virt_depth(s, b);
    if (depth_b > depth) depth = depth_b;
    if ((s->virt[v] & EAGER) || depth >= MAX_VIRT_DEPTH) return materialized_here(s, in);
    note_sources(s, s->comp_src[v], in, a, b);
    /* After the note: a byte's store would make the compiler load again what the
     * note reads. */
    s->virt[v] = (uint8_t)(depth + 1);
    return VIRT | v;
}

/* Component k of v, read from where it comes from (a lazy splat's: its scalar).
 * Inline in emit_list, whose IR_EXTRACTs (an if's every condition, a relative
 * read's index) are most of its calls; extract_comp for the others. */
static AGAL_ALWAYS_INLINE uint32_t extract_inline(spv *s, uint32_t v, unsigned k)
{
    v = source_comp(s, v, &k);
    if (v & SCALAR) return v & ~SCALAR;
    struct last_extract *last = &s->last_extract;
    if (last->v == v && last->k == k && last->entry > s->block_start && s->cse[last->slot] == last->entry)
        return s->sec[S_FUNC].w[last->entry + 1];                     /* the id of the instruction at entry - 1 */
    uint32_t f = t_float(s), ops[2] = {v, k}, h = hash_words(ops, 2); /* real operands: fn_numbered, not fn */
    uint32_t id = fn_numbered(s, SpvOpCompositeExtract, f, ops, 2, h),
             slot = cse_hash(SpvOpCompositeExtract, f, h) % CSE_SLOTS;
    if (id) *last = (struct last_extract){v, k, slot, s->cse[slot]};
    return id;
}

static uint32_t extract_comp(spv *s, uint32_t v, unsigned k) { return extract_inline(s, v, k); }

/* Scalar f in every component of IR value in: a lazy splat (SPLAT), made here only
 * when a phi needs it at its branch's end (EAGER), or in a program with ifs, where
 * a splat made lazily in a branch would not serve the other branch, nor the blocks
 * after, as the one made here does. */
static uint32_t lazy_splat(spv *s, const agal_ir_inst *in, uint32_t f)
{
    uint32_t v = (uint32_t)(in - s->ir->insts), from = (SCALAR | f) << 2;
    if ((s->virt[v] & EAGER) || s->ir->nlists > 1) return splat(s, f);
    for (unsigned c = 0; c < 4; c++) s->comp_src[v][c] = from;
    s->virt[v] = SPLAT | 1;
    return VIRT | v;
}

/* Merge in of a lazy splat onto a vector made in this block (a dot-product chain's
 * every token reads the last as a vector, so made it): the scalar inserted into
 * each component it writes, one instruction without a walk of the components; 0
 * for any other merge, and where the inserts would take more words than compose's
 * way (three or four of them, or two where the splat is made). */
static uint32_t insert_onto(spv *s, const agal_ir_inst *in)
{
    uint32_t b = s->ids[in->args[1]], past_first = in->mask & (in->mask - 1u), onto;
    if (!merges_splat(s, in) || (past_first & (past_first - 1u)) || !(onto = made_here(s, s->ids[in->args[0]])))
        return 0;
    uint32_t f = s->comp_src[b & ~VIRT][0] >> 2 & ~SCALAR;
    if (past_first && splat_made(s, f)) return 0; /* two inserts: a word more than a shuffle of the splat */
    for (unsigned c = 0; c < 4 && onto; c++)
        if (in->mask >> c & 1) onto = FN(s, SpvOpCompositeInsert, t_vec(s, 4), f, onto, c);
    return onto;
}

/* vec3 r -> vec4 (r, 0). */
static uint32_t widen(spv *s, uint32_t v3)
{
    uint32_t zero = c_splat(s, 0);
    return FN(s, SpvOpVectorShuffle, t_vec(s, 4), v3, zero, 0, 1, 2, 6);
}

static uint32_t compare4(spv *s, unsigned op, uint32_t a, uint32_t b)
{
    uint32_t c = FN(s, op, t_bvec4(s), a, b);
    uint32_t one = c_splat(s, 1), zero = c_splat(s, 0);
    return FN(s, SpvOpSelect, t_vec(s, 4), c, one, zero);
}

/* IR_YFLIP, the render-to-texture y scale: float specialization constant SpecId 0,
 * default 1, in every component of a vec4 (a specialization constant composite). */
static uint32_t yflip(spv *s)
{
    if (!s->yflip) {
        float one = 1.0f;
        uint32_t bits, flip = new_id(s);
        memcpy(&bits, &one, 4);
        INS(s, S_GLOBAL, SpvOpSpecConstant, t_float(s), flip, bits);
        DECO(s, flip, SpvDecorationSpecId, 0);
        name(s, flip, AGAL_GLSL_YFLIP);
        s->yflip = new_id(s);
        INS(s, S_GLOBAL, SpvOpSpecConstantComposite, t_vec(s, 4), s->yflip, flip, flip, flip, flip);
    }
    return s->yflip;
}

/* Each opcode's one-to-one instruction, from its row (opcode_meaning.def). */
enum { P_HAND, P_OP, P_EXT };
typedef struct spv_form {
    uint8_t kind;
    uint16_t num;
} spv_form;
#define SPV_HAND \
    { \
        P_HAND, 0 \
    }
#define SPV_OP(op) \
    { \
        P_OP, op \
    }
#define SPV_EXT(inst) \
    { \
        P_EXT, inst \
    }
static const spv_form forms[AGAL_OP_LIMIT] = {
#define AGAL_OPCODE_MEANING(ID, c, glsl, spirv, cmp) [AGAL_OP_##ID] = spirv,
#include "opcode_meaning.def"
#undef AGAL_OPCODE_MEANING
};
#undef SPV_HAND
#undef SPV_OP
#undef SPV_EXT

/* The SPIR-V comparison of each predicate (AGAL_CMPS). */
static unsigned cmp_op(agal_cmp c)
{
    static const uint16_t ops[] = {
#define CMP_OP(id, op, spirv, ...) spirv,
        AGAL_CMPS(CMP_OP)
#undef CMP_OP
    };
    return ops[c];
}

/* nrm, crs and dp3 read the vec3s of their operands. */
static uint32_t normalize3(spv *s, uint32_t a)
{
    uint32_t a3 = vec3_of(s, a);
    return GL(s, t_vec(s, 3), GLSLstd450Normalize, a3);
}

static uint32_t cross3(spv *s, uint32_t a, uint32_t b)
{
    uint32_t a3 = vec3_of(s, a), b3 = vec3_of(s, b);
    return GL(s, t_vec(s, 3), GLSLstd450Cross, a3, b3);
}

static uint32_t dot3(spv *s, uint32_t a, uint32_t b)
{
    uint32_t a3 = vec3_of(s, a), b3 = vec3_of(s, b);
    return FN(s, SpvOpDot, t_float(s), a3, b3);
}

static uint32_t saturate(spv *s, uint32_t a)
{
    uint32_t zero = c_splat(s, 0), one = c_splat(s, 1);
    return GL(s, t_vec(s, 4), GLSLstd450FClamp, a, zero, one);
}

static uint32_t alu(spv *s, const agal_ir_inst *in)
{
    uint32_t v4 = t_vec(s, 4), f = t_float(s);
    uint32_t a = s->ids[in->args[0]], b = in->nargs > 1 ? s->ids[in->args[1]] : 0;
    const spv_form *form = &forms[in->aop];
    if (form->kind == P_OP) return in->nargs > 1 ? FN(s, form->num, v4, a, b) : FN(s, form->num, v4, a);
    if (form->kind == P_EXT) return in->nargs > 1 ? GL(s, v4, form->num, a, b) : GL(s, v4, form->num, a);
    agal_cmp cmp = agal_op_cmp(in->aop);
    if (cmp != AGAL_CMP_NONE) return compare4(s, cmp_op(cmp), a, b); /* sge slt seq sne: 1 where it holds */
    switch (in->aop) {
    case AGAL_OP_RCP: return FN(s, SpvOpFDiv, v4, c_splat(s, 1), a);
    case AGAL_OP_NRM: return widen(s, normalize3(s, a));
    case AGAL_OP_CRS: return widen(s, cross3(s, a, b));
    case AGAL_OP_DP3: return lazy_splat(s, in, dot3(s, a, b));
    case AGAL_OP_DP4: return lazy_splat(s, in, FN(s, SpvOpDot, f, a, b));
    case AGAL_OP_SAT: return saturate(s, a);
    default: agal_fail(&s->err, AGAL_ERR_INTERNAL); return 0; /* the builder makes no other ALU op */
    }
}

static uint32_t matrix(spv *s, const agal_ir_inst *in)
{
    uint32_t f = t_float(s), r[4];
    bool three = in->aop == AGAL_OP_M33;
    unsigned rows = in->nargs - 1u;
    uint32_t a = s->ids[in->args[0]];
    if (three) a = vec3_of(s, a);
    for (unsigned k = 0; k < 4; k++) {
        if (k >= rows) {
            r[k] = c_float(s, 0);
            continue;
        }
        uint32_t row = s->ids[in->args[1 + k]];
        r[k] = FN(s, SpvOpDot, f, a, three ? vec3_of(s, row) : row);
    }
    return FN(s, SpvOpCompositeConstruct, t_vec(s, 4), r[0], r[1], r[2], r[3]);
}

static uint32_t uniform_at(spv *s, uint32_t index)
{
    uint32_t block = const_block(s), zero = c_int(s, 0);
    uint32_t ptr = FN(s, SpvOpAccessChain, t_ptr_v4(s, PTR_V4_UNIFORM), block, zero, index);
    return FN(s, SpvOpLoad, t_vec(s, 4), ptr);
}

/* vc<i> / fc<i>: its access chain and load, once per block. */
static uint32_t uniform_reg(spv *s, unsigned i)
{
    if (i >= 256) return uniform_at(s, c_int(s, (int32_t)i));
    uint32_t *load = load_of(s, LOAD_UNIFORM + i);
    if (*load) return *load;
    uint32_t index = c_int(s, (int32_t)i), block = const_block(s), zero = c_int(s, 0); /* uniform_at's order */
    uint32_t ptr = FN_UNNUMBERED(s, SpvOpAccessChain, t_ptr_v4(s, PTR_V4_UNIFORM), block, zero, index);
    return *load = FN_UNNUMBERED(s, SpvOpLoad, t_vec(s, 4), ptr);
}

/* vc[trunc(index) + offset]: computed in float so that any index (NaN, huge) gives
 * a defined in-range test; out of range reads zero, like the interpreter. */
static uint32_t indirect_read(spv *s, uint32_t index, uint32_t offset, unsigned range)
{
    uint32_t f = t_float(s), b = t_bool(s);
    uint32_t t = GL(s, f, GLSLstd450Trunc, index);
    uint32_t addr = FN(s, SpvOpFAdd, f, t, offset);
    uint32_t lo = FN(s, SpvOpFOrdGreaterThanEqual, b, addr, c_float(s, 0));
    uint32_t hi = FN(s, SpvOpFOrdLessThan, b, addr, c_float(s, (float)range));
    uint32_t ok = FN(s, SpvOpLogicalAnd, b, lo, hi);
    uint32_t safe = FN(s, SpvOpSelect, f, ok, addr, c_float(s, 0));
    uint32_t val = uniform_at(s, FN(s, SpvOpConvertFToS, t_int(s), safe));
    uint32_t ok4 = FN(s, SpvOpCompositeConstruct, t_bvec4(s), ok, ok, ok, ok), zero = c_splat(s, 0);
    return FN(s, SpvOpSelect, t_vec(s, 4), ok4, val, zero);
}

/* A relative read calls the module's one agal_vc (agal_fc) function, (index, offset)
 * -> vec4, which indirect_function writes after main: one instruction a read
 * instead of the ten of the bounds-checked read, which a driver inlines anyway
 * (as GLSL's agal_vc). The builder makes each distinct read once (build.c,
 * shared_read). A read of another range (IR text can say anything) is inline. */
static uint32_t uniform_indirect(spv *s, const agal_ir_inst *in)
{
    uint32_t index = s->ids[in->args[0]];
    if (!s->c_offsets) s->c_offsets = agal_zalloc(s->ctx, 256 * sizeof *s->c_offsets); /* NULL: not memoized */
    uint32_t offset = s->c_offsets && in->reg_num < 256
                          ? MEMO(s->c_offsets[in->reg_num], c_float(s, (float)in->reg_num))
                          : c_float(s, (float)in->reg_num);
    if (s->indirect_fn && s->indirect_range != in->range) return indirect_read(s, index, offset, in->range);
    if (!s->indirect_fn) s->indirect_fn = new_id(s), s->indirect_range = in->range;
    /* fn_numbered straight: the index the only operand that can be virtual (a
     * component read is real already, so no walk of all three for one). */
    uint32_t ops[3] = {s->indirect_fn, real(s, index), offset};
    return fn_numbered(s, SpvOpFunctionCall, t_vec(s, 4), ops, 3, hash_words(ops, 3));
}

static void indirect_function(spv *s)
{
    uint32_t f = t_float(s), v4 = t_vec(s, 4), index = new_id(s), offset = new_id(s);
    INS(s, S_FUNC, SpvOpFunction, v4, s->indirect_fn, SpvFunctionControlPureMask,
        UNIQUE(s, SpvOpTypeFunction, 0, v4, f, f));
    INS(s, S_FUNC, SpvOpFunctionParameter, f, index);
    INS(s, S_FUNC, SpvOpFunctionParameter, f, offset);
    label(s, new_id(s));
    INS(s, S_FUNC, SpvOpReturnValue, indirect_read(s, index, offset, s->indirect_range));
    ins(s, S_FUNC, SpvOpFunctionEnd, NULL, 0);
    name(s, s->indirect_fn, s->prog->stage == AGAL_VERTEX ? "agal_vc" : "agal_fc");
}

static uint32_t input(spv *s, const agal_ir_inst *in)
{
    if (in->reg_type == AGAL_REG_IID) {
        uint32_t i = FN(s, SpvOpLoad, t_int(s), s->var_iid);
        /* Not a lazy splat: an OpConvertSToF read straight as agal_vc's index (its
         * extract skipped) makes SPIRV-Tools 2023.1's inlining and ADCE crash on the
         * -gnonsemantic module (test_spirv's check_nonsemantic). */
        return splat(s, FN(s, SpvOpConvertSToF, t_float(s), i));
    }
    if (in->reg_type == IR_REG_PACKED) { /* widened to a vec4: lanes past its width read x */
        unsigned n = in->reg_num & 15, w = s->ir->packing.width[n];
        uint32_t l = FN(s, SpvOpLoad, t_width(s, w), s->t.var_packed[n]);
        if (w == 1) return lazy_splat(s, in, l);
        return w == 4 ? l : FN(s, SpvOpVectorShuffle, t_vec(s, 4), l, l, 0, 1, w > 2 ? 2 : 0, 0);
    }
    uint32_t *load = load_of(s, in->reg_num & 15);
    return *load ? *load : (*load = FN_UNNUMBERED(s, SpvOpLoad, t_vec(s, 4), s->var_in[in->reg_num & 15]));
}

/* The sampled image of fs<i> in this block. */
static uint32_t sampled_image(spv *s, const agal_sampler *smp)
{
    uint32_t var = sampler_var(s, smp);
    if (!s->opt->pub.separate_samplers) return FN(s, SpvOpLoad, image_type(s, smp->dim), var);
    uint32_t img = FN(s, SpvOpLoad, image_only_type(s, smp->dim), var);
    uint32_t smp_id = FN(s, SpvOpLoad, t_sampler(s), s->t.var_sampler[smp->num & 15]);
    return FN(s, SpvOpSampledImage, image_type(s, smp->dim), img, smp_id);
}

static uint32_t texture(spv *s, const agal_ir_inst *in)
{
    uint32_t v4 = t_vec(s, 4), a = s->ids[in->args[0]];
    bool cube = in->smp.dim == AGAL_DIM_CUBE;
    uint32_t img = sampled_image(s, &in->smp);
    uint32_t coord = cube ? vec3_of(s, a) : shuffle(s, 2, a, a, (const uint8_t[]){0, 1});
    if (in->aop == AGAL_OP_TED) {
        uint32_t lod = extract_comp(s, a, 3);
        return FN(s, SpvOpImageSampleExplicitLod, v4, img, coord, SpvImageOperandsLodMask, lod);
    }
    float bias = in->smp.bias / 8.0f;
    if (s->prog->stage != AGAL_FRAGMENT) /* no implicit LOD outside fragment shaders */
        return FN(s, SpvOpImageSampleExplicitLod, v4, img, coord, SpvImageOperandsLodMask, c_float(s, bias));
    if (in->smp.bias == 0) return FN(s, SpvOpImageSampleImplicitLod, v4, img, coord);
    return FN(s, SpvOpImageSampleImplicitLod, v4, img, coord, SpvImageOperandsBiasMask, c_float(s, bias));
}

static uint32_t compare(spv *s, const agal_ir_inst *in)
{
    return FN(s, cmp_op(agal_op_cmp(in->aop)), t_bool(s), s->ids[in->args[0]], s->ids[in->args[1]]);
}

static uint32_t merge_value(spv *s, const agal_ir_inst *in)
{
    uint32_t inserted = insert_onto(s, in);
    if (inserted) return inserted;
    uint8_t sel[4];
    for (unsigned c = 0; c < 4; c++) sel[c] = (uint8_t)((in->mask >> c & 1) ? 4 + c : c);
    return shuffle(s, 4, s->ids[in->args[0]], s->ids[in->args[1]], sel);
}

/* The shuffle of a swizzle's source's components it selects: a splat's one
 * component walked once. A width of its own, as real reads most swizzles here. */
static uint32_t swizzle_value(spv *s, const agal_ir_inst *in)
{
    uint32_t a = s->ids[in->args[0]];
    if (is_splat(in->swizzle)) return splat_of(s, a, in->swizzle & 3u);
    uint8_t sel[4];
    for (unsigned c = 0; c < 4; c++) sel[c] = (uint8_t)agal_swizzle_comp(in->swizzle, c);
    return shuffle_inline(s, 4, a, a, sel, 0);
}

/* kil: if (a < 0) { OpKill } as its own selection construct. */
static void kil(spv *s, const agal_ir_inst *in)
{
    uint32_t zero = c_float(s, 0);
    uint32_t c = FN(s, SpvOpFOrdLessThan, t_bool(s), s->ids[in->args[0]], zero);
    uint32_t k = new_id(s), m = new_id(s);
    selection(s, c, m, k, m);
    ins(s, S_FUNC, SpvOpKill, NULL, 0);
    label(s, m);
}

/* Vertex varyings v<n> use slots 1.. of var_out (0 is op, the position); fragment
 * oc<n> 0..3. */
static unsigned out_slot(const spv *s, unsigned n) { return s->prog->stage == AGAL_VERTEX ? 1 + n % 15 : n; }

static void store(spv *s, const agal_ir_inst *in)
{
    uint32_t v = s->ids[in->args[0]];
    if (in->reg_type == IR_REG_PACKED) {
        unsigned n = in->reg_num & 15, w = s->ir->packing.width[n];
        uint32_t r = w == 1 ? 0 : real(s, v), narrow = w == 1   ? extract_comp(s, v, 0)
                                                       : w == 2 ? FN(s, SpvOpVectorShuffle, t_vec(s, 2), r, r, 0, 1)
                                                       : w == 3 ? FN(s, SpvOpVectorShuffle, t_vec(s, 3), r, r, 0, 1, 2)
                                                                : r;
        INS(s, S_FUNC, SpvOpStore, s->t.var_packed[n], narrow);
    } else if (in->reg_type == AGAL_REG_DEPTH) INS(s, S_FUNC, SpvOpStore, s->var_depth, extract_comp(s, v, 0));
    else if (in->reg_type == AGAL_REG_OUTPUT && s->prog->stage == AGAL_VERTEX)
        INS(s, S_FUNC, SpvOpStore, s->var_out[0], real(s, v));
    else INS(s, S_FUNC, SpvOpStore, s->var_out[out_slot(s, in->reg_num & 15)], real(s, v));
}

static void emit_list(spv *s, uint32_t l);

/* Emits IR_IF v; ends[] gets the last blocks of its then and else branches, which
 * the phis that follow it in the parent list name. */
static void emit_if(spv *s, uint32_t v, uint32_t ends[2])
{
    const agal_ir_inst *in = &s->ir->insts[v];
    uint32_t t = new_id(s), e = new_id(s), m = new_id(s);
    selection(s, s->ids[in->args[0]], m, t, e);
    emit_list(s, in->then_list);
    ends[0] = s->label;
    branch_to(s, m, e);
    emit_list(s, in->else_list);
    ends[1] = s->label;
    branch_to(s, m, m);
}

/* One instruction but a swizzle or merge (emit_list's); if_ends: the branch ends
 * of the latest IR_IF of its list. */
static void emit_inst(spv *s, const agal_ir_inst *in, uint32_t v, uint32_t if_ends[2])
{
    uint32_t id = 0, first_new = s->next_id;
    switch (in->op) {
    case IR_INPUT: id = input(s, in); break; /* one load a register, in front (opt_share_loads.c) */
    case IR_UNIFORM: id = uniform_reg(s, in->reg_num); break;
    case IR_UNIFORM_INDIRECT: id = uniform_indirect(s, in); break;
    case IR_YFLIP: id = yflip(s); break;
    case IR_EXTRACT: id = extract_inline(s, s->ids[in->args[0]], in->comp & 3u); break;
    case IR_COPY: id = s->ids[in->args[0]]; break;
    case IR_ALU: id = alu(s, in); break;
    case IR_MATRIX: id = matrix(s, in); break;
    case IR_TEX: id = texture(s, in); break;
    case IR_CMP: id = compare(s, in); break;
    case IR_IF: emit_if(s, v, if_ends); return;
    case IR_PHI:
        id = FN(s, SpvOpPhi, t_vec(s, 4), s->ids[in->args[0]], if_ends[0], s->ids[in->args[1]], if_ends[1]);
        break;
    case IR_KIL: kil(s, in); return;
    case IR_STORE: store(s, in); return;
    default: return;
    }
    s->ids[v] = id;
    /* Temporaries name their SSA values; outputs are named by their variables. */
    if (in->reg_type == AGAL_REG_TEMP && id >= first_new && !(id & VIRT)) temp_name(s, id, in->reg_num);
}

static void emit_list(spv *s, uint32_t l)
{
    uint32_t if_ends[2] = {0, 0};
    /* The list, the IR and whether lines are written in locals: every write through
     * s in emit_inst would otherwise make the compiler load them again for each item. */
    const uint32_t *items = s->ir->lists[l].items;
    const agal_ir_inst *insts = s->ir->insts;
    uint32_t n = s->ir->lists[l].n;
    bool lines = s->file != 0;
    for (uint32_t i = 0; i < n && !s->err; i++) {
        uint32_t v = items[i];
        const agal_ir_inst *in = &insts[v];
        if (lines && in->op != IR_PHI) line(s, in); /* a merge block's phis come first */
        /* Most values are swizzles and merges, most of them left virtual: made here,
         * without a call, and tested before emit_inst's switch, whose jump through
         * its table is the writer's commonest mispredicted branch. */
        if (in->op == IR_SWIZZLE || in->op == IR_MERGE) s->ids[v] = virtual_or_real(s, v, in);
        else emit_inst(s, in, v, if_ends);
    }
}

/* ---- module ----------------------------------------------------------------- */

static void xfb_decorations(spv *s)
{
    unsigned nvary = 0;
    for (unsigned i = 1; i < AGAL_COUNTOF(s->var_out); i++) nvary += s->var_out[i] != 0;
    uint32_t stride = 16 * (1 + nvary);
    for (unsigned i = 0, k = 0; i < AGAL_COUNTOF(s->var_out); i++) {
        if (!s->var_out[i]) continue;
        DECO(s, s->var_out[i], SpvDecorationXfbBuffer, 0);
        DECO(s, s->var_out[i], SpvDecorationXfbStride, stride);
        DECO(s, s->var_out[i], SpvDecorationOffset, i == 0 ? 0 : 16 * (1 + k++));
    }
}

/* A built-in variable of the interface. */
static uint32_t builtin(spv *s, unsigned storage, uint32_t type, unsigned builtin, unsigned reg_type)
{
    uint32_t var = variable(s, storage, type);
    DECO(s, var, SpvDecorationBuiltIn, builtin);
    spelled_name(s, var, reg_type);
    return var;
}

/* Every variable the program reads or writes, from the info record (info.c), as the
 * text back ends declare theirs: inputs, iid, the constant block, the samplers, then
 * the outputs (each loop stops past the highest register its mask names). */
static void interface(spv *s)
{
    const agal_ir_info *info = &s->ir->info;
    bool vertex = s->prog->stage == AGAL_VERTEX;
    unsigned in_type = vertex ? AGAL_REG_ATTRIBUTE : AGAL_REG_VARYING;
    for (unsigned n = 0; info->inputs >> n; n++)
        if (info->inputs >> n & 1) s->var_in[n] = located(s, SpvStorageClassInput, in_type, n);
    if (info->reads_iid) s->var_iid = builtin(s, SpvStorageClassInput, t_int(s), SpvBuiltInInstanceIndex, AGAL_REG_IID);
    if (info->reads_constants) const_block(s);
    for (unsigned n = 0; info->samplers >> n; n++)
        if (info->samplers >> n & 1) sampler_var(s, &info->sampler[n]);
    if (info->writes_op)
        s->var_out[0] = builtin(s, SpvStorageClassOutput, t_vec(s, 4), SpvBuiltInPosition, AGAL_REG_OUTPUT);
    unsigned outputs = vertex ? info->varyings_written : info->outputs;
    unsigned out_type = vertex ? AGAL_REG_VARYING : AGAL_REG_OUTPUT;
    for (unsigned n = 0; outputs >> n; n++)
        if (outputs >> n & 1) s->var_out[out_slot(s, n)] = located(s, SpvStorageClassOutput, out_type, n);
    for (unsigned n = 0; info->packed >> n; n++)
        if (info->packed >> n & 1)
            s->t.var_packed[n] = packed_var(s, vertex ? SpvStorageClassOutput : SpvStorageClassInput, n);
    if (info->writes_depth)
        s->var_depth = builtin(s, SpvStorageClassOutput, t_float(s), SpvBuiltInFragDepth, AGAL_REG_DEPTH);
}

/* A phi operand must exist at the end of its branch: emitted where defined. */
static void mark_eager(spv *s, uint32_t x)
{
    while (s->ir->insts[x].op == IR_COPY) x = s->ir->insts[x].args[0];
    s->virt[x] = EAGER;
}

/* What the body needs of values it meets later, in one walk of the IR (a large
 * program's IR outgrows the cache: each walk reads it from memory again): the
 * constants used, made in value order, and the phis' operands (phis follow an
 * if, which has lists of its own) marked EAGER. The IR in locals: c_vec4's stores
 * would make the compiler load it again for every value. */
static void scan_values(spv *s)
{
    const agal_ir_inst *insts = s->ir->insts;
    /* The ops looked at, as a set: most values are neither, one test each. */
    uint32_t wanted = 1u << IR_CONST | (s->ir->nlists > 1 ? 1u << IR_PHI : 0);
    for (const agal_ir_inst *in = insts + 1, *end = insts + s->ir->ninsts; in < end; in++) {
        if (!(wanted >> in->op & 1)) continue;
        if (in->op == IR_PHI) mark_eager(s, in->args[0]), mark_eager(s, in->args[1]);
        else if (in->nuses) s->ids[in - insts] = c_vec4(s, in->imm);
    }
}

static void function(spv *s)
{
    interface(s);
    uint32_t fnty = UNIQUE(s, SpvOpTypeFunction, 0, t_void(s)); /* main's, made once */
    uint32_t main_id = new_id(s);
    INS(s, S_FUNC, SpvOpFunction, t_void(s), main_id, 0, fnty);
    label(s, new_id(s));
    if (s->ns) {
        uint32_t w[AGAL_SPV_NS_MAX_WORDS];
        function_words(s, w, agal_spv_ns_function(s->ns, s->label, main_id, w));
    }
    scan_values(s);
    emit_list(s, 0);
    ins(s, S_FUNC, SpvOpReturn, NULL, 0);
    ins(s, S_FUNC, SpvOpFunctionEnd, NULL, 0);
    name(s, main_id, "main");
    if (s->indirect_fn) indirect_function(s);

    bool vertex = s->prog->stage == AGAL_VERTEX;
    /* OpEntryPoint written in place: model, main, the name "main" (two words, the
     * second its NUL), the interface. */
    uint32_t *ep = reserve(s, &s->sec[S_ENTRY], 5 + s->niface);
    if (ep) {
        ep[0] = (5u + s->niface) << 16 | SpvOpEntryPoint;
        ep[1] = vertex ? SpvExecutionModelVertex : SpvExecutionModelFragment;
        ep[2] = main_id, ep[3] = WORD4('m', 'a', 'i', 'n'), ep[4] = 0;
        memcpy(ep + 5, s->t.iface, s->niface * sizeof *ep);
    }
    if (!vertex) INS(s, S_MODE, SpvOpExecutionMode, main_id, SpvExecutionModeOriginUpperLeft);
    if (s->var_depth) INS(s, S_MODE, SpvOpExecutionMode, main_id, SpvExecutionModeDepthReplacing);
    if (s->opt->xfb && vertex) {
        INS(s, S_MODE, SpvOpExecutionMode, main_id, SpvExecutionModeXfb);
        xfb_decorations(s);
    }
}

static agal_status build_module(spv *s)
{
    s->next_id = GLSL_ID + 1;
    uint32_t ninsts = s->ir->ninsts;
    s->ids = agal_zalloc(s->ctx, ninsts * (sizeof *s->ids + 1)); /* and virt behind them: one clearing */
    s->cse = agal_zalloc(s->ctx, CSE_SLOTS * sizeof *s->cse);
    s->virt = s->ids ? (uint8_t *)(s->ids + ninsts) : NULL;
    s->comp_src = agal_alloc(s->ctx, ninsts * sizeof *s->comp_src); /* read only where written */
    if (!s->ids || !s->cse || !s->virt || !s->comp_src) return AGAL_ERR_NOMEM;
    /* The function and names sections grow with the program: sized once from its
     * live instructions (dead code can be most of a generated program), so they
     * rarely leave outgrown copies behind: measured on the corpus, 5 to 13
     * function words per live instruction, 9 on a 200-token chain, and the rest of
     * the module under 3; names under 2 but on tiny programs and straight-line
     * chains of temporaries (3 to 4), which then take module_in_place's slower way:
     * room for all of them would be a large allocation where the arena's bump block
     * had room (agal-bench's peak heap). A register's one load (the front of the
     * body, opt_share_loads.c) brings its variable or constant, its decorations and
     * name: about 9 words more, 4 of them among the globals (a constant register's
     * index, an int constant): without that room there, a program reading more
     * than about 40 constant registers took module_in_place's slower way, which
     * moves the whole function. Relative reads' offsets are float constants (4
     * words each, at most 256 of them, one a live instruction at most): room for
     * them too, added (taken from the function's room, corpus programs with
     * relative reads outgrew it). */
    size_t live = s->ir->nlive, loads = 0;
    const agal_ir_list *body = &s->ir->lists[0];
    while (loads < body->n && agal_ir_is_load(&s->ir->insts[body->items[loads]])) loads++;
    size_t offsets = s->ir->info.reads_indirect ? 4 * (live < 256 ? live : 256) : 0;
    if (!first_room(s, s->opt->pub.strip_names ? 0 : 64 + 2 * live, 64 + 10 * live + 5 * loads, 4 * loads + offsets))
        return AGAL_ERR_NOMEM;
    if (s->opt->xfb && s->prog->stage == AGAL_VERTEX) INS(s, S_CAP, SpvOpCapability, SpvCapabilityTransformFeedback);
    s->glsl = GLSL_ID; /* the front's import (front_words) */
    if (!s->opt->pub.strip_names) source(s);
    if (s->file && s->opt->pub.debug_info_nonsemantic) nonsemantic_begin(s);
    function(s);
    if (s->ns) nonsemantic_finish(s);
    if (s->err == AGAL_ERR_INTERNAL) {
        agal_status st = agal_error(s->ctx, 0, -1, -1, NULL, "internal: IR the SPIR-V emitter does not handle");
        return st == AGAL_ERR_NOMEM ? st : AGAL_ERR_INTERNAL;
    }
    if (s->err) return s->err;
    if (s->next_id > ID_LIMIT)
        return agal_error(s->ctx, 0, -1, -1, NULL, "SPIR-V id bound %u exceeds %u", s->next_id, ID_LIMIT),
               AGAL_ERR_LIMIT;
    return AGAL_OK;
}

static size_t module_size(const spv *s)
{
    size_t n = FRONT;
    for (int i = 0; i < S_COUNT; i++) n += s->sec[i].n;
    return n;
}

static size_t put_words(uint32_t *out, const uint32_t *w, size_t n)
{
    if (n) memcpy(out, w, n * sizeof *out);
    return n;
}

/* Writes the front with S_CAP's and S_IMPORT's words in it and every other section
 * but the function, which comes last, as the module's first words; returns how
 * many. */
_Static_assert(S_FUNC == S_COUNT - 1, "the function section is the module's last");
static size_t module_front(const spv *s, uint32_t *out)
{
    size_t n = put_words(out, front_words, FRONT_CAP_END);
    n += put_words(out + n, s->sec[S_CAP].w, s->sec[S_CAP].n);
    n += put_words(out + n, front_words + FRONT_CAP_END, FRONT_IMPORT_END - FRONT_CAP_END);
    n += put_words(out + n, s->sec[S_IMPORT].w, s->sec[S_IMPORT].n);
    n += put_words(out + n, front_words + FRONT_IMPORT_END, FRONT - FRONT_IMPORT_END);
    out[FRONT_BOUND] = s->next_id;
    for (int i = S_IMPORT + 1; i < S_FUNC; i++) n += put_words(out + n, s->sec[i].w, s->sec[i].n);
    return n;
}

/* The module made where the function section is: the other sections, each no
 * longer than its room, move up against it (the last first: none moves down over
 * one not yet moved), the front before them, and the function does not move. A
 * section that outgrew its room instead moves the function up behind room for
 * the rest, so no second copy of the module is ever held. */
static agal_status module_in_place(spv *s, const uint32_t **words, size_t *nwords)
{
    wbuf *f = &s->sec[S_FUNC];
    size_t body = f->n;
    if (!s->outgrown) { /* so S_CAP and S_IMPORT are empty: any word of theirs moved them out */
        uint32_t *at = f->w;
        for (int i = S_FUNC - 1; i > S_IMPORT; i--) {
            at -= s->sec[i].n;
            if (s->sec[i].n) memmove(at, s->sec[i].w, s->sec[i].n * sizeof *at);
        }
        at -= FRONT;
        memcpy(at, front_words, sizeof front_words);
        at[FRONT_BOUND] = s->next_id;
        *words = at;
        *nwords = (size_t)(f->w - at) + body;
        return AGAL_OK;
    }
    size_t front = module_size(s) - body;
    if (f->cap - body < front && !resize(s, f, body + front)) return AGAL_ERR_NOMEM;
    memmove(f->w + front, f->w, body * sizeof *f->w);
    module_front(s, f->w);
    *words = f->w;
    *nwords = front + body;
    return AGAL_OK;
}

agal_status agal_spirv_emit(agal_context *ctx, const agal_ir *ir, const agal_emit_options *opt, const uint32_t **words,
                            size_t *nwords)
{
    spv s;
    spv_init(&s, ctx, ir, opt);
    agal_status st = build_module(&s);
    return st != AGAL_OK ? st : module_in_place(&s, words, nwords);
}

agal_status agal_spirv_emit_to(agal_context *ctx, const agal_ir *ir, const agal_emit_options *opt, uint32_t *buf,
                               size_t cap, size_t *nwords)
{
    spv s;
    spv_init(&s, ctx, ir, opt);
    agal_status st = build_module(&s);
    if (st != AGAL_OK) return st;
    *nwords = module_size(&s);
    if (*nwords > cap) return AGAL_ERR_LIMIT;
    size_t front = module_front(&s, buf);
    if (s.sec[S_FUNC].n) memcpy(buf + front, s.sec[S_FUNC].w, s.sec[S_FUNC].n * sizeof *buf);
    return AGAL_OK;
}
