/* test_pack_varyings.c: generated AGAL 2 pairs of 9 or 10 varyings the fragment
 * program reads in part (gen_options.partial_varyings), uploaded under WebGL 1's 8
 * varying vectors (lower_pack_varyings packs them), fit by each target's own rule,
 * counted from the emitted text or module, not from our binding:
 *   GLSL ES 1.00: Appendix A.7's packing of the declared varyings into 8 rows of 4;
 *   GLSL ES 3.00 and GLSL 330: the same rows (ES 3.00 packs by A.7's rule too), and at
 *     most 32 components declared;
 *   WGSL: @location(n) of the inter-stage variables, every n below 8;
 *   SPIR-V: the fragment module's Input variables' Location decorations, below 8.
 * Unlimited, the same pairs declare 9 or 10 vec4 varyings: the packing is what fits.
 *
 * usage: test_pack_varyings [PAIRS] (default 1000) */
#include "check.h"
#include "gen.h"

#include <agal/stage3d.h>

#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 8 };

/* ---- ES 1.00 Appendix A.7, for float .. vec4 (no arrays or matrices are declared) ---- */

typedef struct grid {
    unsigned char used[ROWS][4];
} grid;

static bool free_run(const grid *g, unsigned row, unsigned col, unsigned width)
{
    for (unsigned c = col; c < col + width; c++)
        if (g->used[row][c]) return false;
    return true;
}

static void take(grid *g, unsigned row, unsigned col, unsigned width)
{
    for (unsigned c = col; c < col + width; c++) g->used[row][c] = 1;
}

/* vec4s and vec3s each take a row from the top, columns 0 up; vec2s take the
 * column pair 0-1 of the first row with it free, then 2-3; floats the first free
 * cell from column 3 leftwards, top down (A.7: the column with the fewest free rows
 * first, which after the wider ones is column 3). false when one does not fit. */
static bool place(grid *g, unsigned width)
{
    if (width >= 3) {
        for (unsigned r = 0; r < ROWS; r++)
            if (free_run(g, r, 0, 4)) return take(g, r, 0, width), true;
        return false;
    }
    if (width == 2) {
        for (unsigned col = 0; col <= 2; col += 2)
            for (unsigned r = 0; r < ROWS; r++)
                if (free_run(g, r, col, 2)) return take(g, r, col, 2), true;
        return false;
    }
    for (int col = 3; col >= 0; col--)
        for (unsigned r = 0; r < ROWS; r++)
            if (free_run(g, r, (unsigned)col, 1)) return take(g, r, (unsigned)col, 1), true;
    return false;
}

/* The widths of the varyings a GLSL-family text declares ("varying vec3 x;", "out
 * vec2 x;" / "in float x;"), counted by width; the number of them. */
static unsigned glsl_varyings(const char *text, bool es1, bool vertex, unsigned count[5])
{
    static const char *const types[5] = {NULL, "float ", "vec2 ", "vec3 ", "vec4 "};
    const char *qual = es1 ? "varying " : vertex ? "out " : "in ";
    unsigned n = 0;
    memset(count, 0, 5 * sizeof *count);
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        const char *at = line;
        if (!strncmp(at, "centroid ", 9)) at += 9;
        if (strncmp(at, qual, strlen(qual))) continue;
        at += strlen(qual);
        for (unsigned w = 1; w <= 4; w++)
            if (!strncmp(at, types[w], strlen(types[w])) && strncmp(at + strlen(types[w]), "oc", 2)) count[w]++, n++;
    }
    return n;
}

static bool a7_fits(const unsigned count[5])
{
    grid g;
    memset(&g, 0, sizeof g);
    for (unsigned w = 4; w >= 1; w--)
        for (unsigned i = 0; i < count[w]; i++)
            if (!place(&g, w)) return false;
    return true;
}

/* ---- WGSL and SPIR-V: locations -------------------------------------------------- */

/* 1 + the highest @location(n) of the fragment's main parameters (its inputs). */
static unsigned wgsl_locations(const char *text)
{
    const char *main = strstr(text, "fn main(");
    const char *end = main ? strchr(main, ')') : NULL;
    unsigned top = 0;
    for (const char *at = main; at && at < end && (at = strstr(at, "@location(")) && at < end; at++) {
        unsigned n = (unsigned)strtoul(at + 10, NULL, 10);
        if (n + 1 > top) top = n + 1;
    }
    return top;
}

/* 1 + the highest Location of the module's Input variables. */
static unsigned spirv_input_locations(const uint32_t *w, size_t n)
{
    static unsigned char input[1u << 16];
    memset(input, 0, sizeof input);
    unsigned top = 0;
    for (size_t at = 5; at < n; at += w[at] >> 16) /* variables first: they precede */
        if ((w[at] & 0xffff) == SpvOpVariable && w[at + 3] == SpvStorageClassInput && w[at + 2] < sizeof input)
            input[w[at + 2]] = 1;
    for (size_t at = 5; at < n && w[at] >> 16; at += w[at] >> 16)
        if ((w[at] & 0xffff) == SpvOpDecorate && w[at + 2] == SpvDecorationLocation && w[at + 1] < sizeof input &&
            input[w[at + 1]] && w[at + 3] + 1 > top)
            top = w[at + 3] + 1;
    return top;
}

