/* glsl.c: IR -> GLSL 330 core, readable, in the GL binding model (docs/binding-models.md).
 *
 * The text is made from the same SSA IR as the SPIR-V (ir.h), built with
 * keep_copies so every AGAL instruction keeps its own value, by the walk the text
 * back ends share (textwalk.h: registers as variables, one assignment an AGAL
 * instruction, the comments naming the tokens). This file is GLSL's spelling of
 * it: the expressions, the built-in outputs, the declarations. main's statements
 * are written first: the walk finds the registers written, pow's use and the
 * outputs that rely on their zero initial value, and the declarations and locals
 * written after them then move in front.
 *
 * Meaning (docs/format.md section 4 and docs/decisions.md), as the interpreter and
 * the SPIR-V emitter: positional masks (a masked write assigns the selected
 * components of the swizzled result), dp3/dp4 in every written component, matrix
 * rows B[k] = register B + k, indirect reads bounds-checked (agal_vc() reads 0 out
 * of range), ine/sne true for NaN (!(a == b)), temporaries start at 0, kil discards
 * below 0, tex bias = token bias / 8, ted's LOD = A.w. Vertex op -> gl_Position,
 * the value the IR stores there: op with the target's conventions and y times
 * agal_yflip (render to texture), which lower_conventions.c wrote into the IR as it
 * wrote ddy's. */
#include "textwalk/textwalk.h"

#include <math.h>

/* The dialects' state around the walk's. */
typedef struct glsl {
    agal_text t; /* first: the shared walk's state (textwalk.h) */
    agal_glsl_dialect dialect;
    const char *flip_value; /* the flip uniform as a float: NAME or NAME.c */
    bool mrt;               /* colours beyond oc0 (GLSL ES 1.00: gl_FragData) */
} glsl;

static const glsl *GLSL(const agal_text *t) { return (const glsl *)t; }

/* ---- expressions ------------------------------------------------------------ */

/* A float literal; NaN and the infinities by their bits (GLSL has no literal for them). */
static void put_float(agal_text *t, float f)
{
    bool es1 = GLSL(t)->dialect == AGAL_GLSL_ESSL100; /* no uintBitsToFloat in GLSL ES 1.00 */
    if (isnan(f)) {
        text_put(t, es1 ? "(0.0 / 0.0)" : "uintBitsToFloat(0x7fc00000u)");
    } else if (isinf(f)) {
        text_put(t, f > 0 ? (es1 ? "(1.0 / 0.0)" : "uintBitsToFloat(0x7f800000u)")
                          : (es1 ? "(-1.0 / 0.0)" : "uintBitsToFloat(0xff800000u)"));
    } else {
        agal_text_put_finite(t, f);
    }
}

/* The vector functions of the predicates (AGAL_CMPS), and whether negated. */
typedef struct glsl_cmp {
    const char *vector;
    bool negate;
} glsl_cmp;
static const glsl_cmp cmps[] = {
#define GLSL_CMP(id, op, spirv, scalar, vector, negate) {vector, negate},
    AGAL_CMPS(GLSL_CMP)
#undef GLSL_CMP
};

/* sge/slt/seq/sne: 1.0 where the comparison holds. NaN: only sne holds. */
static void set_cmp(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    const glsl_cmp *c = &cmps[agal_op_cmp(in->aop)];
    text_put3(t, text_vec_type(t, sel_n(s)), "(", NULL);
    if (sel_n(s) == 1) {
        agal_text_compare(t, in, s);
    } else {
        text_put3(t, c->negate ? "not(" : "", c->vector, "(");
        agal_text_ref(t, in->args[0], s, false);
        text_put(t, ", ");
        agal_text_ref(t, in->args[1], s, false);
        text_put(t, c->negate ? "))" : ")");
    }
    text_put(t, ")");
}

/* A function of the opcode table: GLSL's own, but pow in GLSL ES goes through
 * agal_pow, which keeps pow(0, y) at 0 (declarations). */
static const char *function(const agal_text *t, const char *glsl_name, unsigned width)
{
    (void)width;
    return GLSL(t)->dialect != AGAL_GLSL_330 && !strcmp(glsl_name, "pow") ? "agal_pow" : glsl_name;
}

