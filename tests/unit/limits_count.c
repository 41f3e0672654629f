/* limits_count.c: limits_count.h's counts, each from the text or module alone. */
#include "limits_count.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }

/* The number after the first occurrence of key in line, or -1. */
static long number_after(const char *line, const char *key)
{
    const char *at = strstr(line, key);
    return at ? strtol(at + strlen(key), NULL, 10) : -1;
}

/* ---- the GLSL family, a line at a time ---------------------------------------------- */

static void glsl_uniform(const char *line, limits_use *u)
{
    long n = number_after(line, "vec4 ");
    const char *bracket = strchr(line, '[');
    if (bracket && n < 0) return;
    if (bracket) u->uniform_vectors += (uint32_t)strtoul(bracket + 1, NULL, 10); /* vc[N], fc[N]: N rows */
    else if (strstr(line, "sampler")) {
        const char *name = strrchr(line, ' ');
        long unit = name ? number_after(name, " fs") : -1;
        if (unit >= 0) u->texture_units = max_u32(u->texture_units, (uint32_t)unit + 1);
    } else if (strstr(line, "float ") || strstr(line, "vec4 "))
        u->uniform_vectors++; /* the y flip: a row of its own beside vec4 rows */
}

static void glsl_varying_out(limits_use *u)
{
    u->varying_vectors++;
    u->varying_components += 4;
    u->interstage_variables++;
}

static void glsl_line(agal_stage stage, const char *line, limits_use *u)
{
    bool vs = stage == AGAL_VERTEX;
    long loc = number_after(line, "layout(location = ");
    if (!strncmp(line, "uniform ", 8) || !strncmp(line, "layout(std140) uniform ", 23)) glsl_uniform(line, u);
    else if (!strncmp(line, "attribute vec4 va", 17))
        u->attributes = max_u32(u->attributes, (uint32_t)strtoul(line + 17, NULL, 10) + 1);
    else if (vs && loc >= 0 && strstr(line, ") in vec4 va")) u->attributes = max_u32(u->attributes, (uint32_t)loc + 1);
    else if (!vs && loc >= 0 && strstr(line, ") out vec4 oc"))
        u->colour_attachments = max_u32(u->colour_attachments, (uint32_t)loc + 1);
    else if (vs && (!strncmp(line, "varying vec4 v", 14) || strstr(line, "out vec4 v") == line ||
                    !strncmp(line, "centroid out vec4 v", 19)))
        glsl_varying_out(u);
    long data = number_after(line, "gl_FragData[");
    if (!vs && data >= 0) u->colour_attachments = max_u32(u->colour_attachments, (uint32_t)data + 1);
    if (!vs && strstr(line, "gl_FragColor")) u->colour_attachments = max_u32(u->colour_attachments, 1);
}

static void glsl_count(agal_stage stage, const char *text, limits_use *u)
{
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), line);
        glsl_line(stage, buf, u);
        line = end ? end + 1 : NULL;
    }
}

/* ---- WGSL ------------------------------------------------------------------------------ */

static void wgsl_line(agal_stage stage, const char *line, bool *in_out_struct, limits_use *u)
{
    bool vs = stage == AGAL_VERTEX;
    long len = number_after(line, "array<vec4f, ");
    if (strstr(line, "var<uniform>") && len >= 0) u->uniform_vectors += (uint32_t)len;
    if (strstr(line, ": texture_")) u->texture_units++;
    if (!strncmp(line, "struct agal_out", 15)) *in_out_struct = true;
    else if (*in_out_struct && line[0] == '}') *in_out_struct = false;
    for (const char *at = strstr(line, "@location("); at; at = strstr(at + 1, "@location(")) {
        uint32_t loc = (uint32_t)strtoul(at + 10, NULL, 10);
        if (vs && !*in_out_struct) u->attributes = max_u32(u->attributes, loc + 1);
        else if (vs) {
            u->interstage_variables = max_u32(u->interstage_variables, loc + 1);
            u->varying_vectors++;
            u->varying_components += 4;
        } else if (*in_out_struct) u->colour_attachments = max_u32(u->colour_attachments, loc + 1);
    }
}

static void wgsl_count(agal_stage stage, const char *text, limits_use *u)
{
    bool in_out_struct = false;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), line);
        const char *s = buf;
        while (*s == ' ') s++;
        wgsl_line(stage, s, &in_out_struct, u);
        line = end ? end + 1 : NULL;
    }
}

/* ---- SPIR-V ---------------------------------------------------------------------------- */

enum { OP_CONSTANT = 43, OP_TYPE_ARRAY = 28, OP_VARIABLE = 59, OP_DECORATE = 71 };
enum { DECO_ARRAY_STRIDE = 6, DECO_BUILTIN = 11, DECO_LOCATION = 30, DECO_BINDING = 33 };
enum { SC_UNIFORM_CONSTANT = 0, SC_INPUT = 1, SC_OUTPUT = 3 };

typedef struct spv_ids {
    uint32_t bound;
    int32_t *location;  /* by id: its Location, -1 none */
    uint8_t *storage;   /* by id: a variable's storage class + 1, 0 none */
    uint32_t *constant; /* by id: an OpConstant's value */
    uint8_t *stride16;  /* by id: decorated ArrayStride 16 */
    uint8_t *bound_to;  /* by id: decorated Binding */
} spv_ids;

