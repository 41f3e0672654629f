/* replay_gl.c: the replay's OpenGL 3.3 core backend (replay.h), drawing the GLSL
 * 330 translations (agal_upload, AGAL_TARGET_GLSL) with the mappings of <agal/gl.h>.
 *
 * The context is headless, through EGL (gl_context.h), or the caller's current
 * one (agalview's window). GL functions are the core entry points libOpenGL
 * exports (GL_GLEXT_PROTOTYPES), so no loader is needed.
 *
 * Orientation (docs/format.md section 7): the back buffer is drawn as on screen, with
 * agal_yflip 1 and GL's origin at the bottom left, so its rows are read back
 * bottom-up and flipped; a texture is drawn with agal_yflip -1, its first row at
 * the top as Stage3D samples it, and the opposite winding (agal_gl_front_face).
 * Every draw sets all the state it uses, so nothing leaks from one to the next. */
#define GL_GLEXT_PROTOTYPES 1
#include "agal/stage3d.h"
#include <GL/glcorearb.h>

#include "agal/gl.h"
#include "gl_context.h"
#include "replay.h"
#include "replay_pcache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct rb_buffer {
    GLuint name;
    rb_buffer *next;
};

struct rb_texture {
    GLuint name;
    GLenum target; /* GL_TEXTURE_2D or GL_TEXTURE_CUBE_MAP */
    replay_texture_desc d;
    GLuint depth;       /* as a render target: its depth-stencil renderbuffer */
    GLuint multisample; /* antialiased render target: the colour drawn, resolved into the texture */
    GLsizei depth_samples, multisample_samples;
    rb_texture *next;
};

/* A linked program, GL's one pipeline object: one per baked key (the pair's
 * agal_upload_result.program_id, AGAL_DYNAMIC_GL), shared by the uploads of one
 * pair, unless --no-pipeline-cache links one per upload. */
struct rb_program {
    GLuint name;
    GLint yflip;
    agal_pipeline_key key; /* baked */
    rb_program *next;
};

typedef struct gl_backend {
    replay_backend base;
    gl_context egl; /* EGL_NO_DISPLAY with the caller's context (gl_current) */
    GLint max_samples;
    GLfloat max_anisotropy;
    uint32_t width, height;
    GLsizei samples;
    bool depth_stencil;
    GLuint fbo, color, depth;     /* the back buffer (multisampled when samples) */
    GLuint resolve_fbo, resolved; /* its resolve target */
    GLuint vao, ubo[2], sampler[REPLAY_SAMPLERS];
    rb_buffer *buffers;
    rb_texture *textures;
    rb_program *programs;
    bool rebuild; /* --no-pipeline-cache: a program per upload */
    /* --pipeline-cache FILE, where the driver offers a program binary format: each
     * program's binary by its baked key. */
    const char *cache_path;
    rpcache binaries;
    agal_context *logs; /* the driver's refusals mapped back to the AGAL tokens */
    bool fault;         /* replay_open_options.fault */
    agal_stage fault_stage;
    uint32_t fault_token;
} gl_backend;

static int fail(gl_backend *g, const char *what)
{
    snprintf(g->base.err, sizeof g->base.err, "%s", what);
    return -1;
}

/* Every GL error since the last check; 0 when there was none. */
static int check(gl_backend *g, const char *what)
{
    GLenum e = glGetError(), first = e;
    while (e != GL_NO_ERROR) e = glGetError();
    if (first == GL_NO_ERROR) return 0;
    snprintf(g->base.err, sizeof g->base.err, "GL error 0x%x in %s", (unsigned)first, what);
    return -1;
}

/* ---- the context ---------------------------------------------------------------- */

static void gl_close(replay_backend *b);

/* What the driver holds (replay.h), measured on llvmpipe, whose storage is host
 * memory (docs/replay.md, "Memory"): a buffer, a texture or a renderbuffer is its
 * storage alone, one copy. A new buffer or texture is filled from a host array of
 * zeros (gl_buffer_new, gl_texture_new); glTexSubImage2D reads the replay's texels
 * itself, with no copy of its own; a read-back lands in a host copy, bottom row
 * first, that gl_read flips. Depth-stencil is AGAL_GL_DEPTH_STENCIL_FORMAT, D24S8. */
