/* gl_upload.c: a Stage3D emulator's Program3D on OpenGL 3.3, complete (docs/emulator-guide.md).
 *
 * The first part is what an emulator writes: Program3D.upload through agal_upload,
 * a draw with Stage3D's state, the sampler of a slot. The second part is the
 * headless frame around it: EGL without a window, buffers, one frame of a textured,
 * tinted, culled quad, the 8x8 back buffer printed.
 *
 * usage: gl_upload VERTEX.bin FRAGMENT.bin
 * tests/embed/test_examples.py builds it against the installed headers and the library
 * alone and runs it on EGL surfaceless (llvmpipe), every pixel checked. */

#define GL_GLEXT_PROTOTYPES 1 /* or your loader (glad, epoxy), before <agal/gl.h> */
#include <GL/glcorearb.h>

#include <agal/agal.h>
#include <agal/interp.h>
#include <agal/stage3d.h>
#include <agal/gl.h>

#include <stdio.h>

/* What an emulator keeps for a Program3D. */
typedef struct program3d {
    agal_context *ctx;     /* owns the upload's results */
    agal_upload_result up; /* shaders and binding layout */
    GLuint program;
    agal_gl_target_cache target; /* the y flip's uniform, looked up once */
} program3d;

static GLuint compile(GLuint program, GLenum stage, const char *text)
{
    GLuint s = glCreateShader(stage);
    glShaderSource(s, 1, &text, NULL);
    glCompileShader(s);
    glAttachShader(program, s);
    return s;
}

/* What the device holds, read once: a pair beyond it is refused at upload, before
 * the driver sees its text (Flash's 3613, the diagnostic naming the limit). GLSL 330
 * keeps the constants in uniform blocks: their size bounds the registers. */
static agal_limits device_limits(void)
{
    GLint varyings = 0, block_size = 0, units = 0, attributes = 0, draw_buffers = 0; /* 0: not checked */
    glGetIntegerv(GL_MAX_VARYING_COMPONENTS, &varyings);
    glGetIntegerv(GL_MAX_UNIFORM_BLOCK_SIZE, &block_size);
    glGetIntegerv(GL_MAX_TEXTURE_IMAGE_UNITS, &units);
    glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &attributes);
    glGetIntegerv(GL_MAX_DRAW_BUFFERS, &draw_buffers);
    agal_limits l = agal_limits_init(); /* or agal_limits_preset("webgl1", &l) */
    l.name = "this GL device";
    l.varying_components = (uint32_t)varyings;
    l.vertex_uniform_vectors = l.fragment_uniform_vectors = (uint32_t)block_size / 16;
    l.fragment_texture_units = (uint32_t)units;
    l.vertex_attributes = (uint32_t)attributes;
    l.color_attachments = (uint32_t)draw_buffers;
    return l;
}

