/* agal.h: the public API of libagal.
 *
 * libagal decodes and validates Stage3D AGAL bytecode (versions 1, 2, 3) with
 * Flash Player's error ids, and translates it to SPIR-V, GLSL 330 and GLSL ES 3.00 /
 * 1.00 (WebGL 2 / WebGL 1). It has no global mutable state: every allocation
 * belongs to an agal_context, made from an allocator hook, and every result lives
 * until agal_context_reset/free. Use one context per thread; contexts are
 * independent.
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

/* The text Flash Player puts in the thrown error's `message` for this diagnostic,
 * e.g. "Error #3646: AGAL validation failed: Can not read from output register for
 * source operand 1 at token 1 of fragment program." Flash's template for d->flash_id
 * (agal_flash_template) with %1 the program (vertex/fragment: d->stage), %2 the
 * operand or the id's number (see agal_diag.value), %3 the token counting from 1,
 * %4 d->value. A diagnostic without a Flash id gives "Error: " and our message.
 * NUL-terminated into buf; returns the length snprintf would have written. */
AGAL_API int agal_flash_message(const agal_diag *d, char *buf, size_t size);
/* The ActionScript class Flash throws it as: "ArgumentError" for an empty program
 * (3615 with value 0) and for a ByteArray that is not little-endian (3612, which an
 * emulator checks itself: the bytes cannot say), "Error" for everything else. */
AGAL_API const char *agal_flash_class(const agal_diag *d);
/* Flash's message template for an id ("AGAL validation failed: Opcode %2 only
 * allowed in fragment programs at token %3 of %1 program."), without the
 * "Error #id: " prefix; NULL for an id the table does not have (it has every id of
 * Program3D.upload and the Context3D errors below). */
AGAL_API const char *agal_flash_template(int flash_id);

/* Context3D's own errors, and those of its buffers and textures (docs/format.md
 * section 8): what a runtime throws for a call Flash rejects, e.g. #3692 for a draw
 * before the frame's clear. agal_flash_error_message writes the line Flash puts in
 * `e.message` ("Error #3611: Stream 2 is read by the current vertex program but not
 * set."), each %k of the template replaced by args[k - 1] (a missing or NULL
 * argument by nothing); an id the table lacks gives "Error #<id>". Returns the
 * length snprintf would have written. agal_flash_error_class names the class Flash
 * throws it as ("Error", "ArgumentError", "RangeError", "TypeError"; AS3 prints
 * String(e) as "RangeError: Error #3669: Bad input size."), NULL for an unknown id.
 * Where Flash's class is not recorded it is the one Adobe's reference gives for the
 * condition (docs/decisions.md, "Context3D"). */
AGAL_API int agal_flash_error_message(int flash_id, const char *const *args, size_t nargs, char *buf, size_t size);
AGAL_API const char *agal_flash_error_class(int flash_id);

/* ---- the opcode table ----------------------------------------------------- */

/* Which token fields an opcode uses. */
enum {
    AGAL_OPND_D = 1, /* destination */
    AGAL_OPND_A = 2, /* source 1 */
    AGAL_OPND_B = 4, /* source 2 */
    AGAL_OPND_S = 8, /* sampler in the source-2 field */
    AGAL_OPND_NONE = 0,
    AGAL_OPND_DA = AGAL_OPND_D | AGAL_OPND_A,
    AGAL_OPND_DAB = AGAL_OPND_D | AGAL_OPND_A | AGAL_OPND_B,
    AGAL_OPND_DAS = AGAL_OPND_D | AGAL_OPND_A | AGAL_OPND_S,
    AGAL_OPND_AB = AGAL_OPND_A | AGAL_OPND_B
};

enum {
    AGAL_OPF_CW = 1 << 0,       /* componentwise: result component c from source component c */
    AGAL_OPF_NO_W = 1 << 1,     /* destination mask must exclude w (3628) */
    AGAL_OPF_SCALAR = 1 << 2,   /* sources need a scalar swizzle (3703) */
    AGAL_OPF_FRAGMENT = 1 << 3, /* fragment programs only (3622) */
    AGAL_OPF_IF = 1 << 4,       /* opens a block */
    AGAL_OPF_ELSE = 1 << 5,     /* else of the innermost block */
    AGAL_OPF_ENDIF = 1 << 6,    /* closes the innermost block */
    AGAL_OPF_DERIV = 1 << 7,    /* screen-space derivative */
    AGAL_OPF_TEXTURE = 1 << 8,  /* samples a texture */
    AGAL_OPF_ROWS3 = 1 << 9,    /* source B is a 3-row matrix */
    AGAL_OPF_ROWS4 = 1 << 10    /* source B is a 4-row matrix */
};

typedef enum agal_opcode {
#define AGAL_OPCODE(ID, name, hex, operands, ver, width, flags, ...) AGAL_OP_##ID = hex,
#include "agal_opcodes.def"
#undef AGAL_OPCODE
    AGAL_OP_LIMIT = 0x2e /* one past the highest opcode */
} agal_opcode;

typedef struct agal_opinfo {
    const char *name;    /* mnemonic, NULL for an invalid opcode value */
    uint8_t code;        /* hex value */
    uint8_t operands;    /* AGAL_OPND_* */
    uint8_t min_version; /* 1 or 2 */
    uint8_t width;       /* components of A read by dot/matrix/vector ops, else 0 */
    uint16_t flags;      /* AGAL_OPF_* */
} agal_opinfo;

/* The row for an opcode value, or NULL when the value is not an opcode. */
AGAL_API const agal_opinfo *agal_opinfo_get(uint32_t code);
/* Looks up a mnemonic (case-sensitive, as Adobe's assembler); NULL if unknown. */
AGAL_API const agal_opinfo *agal_opinfo_find(const char *name, size_t len);
/* Rows of a matrix operand B (3 or 4), 0 for non-matrix opcodes. */
AGAL_API unsigned agal_opinfo_rows(const agal_opinfo *info);

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
/* The register's AGAL name for a stage: "va", "vc", "vt", "op", "v", "fc", "ft", "oc",
 * "fs", "fd", "iid"; NULL for a type the stage does not have. */
AGAL_API const char *agal_reg_name(agal_stage stage, agal_regtype type);

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