/* texture(fs0, A.xy[, bias]) / textureLod(fs0, A.xy, A.w); cube reads A.xyz. */
static void tex(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    bool lod = in->aop == AGAL_OP_TED, cube = in->smp.dim == AGAL_DIM_CUBE;
    const char *fn = lod ? "textureLod" : "texture";
    if (GLSL(t)->dialect == AGAL_GLSL_ESSL100) /* texture2D / textureCube, the LOD ones of EXT_shader_texture_lod */
        fn = lod ? (cube ? "textureCubeLodEXT" : "texture2DLodEXT") : (cube ? "textureCube" : "texture2D");
    text_put3(t, fn, "(", NULL);
    text_put_host_num(t, &t->spelled.sampler, t->names->sampler, (unsigned)in->smp.num);
    text_put(t, ", ");
    agal_text_sample_operands(t, in, s);
}

static void input(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    if (in->reg_type == AGAL_REG_IID) {
        /* iid reads (id, id, id, id). */
        if (GLSL(t)->dialect == AGAL_GLSL_ESSL100) {
            agal_text_unsupported(t, "iid: GLSL ES 1.00 (WebGL 1) has no instance id, and no extension gives one");
            return;
        }
        agal_text_splat(t, s, "float(gl_InstanceID)");
        return;
    }
    if (in->reg_type == IR_REG_PACKED) {
        agal_text_packed(t, in->reg_num, s);
        return;
    }
    bool attribute = in->reg_type == AGAL_REG_ATTRIBUTE;
    agal_text_put_reg_sel(t, attribute ? &t->spelled.attribute : &t->spelled.varying,
                          attribute ? t->names->attribute : t->names->varying, (unsigned)in->reg_num, s);
}

/* ---- statements only GLSL has --------------------------------------------- */

static void position(agal_text *t)
{
    agal_text_indent(t);
    text_put(t, "gl_Position = ");
    agal_text_components(t, t->position);
    text_put(t, ";\n");
}

/* An output's final value is in its variable: op and fd go to their GL built-ins,
 * and GLSL ES 1.00's colours (it has no out variables) to gl_FragColor / gl_FragData. */
static void stored(agal_text *t, const agal_ir_inst *in)
{
    bool es1 = GLSL(t)->dialect == AGAL_GLSL_ESSL100;
    if (in->reg_type == AGAL_REG_OUTPUT && t->prog->stage == AGAL_VERTEX) {
        position(t);
    } else if (in->reg_type == AGAL_REG_DEPTH) {
        agal_text_indent(t);
        text_put(t, es1 ? "gl_FragDepthEXT = fd.x;\n" : "gl_FragDepth = fd.x;\n");
    } else if (in->reg_type == AGAL_REG_OUTPUT && es1) {
        agal_text_indent(t);
        if (GLSL(t)->mrt) {
            text_put_num(t, "gl_FragData[", (unsigned)in->reg_num);
            text_put_num(t, "] = oc", (unsigned)in->reg_num);
            text_put(t, ";\n");
        } else {
            text_put(t, "gl_FragColor = oc0;\n");
        }
    }
}

/* ---- declarations ----------------------------------------------------------- */

/* The auxiliary qualifier of v<n>: "centroid " where it feeds a centroid sampler. */
static const char *centroid(const agal_text *t, unsigned n)
{
    return n < 16 && (t->centroid >> n & 1) ? "centroid " : "";
}

/* A pair's packed varyings, each as wide as it carries (ES 1.00 then packs them by
 * its Appendix A.7, GLSL 330 and ES 3.00 by their own rules). */
static void packed_varyings(agal_text *t, const agal_text_usage *u, bool vs, bool es1)
{
    const agal_ir_packing *p = &t->ir->packing;
    for (unsigned n = 0; n < 16 && u->packed >> n; n++) { /* ends past the mask's highest bit */
        if (!(u->packed >> n & 1)) continue;
        bool centroid = !es1 && (p->centroid >> n & 1);
        text_put3(t, es1 ? "varying " : centroid ? "centroid " : "", es1 ? NULL : vs ? "out " : "in ", NULL);
        text_put3(t, text_vec_type(t, p->width[n]), " ", AGAL_GLSL_PACK_PREFIX);
        text_uint(t, n);
        text_put(t, ";\n");
    }
}

