/* agalview: draw a vertex + fragment pair on a default scene.
 *
 *   agalview [options] VERTEX FRAGMENT     (.agal text or bytecode)
 *     --screenshot OUT.png   save frame --frame N (default 0) and exit
 *     --frame N              the frame to save (time = N / 60 s)
 *     --size N               window size (default 256)
 *     --backend gl|vulkan    who renders the frame (default gl), see below
 *     --headless             no window: GL through EGL, or Vulkan alone, for comparing
 *                            with the window
 *     --scene SCENE.json     a Stage3D scene (agalrun replay's) replayed by the replay's GL
 *                            backend in the window's context, its last image shown; no programs
 *     --expect REF.png       after --screenshot: exit 1 unless the frame matches REF.png
 *                            and is not one flat colour; a pixel matches when every
 *                            channel is within --tolerance N/255 (default 2), and at most
 *                            --max-differing P percent of the pixels may not (default 0)
 *     --profile P            the register profile: a Context3DProfile name or baseline,
 *                            standard, standard_extended (default: by version)
 *     --web OUT.html         write a self-contained page that draws frame --frame N of
 *                            the scene with WebGL 2 (our GLSL ES 3.00) and exit
 *     --limits NAME|FILE     the device's limits (limits_arg.h): a pair that cannot fit
 *                            is refused, exit 1 with the one 3613 diagnostic
 *
 * The scene: a cube of 36 vertices (two triangles a face) turning with time, whose
 * attributes are va0 position (x, y, z, 1), va1 normal (0 w), va2 uv, va3 colour,
 * va4.. the uv again; vc0..vc3 the model-view-projection rows (for `m44 op, va0,
 * vc0`, D3D-style clip space as Stage3D's), vc4.. and fc0.. animated values in
 * [0, 1] (0.5 + 0.5 sin(t + k)); every sampler a default texture: 2D a checkerboard
 * with a full mip chain, cube a different colour a face. Frames are a pure function
 * of the frame number, so a window frame and a headless one can be compared.
 *
 * Backends: gl draws our GLSL through the harness (harness_gl.c) in the window's
 * GL 3.3 core context (RGBA32F target), blitted to the window through a texture.
 * vulkan draws our SPIR-V through the offscreen Vulkan runner (harness_vk.c, one
 * device for the whole run) into an RGBA32F image, reads it back and shows it
 * through the same GL texture blit: rendered by Vulkan, presented by GL (no
 * swapchain). Both draw the same scene (the code below), so their frames compare.
 *
 * --web writes the same draw (the scene at frame N: geometry, constants, textures,
 * the GLSL ES 3.00 translations) into a page (tools/gpu/webgl_page.c) that any browser
 * with WebGL 2 draws into a canvas of --size pixels; nothing in it needs the network.
 */
#define GL_GLEXT_PROTOTYPES 1
#include "agal/interp.h"
#include "agal/stage3d.h"
#include "agalrun.h"
#include "harness.h"
#include "harness_web.h"
#include "limits_arg.h"
#ifdef AGALVIEW_HAVE_SCENE
#include "replay.h"
#endif

#include <GLFW/glfw3.h>
#include <GL/glcorearb.h>
#include <png.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NV = 36, TEX = 64, TEX_LEVELS = 7 };

typedef struct scene {
    float attr[5][NV][4];
    float (*vc)[4], (*fc)[4];
    unsigned nvc, nfc;
    float *texels[HARNESS_MAX_TEXTURES];
    harness_texture tex[HARNESS_MAX_TEXTURES];
} scene;