static const replay_holdings gl_holdings = {
    .buffer = 1, .texture = 1, .surface = 1, .fill = 1, .upload = 0, .read_back = 1, .depth_stencil_bytes = 4};

/* --pipeline-cache FILE, read at open: a driver that offers no binary format
 * keeps no binary, and the file is left as it is. */
static void use_binaries(gl_backend *g)
{
    GLint formats = 0;
    glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
    if (!g->cache_path || formats > 0) return;
    fprintf(stderr, "agalrun replay: the GL driver offers no program binary format\n");
    g->cache_path = NULL;
    rpcache_free(&g->binaries);
}

static replay_backend *gl_open(const replay_open_options *o, char *err, size_t errsize)
{
    gl_backend *g = calloc(1, sizeof *g);
    if (!g) return snprintf(err, errsize, "out of memory"), NULL;
    g->base.ops = &replay_gl_ops;
    g->base.holdings = gl_holdings;
    g->egl = (gl_context){EGL_NO_DISPLAY, EGL_NO_CONTEXT};
    g->cache_path = o->pipeline_cache;
    g->fault = o->fault.inject, g->fault_stage = o->fault.stage, g->fault_token = o->fault.token;
    /* The file first: a bad one fails before any driver is loaded. */
    if ((g->cache_path && !rpcache_load(g->cache_path, "gl", &g->binaries, err, errsize)) ||
        (!o->gl_current && !gl_context_open(&g->egl, err, errsize))) {
        rpcache_free(&g->binaries);
        free(g);
        return NULL;
    }
    g->logs = agal_context_new(NULL, NULL); /* NULL: the logs are printed unmapped */
    glGetIntegerv(GL_MAX_SAMPLES, &g->max_samples);
    if (check(g, "glGetIntegerv")) g->max_samples = 1;
    glGetFloatv(GL_MAX_TEXTURE_MAX_ANISOTROPY, &g->max_anisotropy);
    if (check(g, "glGetFloatv")) g->max_anisotropy = 0; /* no anisotropic filtering: linear */
    glGenVertexArrays(1, &g->vao);
    glGenBuffers(2, g->ubo);
    glGenSamplers(REPLAY_SAMPLERS, g->sampler);
    /* Stage3D's cube maps filter across faces, as Vulkan's do. */
    glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    g->base.dynamic = AGAL_DYNAMIC_GL;
    g->rebuild = o->rebuild_pipelines;
    use_binaries(g);
    if (check(g, "the context's set-up")) {
        snprintf(err, errsize, "%s", g->base.err);
        gl_close(&g->base);
        return NULL;
    }
    return &g->base;
}

static void delete_back_buffer(gl_backend *g)
{
    glDeleteFramebuffers(1, &g->fbo);
    glDeleteFramebuffers(1, &g->resolve_fbo);
    glDeleteRenderbuffers(1, &g->color);
    glDeleteRenderbuffers(1, &g->depth);
    glDeleteRenderbuffers(1, &g->resolved);
    g->fbo = g->resolve_fbo = g->color = g->depth = g->resolved = 0;
}

static void gl_close(replay_backend *b)
{
    gl_backend *g = (gl_backend *)b;
    delete_back_buffer(g);
    for (rb_buffer *p = g->buffers, *n; p; p = n) {
        n = p->next;
        glDeleteBuffers(1, &p->name);
        free(p);
    }
    for (rb_texture *p = g->textures, *n; p; p = n) {
        n = p->next;
        glDeleteTextures(1, &p->name);
        glDeleteRenderbuffers(1, &p->depth);
        glDeleteRenderbuffers(1, &p->multisample);
        free(p);
    }
    char err[512];
    if (g->cache_path && !rpcache_save(g->cache_path, "gl", &g->binaries, err, sizeof err))
        fprintf(stderr, "agalrun replay: %s\n", err);
    rpcache_free(&g->binaries);
    agal_context_free(g->logs);
    for (rb_program *p = g->programs, *n; p; p = n) {
        n = p->next;
        glDeleteProgram(p->name);
        free(p);
    }
    glDeleteVertexArrays(1, &g->vao);
    glDeleteBuffers(2, g->ubo);
    glDeleteSamplers(REPLAY_SAMPLERS, g->sampler);
    gl_context_close(&g->egl);
    free(g);
}

