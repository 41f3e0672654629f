/* gen.h: a seeded generator of random VALID AGAL programs, for tests.
 *
 * Every program it makes passes agal_decode (strict, default profile) and, made as a
 * pair with gen_pair, agal_link. Deterministic: the same seed, stage, version and
 * options give the same program on every machine. No global state.
 *
 * Coverage: every opcode the stage and version allow (ddx/ddy/ted/kil/tex fragment
 * only, AGAL2+ for blocks, derivatives and ted), every register type the stage and
 * version have (iid in AGAL3 vertex programs, fd in AGAL2+ fragment programs,
 * oc0..oc3 as consecutive MRT slots), write masks and swizzles, relative addressing
 * in vertex programs (index from va, vc, vt, and iid in AGAL3), blocks nested up to
 * four deep, every sampler option (each sampler number keeps one setting; cube
 * clamps; no 3d), LOD biases, and the token limit.
 *
 * Rules it keeps (spec section 5): a temporary component is read only after it is
 * written on every path (a write inside a block counts after the block only when
 * both branches make it); no ddx/ddy, no output write, and only varying-coordinate
 * tex/ted inside blocks; no empty branch; condition operands scalar and not
 * identical; never two constant (or indirect) sources; op, each oc and each written
 * varying get all four components, each oc component exactly once. */
#ifndef GEN_H
#define GEN_H

#include "agal/agal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* splitmix64: small, fast, and the same sequence everywhere. */
typedef struct gen_rng {
    uint64_t state;
} gen_rng;
void gen_rng_seed(gen_rng *r, uint64_t seed);
uint32_t gen_rng_next(gen_rng *r);
/* Uniform in [0, n) (n > 0). */
unsigned gen_rng_below(gen_rng *r, unsigned n);

/* Bit of an opcode in gen_options.exclude_ops. */
#define GEN_OP(op) ((uint64_t)1 << (op))
/* Opcodes whose result Stage3D leaves undefined for some inputs (negative arguments
 * of sqt/rsq/log/pow, a zero vector for nrm): exclude them for differential tests
 * whose inputs are not kept out of those domains (or use gen_options.safe_domain,
 * which keeps them and guards their inputs). */
#define GEN_OPS_UNDEFINED_DOMAIN \
    (GEN_OP(AGAL_OP_SQT) | GEN_OP(AGAL_OP_RSQ) | GEN_OP(AGAL_OP_LOG) | GEN_OP(AGAL_OP_POW) | GEN_OP(AGAL_OP_NRM))
#define GEN_OPS_BLOCKS (GEN_OP(AGAL_OP_IFE) | GEN_OP(AGAL_OP_INE) | GEN_OP(AGAL_OP_IFG) | GEN_OP(AGAL_OP_IFL))
#define GEN_OPS_TEXTURE (GEN_OP(AGAL_OP_TEX) | GEN_OP(AGAL_OP_TED))

typedef struct gen_options {
    unsigned min_tokens;  /* 0: 1 */
    unsigned max_tokens;  /* 0: 48; always capped by the profile's token limit */
    uint64_t exclude_ops; /* GEN_OP bits of opcodes never to emit (GEN_OPS_BLOCKS: no blocks);
                           * an excluded mov still appears if every one-source op is excluded */
    unsigned max_depth;   /* block nesting, 0: 4 (the limit) */
    bool no_indirect;     /* no relative addressing */
    bool plain_samplers;  /* samplers rgba, no special flags (for harnesses that bind plain textures) */
    bool no_fd;           /* never write fd */
    /* Varyings: for a vertex program, the v registers it writes (all four components);
     * for a fragment program, the ones it may read. 0: vertex writes a random set,
     * fragment may read any of the profile's. no_varyings: none at all. */
    uint16_t varyings;
    bool no_varyings;
    /* Safe domain, for differential tests: every opcode may appear, and guard
     * instructions (real AGAL, in the same branch, before the operation) keep each
     * operation's inputs where every backend and the interpreter agree:
     * rcp/sqt/rsq/log/nrm read abs(x) + 0.5, div divides by abs(y) + 0.5, pow's base
     * is abs(x) + 0.5 (x clamped to [-8, 8]) and its exponent is in [-2, 2]
     * (clamped, times 0.25), exp/sin/cos/tex/ted arguments lie in [-8, 8], and any
     * other operation whose result could pass GEN_SAFE_LIMIT gets its temporary
     * sources clamped to [-8, 8] first. The generator tracks a magnitude bound per
     * temporary for this, assuming every input (attribute, constant, varying, iid,
     * texel) has magnitude <= GEN_SAFE_INPUT and that constant register
     * gen_safe_register(profile, stage) holds gen_safe_values (the caller sets it). */
    bool safe_domain;
    /* Pairs (gen_pair) whose varyings pack: the vertex program writes 9 or 10
     * varyings (as many as the profile has, if fewer), and the fragment program reads
     * each only in its first 1 to 3 components, at most four of them in 3, so that
     * packed by lower_pack_varyings they fit WebGL 1's 8 vectors. */
    bool partial_varyings;
} gen_options;

#define GEN_SAFE_INPUT 4.0
#define GEN_SAFE_LIMIT 4096.0
/* The guards' constants: (offset 0.5, clamp high 8, clamp low -8, exponent scale 0.25). */
extern const float gen_safe_values[4];
/* The constant register the guards read: the stage's last one. */
unsigned gen_safe_register(agal_profile profile, agal_stage stage);

enum { GEN_MAX_TOKENS = 2048, GEN_MAX_BYTES = AGAL_HEADER_SIZE + GEN_MAX_TOKENS * AGAL_TOKEN_SIZE };

typedef struct gen_program {
    agal_stage stage;
    uint32_t version;
    uint32_t ntokens;
    agal_token tokens[GEN_MAX_TOKENS];
    /* What the program uses, for a harness to set up inputs. */
    uint16_t attributes;      /* va registers read (directly or as index) */
    uint16_t varyings;        /* vertex: written (fully); fragment: read */
    uint16_t samplers;        /* fs numbers used */
    agal_sampler sampler[16]; /* their settings (bias 0; the bias is per token) */
    unsigned noc;             /* fragment: oc0..noc-1 written (fully, once each component) */
    bool writes_fd, uses_kil, uses_iid, uses_indirect, uses_blocks;
} gen_program;

/* Makes a valid program. Returns false only for an impossible request (version not
 * 1..3, stage invalid, max_tokens too small for the outputs). */
bool gen_program_make(gen_program *out, uint64_t seed, agal_stage stage, uint32_t version, const gen_options *opt);

/* A vertex and a fragment program that link (agal_link): the fragment program reads
 * only varyings the vertex program writes. opt may be NULL; opt->varyings is ignored. */
bool gen_pair(gen_program *vertex, gen_program *fragment, uint64_t seed, uint32_t version, const gen_options *opt);

/* The program's bytes (header + tokens, as agal_token_encode writes them). Returns
 * the size, or 0 if cap is too small. */
size_t gen_program_encode(const gen_program *p, uint8_t *buf, size_t cap);

#endif