static void cube_geometry(scene *s)
{
    static const int faces[6][3] = {{0, 1, 2}, {0, 1, 2}, {1, 2, 0}, {1, 2, 0}, {2, 0, 1}, {2, 0, 1}};
    static const float corner[6][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}};
    for (int f = 0; f < 6; f++) {
        float sign = f % 2 ? -1.0f : 1.0f;
        for (int k = 0; k < 6; k++) {
            int v = f * 6 + k;
            float p[3];
            p[faces[f][0]] = sign;
            p[faces[f][1]] = corner[k][0] * sign; /* keeps the winding outward on both sides */
            p[faces[f][2]] = corner[k][1];
            float n[3] = {0, 0, 0};
            n[faces[f][0]] = sign;
            float uv[4] = {0.5f + 0.5f * corner[k][0], 0.5f - 0.5f * corner[k][1], 0, 0};
            float pos[4] = {p[0], p[1], p[2], 1}, nrm[4] = {n[0], n[1], n[2], 0};
            float col[4] = {0.5f + 0.5f * p[0], 0.5f + 0.5f * p[1], 0.5f + 0.5f * p[2], 1};
            memcpy(s->attr[0][v], pos, 16);
            memcpy(s->attr[1][v], nrm, 16);
            memcpy(s->attr[2][v], uv, 16);
            memcpy(s->attr[3][v], col, 16);
            memcpy(s->attr[4][v], uv, 16);
        }
    }
}

/* Rows of projection * view * rotation(t): camera at z = -4 looking at the origin,
 * D3D-style projection (z in [0, w]), 60 degrees, aspect 1, near 1, far 10. */
static void mvp_rows(float t, float rows[4][4])
{
    float a = t * 0.7f + 0.5f, b = t * 0.4f + 0.3f;
    float ca = cosf(a), sa = sinf(a), cb = cosf(b), sb = sinf(b);
    /* rotation about y by a, then about x by b */
    float r[3][3] = {{ca, 0, sa}, {sb * sa, cb, -sb * ca}, {-cb * sa, sb, cb * ca}};
    float f = 1.0f / tanf(3.14159265f / 6), zn = 1, zf = 10, dz = 4;
    for (int c = 0; c < 3; c++) {
        rows[0][c] = f * r[0][c];
        rows[1][c] = f * r[1][c];
        rows[2][c] = zf / (zf - zn) * r[2][c];
        rows[3][c] = r[2][c];
    }
    rows[0][3] = 0;
    rows[1][3] = 0;
    rows[2][3] = zf / (zf - zn) * dz - zf * zn / (zf - zn);
    rows[3][3] = dz;
}

static void animate(scene *s, unsigned frame)
{
    float t = (float)frame / 60.0f;
    for (unsigned i = 0; i < s->nvc; i++)
        for (int k = 0; k < 4; k++) s->vc[i][k] = 0.5f + 0.5f * sinf(t + (float)(i * 4 + k));
    for (unsigned i = 0; i < s->nfc; i++)
        for (int k = 0; k < 4; k++) s->fc[i][k] = 0.5f + 0.5f * sinf(t + (float)(i * 4 + k) * 0.7f);
    mvp_rows(t, s->vc);
}

/* Every sampler's texture, sampled with its slot's state after setProgram on a new
 * Context3D (agal_slots_*): the token's own, or clamp, nearest, mipnone for a token
 * with ignoresampler, as Flash draws the pair before any setSamplerStateAt. */
static int default_textures(scene *s, const agal_program *fp)
{
    static const float face_colour[6][4] = {{1, 0.2f, 0.2f, 1}, {0.2f, 1, 1, 1},    {0.2f, 1, 0.2f, 1},
                                            {1, 0.2f, 1, 1},    {0.2f, 0.2f, 1, 1}, {1, 1, 0.2f, 1}};
    agal_sampler_slots slots;
    agal_slots_init(&slots);
    agal_slots_set_program(&slots, fp);
    for (uint32_t k = 0; k < fp->ntokens; k++) {
        const agal_token *t = &fp->tokens[k];
        if ((t->op != AGAL_OP_TEX && t->op != AGAL_OP_TED) || t->s.num >= HARNESS_MAX_TEXTURES ||
            s->tex[t->s.num].present)
            continue;
        harness_texture *h = &s->tex[t->s.num];
        *h = (harness_texture){.present = true,
                               .cube = t->s.dim == AGAL_DIM_CUBE,
                               .size = TEX,
                               .levels = TEX_LEVELS,
                               .sampler = agal_slots_resolve(&slots, &t->s)};
        float *px = malloc(harness_texture_floats(h) * sizeof(float));
        if (!px) return -1;
        s->texels[t->s.num] = px;
        h->texels = px;
        for (unsigned f = 0; f < (h->cube ? 6u : 1u); f++)
            for (unsigned l = 0; l < TEX_LEVELS; l++) {
                unsigned sz = TEX >> l;
                float *lv = px + harness_texture_offset(h, f, l);
                for (unsigned j = 0; j < sz; j++)
                    for (unsigned i = 0; i < sz; i++) {
                        /* 8x8 checks; coarser levels fade to the average, as a box filter would */
                        float check = (((i << l) / 8 + (j << l) / 8) % 2) ? 1.0f : 0.25f;
                        float v = l >= 3 ? 0.625f : check;
                        for (int c = 0; c < 4; c++)
                            lv[(j * sz + i) * 4 + c] = h->cube ? face_colour[f][c] * v : (c == 3 ? 1 : v);
                    }
            }
    }
    return 0;
}

