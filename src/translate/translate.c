/* translate.c: the middle end's driver. Every translation comes through here:
 * agal_translate, agal_upload (per stage), the harness and `agal2spv -t ir`. One row
 * per target says what the pipeline does for it and which back end writes it; the
 * binding description is made here, once for every target, from the IR's info
 * record (info.c) and the profile, never by a back end. */
#include "emit.h"

typedef agal_status (*emit_fn)(agal_context *ctx, const agal_ir *ir, const agal_emit_options *eo, agal_shader *out);

static agal_status emit_spirv(agal_context *ctx, const agal_ir *ir, const agal_emit_options *eo, agal_shader *out)
{
    return agal_spirv_emit(ctx, ir, eo, &out->words, &out->nwords);
}

static agal_status emit_glsl(agal_context *ctx, const agal_ir *ir, const agal_emit_options *eo, agal_shader *out)
{
    return agal_glsl_emit(ctx, ir, eo, &out->text, &out->len);
}

static agal_status emit_wgsl(agal_context *ctx, const agal_ir *ir, const agal_emit_options *eo, agal_shader *out)
{
    return agal_wgsl_emit(ctx, ir, eo, &out->text, &out->len);
}

static agal_status emit_ir(agal_context *ctx, const agal_ir *ir, const agal_emit_options *eo, agal_shader *out)
{
    (void)ctx, (void)eo;
    out->text = agal_ir_print(ir);
    if (!out->text) return AGAL_ERR_NOMEM;
    out->len = strlen(out->text);
    return AGAL_OK;
}

typedef struct target_row {
    bool keep_copies; /* an AGAL mov stays its own IR_COPY: one GLSL statement per mov */
    agal_glsl_dialect dialect;
    emit_fn emit;
    bool binds;       /* the target is for a GPU: its binding is described */
    agal_clip clip;   /* op's mapping by default (AGAL_CLIP_DEFAULT) */
    bool window_y_up; /* its window's y points up (lower_conventions.c) */
    bool fold_movs;   /* a mov makes no IR value (agal_ir_options): no text shows the numbering */
} target_row;

/* Vulkan's clip space has y down and depth 0..w: negate y. GL's (and GL ES's,
 * WebGL's) has y up and depth -w..w, its window y up: map depth. WebGPU's is
 * Stage3D's own (D3D's: y up, depth 0..w): no mapping; its framebuffer's y points
 * down, as Vulkan's and Stage3D's rows do, so ddy keeps its sign. The IR text is for
 * reading: op as the program wrote it (no mapping: AGAL_CLIP_DEFAULT stays). */
static const target_row targets[] = {
    [AGAL_TARGET_SPIRV] = {false, AGAL_GLSL_330, emit_spirv, true, AGAL_CLIP_VULKAN, false, true},
    [AGAL_TARGET_GLSL] = {true, AGAL_GLSL_330, emit_glsl, true, AGAL_CLIP_GL, true, false},
    [AGAL_TARGET_ESSL3] = {true, AGAL_GLSL_ESSL300, emit_glsl, true, AGAL_CLIP_GL, true, false},
    [AGAL_TARGET_ESSL1] = {true, AGAL_GLSL_ESSL100, emit_glsl, true, AGAL_CLIP_GL, true, false},
    [AGAL_TARGET_IR] = {false, AGAL_GLSL_330, emit_ir, false, AGAL_CLIP_DEFAULT, false, false},
    [AGAL_TARGET_WGSL] = {true, AGAL_GLSL_330, emit_wgsl, true, AGAL_CLIP_NONE, false, false},
};

agal_clip agal_target_clip(agal_target target, agal_clip clip)
{
    if ((unsigned)target >= AGAL_COUNTOF(targets)) return clip;
    return clip == AGAL_CLIP_DEFAULT ? targets[target].clip : clip;
}

agal_status agal_translate_pipeline(agal_context *ctx, const agal_program *prog, agal_target target, agal_clip clip,
                                    uint16_t unread, const agal_ir_packing *packing, agal_ir **out)
{
    const target_row *row = &targets[target];
    const agal_ir_options iro = {.keep_copies = row->keep_copies,
                                 .unread_varyings = unread,
                                 .packing = packing,
                                 .clip = agal_target_clip(target, clip),
                                 .window_y_up = row->window_y_up,
                                 .fold_movs = row->fold_movs};
    return agal_ir_pipeline(ctx, prog, &iro, out);
}

void agal_target_conventions(agal_target target, agal_clip clip, agal_ir_conventions *out)
{
    const target_row *row = &targets[target];
    agal_conventions(row->window_y_up, agal_target_clip(target, clip), out);
}