/* The sampler's option fields, and the name of each value: one spelling each, as
 * agaldis writes them and the reflection names them ("dxt1", "cube", "centroid",
 * "repeat", "miplinear", "anisotropic4x"); agal_assemble also reads Adobe's
 * aliases (compressed, compressedalpha, nomip, wrap). For AGAL_SMP_SPECIAL the
 * value is the flag's bit number (0 centroid, 1 single, 2 ignoresampler). */
typedef enum agal_sampler_field {
    AGAL_SMP_FORMAT,
    AGAL_SMP_DIM,
    AGAL_SMP_SPECIAL,
    AGAL_SMP_WRAP,
    AGAL_SMP_MIPMAP,
    AGAL_SMP_FILTER,
    AGAL_SMP_FIELDS
} agal_sampler_field;
/* NULL for a value with no name. */
AGAL_API const char *agal_sampler_option_name(agal_sampler_field field, unsigned value);
/* The field and value a name stands for; false when it names none. */
AGAL_API bool agal_sampler_option_find(const char *name, size_t len, agal_sampler_field *field, unsigned *value);

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

/* ==== assembler and disassembler (assemble.c, disassemble.c) =============== */

enum {
    AGAL_ASM_STRICT = 1 /* what Adobe's assembler ignores or reads its own way is an error, not a warning */
};

/* Assembles AGAL text in Adobe's AGALMiniAssembler syntax (docs/format.md section 6) into a
 * program: header (magic, version as given, 0xA1, stage) then one token a line.
 * Each line is read as Adobe's assembler reads it, and for every text it accepts
 * the bytes are its bytes. Where it ignores text or reads it its own way (a line
 * without a known mnemonic is skipped, `ft3.xytz` is ft3.xy, `ft1,xy` is ft1, a
 * missing comma, an unknown sampler option read as the LOD bias) the result is
 * still AGAL_OK, with a warning diagnostic (agal_diag.warning) saying what was
 * ignored; with AGAL_ASM_STRICT in flags the first such is an error instead. A
 * line Adobe's assembler refuses is encoded in the project's syntax where that
 * reads it (registers past Adobe's limits or of the other stage, opcodes of a later
 * version, any register indexed: `fc[ft0.x+1]`), else it is an error. Every
 * diagnostic is "line L, column C: ..." with flash_id 0, token -1 and offset the
 * byte offset in text. It encodes only: Flash's rules are agal_decode's. *bytes
 * lives in ctx. */
AGAL_API agal_status agal_assemble(agal_context *ctx, const char *text, size_t len, agal_stage stage, uint32_t version,
                                   unsigned flags, const uint8_t **bytes, size_t *size);

/* Reads the header comments of an .agal file: leading comment lines
 * `// stage: vertex|fragment` and `// agal-version: 1|2|3` (before the first
 * instruction). Absent ones leave *stage = -1, *version = 0. A malformed value is a
 * diagnostic (AGAL_ERR_INVALID). */
AGAL_API agal_status agal_asm_header(agal_context *ctx, const char *text, size_t len, int *stage, uint32_t *version);

/* Assembles an .agal text with its header comments in one call. On entry *stage
 * (-1: none) and *version (0: none) are the caller's choice, which wins; where the
 * caller gives none, the `// stage:` and `// agal-version:` comments decide; with no
 * comment either, the version is 1 and a missing stage is AGAL_ERR_INVALID (a
 * diagnostic, *stage left -1). On return *stage and *version are what the text was
 * assembled as. Otherwise as agal_assemble (flags, *bytes in ctx). */
AGAL_API agal_status agal_assemble_text(agal_context *ctx, const char *text, size_t len, unsigned flags, int *stage,
                                        uint32_t *version, const uint8_t **bytes, size_t *size);

enum {
    AGAL_DIS_TOKENS = 1, /* after each instruction, a comment with the token's raw fields */
    AGAL_DIS_STRICT = 2  /* fail (AGAL_ERR_INVALID) on a token the syntax cannot express */
};

/* Disassembles raw program bytes to text agal_assemble turns back into the same
 * bytes. It starts with the header comments (`// agal-version:`, `// stage:`).
 * Works on anything with a 7-byte header, valid or not: a token the syntax cannot
 * express (unknown opcode, reserved bits, unused fields not zero) becomes a comment
 * line saying why, or an error with AGAL_DIS_STRICT. *text lives in ctx. */
AGAL_API agal_status agal_disassemble(agal_context *ctx, const void *bytes, size_t size, unsigned flags,
                                      const char **text);
/* The same from a decoded program (its tokens' raw words). */
AGAL_API agal_status agal_disassemble_program(agal_context *ctx, const agal_program *prog, unsigned flags,
                                              const char **text);

/* ==== interpreter (interp.c, texture.c) ==================================== */

/* The reference interpreter: the oracle every backend is compared with. It runs a
 * decoded program in float32 over invocations (vertex: one at a time; fragment:
 * 2x2 quads, so ddx/ddy and the implicit texture LOD are exact differences inside
 * the quad) and samples textures in software. Conventions (fine derivatives, LOD
 * formula, texel centres, cube faces, NaN rules, killed lanes): the comments at
 * the top of interp.c and texture.c. It allocates nothing (only diagnostics go to
 * ctx) and never fails on a program agal_decode accepted; unexpected register
 * numbers read 0 and are not written, so no program can make it crash. */

enum {
    AGAL_INTERP_MAX_INPUTS = 16, /* va0..va15 (AGAL3); fragment varyings use v0..v9 */
    AGAL_INTERP_MAX_VARYINGS = 10,
    AGAL_INTERP_MAX_COLORS = 4,
    AGAL_INTERP_MAX_TEMPS = 26
};

/* A texture bound to sampler fs<sampler>, as float RGBA texels (the token's format
 * field, dxt1/dxt5/video, is ignored: the caller passes decoded texels).
 * images[level * faces + face] (faces = 1 for 2D, 6 for cube in the order +x, -x,
 * +y, -y, +z, -z) points at max(1, width >> level) * max(1, height >> level) texels
 * of 4 floats, row-major; texel (i, j) is at index j * w + i and its centre at
 * s = (i + 0.5) / w, t = (j + 0.5) / h: row 0 is t = 0 (the first row uploaded). */