/* #version, precision and extensions. */
static void header(agal_text *t)
{
    switch (GLSL(t)->dialect) {
    case AGAL_GLSL_330: text_put(t, "#version 330 core\n"); break;
    case AGAL_GLSL_ESSL300: text_put(t, "#version 300 es\nprecision highp float;\nprecision highp int;\n"); break;
    case AGAL_GLSL_ESSL100: {
        text_put(t, "#version 100\n");
        unsigned ext = agal_ir_essl1_extensions(&t->ir->info);
        for (unsigned bit = 1; bit <= AGAL_EXT_DRAW_BUFFERS; bit <<= 1)
            if (ext & bit) text_put3(t, "#extension ", agal_extension_name(bit, false), " : enable\n");
        /* highp is optional in GLSL ES 1.00 fragment shaders (always there in vertex ones). */
        if (t->prog->stage == AGAL_VERTEX) text_put(t, "precision highp float;\n");
        else
            text_put(
                t,
                "#ifdef GL_FRAGMENT_PRECISION_HIGH\nprecision highp float;\n#else\nprecision mediump float;\n#endif\n");
        break;
    }
    }
}

/* vc / fc: a std140 block of the profile's count (GLSL 330, ES 3.00), or (ES 1.00)
 * a plain uniform array of the registers read (all of them for a relative read);
 * the packed vec4s where limits packed them (agal_ir_constant_count). */
static unsigned constant_count(const agal_text *t)
{
    return agal_ir_constant_count(t->ir, GLSL(t)->dialect == AGAL_GLSL_ESSL100);
}

static void declarations(agal_text *t, const agal_text_usage *u)
{
    bool vs = t->prog->stage == AGAL_VERTEX, es1 = GLSL(t)->dialect == AGAL_GLSL_ESSL100;
    const char *cname = t->names->constants[t->prog->stage];
    unsigned nconst = constant_count(t);
    header(t);
    if (t->comments) {
        text_put_num(t, "// agal2spv: AGAL ", (unsigned)t->prog->version);
        text_put3(t, vs ? " vertex" : " fragment", " program, ", NULL);
        text_uint(t, (unsigned)t->prog->ntokens);
        text_put(t, " tokens\n");
    }
    if (u->constants) {
        if (es1) text_put(t, "uniform vec4 ");
        else text_put3(t, "layout(std140) uniform ", t->names->blocks[t->prog->stage], " { vec4 ");
        text_put_host(t, &t->spelled.constants, cname);
        text_putc(t, '[');
        text_uint(t, nconst);
        text_put(t, es1 ? "];\n" : "]; };\n");
    }
    if (u->yflip) {
        /* GLSL ES has no uniform initializers: 0, a uniform never set, stands for 1. */
        const char *type = t->names->yflip_component ? "vec4 " : "float ";
        text_put3(t, "uniform ", type, t->names->yflip);
        if (GLSL(t)->dialect == AGAL_GLSL_330) text_put(t, t->names->yflip_component ? " = vec4(1.0);\n" : " = 1.0;\n");
        else {
            text_put3(t, ";\nfloat agal_flip() { return ", GLSL(t)->flip_value, " == 0.0 ? 1.0 : ");
            text_put3(t, GLSL(t)->flip_value, "; }\n", NULL);
        }
    }
    /* Each loop ends past its mask's highest bit. */
    for (unsigned n = 0; n < 16 && u->samplers >> n; n++) {
        if (!(u->samplers & (1u << n))) continue;
        text_put3(t, "uniform ", u->sampler[n].dim == AGAL_DIM_CUBE ? "samplerCube " : "sampler2D ", NULL);
        text_put_host_num(t, &t->spelled.sampler, t->names->sampler, n);
        text_put(t, ";\n");
    }
    for (unsigned n = 0; n < 32 && u->inputs >> n; n++) {
        if (!(u->inputs & (1u << n))) continue;
        if (es1) {
            text_put3(t, vs ? "attribute vec4 " : "varying vec4 ", NULL, NULL);
        } else if (vs) {
            text_put_num(t, "layout(location = ", n);
            text_put(t, ") in vec4 ");
        } else {
            text_put3(t, centroid(t, n), "in vec4 ", NULL);
        }
        if (vs) text_put_host_num(t, &t->spelled.attribute, t->names->attribute, n);
        else text_put_host_num(t, &t->spelled.varying, t->names->varying, n);
        text_put(t, ";\n");
    }
    for (unsigned n = 0; n < 32 && u->varyings >> n; n++) {
        if (!(u->varyings & (1u << n))) continue;
        text_put3(t, es1 ? "varying" : centroid(t, n), es1 ? NULL : "out", NULL);
        text_put3(t, " vec4 ", NULL, NULL);
        text_put_host_num(t, &t->spelled.varying, t->names->varying, n);
        text_put(t, ";\n");
    }
    packed_varyings(t, u, vs, es1);
    for (unsigned n = 0; n < 32 && !es1 && u->outputs >> n; n++)
        if (u->outputs & (1u << n)) {
            text_put_num(t, "layout(location = ", n);
            text_put_num(t, ") out vec4 oc", n);
            text_put(t, ";\n");
        }
    if (u->pow && GLSL(t)->dialect != AGAL_GLSL_330) {
        /* GLSL ES defines pow's precision as exp2(y * log2(x))'s, and log2(0) has no
         * bound: SwiftShader (Chromium's software WebGL) gives pow(0, y) = 2^(-127 y).
         * AGAL's pow(0, y) is 0 for y > 0; sign(x) is 1 for every x > 0, so pow is
         * unchanged there (x < 0 is undefined in AGAL and GLSL alike). */
        text_put(t, "\n");
        if (t->comments) text_put(t, "/* pow(x, y), 0 at x = 0: GLSL ES bounds no error of log2(0) */\n");
        for (unsigned n = 1; n <= 4; n++) {
            text_put3(t, text_vec_type(t, n), " agal_pow(", text_vec_type(t, n));
            text_put3(t, " x, ", text_vec_type(t, n), " y) { return pow(x, y) * sign(x); }\n");
        }
    }
    if (u->indirect) {
        text_put(t, "\n");
        if (t->comments)
            text_put3(t, "/* ", cname, "[a], or 0 outside the register file (AGAL's bounded relative read). */\n");
        /* A mix over a bvec, a select: with `a >= 0 && a < N ? vc[a] : 0` the first
         * draw of skinning2's six reads in WebGL on SwiftShader took a tenth longer
         * (docs/benchmark.md, "Sixteenth round"). GLSL ES 1.00 has no such mix. */
        text_put3(t, "vec4 agal_", cname, "(int a) { ");
        if (GLSL(t)->dialect == AGAL_GLSL_ESSL100) {
            text_put(t, "return a >= 0 && a < ");
            text_uint(t, nconst);
            text_put3(t, " ? ", cname, "[a] : vec4(0.0); }\n");
        } else {
            text_put(t, "int c = clamp(a, 0, ");
            text_uint(t, nconst - 1);
            text_put3(t, "); return mix(vec4(0.0), ", cname, "[c], bvec4(c == a)); }\n");
        }
    }
}