/* ---- the back buffer ------------------------------------------------------------- */

static GLuint renderbuffer(GLenum format, GLsizei samples, uint32_t w, uint32_t h)
{
    GLuint rb;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, (GLsizei)w, (GLsizei)h);
    return rb;
}

static GLuint framebuffer(GLuint color, GLuint depth)
{
    GLuint fbo;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    if (depth) glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth);
    return fbo;
}

static int gl_configure(replay_backend *b, uint32_t w, uint32_t h, int anti_alias, bool depth_stencil)
{
    gl_backend *g = (gl_backend *)b;
    delete_back_buffer(g);
    g->width = w;
    g->height = h;
    g->samples = agal_gl_samples(anti_alias, g->max_samples);
    g->depth_stencil = depth_stencil;
    g->color = renderbuffer(GL_RGBA8, g->samples, w, h);
    if (depth_stencil) g->depth = renderbuffer(AGAL_GL_DEPTH_STENCIL_FORMAT, g->samples, w, h);
    g->fbo = framebuffer(g->color, g->depth);
    bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    if (g->samples) {
        g->resolved = renderbuffer(GL_RGBA8, 0, w, h);
        g->resolve_fbo = framebuffer(g->resolved, 0);
        complete = complete && glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (check(g, "configureBackBuffer")) return -1;
    return complete ? 0 : fail(g, "the back buffer's framebuffer is incomplete");
}

static int gl_read(replay_backend *b, uint8_t *rgba)
{
    gl_backend *g = (gl_backend *)b;
    size_t row = (size_t)g->width * 4;
    uint8_t *tmp = malloc(row * g->height);
    if (!tmp) return fail(g, "out of memory");
    GLint w = (GLint)g->width, h = (GLint)g->height;
    if (g->samples) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, g->fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, g->resolve_fbo);
        glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, g->samples ? g->resolve_fbo : g->fbo);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, tmp);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    for (uint32_t y = 0; y < g->height; y++) memcpy(rgba + row * y, tmp + row * (g->height - 1 - y), row);
    free(tmp);
    return check(g, "reading the back buffer");
}

/* ---- buffers, textures, programs ----------------------------------------------------- */

static rb_buffer *gl_buffer_new(replay_backend *b, size_t size, bool index)
{
    gl_backend *g = (gl_backend *)b;
    rb_buffer *buf = calloc(1, sizeof *buf);
    void *zero = calloc(1, size);
    if (!buf || !zero) {
        free(buf);
        free(zero);
        return fail(g, "out of memory"), NULL;
    }
    (void)index; /* any buffer binds as either in GL */
    glGenBuffers(1, &buf->name);
    glBindBuffer(GL_ARRAY_BUFFER, buf->name);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)size, zero, GL_STATIC_DRAW);
    free(zero);
    buf->next = g->buffers;
    g->buffers = buf;
    return check(g, "creating a buffer") ? NULL : buf;
}

static int gl_buffer_write(replay_backend *b, rb_buffer *buf, size_t offset, const void *data, size_t size)
{
    glBindBuffer(GL_ARRAY_BUFFER, buf->name);
    glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)offset, (GLsizeiptr)size, data);
    return check((gl_backend *)b, "a buffer upload");
}

static unsigned texel_size(agal_texture_format f) { return f == AGAL_TEXTURE_RGBA_HALF_FLOAT ? 8 : 4; }

static GLenum face_target(const rb_texture *t, unsigned face)
{
    return t->target == GL_TEXTURE_CUBE_MAP ? agal_gl_cube_face(face) : GL_TEXTURE_2D;
}

static uint32_t level_size(uint32_t s, unsigned level) { return s >> level ? s >> level : 1; }

