/* compare_inputs.c: `agalrun compare`'s seeded inputs (attributes, constants,
 * varyings, textures), the pair's own draw of them, the pass-through vertex program
 * that feeds the fragment draw, and programs rebuilt from tokens (the method: agalrun_compare.c). */
#include "agal/interp.h"
#include "agal/stage3d.h"
#include "agal/text.h"
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t cmp_mix(uint64_t a, uint64_t b)
{
    gen_rng r;
    gen_rng_seed(&r, a * 0x9e3779b97f4a7c15ull ^ b);
    return ((uint64_t)gen_rng_next(&r) << 32) | gen_rng_next(&r);
}

float cmp_uniform(gen_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)(gen_rng_next(r) >> 8) / 16777216.0f;
}

/* Cube faces: every level sampled from the same smooth function at its own texel
 * centres, and the border ring of every face and level set to 0.5. GPUs filter
 * cubes seamlessly across faces (Vulkan always), the interpreter clamps within the
 * face (texture.c); with equal border texels on both sides of every edge the two
 * readings agree, so linear cube lookups near edges compare exactly. */
static void cube_face_levels(float *dst, const harness_texture *h, unsigned f, float coef[4][4])
{
    for (unsigned l = 0; l < h->levels; l++) {
        unsigned sz = h->size >> l;
        float *lv = dst + harness_texture_offset(h, f, l);
        for (unsigned j = 0; j < sz; j++)
            for (unsigned i = 0; i < sz; i++) {
                bool border = i == 0 || j == 0 || i == sz - 1 || j == sz - 1;
                float s = (i + 0.5f) / sz, t = (j + 0.5f) / sz, u = (float)f / 6.0f;
                for (int c = 0; c < 4; c++)
                    lv[(j * sz + i) * 4 + c] =
                        border ? 0.5f
                               : 0.5f + 0.4f * sinf(coef[c][0] * s + coef[c][1] * t + coef[c][2] * u + coef[c][3]);
            }
    }
}

/* Smooth texels: per channel 0.5 + 0.4 sin(a s + b t + c u + d) over the face's
 * texel centres (cube: the direction), low frequency so neighbours differ by <= ~0.1;
 * levels are box-filtered from the level above, as a runtime's mip chain. */
static void fill_texture(float *dst, const harness_texture *h, gen_rng *r)
{
    float coef[4][4];
    for (int c = 0; c < 4; c++)
        for (int k = 0; k < 4; k++) coef[c][k] = cmp_uniform(r, -2.0f, 2.0f);
    unsigned faces = h->cube ? 6 : 1;
    for (unsigned f = 0; f < faces; f++) {
        float *base = dst + harness_texture_offset(h, f, 0);
        for (unsigned j = 0; j < h->size; j++)
            for (unsigned i = 0; i < h->size; i++) {
                float s = (i + 0.5f) / h->size, t = (j + 0.5f) / h->size, u = (float)f / 6.0f;
                for (int c = 0; c < 4; c++)
                    base[(j * h->size + i) * 4 + c] =
                        0.5f + 0.4f * sinf(coef[c][0] * s + coef[c][1] * t + coef[c][2] * u + coef[c][3]);
            }
        if (h->cube) {
            cube_face_levels(dst, h, f, coef);
            continue;
        }
        for (unsigned l = 1; l < h->levels; l++) {
            unsigned s = h->size >> l;
            const float *up = dst + harness_texture_offset(h, f, l - 1);
            float *lv = dst + harness_texture_offset(h, f, l);
            for (unsigned j = 0; j < s; j++)
                for (unsigned i = 0; i < s; i++)
                    for (int c = 0; c < 4; c++) {
                        unsigned w = 2 * s, a = (2 * j * w + 2 * i) * 4 + c;
                        lv[(j * s + i) * 4 + c] = 0.25f * (up[a] + up[a + 4] + up[a + w * 4] + up[a + w * 4 + 4]);
                    }
        }
    }
}

static void textures_free(texture_set *ts)
{
    for (int i = 0; i < HARNESS_MAX_TEXTURES; i++) free(ts->texels[i]);
    memset(ts, 0, sizeof *ts);
}

/* One texture per sampler number the program uses, sampled with the state its slot
 * holds after setProgram on a new Context3D (what the interpreter assumes without
 * slots): the token's own, or clamp, nearest, mipnone with ignoresampler. */
