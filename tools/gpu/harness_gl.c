/* harness_gl.c: run one draw of GLSL 330 shaders on an OpenGL 3.3+ core context and
 * read back every output (see harness.h).
 *
 * The context is headless, made through EGL (gl_context.h). Drawing goes to an FBO of RGBA32F colour attachments and a 32-bit
 * float depth attachment. GL functions are the core entry points libOpenGL exports
 * (GL_GLEXT_PROTOTYPES), so no loader is needed.
 *
 * As on screen, the program keeps agal_yflip = 1 and GL's window origin is the
 * bottom-left, so rows are flipped on readback to put Stage3D's top row first. A
 * pre pass renders to a texture as an emulator does for setRenderToTexture, with
 * agal_gl_yflip(true) and agal_gl_front_face(true), or for a pair uploaded with
 * AGAL_CLIP_CONTROL (clip_control) under glClipControl (GL 4.5) with
 * agal_gl_clip_origin(true). Program set-up, samplers and culling come from
 * <agal/gl.h>.
 */
#define GL_GLEXT_PROTOTYPES 1
#include "agal/stage3d.h"
#include "harness.h"

#include "gl_context.h"

#include <GL/glcorearb.h>

#include "agal/gl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct harness_gl {
    gl_context egl;
    unsigned messages;
    char renderer[256];
};

/* ---- context ------------------------------------------------------------------ */

static void APIENTRY on_gl_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                   const GLchar *message, const void *user)
{
    harness_gl *h = (harness_gl *)user;
    if (type != GL_DEBUG_TYPE_ERROR) return; /* llvmpipe reports shader-compile info and performance notes as well */
    h->messages++;
    fprintf(stderr, "gl debug (id %u): %s\n", id, message);
}

harness_gl *harness_gl_create(bool debug, char *err, size_t errsize)
{
    harness_gl *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    if (!gl_context_open(&h->egl, err, errsize)) {
        free(h);
        return NULL;
    }
    harness_pin_libraries();
    snprintf(h->renderer, sizeof h->renderer, "%s (%s)", (const char *)glGetString(GL_RENDERER),
             (const char *)glGetString(GL_VERSION));
    if (debug) {
        GLint major = 0, minor = 0;
        glGetIntegerv(GL_MAJOR_VERSION, &major);
        glGetIntegerv(GL_MINOR_VERSION, &minor);
        if (major * 10 + minor >= 43) { /* KHR_debug is core from 4.3 */
            glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
            glDebugMessageCallback(on_gl_message, h);
        }
    }
    return h;
}

void harness_gl_destroy(harness_gl *h)
{
    if (!h) return;
    gl_context_close(&h->egl);
    free(h);
}

unsigned harness_gl_messages(const harness_gl *h) { return h->messages; }
const char *harness_gl_renderer(const harness_gl *h) { return h->renderer; }

int harness_gl_run(harness_gl *h, const harness_draw *d, harness_result *out, char *err, size_t errsize)
{
    if (!eglMakeCurrent(h->egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, h->egl.ctx)) {
        snprintf(err, errsize, "egl: eglMakeCurrent failed");
        return -1;
    }
    return harness_gl_run_current(d, out, err, errsize);
}

/* ---- one draw --------------------------------------------------------------------- */

/* Everything one draw creates, deleted together by gl_free. */
typedef struct gl_draw {
    GLuint prog, vao, fbo, xfb_buf, ubo[2], target; /* target: a pre pass's oc0 texture */
    GLuint attr[HARNESS_MAX_ATTRIBS], tex[HARNESS_MAX_TEXTURES], smp[HARNESS_MAX_TEXTURES];
    GLuint rb[HARNESS_MAX_OUTPUTS + 1];
    double compile_s, draw_s; /* harness_result's */
} gl_draw;

static void gl_free(gl_draw *g)
{
    if (g->prog) glDeleteProgram(g->prog);
    glDeleteVertexArrays(1, &g->vao);
    glDeleteFramebuffers(1, &g->fbo);
    glDeleteBuffers(1, &g->xfb_buf);
    glDeleteBuffers(2, g->ubo);
    glDeleteBuffers(HARNESS_MAX_ATTRIBS, g->attr);
    glDeleteTextures(1, &g->target);
    glDeleteTextures(HARNESS_MAX_TEXTURES, g->tex);
    glDeleteSamplers(HARNESS_MAX_TEXTURES, g->smp);
    glDeleteRenderbuffers(HARNESS_MAX_OUTPUTS + 1, g->rb);
}

/* The driver's log with the AGAL token after each line it names, where the text is
 * an upload's translated with debug info (docs/debug-info.md); else as it is. */