static rb_texture *gl_texture_new(replay_backend *b, const replay_texture_desc *d)
{
    gl_backend *g = (gl_backend *)b;
    rb_texture *t = calloc(1, sizeof *t);
    void *zero = calloc((size_t)d->width * d->height, texel_size(d->format));
    if (!t || !zero) {
        free(t);
        free(zero);
        return fail(g, "out of memory"), NULL;
    }
    t->d = *d;
    t->target = d->kind == REPLAY_TEX_CUBE ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D;
    agal_gl_texture_format f = agal_gl_texture_format_of(d->format);
    glGenTextures(1, &t->name);
    glBindTexture(t->target, t->name);
    /* The level range before the first image: Mesa sizes a texture's storage when
     * level 0 is given, for level 0 alone unless a range says more, and at level 1
     * for the whole chain, keeping level 0's own until a draw merges them (1.75 times
     * the texture's bytes on llvmpipe; one copy with the range first). */
    glTexParameteri(t->target, GL_TEXTURE_BASE_LEVEL, 0);
    glTexParameteri(t->target, GL_TEXTURE_MAX_LEVEL, (GLint)d->levels - 1);
    /* Every level of every face exists and reads 0 until it is uploaded. */
    for (unsigned face = 0; face < (d->kind == REPLAY_TEX_CUBE ? 6u : 1u); face++)
        for (unsigned l = 0; l < d->levels; l++)
            glTexImage2D(face_target(t, face), (GLint)l, f.internal_format, (GLsizei)level_size(d->width, l),
                         (GLsizei)level_size(d->height, l), 0, f.format, f.type, zero);
    free(zero);
    t->next = g->textures;
    g->textures = t;
    return check(g, "creating a texture") ? NULL : t;
}

static int gl_texture_write(replay_backend *b, rb_texture *t, unsigned face, unsigned level, uint32_t w, uint32_t h,
                            const void *texels)
{
    agal_gl_texture_format f = agal_gl_texture_format_of(t->d.format);
    glBindTexture(t->target, t->name);
    glTexSubImage2D(face_target(t, face), (GLint)level, 0, 0, (GLsizei)w, (GLsizei)h, f.format, f.type, texels);
    return check((gl_backend *)b, "a texture upload");
}

static int gl_texture_mipmaps(replay_backend *b, rb_texture *t)
{
    glBindTexture(t->target, t->name);
    glGenerateMipmap(t->target);
    return check((gl_backend *)b, "making a render target's mip maps");
}

/* The text with an undeclared name on the first line of token `token`'s code: the
 * line after its `#line N 1` (debug info), which the driver counts as line N
 * (malloc'd; NULL when out of memory). Unchanged where the token has no code. */
static char *with_fault(const char *text, uint32_t token)
{
    static const char fault[] = "agal_injected_fault = 0.0;\n";
    char mark[32];
    snprintf(mark, sizeof mark, "#line %u 1\n", token + 3); /* agal_token_line */
    const char *at = strstr(text, mark);
    size_t head = at ? (size_t)(at - text) + strlen(mark) : strlen(text), len = strlen(text);
    char *out = malloc(len + sizeof fault);
    if (!out) return NULL;
    memcpy(out, text, head);
    strcpy(out + head, at ? fault : "");
    strcat(out, text + head);
    return out;
}

/* The driver's log with the AGAL token after each line it names (docs/debug-info.md). */
static void refused(gl_backend *g, const char *what, const agal_shader *shader, const char *log)
{
    const char *mapped = g->logs ? agal_map_driver_log(g->logs, shader, log) : NULL;
    snprintf(g->base.err, sizeof g->base.err, "%s: %s", what, mapped ? mapped : log);
}

