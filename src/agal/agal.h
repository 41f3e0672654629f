/* agal.h: the compiler core of libagal.
 *
 * libagal decodes and validates Stage3D AGAL bytecode (versions 1, 2, 3) with
 * Flash Player's error ids, and translates it to SPIR-V, GLSL 330 and GLSL ES 3.00 /
 * 1.00 (WebGL 2 / WebGL 1). It has no global mutable state: every allocation
 * belongs to an agal_context, made from an allocator hook, and every result lives
 * until agal_context_reset/free. Use one context per thread; contexts are
 * independent.
 *
 * The public headers, by audience (as Lua splits lua.h, lauxlib.h and lualib.h):
 *   <agal/agal.h>     this one: contexts, diagnostics and Flash's messages, decoding
 *                     and linking, translation and what a translation binds
 *   <agal/text.h>     the assembler, the disassembler, the opcode table, names
 *   <agal/interp.h>   the reference interpreter
 *   <agal/stage3d.h>  the Stage3D runtime kit: Program3D.upload in one call, the
 *                     sampler slots, Context3D's values, arithmetic and draw checks
 *   <agal/vulkan.h>, <agal/gl.h>   the kit mapped to each API (header-only)
 * Each includes what it builds on; all are C and C++.
 *
 * The format, its meaning, Flash Player's rules and messages, and the decisions this
 * library takes: docs/format.md and docs/decisions.md (installed under
 * share/doc/agal/). Token numbers: the API counts tokens from 0 (agal_diag.token is an index); whatever a person
 * reads (agal_diag_format, agal_flash_message, the tools) counts from 1, as Flash
 * Player's messages do.
 */
#ifndef AGAL_H
#define AGAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the public API, the only symbols the shared library exports (the library's
 * own objects are built with hidden visibility and AGAL_BUILD_LIBRARY; Lua's
 * LUA_API / LUAI_FUNC). */
#if defined(AGAL_BUILD_LIBRARY) && (defined(__GNUC__) || defined(__clang__))
#define AGAL_API __attribute__((visibility("default")))
#else
#define AGAL_API
#endif

/* T_init(): a struct that grows (see "Growing without breaking the ABI" below),
 * zeroed, with its size set: `agal_shader out = agal_shader_init();`. */
#define AGAL_STRUCT_INIT(T) \
    static inline T T##_init(void) \
    { \
        T x; \
        memset(&x, 0, sizeof x); \
        x.size = sizeof x; \
        return x; \
    }

/* ---- status, context, allocator ------------------------------------------ */

typedef enum agal_status {
    AGAL_OK = 0,
    AGAL_ERR_INVALID = 1,    /* the input breaks a rule; see the diagnostics */
    AGAL_ERR_NOMEM = 2,      /* the allocator hook returned NULL */
    AGAL_ERR_ARG = 3,        /* the caller passed something unusable */
    AGAL_ERR_LIMIT = 4,      /* an internal limit was exceeded (e.g. SPIR-V id bound) */
    AGAL_ERR_INTERNAL = 5,   /* a bug of the library: what cannot happen did (see the diagnostics) */
    AGAL_ERR_UNSUPPORTED = 6 /* the target cannot express the program (the diagnostic names what) */
} agal_status;

/* Lua-style allocator: nsize == 0 frees ptr (returns NULL); otherwise behaves like
 * realloc. osize is the size of the block ptr points to (0 when ptr is NULL). */