typedef struct agal_texture {
    unsigned sampler;       /* fs number */
    uint8_t dim;            /* AGAL_DIM_2D or AGAL_DIM_CUBE (must match the token's) */
    uint32_t width, height; /* level 0; a cube has width == height */
    uint32_t levels;        /* mip levels given, 1 .. floor(log2(max(width, height))) + 1 */
    const float *const *images;
} agal_texture;

/* What every invocation shares: the constants (vc or fc; registers at or past
 * nconstants read 0), the textures (at most one per sampler number) and the
 * sampler slots they are sampled through. */
typedef struct agal_interp_env {
    const float (*constants)[4];
    size_t nconstants;
    const agal_texture *textures;
    size_t ntextures;
    /* The Context3D's sampler slots at the draw (agal_sampler_slots, "the runtime"
     * below): every tex and ted samples with agal_slots_resolve(slots, token), its
     * wrap, filter and mipmap from the slot, the rest from the token, as Flash does.
     * NULL: a new Context3D after setProgram of this program (agal_slots_init, then
     * agal_slots_set_program), so a token without ignoresampler samples with its
     * own state and one with ignoresampler with clamp, nearest, mipnone. */
    const struct agal_sampler_slots *slots;
    /* false (the reference): fine derivatives, each lane differences its own row
     * (ddx) and column (ddy). true: coarse, every lane of the quad takes the top
     * row's ddx and the left column's ddy, for comparing with a GPU whose dFdx/OpDPdx
     * is coarse. Applies to ddx/ddy and to tex's implicit LOD. */
    bool coarse_derivatives;
} agal_interp_env;

/* One invocation's inputs: vertex attributes va<i> = in[i] and the instance id
 * (iid reads (id, id, id, id)); fragment varyings v<i> = in[i]. */
typedef struct agal_interp_invocation {
    float in[AGAL_INTERP_MAX_INPUTS][4];
    uint32_t instance_id;
} agal_interp_invocation;

/* One invocation's outputs. Registers the program never writes stay 0; which ones
 * it writes: agal_interp_written. killed: a fragment whose kil fired (its other
 * fields are what it computed while it kept running as a helper lane). */
typedef struct agal_interp_result {
    float op[4];                          /* vertex position */
    float v[AGAL_INTERP_MAX_VARYINGS][4]; /* vertex varyings */
    float oc[AGAL_INTERP_MAX_COLORS][4];  /* fragment colours */
    float fd;                             /* fragment depth */
    bool killed;
} agal_interp_result;

/* Runs prog over n invocations in[0..n-1], writing out[0..n-1]. Fragment programs
 * need n to be a multiple of 4: each 4 consecutive invocations form a 2x2 quad in
 * the order top-left, top-right, bottom-left, bottom-right. Returns AGAL_ERR_ARG
 * (with a diagnostic) for a bad call: n, a missing texture or one of the wrong
 * dimension, an inconsistent texture description, a slot holding a value no
 * AGAL_WRAP_* / AGAL_FILTER_* / AGAL_MIP_* names; AGAL_ERR_INVALID for broken block
 * structure (which agal_decode never lets through). Outputs are the raw AGAL values:
 * no clip-space fix is applied to op. */
AGAL_API agal_status agal_interp_run(agal_context *ctx, const agal_program *prog, const agal_interp_env *env,
                                     const agal_interp_invocation *in, size_t n, agal_interp_result *out);

/* Bit i set: the program writes register i of that type (any component) anywhere,
 * e.g. type AGAL_REG_VARYING in a vertex program gives the varyings it outputs. */
AGAL_API unsigned agal_interp_written(const agal_program *prog, agal_regtype type);
/* Bit n: some token reads register n (n < 32) of `type`, as a value or as the index
 * of a relative read; a matrix op's second source reads its rows, n + 0 .. n + 2
 * (m33, m34) or n + 3 (m44) (docs/format.md section 4). The streams a draw needs
 * (type AGAL_REG_ATTRIBUTE: Flash's 3611 and 3607), the varyings a fragment program
 * reads. Dead code counts: Flash checks what the program names. (opcodes.c) */
AGAL_API unsigned agal_program_reads(const agal_program *prog, agal_regtype type);

/* Checks a texture description (dimension, sizes, level count, images present);
 * AGAL_ERR_INVALID with a diagnostic when it is unusable. */
AGAL_API agal_status agal_texture_check(agal_context *ctx, const agal_texture *tex);

/* Samples tex at coord (s, t for 2D; direction x, y, z for cube) at level of detail
 * lambda (log2 of the texel footprint, bias included), with the wrap, filter and
 * mipmap of state (a resolved sampler: agal_slots_resolve). out receives RGBA. */
AGAL_API void agal_texture_sample(const agal_texture *tex, const agal_sampler *state, const float coord[3],
                                  float lambda, float out[4]);

/* The unbiased LOD of lane (0..3) of a 2x2 quad whose coordinates are coords[0..3]
 * (quad order as agal_interp_run), from fine (or coarse) derivatives scaled by the
 * level-0 size; for a cube, of the face coordinates by the chain rule on the lane's
 * own face (texture.c). */
AGAL_API float agal_texture_quad_lod(const agal_texture *tex, const float coords[4][4], unsigned lane, bool coarse);

/* ==== IR, translation and reflection (ir.c, spirv.c, glsl.c, reflect.c) ===== */

/* How op (vertex position) is mapped from Stage3D clip space (D3D-style: z in
 * [0, w], +y up). AGAL_CLIP_DEFAULT follows the target: SPIR-V negates y (Vulkan),
 * GLSL maps z to 2z - w (GL). AGAL_CLIP_VULKAN/AGAL_CLIP_GL force one mapping,
 * AGAL_CLIP_NONE leaves op as written (the caller fixes it with viewport state). */
typedef enum agal_clip { AGAL_CLIP_DEFAULT = 0, AGAL_CLIP_VULKAN = 1, AGAL_CLIP_GL = 2, AGAL_CLIP_NONE = 3 } agal_clip;

typedef struct agal_translate_options {
    agal_clip clip;
    /* Render-to-texture y flip, set by the runtime without recompiling: always
     * present (SPIR-V: float specialization constant SpecId 0, default 1.0; GLSL:
     * `uniform float agal_yflip = 1.0;`), multiplying op.y. Nothing to choose here. */
    bool strip_names; /* -g0: no OpName / register names in comments */
    /* SPIR-V: fs<i> as a sampled image at binding 2 + i and a sampler at binding
     * AGAL_SEPARATE_SAMPLER_BINDING + i (set 0), as wgpu/naga need, instead of a
     * combined image sampler at 2 + i. */
    bool separate_samplers;
} agal_translate_options;

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

