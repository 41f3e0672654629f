/* agalrun_io.c: what agalrun's subcommands share: loading programs (bytecode or
 * .agal text), the interpreter-input JSON (format in agalrun.h) and the output JSON. */
#include "agal/interp.h"
#include "agal/stage3d.h"
#include "agalrun.h"
#include "toolio.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- input JSON -------------------------------------------------------------- */

typedef struct parser {
    agalrun_inputs *in;
    char *err;
    size_t errsize;
} parser;

static bool fail(parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, p->errsize, fmt, ap);
    va_end(ap);
    return false;
}

/* calloc that records the block for agalrun_inputs_free. */
static void *take(parser *p, size_t n, size_t size)
{
    agalrun_inputs *in = p->in;
    if (in->nblocks == in->blocks_cap) {
        size_t cap = in->blocks_cap ? in->blocks_cap * 2 : 16;
        void **nb = realloc(in->blocks, cap * sizeof *nb);
        if (!nb) return NULL;
        in->blocks = nb;
        in->blocks_cap = cap;
    }
    void *b = calloc(n ? n : 1, size);
    if (b) in->blocks[in->nblocks++] = b;
    return b;
}

static bool number(parser *p, const cJSON *j, float *out, const char *what)
{
    if (cJSON_IsNumber(j)) {
        *out = (float)j->valuedouble;
        return true;
    }
    if (cJSON_IsString(j)) {
        if (!strcmp(j->valuestring, "NaN")) {
            *out = NAN;
            return true;
        }
        if (!strcmp(j->valuestring, "Infinity")) {
            *out = INFINITY;
            return true;
        }
        if (!strcmp(j->valuestring, "-Infinity")) {
            *out = -INFINITY;
            return true;
        }
    }
    return fail(p, "%s: expected a number", what);
}

static bool vec4(parser *p, const cJSON *j, float out[4], const char *what)
{
    int n = cJSON_GetArraySize(j);
    if (!cJSON_IsArray(j) || n < 1 || n > 4) return fail(p, "%s: expected an array of 1 to 4 numbers", what);
    memset(out, 0, 4 * sizeof *out);
    for (int c = 0; c < n; c++)
        if (!number(p, cJSON_GetArrayItem(j, c), &out[c], what)) return false;
    return true;
}

static bool parse_constants(parser *p, const cJSON *j)
{
    if (!j) return true;
    if (!cJSON_IsArray(j)) return fail(p, "constants: expected an array");
    size_t n = (size_t)cJSON_GetArraySize(j);
    float(*c)[4] = take(p, n, sizeof *c);
    if (!c) return fail(p, "out of memory");
    size_t i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++) {
        char what[32];
        snprintf(what, sizeof what, "constants[%zu]", i);
        if (!vec4(p, e, c[i], what)) return false;
    }
    p->in->env.constants = (const float(*)[4])c;
    p->in->env.nconstants = n;
    return true;
}

/* "va3" / "v3": the register number after prefix, or -1. */
static int reg_key(const char *key, const char *prefix, int count)
{
    size_t n = strlen(prefix);
    if (strncmp(key, prefix, n) || !key[n]) return -1;
    int r = 0;
    for (const char *s = key + n; *s; s++) {
        if (*s < '0' || *s > '9' || r > 100) return -1;
        r = r * 10 + (*s - '0');
    }
    return r < count ? r : -1;
}

static bool parse_invocation(parser *p, const cJSON *j, agal_stage stage, size_t i, agal_interp_invocation *inv)
{
    if (!cJSON_IsObject(j)) return fail(p, "invocations[%zu]: expected an object", i);
    const char *prefix = stage == AGAL_VERTEX ? "va" : "v";
    int count = stage == AGAL_VERTEX ? AGAL_INTERP_MAX_INPUTS : AGAL_INTERP_MAX_VARYINGS;
    for (const cJSON *e = j->child; e; e = e->next) {
        char what[64];
        snprintf(what, sizeof what, "invocations[%zu].%.20s", i, e->string);
        if (stage == AGAL_VERTEX && !strcmp(e->string, "iid")) {
            if (!cJSON_IsNumber(e) || e->valuedouble < 0 || e->valuedouble > 4294967295.0 ||
                e->valuedouble != floor(e->valuedouble))
                return fail(p, "%s: expected a whole number from 0 to 4294967295", what);
            inv->instance_id = (uint32_t)e->valuedouble;
            continue;
        }
        int r = reg_key(e->string, prefix, count);
        if (r < 0)
            return fail(p, "%s: unknown key (a %s program's invocations hold %s0..%s%d%s)", what,
                        stage == AGAL_VERTEX ? "vertex" : "fragment", prefix, prefix, count - 1,
                        stage == AGAL_VERTEX ? " and iid" : "");
        if (!vec4(p, e, inv->in[r], what)) return false;
    }
    return true;
}