static int make_textures(texture_set *ts, const agal_program *p, gen_rng *r)
{
    memset(ts, 0, sizeof *ts);
    agal_sampler_slots slots;
    agal_slots_init(&slots);
    agal_slots_set_program(&slots, p);
    for (uint32_t k = 0; k < p->ntokens; k++) {
        const agal_token *t = &p->tokens[k];
        if (t->op != AGAL_OP_TEX && t->op != AGAL_OP_TED) continue;
        unsigned n = t->s.num;
        if (n >= HARNESS_MAX_TEXTURES || ts->h[n].present) continue;
        harness_texture *h = &ts->h[n];
        bool cube = t->s.dim == AGAL_DIM_CUBE;
        *h = (harness_texture){.present = true,
                               .cube = cube,
                               .size = cube ? CUBE_SIZE : TEX_SIZE,
                               .levels = cube ? CUBE_LEVELS : TEX_LEVELS,
                               .sampler = agal_slots_resolve(&slots, &t->s)};
        ts->texels[n] = malloc(harness_texture_floats(h) * sizeof(float));
        if (!ts->texels[n]) return -1;
        fill_texture(ts->texels[n], h, r);
        /* Multiples of 1/255, as Stage3D's 8-bit textures hold: WebGL 1 (RGBA8 only)
         * then samples the same texels as the float textures of the others. */
        for (size_t i = 0; i < harness_texture_floats(h); i++)
            ts->texels[n][i] = roundf(ts->texels[n][i] * 255.0f) / 255.0f;
        h->texels = ts->texels[n];
        unsigned faces = h->cube ? 6 : 1;
        for (unsigned l = 0; l < h->levels; l++)
            for (unsigned f = 0; f < faces; f++)
                ts->images[n][l * faces + f] = ts->texels[n] + harness_texture_offset(h, f, l);
        ts->t[ts->n++] = (agal_texture){.sampler = n,
                                        .dim = t->s.dim,
                                        .width = h->size,
                                        .height = h->size,
                                        .levels = h->levels,
                                        .images = ts->images[n]};
    }
    return 0;
}

bool cmp_uses_op(const agal_program *p, unsigned flag)
{
    for (uint32_t k = 0; k < p->ntokens; k++) {
        const agal_opinfo *info = agal_opinfo_get(p->tokens[k].op);
        if (info && (info->flags & flag)) return true;
    }
    return false;
}

void cmp_case_free(pair_case *c)
{
    free(c->vc);
    free(c->fc);
    free(c->pvc);
    textures_free(&c->tex);
}

int cmp_case_make(pair_case *c, const agal_program *vp, const agal_program *fp, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->vp = vp;
    c->fp = fp;
    c->seed = seed;
    gen_rng r;
    gen_rng_seed(&r, seed);
    c->attr_mask = agal_program_reads(vp, AGAL_REG_ATTRIBUTE);
    c->ninst = agal_program_reads(vp, AGAL_REG_IID) || vp->version >= 3 ? 3 : 2;
    for (int a = 0; a < HARNESS_MAX_ATTRIBS; a++)
        for (int v = 0; v < NVERTS; v++)
            for (int k = 0; k < 4; k++) c->attr[a][v][k] = cmp_uniform(&r, -2, 2);
    c->nvc = agal_reg_count(vp->profile, AGAL_VERTEX, AGAL_REG_CONSTANT);
    c->nfc = agal_reg_count(fp->profile, AGAL_FRAGMENT, AGAL_REG_CONSTANT);
    c->vc = calloc(c->nvc, sizeof *c->vc);
    c->fc = calloc(c->nfc, sizeof *c->fc);
    c->pvc = calloc(c->nvc, sizeof *c->pvc);
    if (!c->vc || !c->fc || !c->pvc) return -1;
    for (unsigned i = 0; i < c->nvc; i++)
        for (int k = 0; k < 4; k++) c->vc[i][k] = cmp_uniform(&r, -2, 2);
    for (unsigned i = 0; i < c->nfc; i++)
        for (int k = 0; k < 4; k++) c->fc[i][k] = cmp_uniform(&r, -2, 2);
    /* The safe-domain generator's guard constants (gen.h), in both stages' last
     * register (every pair gets them: a fixed register is as good as a random one). */
    memcpy(c->vc[gen_safe_register(vp->profile, AGAL_VERTEX)], gen_safe_values, sizeof gen_safe_values);
    memcpy(c->fc[gen_safe_register(fp->profile, AGAL_FRAGMENT)], gen_safe_values, sizeof gen_safe_values);
    for (unsigned i = 0; i < 4 * AGAL_INTERP_MAX_VARYINGS && i < c->nvc; i++)
        for (int k = 0; k < 4; k++) c->pvc[i][k] = cmp_uniform(&r, -1, 1);
    c->var_mask = agal_program_reads(fp, AGAL_REG_VARYING);
    static const float corners[6][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}};
    for (int v = 0; v < 6; v++) {
        float X = corners[v][0], Y = corners[v][1];
        float q[4] = {X, Y, 0.5f + 0.2f * X + 0.1f * Y, 1};
        memcpy(c->quad[v], q, sizeof q);
    }
    for (int py = 0; py < SIZE; py++)
        for (int px = 0; px < SIZE; px++) {
            double X = (2.0 * px + 1) / SIZE - 1, Y = 1 - (2.0 * py + 1) / SIZE;
            double p[4] = {X, Y, 0.5 + 0.2 * X + 0.1 * Y, 1};
            int i = py * SIZE + px;
            c->zpix[i] = (float)p[2];
            for (int v = 0; v < AGAL_INTERP_MAX_VARYINGS; v++)
                for (int k = 0; k < 4; k++) {
                    const float *row = c->pvc[4 * v + k];
                    c->var[i][v][k] = (float)(row[0] * p[0] + row[1] * p[1] + row[2] * p[2] + row[3] * p[3]);
                }
        }
    return make_textures(&c->tex, fp, &r);
}

