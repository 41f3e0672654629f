/* harness_web.h: a real browser as a backend (headless Chromium, WebGL and WebGPU
 * through SwiftShader). tools/gpu/webgl_page.c writes a self-contained page (the
 * draws, their inputs and the runner tools/gpu/webgl_runner.js inline; nothing from
 * the network), tools/gpu/harness_web.c has the browser draw it and reads the
 * outputs back from the page's DOM (--dump-dom). WebGPU draws go into a page of
 * their own (tools/gpu/webgpu_page.c, the runner tools/gpu/webgpu_runner.js), whose
 * results the browser gives asynchronously: harness_web.c awaits them through the
 * DevTools protocol (--remote-debugging-pipe).
 *
 * A browser start costs seconds, so draws are queued and run together: queue any
 * number, flush (one browser run), then take each one's result. The draws are
 * harness_draw's (harness.h) with vs_glsl / fs_glsl holding GLSL ES 3.00 (WebGL 2)
 * or GLSL ES 1.00 (WebGL 1) text, in the binding models of docs/binding-models.md, "GLSL ES binding
 * models"; results come back as harness_gl_run's (rows top-down, discarded pixels
 * holding HARNESS_CLEAR, transform-feedback records of op and the captured
 * varyings). How WebGL 1, which has no float targets and no transform feedback,
 * returns the same values: the top of tools/gpu/webgl_runner.js.
 */
#ifndef AGAL_HARNESS_WEB_H
#define AGAL_HARNESS_WEB_H

#include "harness.h"

#include <stdbool.h>
#include <stddef.h>

/* The browser APIs a draw is queued for. */
enum { WEB_WEBGL1 = 1, WEB_WEBGL2 = 2, WEB_WEBGPU = 3 };

/* ---- webgl_page.c: the page ---- */

/* A growing NUL-terminated text; oom set once an allocation failed. */
typedef struct web_text {
    char *p;
    size_t n, cap;
    size_t items; /* draws written */
    bool oom;
} web_text;

void web_text_free(web_text *t);
/* Starts a page of draws: mode "compare" (offscreen, outputs into the DOM) or
 * "view" (one draw into a canvas of size x size, agalview --web). */
void web_page_begin(web_text *t, const char *mode, unsigned size);
/* Adds a draw for WebGL `api` (2 or 1). */
void web_page_draw(web_text *t, int api, const harness_draw *d);
/* Closes the job list and adds the WebGL runner. */
void web_page_end(web_text *t);
/* Closes the job list and adds a runner. */
void web_page_finish(web_text *t, const char *runner_js);
/* The writers both pages use: text, a JSON string (no <, > or & left), floats as
 * the hex of their bits, and the fields every draw has: its shaders and inputs
 * ("vs" .. "fc", no brace) and its outputs ("noc" .. "capture" and the closing
 * brace). */
void web_put(web_text *t, const char *s, size_t n);
void web_puts(web_text *t, const char *s);
void web_printf(web_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void web_json_string(web_text *t, const char *s);
void web_hex_floats(web_text *t, const float *f, size_t n);
void web_page_draw_inputs(web_text *t, const harness_draw *d);
void web_page_draw_outputs(web_text *t, const harness_draw *d);

/* ---- webgpu_page.c: the WebGPU page ---- */

/* Starts a page of WebGPU draws (mode "webgpu"). */
void webgpu_page_begin(web_text *t);
/* Adds a draw whose vs_glsl / fs_glsl hold WGSL, with the bind group layout of its
 * upload (harness_layout_of). */
void webgpu_page_draw(web_text *t, const harness_draw *d);
/* Closes the job list and adds the WebGPU runner. */
void webgpu_page_end(web_text *t);

/* ---- harness_web.c: the browser ---- */

typedef struct harness_web harness_web;

/* browser: the program to run (NULL: $AGAL_BROWSER, else "chromium" from PATH);
 * timeout_s bounds each browser run. Makes a private temporary directory (the
 * page, the browser's profile). NULL and a reason in err on failure. */
harness_web *harness_web_create(const char *browser, unsigned timeout_s, char *err, size_t errsize);
void harness_web_destroy(harness_web *h);
/* The browser's version line ("Chromium 120.0 ..."), or the program's name. */
const char *harness_web_browser(const harness_web *h);
/* Queues a draw for api (WEB_WEBGL2, WEB_WEBGL1 or WEB_WEBGPU); returns its index in
 * the next flush, or -1 (out of memory). */
long harness_web_queue(harness_web *h, int api, const harness_draw *d);
/* Draws every queued draw: one browser run for the WebGL draws, one for the WebGPU
 * draws. 0 on success; -1 and a reason in err when a browser did not run or returned
 * no results (every take of its draws then fails). */
int harness_web_flush(harness_web *h, char *err, size_t errsize);
/* Draws queued since the last flush. */
size_t harness_web_queued(const harness_web *h);
/* The result of draw i of the last flush: 0, or -1 and the reason (a shader the
 * browser rejects: its info log). */
int harness_web_take(harness_web *h, size_t i, harness_result *out, char *err, size_t errsize);
/* Who drew for api in a browser run so far: WebGL's UNMASKED_RENDERER_WEBGL ("ANGLE
 * (..., SwiftShader driver)"), WebGPU's adapter; "" before one drew with it. */
const char *harness_web_renderer(const harness_web *h, int api);
/* Seconds the last flush's browser runs took. */
double harness_web_last_seconds(const harness_web *h);

/* Runs a page and returns the browser's --dump-dom output (malloc'd), or NULL with
 * the reason in err. */
char *harness_web_run_page(harness_web *h, const char *page, size_t len, char *err, size_t errsize);
/* Runs a page with WebGPU enabled and returns the string its promise
 * window.agalDone resolves to (malloc'd), or NULL with the reason in err. */
char *harness_web_await_page(harness_web *h, const char *page, size_t len, char *err, size_t errsize);

#endif
