/* wgsl.c: IR -> WGSL for WebGPU, readable, in the WebGPU binding model
 * (docs/binding-models.md).
 *
 * Made like the GLSL, by the walk the text back ends share (textwalk.h): from the
 * same SSA IR, built with keep_copies, each written register (vt/ft, op, oc, v, fd)
 * becomes one function-scope `var`, and a value tagged with a register one
 * assignment to it; a use prints the register's name while the variable holds that
 * value, and a value that outlives its register gets a `let tN` copy. This file is
 * WGSL's spelling of it.
 *
 * Where WGSL differs from GLSL, and what the text does about it:
 * - No assignment to a multi-component swizzle: a masked write whose new
 *   components are one run is `vt0 = vec4f(new.xyz, vt0.w)`; one that interleaves
 *   is select(old, new, vec4<bool>(...)), so the new value is computed once.
 * - No global in/out variables: va<n>, v<n> and iid are parameters of `main`;
 *   every register is a local `var` (WGSL zero-initialises them, which is AGAL's
 *   start at 0), and main returns op, the varyings, oc<n> and fd in a struct.
 * - No combined samplers: fs<n> is a texture and a sampler, two bindings.
 * - No overloads of a user function: pow's wrapper is agal_pow1..4, one per
 *   width. clamp takes no scalar bounds for a vector: sat is saturate().
 * - The render-to-texture flip is an `override` constant (pipeline-overridable,
 *   @id(0), default 1): SPIR-V's specialization constant 0, so no binding and no
 *   "0 stands for 1" as in GLSL ES.
 * - Uniformity: WGSL rejects implicit-derivative samples and dpdx/dpdy in
 *   non-uniform control flow. None is left there: the validator refuses ddx/ddy
 *   in a block (3742) and a tex there unless its coordinates are a varying (3741),
 *   lenient or not, and lower_hoist_tex moves those samples out of the blocks.
 * - Constant expressions are evaluated when WGSL compiles, where 1.0 / 0.0 is an
 *   error: a register never written reads agal_zero in an operation (put_const).
 *
 * - WGSL lets an implementation assume no NaN or infinity reaches an operation; the
 *   text asks for Stage3D's NaN rules (!(a == b)) as the GLSL does, but only the
 *   implementation decides whether it gets them.
 *
 * Meaning, as the interpreter and the other emitters: positional masks, dp3/dp4 in
 * every written component, matrix rows B[k] = register B + k, relative reads
 * bounds-checked (agal_vc() reads 0 out of range), ine/sne true for NaN (!(a ==
 * b)), kil discards below 0, tex bias = token bias / 8, ted's LOD = A.w. op and ddy
 * follow the conventions lower_conventions.c wrote into the IR: WebGPU's clip
 * space is Stage3D's (y up, depth 0..w) and its framebuffer's y points down as
 * Stage3D's rows do, so by default nothing is mapped; op.y and ddy are multiplied
 * by agal_yflip. */
#include "textwalk/textwalk.h"

#include <math.h>

/* WGSL's state around the walk's. */
typedef struct wgsl {
    agal_text t;   /* first: the shared walk's state (textwalk.h) */
    bool zero_var; /* agal_zero is read (put_const) */
} wgsl;

static wgsl *WGSL(agal_text *t) { return (wgsl *)t; }

/* ---- expressions ------------------------------------------------------------ */

/* A literal. The IR's constants are the zeros of unwritten registers; WGSL has no
 * NaN or infinite literal, and a constant expression making one is an error. */
static void put_float(agal_text *t, float f)
{
    if (!isfinite(f)) {
        agal_text_unsupported(t, "a NaN or infinite constant: WGSL has no such literal");
    } else {
        agal_text_put_finite(t, f);
    }
}

/* A constant: the literal, or inside an operation's operands (a lenient program's
 * read of a register it never wrote) agal_zero, a private variable nobody writes.
 * WGSL evaluates an expression of literals when it compiles, and some are errors
 * there that are values at run time: rcp's 1.0 / 0.0, log2(0.0). */