static void scene_free(scene *s)
{
    free(s->vc);
    free(s->fc);
    for (int i = 0; i < HARNESS_MAX_TEXTURES; i++) free(s->texels[i]);
}

/* ---- PNG -------------------------------------------------------------------------- */

/* Writes rows top-down, RGBA8 from [0, 1] floats (clamped; NaN as 0), through a
 * temporary file renamed over path (toolio.h). Prints why it failed. */
static int write_png(const char *path, const float *rgba, unsigned w, unsigned h)
{
    tool_output out;
    if (!tool_output_open(&out, "agalview", path)) return -1;
    FILE *f = out.f;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    unsigned char *row = malloc((size_t)w * 4);
    int rc = -1;
    if (!png || !info || !row || setjmp(png_jmpbuf(png))) goto done;
    png_init_io(png, f);
    png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (unsigned y = 0; y < h; y++) {
        for (unsigned i = 0; i < w * 4; i++) {
            float v = rgba[(size_t)y * w * 4 + i];
            v = v > 0 ? (v < 1 ? v : 1) : 0;
            row[i] = (unsigned char)(v * 255.0f + 0.5f);
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    rc = 0;
done:
    if (png) png_destroy_write_struct(&png, info ? &info : NULL);
    free(row);
    if (rc) fprintf(stderr, "agalview: cannot encode %s\n", path);
    return tool_output_close(&out, "agalview", rc == 0) ? rc : -1;
}

/* Reads an RGBA8 PNG as written by write_png; malloc'd, NULL on error. */
static unsigned char *read_png(const char *path, unsigned *w, unsigned *h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) return NULL;
    img.format = PNG_FORMAT_RGBA;
    unsigned char *px = malloc(PNG_IMAGE_SIZE(img));
    if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
        free(px);
        png_image_free(&img);
        return NULL;
    }
    *w = img.width;
    *h = img.height;
    return px;
}

/* A pixel differs when a channel is off by more than tol/255; the frames match when
 * at most max_pct percent of the pixels differ (0: none) and the frame is not flat. */
static int expect_png(const char *got_path, const char *want_path, unsigned tol, double max_pct)
{
    unsigned gw, gh, ww, wh;
    unsigned char *got = read_png(got_path, &gw, &gh), *want = read_png(want_path, &ww, &wh);
    int rc = 1;
    if (!got || !want || gw != ww || gh != wh) {
        fprintf(stderr, "agalview: cannot compare %s with %s (%s)\n", got_path, want_path,
                !got || !want ? "not a readable PNG" : "sizes differ");
        rc = 2;
        goto done;
    }
    size_t pixels = (size_t)gw * gh, bad = 0, varied = 0;
    int worst = 0;
    for (size_t p = 0; p < pixels; p++) {
        bool off = false;
        for (size_t i = 4 * p; i < 4 * p + 4; i++) {
            int d = abs((int)got[i] - (int)want[i]);
            worst = d > worst ? d : worst;
            off |= d > (int)tol;
            varied += got[i] != got[i % 4];
        }
        bad += off;
    }
    double pct = 100.0 * (double)bad / (double)pixels;
    fprintf(stderr, "agalview: %zu of %zu pixels (%.3f%%) differ from %s by more than %u/255 (largest %d/255)\n", bad,
            pixels, pct, want_path, tol, worst);
    if (bad && pct > max_pct) fprintf(stderr, "agalview: more than %.3f%% of the pixels differ\n", max_pct);
    else if (!varied) fprintf(stderr, "agalview: the frame is one flat colour\n");
    else rc = 0;
done:
    free(got);
    free(want);
    return rc;
}