/* Translates a decoded (validated) program to SPIR-V 1.0 for Vulkan 1.0 (Shader
 * capability). opt may be NULL (defaults). *words (nwords 32-bit words) lives in
 * ctx's arena until agal_context_reset/free. Thread-safe given one ctx per thread. */
AGAL_API agal_status agal_translate_spirv(agal_context *ctx, const agal_program *prog,
                                          const agal_translate_options *opt, const uint32_t **words, size_t *nwords);
/* Same, into caller memory: writes at most cap words to buf and sets *nwords to the
 * module's size; AGAL_ERR_LIMIT (and nothing useful in buf) when cap is too small. */
AGAL_API agal_status agal_translate_spirv_to(agal_context *ctx, const agal_program *prog,
                                             const agal_translate_options *opt, uint32_t *buf, size_t cap,
                                             size_t *nwords);

/* The program's IR as text (what `agal2spv -t ir` prints), in ctx's arena. */
AGAL_API agal_status agal_translate_ir_text(agal_context *ctx, const agal_program *prog, const char **text);

/* What a program uses, for a runtime's resource binding. */
typedef struct agal_range {
    uint16_t first, count;
} agal_range;

typedef struct agal_reflect_sampler {
    uint16_t num;   /* fs<num>: SPIR-V binding 2 + num */
    agal_sampler s; /* dimension, format, filter, mipmap, wrap, bias, special */
    bool uses_tex, uses_ted;
} agal_reflect_sampler;

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
    /* What a GL or WebGL runtime binds for one GLSL translation of the program
     * (agal_reflect_gl), printed by agal_reflect_json as "gl" when set; agal_reflect
     * leaves it NULL. */
    const struct agal_gl_binding *gl;
} agal_reflection;

/* Fills *out (arrays in ctx's arena). */
AGAL_API agal_status agal_reflect(agal_context *ctx, const agal_program *prog, agal_reflection *out);
/* The reflection as JSON text (NUL-terminated, in ctx's arena); NULL when out of memory. */
AGAL_API char *agal_reflect_json(agal_context *ctx, const agal_reflection *r);

/* Translates a decoded (validated) program to GLSL 330 core (glsl.c), from the same
 * IR as the SPIR-V, in the GL binding model (docs/binding-models.md, "GLSL 330 binding model"):
 * `layout(std140) uniform agal_vc_block { vec4 vc[N]; }` (fragment: agal_fc_block,
 * fc), N the profile's constant count, bound with glUniformBlockBinding; samplers
 * `uniform sampler2D fs<i>` / samplerCube; `layout(location = i) in vec4 va<i>`;
 * varyings `out`/`in vec4 v<i>` matched by name; `layout(location = i) out vec4
 * oc<i>`; fd -> gl_FragDepth; iid -> gl_InstanceID; `uniform float agal_yflip = 1.0`
 * multiplies gl_Position.y (the runtime sets -1.0 to render to a texture).
 * opt->clip: AGAL_CLIP_DEFAULT/GL map z to 2z - w, AGAL_CLIP_VULKAN negates y,
 * AGAL_CLIP_NONE leaves op; opt->strip_names (-g0) drops the comments naming each
 * AGAL token. opt may be NULL. *text is NUL-terminated, *len bytes without the NUL
 * (len may be NULL), in ctx's arena until agal_context_reset/free. */
AGAL_API agal_status agal_translate_glsl(agal_context *ctx, const agal_program *prog, const agal_translate_options *opt,
                                         const char **text, size_t *len);

/* ==== the runtime: Program3D.upload in one call (upload.c), sampler slots (slots.c) === */

/* Flash's Context3DProfile names and the register profile each means (docs/format.md
 * section 7): baseline, baselineConstrained, baselineExtended -> baseline (AGAL1);
 * standardConstrained, standard -> standard (AGAL2); standardExtended, enhanced ->
 * standard extended (AGAL3); also this library's own baseline, standard,
 * standard_extended. false for an unknown name. (stage3d.c) */
AGAL_API bool agal_profile_find(const char *name, agal_profile *out);

/* The library's version ("0.2.0"): with the bytes and the options, all a translation
 * depends on. A persistent cache of translations may key on (version, options,
 * bytes): the same three give the same output, on every machine and in any locale.
 * A decoded program is read-only: it may be translated in another context and on
 * another thread, for as long as the context that decoded it lives. */
AGAL_API const char *agal_version(void);

typedef enum agal_target {
    AGAL_TARGET_SPIRV = 0, /* SPIR-V 1.0 for Vulkan 1.0 (agal_translate_spirv) */
    AGAL_TARGET_GLSL = 1,  /* GLSL 330 core (agal_translate_glsl) */
    AGAL_TARGET_ESSL3 = 2, /* GLSL ES 3.00: WebGL 2, OpenGL ES 3.0 (agal_translate_essl) */
    AGAL_TARGET_ESSL1 = 3  /* GLSL ES 1.00: WebGL 1, OpenGL ES 2.0 (agal_translate_essl) */
} agal_target;

typedef struct agal_upload_options {
    agal_target target;
    agal_profile profile; /* AGAL_PROFILE_AUTO: by each program's version */
    bool lenient;         /* agal_decode_options.lenient, for both programs */
    agal_clip clip;       /* as agal_translate_options */
    bool strip_names;
    bool separate_samplers;
    /* Both ByteArrays were not little-endian (kept from 0.2; the two flags below say
     * it of each): Flash throws 3612 (an ArgumentError) for such a ByteArray before
     * reading a byte, but only after an empty one's 3615 (recorded: an empty `new
     * ByteArray()`, big-endian by default, is 3615). */
    bool big_endian;
    /* Each ByteArray's own endian flag (`ByteArray.endian != Endian.LITTLE_ENDIAN`),
     * checked in Flash's order: the vertex program's emptiness, its endianness, its
     * bytes, then the fragment program's. */
    bool vertex_big_endian, fragment_big_endian;
    /* The profile the Context3D was created with (agal_profile_find maps
     * Context3DProfile's names), or AGAL_PROFILE_AUTO for none: a program whose AGAL
     * version that profile does not take (baseline 1, standard 2, standard extended 3)
     * is Flash's 3725, checked before either program is validated, the vertex program
     * first (the replay's recorded order: docs/decisions.md). This is not `profile`,
     * which sets the register limits the programs are validated against. */
    agal_profile context_profile;
} agal_upload_options;

