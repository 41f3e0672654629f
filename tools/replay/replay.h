/* replay.h: `agalrun replay`, a reference renderer for recorded Stage3D calls.
 *
 * A scene (docs/replay.md) is a list of Context3D, buffer, program and
 * texture calls in JSON, one to one with the ActionScript 3 API. The replay runs it
 * in three layers, each a file (or two):
 *
 *   replay_scene.c    JSON -> ActionScript values: numbers as AS3 coerces them,
 *                     strings, Vectors, ByteArrays, Matrix3D, Rectangle, BitmapData
 *   replay_calls.c    the call table: each AS3 method's arguments, defaults and the
 *   replay_context.c  errors Flash throws; the Context3D state machine (objects,
 *                     render state, the state the library's checks read) that
 *                     drives a backend
 *   replay_vk.c       a backend: Vulkan 1.1 offscreen (SPIR-V translations)
 *   replay_gl.c       a backend: OpenGL 3.3 core through EGL surfaceless, or the
 *                     caller's current context (GLSL 330 translations)
 *
 * The backends see only what Flash has accepted, already resolved: a draw carries
 * every stream, constant, texture with its sampler state (agal_slots_resolve) and
 * the fixed-function state; they map it with <agal/vulkan.h> and <agal/gl.h> and
 * know nothing of AS3. A backend for another API (WebGL) implements
 * replay_backend_ops and adds a row to replay_backends().
 *
 * Only the library's public API and the helper headers are used: this is the
 * reference integration an emulator can read.
 */
#ifndef AGAL_REPLAY_H
#define AGAL_REPLAY_H

#include "agal/agal.h"
#include "agal/stage3d.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Context3D's limits the replay enforces (Adobe's reference). */
enum {
    REPLAY_STREAMS = 16,       /* va0..va15: 8 below standardExtended */
    REPLAY_SAMPLERS = 16,      /* fs0..fs15: 8 in the baseline profiles */
    REPLAY_TARGETS = 4,        /* colour outputs of setRenderToTexture */
    REPLAY_MAX_CONSTANTS = 250 /* the largest constant file (vc in standard) */
};

/* ==== the backend interface ================================================ */

typedef struct replay_backend replay_backend;
typedef struct rb_buffer rb_buffer;   /* a vertex or index buffer */
typedef struct rb_texture rb_texture; /* a Texture, CubeTexture or RectangleTexture */
typedef struct rb_program rb_program; /* an uploaded Program3D, translated for the backend */

typedef enum replay_texture_kind { REPLAY_TEX_2D, REPLAY_TEX_CUBE, REPLAY_TEX_RECTANGLE } replay_texture_kind;

typedef struct replay_texture_desc {
    replay_texture_kind kind;
    /* The texels the backend stores: AGAL_TEXTURE_BGRA (B, G, R, A bytes) or
     * AGAL_TEXTURE_RGBA_HALF_FLOAT (four half floats). The replay converts the packed
     * formats to BGRA and uploads the compressed ones uncompressed (docs/decisions.md,
     * "Context3D"). */
    agal_texture_format format;
    uint32_t width, height, levels; /* a cube's faces are width x width */
} replay_texture_desc;

/* Where a clear or a draw goes: the back buffer, or up to four texture surfaces
 * (setRenderToTexture's colorOutputIndex 0..3) sharing slot 0's depth-stencil. */
typedef struct replay_target {
    bool back_buffer;
    unsigned ncolor; /* textures: slots 0..ncolor-1 */
    rb_texture *color[REPLAY_TARGETS];
    unsigned face[REPLAY_TARGETS]; /* a cube's side, else 0 */
    bool depth_stencil;            /* the target has depth and stencil */
    int anti_alias;                /* textures: setRenderToTexture's antiAlias */
    uint32_t width, height;
} replay_target;

/* One vertex stream (setVertexBufferAt), for each va the program reads. */
typedef struct replay_stream {
    rb_buffer *buffer;       /* NULL: the translation does not read it */
    uint32_t stride, offset; /* bytes: data32PerVertex * 4, bufferOffset * 4 */
    agal_vertex_format format;
    uint32_t divisor; /* 0 per vertex; instancesPerElement for an instance buffer */
} replay_stream;