/* ---- drawing ------------------------------------------------------------------------- */

typedef enum backend { BACKEND_GL, BACKEND_VULKAN } backend;

typedef struct view {
    agal_upload_result up; /* the pair as agal_upload gives it: GLSL 330, or SPIR-V for vulkan */
    unsigned noc, size;
    backend be;
    harness_vk *vk; /* vulkan: the runner, created once, reused every frame */
    harness_gl *gl; /* gl --headless: the EGL context; NULL = the current one */
    scene sc;
} view;

static void make_draw(view *v, harness_draw *d)
{
    *d = (harness_draw){.nverts = NV,
                        .ninstances = 1,
                        .vc = &v->sc.vc[0][0],
                        .nvc = v->sc.nvc,
                        .fc = &v->sc.fc[0][0],
                        .nfc = v->sc.nfc,
                        .noc = v->noc,
                        .width = v->size,
                        .height = v->size,
                        .depth_less = true};
    harness_draw_upload(d, &v->up);
    for (int a = 0; a < HARNESS_MAX_ATTRIBS; a++) d->attribs[a] = v->sc.attr[a < 5 ? a : 4][0];
    memcpy(d->tex, v->sc.tex, sizeof d->tex);
}

/* Discarded pixels and the background come back as HARNESS_CLEAR: shown black. */
static void background(float *rgba, size_t pixels)
{
    for (size_t i = 0; i < pixels; i++)
        if (rgba[4 * i] == HARNESS_CLEAR) rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = 0, rgba[4 * i + 3] = 1;
}

/* One frame of the scene, top-down RGBA rows in r->color[0], by the view's backend. */
static int render(view *v, unsigned frame, harness_result *r)
{
    char err[1024];
    harness_draw d;
    animate(&v->sc, frame);
    make_draw(v, &d);
    int rc = v->be == BACKEND_VULKAN ? harness_vk_run(v->vk, &d, r, err, sizeof err)
             : v->gl                 ? harness_gl_run(v->gl, &d, r, err, sizeof err)
                                     : harness_gl_run_current(&d, r, err, sizeof err);
    if (rc) {
        fprintf(stderr, "agalview: %s\n", err);
        return -1;
    }
    background(r->color[0], (size_t)v->size * v->size);
    return 0;
}

/* Program3D.upload of the pair for the backend (its bytes again: tool_encode_tokens). */
static int upload(agal_context *ctx, const agal_program *vp, const agal_program *fp, agal_target target,
                  const agal_limits *limits, agal_upload_result *up)
{
    size_t vn, fn;
    const uint8_t *vb = tool_encode_tokens(ctx, vp->tokens, vp->ntokens, AGAL_VERTEX, vp->version, &vn);
    const uint8_t *fb = tool_encode_tokens(ctx, fp->tokens, fp->ntokens, AGAL_FRAGMENT, fp->version, &fn);
    agal_upload_options uo = {.size = sizeof(agal_upload_options),
                              .target = target,
                              .profile = fp->profile,
                              .lenient = vp->lenient || fp->lenient,
                              .limits = limits,
                              /* a driver's refusal names the AGAL token (harness_gl.c) */
                              .debug_info = true};
    *up = agal_upload_result_init();
    agal_status st = vb && fb ? agal_upload(ctx, vb, vn, fb, fn, &uo, up) : AGAL_ERR_NOMEM;
    if (st == AGAL_OK) return 0;
    tool_print_diags(ctx, "agalview");
    if (st == AGAL_ERR_UNSUPPORTED) return 1; /* the pair does not fit --limits (or the target) */
    static const char *const names[] = {"SPIR-V", "GLSL", "GLSL ES 3.00", "GLSL ES 1.00"};
    fprintf(stderr, "agalview: %s translation failed\n", names[target]);
    return -1;
}

/* The backend's runner that needs no window: the Vulkan device (both modes), or
 * for gl --headless an EGL context. */