static void put_const(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    if (t->computing && in->imm[0] == 0 && in->imm[1] == 0 && in->imm[2] == 0 && in->imm[3] == 0) {
        WGSL(t)->zero_var = true;
        text_put(t, "agal_zero");
        agal_text_put_swz(t, s, 4);
        return;
    }
    agal_text_literal(t, in, s);
}

/* sge/slt/seq/sne: 1.0 where the comparison holds, select(0, 1, a cmp b). NaN:
 * only sne holds. */
static void set_cmp(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    if (sel_n(s) > 1) text_put3(t, "select(", text_vec_type(t, sel_n(s)), "(0.0), ");
    else text_put(t, "select(0.0, ");
    if (sel_n(s) > 1) text_put3(t, text_vec_type(t, sel_n(s)), "(1.0), ", NULL);
    else text_put(t, "1.0, ");
    agal_text_compare(t, in, s);
    text_put(t, ")");
}

/* WGSL's name of a function of the opcode table (GLSL's names). pow goes through
 * agal_pow<n>, which keeps pow(0, y) at 0 (declarations); WGSL has no overloads of
 * a user function, so there is one per width. */
static const char *function(const agal_text *t, const char *glsl_name, unsigned width)
{
    static const char *pows[] = {"agal_pow1", "agal_pow1", "agal_pow2", "agal_pow3", "agal_pow4"};
    (void)t;
    if (!strcmp(glsl_name, "inversesqrt")) return "inverseSqrt";
    if (!strcmp(glsl_name, "dFdx")) return "dpdx";
    if (!strcmp(glsl_name, "dFdy")) return "dpdy";
    if (!strcmp(glsl_name, "pow")) return pows[width <= 4 ? width : 4];
    return glsl_name;
}

/* textureSample(fs0, fs0_sampler, A.xy), textureSampleBias(..., bias) for a token
 * with a bias, textureSampleLevel(..., A.w) for ted; a cube reads A.xyz. The
 * token's filter, wrap and mip state is the sampler's, which the runtime makes
 * from the binding's token: WGSL's sampler state is no part of the shader. */
static void tex(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    bool lod = in->aop == AGAL_OP_TED;
    unsigned n = in->smp.num;
    text_put3(t, lod ? "textureSampleLevel(" : in->smp.bias ? "textureSampleBias(" : "textureSample(", NULL, NULL);
    text_put_num(t, "fs", n);
    text_put_num(t, ", fs", n);
    text_put(t, "_sampler, ");
    agal_text_sample_operands(t, in, s);
}

/* select(old, new, vec4<bool>(true, false, true, false)): the new value printed
 * once where its components interleave with the old ones. */
static void interleaved(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    text_put(t, "select(");
    agal_text_ref(t, in->args[0], s, false);
    text_put(t, ", ");
    agal_text_ref(t, in->args[1], s, false);
    text_put_num(t, ", vec", sel_n(s));
    text_put(t, "<bool>(");
    for (unsigned i = 0; i < sel_n(s); i++)
        text_put3(t, i ? ", " : "", (in->mask >> sel_c(s, i)) & 1u ? "true" : "false", NULL);
    text_put(t, "))");
}

static void input(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    if (in->reg_type == AGAL_REG_IID) {
        /* iid reads (id, id, id, id): main's parameter, @builtin(instance_index) */
        agal_text_splat(t, s, "f32(iid)");
        return;
    }
    if (in->reg_type == IR_REG_PACKED) {
        agal_text_packed(t, in->reg_num, s);
        return;
    }
    static const agal_reg_text attribute = {"va", 2}, varying = {"v", 1};
    const agal_reg_text *name = in->reg_type == AGAL_REG_ATTRIBUTE ? &attribute : &varying;
    agal_text_put_reg_sel(t, name, name->s, (unsigned)in->reg_num, s);
}

/* @builtin(position): the value the IR stores to op (op with the target's
 * conventions, its y times the render-to-texture flip: lower_conventions.c), or
 * op's variable, still 0, where the program never writes op. */
static void position(agal_text *t)
{
    if (t->position) agal_text_components(t, t->position);
    else text_put(t, "op");
}

/* ---- declarations ----------------------------------------------------------- */