static void refused(const harness_draw *d, GLenum stage, const char *src, const char *log, char *err, size_t errsize)
{
    const agal_shader *sh = d->layout ? &d->layout->shaders[stage == GL_VERTEX_SHADER ? AGAL_VERTEX : AGAL_FRAGMENT]
                                      : NULL;
    agal_context *ctx = sh && sh->text == src && sh->source ? agal_context_new(NULL, NULL) : NULL;
    const char *mapped = ctx ? agal_map_driver_log(ctx, sh, log) : NULL;
    snprintf(err, errsize, "gl: %s shader does not compile: %s", stage == GL_VERTEX_SHADER ? "vertex" : "fragment",
             mapped ? mapped : log);
    agal_context_free(ctx);
}

static GLuint compile(const harness_draw *d, GLenum stage, const char *src, char *err, size_t errsize)
{
    GLuint s = glCreateShader(stage);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        refused(d, stage, src, log, err, errsize);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

/* Links the program, capturing gl_Position and v<capture_regs[k]> interleaved. */
static int link_program(gl_draw *g, const harness_draw *d, char *err, size_t errsize)
{
    double t0 = tool_seconds();
    GLuint vs = compile(d, GL_VERTEX_SHADER, d->vs_glsl, err, errsize), fs = 0;
    if (!vs) return -1;
    if (d->fs_glsl && !(fs = compile(d, GL_FRAGMENT_SHADER, d->fs_glsl, err, errsize))) {
        glDeleteShader(vs);
        return -1;
    }
    g->prog = glCreateProgram();
    glAttachShader(g->prog, vs);
    if (fs) glAttachShader(g->prog, fs);
    if (d->capture) {
        char names[17][8];
        const char *ptrs[17];
        ptrs[0] = "gl_Position";
        for (unsigned k = 0; k < d->ncapture && k < 16; k++) {
            snprintf(names[k + 1], sizeof names[k + 1], "v%u", (unsigned)d->capture_regs[k]);
            ptrs[k + 1] = names[k + 1];
        }
        glTransformFeedbackVaryings(g->prog, (GLsizei)(1 + d->ncapture), ptrs, GL_INTERLEAVED_ATTRIBS);
    }
    glLinkProgram(g->prog);
    glDeleteShader(vs);
    if (fs) glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(g->prog, GL_LINK_STATUS, &ok);
    g->compile_s = tool_seconds() - t0;
    if (!ok) {
        char log[1024] = "";
        glGetProgramInfoLog(g->prog, sizeof log, NULL, log);
        snprintf(err, errsize, "gl: program does not link: %s", log);
        return -1;
    }
    return 0;
}

static GLuint upload_buffer(GLenum target, const void *data, size_t size)
{
    GLuint b = 0;
    glGenBuffers(1, &b);
    glBindBuffer(target, b);
    glBufferData(target, (GLsizeiptr)(size ? size : 16), NULL, GL_STATIC_DRAW);
    if (data && size) glBufferSubData(target, 0, (GLsizeiptr)size, data);
    return b;
}

/* Attributes, and the layout's constant blocks (agal_gl_program_setup binds each
 * block to its binding and each fs<i> to unit i). */
static void bind_inputs(gl_draw *g, const harness_draw *d, const agal_upload_result *L)
{
    glGenVertexArrays(1, &g->vao);
    glBindVertexArray(g->vao);
    for (GLuint i = 0; i < HARNESS_MAX_ATTRIBS; i++) {
        if (!d->attribs[i]) continue;
        g->attr[i] = upload_buffer(GL_ARRAY_BUFFER, d->attribs[i], (size_t)d->nverts * 16);
        glVertexAttribPointer(i, 4, GL_FLOAT, GL_FALSE, 16, NULL);
        glEnableVertexAttribArray(i);
    }
    agal_gl_program_setup(g->prog, L);
    for (size_t i = 0; i < L->nblocks; i++) {
        float scratch[HARNESS_MAX_CONSTANTS][4];
        unsigned n;
        const float *data = harness_constants(d, L->blocks[i].stage, scratch, &n);
        g->ubo[i] = upload_buffer(GL_UNIFORM_BUFFER, data, (size_t)n * 16);
        glBindBufferBase(GL_UNIFORM_BUFFER, L->blocks[i].binding, g->ubo[i]);
    }
}

/* Each of the layout's samplers: its texture (uploaded, or the pre pass's oc0) on
 * unit fs number, with a sampler object set from the slot's resolved state. */
static void bind_textures(gl_draw *g, const harness_draw *d, const agal_upload_result *L, GLuint rendered)
{
    /* Vulkan samples cube maps seamlessly; GL must be asked to. */
    glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
    for (size_t k = 0; k < L->nsamplers; k++) {
        unsigned i = L->samplers[k].num;
        const harness_texture *t = &d->tex[i];
        GLenum target = t->cube ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D;
        glActiveTexture(GL_TEXTURE0 + i);
        if (t->rendered) {
            glBindTexture(GL_TEXTURE_2D, rendered);
        } else {
            glGenTextures(1, &g->tex[i]);
            glBindTexture(target, g->tex[i]);
            glTexParameteri(target, GL_TEXTURE_BASE_LEVEL, 0);
            glTexParameteri(target, GL_TEXTURE_MAX_LEVEL, (GLint)t->levels - 1);
            for (unsigned f = 0; f < (t->cube ? 6u : 1u); f++)
                for (unsigned l = 0; l < t->levels; l++) {
                    GLenum face = t->cube ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + f : GL_TEXTURE_2D;
                    GLsizei s = (GLsizei)(t->size >> l);
                    glTexImage2D(face, (GLint)l, GL_RGBA32F, s, s, 0, GL_RGBA, GL_FLOAT,
                                 t->texels + harness_texture_offset(t, f, l));
                }
        }
        /* anisotropy off, as on Vulkan (harness_vk.c's make_sampler says why) */
        agal_gl_sampler p = agal_gl_sampler_params(&t->sampler, 0.0f);
        glGenSamplers(1, &g->smp[i]);
        agal_gl_sampler_apply(g->smp[i], &p);
        glBindSampler(i, g->smp[i]);
    }
}

/* A vertex-only draw still needs a complete framebuffer (surfaceless contexts have
 * none): it gets a 1x1 one with a single colour attachment. A pre pass's colour
 * attachment is a texture (g->target) that the next draw samples. */
static int make_targets(gl_draw *g, const harness_draw *dr, bool to_texture, char *err, size_t errsize)
{
    harness_draw tiny = *dr;
    if (!dr->fs_glsl) {
        tiny.noc = 1;
        tiny.width = tiny.height = 1;
    }
    const harness_draw *d = &tiny;
    glGenFramebuffers(1, &g->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    GLenum bufs[HARNESS_MAX_OUTPUTS];
    glGenRenderbuffers((GLsizei)d->noc + 1, g->rb);
    for (unsigned i = 0; i <= d->noc; i++) {
        bool depth = i == d->noc;
        glBindRenderbuffer(GL_RENDERBUFFER, g->rb[i]);
        glRenderbufferStorage(GL_RENDERBUFFER, depth ? GL_DEPTH_COMPONENT32F : GL_RGBA32F, (GLsizei)d->width,
                              (GLsizei)d->height);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, depth ? GL_DEPTH_ATTACHMENT : GL_COLOR_ATTACHMENT0 + i,
                                  GL_RENDERBUFFER, g->rb[i]);
        if (!depth) bufs[i] = GL_COLOR_ATTACHMENT0 + i;
    }
    if (to_texture) {
        glGenTextures(1, &g->target);
        glBindTexture(GL_TEXTURE_2D, g->target);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, (GLsizei)d->width, (GLsizei)d->height, 0, GL_RGBA, GL_FLOAT, NULL);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, g->target, 0);
    }
    glDrawBuffers((GLsizei)d->noc, bufs);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(err, errsize, "gl: the RGBA32F framebuffer is incomplete");
        return -1;
    }
    const float clear[4] = {HARNESS_CLEAR, HARNESS_CLEAR, HARNESS_CLEAR, HARNESS_CLEAR};
    for (unsigned i = 0; i < d->noc; i++) glClearBufferfv(GL_COLOR, (GLint)i, clear);
    glClearBufferfi(GL_DEPTH_STENCIL, 0, 1.0f, 0);
    glViewport(0, 0, (GLsizei)d->width, (GLsizei)d->height);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(dr->depth_less ? GL_LESS : GL_ALWAYS);
    glDepthMask(GL_TRUE);
    return 0;
}

