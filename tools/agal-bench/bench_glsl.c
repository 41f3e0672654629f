/* bench_glsl.c: the glslang baseline's input, agal-bench's and agal-bench --driver's. */
#include "bench.h"

#include <stdio.h>
#include <string.h>

/* glslang's Vulkan rules need what GLSL 330 leaves to the GL runtime: explicit
 * set/binding on blocks and samplers, locations on varyings, and no loose uniform.
 * The rewrite follows the project's binding model (docs/binding-models.md): vc block
 * binding 0, fc block binding 1, fs<i> binding 2+i, v<i> location i, and the y flip
 * as specialization constant 0, exactly what the direct SPIR-V declares, and
 * gl_InstanceIndex for gl_InstanceID. (The GLSL is emitted with the Vulkan clip
 * fix, as the direct SPIR-V.) It runs
 * once per program outside the clock: an emulator on the glslang path would emit
 * Vulkan GLSL directly. Returns a malloc'd string. */
static bool starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

static size_t rewrite_line(const char *line, size_t len, char *out)
{
    char buf[512];
    if (len >= sizeof buf) len = sizeof buf - 1;
    memcpy(buf, line, len);
    buf[len] = 0;
    unsigned n;
    char kind[16];
    if (starts(buf, "#version")) return (size_t)sprintf(out, "#version 450");
    if (starts(buf, "layout(std140) uniform agal_vc_block"))
        return (size_t)sprintf(out, "layout(std140, set = 0, binding = 0)%s", buf + 14);
    if (starts(buf, "layout(std140) uniform agal_fc_block"))
        return (size_t)sprintf(out, "layout(std140, set = 0, binding = 1)%s", buf + 14);
    if (sscanf(buf, "uniform sampler%15[a-zA-Z0-9] fs%u;", kind, &n) == 2)
        return (size_t)sprintf(out, "layout(set = 0, binding = %u) %s", 2 + n, buf);
    if (sscanf(buf, "uniform float agal_yflip%c", kind) == 1)
        return (size_t)sprintf(out, "layout(constant_id = 0) const float agal_yflip = 1.0;");
    if (sscanf(buf, "in vec4 v%u;", &n) == 1 || sscanf(buf, "out vec4 v%u;", &n) == 1 ||
        sscanf(buf, "centroid in vec4 v%u;", &n) == 1 || sscanf(buf, "centroid out vec4 v%u;", &n) == 1)
        return (size_t)sprintf(out, "layout(location = %u) %s", n, buf);
    /* gl_InstanceID is gl_InstanceIndex in Vulkan GLSL (the SPIR-V's InstanceIndex). */
    size_t n_out = 0;
    for (const char *r = buf; *r;) {
        const char *hit = strstr(r, "gl_InstanceID");
        size_t k = hit ? (size_t)(hit - r) : strlen(r);
        memcpy(out + n_out, r, k);
        n_out += k;
        r += k;
        if (hit) {
            memcpy(out + n_out, "gl_InstanceIndex", 16);
            n_out += 16;
            r += 13;
        }
    }
    return n_out;
}

char *bench_vulkan_glsl(const char *src)
{
    size_t lines = 1;
    for (const char *s = src; *s; s++) lines += *s == '\n';
    char *out = malloc(2 * strlen(src) + lines * 64 + 1);
    if (!out) return NULL;
    char *o = out;
    for (const char *s = src; *s;) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        o += rewrite_line(s, len, o);
        if (e) *o++ = '\n';
        s += len + (e != NULL);
    }
    *o = 0;
    return out;
}