/* " @interpolate(perspective, centroid)" where v<n> feeds a centroid sampler. */
static const char *centroid(const agal_text *t, unsigned n)
{
    return n < 16 && (t->centroid >> n & 1) ? " @interpolate(perspective, centroid)" : "";
}

static const char *packed_centroid(const agal_text *t, unsigned n)
{
    return t->ir->packing.centroid >> n & 1 ? " @interpolate(perspective, centroid)" : "";
}

/* "agal_pack<n>: vec2f", as wide as packed varying n carries. */
static void packed_decl(agal_text *t, unsigned n)
{
    text_put_num(t, AGAL_GLSL_PACK_PREFIX, n);
    text_put3(t, ": ", text_vec_type(t, t->ir->packing.width[n]), NULL);
}

/* "@group(0) @binding(n) var " */
static void put_binding(agal_text *t, unsigned binding)
{
    text_put_num(t, "@group(0) @binding(", binding);
    text_put(t, ") var");
}

/* vc / fc: the profile's registers (the packed ones under limits) as one uniform array (vec4's 16-byte stride is
 * what the uniform address space asks of an array); fs<n>: a texture and its
 * sampler, WGSL having no combined one. */
static void resources(agal_text *t, const agal_text_usage *u)
{
    bool vs = t->prog->stage == AGAL_VERTEX;
    if (u->constants) {
        put_binding(t, vs ? AGAL_VC_BINDING : AGAL_FC_BINDING);
        text_put3(t, "<uniform> ", agal_reg_name(t->prog->stage, AGAL_REG_CONSTANT), ": array<vec4f, ");
        text_uint(t, agal_ir_constant_count(t->ir, false));
        text_put(t, ">;\n");
    }
    if (u->yflip) text_put(t, "@id(0) override " AGAL_GLSL_YFLIP ": f32 = 1.0;\n");
    for (unsigned n = 0; n < 16 && u->samplers >> n; n++) { /* each loop ends past its mask's highest bit */
        if (!(u->samplers & (1u << n))) continue;
        put_binding(t, AGAL_SAMPLER_BINDING + n);
        text_put_num(t, " fs", n);
        text_put(t, u->sampler[n].dim == AGAL_DIM_CUBE ? ": texture_cube<f32>;\n" : ": texture_2d<f32>;\n");
        put_binding(t, AGAL_SEPARATE_SAMPLER_BINDING + n);
        text_put_num(t, " fs", n);
        text_put(t, "_sampler: sampler;\n");
    }
}

/* What main returns: op and the varyings, or the colours and fd. */
static bool has_result(const agal_text *t, const agal_text_usage *u)
{
    return t->prog->stage == AGAL_VERTEX || u->outputs || u->fd;
}

static void result_struct(agal_text *t, const agal_text_usage *u)
{
    bool vs = t->prog->stage == AGAL_VERTEX;
    if (!has_result(t, u)) return;
    text_put(t, "\nstruct agal_out {\n");
    if (vs) text_put(t, "    @builtin(position) position: vec4f,\n");
    uint32_t written = vs ? u->varyings : u->outputs;
    for (unsigned n = 0; n < 16 && written >> n; n++) {
        if (!(written >> n & 1)) continue;
        text_put_num(t, "    @location(", n);
        text_put3(t, ")", vs ? centroid(t, n) : "", vs ? " v" : " oc");
        text_uint(t, n);
        text_put(t, ": vec4f,\n");
    }
    for (unsigned n = 0; n < 16 && vs && u->packed >> n; n++)
        if (u->packed >> n & 1) {
            text_put_num(t, "    @location(", n);
            text_put3(t, ")", packed_centroid(t, n), " ");
            packed_decl(t, n);
            text_put(t, ",\n");
        }
    if (u->fd) text_put(t, "    @builtin(frag_depth) fd: f32,\n");
    text_put(t, "}\n");
}