static bool parse_invocations(parser *p, const cJSON *j, agal_stage stage)
{
    if (!j) return true;
    if (!cJSON_IsArray(j)) return fail(p, "invocations: expected an array");
    size_t n = (size_t)cJSON_GetArraySize(j);
    agal_interp_invocation *inv = take(p, n, sizeof *inv);
    if (!inv) return fail(p, "out of memory");
    size_t i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++)
        if (!parse_invocation(p, e, stage, i, &inv[i])) return false;
    p->in->inv = inv;
    p->in->ninv = n;
    return true;
}

static bool uint_field(parser *p, const cJSON *obj, const char *key, unsigned max, unsigned *out, const char *what)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(j) || j->valuedouble < 0 || j->valuedouble > max || j->valuedouble != floor(j->valuedouble))
        return fail(p, "%s.%s: expected an integer 0..%u", what, key, max);
    *out = (unsigned)j->valuedouble;
    return true;
}

static bool texels(parser *p, const cJSON *arr, float *dst, size_t count, const char *what)
{
    if (!cJSON_IsArray(arr) || (size_t)cJSON_GetArraySize(arr) != count)
        return fail(p, "%s: expected %zu texels", what, count);
    size_t i = 0;
    for (const cJSON *e = arr->child; e; e = e->next, i++)
        if (!vec4(p, e, dst + 4 * i, what)) return false;
    return true;
}

/* One level: w*h texels, or for a cube six faces (6 arrays, or one array of 6*w*h). */
static bool parse_level(parser *p, const cJSON *lv, agal_texture *t, const float **images, unsigned level,
                        const char *what)
{
    unsigned faces = t->dim == AGAL_DIM_CUBE ? 6 : 1;
    size_t w = t->width >> level ? t->width >> level : 1, h = t->height >> level ? t->height >> level : 1;
    float *data = take(p, faces * w * h, 4 * sizeof(float));
    if (!data) return fail(p, "out of memory");
    for (unsigned f = 0; f < faces; f++) images[level * faces + f] = data + 4 * w * h * f;
    const cJSON *first = cJSON_IsArray(lv) ? lv->child : NULL;
    bool by_face = faces == 6 && first && cJSON_IsArray(first) && cJSON_IsArray(first->child);
    if (!by_face) return texels(p, lv, data, faces * w * h, what);
    if (cJSON_GetArraySize(lv) != 6) return fail(p, "%s: a cube level holds 6 faces", what);
    unsigned f = 0;
    for (const cJSON *e = lv->child; e; e = e->next, f++)
        if (!texels(p, e, data + 4 * w * h * f, w * h, what)) return false;
    return true;
}

static bool parse_texture(parser *p, const cJSON *j, size_t i, agal_texture *t)
{
    char what[32];
    snprintf(what, sizeof what, "textures[%zu]", i);
    if (!cJSON_IsObject(j)) return fail(p, "%s: expected an object", what);
    for (const cJSON *k = j->child; k; k = k->next)
        if (strcmp(k->string, "sampler") && strcmp(k->string, "dim") && strcmp(k->string, "width") &&
            strcmp(k->string, "height") && strcmp(k->string, "levels"))
            return fail(p,
                        "%s: unknown key \"%.32s\" (sampler, dim, width, height, levels; the sampler state is "
                        "in samplerStates)",
                        what, k->string);
    unsigned v = 0;
    if (!uint_field(p, j, "sampler", 15, &v, what)) return false;
    t->sampler = v;
    const cJSON *dim = cJSON_GetObjectItemCaseSensitive(j, "dim");
    if (dim && !(cJSON_IsString(dim) && (!strcmp(dim->valuestring, "2d") || !strcmp(dim->valuestring, "cube"))))
        return fail(p, "%s.dim: expected \"2d\" or \"cube\"", what);
    t->dim = dim && !strcmp(dim->valuestring, "cube") ? AGAL_DIM_CUBE : AGAL_DIM_2D;
    if (!uint_field(p, j, "width", 4096, &t->width, what) || !uint_field(p, j, "height", 4096, &t->height, what))
        return false;
    if (!t->width || !t->height) return fail(p, "%s: width and height must be at least 1", what);
    const cJSON *levels = cJSON_GetObjectItemCaseSensitive(j, "levels");
    int nl = cJSON_GetArraySize(levels);
    if (!cJSON_IsArray(levels) || nl < 1 || nl > 13) return fail(p, "%s.levels: expected 1 to 13 levels", what);
    unsigned faces = t->dim == AGAL_DIM_CUBE ? 6 : 1;
    const float **images = take(p, (size_t)nl * faces, sizeof *images);
    if (!images) return fail(p, "out of memory");
    t->levels = (uint32_t)nl;
    t->images = images;
    unsigned l = 0;
    for (const cJSON *e = levels->child; e; e = e->next, l++) {
        char lw[48];
        snprintf(lw, sizeof lw, "%s.levels[%u]", what, l);
        if (!parse_level(p, e, t, images, l, lw)) return false;
    }
    return true;
}

