/* webgl_page.c: the self-contained page the browser backend draws (harness_web.h):
 * the job list as JSON in a <script type="application/json"> element, an element
 * for the results, and the runner (tools/gpu/webgl_runner.js, compiled in as
 * webgl_runner.h). Floats travel as the hex of their bits, so nothing is lost on
 * the way; strings are escaped so that no "<" (hence no "</script") and no
 * non-ASCII byte reaches the HTML. The text writers and the fields every draw has
 * are shared with the WebGPU page (webgpu_page.c). */
#include "agal/stage3d.h"
#include "harness_web.h"

/* The GL enums (WebGL's are GL's) for <agal/gl.h>'s sampler parameters; the header
 * needs GL's prototypes declared, though nothing here calls GL. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include "agal/gl.h"

#include "web_floats.h"   /* web_floats_js: tools/gpu/web_floats.js as a C string */
#include "webgl_runner.h" /* webgl_runner_js: tools/gpu/webgl_runner.js */

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

void web_put(web_text *t, const char *s, size_t n)
{
    if (!reserve(t, n)) return;
    memcpy(t->p + t->n, s, n);
    t->n += n;
    t->p[t->n] = 0;
}

void web_puts(web_text *t, const char *s) { web_put(t, s, strlen(s)); }

void web_printf(web_text *t, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0) web_put(t, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* A JSON string: quotes, backslashes, control characters, <, >, & and bytes past
 * ASCII as \u escapes (the translations are ASCII). */
void web_json_string(web_text *t, const char *s)
{
    web_puts(t, "\"");
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') web_printf(t, "\\%c", c);
        else if (c == '\n') web_puts(t, "\\n");
        else if (c < 0x20 || c >= 0x7f || c == '<' || c == '>' || c == '&') web_printf(t, "\\u%04x", c);
        else web_put(t, (const char *)&c, 1);
    }
    web_puts(t, "\"");
}

/* n floats as the hex of their IEEE-754 bits, 8 digits each (webgl_runner.js fromHex). */
void web_hex_floats(web_text *t, const float *f, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    web_puts(t, "\"");
    if (!reserve(t, 8 * n + 1)) return;
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &f[i], 4);
        for (int k = 7; k >= 0; k--) t->p[t->n++] = digits[(u >> (4 * k)) & 15];
    }
    t->p[t->n] = 0;
    web_puts(t, "\"");
}

void web_page_begin(web_text *t, const char *mode, unsigned size)
{
    memset(t, 0, sizeof *t);
    web_puts(t, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>agal2spv WebGL</title>\n"
                "<style>html, body { margin: 0; padding: 0; overflow: hidden; background: transparent; }"
                " canvas { display: block; }</style></head>\n<body>\n");
    if (!strcmp(mode, "view"))
        web_printf(
            t, "<canvas id=\"agal-canvas\" width=\"%u\" height=\"%u\" style=\"width: %upx; height: %upx\"></canvas>\n",
            size, size, size, size);
    web_puts(t, "<pre id=\"agal-result\"></pre>\n<script type=\"application/json\" id=\"agal-jobs\">\n{\"mode\": ");
    web_json_string(t, mode);
    web_puts(t, ", \"draws\": [\n");
}

/* Each texture with its sampler as <agal/gl.h> gives it for the resolved state (GL
 * enum values, which WebGL shares; no anisotropy) and the uniform it binds. */
static void textures(web_text *t, const harness_draw *d, const agal_upload_result *layout)
{
    web_puts(t, ", \"textures\": [");
    bool first = true;
    for (unsigned i = 0; i < HARNESS_MAX_TEXTURES; i++) {
        const harness_texture *x = &d->tex[i];
        if (!x->present) continue;
        const char *name = NULL;
        for (size_t k = 0; k < layout->nsamplers; k++)
            if (layout->samplers[k].num == i) name = layout->samplers[k].name;
        agal_gl_sampler p = agal_gl_sampler_params(&x->sampler, 0.0f);
        web_printf(t, "%s{\"unit\": %u, \"name\": ", first ? "" : ", ", i);
        if (name) web_json_string(t, name);
        else web_puts(t, "null");
        web_printf(t,
                   ", \"cube\": %s, \"size\": %u, \"levels\": %u, \"min\": %d, \"mag\": %d, \"wrapS\": %d, "
                   "\"wrapT\": %d, \"mipmapped\": %s, \"texels\": ",
                   x->cube ? "true" : "false", x->size, x->levels, p.min_filter, p.mag_filter, p.wrap_s, p.wrap_t,
                   p.max_lod > 0 ? "true" : "false");
        web_hex_floats(t, x->texels, harness_texture_floats(x));
        web_puts(t, "}");
        first = false;
    }
    web_puts(t, "]");
}