/* The constants the pair reads: vc (vertex) or fc (fragment), a std140 uniform block
 * (SPIR-V, GLSL, GLSL ES 3.00) or a plain `uniform vec4 vc[count]` array (ES 1.00). */
typedef struct agal_upload_block {
    agal_stage stage;
    uint32_t binding; /* SPIR-V set 0 binding; GLSL: the uniform block binding to give */
    uint32_t count;   /* vec4s declared: the profile's register count; ES 1.00: those read
                         (1 + the highest, all of them for a relative read) */
    uint32_t size;    /* bytes: 16 * count */
    const char *name; /* GLSL: the block (AGAL_GLSL_VC_BLOCK), ES 1.00: the array ("vc") */
} agal_upload_block;

/* A sampler of the fragment program. */
typedef struct agal_upload_sampler {
    uint16_t num;             /* fs<num>; GLSL: texture unit num */
    uint32_t binding;         /* SPIR-V: the combined image sampler, or the image */
    uint32_t sampler_binding; /* SPIR-V with separate samplers: the sampler; else = binding */
    const char *name;         /* GLSL: the sampler uniform ("fs0") */
    agal_sampler token;       /* as the token gives it: dim, format, state, bias, special */
    bool uses_tex, uses_ted;
} agal_upload_sampler;

typedef struct agal_upload_attribute {
    uint8_t location; /* va<location> */
    uint8_t mask;     /* components read (bit 0 = x) */
} agal_upload_attribute;

/* A varying that connects the stages: written by the vertex program and read by the
 * fragment program after optimization. Only these are outputs of the vertex
 * shader, so no driver warns about an unconsumed output. */
typedef struct agal_upload_varying {
    uint8_t location; /* v<location>; GLSL: matched by the name v<location> */
    bool centroid;    /* it feeds a sampler token with the centroid flag */
} agal_upload_varying;

typedef struct agal_upload_code {
    const uint32_t *words; /* SPIR-V */
    size_t nwords;
    const char *text; /* GLSL, NUL-terminated */
    size_t len;
} agal_upload_code;

typedef struct agal_upload_result {
    agal_target target; /* the options' */
    const agal_program *vertex, *fragment;
    agal_upload_code code[2]; /* [AGAL_VERTEX], [AGAL_FRAGMENT] */
    agal_upload_block blocks[2];
    size_t nblocks; /* the blocks the pair reads (vc first) */
    const agal_upload_sampler *samplers;
    size_t nsamplers; /* sorted by number */
    const agal_upload_attribute *attributes;
    size_t nattributes; /* sorted by location */
    const agal_upload_varying *varyings;
    size_t nvaryings; /* sorted by location */
    bool writes_depth, uses_kil, uses_iid, uses_derivatives;
    unsigned extensions; /* GLSL ES 1.00: the AGAL_EXT_* to enable */
} agal_upload_result;

/* Program3D.upload: decodes the vertex and the fragment program (both under opt's
 * profile and leniency), links them, translates both for opt->target and returns
 * one binding layout, all in ctx's arena. The first failure is the one Flash
 * reports: 3725 (opt->context_profile), then the vertex program's, then the fragment
 * program's, then the linkage's (agal_flash_message gives Flash's line). The
 * context's diagnostics are cleared first, so agal_diag_get(ctx, 0) after a failed
 * upload is the upload's own error. opt may be NULL. */
AGAL_API agal_status agal_upload(agal_context *ctx, const void *vertex, size_t vertex_size, const void *fragment,
                                 size_t fragment_size, const agal_upload_options *opt, agal_upload_result *out);

/* ---- sampler slots ----------------------------------------------------------
 * Flash keeps a sampler state (wrap, filter, mipmap) per slot; a draw samples with
 * the slot's state (docs/format.md section 7). setProgram writes the token's state
 * into every slot whose token lacks ignoresampler (slots of ignoresampler tokens keep
 * what they hold); setSamplerStateAt writes a slot at any time and lasts until the
 * next write; a slot never written holds clamp, nearest, mipnone. The token's
 * format, dimension, LOD bias and special flags always come from the token. */
typedef struct agal_sampler_state {
    uint8_t wrap, filter, mipmap; /* AGAL_WRAP_*, AGAL_FILTER_*, AGAL_MIP_* */
} agal_sampler_state;

enum { AGAL_SAMPLER_SLOTS = 16 };

typedef struct agal_sampler_slots {
    agal_sampler_state slot[AGAL_SAMPLER_SLOTS];
} agal_sampler_slots;

/* Every slot clamp, nearest, mipnone (a new Context3D). */
AGAL_API void agal_slots_init(agal_sampler_slots *slots);
/* Context3D.setProgram of a pair whose fragment program is `fragment`. */
AGAL_API void agal_slots_set_program(agal_sampler_slots *slots, const agal_program *fragment);
/* Context3D.setSamplerStateAt(slot, wrap, filter, mipfilter). Out-of-range values
 * and slots are ignored (the caller's AS3 layer throws for them). */
AGAL_API void agal_slots_set_state(agal_sampler_slots *slots, unsigned slot, agal_sampler_state state);
/* The sampler a draw samples token with: its wrap, filter and mipmap from the slot,
 * the rest from the token. */
AGAL_API agal_sampler agal_slots_resolve(const agal_sampler_slots *slots, const agal_sampler *token);

/* ==== Context3D's values (stage3d.c) ==========================================
 * The string constants of flash.display3D's enumeration classes, as C enums: what
 * an emulator's AS3 layer passes to setBlendFactors, setDepthTest, setStencilActions,
 * setCulling, setVertexBufferAt and createTexture. <agal/vulkan.h> and <agal/gl.h>
 * map them (and a resolved sampler) to each API; agal_stage3d_find turns the AS3
 * strings into them. */