/* The fixed-function state of Context3D, as set. */
typedef agal_render_state replay_state;

typedef struct replay_draw {
    const replay_target *target;
    rb_program *program;
    const agal_upload_result *upload;
    replay_stream streams[REPLAY_STREAMS];
    rb_buffer *index;
    uint32_t first, count, instances; /* indices from `first`, `count` of them */
    const float (*vc)[4], (*fc)[4];   /* REPLAY_MAX_CONSTANTS registers each */
    /* The texture and resolved sampler (token state + slot state) of each fs the
     * translation samples (upload->samplers). */
    rb_texture *texture[REPLAY_SAMPLERS];
    agal_sampler sampler[REPLAY_SAMPLERS];
    const replay_state *state;
    bool scissor; /* scissor_rect holds, clipped to the target */
    agal_rect scissor_rect;
    /* The draw's full pipeline key (agal_pipeline_key_make): a backend bakes it with
     * its dynamic state (replay_backend.dynamic) and keeps a pipeline per baked key. */
    agal_pipeline_key key;
} replay_draw;

enum { REPLAY_CLEAR_COLOR = 1, REPLAY_CLEAR_DEPTH = 2, REPLAY_CLEAR_STENCIL = 4 }; /* Context3DClearMask */

struct replay_probe;

typedef struct replay_open_options {
    bool validation; /* Vulkan: the Khronos validation layer; any message fails the run */
    bool gl_current; /* GL: draw in the caller's current context (agalview's window) */
    /* Called once the backend is open and its driver loaded (NULL: nothing): the
     * tools pin the driver's libraries there (harness_pin_libraries), so what a
     * driver leaks at exit still has a module name for the sanitizers. */
    void (*opened)(void);
    /* The replay's memory limit in bytes (0: REPLAY_MEMORY_LIMIT; replay_budget.c). */
    uint64_t memory_limit;
    /* The device's limits every Program3D.upload is held to (NULL: none): a pair
     * that cannot fit throws 3613 as Flash does (docs/replay.md, "Limits"). */
    const agal_limits *limits;
    /* A pipeline cache file (NULL: none), loaded at open when it exists and saved
     * at close: Vulkan's VkPipelineCache data and the baked keys made from it, GL's
     * program binaries by key (docs/replay.md, "Pipelines"). */
    const char *pipeline_cache;
    /* Rebuild the pipeline whenever the draw's full key changes, keeping none, as
     * an emulator without a key does (--no-pipeline-cache). */
    bool rebuild_pipelines;
    /* Appended: called after each call that writes the back buffer's colour (a clear,
     * a draw to it) with the back buffer read back, and after each that writes a
     * texture (a clear or draw into it, an upload) or makes one, without a read-back
     * (NULL: none). A triage aid (agalrun replay --first-divergence): a read-back per
     * draw is slow. */
    void (*probe)(void *user, const struct replay_probe *p);
    void *probe_user;
    /* Appended: a test's fault (GL; agalrun replay --inject-fault): an undeclared
     * name put on the line of token `token` (from 0) of `stage`'s GLSL, so that the
     * driver refuses the text and its log, mapped back (agal_map_driver_log), names
     * the token. */
    struct {
        bool inject;
        agal_stage stage;
        uint32_t token;
    } fault;
    /* Appended: a call (counting from 1) the run leaves out, 0: none. A triage aid
     * (--first-divergence): the scene without one draw or clear into a texture. */
    size_t skip_call;
} replay_open_options;

/* What replay_open_options.probe sees: the call (counting from 1) and its draw,
 * the back buffer after it (RGBA, first row first, alpha 255; NULL: the call wrote
 * textures), and how many images the run has yielded before it. Textures are named
 * by the scene ("as"). */