/* The constant blocks (WebGL 2) or arrays (WebGL 1) by the names the layout gives. */
static void blocks(web_text *t, const agal_upload_result *layout)
{
    web_puts(t, ", \"blocks\": [");
    for (size_t i = 0; i < layout->nblocks; i++) {
        web_printf(t, "%s{\"stage\": \"%s\", \"binding\": %u, \"name\": ", i ? ", " : "",
                   layout->blocks[i].stage == AGAL_VERTEX ? "vc" : "fc", (unsigned)layout->blocks[i].binding);
        web_json_string(t, layout->blocks[i].name);
        web_puts(t, "}");
    }
    web_puts(t, "]");
}

void web_page_draw_inputs(web_text *t, const harness_draw *d)
{
    web_puts(t, "\"vs\": ");
    web_json_string(t, d->vs_glsl);
    web_puts(t, ", \"fs\": ");
    if (d->fs_glsl) web_json_string(t, d->fs_glsl);
    else web_puts(t, "null");
    web_printf(t, ", \"nverts\": %u, \"ninst\": %u, \"attribs\": {", d->nverts, d->ninstances);
    bool first = true;
    for (unsigned a = 0; a < HARNESS_MAX_ATTRIBS; a++) {
        if (!d->attribs[a]) continue;
        web_printf(t, "%s\"%u\": ", first ? "" : ", ", a);
        web_hex_floats(t, d->attribs[a], (size_t)d->nverts * 4);
        first = false;
    }
    float scratch[HARNESS_MAX_CONSTANTS][4];
    unsigned n;
    web_puts(t, "}, \"vc\": "); /* each as the layout's block holds it (limits may pack it) */
    const float *vc = harness_constants(d, AGAL_VERTEX, scratch, &n);
    web_hex_floats(t, vc, vc ? (size_t)n * 4 : 0);
    web_puts(t, ", \"fc\": ");
    const float *fc = harness_constants(d, AGAL_FRAGMENT, scratch, &n);
    web_hex_floats(t, fc, fc ? (size_t)n * 4 : 0);
}

void web_page_draw_outputs(web_text *t, const harness_draw *d)
{
    web_printf(t, ", \"noc\": %u, \"width\": %u, \"height\": %u, \"depth_less\": %s, \"capture\": ", d->noc, d->width,
               d->height, d->depth_less ? "true" : "false");
    if (!d->capture) {
        web_puts(t, "null}");
        return;
    }
    web_puts(t, "[");
    for (unsigned k = 0; k < d->ncapture && k < 16; k++)
        web_printf(t, "%s\"v%u\"", k ? ", " : "", (unsigned)d->capture_regs[k]);
    web_puts(t, "]}");
}

void web_page_draw(web_text *t, int api, const harness_draw *d)
{
    web_printf(t, "%s{\"api\": %d, ", t->items++ ? ",\n" : "", api);
    web_page_draw_inputs(t, d);
    harness_layout own;
    const agal_upload_result *layout = harness_layout_of(d, &own);
    blocks(t, layout);
    textures(t, d, layout);
    web_page_draw_outputs(t, d);
}

void web_page_finish(web_text *t, const char *runner_js)
{
    web_puts(t, "\n]}\n</script>\n<script>\n");
    web_puts(t, web_floats_js);
    web_puts(t, runner_js);
    web_puts(t, "</script>\n</body></html>\n");
}

void web_page_end(web_text *t) { web_page_finish(t, webgl_runner_js); }