static bool parse_textures(parser *p, const cJSON *j)
{
    if (!j) return true;
    if (!cJSON_IsArray(j)) return fail(p, "textures: expected an array");
    size_t n = (size_t)cJSON_GetArraySize(j);
    agal_texture *t = take(p, n, sizeof *t);
    if (!t) return fail(p, "out of memory");
    p->in->env.textures = t;
    size_t i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++) {
        if (!parse_texture(p, e, i, &t[i])) return false;
        p->in->env.ntextures = i + 1;
    }
    return true;
}

/* One of Context3D's enumeration strings (agal_stage3d_find); the error lists them. */
static bool enum_field(parser *p, const cJSON *obj, const char *key, agal_stage3d_enum which, const char *cls,
                       uint8_t *out, const char *what)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
    unsigned v = 0;
    if (cJSON_IsString(j) && agal_stage3d_find(which, j->valuestring, &v)) {
        *out = (uint8_t)v;
        return true;
    }
    char names[160] = "";
    for (unsigned i = 0; agal_stage3d_name(which, i); i++) {
        size_t n = strlen(names);
        snprintf(names + n, sizeof names - n, "%s\"%s\"", i ? ", " : "", agal_stage3d_name(which, i));
    }
    return fail(p, "%s.%s: expected a %s string (%s)", what, key, cls, names);
}

/* setSamplerStateAt(slot, wrap, filter, mipfilter) calls, applied in order after
 * setProgram of the program: the slots every tex samples through. */
static bool parse_sampler_states(parser *p, const cJSON *j, const agal_program *prog)
{
    agal_sampler_slots *slots = &p->in->slots;
    agal_slots_init(slots);
    agal_slots_set_program(slots, prog);
    p->in->env.slots = slots;
    if (!j) return true;
    if (!cJSON_IsArray(j)) return fail(p, "samplerStates: expected an array of setSamplerStateAt calls");
    size_t i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++) {
        char what[32];
        snprintf(what, sizeof what, "samplerStates[%zu]", i);
        if (!cJSON_IsObject(e)) return fail(p, "%s: expected an object", what);
        for (const cJSON *k = e->child; k; k = k->next)
            if (strcmp(k->string, "slot") && strcmp(k->string, "wrap") && strcmp(k->string, "filter") &&
                strcmp(k->string, "mipfilter"))
                return fail(p, "%s: unknown key \"%.32s\" (slot, wrap, filter, mipfilter)", what, k->string);
        unsigned slot = 0;
        agal_sampler_state st;
        if (!uint_field(p, e, "slot", AGAL_SAMPLER_SLOTS - 1, &slot, what) ||
            !enum_field(p, e, "wrap", AGAL_S3D_WRAP_MODE, "Context3DWrapMode", &st.wrap, what) ||
            !enum_field(p, e, "filter", AGAL_S3D_TEXTURE_FILTER, "Context3DTextureFilter", &st.filter, what) ||
            !enum_field(p, e, "mipfilter", AGAL_S3D_MIP_FILTER, "Context3DMipFilter", &st.mipmap, what))
            return false;
        agal_slots_set_state(slots, slot, st);
    }
    return true;
}

