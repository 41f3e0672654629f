/* webgl_page.c: the self-contained page the browser backend draws (harness_web.h):
 * the job list as JSON in a <script type="application/json"> element, an element
 * for the results, and the runner (tools/gpu/webgl_runner.js, compiled in as
 * webgl_runner.h). Floats travel as the hex of their bits, so nothing is lost on
 * the way; strings are escaped so that no "<" (hence no "</script") and no
 * non-ASCII byte reaches the HTML. */
#include "agal/stage3d.h"
#include "harness_web.h"

/* The GL enums (WebGL's are GL's) for <agal/gl.h>'s sampler parameters; the header
 * needs GL's prototypes declared, though nothing here calls GL. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include "agal/gl.h"

#include "webgl_runner.h" /* webgl_runner_js: tools/gpu/webgl_runner.js as a C string */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void web_text_free(web_text *t)
{
    free(t->p);
    memset(t, 0, sizeof *t);
}

static bool reserve(web_text *t, size_t more)
{
    if (t->oom) return false;
    if (t->n + more + 1 <= t->cap) return true;
    size_t cap = t->cap ? t->cap : 4096;
    while (cap < t->n + more + 1) cap *= 2;
    char *p = realloc(t->p, cap);
    if (!p) {
        t->oom = true;
        return false;
    }
    t->p = p;
    t->cap = cap;
    return true;
}

static void put(web_text *t, const char *s, size_t n)
{
    if (!reserve(t, n)) return;
    memcpy(t->p + t->n, s, n);
    t->n += n;
    t->p[t->n] = 0;
}

static void puts_(web_text *t, const char *s) { put(t, s, strlen(s)); }

static void printf_(web_text *t, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0) put(t, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* A JSON string: quotes, backslashes, control characters, <, >, & and bytes past
 * ASCII as \u escapes (the translations are ASCII). */
static void json_string(web_text *t, const char *s)
{
    puts_(t, "\"");
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') printf_(t, "\\%c", c);
        else if (c == '\n') puts_(t, "\\n");
        else if (c < 0x20 || c >= 0x7f || c == '<' || c == '>' || c == '&') printf_(t, "\\u%04x", c);
        else put(t, (const char *)&c, 1);
    }
    puts_(t, "\"");
}

/* n floats as the hex of their IEEE-754 bits, 8 digits each (webgl_runner.js fromHex). */
static void hex_floats(web_text *t, const float *f, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    puts_(t, "\"");
    if (!reserve(t, 8 * n + 1)) return;
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &f[i], 4);
        for (int k = 7; k >= 0; k--) t->p[t->n++] = digits[(u >> (4 * k)) & 15];
    }
    t->p[t->n] = 0;
    puts_(t, "\"");
}

void web_page_begin(web_text *t, const char *mode, unsigned size)
{
    memset(t, 0, sizeof *t);
    puts_(t, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>agal2spv WebGL</title>\n"
             "<style>html, body { margin: 0; padding: 0; overflow: hidden; background: transparent; }"
             " canvas { display: block; }</style></head>\n<body>\n");
    if (!strcmp(mode, "view"))
        printf_(t,
                "<canvas id=\"agal-canvas\" width=\"%u\" height=\"%u\" style=\"width: %upx; height: %upx\"></canvas>\n",
                size, size, size, size);
    puts_(t, "<pre id=\"agal-result\"></pre>\n<script type=\"application/json\" id=\"agal-jobs\">\n{\"mode\": ");
    json_string(t, mode);
    puts_(t, ", \"draws\": [\n");
}

/* Each texture with its sampler as <agal/gl.h> gives it for the resolved state (GL
 * enum values, which WebGL shares; no anisotropy) and the uniform it binds. */
static void textures(web_text *t, const harness_draw *d, const agal_upload_result *layout)
{
    puts_(t, ", \"textures\": [");
    bool first = true;
    for (unsigned i = 0; i < HARNESS_MAX_TEXTURES; i++) {
        const harness_texture *x = &d->tex[i];
        if (!x->present) continue;
        const char *name = NULL;
        for (size_t k = 0; k < layout->nsamplers; k++)
            if (layout->samplers[k].num == i) name = layout->samplers[k].name;
        agal_gl_sampler p = agal_gl_sampler_params(&x->sampler, 0.0f);
        printf_(t, "%s{\"unit\": %u, \"name\": ", first ? "" : ", ", i);
        if (name) json_string(t, name);
        else puts_(t, "null");
        printf_(t,
                ", \"cube\": %s, \"size\": %u, \"levels\": %u, \"min\": %d, \"mag\": %d, \"wrapS\": %d, "
                "\"wrapT\": %d, \"mipmapped\": %s, \"texels\": ",
                x->cube ? "true" : "false", x->size, x->levels, p.min_filter, p.mag_filter, p.wrap_s, p.wrap_t,
                p.max_lod > 0 ? "true" : "false");
        hex_floats(t, x->texels, harness_texture_floats(x));
        puts_(t, "}");
        first = false;
    }
    puts_(t, "]");
}

/* The constant blocks (WebGL 2) or arrays (WebGL 1) by the names the layout gives. */
static void blocks(web_text *t, const agal_upload_result *layout)
{
    puts_(t, ", \"blocks\": [");
    for (size_t i = 0; i < layout->nblocks; i++) {
        printf_(t, "%s{\"stage\": \"%s\", \"binding\": %u, \"name\": ", i ? ", " : "",
                layout->blocks[i].stage == AGAL_VERTEX ? "vc" : "fc", (unsigned)layout->blocks[i].binding);
        json_string(t, layout->blocks[i].name);
        puts_(t, "}");
    }
    puts_(t, "]");
}

void web_page_draw(web_text *t, int api, const harness_draw *d)
{
    printf_(t, "%s{\"api\": %d, \"vs\": ", t->items++ ? ",\n" : "", api);
    json_string(t, d->vs_glsl);
    puts_(t, ", \"fs\": ");
    if (d->fs_glsl) json_string(t, d->fs_glsl);
    else puts_(t, "null");
    printf_(t, ", \"nverts\": %u, \"ninst\": %u, \"attribs\": {", d->nverts, d->ninstances);
    bool first = true;
    for (unsigned a = 0; a < HARNESS_MAX_ATTRIBS; a++) {
        if (!d->attribs[a]) continue;
        printf_(t, "%s\"%u\": ", first ? "" : ", ", a);
        hex_floats(t, d->attribs[a], (size_t)d->nverts * 4);
        first = false;
    }
    puts_(t, "}, \"vc\": ");
    hex_floats(t, d->vc, d->vc ? (size_t)d->nvc * 4 : 0);
    puts_(t, ", \"fc\": ");
    hex_floats(t, d->fc, d->fc ? (size_t)d->nfc * 4 : 0);
    harness_layout own;
    const agal_upload_result *layout = harness_layout_of(d, &own);
    blocks(t, layout);
    textures(t, d, layout);
    printf_(t, ", \"noc\": %u, \"width\": %u, \"height\": %u, \"depth_less\": %s, \"capture\": ", d->noc, d->width,
            d->height, d->depth_less ? "true" : "false");
    if (!d->capture) {
        puts_(t, "null}");
        return;
    }
    puts_(t, "[");
    for (unsigned k = 0; k < d->ncapture && k < 16; k++)
        printf_(t, "%s\"v%u\"", k ? ", " : "", (unsigned)d->capture_regs[k]);
    puts_(t, "]}");
}

void web_page_end(web_text *t)
{
    puts_(t, "\n]}\n</script>\n<script>\n");
    puts_(t, webgl_runner_js);
    puts_(t, "</script>\n</body></html>\n");
}