/* ---- the binding description -------------------------------------------------- */

/* The block with its one range where the limits packed none. */
typedef struct block_and_range {
    agal_binding_block b;
    agal_binding_range whole;
} block_and_range;

/* A binding's lists, each as long as a stage can need (16 varyings, and a vertex
 * program's 16 attributes or a fragment program's 16 samplers), and the block:
 * one allocation a translation, the block's room left off where no constant is read. */
typedef struct vertex_room {
    agal_binding_varying varyings[16];
    agal_binding_attribute attributes[16];
    block_and_range constants;
} vertex_room;
typedef struct fragment_room {
    agal_binding_varying varyings[16];
    agal_binding_sampler samplers[16];
    block_and_range constants;
} fragment_room;

static const agal_binding_block *block(block_and_range *both, const agal_ir *ir, agal_target target,
                                       const agal_names *names)
{
    const agal_program *p = ir->prog;
    agal_binding_block *b = &both->b;
    b->stage = p->stage;
    b->binding = p->stage == AGAL_VERTEX ? AGAL_VC_BINDING : AGAL_FC_BINDING;
    b->indirect = ir->info.reads_indirect;
    /* ES 1.00 has no uniform blocks: a plain array, as long as the registers read. */
    b->count = agal_ir_constant_count(ir, target == AGAL_TARGET_ESSL1);
    b->size = 16u * b->count;
    /* register n in vec4 n, unless the limits packed them (lower_constant_ranges.c) */
    both->whole = (agal_binding_range){0, b->count, 0};
    b->ranges = ir->nconst_ranges ? ir->const_ranges : &both->whole;
    b->nranges = ir->nconst_ranges ? ir->nconst_ranges : 1;
    /* WGSL: a uniform array named like the registers (host names are the GLSL
     * family's), bound at the SPIR-V binding */
    b->name = target == AGAL_TARGET_WGSL    ? agal_reg_name(p->stage, AGAL_REG_CONSTANT)
              : target == AGAL_TARGET_ESSL1 ? names->constants[p->stage]
                                            : names->blocks[p->stage];
    return b;
}

/* The GLSL name of fs<n> at s: the prefix (an identifier of at most 63 characters,
 * names.c, len long) and the number, under 16; where the next one starts. Spelled
 * by hand: snprintf was a twentieth of a fragment program's SPIR-V translation. */
static char *sampler_name(char *s, const char *prefix, size_t len, unsigned n)
{
    memcpy(s, prefix, len);
    if (n >= 10) s[len++] = (char)('0' + n / 10);
    s[len++] = (char)('0' + n % 10);
    s[len++] = 0;
    return s + len;
}

/* The samplers sampled, their names in one allocation. */
static agal_status samplers(agal_context *ctx, agal_binding_sampler *list, const agal_ir_info *info, bool separate,
                            const char *prefix, agal_binding *b)
{
    size_t len = strlen(prefix), count = 0;
    for (unsigned set = info->samplers; set; set &= set - 1) count++;
    char *name = count ? agal_alloc(ctx, count * (len + 3)) : NULL;
    if (count && !name) return AGAL_ERR_NOMEM;
    for (unsigned set = info->samplers; set; set &= set - 1) { /* the samplers sampled, lowest first */
        unsigned n = (unsigned)agal_lowest_bit(set);
        uint16_t bit = (uint16_t)(1u << n);
        list[b->nsamplers++] = (agal_binding_sampler){.num = (uint16_t)n,
                                                      .binding = AGAL_SAMPLER_BINDING + n,
                                                      .sampler_binding = separate ? AGAL_SEPARATE_SAMPLER_BINDING + n
                                                                                  : AGAL_SAMPLER_BINDING + n,
                                                      .name = name,
                                                      .token = info->sampler[n],
                                                      .uses_tex = (info->samplers_tex & bit) != 0,
                                                      .uses_ted = (info->samplers_ted & bit) != 0};
        name = sampler_name(name, prefix, len, n);
    }
    b->samplers = list;
    return AGAL_OK;
}

/* The attributes the vertex translation declares, with the components the tokens
 * read (agal_reflect's, noted by the builder). */
static void attributes(agal_binding_attribute *list, const agal_ir *ir, agal_binding *b)
{
    const uint16_t *mask = ir->attributes_read;
    for (unsigned set = ir->info.inputs; set; set &= set - 1) {
        unsigned n = (unsigned)agal_lowest_bit(set);
        list[b->nattributes++] = (agal_binding_attribute){(uint8_t)n, (uint8_t)mask[n]};
    }
    b->attributes = list;
}