static GLuint compile(gl_backend *g, GLenum stage, const agal_shader *shader)
{
    agal_stage agal = stage == GL_VERTEX_SHADER ? AGAL_VERTEX : AGAL_FRAGMENT;
    char *faulty = g->fault && g->fault_stage == agal ? with_fault(shader->text, g->fault_token) : NULL;
    if (g->fault && g->fault_stage == agal && !faulty) return fail(g, "out of memory"), 0;
    const char *text = faulty ? faulty : shader->text;
    GLuint s = glCreateShader(stage);
    GLint ok = 0;
    glShaderSource(s, 1, &text, NULL);
    glCompileShader(s);
    free(faulty);
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (ok) return s;
    char log[768] = "";
    glGetShaderInfoLog(s, sizeof log, NULL, log);
    refused(g, agal == AGAL_VERTEX ? "the vertex shader does not compile" : "the fragment shader does not compile",
            shader, log);
    glDeleteShader(s);
    return 0;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static bool linked(GLuint name)
{
    GLint ok = 0;
    glGetProgramiv(name, GL_LINK_STATUS, &ok);
    return ok;
}

/* The program from the cache file's binary for its key; false when there is none
 * or the driver refuses it (another driver's, or an older one's). */
static bool link_binary(gl_backend *g, rb_program *p)
{
    const rpcache_entry *e = g->cache_path ? rpcache_find(&g->binaries, &p->key) : NULL;
    if (!e || e->size > INT32_MAX) return false;
    glProgramBinary(p->name, e->format, e->data, (GLsizei)e->size);
    bool ok = glGetError() == GL_NO_ERROR && linked(p->name);
    return ok;
}

/* The program from its GLSL: two compiles and a link, the binary kept for the file. */
static int link_source(gl_backend *g, rb_program *p, const agal_upload_result *r)
{
    GLuint vs = compile(g, GL_VERTEX_SHADER, &r->shaders[AGAL_VERTEX]), fs = 0;
    if (!vs || !(fs = compile(g, GL_FRAGMENT_SHADER, &r->shaders[AGAL_FRAGMENT]))) {
        glDeleteShader(vs);
        return -1;
    }
    glAttachShader(p->name, vs);
    glAttachShader(p->name, fs);
    if (g->cache_path) glProgramParameteri(p->name, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
    glLinkProgram(p->name);
    glDeleteShader(vs);
    glDeleteShader(fs);
    if (!linked(p->name)) {
        char log[768] = "";
        glGetProgramInfoLog(p->name, sizeof log, NULL, log);
        /* as it is: a link log's line numbers do not say which stage's text they count */
        snprintf(g->base.err, sizeof g->base.err, "the program does not link: %s", log);
        return -1;
    }
    GLint size = 0;
    GLenum format = 0;
    if (g->cache_path) glGetProgramiv(p->name, GL_PROGRAM_BINARY_LENGTH, &size);
    void *bin = size > 0 ? malloc((size_t)size) : NULL;
    if (bin) glGetProgramBinary(p->name, size, &size, &format, bin);
    bool kept = !bin || rpcache_add(&g->binaries, &p->key, format, bin, (size_t)size);
    free(bin);
    return kept ? 0 : fail(g, "out of memory");
}

/* The pair's linked program: the one its key already has, else one from the cache
 * file's binary, else from its GLSL; the last two counted (replay.h). */
static rb_program *gl_program_new(replay_backend *b, const agal_upload_result *r)
{
    gl_backend *g = (gl_backend *)b;
    agal_pipeline_key full = {.version = AGAL_PIPELINE_KEY_VERSION, .program = r->program_id}, key;
    agal_pipeline_key_baked(&full, g->base.dynamic, &key);
    for (rb_program *p = g->programs; p && !g->rebuild; p = p->next)
        if (agal_pipeline_key_equal(&p->key, &key)) return p;
    rb_program *p = calloc(1, sizeof *p);
    if (!p) return fail(g, "out of memory"), NULL;
    p->name = glCreateProgram();
    p->key = key;
    p->next = g->programs;
    g->programs = p;
    double start = now_ms();
    bool cached = link_binary(g, p);
    if (!cached && link_source(g, p, r)) return NULL;
    g->base.pipelines.ms += now_ms() - start;
    if (cached) g->base.pipelines.cache_hits++;
    else g->base.pipelines.created++;
    agal_gl_program_setup(p->name, r); /* constant blocks to bindings 0 and 1, fs<i> to unit i */
    p->yflip = glGetUniformLocation(p->name, AGAL_GLSL_YFLIP);
    glUseProgram(0);
    return check(g, "setting a program up") ? NULL : p;
}

/* ---- the target of a clear or a draw --------------------------------------------------- */

/* A clear or a draw: the framebuffer it goes to, and for an antialiased texture
 * target the framebuffer its colour is resolved into afterwards. */
typedef struct gl_pass {
    GLuint fbo, resolve;
    bool own; /* fbo is the pass's (a texture target), deleted at the end */
} gl_pass;

/* An antialiased target's multisample colour, or slot 0's depth-stencil buffer, made
 * for the sample count the pass needs. */
static GLuint target_buffer(GLuint *rb, GLsizei *have, GLsizei samples, GLenum format, uint32_t w, uint32_t h)
{
    if (*rb && *have == samples) return *rb;
    glDeleteRenderbuffers(1, rb);
    *rb = renderbuffer(format, samples, w, h);
    *have = samples;
    return *rb;
}

static void attach(const replay_target *t, unsigned i, GLenum fb)
{
    rb_texture *c = t->color[i];
    glFramebufferTexture2D(fb, GL_COLOR_ATTACHMENT0 + i, face_target(c, t->face[i]), c->name, 0);
}

static int begin_pass(gl_backend *g, const replay_target *t, gl_pass *p)
{
    *p = (gl_pass){.fbo = g->fbo};
    if (t->back_buffer) {
        glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
        return 0;
    }
    GLsizei samples = agal_gl_samples(t->anti_alias, g->max_samples);
    GLenum bufs[REPLAY_TARGETS];
    p->own = true;
    glGenFramebuffers(1, &p->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, p->fbo);
    for (unsigned i = 0; i < t->ncolor; i++) {
        rb_texture *c = t->color[i];
        bufs[i] = GL_COLOR_ATTACHMENT0 + i;
        if (!samples) {
            attach(t, i, GL_FRAMEBUFFER);
            continue;
        }
        GLenum format = c->d.format == AGAL_TEXTURE_RGBA_HALF_FLOAT ? GL_RGBA16F : GL_RGBA8;
        GLuint ms = target_buffer(&c->multisample, &c->multisample_samples, samples, format, c->d.width, c->d.height);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, bufs[i], GL_RENDERBUFFER, ms);
    }
    rb_texture *first = t->color[0];
    if (t->depth_stencil) {
        GLuint ds = target_buffer(&first->depth, &first->depth_samples, samples, AGAL_GL_DEPTH_STENCIL_FORMAT, t->width,
                                  t->height);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, ds);
    }
    glDrawBuffers((GLsizei)t->ncolor, bufs);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        return fail(g, "a render target's framebuffer is incomplete");
    if (samples) {
        glGenFramebuffers(1, &p->resolve);
        glBindFramebuffer(GL_FRAMEBUFFER, p->resolve);
        for (unsigned i = 0; i < t->ncolor; i++) attach(t, i, GL_FRAMEBUFFER);
        glBindFramebuffer(GL_FRAMEBUFFER, p->fbo);
    }
    return 0;
}

