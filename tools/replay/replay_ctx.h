/* replay_ctx.h: what the replay's own files share (replay.h is their interface):
 * the Context3D state machine's objects and state (replay_context.c), the calls
 * (replay_calls.c) and the ActionScript values a call's JSON arguments stand for
 * (replay_scene.c). */
#ifndef AGAL_REPLAY_CTX_H
#define AGAL_REPLAY_CTX_H

#include "agal/interp.h"
#include "agal/stage3d.h"
#include "replay.h"

#include <cjson/cJSON.h>

/* What a call, an argument or a check comes to. */
enum { R_OK = 0, R_THROWN = 1, R_FAILED = 2 };

/* ---- objects ----------------------------------------------------------------- */

typedef enum robj_kind { OBJ_VERTEX_BUFFER, OBJ_INDEX_BUFFER, OBJ_PROGRAM, OBJ_TEXTURE } robj_kind;

typedef struct robj {
    char *name; /* the scene's "as" */
    robj_kind kind;
    union {
        struct {
            rb_buffer *rb;
            uint32_t vertices, data32;
            uint32_t instances_per_element; /* 0: a per-vertex buffer */
        } vb;
        struct {
            rb_buffer *rb;
            uint32_t count;
            uint16_t *indices; /* a copy, for the vertex-count check at draw */
        } ib;
        struct {
            rb_program *rb;
            const agal_upload_result *upload; /* NULL until uploaded */
        } program;
        struct {
            rb_texture *rb;
            replay_texture_desc desc;
            agal_texture_format format; /* as created (the AS3 format) */
            uint32_t defined[6];        /* per face, bit l: level l holds data */
            bool rendered;              /* rendered to since its levels 1.. were made */
            uint64_t target_bytes;      /* counted for its render-target images (replay_budget.c) */
        } tex;
    } u;
} robj;

/* ---- the context ------------------------------------------------------------ */

typedef struct rslot {
    robj *texture; /* NULL: the slot is off */
    unsigned face;
    bool depth_stencil;
    int anti_alias;
} rslot;

typedef struct rstream {
    robj *buffer; /* NULL: not set */
    int32_t offset;
    agal_vertex_format format;
} rstream;

typedef struct replay_ctx {
    const char *name; /* the scene's file, for messages */
    const replay_backend_ops *ops;
    replay_backend *be;
    agal_context *agal;        /* every upload's results live here until the end */
    const agal_limits *limits; /* every upload's (replay_open_options) */
    agal_context3d_profile profile;

    robj **objects;
    size_t nobjects, objects_cap;
    unsigned created[4]; /* per robj_kind (agal_resource_kind's order), for 3691 */

    bool configured, depth_stencil, cleared;
    uint32_t width, height;
    int anti_alias;
    rslot slots[REPLAY_TARGETS]; /* render to texture; none set: the back buffer */

    robj *program;
    rstream streams[REPLAY_STREAMS];
    robj *textures[REPLAY_SAMPLERS];
    agal_sampler_slots sampler_slots;
    float vc[REPLAY_MAX_CONSTANTS][4], fc[REPLAY_MAX_CONSTANTS][4];
    replay_state state;
    bool scissor_set;
    double scissor[4];
    unsigned draws;                                        /* since the last present (3690 past 32768) */
    uint64_t memory_limit, memory_used, back_buffer_bytes; /* replay_budget.c */
    /* The pipelines' statistics (replay_result.frames): the baked keys drawn in this
     * frame and in the run, and the backend's counts when the frame began. */
    agal_pipeline_key *frame_keys, *run_keys;
    size_t nframe_keys, nrun_keys;
    uint32_t frame_draws;
    replay_pipeline_counts frame_start;

    replay_result *out;
    /* replay_open_options.probe, called after each write to the back buffer */
    void (*probe)(void *user, const replay_probe *p);
    void *probe_user;
    size_t skip_call; /* replay_open_options' */
} replay_ctx;

/* A call being replayed. */
typedef struct rcall {
    replay_ctx *c;
    const cJSON *json;
    const cJSON *args; /* the "args" array, or NULL */
    const char *method;
    robj *on; /* the object of "on", NULL for Context3D's methods */
} rcall;

/* Ends the call with the error e a library check filled (a diagnostic's, a
 * Context3D check's): the replay throws no Flash id of its own; R_THROWN. */
int rthrow_error(rcall *k, const agal_flash_error *e);
/* The same for an id a library call returned whose message names nothing (the
 * constant registers' agal_stage3d_constants_from_*). */
int rthrow_id(rcall *k, int id);
/* The same for ActionScript's null given for param (agal_check_non_null: #2007). */
int rthrow_null(rcall *k, const char *param);
/* Ends the replay with a message about the scene ("call 3 (clear): ..."); R_FAILED. */
int rfail(rcall *k, const char *fmt, ...);
/* Ends the replay with the backend's reason; R_FAILED. */
int rbackend(rcall *k);

/* ---- replay_calls.c ------------------------------------------------------------ */

/* Runs one call of the scene. */
int replay_call(replay_ctx *c, const cJSON *json);

/* ---- replay_context.c: what the calls share ---------------------------------- */

robj *robj_new(rcall *k, robj_kind kind);
robj *robj_find(replay_ctx *c, const char *name);
void robj_free(robj *o);
/* The register profile and AGAL limits of the context's profile. */
/* The render target now: the back buffer or the texture slots. */
/* The state as the library's Context3D checks read it (agal_context3d_state), and
 * one texture as agal_check_draw_textures and agal_check_render_to_texture do. */