/* Program3D.upload(vertexProgram, fragmentProgram); false: throw what Flash throws. */
static bool program_upload(program3d *p, const void *vertex, size_t vsize, const void *fragment, size_t fsize)
{
    agal_limits limits = device_limits();
    agal_upload_options o = {.size = sizeof(agal_upload_options),
                             .target = AGAL_TARGET_GLSL, /* AGAL_TARGET_ESSL3 / _ESSL1 for GLES, WebGL */
                             .limits = &limits};
    p->ctx = agal_context_new(NULL, NULL);
    p->up = agal_upload_result_init();
    if (agal_upload(p->ctx, vertex, vsize, fragment, fsize, &o, &p->up) != AGAL_OK) {
        /* a pair beyond the limits: log the diagnostic's message, which names the limit */
        agal_flash_error e;
        agal_flash_error_of(agal_diag_get(p->ctx, 0), &e);
        char line[600];
        agal_flash_line(&e, line, sizeof line);
        fprintf(stderr, "%s\n", line); /* Error: Error #3646: ... */
        return false;
    }
    p->program = glCreateProgram();
    p->target.program = 0; /* the y flip's location is looked up at the first draw */
    GLuint vs = compile(p->program, GL_VERTEX_SHADER, p->up.shaders[AGAL_VERTEX].text);
    GLuint fs = compile(p->program, GL_FRAGMENT_SHADER, p->up.shaders[AGAL_FRAGMENT].text);
    glLinkProgram(p->program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint linked = 0;
    glGetProgramiv(p->program, GL_LINK_STATUS, &linked);
    agal_gl_program_setup(p->program, &p->up); /* blocks to their bindings, fs<i> to unit i */
    return linked;
}

static void program_dispose(program3d *p)
{
    glDeleteProgram(p->program);
    agal_context_free(p->ctx);
}

/* The Context3D state of a draw. */
typedef struct draw_state {
    agal_vertex_format format[16]; /* setVertexBufferAt(i, buffer, 0, format): a buffer a stream */
    GLuint buffer[16];
    agal_triangle_face cull;    /* setCulling */
    agal_blend_factor src, dst; /* setBlendFactors */
    bool to_texture;            /* setRenderToTexture rather than the back buffer */
} draw_state;

/* drawTriangles(count / 3 triangles) with the program and its resources bound. */
static void draw_triangles(program3d *p, const draw_state *s, GLsizei count)
{
    glUseProgram(p->program);
    /* GL's window y is up: a texture needs the flip, and the flip mirrors the winding */
    agal_gl_set_target(&p->target, p->program, s->to_texture);
    GLenum cull = agal_gl_cull_face(s->cull);
    if (cull) glEnable(GL_CULL_FACE), glCullFace(cull);
    else glDisable(GL_CULL_FACE);
    if (s->src == AGAL_BLEND_ONE && s->dst == AGAL_BLEND_ZERO) glDisable(GL_BLEND);
    else glEnable(GL_BLEND), glBlendFunc(agal_gl_blend_factor(s->src), agal_gl_blend_factor(s->dst));
    for (size_t i = 0; i < p->up.nattributes; i++) {
        GLuint loc = p->up.attributes[i].location;
        agal_gl_vertex_format f = agal_gl_vertex_format_of(s->format[loc]);
        glBindBuffer(GL_ARRAY_BUFFER, s->buffer[loc]);
        glVertexAttribPointer(loc, f.size, f.type, f.normalized, 0, NULL);
        glEnableVertexAttribArray(loc);
    }
    glDrawArrays(GL_TRIANGLES, 0, count);
}

/* setProgram and setSamplerStateAt write the slots; at a draw, fs<i> samples with
 * the state its slot holds: bind the result with glBindSampler(i, ...). */
static GLuint make_sampler(const agal_sampler_slots *slots, const agal_binding_sampler *s)
{
    agal_sampler state = agal_slots_resolve(slots, &s->token);
    agal_gl_sampler params = agal_gl_sampler_params(&state, 0.0f); /* or GL_MAX_TEXTURE_MAX_ANISOTROPY */
    GLuint sampler = 0;
    glGenSamplers(1, &sampler);
    agal_gl_sampler_apply(sampler, &params);
    return sampler;
}

/* ---- a headless frame around it: EGL without a window, an 8x8 back buffer ---- */
#include <EGL/egl.h>

#include <stdlib.h>

static bool gl_open(EGLDisplay *dpy, EGLContext *ctx)
{
    *dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY); /* EGL_PLATFORM=surfaceless on Mesa */
    EGLint attr[] = {
        EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglInitialize(*dpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API) || !eglChooseConfig(*dpy, NULL, &cfg, 1, &n))
        return false;
    *ctx = eglCreateContext(*dpy, n ? cfg : NULL, EGL_NO_CONTEXT, attr);
    return *ctx != EGL_NO_CONTEXT && eglMakeCurrent(*dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, *ctx);
}

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    void *data = f ? malloc(1 << 18) : NULL;
    *size = data ? fread(data, 1, 1 << 18, f) : 0;
    if (f) fclose(f);
    return data;
}

enum { W = 8 };