/* Resolves an antialiased texture target into its textures, attachment by attachment. */
static int end_pass(gl_backend *g, const replay_target *t, gl_pass *p, const char *what)
{
    GLint w = (GLint)t->width, h = (GLint)t->height;
    for (unsigned i = 0; p->resolve && i < t->ncolor; i++) {
        GLenum buf = GL_COLOR_ATTACHMENT0 + i;
        glBindFramebuffer(GL_READ_FRAMEBUFFER, p->fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, p->resolve);
        glReadBuffer(buf);
        glDrawBuffers(1, &buf);
        glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (p->own) glDeleteFramebuffers(1, &p->fbo);
    glDeleteFramebuffers(1, &p->resolve);
    return check(g, what);
}

static int gl_clear(replay_backend *b, const replay_target *t, const float rgba[4], float depth, uint32_t stencil,
                    unsigned mask)
{
    gl_backend *g = (gl_backend *)b;
    gl_pass p;
    if (begin_pass(g, t, &p)) return end_pass(g, t, &p, "clear"), -1;
    /* clear ignores the scissor and the colour, depth and stencil masks. */
    glDisable(GL_SCISSOR_TEST);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDepthMask(GL_TRUE);
    glStencilMask(0xFF);
    glClearColor(rgba[0], rgba[1], rgba[2], rgba[3]);
    glClearDepth(depth);
    glClearStencil((GLint)stencil);
    glClear((mask & REPLAY_CLEAR_COLOR ? GL_COLOR_BUFFER_BIT : 0u) |
            (mask & REPLAY_CLEAR_DEPTH ? GL_DEPTH_BUFFER_BIT : 0u) |
            (mask & REPLAY_CLEAR_STENCIL ? GL_STENCIL_BUFFER_BIT : 0u));
    return end_pass(g, t, &p, "clear");
}

/* ---- a draw ------------------------------------------------------------------------------ */

/* The key's state (agal_gl_key_apply), the scissor and the viewport. */
static void set_state(const replay_draw *d)
{
    const replay_target *t = d->target;
    bool to_texture = !t->back_buffer;
    agal_gl_key_apply(&d->key);
    if (d->scissor) {
        GLint box[4];
        agal_gl_scissor_box(&d->scissor_rect, t->height, to_texture, box);
        glEnable(GL_SCISSOR_TEST);
        glScissor(box[0], box[1], box[2], box[3]);
    } else {
        glDisable(GL_SCISSOR_TEST);
    }
    glViewport(0, 0, (GLsizei)t->width, (GLsizei)t->height);
}

static void bind_streams(gl_backend *g, const replay_draw *d)
{
    glBindVertexArray(g->vao);
    for (GLuint i = 0; i < REPLAY_STREAMS; i++) glDisableVertexAttribArray(i);
    for (size_t i = 0; i < d->upload->nattributes; i++) {
        GLuint loc = d->upload->attributes[i].location;
        const replay_stream *s = &d->streams[loc];
        agal_gl_vertex_format f = agal_gl_vertex_format_of(s->format);
        glBindBuffer(GL_ARRAY_BUFFER, s->buffer->name);
        glVertexAttribPointer(loc, f.size, f.type, f.normalized, (GLsizei)s->stride,
                              (const void *)(uintptr_t)s->offset);
        glVertexAttribDivisor(loc, s->divisor);
        glEnableVertexAttribArray(loc);
    }
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, d->index->name);
}