void rdescribe_state(const replay_ctx *c, agal_context3d_state *s);
agal_draw_texture rdescribe_texture(const replay_ctx *c, const robj *t);
bool rtarget_is_texture(const replay_ctx *c);
void rtarget_describe(const replay_ctx *c, replay_target *t);
/* The draw-time checks and the draw, for drawTriangles(Instanced). */
int rdraw(rcall *k, robj *ib, int32_t first, int32_t triangles, int32_t instances);
int rclear(rcall *k, const double rgba[4], double depth, uint32_t stencil, uint32_t mask);
/* The back buffer as an image (present, drawToBitmapData); NULL with k failed. */
uint8_t *rread_back_buffer(rcall *k);
/* replay_open_options.probe after an upload into texture t, or (made) its creation. */
int rprobe_texture(rcall *k, const robj *t, bool made);
int radd_image(rcall *k, uint8_t *rgba, uint32_t w, uint32_t h);
/* Ends a frame of the pipelines' statistics (a present; the run's end, when it drew
 * since); false when out of memory. */
bool rframe_end(replay_ctx *c);

/* ---- replay_budget.c: the memory limit ---------------------------------------- */

/* What a call costs against the limit: `held` bytes from now on, `transient` more
 * while it runs. */
typedef struct rcost {
    uint64_t held, transient;
} rcost;

/* Counts cost.held against the limit, failing the call (exit 2, 3691's text) when it
 * and cost.transient more do not fit; before anything is allocated. */
int rbudget_take(rcall *k, rcost cost);
/* What a replaced back buffer held. */
void rbudget_give(replay_ctx *c, uint64_t held);
/* A buffer of `bytes`, and the `kept` bytes the replay keeps of its own beside it
 * (an index buffer's indices, for the draw-time checks). */
rcost rbudget_buffer(const replay_ctx *c, uint64_t bytes, uint64_t kept);
/* A texture: every level and face, and one face of level 0 made or uploaded. */
rcost rbudget_texture(const replay_ctx *c, const replay_texture_desc *d);
/* A back buffer (colour, depth-stencil, resolve), with room for a read-back. */
rcost rbudget_back_buffer(const replay_ctx *c, uint32_t w, uint32_t h, int aa, bool depth_stencil);
/* Reading the back buffer for present's image, and for drawToBitmapData's bitmap. */
rcost rbudget_present(const replay_ctx *c);
rcost rbudget_draw_to_bitmap(const replay_ctx *c, uint64_t bitmap_bytes);
/* The images a texture needs as a render target with antiAlias aa. */
uint64_t rbudget_target(const replay_ctx *c, const robj *t, int aa, bool depth_stencil);

/* ---- replay_scene.c: the ActionScript values --------------------------------- */

/* Fails unless the call has min..max arguments. */
int args_count(rcall *k, unsigned min, unsigned max);
/* Whether argument i is given (absent: the AS3 default applies). */
bool arg_given(const rcall *k, unsigned i);
/* Number: a JSON number, or "NaN", "Infinity", "-Infinity". */
int arg_number(rcall *k, unsigned i, double def, double *out);
/* int and uint parameters: the number as ECMAScript's ToInt32 / ToUint32 make it. */
int arg_int(rcall *k, unsigned i, int32_t def, int32_t *out);
int arg_uint(rcall *k, unsigned i, uint32_t def, uint32_t *out);
int arg_bool(rcall *k, unsigned i, bool def, bool *out);
/* A String parameter holding one of an enumeration's AS3 values: null is Flash's
 * TypeError #2007, another string ArgumentError #2008, both naming param. def NULL:
 * the argument is required. */
int arg_enum(rcall *k, unsigned i, agal_stage3d_enum which, const char *param, const char *def, unsigned *out);
/* An object argument: the name of an object of that kind, or null (*out NULL; an
 * error #2007 naming param unless nullable). */
int arg_object(rcall *k, unsigned i, robj_kind kind, const char *param, bool nullable, robj **out);
/* A Vector.<Number> or Vector.<uint>: the JSON array (null: #2007). */
int arg_vector(rcall *k, unsigned i, const char *param, const cJSON **out, uint32_t *n);
/* Element j of a vector as a Number. */
double vector_number(const cJSON *v, uint32_t j);

typedef struct rbytes {
    uint8_t *data; /* malloc'd */
    size_t len;
    bool big_endian;
} rbytes;
/* A ByteArray: {"base64": ..., "endian": "bigEndian"|"littleEndian"} (null: #2007). */
int arg_bytes(rcall *k, unsigned i, const char *param, rbytes *out);
/* Program3D.upload's ByteArray: also {"agal": TEXT, "version": N}, assembled for stage. */
int arg_program(rcall *k, unsigned i, agal_stage stage, rbytes *out);
/* A Matrix3D: {"matrix3d": [16 numbers of rawData]} (null: #2007). */
int arg_matrix(rcall *k, unsigned i, const char *param, double raw[16]);
/* A Rectangle {"rect": [x, y, w, h]} or a Point {"point": [x, y]}; null or absent:
 * *present false. */
int arg_rect(rcall *k, unsigned i, double r[4], bool *present);
int arg_point(rcall *k, unsigned i, double p[2], bool *present);

/* A BitmapData: ARGB words (0xAARRGGBB, unpremultiplied), first row first. */
typedef struct rbitmap {
    uint32_t width, height;
    uint32_t *argb; /* malloc'd */
} rbitmap;
/* {"bitmap": {"width", "height", "transparent", "fill", "rects", "pixels"}} (null: #2007). */
int arg_bitmap(rcall *k, unsigned i, const char *param, rbitmap *out);

/* ECMAScript's ToInt32 and ToUint32. */
int32_t as3_int(double v);
uint32_t as3_uint(double v);

#endif