typedef struct replay_probe {
    size_t call;
    const char *method;
    const replay_draw *draw; /* NULL: a clear, an upload, createTexture */
    const uint8_t *rgba;
    uint32_t width, height;
    size_t nimages;
    const char *written[REPLAY_TARGETS];  /* rgba NULL: the textures written (NULL: none) */
    bool replaced;                        /* ... their contents all replaced (a clear but of a cube's face; create) */
    const char *sampled[REPLAY_SAMPLERS]; /* a draw's: the texture of each fs it samples (NULL: none) */
} replay_probe;

/* The default memory limit for buffers, textures, back buffers and the images kept,
 * together: a Flash-era GPU's memory (decided: docs/decisions.md, "Context3D"). */
#define REPLAY_MEMORY_LIMIT ((uint64_t)512 << 20)

/* Every function returns 0, or -1 with the reason in the backend's err. Objects
 * live until close. */
typedef struct replay_backend_ops {
    const char *name;   /* --backend NAME */
    agal_target target; /* the translations it runs */
    replay_backend *(*open)(const replay_open_options *o, char *err, size_t errsize);
    void (*close)(replay_backend *b);
    /* configureBackBuffer: a new back buffer (contents undefined until a clear). */
    int (*configure)(replay_backend *b, uint32_t width, uint32_t height, int anti_alias, bool depth_stencil);
    rb_buffer *(*buffer_new)(replay_backend *b, size_t size, bool index);
    int (*buffer_write)(replay_backend *b, rb_buffer *buf, size_t offset, const void *data, size_t size);
    /* Every level of a new texture reads (0, 0, 0, 0) until written. */
    rb_texture *(*texture_new)(replay_backend *b, const replay_texture_desc *d);
    /* width x height texels (tightly packed, first row first) to the top left
     * corner of (face, level); smaller than the level is a partial upload. */
    int (*texture_write)(replay_backend *b, rb_texture *t, unsigned face, unsigned level, uint32_t width,
                         uint32_t height, const void *texels);
    /* Levels 1.. again from level 0 (after rendering to the texture). */
    int (*texture_mipmaps)(replay_backend *b, rb_texture *t);
    rb_program *(*program_new)(replay_backend *b, const agal_upload_result *r);
    /* rgba as agal_stage3d_clear_channel made it; mask REPLAY_CLEAR_*, the parts the
     * target has. The whole target: no scissor, no colour mask. */
    int (*clear)(replay_backend *b, const replay_target *t, const float rgba[4], float depth, uint32_t stencil,
                 unsigned mask);
    int (*draw)(replay_backend *b, const replay_draw *d);
    /* The back buffer, resolved, as RGBA bytes, first row (the top) first. */
    int (*read)(replay_backend *b, uint8_t *rgba);
} replay_backend_ops;

/* What a backend's driver holds for the replay's resources, which the memory limit
 * counts before anything is made (replay_budget.c), in copies of a resource's bytes:
 * its storage, host or device memory, is one copy; 0 where the driver keeps
 * nothing. Each backend states its own at open, beside the code that knows why. */
typedef struct replay_holdings {
    /* Held while the resource lives: a buffer, a texture's levels and faces, a back
     * buffer's or render target's images. */
    unsigned buffer, texture, surface;
    /* Taken while the driver works, then given back: the zeros a new buffer (all of
     * it) or texture (one face of level 0) is filled from, a texture upload's texels,
     * the back buffer's RGBA read back. */
    unsigned fill, upload, read_back;
    unsigned depth_stencil_bytes; /* a depth-stencil image's, per sample */
} replay_holdings;

/* The pipelines a backend has made so far: from nothing (`created`: a driver's
 * compile), or from a pipeline cache file's record (`cache_hits`), and the time
 * spent making them. */
typedef struct replay_pipeline_counts {
    uint32_t created, cache_hits;
    double ms;
} replay_pipeline_counts;

/* The fields every backend's own struct starts with. */
struct replay_backend {
    const replay_backend_ops *ops;
    char err[1024];
    replay_holdings holdings; /* set by open */
    uint32_t dynamic;         /* the AGAL_DYNAMIC_* it sets per draw (set by open) */
    replay_pipeline_counts pipelines;
};