typedef void *(*agal_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

typedef struct agal_context agal_context;

/* alloc NULL: use the C library's malloc/realloc/free. NULL on failure. */
AGAL_API agal_context *agal_context_new(agal_alloc_fn alloc, void *ud);
/* Frees everything the context made, and the context itself. NULL is allowed. */
AGAL_API void agal_context_free(agal_context *ctx);
/* Frees every result and diagnostic made so far. The arena's blocks (at most 8 MiB,
 * what the largest program's translation needs) stay for the next work, which
 * takes them before asking the hook: translating a program of the same size again
 * makes no hook call. */
AGAL_API void agal_context_reset(agal_context *ctx);
/* Allocates from the context's arena (freed by reset/free). NULL when out of memory. */
AGAL_API void *agal_alloc(agal_context *ctx, size_t size);

/* ---- diagnostics ---------------------------------------------------------- */

typedef enum agal_stage { AGAL_VERTEX = 0, AGAL_FRAGMENT = 1 } agal_stage;

/* The operand a diagnostic is about: Flash's messages name it ("for source operand 1"). */
typedef enum agal_operand {
    AGAL_OPERAND_NONE = 0,
    AGAL_OPERAND_DEST = 1,    /* "destination operand" */
    AGAL_OPERAND_SOURCE1 = 2, /* "source operand 1" */
    AGAL_OPERAND_SOURCE2 = 3  /* "source operand 2" (also the sampler of tex/ted) */
} agal_operand;

/* One diagnostic: what the library found wrong (or, for the assembler, a warning).
 * `message` is our own explanation; agal_flash_message() gives the line Flash
 * Player would throw, from flash_id and the fields below. */
typedef struct agal_diag {
    int flash_id; /* Flash Player error id (3615...), 0 for an error Flash has no id for */
    /* The token's index in the program, COUNTING FROM 0 (-1: the header or the program
     * as a whole). People read token numbers counting from 1, as Flash prints them:
     * agal_diag_format and agal_flash_message print token + 1. */
    int token;
    long offset;         /* byte offset in the input, -1 when not applicable */
    const char *opname;  /* opcode mnemonic of that token, or NULL */
    const char *message; /* what is wrong, without file/token prefix */
    agal_stage stage;    /* the program Flash's message names (%1): the slot it was decoded for */
    uint8_t operand;     /* agal_operand: the operand Flash's message names (%2), or NONE */
    bool warning;        /* a warning, not an error (agal_assemble: text read Adobe's way) */
    /* The number Flash's message shows, where it shows one: 3620 the opcode value,
     * 3629 the token count, 3617 the highest version (3), 3664-3668 the field's value,
     * 3632/3633 the varying's number; 3615: the program's size in bytes (0: an empty
     * program, which Flash names "for  program" and throws as ArgumentError). */
    long value;
} agal_diag;

AGAL_API size_t agal_diag_count(const agal_context *ctx);
AGAL_API const agal_diag *agal_diag_get(const agal_context *ctx, size_t i);
/* "file: token 4 (mov): error 3648: vt2.y is read before it is written" (the token
 * counting from 1, the fourth token here; "warning: " for a warning). file may be
 * NULL. Returns the length snprintf would have written. */
AGAL_API int agal_diag_format(const agal_diag *d, const char *file, char *buf, size_t size);
/* Drops the diagnostics recorded so far (results stay). */
AGAL_API void agal_diag_clear(agal_context *ctx);

/* ---- Flash Player's error messages (flash.c) ------------------------------ */

/* One error Flash Player throws: its id and the values its message names. Every
 * error an emulator throws goes through it: a diagnostic's (agal_flash_error_of:
 * Program3D.upload's validation), a draw check's (<agal/stage3d.h>), and any other
 * of Context3D's, its buffers' and textures' (docs/format.md section 8), which the
 * caller fills itself: the id and the arguments as text, the rest zero, e.g.
 *     agal_flash_error e = {.id = 3683, .args = {"2048"}};
 *     agal_flash_error e = {.id = 3609};
 *     snprintf(e.args[0], sizeof e.args[0], "%d", stream); */
typedef struct agal_flash_error {
    int id; /* Flash Player's error id (3611...); 0: an error Flash has no id for */
    /* %1 .. %4 of Flash's template for the id, NUL-terminated ("" where the message
     * names none): a diagnostic's are %1 the program ("vertex", "fragment"; "" for an
     * empty one), %2 the operand ("source operand 1"), the opcode's mnemonic or the
     * number the id shows (agal_diag.value), %3 the token counting from 1, %4
     * agal_diag.value; Context3D's are numbers in decimal and parameter names. */
    char args[4][32];
    const char *message; /* id 0: what is wrong (agal_diag.message), else NULL */
} agal_flash_error;

/* The error Flash Player throws for this diagnostic (message points into d). */
AGAL_API void agal_flash_error_of(const agal_diag *d, agal_flash_error *out);
/* The text Flash Player puts in the thrown error's `message`: "Error #<id>: " and
 * Flash's template with each %k replaced by args[k - 1], e.g. "Error #3646: AGAL
 * validation failed: Can not read from output register for source operand 1 at
 * token 1 of fragment program." or "Error #3611: Stream 2 is read by the current
 * vertex program but not set."; an id the table lacks gives "Error #<id>", id 0
 * "Error: " and e->message. NUL-terminated into buf; returns the length snprintf
 * would have written. */
AGAL_API int agal_flash_message(const agal_flash_error *e, char *buf, size_t size);
/* The ActionScript class Flash throws it as: "Error", "ArgumentError" (among them an
 * empty program: 3615 with %1 empty; and 3612, a ByteArray that is not
 * little-endian, which an emulator checks itself: the bytes cannot say),
 * "RangeError" or "TypeError"; "Error" for an id the table lacks. Where Flash's class
 * is not recorded it is the one Adobe's reference gives for the condition
 * (docs/decisions.md, "Context3D"). */
AGAL_API const char *agal_flash_class(const agal_flash_error *e);
/* The line ActionScript prints for String(e): the class, ": " and the message
 * ("RangeError: Error #3669: Bad input size."). Returns snprintf's count. */
AGAL_API int agal_flash_line(const agal_flash_error *e, char *buf, size_t size);

/* ---- the opcode table ----------------------------------------------------- */

typedef enum agal_opcode {
#define AGAL_OPCODE(ID, name, hex, operands, ver, width, flags) AGAL_OP_##ID = hex,
#include "agal_opcodes.def"
#undef AGAL_OPCODE
    AGAL_OP_LIMIT = 0x2e /* one past the highest opcode */
} agal_opcode;

/* ---- programs, registers, tokens ----------------------------------------- */

/* Container (docs/format.md section 1): magic, u32 version, type id, shader type, tokens. */
enum { AGAL_MAGIC = 0xA0, AGAL_TYPE_ID = 0xA1, AGAL_HEADER_SIZE = 7, AGAL_TOKEN_SIZE = 24 };
/* The most tokens any decode accepts (lenient decoding lifts the profile's limit up
 * to here), and so the largest program: 7 + 24 * 8192 = 196615 bytes. */
enum { AGAL_MAX_TOKENS = 8192, AGAL_MAX_PROGRAM_SIZE = AGAL_HEADER_SIZE + AGAL_TOKEN_SIZE * AGAL_MAX_TOKENS };
/* Byte offset of token `index` (counting from 0) in a program, and the size of a
 * program of n tokens. */
static inline long agal_token_offset(long index) { return AGAL_HEADER_SIZE + AGAL_TOKEN_SIZE * index; }
static inline size_t agal_program_size(size_t ntokens) { return AGAL_HEADER_SIZE + AGAL_TOKEN_SIZE * ntokens; }

/* Profiles name the Stage3D profile families; by default a program's version picks
 * its profile (1 baseline, 2 standard, 3 standard extended). */
typedef enum agal_profile {
    AGAL_PROFILE_AUTO = 0,
    AGAL_PROFILE_BASELINE = 1,
    AGAL_PROFILE_STANDARD = 2,
    AGAL_PROFILE_STANDARD_EXTENDED = 3
} agal_profile;

typedef enum agal_regtype {
    AGAL_REG_ATTRIBUTE = 0, /* va */
    AGAL_REG_CONSTANT = 1,  /* vc / fc */
    AGAL_REG_TEMP = 2,      /* vt / ft */
    AGAL_REG_OUTPUT = 3,    /* op / oc */
    AGAL_REG_VARYING = 4,   /* v */
    AGAL_REG_SAMPLER = 5,   /* fs */
    AGAL_REG_DEPTH = 6,     /* fd */
    AGAL_REG_IID = 7,       /* iid */
    AGAL_REG_TYPES = 8
} agal_regtype;

/* Register count of a type for a profile and stage (0: the type does not exist there). */
AGAL_API unsigned agal_reg_count(agal_profile profile, agal_stage stage, agal_regtype type);
/* Token limit of a profile. */
AGAL_API unsigned agal_token_limit(agal_profile profile);
/* Sampler option values, as encoded. */
enum { AGAL_FMT_RGBA = 0, AGAL_FMT_DXT1 = 1, AGAL_FMT_DXT5 = 2, AGAL_FMT_VIDEO = 3 };
enum { AGAL_DIM_2D = 0, AGAL_DIM_CUBE = 1, AGAL_DIM_3D = 2 };
enum { AGAL_SPECIAL_CENTROID = 1, AGAL_SPECIAL_SINGLE = 2, AGAL_SPECIAL_IGNORESAMPLER = 4 };
enum { AGAL_WRAP_CLAMP = 0, AGAL_WRAP_REPEAT = 1, AGAL_WRAP_CLAMP_U_REPEAT_V = 2, AGAL_WRAP_REPEAT_U_CLAMP_V = 3 };
enum { AGAL_MIP_NONE = 0, AGAL_MIP_NEAREST = 1, AGAL_MIP_LINEAR = 2 };
enum {
    AGAL_FILTER_NEAREST = 0,
    AGAL_FILTER_LINEAR = 1,
    AGAL_FILTER_ANISO2X = 2,
    AGAL_FILTER_ANISO4X = 3,
    AGAL_FILTER_ANISO8X = 4,
    AGAL_FILTER_ANISO16X = 5
};

#define AGAL_SWIZZLE_IDENTITY 0xE4u
/* Component c (0..3) of a swizzle. */
static inline unsigned agal_swizzle_comp(uint8_t swizzle, unsigned c) { return (swizzle >> (2 * c)) & 3u; }

typedef struct agal_dest {
    uint8_t type; /* agal_regtype */
    uint8_t mask; /* bit 0 = x .. bit 3 = w */
    uint16_t num; /* register number */
} agal_dest;

/* A source operand. Direct: register `type` number `num`. Indirect (vc[vt2.x+5]):
 * the address is int(index register component) + num, into registers of `type`. */
typedef struct agal_source {
    uint8_t type;    /* register type read (the indexed type when indirect) */
    uint8_t swizzle; /* 2 bits per component, AGAL_SWIZZLE_IDENTITY = xyzw */
    uint16_t num;    /* register number; indirect: the constant offset (0..255) */
    bool indirect;
    uint8_t index_type; /* indirect: the index register's type */
    uint8_t index_comp; /* indirect: the index register's component 0..3 */
    uint16_t index_num; /* indirect: the index register's number */
} agal_source;

typedef struct agal_sampler {
    uint16_t num;    /* fs number */
    int8_t bias;     /* LOD bias in eighths: bias / 8.0 */
    uint8_t format;  /* AGAL_FMT_* */
    uint8_t dim;     /* AGAL_DIM_* */
    uint8_t special; /* AGAL_SPECIAL_* OR-ed */
    uint8_t wrap;    /* AGAL_WRAP_* */
    uint8_t mipmap;  /* AGAL_MIP_* */
    uint8_t filter;  /* AGAL_FILTER_* */
} agal_sampler;

/* One decoded 24-byte token:
 *
 *   byte 0       4          8                 16                24
 *        +-------+----------+-----------------+-----------------+
 *        |opcode | dest     | source 1        | source 2/sampler|
 *        | u32   | u32      | u64             | u64             |
 *        +-------+----------+-----------------+-----------------+
 *
 *   dest:    [0:15] number  [16:19] mask  [24:27] type           (rest zero)
 *   source:  [0:15] number  [16:23] indirect offset  [24:31] swizzle
 *            [32:35] type   [40:43] index type  [48:49] index component
 *            [63] indirect                                       (rest zero)
 *   sampler: [0:15] number  [16:23] bias (s8, /8)  [32:35] type (5)
 *            [40:43] format [44:47] dim  [48:51] special  [52:55] wrap
 *            [56:59] mipmap [60:63] filter                       (rest zero)
 *
 * Fields an opcode does not use are zeroed here; the raw words keep the input. */
typedef struct agal_token {
    agal_opcode op;
    agal_dest dst;  /* valid when the opcode has AGAL_OPND_D */
    agal_source a;  /* valid when AGAL_OPND_A */
    agal_source b;  /* valid when AGAL_OPND_B */
    agal_sampler s; /* valid when AGAL_OPND_S */
    uint32_t raw_op, raw_dst;
    uint64_t raw_a, raw_b;
} agal_token;

typedef struct agal_program {
    uint32_t version; /* 1, 2 or 3 */
    agal_stage stage;
    agal_profile profile; /* the profile the program was validated against */
    bool lenient;         /* validated with relaxed rules (see agal_decode_options) */
    uint32_t ntokens;
    const agal_token *tokens;
} agal_program;

/* Which of Program3D.upload's arguments a program was passed as. Flash's messages
 * name that slot ("... of fragment program."), not the program's header byte. */
typedef enum agal_slot {
    AGAL_SLOT_HEADER = 0, /* not known: name the stage the header says (vertex if unreadable) */
    AGAL_SLOT_VERTEX = 1,
    AGAL_SLOT_FRAGMENT = 2
} agal_slot;

typedef struct agal_decode_options {
    uint32_t size;        /* sizeof(agal_decode_options): agal_decode_options_init() ("ABI" below) */
    agal_profile profile; /* AGAL_PROFILE_AUTO: follow the version */
    agal_slot slot;       /* the program Flash's messages name (agal_diag.stage) */
    /* For emulators: accept what is safe to translate (docs/decisions.md, "Lenient decoding").
     * Relaxed: reads of unwritten temporaries (they read 0; 3647/3648), the token
     * limit up to AGAL_MAX_TOKENS (3629), reserved and unused bits (3654, 3636,
     * 3627, 3643), both sources constant or indirect (3625/3626), identical
     * condition operands (3758), empty branches (3748), outputs written in blocks
     * (3751), colour components written twice (3744). Everything else is still
     * refused. agal_link follows the programs' leniency. */
    bool lenient;
} agal_decode_options;
/* Defaults: the profile of the version, the header's stage, Flash's rules. */
AGAL_STRUCT_INIT(agal_decode_options)

/* Decodes and validates a program. opt may be NULL (defaults). On AGAL_OK *out is
 * the program (owned by ctx); on AGAL_ERR_INVALID the diagnostics say why (the first
 * rule broken, as Flash reports one). */
AGAL_API agal_status agal_decode(agal_context *ctx, const void *bytes, size_t size, const agal_decode_options *opt,
                                 const agal_program **out);

/* Validates a vertex + fragment pair as Program3D.upload does, in the order of
 * Flash's table: versions agree (3757), every varying the fragment program reads is
 * written by the vertex program and every varying written is written whole (3632,
 * 3633), op fully written (3635), colour outputs fully written (3634). The
 * diagnostic names the fragment program. */
AGAL_API agal_status agal_link(agal_context *ctx, const agal_program *vertex, const agal_program *fragment);

/* Encodes a token back to its 24 bytes from its decoded fields (raw words ignored). */
AGAL_API void agal_token_encode(const agal_token *t, uint8_t out[24]);

/* Bit n: some token reads register n (n < 32) of `type`, as a value or as the index
 * of a relative read; a matrix op's second source reads its rows, n + 0 .. n + 2
 * (m33, m34) or n + 3 (m44) (docs/format.md section 4). The streams a draw needs
 * (type AGAL_REG_ATTRIBUTE: Flash's 3611 and 3607), the varyings a fragment program
 * reads. Dead code counts: Flash checks what the program names. (opcodes.c) */
AGAL_API unsigned agal_program_reads(const agal_program *prog, agal_regtype type);
/* Bit n: some token writes register n (n < 32) of `type` (any component), e.g.
 * AGAL_REG_VARYING in a vertex program: the varyings it outputs. Dead code counts,
 * as for agal_program_reads. (opcodes.c) */
AGAL_API unsigned agal_program_writes(const agal_program *prog, agal_regtype type);

/* ==== translation: one entry for every target (translate.c) ================== */

/* The library's version ("0.3.0"): with the bytes and the options, all a translation
 * depends on. A persistent cache of translations may key on (version, options,
 * bytes): the same three give the same output, on every machine and in any locale.
 * A decoded program is read-only: it may be translated in another context and on
 * another thread, for as long as the context that decoded it lives. */
AGAL_API const char *agal_version(void);

/* Flash's Context3DProfile names and the register profile each means (docs/format.md
 * section 7): baseline, baselineConstrained, baselineExtended -> baseline (AGAL1);
 * standardConstrained, standard -> standard (AGAL2); standardExtended, enhanced ->
 * standard extended (AGAL3); also this library's own baseline, standard,
 * standard_extended. false for an unknown name. (stage3d.c) */
AGAL_API bool agal_profile_find(const char *name, agal_profile *out);

/* What agal_translate writes. The binding models: docs/binding-models.md. */
typedef enum agal_target {
    AGAL_TARGET_SPIRV = 0, /* SPIR-V 1.0 for Vulkan 1.0 (Shader capability) */
    AGAL_TARGET_GLSL = 1,  /* GLSL 330 core: desktop GL 3.3 */
    AGAL_TARGET_ESSL3 = 2, /* GLSL ES 3.00: WebGL 2, OpenGL ES 3.0 */
    AGAL_TARGET_ESSL1 = 3, /* GLSL ES 1.00: WebGL 1, OpenGL ES 2.0 */
    AGAL_TARGET_IR = 4,    /* the IR after the passes, as text (`agal2spv -t ir`): to read */
    AGAL_TARGET_WGSL = 5   /* WGSL: WebGPU (its own binding model: separate samplers always) */
} agal_target;

/* How op (vertex position) is mapped from Stage3D clip space (D3D-style: z in
 * [0, w], +y up). AGAL_CLIP_DEFAULT follows the target: SPIR-V negates y (Vulkan),
 * GLSL maps z to 2z - w (GL), WGSL keeps op (WebGPU's clip space is Stage3D's).
 * AGAL_CLIP_VULKAN/AGAL_CLIP_GL force one mapping,
 * AGAL_CLIP_NONE leaves op as written (the caller fixes it with viewport state).
 * AGAL_CLIP_CONTROL (GL, GL ES, WebGL) leaves op as written and has the vertex
 * program no render-to-texture flip either: the context clips as Stage3D does
 * (glClipControl, GL 4.5, or EXT_clip_control: depth GL_ZERO_TO_ONE) and turns a
 * texture's image over with the clip origin (GL_UPPER_LEFT; the back buffer
 * GL_LOWER_LEFT: agal_gl_clip_origin), which keeps each triangle's facing. A
 * fragment program's ddy still reads agal_yflip. WebGL's first draw is sooner
 * (docs/benchmark.md, "Seventeenth round"). */
typedef enum agal_clip {
    AGAL_CLIP_DEFAULT = 0,
    AGAL_CLIP_VULKAN = 1,
    AGAL_CLIP_GL = 2,
    AGAL_CLIP_NONE = 3,
    AGAL_CLIP_CONTROL = 4
} agal_clip;

/* Growing without breaking the ABI: every options struct the library reads and
 * every result struct it writes into caller memory begins with its size, which the
 * caller sets (the _init functions do: `agal_shader out = agal_shader_init();`,
 * C and C++ alike, no field left for -Wextra to warn of). A later version only appends fields; it reads
 * and writes no byte past the caller's size, and takes the default for a field the
 * caller's struct has no room for. A size of 0 (a struct zeroed, not initialised)
 * is AGAL_ERR_ARG, so a forgotten size is found at once. Records that mirror a
 * fixed format (tokens, samplers, Stage3D's state) do not grow: a new field there
 * is a new struct, or (agal_context3d_state's limits) a field appended that only
 * calls new with it read. docs/decisions.md, "ABI". */
typedef struct agal_translate_options {
    uint32_t size; /* sizeof(agal_translate_options): agal_translate_options_init() */
    agal_target target;
    agal_clip clip;
    /* Render-to-texture y flip, set by the runtime without recompiling: in every
     * vertex program but AGAL_CLIP_CONTROL's and every fragment program that takes
     * a ddy (SPIR-V: float specialization constant SpecId 0, default 1.0; GLSL:
     * `uniform float agal_yflip = 1.0;`; WGSL: `@id(0) override agal_yflip`),
     * multiplying op.y and ddy (agal_binding.yflip). Nothing to choose here. */
    bool strip_names; /* -g0: no OpName / register names in comments */
    /* SPIR-V: fs<i> as a sampled image at binding 2 + i and a sampler at binding
     * AGAL_SEPARATE_SAMPLER_BINDING + i (set 0), as wgpu/naga need, instead of a
     * combined image sampler at 2 + i. WGSL's samplers are always separate. */
    bool separate_samplers;
    /* The names the GLSL-family texts declare (NULL: ours, below); SPIR-V binds by
     * number and keeps its own debug names. */
    const struct agal_names *names;
    /* The device's limits the translation must fit (NULL: none, today's output); one
     * that cannot fit is refused, with no output (agal_limits below). */
    const struct agal_limits *limits;
    /* -g: the AGAL source in the output and a map back to it (docs/debug-info.md).
     * SPIR-V: OpString (source_name), OpSource with the program's disassembly (as
     * agaldis prints it) and OpLine before each token's code; GLSL and GLSL ES:
     * `#line N 1` before each token's statements, N the token's line in that
     * disassembly (the token's number + 2); WGSL: its comments. out->source and
     * out->source_map are set. Ignored with strip_names. */
    bool debug_info;
    const char *source_name; /* SPIR-V's OpString (NULL: "vertex.agal" / "fragment.agal") */
    /* With debug_info, when the program was assembled from text: token i's place in
     * that text (agal_assemble_text_pos), nsource_pos entries (NULL, 0: none). The
     * translation keeps a copy in out->source_pos; #line and OpLine still name the
     * disassembly's lines. */
    const struct agal_source_pos *source_pos;
    size_t nsource_pos;
    /* Appended. SPIR-V with debug_info (-gnonsemantic): also NonSemantic.Shader.
     * DebugInfo.100 (OpExtension "SPV_KHR_non_semantic_info"; a DebugSource with the
     * disassembly, main as a DebugFunction, a DebugLine beside each OpLine), which a
     * shader debugger (RenderDoc) steps through. The Vulkan device must have
     * VK_KHR_shader_non_semantic_info (core in Vulkan 1.3) enabled. Other targets
     * ignore it (docs/debug-info.md, "A shader debugger"). */
    bool debug_info_nonsemantic;
} agal_translate_options;
/* Defaults: SPIR-V, the target's clip mapping, names kept, combined samplers. */
AGAL_STRUCT_INIT(agal_translate_options)

/* Descriptor bindings (set 0) of the SPIR-V binding model (docs/binding-models.md). */
enum {
    AGAL_VC_BINDING = 0,               /* vertex constants, std140 vec4[count] */
    AGAL_FC_BINDING = 1,               /* fragment constants */
    AGAL_SAMPLER_BINDING = 2,          /* fs<i>: 2 + i (the image, with separate samplers) */
    AGAL_SEPARATE_SAMPLER_BINDING = 18 /* fs<i>'s sampler with separate samplers: 18 + i */
};

/* Names in the GLSL binding models (GLSL 330, GLSL ES 3.00, GLSL ES 1.00; docs/binding-models.md):
 * the constant blocks (GLSL ES 1.00: plain arrays named vc and fc instead) and the
 * render-to-texture flip. Samplers are the uniforms fs<i>, attributes va<i>,
 * varyings v<i>, colour outputs oc<i>: the register names. */
#define AGAL_GLSL_VC_BLOCK "agal_vc_block"
#define AGAL_GLSL_FC_BLOCK "agal_fc_block"
#define AGAL_GLSL_YFLIP "agal_yflip"
/* A pair's packed varyings (agal_upload under limits): agal_pack0, agal_pack1, ...
 * in every target (SPIR-V and WGSL also at location n); agal_binding_varying says
 * which AGAL varyings each carries. */
#define AGAL_GLSL_PACK_PREFIX "agal_pack"

/* Names a runtime with its own takes for the GLSL-family texts, so it binds our
 * output with no text rewriting (docs/binding-models.md, "Names"). A NULL member
 * keeps ours. Each name is a GLSL identifier of at most 63 characters that does not
 * start with "gl_" (AGAL_ERR_ARG otherwise); prefixes take the register number
 * ("sampler" gives sampler0). */
typedef struct agal_names {
    const char *constants[2]; /* [AGAL_VERTEX], [AGAL_FRAGMENT]: the constant arrays ("vc", "fc") */
    const char *blocks[2];    /* their std140 uniform blocks (AGAL_GLSL_VC_BLOCK, AGAL_GLSL_FC_BLOCK) */
    const char *sampler;      /* the prefix of fs<n>'s uniform ("fs") */
    const char *attribute;    /* the prefix of va<n> ("va") */
    const char *varying;      /* the prefix of v<n> ("v") */
    const char *yflip;        /* the render-to-texture flip's uniform (AGAL_GLSL_YFLIP) */
    char yflip_component;     /* 0: a float uniform; 'x', 'y', 'z' or 'w': that component of a
                                  vec4 uniform (OpenFL's vcPositionScale: 'y') */
} agal_names;

/* A device's limits, which a translation must fit (docs/binding-models.md, "Limits").
 * Each is counted from what the translation declares: a program or pair that needs
 * more is refused (AGAL_ERR_UNSUPPORTED, no output) with one diagnostic, Flash's 3613
 * ("The native shader compilation failed.", docs/decisions.md), naming the limit,
 * the need and the allowance: "fragment program: 9 texture units needed, the limits
 * allow 8 (webgl1)". A field of 0 is unlimited, so agal_limits_init() limits
 * nothing; AGAL_LIMIT_NONE says the device has none (WebGL 1's vertex texture units).
 * Varyings are declared as vec4s, one location each, so a pair needs 4 components per
 * varying until a packing pass packs them. */
#define AGAL_LIMIT_NONE UINT32_MAX
typedef struct agal_limits {
    uint32_t size;                     /* sizeof(agal_limits): agal_limits_init() */
    const char *name;                  /* named in the diagnostic ("webgl1"); NULL: none */
    uint32_t varying_vectors;          /* GL ES MAX_VARYING_VECTORS: varyings of a pair */
    uint32_t varying_components;       /* MAX_VARYING_COMPONENTS; wgpu GL's inter-stage components */
    uint32_t interstage_variables;     /* WebGPU maxInterStageShaderVariables: locations 0 .. n-1 */
    uint32_t vertex_uniform_vectors;   /* vc registers a vertex program may read (a relative */
    uint32_t fragment_uniform_vectors; /* read needs them all); fc for a fragment program */
    uint32_t vertex_texture_units;     /* samplers of a vertex program (AGAL has none) */
    uint32_t fragment_texture_units;   /* fs<n> is texture unit n: 1 + the highest fs */
    uint32_t vertex_attributes;        /* va<n> is attribute n: 1 + the highest va */
    uint32_t color_attachments;        /* oc<n> is draw buffer n: 1 + the highest oc */
} agal_limits;
AGAL_STRUCT_INIT(agal_limits)

/* Fills *out (its first out->size bytes) with a named preset (docs/binding-models.md
 * cites each one's table): "webgl1" (OpenGL ES 2.0's minimums), "webgl2" (ES 3.0's),
 * "gl33" (OpenGL 3.3 core's), "vulkan" (Vulkan 1.0's required limits), "webgpu"
 * (WebGPU's defaults), "webgpu-compat" (its compatibility mode), "wgpu-gl31" (a
 * wgpu GL device of 31 inter-stage components, wgpu's downlevel_webgl2_defaults).
 * false for another name, or out->size 0. (limits.c) */
AGAL_API bool agal_limits_preset(const char *name, agal_limits *out);
/* The i-th preset's name (from 0), NULL past the last. */
AGAL_API const char *agal_limits_preset_name(size_t i);
/* Reads limits from JSON text: one object whose keys are agal_limits' field names,
 * "name" a string and every other a count, an integer 0 .. 65535, 0 meaning the
 * device has none (AGAL_LIMIT_NONE); a key left out is unlimited. An unknown key, a
 * value of another type or out of range is AGAL_ERR_INVALID with a diagnostic;
 * out->size must be set. The name lives in ctx's arena. */
AGAL_API agal_status agal_limits_from_json(agal_context *ctx, const char *text, size_t len, agal_limits *out);

/* Extensions a GLSL ES 1.00 translation requires (its #extension lines) and a WebGL
 * 1 runtime must enable: AGAL2 features that WebGL 1 has only through them. */
enum {
    AGAL_EXT_STANDARD_DERIVATIVES = 1, /* ddx, ddy */
    AGAL_EXT_SHADER_TEXTURE_LOD = 2,   /* ted */
    AGAL_EXT_FRAG_DEPTH = 4,           /* fd */
    AGAL_EXT_DRAW_BUFFERS = 8          /* oc1..oc3 */
};
/* The extension's name: GLSL's ("GL_OES_standard_derivatives") or WebGL's
 * ("OES_standard_derivatives", for getExtension); NULL for another bit. */
AGAL_API const char *agal_extension_name(unsigned ext, bool webgl);

/* ---- what a translation binds: one description for every target ---------------- */

/* The constants a stage reads: vc (vertex) or fc (fragment), a std140 uniform block
 * (SPIR-V, GLSL, GLSL ES 3.00) or a plain `uniform vec4 vc[count]` array (ES 1.00). */
typedef struct agal_binding_block {
    agal_stage stage;
    uint32_t binding; /* SPIR-V set 0 binding; GLSL: the uniform block binding to give */
    uint32_t count;   /* vec4s declared: the profile's register count; ES 1.00: those read
                         (1 + the highest, all of them for a relative read) */
    uint32_t size;    /* bytes: 16 * count */
    const char *name; /* GLSL: the block (AGAL_GLSL_VC_BLOCK), ES 1.00: the array ("vc") */
    bool indirect;    /* read relative to an index (so the whole register file is declared) */
    /* Appended (ABI): which AGAL registers the declared vec4s hold, sorted by first.
     * One range {0, count, 0} (register n in vec4 n), except where a translation held
     * to limits remaps the constants (docs/binding-models.md, "Constant ranges"): a
     * stage whose direct reads reach past its uniform-vector limit declares only the
     * registers it reads, a range per run of them, packed from vec4 0. A relative
     * read is never remapped. agal_binding_block_gather fills the block. */
    const struct agal_binding_range *ranges;
    size_t nranges;
} agal_binding_block;

/* Registers first .. first + count - 1 (vc or fc) are the block's vec4s offset ..
 * offset + count - 1. */
typedef struct agal_binding_range {
    uint32_t first, count, offset;
} agal_binding_range;

/* The block's contents (count vec4s, size bytes) from the stage's constant file:
 * regs holds 4 floats per AGAL register (the whole file, as setProgramConstants*
 * writes it), dst receives 4 floats per declared vec4. What an upload of the block
 * (glBufferData, glUniform4fv, a mapped Vulkan or WebGPU buffer) copies from. */
static inline void agal_binding_block_gather(const agal_binding_block *b, const float *regs, float *dst)
{
    for (size_t i = 0; i < b->nranges; i++)
        memcpy(dst + 4 * (size_t)b->ranges[i].offset, regs + 4 * (size_t)b->ranges[i].first,
               16 * (size_t)b->ranges[i].count);
}

/* A sampler the fragment translation declares (a sample the passes kept). */
typedef struct agal_binding_sampler {
    uint16_t num;             /* fs<num>; GLSL: texture unit num */
    uint32_t binding;         /* SPIR-V: the combined image sampler, or the image */
    uint32_t sampler_binding; /* SPIR-V with separate samplers: the sampler; else = binding */
    const char *name;         /* GLSL: the sampler uniform ("fs0") */
    agal_sampler token;       /* the first sampling token's: dim (cube: samplerCube), format,
                                 state, special; bias 0 (each token has its own) */
    bool uses_tex, uses_ted;
} agal_binding_sampler;

typedef struct agal_binding_attribute {
    uint8_t location; /* va<location> */
    uint8_t mask;     /* components the tokens read (bit 0 = x) */
} agal_binding_attribute;

/* A varying the translation declares: written (vertex) or read (fragment). In
 * agal_upload's pair only those that connect the stages are declared, so no driver
 * warns about an unconsumed output. */
typedef struct agal_binding_varying {
    uint8_t location; /* v<location>; GLSL: matched by the name v<location> */
    bool centroid;    /* it feeds a sampler token with the centroid flag (agal_upload's pairs
                         only, not for single-sampled targets: its samples 1): declared
                         centroid, except in GLSL ES 1.00, which has no such qualifier */
    /* Packed (agal_upload under limits: docs/binding-models.md, "Where varyings go"):
     * v<location>'s components `carried` (bit 0 x: what the fragment program reads of
     * what the vertex program writes; the others read 0) went, in order, to packed
     * varying `slot` (AGAL_GLSL_PACK_PREFIX<slot>, at location slot) from its
     * component `component` on, a varying of `width` components. Unpacked: slot =
     * location, component 0, carried 15, width 4. */
    bool packed;
    uint8_t slot, component, carried, width;
} agal_binding_varying;

/* What a runtime binds for one translation: what its text or module declares.
 * Arrays in ctx's arena, sorted by number. */
typedef struct agal_binding {
    agal_target target;
    agal_stage stage;
    const agal_binding_block *constants; /* NULL when the translation reads no constant */
    const agal_binding_sampler *samplers;
    size_t nsamplers;
    const agal_binding_attribute *attributes; /* vertex */
    size_t nattributes;
    const agal_binding_varying *varyings;
    size_t nvaryings;
    uint8_t outputs; /* fragment: bit n, oc<n> written (ES 1.00: gl_FragColor, or gl_FragData[n]) */
    /* Declares the render-to-texture flip (vertex programs but AGAL_CLIP_CONTROL's,
     * and fragment programs that use ddy): SPIR-V's specialization constant 0,
     * GLSL's `uniform float agal_yflip`: 1 on screen, -1 rendering to a texture; in
     * GLSL ES, which has no uniform initializers, 0 (never set) stands for 1. */
    bool yflip;
    bool writes_depth;     /* fd: FragDepth (ES 1.00: gl_FragDepthEXT) */
    bool uses_kil;         /* kil: the fragment shader discards */
    bool uses_iid;         /* iid: InstanceIndex / gl_InstanceID */
    bool uses_derivatives; /* ddx or ddy */
    unsigned extensions;   /* AGAL_EXT_* the text enables (ES 1.00) */
} agal_binding;

/* One translation. */
typedef struct agal_shader {
    uint32_t size;         /* sizeof(agal_shader): agal_shader_init() */
    const uint32_t *words; /* SPIR-V: the module */
    size_t nwords;
    const char *text; /* GLSL, GLSL ES, IR: NUL-terminated, len bytes without the NUL */
    size_t len;
    agal_binding binding; /* what it declares (the IR target: nothing, target AGAL_TARGET_IR) */
    /* With debug_info (else NULL, 0): the program's disassembly, the text the lines
     * of the output and the map name (token i, from 0, is its line i + 3), and the
     * map from the output to the tokens, sorted by `out`. */
    const char *source;
    const struct agal_source_loc *source_map;
    size_t nsource_map;
    /* With debug_info and the options' source_pos: a copy of it (token i's place in
     * the text it was assembled from), else NULL, 0. */
    const struct agal_source_pos *source_pos;
    size_t nsource_pos;
} agal_shader;
AGAL_STRUCT_INIT(agal_shader)

/* One entry of a translation's source map: the output from `out` on, up to the next
 * entry, is the code of token `token` (from 0). `out` is a line of the text (from 1)
 * or the word offset of an instruction in the SPIR-V module (its OpLine). */
typedef struct agal_source_loc {
    uint32_t out;
    uint32_t token; /* AGAL_NO_TOKEN: code of no token (SPIR-V's OpNoLine) */
} agal_source_loc;
#define AGAL_NO_TOKEN 0xffffffffu

/* Where a token's instruction starts in the AGAL text it was assembled from: line
 * and column from 1 (the column in bytes). */
typedef struct agal_source_pos {
    uint32_t line, column;
} agal_source_pos;

/* A driver's compile or link log of shader's text or module (translated with
 * debug_info) with each error line it can place followed by a line naming the AGAL
 * token, its disassembly and its line in shader->source: "  AGAL: token 5 (line 7):
 * add vt0, va0, vc0" (with shader->source_pos "(line 7, source line 12)", the
 * line of the text it was assembled from). It reads Mesa's `0:12(5): error:`,
 * ANGLE's and glslang's `ERROR: 0:12:` (and glslang's `ERROR: file:12:`) and
 * Tint's and Dawn's `:12:5 error:`. A line it cannot place is copied as it is. NUL-terminated, in ctx's
 * arena; NULL when out of memory or an argument is NULL. (translate/debug_info.c) */
AGAL_API char *agal_map_driver_log(agal_context *ctx, const agal_shader *shader, const char *log);
/* shader's source map (debug_info) as JSON (docs/debug-info.md): {"version": 1,
 * "out": "line" or "word", "source": the disassembly, "map": [{"out", "token" (from
 * 0, null for code of none), "line" (in source), with shader->source_pos also
 * "source_line" and "source_column" (in the assembled text)}, ...]}. NULL when
 * the shader has no source or out of memory. (runtime/reflect_json.c) */
AGAL_API char *agal_source_map_json(agal_context *ctx, const agal_shader *shader);

/* Translates a decoded (validated) program for opt->target (opt NULL: the defaults
 * of agal_translate_options_init()) into *out, which lives in ctx's arena until
 * agal_context_reset/free. Every target comes from the same IR after the same
 * passes. The binding models: docs/binding-models.md. SPIR-V: `layout(set 0)`
 * uniform blocks vc / fc at AGAL_VC_BINDING / AGAL_FC_BINDING, fs<i> at
 * AGAL_SAMPLER_BINDING + i, va<i> at location i, v<i> at location i, oc<i> at
 * location i, the y flip as specialization constant 0. GLSL 330: `layout(std140)
 * uniform agal_vc_block { vec4 vc[N]; }` (fragment: agal_fc_block, fc), N the
 * profile's constant count; `uniform sampler2D fs<i>` / samplerCube; `layout(location
 * = i) in vec4 va<i>`; varyings v<i> matched by name; `layout(location = i) out vec4
 * oc<i>`; fd -> gl_FragDepth; iid -> gl_InstanceID; `uniform float agal_yflip = 1.0`.
 * GLSL ES 3.00 and 1.00: the same names (ES 1.00: constants as plain arrays of the
 * registers read, the extensions in out->binding.extensions); a program ES 1.00
 * cannot express (iid) is AGAL_ERR_UNSUPPORTED with a diagnostic naming the feature.
 * WGSL: `@group(0) @binding(0) var<uniform> vc: array<vec4f, N>` (fc: binding 1),
 * fs<i> a texture at binding 2 + i and a sampler `fs<i>_sampler` at
 * AGAL_SEPARATE_SAMPLER_BINDING + i, va<i> / v<i> / oc<i> at location i, entry
 * point `main` returning struct agal_out, `@id(0) override agal_yflip: f32 = 1.0`.
 * Thread-safe given one ctx per thread. */
AGAL_API agal_status agal_translate(agal_context *ctx, const agal_program *prog, const agal_translate_options *opt,
                                    agal_shader *out);

/* ---- reflection: what a program's tokens use (reflect.c, JSON: reflect_json.c) - */

typedef struct agal_range {
    uint16_t first, count;
} agal_range;

typedef struct agal_reflect_sampler {
    uint16_t num;   /* fs<num>: SPIR-V binding 2 + num */
    agal_sampler s; /* dimension, format, filter, mipmap, wrap, bias, special */
    bool uses_tex, uses_ted;
} agal_reflect_sampler;

/* What the program's tokens use, dead code included (an emulator's checks count
 * what the program names, as Flash's do); what one translation declares after the
 * passes is its agal_binding. */
typedef struct agal_reflection {
    uint32_t version;
    agal_stage stage;
    agal_profile profile;
    uint32_t ntokens;
    /* Constant registers read, as sorted disjoint ranges; an indirect read marks the
     * whole register file 0..count-1 (the address is only known at run time). */
    const agal_range *constants;
    size_t nconstants;
    bool constants_indirect;
    uint16_t attribute_mask[16]; /* va<i>: components read (bit 0 = x); vertex */
    uint16_t varying_mask[16];   /* v<i>: written (vertex) or read (fragment) */
    uint8_t output_mask[4];      /* op (vertex, index 0) or oc<i>: components written */
    const agal_reflect_sampler *samplers;
    size_t nsamplers; /* sorted by number */
    bool uses_derivatives, uses_kil, writes_depth, uses_iid;
    /* A translation's binding (agal_translate's out->binding), printed by
     * agal_reflect_json when set: a GLSL-family one as "gl", a WGSL one as "webgpu"
     * (its bind group layout's entries as GPUBindGroupLayoutDescriptor has them);
     * agal_reflect leaves it NULL. */
    const agal_binding *gl;
} agal_reflection;

/* Fills *out (arrays in ctx's arena). */
AGAL_API agal_status agal_reflect(agal_context *ctx, const agal_program *prog, agal_reflection *out);
/* The reflection as JSON text (NUL-terminated, in ctx's arena); NULL when out of memory. */
AGAL_API char *agal_reflect_json(agal_context *ctx, const agal_reflection *r);

#ifdef __cplusplus
}
#endif

#endif