static void bind_resources(gl_backend *g, const replay_draw *d)
{
    for (size_t i = 0; i < d->upload->nblocks; i++) {
        const agal_binding_block *blk = &d->upload->blocks[i];
        float block[REPLAY_MAX_CONSTANTS][4]; /* the registers as the block holds them (limits may pack them) */
        agal_binding_block_gather(blk, &(blk->stage == AGAL_VERTEX ? d->vc : d->fc)[0][0], &block[0][0]);
        glBindBuffer(GL_UNIFORM_BUFFER, g->ubo[i]);
        glBufferData(GL_UNIFORM_BUFFER, blk->size, block, GL_STREAM_DRAW);
        glBindBufferBase(GL_UNIFORM_BUFFER, blk->binding, g->ubo[i]);
    }
    for (size_t i = 0; i < d->upload->nsamplers; i++) {
        unsigned n = d->upload->samplers[i].num;
        agal_gl_sampler p = agal_gl_sampler_params(&d->sampler[n], g->max_anisotropy);
        agal_gl_sampler_apply(g->sampler[n], &p);
        glActiveTexture(GL_TEXTURE0 + n);
        glBindTexture(d->texture[n]->target, d->texture[n]->name);
        glBindSampler(n, g->sampler[n]);
    }
}

static int gl_draw(replay_backend *b, const replay_draw *d)
{
    gl_backend *g = (gl_backend *)b;
    gl_pass p;
    if (begin_pass(g, d->target, &p)) return end_pass(g, d->target, &p, "drawTriangles"), -1;
    glUseProgram(d->program->name);
    glUniform1f(d->program->yflip, agal_gl_yflip(!d->target->back_buffer));
    set_state(d);
    bind_streams(g, d);
    bind_resources(g, d);
    glDrawElementsInstanced(GL_TRIANGLES, (GLsizei)d->count, GL_UNSIGNED_SHORT, (const void *)(uintptr_t)(2 * d->first),
                            (GLsizei)d->instances);
    glBindVertexArray(0);
    glUseProgram(0);
    return end_pass(g, d->target, &p, "drawTriangles");
}

const replay_backend_ops replay_gl_ops = {
    .name = "gl",
    .target = AGAL_TARGET_GLSL,
    .open = gl_open,
    .close = gl_close,
    .configure = gl_configure,
    .buffer_new = gl_buffer_new,
    .buffer_write = gl_buffer_write,
    .texture_new = gl_texture_new,
    .texture_write = gl_texture_write,
    .texture_mipmaps = gl_texture_mipmaps,
    .program_new = gl_program_new,
    .clear = gl_clear,
    .draw = gl_draw,
    .read = gl_read,
};