typedef enum agal_blend_factor { /* Context3DBlendFactor */
                                 AGAL_BLEND_ZERO,
                                 AGAL_BLEND_ONE,
                                 AGAL_BLEND_SOURCE_COLOR,
                                 AGAL_BLEND_ONE_MINUS_SOURCE_COLOR,
                                 AGAL_BLEND_SOURCE_ALPHA,
                                 AGAL_BLEND_ONE_MINUS_SOURCE_ALPHA,
                                 AGAL_BLEND_DESTINATION_COLOR,
                                 AGAL_BLEND_ONE_MINUS_DESTINATION_COLOR,
                                 AGAL_BLEND_DESTINATION_ALPHA,
                                 AGAL_BLEND_ONE_MINUS_DESTINATION_ALPHA
} agal_blend_factor;

typedef enum agal_compare_mode { /* Context3DCompareMode (depth and stencil tests) */
                                 AGAL_COMPARE_NEVER,
                                 AGAL_COMPARE_LESS,
                                 AGAL_COMPARE_EQUAL,
                                 AGAL_COMPARE_LESS_EQUAL,
                                 AGAL_COMPARE_GREATER,
                                 AGAL_COMPARE_NOT_EQUAL,
                                 AGAL_COMPARE_GREATER_EQUAL,
                                 AGAL_COMPARE_ALWAYS
} agal_compare_mode;

typedef enum agal_stencil_action { /* Context3DStencilAction */
                                   AGAL_STENCIL_KEEP,
                                   AGAL_STENCIL_ZERO,
                                   AGAL_STENCIL_SET,
                                   AGAL_STENCIL_INCREMENT_SATURATE,
                                   AGAL_STENCIL_DECREMENT_SATURATE,
                                   AGAL_STENCIL_INVERT,
                                   AGAL_STENCIL_INCREMENT_WRAP,
                                   AGAL_STENCIL_DECREMENT_WRAP
} agal_stencil_action;

typedef enum agal_triangle_face { /* Context3DTriangleFace: which faces setCulling culls */
                                  AGAL_FACE_NONE,
                                  AGAL_FACE_FRONT,
                                  AGAL_FACE_BACK,
                                  AGAL_FACE_FRONT_AND_BACK
} agal_triangle_face;

typedef enum agal_vertex_format { /* Context3DVertexBufferFormat */
                                  AGAL_VERTEX_FLOAT_1,
                                  AGAL_VERTEX_FLOAT_2,
                                  AGAL_VERTEX_FLOAT_3,
                                  AGAL_VERTEX_FLOAT_4,
                                  AGAL_VERTEX_BYTES_4 /* four unsigned bytes normalised to [0, 1], x first in memory */
} agal_vertex_format;

typedef enum agal_texture_format {                           /* Context3DTextureFormat */
                                   AGAL_TEXTURE_BGRA,        /* 8-bit B, G, R, A in memory (BitmapData's ARGB words) */
                                   AGAL_TEXTURE_BGRA_PACKED, /* "bgraPacked4444" */
                                   AGAL_TEXTURE_BGR_PACKED,  /* "bgrPacked565" */
                                   AGAL_TEXTURE_COMPRESSED,  /* ATF, DXT1 on desktop */
                                   AGAL_TEXTURE_COMPRESSED_ALPHA, /* ATF, DXT5 on desktop */
                                   AGAL_TEXTURE_RGBA_HALF_FLOAT
} agal_texture_format;

/* The enumeration classes agal_stage3d_find and agal_stage3d_name know. The sampler
 * ones (Context3DWrapMode, Context3DTextureFilter, Context3DMipFilter) give the
 * AGAL_WRAP_*, AGAL_FILTER_* and AGAL_MIP_* values: their strings are the AGAL
 * sampler options' (agal_sampler_option_name). */
typedef enum agal_stage3d_enum {
    AGAL_S3D_BLEND_FACTOR,
    AGAL_S3D_COMPARE_MODE,
    AGAL_S3D_STENCIL_ACTION,
    AGAL_S3D_TRIANGLE_FACE,
    AGAL_S3D_VERTEX_FORMAT,
    AGAL_S3D_TEXTURE_FORMAT,
    AGAL_S3D_PROGRAM_TYPE /* agal_stage */,
    AGAL_S3D_WRAP_MODE,
    AGAL_S3D_TEXTURE_FILTER,
    AGAL_S3D_MIP_FILTER,
    AGAL_S3D_ENUMS
} agal_stage3d_enum;

/* The AS3 string of a value ("oneMinusSourceAlpha"); NULL for a value out of range. */
AGAL_API const char *agal_stage3d_name(agal_stage3d_enum which, unsigned value);
/* The value of an AS3 string, exact and case-sensitive as Flash compares them; false
 * for a string the class does not define (Flash throws ArgumentError #2008 for it). */
AGAL_API bool agal_stage3d_find(agal_stage3d_enum which, const char *name, unsigned *value);

/* ---- Context3D's arithmetic, the same for every API ---------------------------
 * What <agal/vulkan.h> and <agal/gl.h> build on (docs/format.md section 8). */

/* A channel of clear(red, green, blue, alpha): clamped to [0, 1] (NaN as 0) and
 * truncated to 8 bits, as Flash shows it (0.3 gives 76, not 77: observed), as the
 * float an 8-bit UNORM target stores exactly. */
static inline float agal_stage3d_clear_channel(double v)
{
    v = v > 0 ? (v < 1 ? v : 1) : 0;
    return (float)(unsigned)(v * 255.0) / 255.0f;
}

/* Mip levels of a texture whose level 0 is w x h: log2(max(w, h)) + 1. */
static inline unsigned agal_stage3d_levels(uint32_t w, uint32_t h)
{
    unsigned n = 1;
    for (uint32_t s = w > h ? w : h; s > 1; s >>= 1) n++;
    return n;
}

/* The samples configureBackBuffer's (or setRenderToTexture's) antiAlias asks for:
 * the largest of 1, 2, 4, 8, 16 not above it ("the number of subsamples": 0 none, 2
 * minimal, 4 high, 16 very high). Each API's helper then takes the smallest count
 * the device has that is not below it (GL's rule for renderbuffers), else the
 * largest it has. */
static inline unsigned agal_stage3d_samples(int anti_alias)
{
    unsigned n = 1;
    while (n < 16 && (int)(n * 2) <= anti_alias) n *= 2;
    return n;
}

/* A rectangle in whole pixels, origin at the target's top left, y down. */
typedef struct agal_rect {
    int32_t x, y;
    uint32_t width, height;
} agal_rect;