static int open_runner(view *v, bool headless)
{
    char err[512];
    if (v->be == BACKEND_VULKAN) v->vk = harness_vk_create(false, err, sizeof err);
    else if (headless) v->gl = harness_gl_create(false, err, sizeof err);
    if ((v->be == BACKEND_VULKAN && !v->vk) || (v->be == BACKEND_GL && headless && !v->gl)) {
        fprintf(stderr, "agalview: %s\n", err);
        return -1;
    }
    return 0;
}

static void close_runner(view *v)
{
    if (v->vk) harness_vk_destroy(v->vk);
    if (v->gl) harness_gl_destroy(v->gl);
    v->vk = NULL;
    v->gl = NULL;
}

/* --web: the frame's draw as a page for WebGL 2, written through toolio.h. */
static int write_page(view *v, unsigned frame, const char *path)
{
    harness_draw d;
    animate(&v->sc, frame);
    make_draw(v, &d); /* the upload's GLSL ES 3.00 */
    web_text t;
    web_page_begin(&t, "view", v->size);
    web_page_draw(&t, 2, &d);
    web_page_end(&t);
    int rc = t.oom                                         ? (fprintf(stderr, "agalview: out of memory\n"), 2)
             : tool_write_file("agalview", path, t.p, t.n) ? 0
                                                           : 2;
    web_text_free(&t);
    return rc;
}

static int run_headless(view *v, unsigned frame, const char *shot)
{
    harness_result r;
    if (render(v, frame, &r)) return 2;
    int rc = shot ? write_png(shot, r.color[0], v->size, v->size) : 0;
    harness_result_free(&r);
    return rc ? 2 : 0;
}