/* ---- one pair on every target ------------------------------------------------------ */

typedef struct tally {
    unsigned pairs, unpacked_over; /* pairs, and of them, those over 8 unpacked */
} tally;

static agal_status upload(agal_context *ctx, const uint8_t *v, size_t vn, const uint8_t *f, size_t fn,
                          agal_target target, const agal_limits *limits, agal_upload_result *r)
{
    agal_upload_options o = agal_upload_options_init();
    o.target = target, o.limits = limits;
    *r = agal_upload_result_init();
    return agal_upload(ctx, v, vn, f, fn, &o, r);
}

static void glsl_within(const agal_upload_result *r, agal_target t, unsigned seed)
{
    bool es1 = t == AGAL_TARGET_ESSL1;
    for (unsigned s = 0; s < 2; s++) {
        unsigned count[5];
        unsigned n = glsl_varyings(r->shaders[s].text, es1, s == AGAL_VERTEX, count);
        unsigned comps = count[1] + 2 * count[2] + 3 * count[3] + 4 * count[4];
        CHECK(a7_fits(count) && comps <= 4 * ROWS,
              "pair %u, target %d, %s: %u varyings (%u components) do not fit %u rows by A.7", seed, (int)t,
              s == AGAL_VERTEX ? "vertex" : "fragment", n, comps, ROWS);
    }
}

static void pair(agal_context *ctx, unsigned seed, const agal_limits *limits, tally *tl)
{
    static gen_program gv, gf;
    static uint8_t vb[GEN_MAX_BYTES], fb[GEN_MAX_BYTES];
    gen_options go = {.max_tokens = 40, .partial_varyings = true, .no_indirect = true};
    CHECK(gen_pair(&gv, &gf, seed, 2, &go), "pair %u: generated", seed);
    size_t vn = gen_program_encode(&gv, vb, sizeof vb), fn = gen_program_encode(&gf, fb, sizeof fb);
    agal_upload_result r;
    tl->pairs++;
    if (upload(ctx, vb, vn, fb, fn, AGAL_TARGET_ESSL3, NULL, &r) == AGAL_OK) {
        unsigned count[5];
        tl->unpacked_over += glsl_varyings(r.shaders[AGAL_VERTEX].text, false, true, count) > ROWS;
    }
    agal_context_reset(ctx);
    for (agal_target t = AGAL_TARGET_SPIRV; t <= AGAL_TARGET_WGSL; t++) {
        if (t == AGAL_TARGET_IR) continue;
        agal_status st = upload(ctx, vb, vn, fb, fn, t, limits, &r);
        /* iid has no GLSL ES 1.00 spelling: the one refusal that is no limit's */
        bool iid = t == AGAL_TARGET_ESSL1 && st == AGAL_ERR_UNSUPPORTED && gv.uses_iid;
        CHECK(st == AGAL_OK || iid, "pair %u, target %d: refused (%d): %s", seed, (int)t, st,
              agal_diag_count(ctx) ? agal_diag_get(ctx, 0)->message : "");
        if (st == AGAL_OK && t == AGAL_TARGET_SPIRV) {
            const agal_shader *fs = &r.shaders[AGAL_FRAGMENT];
            unsigned top = spirv_input_locations(fs->words, fs->nwords);
            CHECK(top <= ROWS, "pair %u: SPIR-V inputs at locations up to %u", seed, top);
        } else if (st == AGAL_OK && t == AGAL_TARGET_WGSL) {
            unsigned top = wgsl_locations(r.shaders[AGAL_FRAGMENT].text);
            CHECK(top <= ROWS, "pair %u: WGSL inputs at locations up to %u", seed, top);
        } else if (st == AGAL_OK) glsl_within(&r, t, seed);
        agal_context_reset(ctx);
    }
}

int main(int argc, char **argv)
{
    unsigned pairs = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1000;
    agal_context *ctx = agal_context_new(NULL, NULL);
    if (!ctx) return 1;
    agal_limits webgl1 = agal_limits_init();
    CHECK(agal_limits_preset("webgl1", &webgl1), "webgl1");
    /* the varyings' limits only: the constants and outputs are another item's */
    agal_limits varyings = agal_limits_init();
    varyings.name = "webgl1 varyings";
    varyings.varying_vectors = webgl1.varying_vectors;
    tally tl = {0};
    for (unsigned i = 0; i < pairs; i++) pair(ctx, 0x9e3779b9u * (i + 1), &varyings, &tl);
    /* Every pair reads 9 or 10 varyings in its tokens; the optimizer leaves more than 8
     * live in about one in twelve, which unpacked would not fit */
    CHECK(tl.unpacked_over * 20 >= tl.pairs, "only %u of %u pairs over 8 varyings unpacked", tl.unpacked_over,
          tl.pairs);
    printf("pack_varyings: %u generated pairs of 9 or 10 partly read varyings, %u of them over %u vectors unpacked, "
           "every one within %u on SPIR-V, GLSL 330, ES 3.00, ES 1.00 (A.7) and WGSL once packed; %d failure(s)\n",
           tl.pairs, tl.unpacked_over, ROWS, ROWS, failures);
    agal_context_free(ctx);
    return failures != 0;
}