/* setScissorRectangle(x, y, width, height) on a target of tw x th pixels. false
 * when there is no scissor: Flash ignores a rectangle of zero width or height
 * (observed; a negative one too, decided). Otherwise *out is the rectangle with its
 * edges rounded to the nearest pixel and clipped to the target; it is empty when
 * they do not meet (Flash's 3706 at the draw). */
static inline bool agal_stage3d_scissor(double x, double y, double w, double h, uint32_t tw, uint32_t th,
                                        agal_rect *out)
{
    if (!(w > 0 && h > 0)) return false;
    double e[4], lim[4];
    int32_t r[4];
    e[0] = x, e[1] = y, e[2] = x + w, e[3] = y + h;
    lim[0] = lim[2] = (double)tw, lim[1] = lim[3] = (double)th;
    for (int i = 0; i < 4; i++) {
        double v = e[i] > 0 ? (e[i] < lim[i] ? e[i] : lim[i]) : 0; /* clipped, NaN as 0 */
        r[i] = (int32_t)(v + 0.5);
    }
    out->x = r[0], out->y = r[1];
    out->width = (uint32_t)(r[2] - r[0]), out->height = (uint32_t)(r[3] - r[1]);
    return true;
}

/* A key for caching an API's sampler objects by resolved state (agal_slots_resolve):
 * two samplers get the same key exactly when they sample alike, whatever the
 * token's format, LOD bias (in the shader) and special flags. */
static inline uint32_t agal_sampler_state_key(const agal_sampler *s)
{
    return (uint32_t)s->wrap | (uint32_t)s->filter << 4 | (uint32_t)s->mipmap << 8 | (uint32_t)s->dim << 12;
}

/* ---- setProgramConstants*: the registers they write ----------------------------
 * Each writes registers first .. first + n - 1 of a stage's constant file `regs`
 * (agal_reg_count(profile, stage, AGAL_REG_CONSTANT) registers of 4 floats) and
 * returns 0, or the Flash id to throw, in Flash's order, having written nothing:
 * 3669 (RangeError) for too little data, then 2006 (RangeError; decided, Flash's
 * record is silent) for registers past the file. */

static inline int agal_stage3d_constant_range(agal_profile profile, agal_stage stage, int64_t first, int64_t n)
{
    int64_t count = agal_reg_count(profile, stage, AGAL_REG_CONSTANT);
    return first < 0 || n < 0 || first + n > count ? 2006 : 0;
}

/* setProgramConstantsFromMatrix(programType, firstRegister, matrix, transposedMatrix):
 * four registers from Matrix3D.rawData (column after column). Not transposed, a
 * column lands in a register; transposed, a row: rawData[0, 4, 8, 12] in the first
 * (recorded in Flash Player's screenshots). */
static inline int agal_stage3d_constants_from_matrix(agal_profile profile, agal_stage stage, int32_t first,
                                                     const double raw[16], bool transposed, float (*regs)[4])
{
    int id = agal_stage3d_constant_range(profile, stage, first, 4);
    for (int r = 0; r < 4 && !id; r++)
        for (int i = 0; i < 4; i++) regs[first + r][i] = (float)(transposed ? raw[4 * i + r] : raw[4 * r + i]);
    return id;
}

/* setProgramConstantsFromVector(programType, firstRegister, data, numRegisters): len
 * numbers; numRegisters -1 takes as many whole registers as they make. */
static inline int agal_stage3d_constants_from_vector(agal_profile profile, agal_stage stage, int32_t first,
                                                     const double *data, uint32_t len, int32_t num_registers,
                                                     float (*regs)[4])
{
    int64_t n = num_registers == -1 ? (int64_t)(len / 4) : num_registers;
    if (n < 0 || n * 4 > (int64_t)len) return 3669;
    int id = agal_stage3d_constant_range(profile, stage, first, n);
    for (int64_t i = 0; i < 4 * n && !id; i++) regs[first + i / 4][i % 4] = (float)data[i];
    return id;
}

/* setProgramConstantsFromByteArray(programType, firstRegister, numRegisters, data,
 * byteArrayOffset): little-endian floats whatever the ByteArray's endian flag
 * (recorded). */
static inline int agal_stage3d_constants_from_bytes(agal_profile profile, agal_stage stage, int32_t first,
                                                    int32_t num_registers, const uint8_t *bytes, size_t len,
                                                    uint32_t offset, float (*regs)[4])
{
    if (num_registers < 0 || offset >= len || len - offset < (uint64_t)num_registers * 16) return 3669;
    int id = agal_stage3d_constant_range(profile, stage, first, num_registers);
    for (uint32_t i = 0; i < 4 * (uint32_t)num_registers && !id; i++) {
        const uint8_t *p = bytes + offset + 4 * i;
        uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        memcpy(&regs[first + i / 4][i % 4], &u, 4);
    }
    return id;
}

/* setStencilActions(triangleFace, ...) acts on the faces it names; the other faces
 * pass the stencil test and keep the stored value (docs/decisions.md, "Context3D"). */
static inline bool agal_stage3d_stencil_face(agal_triangle_face actions_face, bool front)
{
    return actions_face == AGAL_FACE_FRONT_AND_BACK || actions_face == (front ? AGAL_FACE_FRONT : AGAL_FACE_BACK);
}

/* ---- Context3D's draw-time checks (context3d.c) --------------------------------
 * What drawTriangles and drawTrianglesInstanced check of the streams and the
 * textures bound, in Flash's order with Flash's ids (docs/format.md section 8): pure
 * functions over a small description the emulator fills from its own state. Each
 * returns 0, or the Flash id with *err filled: agal_draw_error_line gives the line
 * ActionScript prints ("Error: Error #3611: Stream 1 is read by ..."). */

typedef struct agal_draw_error {
    int id;           /* Flash's error id (0: none) */
    char args[2][16]; /* the message's %1 and %2 */
} agal_draw_error;

/* "Class: Error #id: message", as String(e) prints it; returns snprintf's count. */
AGAL_API int agal_draw_error_line(const agal_draw_error *err, char *buf, size_t size);

/* setVertexBufferAt(index, buffer, bufferOffset, format) as the emulator holds it. */
typedef struct agal_draw_stream {
    bool set;       /* a buffer is set at this index */
    int32_t offset; /* bufferOffset, in 32-bit words */
    agal_vertex_format format;
    uint32_t data32_per_vertex;     /* the buffer's */
    uint32_t vertices;              /* the buffer's numVertices */
    uint32_t instances_per_element; /* createVertexBufferForInstances; 0: a per-vertex buffer */
} agal_draw_stream;