/* Is register (type, num) a local of main, else the shader's out variable? GLSL ES
 * 1.00 writes colours through gl_FragColor / gl_FragData, and a packed pair's
 * varyings are locals its packed outputs store. */
static bool is_local(const agal_text *t, const agal_text_usage *u, unsigned type, unsigned num)
{
    return type == AGAL_REG_TEMP || type == AGAL_REG_DEPTH || (type == AGAL_REG_VARYING && !(u->varyings >> num & 1)) ||
           (type == AGAL_REG_OUTPUT && (t->prog->stage == AGAL_VERTEX || GLSL(t)->dialect == AGAL_GLSL_ESSL100));
}

/* Register variables: temporaries, op and fd are locals starting at 0; the
 * outputs oc/v are the shader's out variables, zeroed only if the program leaves
 * components unwritten that the final value counts on. */
static void locals(agal_text *t, const agal_text_usage *u)
{
    t->indent = 1;
    /* written registers, and the ones an output's final value is stored from: op, oc<n>, fd */
    uint64_t stored = t->prog->stage == AGAL_VERTEX ? (uint64_t)u->op << IR_SLOT_OUT
                                                    : (uint64_t)(u->outputs & 15u) << IR_SLOT_OUT;
    uint64_t declared = u->temps | stored | (uint64_t)u->fd << IR_SLOT_DEPTH, slots = declared | t->zero_used;
    for (; slots; slots &= slots - 1) { /* the set bits only, lowest first */
        int s = agal_lowest_bit(slots);
        unsigned type, num;
        agal_ir_slot_reg(s, &type, &num);
        bool local = is_local(t, u, type, num);
        if (local && (declared >> s & 1)) {
            text_put(t, "    vec4 ");
            agal_text_reg_name(t, s);
            text_put(t, " = vec4(0.0);\n");
        } else if (!local && (t->zero_used >> s & 1)) {
            text_put(t, "    ");
            agal_text_reg_name(t, s);
            text_put(t, " = vec4(0.0);\n");
        }
    }
}