/* The functions the body calls: agal_pow1..4, agal_vc / agal_fc. */
static void functions(agal_text *t, const agal_text_usage *u)
{
    const char *cname = agal_reg_name(t->prog->stage, AGAL_REG_CONSTANT);
    if (u->pow) {
        /* WGSL defines pow's precision as exp2(y * log2(x))'s, as GLSL ES does, and
         * log2(0) has no bound (SwiftShader gives pow(0, y) = 2^(-127 y)). AGAL's
         * pow(0, y) is 0 for y > 0; sign(x) is 1 for every x > 0, so pow is
         * unchanged there (x < 0 is undefined in AGAL and WGSL alike). */
        text_put(t, "\n");
        if (t->comments) text_put(t, "// pow(x, y), 0 at x = 0: WGSL bounds no error of log2(0)\n");
        for (unsigned n = 1; n <= 4; n++) {
            const char *type = text_vec_type(t, n);
            text_put_num(t, "fn agal_pow", n);
            text_put3(t, "(x: ", type, ", y: ");
            text_put3(t, type, ") -> ", type);
            text_put(t, " { return pow(x, y) * sign(x); }\n");
        }
    }
    if (u->indirect) {
        text_put(t, "\n");
        if (t->comments)
            text_put3(t, "// ", cname, "[a], or 0 outside the register file (AGAL's bounded relative read)\n");
        /* A select, not an if: with the if the first draw of skinning2's six reads in
         * WebGPU on SwiftShader took 1.16 times as long (docs/benchmark.md,
         * "Sixteenth round"). */
        text_put3(t, "fn agal_", cname, "(a: i32) -> vec4f {\n    let c = clamp(a, 0, ");
        text_uint(t, agal_reg_count(t->prog->profile, t->prog->stage, AGAL_REG_CONSTANT) - 1);
        text_put3(t, ");\n    return select(vec4f(0.0), ", cname, "[c], c == a);\n}\n");
    }
}

/* agal_zero, where the body read it (the body is written first): after the
 * resources. */
static void zero_var(agal_text *t)
{
    if (!WGSL(t)->zero_var) return;
    if (t->comments) text_put(t, "// 0 where the program reads a register it never wrote (put_const)\n");
    text_put(t, "var<private> agal_zero: vec4f;\n");
}

static void declarations(agal_text *t, const agal_text_usage *u)
{
    bool vs = t->prog->stage == AGAL_VERTEX;
    if (t->comments) {
        text_put_num(t, "// agal2spv: AGAL ", (unsigned)t->prog->version);
        text_put3(t, vs ? " vertex" : " fragment", " program, ", NULL);
        text_uint(t, (unsigned)t->prog->ntokens);
        text_put(t, " tokens\n");
    }
    resources(t, u);
    zero_var(t);
    result_struct(t, u);
    functions(t, u);
}

/* main's parameters: va<n> or v<n> at location n, and iid. */
static void parameters(agal_text *t, const agal_text_usage *u)
{
    bool vs = t->prog->stage == AGAL_VERTEX, first = true;
    for (unsigned n = 0; n < 16 && u->inputs >> n; n++) {
        if (!(u->inputs >> n & 1)) continue;
        text_put_num(t, first ? "@location(" : ", @location(", n);
        text_put3(t, ")", vs ? "" : centroid(t, n), vs ? " va" : " v");
        text_uint(t, n);
        text_put(t, ": vec4f");
        first = false;
    }
    for (unsigned n = 0; n < 16 && !vs && u->packed >> n; n++) {
        if (!(u->packed >> n & 1)) continue;
        text_put_num(t, first ? "@location(" : ", @location(", n);
        text_put3(t, ")", packed_centroid(t, n), " ");
        packed_decl(t, n);
        first = false;
    }
    if (u->iid) text_put(t, first ? "@builtin(instance_index) iid: u32" : ", @builtin(instance_index) iid: u32");
}

/* Register variables: every written register is a local, which WGSL starts at 0
 * as AGAL starts its registers; vertex programs always have op (the position). */