bool agalrun_inputs_parse(const char *json, size_t len, const agal_program *prog, agalrun_inputs *in, char *err,
                          size_t errsize)
{
    agal_stage stage = prog->stage;
    memset(in, 0, sizeof *in);
    parser p = {in, err, errsize};
    const char *end = json;
    cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, false);
    if (!root) return fail(&p, "not valid JSON (near byte %ld)", (long)(end - json));
    while (end < json + len && (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')) end++;
    bool ok = end == json + len || fail(&p, "more after the JSON value (at byte %ld)", (long)(end - json));
    ok = ok && (cJSON_IsObject(root) || fail(&p, "expected a JSON object"));
    for (const cJSON *e = ok ? root->child : NULL; e && ok; e = e->next)
        if (strcmp(e->string, "constants") && strcmp(e->string, "invocations") && strcmp(e->string, "textures") &&
            strcmp(e->string, "derivatives") && strcmp(e->string, "samplerStates"))
            ok = fail(&p, "unknown key \"%.32s\"", e->string);
    const cJSON *deriv = ok ? cJSON_GetObjectItemCaseSensitive(root, "derivatives") : NULL;
    if (deriv &&
        !(cJSON_IsString(deriv) && (!strcmp(deriv->valuestring, "fine") || !strcmp(deriv->valuestring, "coarse"))))
        ok = fail(&p, "derivatives: expected \"fine\" or \"coarse\"");
    in->env.coarse_derivatives = ok && deriv && !strcmp(deriv->valuestring, "coarse");
    ok = ok && parse_constants(&p, cJSON_GetObjectItemCaseSensitive(root, "constants"));
    ok = ok && parse_invocations(&p, cJSON_GetObjectItemCaseSensitive(root, "invocations"), stage);
    ok = ok && parse_textures(&p, cJSON_GetObjectItemCaseSensitive(root, "textures"));
    ok = ok && parse_sampler_states(&p, cJSON_GetObjectItemCaseSensitive(root, "samplerStates"), prog);
    cJSON_Delete(root);
    return ok;
}

void agalrun_inputs_free(agalrun_inputs *in)
{
    for (size_t i = 0; i < in->nblocks; i++) free(in->blocks[i]);
    free(in->blocks);
    memset(in, 0, sizeof *in);
}

/* ---- output JSON ------------------------------------------------------------- */

static void print_float(FILE *f, float x)
{
    if (isnan(x)) fputs("\"NaN\"", f);
    else if (isinf(x)) fputs(x > 0 ? "\"Infinity\"" : "\"-Infinity\"", f);
    else fprintf(f, "%.9g", (double)x);
}

static void print_vec(FILE *f, const char *name, const float v[4], bool *first)
{
    fprintf(f, "%s\"%s\": [", *first ? "" : ", ", name);
    for (int c = 0; c < 4; c++) {
        if (c) fputs(", ", f);
        print_float(f, v[c]);
    }
    fputc(']', f);
    *first = false;
}

static void print_result(FILE *f, const agal_program *prog, const agal_interp_result *r)
{
    bool first = true;
    char name[8];
    fputc('{', f);
    if (prog->stage == AGAL_VERTEX) {
        unsigned vmask = agal_program_writes(prog, AGAL_REG_VARYING);
        print_vec(f, "op", r->op, &first);
        for (unsigned i = 0; i < AGAL_INTERP_MAX_VARYINGS; i++) {
            if (!(vmask & (1u << i))) continue;
            snprintf(name, sizeof name, "v%u", i);
            print_vec(f, name, r->v[i], &first);
        }
    } else {
        unsigned omask = agal_program_writes(prog, AGAL_REG_OUTPUT) | 1u;
        for (unsigned i = 0; i < AGAL_INTERP_MAX_COLORS; i++) {
            if (!(omask & (1u << i))) continue;
            snprintf(name, sizeof name, "oc%u", i);
            print_vec(f, name, r->oc[i], &first);
        }
        if (agal_program_writes(prog, AGAL_REG_DEPTH) & 1u) {
            fputs(", \"fd\": ", f);
            print_float(f, r->fd);
        }
        fprintf(f, ", \"killed\": %s", r->killed ? "true" : "false");
    }
    fputc('}', f);
}

void agalrun_print_results(FILE *f, const agal_program *prog, const agal_interp_result *r, size_t n)
{
    fputs("{\"invocations\": [", f);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ",\n  " : "\n  ", f);
        print_result(f, prog, &r[i]);
    }
    fputs(n ? "\n]}\n" : "]}\n", f);
}