/* ---- entry point ------------------------------------------------------------ */

/* The flip's expressions: its uniform as a float (NAME, or NAME.c of a vec4), and
 * what multiplies op.y and ddy (GLSL ES: agal_flip(), which reads 0 as 1). */
static agal_status flip_names(glsl *g)
{
    const agal_names *n = g->t.names;
    g->flip_value = n->yflip;
    if (n->yflip_component) {
        size_t len = strlen(n->yflip);
        char *s = agal_alloc(g->t.ctx, len + 3);
        if (!s) return AGAL_ERR_NOMEM;
        memcpy(s, n->yflip, len);
        s[len] = '.', s[len + 1] = n->yflip_component, s[len + 2] = 0;
        g->flip_value = s;
    }
    g->t.flip = g->dialect == AGAL_GLSL_330 ? g->flip_value : "agal_flip()";
    return AGAL_OK;
}

static const agal_text_lang glsl_lang = {
    .name = "GLSL",
    .vec_types = {"float", "float", "vec2", "vec3", "vec4"},
    .temp_types = {"bool t", "vec4 t", "float t", "bool t"},
    .int_cast = "int(",
    .sat = {"clamp(", ", 0.0, 1.0)"},
    .kil_end = " < 0.0) discard;\n",
    .assigns_swizzles = true,
    .function = function,
    .number = put_float,
    .constant = agal_text_literal,
    .input = input,
    .set_cmp = set_cmp,
    .tex = tex,
    .interleaved = NULL, /* vec4(old.x, new.y, old.z, new.w) */
    .stored = stored,
};

agal_status agal_glsl_emit(agal_context *ctx, const agal_ir *ir, const agal_emit_options *eopt, const char **text,
                           size_t *len)
{
    static const agal_emit_options defaults;
    if (!ctx || !ir || !text) return AGAL_ERR_ARG;
    if (!eopt) eopt = &defaults;
    const agal_translate_options *opt = &eopt->pub;
    const agal_program *prog = ir->prog;
    glsl g = {.t = {.lang = &glsl_lang,
                    .ctx = ctx,
                    .ir = ir,
                    .prog = prog,
                    .names = &eopt->names,
                    .comments = !opt->strip_names,
                    .lines = opt->debug_info && !opt->strip_names,
                    /* GLSL ES 1.00 has no centroid qualifier */
                    .centroid = eopt->dialect == AGAL_GLSL_ESSL100 ? 0 : eopt->centroid_varyings,
                    .out = {.ctx = ctx}},
              .dialect = eopt->dialect};
    agal_names ours;
    if (!g.t.names->sampler) { /* a caller below the driver (tests) takes ours */
        agal_names_resolve(ctx, NULL, &ours);
        g.t.names = &ours;
    }
    if (flip_names(&g) != AGAL_OK) return AGAL_ERR_NOMEM;
    agal_text_usage u;
    agal_status st = agal_text_plan(&g.t, &u);
    if (st != AGAL_OK) return st;
    g.mrt = (u.outputs & ~1u) != 0;
    agal_text_body(&g.t, &u);
    size_t body_end = g.t.out.n;
    declarations(&g.t, &u);
    text_put(&g.t, "\nvoid main()\n{\n");
    locals(&g.t, &u);
    agal_text_put_front(&g.t, body_end);
    text_put(&g.t, "}\n");
    if (g.t.err != AGAL_OK) return g.t.err;
    if (!(*text = agal_text_finish(&g.t, len))) return AGAL_ERR_NOMEM;
    return AGAL_OK;
}

const char *agal_extension_name(unsigned ext, bool webgl)
{
    switch (ext) {
    case AGAL_EXT_STANDARD_DERIVATIVES: return webgl ? "OES_standard_derivatives" : "GL_OES_standard_derivatives";
    case AGAL_EXT_SHADER_TEXTURE_LOD: return webgl ? "EXT_shader_texture_lod" : "GL_EXT_shader_texture_lod";
    case AGAL_EXT_FRAG_DEPTH: return webgl ? "EXT_frag_depth" : "GL_EXT_frag_depth";
    case AGAL_EXT_DRAW_BUFFERS: return webgl ? "WEBGL_draw_buffers" : "GL_EXT_draw_buffers";
    default: return NULL;
    }
}