static void locals(agal_text *t, const agal_text_usage *u)
{
    bool vs = t->prog->stage == AGAL_VERTEX;
    t->indent = 1;
    /* written registers, and the ones an output's final value is stored from: op and
     * v<n>, or oc<n> and fd */
    uint64_t stored = vs ? (uint64_t)1 << IR_SLOT_OUT | (uint64_t)(u->varyings & 0x3ffu) << IR_SLOT_VARY
                         : (uint64_t)(u->outputs & 15u) << IR_SLOT_OUT | (uint64_t)u->fd << IR_SLOT_DEPTH;
    uint64_t slots = u->temps | stored;
    for (; slots; slots &= slots - 1) { /* the set bits only, lowest first */
        text_put(t, "    var ");
        agal_text_reg_name(t, agal_lowest_bit(slots));
        text_put(t, ": vec4f;\n");
    }
    for (unsigned n = 0; n < 16 && vs; n++)
        if (u->packed >> n & 1) {
            text_put(t, "    var ");
            packed_decl(t, n);
            text_put(t, ";\n");
        }
}

/* The return of what main writes, in agal_out's order. */
static void result(agal_text *t, const agal_text_usage *u)
{
    bool vs = t->prog->stage == AGAL_VERTEX;
    if (!has_result(t, u)) return;
    text_put(t, "    return agal_out(");
    bool first = true;
    if (vs) {
        position(t);
        first = false;
    }
    uint32_t written = vs ? u->varyings : u->outputs;
    for (unsigned n = 0; n < 16 && written >> n; n++) {
        if (!(written >> n & 1)) continue;
        text_put_num(t, first ? (vs ? "v" : "oc") : (vs ? ", v" : ", oc"), n);
        first = false;
    }
    for (unsigned n = 0; n < 16 && vs && u->packed >> n; n++)
        if (u->packed >> n & 1) text_put_num(t, ", " AGAL_GLSL_PACK_PREFIX, n);
    if (u->fd) text_put(t, first ? "fd.x" : ", fd.x");
    text_put(t, ");\n");
}

/* ---- entry point ------------------------------------------------------------ */

static const agal_text_lang wgsl_lang = {
    .name = "WGSL",
    .vec_types = {"f32", "f32", "vec2f", "vec3f", "vec4f"},
    .temp_types = {"let t", "let t", "let t", "let t"},
    .int_cast = "i32(",
    .sat = {"saturate(", ")"}, /* clamp's bounds would have to be vectors too */
    .kil_end = " < 0.0) { discard; }\n",
    .assigns_swizzles = false, /* WGSL assigns no swizzle of several components */
    .function = function,
    .number = put_float,
    .constant = put_const,
    .input = input,
    .set_cmp = set_cmp,
    .tex = tex,
    .interleaved = interleaved,
    .stored = NULL, /* main returns the variables (result) */
};

agal_status agal_wgsl_emit(agal_context *ctx, const agal_ir *ir, const agal_emit_options *eopt, const char **text,
                           size_t *len)
{
    static const agal_emit_options defaults;
    if (!ctx || !ir || !text) return AGAL_ERR_ARG;
    if (!eopt) eopt = &defaults;
    const agal_program *prog = ir->prog;
    agal_names ours; /* WGSL's names are AGAL's: agal_names apply to the GLSL family */
    agal_names_resolve(ctx, NULL, &ours);
    wgsl g = {.t = {.lang = &wgsl_lang,
                    .ctx = ctx,
                    .ir = ir,
                    .prog = prog,
                    .names = &ours,
                    .comments = !eopt->pub.strip_names,
                    .centroid = eopt->centroid_varyings,
                    .flip = AGAL_GLSL_YFLIP, /* an override constant */
                    .out = {.ctx = ctx}}};
    agal_text *t = &g.t;
    agal_text_usage u;
    agal_status st = agal_text_plan(t, &u);
    if (st != AGAL_OK) return st;
    /* main's statements and its return first: the walk finds the registers
     * written, pow's use and agal_zero's, which what goes in front of them declares */
    agal_text_body(t, &u);
    result(t, &u);
    size_t body_end = t->out.n;
    declarations(t, &u);
    text_put(t, prog->stage == AGAL_VERTEX ? "\n@vertex\nfn main(" : "\n@fragment\nfn main(");
    parameters(t, &u);
    text_put(t, has_result(t, &u) ? ") -> agal_out {\n" : ") {\n");
    locals(t, &u);
    agal_text_put_front(t, body_end);
    text_put(t, "}\n");
    if (t->err != AGAL_OK) return t->err;
    if (!(*text = agal_text_finish(t, len))) return AGAL_ERR_NOMEM;
    return AGAL_OK;
}