/* Shows frame pixels (top-down rows) in the window through a texture blit. */
static void present(const float *rgba, unsigned size, GLuint tex, GLuint fbo)
{
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, (GLsizei)size, (GLsizei)size, 0, GL_RGBA, GL_FLOAT, rgba);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    /* rows are top-down, the window's origin is bottom-left: flip while blitting */
    glBlitFramebuffer(0, 0, (GLint)size, (GLint)size, 0, (GLint)size, (GLint)size, 0, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

/* Reads the window's back buffer (what was presented), top-down. */
static float *read_window(unsigned size)
{
    float *tmp = malloc((size_t)size * size * 16), *out = malloc((size_t)size * size * 16);
    if (!tmp || !out) {
        free(tmp);
        free(out);
        return NULL;
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, (GLsizei)size, (GLsizei)size, GL_RGBA, GL_FLOAT, tmp);
    for (unsigned y = 0; y < size; y++)
        memcpy(out + (size_t)y * size * 4, tmp + (size_t)(size - 1 - y) * size * 4, (size_t)size * 16);
    free(tmp);
    return out;
}

static int run_window(view *v, unsigned frame, const char *shot)
{
    if (!glfwInit()) {
        fprintf(stderr, "agalview: cannot initialise GLFW (no display?)\n");
        return 2;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    GLFWwindow *win =
        glfwCreateWindow((int)v->size, (int)v->size,
                         v->be == BACKEND_VULKAN ? "agalview (Vulkan, shown through GL)" : "agalview (GL)", NULL, NULL);
    if (!win) {
        fprintf(stderr, "agalview: cannot open a GL 3.3 core window\n");
        glfwTerminate();
        return 2;
    }
    glfwMakeContextCurrent(win);
    harness_pin_libraries(); /* the GLX driver too, for the sanitizers (harness.h) */
    GLuint tex = 0, fbo = 0;
    glGenTextures(1, &tex);
    glGenFramebuffers(1, &fbo);
    int rc = 0;
    for (unsigned f = shot ? frame : 0; !glfwWindowShouldClose(win); f++) {
        harness_result r;
        if (render(v, f, &r)) {
            rc = 2;
            break;
        }
        glViewport(0, 0, (GLsizei)v->size, (GLsizei)v->size);
        present(r.color[0], v->size, tex, fbo);
        harness_result_free(&r);
        if (shot) {
            float *px = read_window(v->size);
            if (!px) fprintf(stderr, "agalview: out of memory\n");
            rc = px && write_png(shot, px, v->size, v->size) == 0 ? 0 : 2;
            free(px);
            break;
        }
        glfwSwapBuffers(win);
        glfwPollEvents();
    }
    glDeleteTextures(1, &tex);
    glDeleteFramebuffers(1, &fbo);
    glfwDestroyWindow(win);
    glfwTerminate();
    return rc;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: agalview [options] VERTEX FRAGMENT   (.agal text or bytecode)\n"
            "  --backend gl|vulkan  gl (default): our GLSL drawn in the window's GL context;\n"
            "                       vulkan: our SPIR-V drawn offscreen by Vulkan, the frame read\n"
            "                       back and shown in the window through GL (no swapchain)\n"
            "  --screenshot OUT.png save frame --frame N and exit\n"
            "  --frame N            the frame to draw/save (time N/60 s, default 0)\n"
            "  --size N             window and frame size (default 256)\n"
            "  --headless           no window (needs --screenshot): GL through EGL, or Vulkan alone\n"
            "  --scene SCENE.json   replay a Stage3D scene (agalrun replay's format) in the window, no programs\n"
            "  --expect REF.png     with --screenshot: exit 1 unless the frame matches REF.png\n"
            "  --tolerance N        a channel matches within N/255 (default 2)\n"
            "  --max-differing P    percent of pixels allowed not to match (default 0)\n"
            "  --profile P          a Context3DProfile name (baselineConstrained, standard, enhanced...)\n"
            "                       or baseline|standard|standard_extended (default: by version)\n"
            "  --web OUT.html       write a page that draws frame --frame N with WebGL 2 and exit\n"
            "  --limits NAME|FILE.json   the device's limits (a preset: webgl1, webgl2, gl33, vulkan,\n"
            "                       webgpu, webgpu-compat, wgpu-gl31, or a JSON file): a pair that\n"
            "                       cannot fit them is refused (exit 1, error 3613 naming the limit)\n");
    return 2;
}

/* The value of a numeric option; false (the message printed) when it is not one. */
static bool number_arg(const char *opt, const char *text, unsigned min, unsigned max, unsigned *out)
{
    return tool_parse_unsigned("agalview", opt, text, min, max, out);
}

int main(int argc, char **argv)
{
    const char *files[2] = {0}, *shot = NULL, *expect = NULL, *scene_path = NULL, *web = NULL, *limits = NULL;
    unsigned frame = 0, size = 256, nfiles = 0, tol = 2;
    double max_pct = 0;
    bool headless = false, ok = true;
    backend be = BACKEND_GL;
    agal_profile profile = AGAL_PROFILE_AUTO;
    for (int i = 1; ok && i < argc; i++) {
        const char *a = argv[i];
        bool value = i + 1 < argc;
        if (!strcmp(a, "--screenshot") && value) shot = argv[++i];
        else if (!strcmp(a, "--frame") && value)
            ok = number_arg(a, argv[++i], 0, 1u << 24, &frame); /* (float)N is exact up to 2^24 */
        else if (!strcmp(a, "--size") && value) ok = number_arg(a, argv[++i], 8, 4096, &size);
        else if (!strcmp(a, "--expect") && value) expect = argv[++i];
        else if (!strcmp(a, "--scene") && value) scene_path = argv[++i];
        else if (!strcmp(a, "--web") && value) web = argv[++i];
        else if (!strcmp(a, "--limits") && value) limits = argv[++i];
        else if (!strcmp(a, "--tolerance") && value) ok = number_arg(a, argv[++i], 0, 255, &tol);
        else if (!strcmp(a, "--max-differing") && value)
            ok = tool_parse_double("agalview", a, argv[++i], 0, 100, &max_pct);
        else if (!strcmp(a, "--profile") && value) ok = tool_parse_profile("agalview", argv[++i], &profile);
        else if (!strcmp(a, "--backend") && value) {
            const char *b = argv[++i];
            ok = !strcmp(b, "gl") || !strcmp(b, "vulkan");
            if (!ok) fprintf(stderr, "agalview: --backend: '%s' is not gl or vulkan\n", b);
            be = strcmp(b, "vulkan") ? BACKEND_GL : BACKEND_VULKAN;
        } else if (!strcmp(a, "--help")) return usage();
        else if (!strcmp(a, "--headless")) headless = true;
        else if (a[0] != '-' && nfiles < 2) files[nfiles++] = a;
        else {
            fprintf(stderr, "agalview: %s: %s\n", a,
                    a[0] != '-' ? "more than two programs"
                    : value     ? "unknown option"
                                : "unknown option or no value");
            ok = false;
        }
    }
#ifdef AGALVIEW_HAVE_SCENE
    if (ok && scene_path && !nfiles && !expect && (shot || !headless))
        return tool_exit("agalview", replay_view("agalview", scene_path, shot, headless));
#endif
    if (ok && scene_path)
        fprintf(stderr, "agalview: --scene takes no programs and no --expect (headless needs --screenshot)%s\n",
#ifdef AGALVIEW_HAVE_SCENE
                ""
#else
                "; this agalview has no replay"
#endif
        );
    if (ok && scene_path) return usage();
    if (ok && nfiles != 2) fprintf(stderr, "agalview: give a vertex and a fragment program\n");
    else if (ok && headless && !shot) fprintf(stderr, "agalview: --headless needs --screenshot\n");
    else if (ok && expect && !shot) fprintf(stderr, "agalview: --expect needs --screenshot\n");
    else if (ok && web && (shot || headless || be != BACKEND_GL))
        fprintf(stderr, "agalview: --web draws nothing here: no --screenshot, --headless or --backend with it\n");
    if (!ok || nfiles != 2 || (headless && !shot) || (expect && !shot) ||
        (web && (shot || headless || be != BACKEND_GL)))
        return usage();
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *vp, *fp;
    /* text: its `// stage:` line, else the slot's */
    tool_program_opts po = {.stage = -1, .slot = AGAL_SLOT_VERTEX, .slot_stage = true, .profile = profile};
    view v = {.size = size, .be = be};
    int rc = ctx ? 0 : 2;
    if (!ctx) fprintf(stderr, "agalview: out of memory\n");
    if (!rc) rc = tool_load_program(ctx, files[0], &po, &vp); /* 1 invalid, 2 unreadable */
    po.slot = AGAL_SLOT_FRAGMENT;
    if (!rc) rc = tool_load_program(ctx, files[1], &po, &fp);
    if (!rc) rc = tool_link_pair(ctx, "agalview", files[0], vp, files[1], fp, false);
    agal_limits device = agal_limits_init();
    if (!rc && limits) rc = tool_load_limits(ctx, "agalview", limits, &device);
    if (rc) goto done;
    rc = 2; /* from here on a failure is the tool's or the driver's */
    /* --web: the page's WebGL 2 draws the GLSL ES 3.00 upload. */
    agal_target target = web ? AGAL_TARGET_ESSL3 : be == BACKEND_VULKAN ? AGAL_TARGET_SPIRV : AGAL_TARGET_GLSL;
    int refused = upload(ctx, vp, fp, target, limits ? &device : NULL, &v.up);
    if (refused) {
        rc = refused > 0 ? 1 : 2;
        goto done;
    }
    unsigned ocs = agal_program_writes(fp, AGAL_REG_OUTPUT);
    while (v.noc < HARNESS_MAX_OUTPUTS && (ocs & (1u << v.noc))) v.noc++;
    v.noc = v.noc ? v.noc : 1;
    cube_geometry(&v.sc);
    v.sc.nvc = agal_reg_count(vp->profile, AGAL_VERTEX, AGAL_REG_CONSTANT);
    v.sc.nfc = agal_reg_count(fp->profile, AGAL_FRAGMENT, AGAL_REG_CONSTANT);
    v.sc.vc = calloc(v.sc.nvc, 16);
    v.sc.fc = calloc(v.sc.nfc, 16);
    if (!v.sc.vc || !v.sc.fc || default_textures(&v.sc, fp)) {
        fprintf(stderr, "agalview: out of memory\n");
        goto done;
    }
    if (web) {
        rc = write_page(&v, frame, web);
        goto done;
    }
    if (open_runner(&v, headless)) goto done;
    rc = headless ? run_headless(&v, frame, shot) : run_window(&v, frame, shot);
    if (rc == 0 && expect) rc = expect_png(shot, expect, tol, max_pct);
done:
    close_runner(&v);
    scene_free(&v.sc);
    agal_context_free(ctx);
    return tool_exit("agalview", rc);
}