/* Reads rows bottom-up from GL and stores them top-down. */
static float *read_rows(const harness_draw *d, GLenum format, unsigned comps)
{
    size_t row = (size_t)d->width * comps;
    float *tmp = malloc(row * d->height * sizeof(float)), *out = malloc(row * d->height * sizeof(float));
    if (!tmp || !out) {
        free(tmp);
        free(out);
        return NULL;
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, (GLsizei)d->width, (GLsizei)d->height, format, GL_FLOAT, tmp);
    for (unsigned y = 0; y < d->height; y++)
        memcpy(out + row * y, tmp + row * (d->height - 1 - y), row * sizeof(float));
    free(tmp);
    return out;
}

static int collect(gl_draw *g, const harness_draw *d, harness_result *out, char *err, size_t errsize)
{
    if (d->fs_glsl) {
        for (unsigned i = 0; i < d->noc; i++) {
            glReadBuffer(GL_COLOR_ATTACHMENT0 + i);
            if (!(out->color[i] = read_rows(d, GL_RGBA, 4))) goto nomem;
        }
        if (!(out->depth = read_rows(d, GL_DEPTH_COMPONENT, 1))) goto nomem;
    }
    if (d->capture) {
        out->xfb_floats = (size_t)d->nverts * d->ninstances * (1 + d->ncapture) * 4;
        if (!(out->xfb = malloc(out->xfb_floats * sizeof(float)))) goto nomem;
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, g->xfb_buf);
        glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, (GLsizeiptr)(out->xfb_floats * sizeof(float)), out->xfb);
    }
    return 0;