/* Written (vertex) or read (fragment); centroid where a sample asks for it. */
static void varyings(agal_binding_varying *list, uint16_t declared, uint16_t centroid, agal_binding *b)
{
    for (unsigned set = declared; set; set &= set - 1) {
        unsigned n = (unsigned)agal_lowest_bit(set);
        list[b->nvaryings++] = (agal_binding_varying){.location = (uint8_t)n,
                                                      .centroid = (centroid >> n & 1) != 0,
                                                      .slot = (uint8_t)n,
                                                      .carried = 15,
                                                      .width = 4};
    }
    b->varyings = list;
}

/* A packed pair's (lower_pack_varyings.c): each AGAL varying carried in a slot
 * this stage declares, and where. */
static void packed_varyings(agal_binding_varying *list, const agal_ir *ir, agal_binding *b)
{
    const agal_ir_packing *p = &ir->packing;
    for (unsigned n = 0; n < 16; n++) {
        unsigned s = p->slot[n];
        if (s == IR_NO_SLOT || !(ir->info.packed >> s & 1)) continue;
        list[b->nvaryings++] = (agal_binding_varying){.location = (uint8_t)n,
                                                      .centroid = (p->centroid >> s & 1) != 0,
                                                      .packed = true,
                                                      .slot = (uint8_t)s,
                                                      .component = p->offset[n],
                                                      .carried = p->carried[n],
                                                      .width = p->width[s]};
    }
    b->varyings = list;
}

static agal_status describe(agal_context *ctx, const agal_ir *ir, agal_target target, const agal_emit_options *eo,
                            agal_binding *b)
{
    const agal_ir_info *info = &ir->info;
    bool vs = ir->prog->stage == AGAL_VERTEX;
    b->target = target;
    b->stage = ir->prog->stage;
    if (!targets[target].binds) return AGAL_OK;
    size_t size = vs ? (info->reads_constants ? sizeof(vertex_room) : offsetof(vertex_room, constants))
                     : (info->reads_constants ? sizeof(fragment_room) : offsetof(fragment_room, constants));
    void *room = agal_alloc(ctx, size);
    if (!room) return AGAL_ERR_NOMEM;
    vertex_room *vr = room;
    fragment_room *fr = room;
    if (info->reads_constants) b->constants = block(vs ? &vr->constants : &fr->constants, ir, target, &eo->names);
    b->outputs = vs ? 0 : (uint8_t)(info->outputs & 15u);
    b->yflip = info->yflip;
    b->writes_depth = info->writes_depth;
    b->uses_kil = info->kills;
    b->uses_iid = info->reads_iid;
    b->uses_derivatives = info->ddx || info->ddy;
    b->extensions = target == AGAL_TARGET_ESSL1 ? agal_ir_essl1_extensions(info) : 0;
    _Static_assert(offsetof(vertex_room, varyings) == 0 && offsetof(fragment_room, varyings) == 0,
                   "the varyings lead either room");
    if (ir->packing.on) packed_varyings(vr->varyings, ir, b);
    else varyings(vr->varyings, vs ? info->varyings_written : info->inputs, eo->centroid_varyings, b);
    if (vs) {
        attributes(vr->attributes, ir, b);
        return AGAL_OK;
    }
    /* WGSL has no combined sampler: its samplers are always separate, and named ours */
    bool wgsl = target == AGAL_TARGET_WGSL;
    const char *prefix = wgsl ? agal_reg_name(AGAL_FRAGMENT, AGAL_REG_SAMPLER) : eo->names.sampler;
    return samplers(ctx, fr->samplers, info, eo->pub.separate_samplers || wgsl, prefix, b);
}

/* The text positions of the tokens, copied: the caller's table need not outlive the shader. */
static agal_status keep_source_pos(agal_context *ctx, const agal_translate_options *opt, agal_shader *out)
{
    if (opt->nsource_pos > SIZE_MAX / sizeof(agal_source_pos)) return AGAL_ERR_ARG;
    agal_source_pos *pos = agal_alloc(ctx, opt->nsource_pos * sizeof *pos);
    if (!pos) return AGAL_ERR_NOMEM;
    memcpy(pos, opt->source_pos, opt->nsource_pos * sizeof *pos);
    out->source_pos = pos;
    out->nsource_pos = opt->nsource_pos;
    return AGAL_OK;
}