static void spv_gather(const uint32_t *w, size_t n, spv_ids *ids)
{
    for (size_t at = 5; at < n && w[at] >> 16;) {
        uint32_t op = w[at] & 0xffff, len = w[at] >> 16;
        const uint32_t *a = &w[at + 1];
        if (at + len > n) break;
        if (op == OP_DECORATE && len >= 3 && a[0] < ids->bound) {
            if (a[1] == DECO_LOCATION && len >= 4) ids->location[a[0]] = (int32_t)a[2];
            if (a[1] == DECO_ARRAY_STRIDE && len >= 4 && a[2] == 16) ids->stride16[a[0]] = 1;
            if (a[1] == DECO_BINDING) ids->bound_to[a[0]] = 1;
        } else if (op == OP_VARIABLE && len >= 4 && a[1] < ids->bound) ids->storage[a[1]] = (uint8_t)(a[2] + 1);
        else if (op == OP_CONSTANT && len >= 4 && a[1] < ids->bound) ids->constant[a[1]] = a[2];
        at += len;
    }
}

static void spv_arrays(const uint32_t *w, size_t n, const spv_ids *ids, limits_use *u)
{
    for (size_t at = 5; at < n && w[at] >> 16;) {
        uint32_t op = w[at] & 0xffff, len = w[at] >> 16;
        const uint32_t *a = &w[at + 1];
        if (op == OP_TYPE_ARRAY && len >= 4 && a[0] < ids->bound && a[2] < ids->bound && ids->stride16[a[0]])
            u->uniform_vectors += ids->constant[a[2]];
        at += len;
    }
}

static void spv_variables(agal_stage stage, const spv_ids *ids, limits_use *u)
{
    bool vs = stage == AGAL_VERTEX;
    for (uint32_t id = 1; id < ids->bound; id++) {
        if (!ids->storage[id]) continue;
        uint32_t sc = ids->storage[id] - 1u;
        int32_t loc = ids->location[id];
        if (sc == SC_UNIFORM_CONSTANT && ids->bound_to[id]) u->texture_units++;
        if (loc < 0) continue;
        if (sc == SC_INPUT && vs) u->attributes = max_u32(u->attributes, (uint32_t)loc + 1);
        else if (sc == SC_OUTPUT && vs) {
            u->varying_vectors++;
            u->varying_components += 4;
            u->interstage_variables = max_u32(u->interstage_variables, (uint32_t)loc + 1);
        } else if (sc == SC_OUTPUT) u->colour_attachments = max_u32(u->colour_attachments, (uint32_t)loc + 1);
    }
}

static void spv_count(agal_stage stage, const uint32_t *w, size_t n, limits_use *u)
{
    if (n < 5) return;
    spv_ids ids = {.bound = w[3]};
    ids.location = malloc(ids.bound * sizeof *ids.location);
    ids.storage = calloc(ids.bound, 1);
    ids.constant = calloc(ids.bound, sizeof *ids.constant);
    ids.stride16 = calloc(ids.bound, 1);
    ids.bound_to = calloc(ids.bound, 1);
    if (ids.location && ids.storage && ids.constant && ids.stride16 && ids.bound_to) {
        for (uint32_t i = 0; i < ids.bound; i++) ids.location[i] = -1;
        spv_gather(w, n, &ids);
        spv_arrays(w, n, &ids, u);
        spv_variables(stage, &ids, u);
    }
    free(ids.location), free(ids.storage), free(ids.constant), free(ids.stride16), free(ids.bound_to);
}

void limits_count(agal_target target, agal_stage stage, const char *text, const uint32_t *words, size_t nwords,
                  limits_use *out)
{
    memset(out, 0, sizeof *out);
    if (target == AGAL_TARGET_SPIRV) spv_count(stage, words, nwords, out);
    else if (target == AGAL_TARGET_WGSL) wgsl_count(stage, text, out);
    else glsl_count(stage, text, out);
}

static bool within(uint32_t used, uint32_t limit, const char *what, char *why, size_t whysize)
{
    uint32_t allow = limit == AGAL_LIMIT_NONE ? 0 : limit;
    if (!limit || used <= allow) return true;
    snprintf(why, whysize, "%u %s used, %u allowed", (unsigned)used, what, (unsigned)allow);
    return false;
}

bool limits_use_fits(const limits_use *u, agal_stage stage, const agal_limits *l, char *why, size_t whysize)
{
    bool vs = stage == AGAL_VERTEX;
    return within(u->uniform_vectors, vs ? l->vertex_uniform_vectors : l->fragment_uniform_vectors, "uniform vectors",
                  why, whysize) &&
           within(u->texture_units, vs ? l->vertex_texture_units : l->fragment_texture_units, "texture units", why,
                  whysize) &&
           within(u->attributes, l->vertex_attributes, "attributes", why, whysize) &&
           within(u->colour_attachments, l->color_attachments, "colour attachments", why, whysize) &&
           within(u->varying_vectors, l->varying_vectors, "varying vectors", why, whysize) &&
           within(u->varying_components, l->varying_components, "varying components", why, whysize) &&
           within(u->interstage_variables, l->interstage_variables, "inter-stage variables", why, whysize);
}