unsigned cmp_colour_outputs(const agal_program *fp)
{
    unsigned noc = 0, ocs = agal_program_writes(fp, AGAL_REG_OUTPUT);
    while (noc < HARNESS_MAX_OUTPUTS && (ocs & (1u << noc))) noc++;
    return noc;
}

void cmp_pair_draw(const pair_case *c, const agal_upload_result *up, harness_draw *d)
{
    *d = (harness_draw){.nverts = NVERTS,
                        .ninstances = c->ninst,
                        .vc = &c->vc[0][0],
                        .nvc = c->nvc,
                        .fc = &c->fc[0][0],
                        .nfc = c->nfc,
                        .width = SIZE,
                        .height = SIZE};
    harness_draw_upload(d, up);
    for (size_t i = 0; i < up->nattributes; i++)
        d->attribs[up->attributes[i].location] = &c->attr[up->attributes[i].location][0][0];
    d->noc = cmp_colour_outputs(c->fp) ? cmp_colour_outputs(c->fp) : 1;
    memcpy(d->tex, c->tex.h, sizeof d->tex);
}

/* The pass-through vertex program: m44 v<i>, va0, vc[4i] for each varying read,
 * mov op, va0; in the fragment program's version. */
int cmp_passthrough(agal_context *ctx, const pair_case *c, const agal_program **out)
{
    agal_token toks[AGAL_INTERP_MAX_VARYINGS + 1];
    unsigned n = 0;
    memset(toks, 0, sizeof toks);
    for (unsigned v = 0; v < AGAL_INTERP_MAX_VARYINGS; v++) {
        if (!(c->var_mask & (1u << v))) continue;
        agal_token *t = &toks[n++];
        t->op = AGAL_OP_M44;
        t->dst = (agal_dest){AGAL_REG_VARYING, 0xf, (uint16_t)v};
        t->a = (agal_source){.type = AGAL_REG_ATTRIBUTE, .swizzle = AGAL_SWIZZLE_IDENTITY};
        t->b = (agal_source){.type = AGAL_REG_CONSTANT, .swizzle = AGAL_SWIZZLE_IDENTITY, .num = (uint16_t)(4 * v)};
    }
    agal_token *t = &toks[n++];
    t->op = AGAL_OP_MOV;
    t->dst = (agal_dest){AGAL_REG_OUTPUT, 0xf, 0};
    t->a = (agal_source){.type = AGAL_REG_ATTRIBUTE, .swizzle = AGAL_SWIZZLE_IDENTITY};
    *out = cmp_rebuild(ctx, toks, n, AGAL_VERTEX, c->fp->version, c->fp->profile, false);
    return *out ? 0 : -1;
}

/* Decodes tokens as a program of stage/version (lenient validation when asked). */
const agal_program *cmp_rebuild(agal_context *ctx, const agal_token *toks, uint32_t n, agal_stage stage,
                                uint32_t version, agal_profile profile, bool lenient)
{
    size_t size;
    const uint8_t *bytes = tool_encode_tokens(ctx, toks, n, stage, version, &size);
    if (!bytes) return NULL;
    agal_decode_options o = {.size = sizeof(agal_decode_options), .profile = profile, .lenient = lenient};
    const agal_program *p = NULL;
    return agal_decode(ctx, bytes, size, &o, &p) == AGAL_OK ? p : NULL;
}