agal_status agal_translate_ir(agal_context *ctx, const agal_ir *ir, agal_target target, const agal_emit_options *eo,
                              agal_shader *out)
{
    uint32_t size = out->size;
    memset(out, 0, sizeof *out);
    out->size = size;
    bool debug = eo->pub.debug_info && !eo->pub.strip_names && target != AGAL_TARGET_IR;
    /* The options as the back end reads them: the caller's, copied only where the
     * target's dialect or the source they name differs. */
    agal_emit_options row;
    const agal_emit_options *use = eo;
    if (debug || eo->dialect != targets[target].dialect) {
        row = *eo;
        row.dialect = targets[target].dialect;
        use = &row;
    }
    agal_status st = debug ? agal_disassemble_program(ctx, ir->prog, 0, &row.source) : AGAL_OK;
    if (st == AGAL_OK) st = targets[target].emit(ctx, ir, use, out);
    if (st == AGAL_OK && debug) {
        out->source = row.source;
        st = agal_source_map(ctx, target, out);
    }
    if (st == AGAL_OK && debug && eo->pub.source_pos && eo->pub.nsource_pos) st = keep_source_pos(ctx, &eo->pub, out);
    return st != AGAL_OK ? st : describe(ctx, ir, target, use, &out->binding);
}

/* ---- the entry -------------------------------------------------------------------- */

agal_status agal_translate(agal_context *ctx, const agal_program *prog, const agal_translate_options *opt,
                           agal_shader *out)
{
    if (!ctx || !prog || !out) return AGAL_ERR_ARG;
    agal_emit_options eo;
    memset(&eo, 0, sizeof eo);
    agal_status st = agal_options_read(ctx, &eo.pub, sizeof eo.pub, opt, "agal_translate_options");
    if (st == AGAL_OK) st = agal_result_check(ctx, out->size, "agal_shader");
    if (st != AGAL_OK) return st;
    if ((unsigned)eo.pub.target >= AGAL_COUNTOF(targets) || (unsigned)eo.pub.clip > AGAL_CLIP_CONTROL)
        return AGAL_ERR_ARG;
    if ((st = agal_names_resolve(ctx, eo.pub.names, &eo.names)) != AGAL_OK) return st;
    agal_limits limits;
    if ((st = agal_limits_read(ctx, eo.pub.limits, &limits)) != AGAL_OK) return st;
    agal_ir *ir = NULL;
    agal_shader full; /* agal_translate_ir clears it */
    full.size = sizeof full;
    /* without limits (agal_limits_init's, all unlimited) there is nothing to pack or count */
    bool limited = eo.pub.limits != NULL;
    st = agal_translate_pipeline(ctx, prog, eo.pub.target, eo.pub.clip, 0, NULL, &ir);
    if (st == AGAL_OK && limited) st = agal_limits_pack_constants(&limits, eo.pub.target, ir);
    if (st == AGAL_OK) st = agal_translate_ir(ctx, ir, eo.pub.target, &eo, &full);
    /* a translation that does not fit is refused whole: no text for the driver to reject */
    if (st == AGAL_OK && limited) st = agal_limits_fit(ctx, &limits, ir, &full.binding);
    if (st == AGAL_OK) agal_result_write(out, &full, sizeof full);
    return st;
}

/* ---- what only the project's harness and tests call (harness_api.h, private.h) ---- */

agal_status agal_translate_spirv_xfb(agal_context *ctx, const agal_program *prog, const agal_translate_options *opt,
                                     const uint32_t **words, size_t *nwords)
{
    agal_emit_options eo = {.xfb = true};
    if (opt) eo.pub = *opt;
    agal_names_resolve(ctx, NULL, &eo.names); /* ours cannot fail */
    agal_ir *ir = NULL;
    agal_status st = agal_translate_pipeline(ctx, prog, AGAL_TARGET_SPIRV, eo.pub.clip, 0, NULL, &ir);
    return st != AGAL_OK ? st : agal_spirv_emit(ctx, ir, &eo, words, nwords);
}

agal_status agal_translate_spirv_to(agal_context *ctx, const agal_program *prog, const agal_translate_options *opt,
                                    uint32_t *buf, size_t cap, size_t *nwords)
{
    if (!ctx || !prog || !nwords || (!buf && cap)) return AGAL_ERR_ARG;
    agal_emit_options eo;
    memset(&eo, 0, sizeof eo);
    if (opt) eo.pub = *opt;
    agal_names_resolve(ctx, NULL, &eo.names); /* ours cannot fail */
    agal_ir *ir = NULL;
    agal_status st = agal_translate_pipeline(ctx, prog, AGAL_TARGET_SPIRV, eo.pub.clip, 0, NULL, &ir);
    return st != AGAL_OK ? st : agal_spirv_emit_to(ctx, ir, &eo, buf, cap, nwords);
}