enum { AGAL_DRAW_STREAMS = 16 }; /* va0..va15 (8 below standardExtended) */

/* The streams of a draw of `vertex` (the uploaded vertex program) reading indices up
 * to max_index (none when count is 0) for `instances` instances: for each stream in
 * order, 3607 (set, not read: agal_program_reads), 3611 (read, not set), 3610 (the
 * format runs past the vertex), 3609 (an index past the buffer), 3792 (stream 0 per
 * instance), 3785 (too few instances in the buffer). */
AGAL_API int agal_check_draw_streams(const agal_program *vertex, const agal_draw_stream streams[AGAL_DRAW_STREAMS],
                                     uint32_t count, uint32_t max_index, uint32_t instances, agal_draw_error *err);

/* Which of createTexture, createCubeTexture, createRectangleTexture made a texture. */
typedef enum agal_texture_kind {
    AGAL_TEXTURE_KIND_2D,
    AGAL_TEXTURE_KIND_CUBE,
    AGAL_TEXTURE_KIND_RECTANGLE
} agal_texture_kind;

/* setTextureAt(sampler, texture) as the emulator holds it. */
typedef struct agal_draw_texture {
    const void *object; /* the texture (NULL: none set); the same texture, the same pointer */
    agal_texture_kind kind;
    agal_texture_format format; /* as created */
    bool render_target;         /* also a render target of this draw */
    bool has_level0;            /* every face has level 0 (rendered to counts) */
    bool has_all_levels;        /* every face has every level (a rendered face's are made) */
} agal_draw_texture;

/* The textures of a draw of `fragment` with the slots' state: for each sampler in
 * order, one the program samples: 3663 (none set), 3604 (it is a render target),
 * 3606 (2D against cube), 3763 (format against the token's), 3753 (a cube or
 * rectangle texture not clamped), 3755 (a rectangle texture with mipmapping or a
 * bias), 3700 (levels the sampling reads missing); one it does not: 3697 (a texture
 * set). Then 3695: one texture sampled with two states. Every use in the tokens
 * counts, also one the optimizer drops. resolved (may be NULL) receives each
 * sampled slot's state. */
AGAL_API int agal_check_draw_textures(const agal_program *fragment, const agal_sampler_slots *slots,
                                      const agal_draw_texture textures[16], agal_sampler resolved[16],
                                      agal_draw_error *err);

/* ==== GLSL ES (glsl.c): WebGL 2 / OpenGL ES 3.0 and WebGL 1 / OpenGL ES 2.0 ===== */

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

/* Translates a program to GLSL ES 3.00 (target AGAL_TARGET_ESSL3: WebGL 2, OpenGL ES
 * 3.0) or GLSL ES 1.00 (AGAL_TARGET_ESSL1: WebGL 1, OpenGL ES 2.0), from the same IR
 * as the GLSL 330, in the binding models of docs/binding-models.md, "GLSL ES binding models".
 * *extensions (may be NULL) receives the AGAL_EXT_* bits the text requires (ES 1.00;
 * 0 for ES 3.00). A program ES 1.00 cannot express (iid) is AGAL_ERR_UNSUPPORTED
 * with a diagnostic naming the feature. */
AGAL_API agal_status agal_translate_essl(agal_context *ctx, const agal_program *prog, agal_target target,
                                         const agal_translate_options *opt, const char **text, size_t *len,
                                         unsigned *extensions);

/* What a GL (GLSL 330) or WebGL / OpenGL ES (GLSL ES 3.00, 1.00) runtime binds for a
 * program's translation to `target` with opt: the names its text declares (docs/binding-models.md
 * "GLSL ES binding models"). The constants are `constants[constants_count]` (vec4),
 * in the std140 block `block` (GLSL 330, ES 3.00; give it uniform block binding
 * block_binding) or a plain uniform array (ES 1.00: block NULL, sized to the
 * registers read). fs<n> is sampler uniform "fs<n>" on texture unit n. */
typedef struct agal_gl_binding {
    agal_target target;
    agal_stage stage;
    const char *constants;    /* "vc" / "fc"; NULL when the text reads no constant */
    const char *block;        /* "agal_vc_block" / "agal_fc_block"; NULL in ES 1.00 */
    uint32_t block_binding;   /* AGAL_VC_BINDING / AGAL_FC_BINDING by convention */
    uint32_t constants_count; /* vec4s declared */
    bool indirect;            /* read relative to an index (the whole register file declared) */
    /* Declares `uniform float agal_yflip` (vertex programs, and fragment programs
     * that use ddy): 1 on screen, -1 rendering to a texture; in GLSL ES, which has
     * no uniform initializers, 0 (never set) stands for 1. */
    bool yflip;
    uint16_t samplers;      /* bit n: declares fs<n> */
    uint16_t cube_samplers; /* bit n: fs<n> is a samplerCube (else sampler2D) */
    uint16_t attributes;    /* bit n: va<n> (GLSL 330 and ES 3.00: location n) */
    uint16_t varyings;      /* bit n: v<n>, written (vertex) or read (fragment) */
    uint16_t centroid;      /* bit n: v<n> is declared centroid (never in ES 1.00) */
    uint8_t outputs;        /* bit n: oc<n> written (ES 1.00: gl_FragColor, or gl_FragData[n]) */
    bool writes_depth;      /* gl_FragDepth (ES 1.00: gl_FragDepthEXT) */
    bool uses_iid;          /* gl_InstanceID */
    unsigned extensions;    /* AGAL_EXT_* the text enables (ES 1.00) */
} agal_gl_binding;

/* Fills *out for prog translated to target (AGAL_TARGET_GLSL, _ESSL3 or _ESSL1) with
 * opt (may be NULL): the same translation agal_translate_glsl / agal_translate_essl
 * make, and its failures (AGAL_ERR_UNSUPPORTED for iid in ES 1.00). */
AGAL_API agal_status agal_reflect_gl(agal_context *ctx, const agal_program *prog, agal_target target,
                                     const agal_translate_options *opt, agal_gl_binding *out);

#ifdef __cplusplus
}
#endif

#endif