nomem:
    snprintf(err, errsize, "out of memory");
    return -1;
}

/* setCulling and Stage3D's front face, which flips with the vertex program's
 * render-to-texture flip. */
static void set_culling(const harness_draw *d, bool flipped)
{
    GLenum cull = agal_gl_cull_face(d->cull);
    if (cull) {
        glEnable(GL_CULL_FACE);
        glCullFace(cull);
    } else {
        glDisable(GL_CULL_FACE);
    }
    glFrontFace(agal_gl_front_face(flipped));
}

/* Links, binds and draws d: to its framebuffer, or (to_texture, a pre pass) into
 * the texture g->target with agal_gl_yflip(true); rendered: the texture a
 * `rendered` sampler samples. */
static int draw_one(gl_draw *g, const harness_draw *d, bool to_texture, GLuint rendered, char *err, size_t errsize)
{
    harness_layout own;
    const agal_upload_result *L = harness_layout_of(d, &own);
    if (link_program(g, d, err, errsize)) return -1;
    bind_inputs(g, d, L);
    GLint flip = glGetUniformLocation(g->prog, AGAL_GLSL_YFLIP);
    if (flip >= 0) glUniform1f(flip, agal_gl_yflip(to_texture));
    bind_textures(g, d, L, rendered);
    if (make_targets(g, d, to_texture, err, errsize)) return -1;
    set_culling(d, to_texture && !d->clip_control);
    if (d->fs_glsl) glDisable(GL_RASTERIZER_DISCARD);
    else glEnable(GL_RASTERIZER_DISCARD);
    if (d->capture) {
        g->xfb_buf = upload_buffer(GL_TRANSFORM_FEEDBACK_BUFFER, NULL,
                                   (size_t)d->nverts * d->ninstances * (1 + d->ncapture) * 16);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, g->xfb_buf);
        glBeginTransformFeedback(GL_TRIANGLES);
    }
    if (d->clip_control) glClipControl(agal_gl_clip_origin(to_texture), GL_ZERO_TO_ONE);
    double t0 = tool_seconds();
    glDrawArraysInstanced(GL_TRIANGLES, 0, (GLsizei)d->nverts, (GLsizei)d->ninstances);
    if (d->capture) glEndTransformFeedback();
    glFinish(); /* the draw's time, the driver's compile at first use included */
    g->draw_s = tool_seconds() - t0;
    if (d->clip_control) glClipControl(GL_LOWER_LEFT, GL_NEGATIVE_ONE_TO_ONE);
    glDisable(GL_RASTERIZER_DISCARD);
    glDisable(GL_CULL_FACE);
    return 0;
}

int harness_gl_run_current(const harness_draw *d, harness_result *out, char *err, size_t errsize)
{
    memset(out, 0, sizeof *out);
    if (harness_check_draw(d, true, err, errsize)) return -1;
    while (glGetError() != GL_NO_ERROR) {}
    gl_draw pre = {0}, g = {0};
    int rc = -1;
    if ((d->pre && draw_one(&pre, d->pre, true, 0, err, errsize)) || draw_one(&g, d, false, pre.target, err, errsize))
        goto done;
    rc = collect(&g, d, out, err, errsize);
    out->compile_s = g.compile_s;
    out->draw_s = g.draw_s;
    GLenum e = glGetError();
    if (rc == 0 && e != GL_NO_ERROR) {
        snprintf(err, errsize, "gl: error 0x%x during the draw", (unsigned)e);
        rc = -1;
    }
done:
    glUseProgram(0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    gl_free(&pre);
    gl_free(&g);
    if (rc) harness_result_free(out);
    return rc;
}