int main(int argc, char **argv)
{
    size_t vn, fn;
    void *vbytes = argc == 3 ? read_file(argv[1], &vn) : NULL, *fbytes = vbytes ? read_file(argv[2], &fn) : NULL;
    EGLDisplay dpy;
    EGLContext ctx;
    program3d prog;
    if (!fbytes || !gl_open(&dpy, &ctx))
        return fprintf(stderr, "usage: example VERTEX.bin FRAGMENT.bin (EGL, GL 3.3)\n"), 2;
    if (!program_upload(&prog, vbytes, vn, fbytes, fn)) return 1;
    glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS); /* Stage3D filters cube maps across faces */

    /* configureBackBuffer(8, 8): an RGBA8 framebuffer, read back at the end */
    GLuint fbo, colour, vao, buffers[2], blocks[2] = {0}, tex;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &colour);
    glBindRenderbuffer(GL_RENDERBUFFER, colour);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, W);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour);
    glViewport(0, 0, W, W);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);

    /* setVertexBufferAt(0, positions, 0, float3), (1, uvs, 0, float2): two clockwise
     * triangles over the screen; setCulling(back); setBlendFactors(one, zero) */
    static const float pos[6][3] = {{-1, -1, 0.5f}, {1, 1, 0.5f},  {1, -1, 0.5f},
                                    {-1, -1, 0.5f}, {-1, 1, 0.5f}, {1, 1, 0.5f}};
    static const float uv[6][2] = {{0, 1}, {1, 0}, {1, 1}, {0, 1}, {0, 0}, {1, 0}};
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(2, buffers);
    glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof pos, pos, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, buffers[1]);
    glBufferData(GL_ARRAY_BUFFER, sizeof uv, uv, GL_STATIC_DRAW);
    draw_state state = {.format = {AGAL_VERTEX_FLOAT_3, AGAL_VERTEX_FLOAT_2},
                        .buffer = {buffers[0], buffers[1]},
                        .cull = AGAL_FACE_BACK,
                        .src = AGAL_BLEND_ONE,
                        .dst = AGAL_BLEND_ZERO};
    /* setProgramConstantsFromMatrix("vertex", 0, new Matrix3D(), false): vc0..vc3 the
     * identity (m44 op, va0, vc0); fc0 a tint. A block holds the registers its
     * ranges name (the whole file, unless the limits packed them). */
    static const double identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    static float vc[250][4], fc[200][4] = {{1, 0.5f, 0.25f, 1}}, block[250][4];
    agal_stage3d_constants_from_matrix(prog.up.vertex->profile, AGAL_VERTEX, 0, identity, false, vc);
    glGenBuffers(2, blocks);
    for (size_t i = 0; i < prog.up.nblocks; i++) {
        const agal_binding_block *b = &prog.up.blocks[i];
        agal_binding_block_gather(b, b->stage == AGAL_VERTEX ? vc[0] : fc[0], block[0]);
        glBindBuffer(GL_UNIFORM_BUFFER, blocks[i]);
        glBufferData(GL_UNIFORM_BUFFER, b->size, block, GL_DYNAMIC_DRAW);
        glBindBufferBase(GL_UNIFORM_BUFFER, b->binding, blocks[i]);
    }
    /* createTexture(2, 2, bgra) and an upload of BitmapData's ARGB words, first row at v = 0 */
    static const uint32_t argb[4] = {0xffff0000, 0xff00ff00, 0xff0000ff, 0xffffffff};
    agal_gl_texture_format tf = agal_gl_texture_format_of(AGAL_TEXTURE_BGRA);
    glGenTextures(1, &tex);
    glActiveTexture(GL_TEXTURE0); /* setTextureAt(0, tex) */
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, tf.internal_format, 2, 2, 0, tf.format, tf.type, argb);
    /* setProgram(prog): the slots take the tokens' sampler state */
    agal_sampler_slots slots;
    agal_slots_init(&slots);
    agal_slots_set_program(&slots, prog.up.fragment);
    GLuint samplers[16] = {0};
    for (size_t i = 0; i < prog.up.nsamplers; i++) {
        unsigned num = prog.up.samplers[i].num;
        samplers[num] = make_sampler(&slots, &prog.up.samplers[i]);
        glBindSampler(num, samplers[num]);
    }
    draw_triangles(&prog, &state, 6);

    /* the back buffer, top row first (GL's rows run bottom up), RRGGBBAA a pixel */
    uint8_t px[W * W * 4];
    glReadPixels(0, 0, W, W, GL_RGBA, GL_UNSIGNED_BYTE, px);
    for (int y = W - 1; y >= 0; y--, putchar('\n'))
        for (int x = 0; x < W; x++)
            printf("%02x%02x%02x%02x ", px[4 * (y * W + x)], px[4 * (y * W + x) + 1], px[4 * (y * W + x) + 2],
                   px[4 * (y * W + x) + 3]);
    int rc = glGetError() == GL_NO_ERROR ? 0 : 1;

    glDeleteSamplers(16, samplers);
    glDeleteTextures(1, &tex);
    glDeleteBuffers(2, blocks);
    glDeleteBuffers(2, buffers);
    glDeleteVertexArrays(1, &vao);
    glDeleteRenderbuffers(1, &colour);
    glDeleteFramebuffers(1, &fbo);
    program_dispose(&prog);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    free(vbytes);
    free(fbytes);
    return rc;
}
