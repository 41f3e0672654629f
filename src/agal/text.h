/* text.h: AGAL as text: the opcode table, register and sampler option names, the
 * assembler (Adobe's AGALMiniAssembler syntax) and the disassembler. For tools,
 * editors and tests; a runtime that only translates bytecode needs none of it. */
#ifndef AGAL_TEXT_H
#define AGAL_TEXT_H

#include "agal.h"

#ifdef __cplusplus
extern "C" {
#endif

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
/* Rows of a matrix operand B (3 or 4), 0 for non-matrix opcodes. */
AGAL_API unsigned agal_opinfo_rows(const agal_opinfo *info);

/* The register's AGAL name for a stage: "va", "vc", "vt", "op", "v", "fc", "ft", "oc",
 * "fs", "fd", "iid"; NULL for a type the stage does not have. */
AGAL_API const char *agal_reg_name(agal_stage stage, agal_regtype type);

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

/* agal_assemble_text, and with pos not NULL *pos set to each token's place in the
 * text: entry i (one a token, (*size - 7) / 24 of them, in ctx) is the line and
 * column (from 1; column in bytes) where token i's instruction starts. For
 * agal_translate_options.source_pos, so a source map names the text's lines. */
AGAL_API agal_status agal_assemble_text_pos(agal_context *ctx, const char *text, size_t len, unsigned flags, int *stage,
                                            uint32_t *version, const uint8_t **bytes, size_t *size,
                                            const agal_source_pos **pos);

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

#ifdef __cplusplus
}
#endif

#endif