extern const replay_backend_ops replay_vk_ops; /* replay_vk.c */
extern const replay_backend_ops replay_gl_ops; /* replay_gl.c */

/* The backend named `name` ("vulkan", "gl"); NULL (and *why set) when there is none:
 * "webgl" is not built yet. */
const replay_backend_ops *replay_backend_find(const char *name, const char **why);

/* ==== the replay ============================================================ */

/* One image a present or a drawToBitmapData yields: RGBA bytes, first row first,
 * alpha 255 (the stage shows the back buffer opaque). */
typedef struct replay_image {
    uint32_t width, height;
    uint8_t *rgba;
    const char *call; /* "present" or "drawToBitmapData" */
} replay_image;

/* How a replay ended. */
typedef enum replay_status {
    REPLAY_OK = 0,     /* every call ran */
    REPLAY_THROWN = 1, /* a call threw what Flash throws (replay_result.thrown) */
    REPLAY_FAILED = 2  /* the scene is malformed, or the backend failed (message printed) */
} replay_status;

/* A frame's pipelines (agalrun replay --stats): its draws, the distinct baked keys
 * they drew with, and the pipelines made meanwhile (replay_pipeline_counts). A
 * frame ends at each present; draws after the last one make a last frame. */
typedef struct replay_frame_stats {
    uint32_t draws, keys;
    replay_pipeline_counts pipelines;
} replay_frame_stats;

typedef struct replay_result {
    replay_status status;
    replay_image *images;
    size_t nimages;
    replay_frame_stats *frames;
    size_t nframes;
    replay_frame_stats total; /* the run's: keys are the distinct baked keys of every frame */
    size_t call;              /* THROWN/FAILED: the call, counting from 1 (0: before the calls) */
    char method[64];          /* its method name */
    int thrown_id;            /* Flash's id */
    char thrown[800];         /* "Error: Error #3692: All buffers ..." as AS3's String(e) */
} replay_result;

/* Replays the scene (JSON text, len bytes, NUL-terminated) on the backend ops with
 * options o. Malformed JSON or scene, and backend failures, print "NAME: ..."
 * lines on stderr (name: the scene's file name). Free with replay_result_free. */
void replay_run(const char *json, size_t len, const char *name, const replay_backend_ops *ops,
                const replay_open_options *o, replay_result *out);
void replay_result_free(replay_result *r);

/* ==== images (replay_image.c) =============================================== */

/* Writes RGBA bytes as a PNG through a temporary file renamed over path (toolio.h);
 * false with "TOOL: ..." printed on failure. */
bool replay_png_write(const char *tool, const char *path, const uint8_t *rgba, uint32_t width, uint32_t height);
/* Reads a PNG as RGBA bytes (malloc'd); NULL with "TOOL: ..." printed on failure. */
uint8_t *replay_png_read(const char *tool, const char *path, uint32_t *width, uint32_t *height);

/* The result of comparing an image with a reference in which it sits at (x, y). */
typedef struct replay_diff {
    uint32_t compared, outliers; /* pixels of the overlap; those off by more than the tolerance */
    unsigned largest;            /* the largest channel difference */
    uint8_t *image;              /* the overlap: outliers red, the rest the frame dimmed (malloc'd) */
    uint32_t width, height;      /* of image */
} replay_diff;

/* Compares the RGB of every pixel of the frame that lies on the reference. */
void replay_compare(const uint8_t *frame, uint32_t fw, uint32_t fh, const uint8_t *ref, uint32_t rw, uint32_t rh,
                    int32_t x, int32_t y, unsigned tolerance, replay_diff *out);

/* ==== agalview --scene (replay_view.c) ====================================== */

/* Replays the scene with the GL backend in a GLFW window's context and shows its
 * last image until the window closes; with shot, saves what the window shows and
 * returns. headless (shot required): through EGL, no window. Exit status: 0, 1 (the
 * scene threw: Flash's line printed), 2. */
int replay_view(const char *tool, const char *scene_path, const char *shot, bool headless);

#endif
