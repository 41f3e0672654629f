/* web_glue.c: the web package's C glue (web/agal_web.c) built natively, for what
 * JavaScript cannot see: a pipeline key's pair (web_pair_new) is uploaded with the
 * same options as upload() (upload_options_of), debugInfo included, so its texts
 * carry the same #line directives and source as the upload's. The glue is included
 * whole, its emscripten.h a stub (tests/web/native/). */
#include "agal_web.c"

#include "agal/text.h"

#include <stdlib.h>

static int failures;

static void check(bool ok, const char *what)
{
    if (!ok) fprintf(stderr, "web_glue: %s\n", what), failures++;
}

static const uint8_t *assembled(agal_context *ctx, const char *text, agal_stage stage, size_t *n)
{
    const uint8_t *bytes = NULL;
    int st = (int)stage;
    uint32_t version = 1;
    if (agal_assemble_text(ctx, text, strlen(text), 0, &st, &version, &bytes, n) != AGAL_OK) abort();
    return bytes;
}

/* A pair made with and without debug_info: each stage's text holds #line and its
 * source exactly when asked, as web_upload's texts do. */
static void pair_debug_info(const uint8_t *v, size_t vn, const uint8_t *f, size_t fn, int32_t debug_info)
{
    web_options o = {.size = sizeof o, .target = AGAL_TARGET_ESSL3, .debug_info = debug_info};
    web_pair *p = web_pair_new(v, (uint32_t)vn, f, (uint32_t)fn, &o);
    check(p != NULL, "web_pair_new failed");
    if (!p) return;
    for (int s = AGAL_VERTEX; s <= AGAL_FRAGMENT; s++) {
        const agal_shader *sh = &p->r.shaders[s];
        bool lines = sh->text && strstr(sh->text, "#line ") != NULL;
        check(lines == (debug_info != 0),
              debug_info ? "a debugInfo pair's text has no #line" : "a pair without debugInfo has #line");
        check((sh->source != NULL) == (debug_info != 0), "the pair's source is not as debugInfo asks");
    }
    web_pair_free(p);
}

int main(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    if (!ctx) return 1;
    size_t vn, fn;
    const uint8_t *v = assembled(ctx, "m44 op, va0, vc0\nmov v0, va1\n", AGAL_VERTEX, &vn);
    const uint8_t *f = assembled(ctx, "mul oc, v0, fc0\n", AGAL_FRAGMENT, &fn);
    pair_debug_info(v, vn, f, fn, 1);
    pair_debug_info(v, vn, f, fn, 0);
    agal_context_free(ctx);
    printf("web_glue: %s\n", failures ? "FAILED" : "a pipeline key's pair takes upload's debugInfo");
    return failures != 0;
}
