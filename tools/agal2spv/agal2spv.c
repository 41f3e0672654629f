/* agal2spv: AGAL bytecode (or AGALMiniAssembler text) -> SPIR-V, SPIR-V assembly,
 * IR or GLSL 330; --check validates only.
 *
 *   agal2spv in.bin -o out.spv                 SPIR-V binary
 *   agal2spv in.bin -t spvasm                   disassembled by libSPIRV-Tools
 *   agal2spv --check vs.bin [fs.bin]            validate (two files: also link)
 *   agal2spv --check --flash vs.bin fs.bin      ... printing Flash Player's error lines
 *   agal2spv in.agal --stage fragment --agal-version 2 -t ir
 *   agal2spv -t essl1 --limits webgl1 vs.bin fs.bin -o out   the pair: out.vert, out.frag
 *
 * Exit status: 0 success / valid, 1 invalid program (diagnostics on stderr, each
 * with `error <flash id>`), 2 usage, I/O or internal failure. */
#include "ir.h"
#include "limits_arg.h"
#include "toolio.h"

#include <spirv-tools/libspirv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tools/common/spvopt.cpp: SPIRV-Tools' optimizer has only a C++ API. */
int agal_tool_optimize(const uint32_t *in, size_t n, uint32_t **out, size_t *nout);

enum { EXIT_INVALID = 1, EXIT_USAGE = 2 };

typedef enum target { T_SPV, T_SPVASM, T_IR, T_GLSL, T_ESSL3, T_ESSL1, T_WGSL } target;

typedef struct opts {
    const char *in[2]; /* one program, or a pair: vertex, fragment */
    int nin;
    const char *out, *reflect;
    const char *after;      /* -t ir --after: the pipeline stage to stop after (NULL: all) */
    const char *limits;     /* --limits: a preset's name or a JSON file (NULL: none) */
    const char *source_map; /* --source-map: where its JSON goes (implies -g) */
    const char *map_log;    /* --map-log: a driver's log of the translation, mapped to the tokens */
    target tgt;
    bool check, flash, lenient, optimize, strip, debug, have_clip;
    bool nonsemantic; /* -gnonsemantic: -g and NonSemantic.Shader.DebugInfo.100 */
    agal_profile profile;
    agal_clip clip;
    int stage;                         /* text input: -1 = from the file's header comment */
    uint32_t version;                  /* text input: 0 = from the file's header comment */
    unsigned samples;                  /* --samples: a pair's targets' samples (0: any) */
    agal_limits device;                /* --limits, read (tool_load_limits) */
    const agal_source_pos *source_pos; /* a text input: its tokens' places, for -g's map */
    size_t nsource_pos;
} opts;

static int usage(const char *msg)
{
    if (msg) fprintf(stderr, "agal2spv: %s\n", msg);
    fprintf(stderr, "usage: agal2spv [options] in.bin|in.agal [fragment.bin]\n"
                    "  (two programs: linked with --check, else translated as a pair with -o OUT,\n"
                    "  as Program3D.upload does, to OUT.vert and OUT.frag)\n"
                    "  -o FILE            output (default stdout)\n"
                    "  -t spv|spvasm|ir|glsl|essl3|essl1|wgsl   output kind (default spv; essl3: GLSL ES\n"
                    "                     3.00 for WebGL 2, essl1: GLSL ES 1.00 for WebGL 1, wgsl: WebGPU)\n"
                    "  --after PASS       -t ir: the IR after that pass of the pipeline (build: before any)\n"
                    "  --check            validate only; with two files also link them\n"
                    "  --flash            print errors as Flash Player's messages (\"Error #3646: ...\")\n"
                    "  --lenient          relaxed validation (emulator mode)\n"
                    "  --profile P        a Context3DProfile name (baselineConstrained, standard, enhanced...)\n"
                    "                     or baseline|standard|standard_extended (default: by version)\n"
                    "  --clip vulkan|gl|none|control\n"
                    "                     op clip-space fix (default: by target); control: none and no\n"
                    "                     vertex flip, for a context with clip control (ZERO_TO_ONE)\n"
                    "  -g                 debug info: the AGAL source and lines (SPIR-V OpSource and\n"
                    "                     OpLine, GLSL #line per token; docs/debug-info.md)\n"
                    "  -gnonsemantic      -g, and in SPIR-V also NonSemantic.Shader.DebugInfo.100 for a\n"
                    "                     shader debugger (needs VK_KHR_shader_non_semantic_info)\n"
                    "  -g0                no debug names, comments or lines\n"
                    "  --source-map FILE  write the output's source map as JSON (implies -g)\n"
                    "  --map-log LOG      write a driver's log of this translation (-g) with each error's\n"
                    "                     AGAL token added, instead of the translation\n"
                    "  --reflect FILE     write reflection JSON (-t glsl/essl3/essl1: with what a GL or\n"
                    "                     WebGL runtime binds; -t wgsl: a WebGPU bind group layout)\n"
                    "  -O                 run SPIRV-Tools' optimizer on the SPIR-V\n"
                    "  --limits NAME|FILE.json   the device's limits (webgl1, webgl2, gl33, vulkan, webgpu,\n"
                    "                     webgpu-compat, wgpu-gl31, or a JSON file): a program that\n"
                    "                     cannot fit them is refused (exit 1, error 3613 naming the limit)\n"
                    "  --samples N        a pair drawn to targets of N samples (1, 2, 4, 8, 16; default\n"
                    "                     any): at 1, single-sampled, no varying is declared centroid\n"
                    "  --stage vertex|fragment, --agal-version 1|2|3   for .agal text input\n");
    return EXIT_USAGE;
}

static bool pick(const char *s, const char *const *names, int n, int *out)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0) return *out = i, true;
    return false;
}

static int parse_value(opts *o, const char *flag, const char *v)
{
    int i;
    if (!strcmp(flag, "-o")) o->out = v;
    else if (!strcmp(flag, "--reflect")) o->reflect = v;
    else if (!strcmp(flag, "--after")) o->after = v;
    else if (!strcmp(flag, "--limits")) o->limits = v;
    else if (!strcmp(flag, "--source-map")) o->source_map = v;
    else if (!strcmp(flag, "--map-log")) o->map_log = v;
    else if (!strcmp(flag, "-t")) {
        static const char *const names[] = {"spv", "spvasm", "ir", "glsl", "essl3", "essl1", "wgsl"};
        if (!pick(v, names, 7, &i)) return usage("unknown -t target");
        o->tgt = (target)i;
    } else if (!strcmp(flag, "--profile")) {
        if (!tool_parse_profile("agal2spv", v, &o->profile)) return usage(NULL);
    } else if (!strcmp(flag, "--clip")) {
        static const char *const names[] = {"vulkan", "gl", "none", "control"};
        if (!pick(v, names, 4, &i)) return usage("unknown --clip mode");
        o->clip = (agal_clip)(i + 1);
    } else if (!strcmp(flag, "--stage")) {
        static const char *const names[] = {"vertex", "fragment"};
        if (!pick(v, names, 2, &o->stage)) return usage("unknown stage");
    } else if (!strcmp(flag, "--agal-version")) {
        unsigned n;
        if (!tool_parse_unsigned("agal2spv", flag, v, 1, 3, &n)) return usage(NULL);
        o->version = n;
    } else if (!strcmp(flag, "--samples")) {
        if (!tool_parse_unsigned("agal2spv", flag, v, 1, 16, &o->samples)) return usage(NULL);
        if (o->samples & (o->samples - 1)) return usage("--samples is 1, 2, 4, 8 or 16");
    } else return -1;
    return 0;
}

static int parse(opts *o, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--check")) o->check = true;
        else if (!strcmp(a, "--flash")) o->flash = true;
        else if (!strcmp(a, "--lenient")) o->lenient = true;
        else if (!strcmp(a, "-O")) o->optimize = true;
        else if (!strcmp(a, "-g0")) o->strip = true;
        else if (!strcmp(a, "-g")) o->debug = true;
        else if (!strcmp(a, "-gnonsemantic")) o->debug = o->nonsemantic = true;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) return usage(NULL);
        else if (a[0] == '-' && a[1]) {
            if (i + 1 >= argc) return usage("option needs a value");
            int r = parse_value(o, a, argv[i + 1]);
            if (r < 0) {
                fprintf(stderr, "agal2spv: unknown option %s\n", a);
                return usage(NULL);
            }
            if (r) return r;
            i++;
        } else {
            if (o->nin == 2) return usage("too many input files");
            o->in[o->nin++] = a;
        }
    }
    if (o->nin == 0) return usage("no input file");
    if (o->nin == 2 && !o->check && (!o->out || o->tgt == T_IR || o->reflect || o->after))
        return usage("a pair translates with -o OUT (writing OUT.vert and OUT.frag), not -t ir or --reflect");
    if (o->after && o->tgt != T_IR) return usage("--after goes with -t ir");
    if (o->samples && (o->nin != 2 || o->check)) return usage("--samples goes with a pair's translation");
    if ((o->source_map || o->map_log) && (o->nin == 2 || o->check || o->tgt == T_IR || o->optimize || o->strip))
        return usage("--source-map and --map-log go with one program's translation, without -O or -g0");
    if (o->after) {
        bool known = false;
        for (unsigned i = 0; agal_ir_stage_name(i); i++) known |= !strcmp(o->after, agal_ir_stage_name(i));
        if (!known) {
            fprintf(stderr, "agal2spv: --after %s: not a stage of the pipeline; its stages:", o->after);
            for (unsigned i = 0; agal_ir_stage_name(i); i++) fprintf(stderr, " %s", agal_ir_stage_name(i));
            fputc('\n', stderr);
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* ---- files ---------------------------------------------------------------- */

/* Through a temporary file renamed over the target (toolio.h): a failed write
 * leaves what was there. */
static int write_out(const char *path, const void *data, size_t size)
{
    return tool_write_file("agal2spv", path, data, size) ? 0 : EXIT_USAGE;
}

/* Maps a library status to the exit code, printing what it says (as Flash Player's
 * error lines with --flash). */
static int fail_status(agal_context *ctx, const opts *o, agal_status st, const char *file)
{
    if (o->flash) tool_print_flash(ctx);
    else tool_print_diags(ctx, file);
    /* a valid program the target cannot express (iid in GLSL ES 1.00): the diagnostic names it */
    if (st == AGAL_ERR_INVALID || st == AGAL_ERR_UNSUPPORTED) return EXIT_INVALID;
    fprintf(stderr, "%s: %s\n", file,
            st == AGAL_ERR_NOMEM   ? "out of memory"
            : st == AGAL_ERR_LIMIT ? "internal limit exceeded"
                                   : "internal error");
    return EXIT_USAGE;
}

/* ---- outputs -------------------------------------------------------------- */

/* The input of a pair a diagnostic names: the program it is about (0 vertex, 1 fragment). */
static int diag_input(const agal_context *ctx)
{
    return agal_diag_count(ctx) && agal_diag_get(ctx, 0)->stage == AGAL_FRAGMENT;
}

/* The line an OpLine of the disassembly names (its operands: file, line, column), or 0
 * when line (up to its newline) is no OpLine. */
static unsigned opline_number(const char *line)
{
    line += strspn(line, " ");
    if (strncmp(line, "OpLine ", 7)) return 0;
    line += 7;
    line += strcspn(line, " \n"); /* the file's id */
    return (unsigned)strtoul(line, NULL, 10);
}

/* -g -t spvasm: above each OpLine, a comment with the line of the source (OpSource's
 * text, agaldis') it names, so the text shows each AGAL line before its code, as
 * spirv-dis cannot (it prints the OpLine's numbers); NULL when out of memory. */
static char *annotate_lines(const char *text, size_t len, const char *source, size_t *out_len)
{
    size_t nlines = 1;
    for (const char *c = source; *c; c++) nlines += *c == '\n';
    const char **line = malloc(nlines * sizeof *line); /* line[i]: the start of line i + 1 */
    char *res = NULL;
    FILE *f = line ? open_memstream(&res, out_len) : NULL;
    if (!f) {
        free(line);
        return NULL;
    }
    line[0] = source;
    for (size_t i = 1; i < nlines; i++) line[i] = strchr(line[i - 1], '\n') + 1;
    for (const char *at = text, *end = text + len; at < end;) {
        const char *nl = memchr(at, '\n', (size_t)(end - at));
        size_t n = nl ? (size_t)(nl - at) + 1 : (size_t)(end - at);
        unsigned number = opline_number(at);
        if (number && number <= nlines && *line[number - 1])
            fprintf(f, "%.*s; %u: %.*s\n", (int)strspn(at, " "), at, number, (int)strcspn(line[number - 1], "\n"),
                    line[number - 1]);
        fwrite(at, 1, n, f);
        at += n;
    }
    free(line);
    if (fclose(f)) {
        free(res);
        return NULL;
    }
    return res;
}

/* The module as SPIR-V assembly to out; source: the -g source its OpLines name
 * (NULL: none), each shown above its code. */
static int emit_spvasm(const uint32_t *words, size_t n, const char *source, const char *out)
{
    spv_context sc = spvContextCreate(SPV_ENV_VULKAN_1_0);
    spv_text text = NULL;
    spv_diagnostic diag = NULL;
    spv_result_t r = spvBinaryToText(
        sc, words, n, SPV_BINARY_TO_TEXT_OPTION_INDENT | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES, &text, &diag);
    int rc = EXIT_USAGE;
    size_t alen = 0;
    char *annotated = r == SPV_SUCCESS && source ? annotate_lines(text->str, text->length, source, &alen) : NULL;
    if (r == SPV_SUCCESS && source && !annotated) fprintf(stderr, "agal2spv: out of memory\n");
    else if (r == SPV_SUCCESS)
        rc = annotated ? write_out(out, annotated, alen) : write_out(out, text->str, text->length);
    else fprintf(stderr, "agal2spv: disassembly failed: %s\n", diag ? diag->error : "?");
    free(annotated);
    spvTextDestroy(text);
    spvDiagnosticDestroy(diag);
    spvContextDestroy(sc);
    return rc;
}

/* The library's target for an output kind. */
static agal_target library_target(target t)
{
    return t == T_ESSL3   ? AGAL_TARGET_ESSL3
           : t == T_ESSL1 ? AGAL_TARGET_ESSL1
           : t == T_GLSL  ? AGAL_TARGET_GLSL
           : t == T_IR    ? AGAL_TARGET_IR
           : t == T_WGSL  ? AGAL_TARGET_WGSL
                          : AGAL_TARGET_SPIRV;
}

/* agal_translate for the output kind o->tgt. */
static agal_status translate(agal_context *ctx, const opts *o, const agal_program *prog, agal_shader *out)
{
    agal_translate_options topt = agal_translate_options_init();
    topt.target = library_target(o->tgt);
    topt.clip = o->clip;
    topt.strip_names = o->strip;
    topt.debug_info = o->debug || o->source_map || o->map_log;
    topt.debug_info_nonsemantic = o->nonsemantic;
    topt.source_name = o->in[0];
    topt.limits = o->limits ? &o->device : NULL;
    topt.source_pos = o->source_pos;
    topt.nsource_pos = o->nsource_pos;
    *out = agal_shader_init();
    return agal_translate(ctx, prog, &topt, out);
}

/* --source-map FILE: the translation's map as JSON. */
static int emit_source_map(agal_context *ctx, const opts *o, const agal_shader *sh)
{
    if (!o->source_map) return 0;
    char *json = agal_source_map_json(ctx, sh);
    if (!json) {
        fprintf(stderr, "agal2spv: out of memory\n");
        return EXIT_USAGE;
    }
    return write_out(o->source_map, json, strlen(json));
}

/* --map-log LOG: the driver's log with the tokens named, as the output. */
static int emit_mapped_log(agal_context *ctx, const opts *o, const agal_shader *sh)
{
    size_t len;
    char *log = tool_read_input(o->map_log, TOOL_MAX_TEXT, "a driver's log", &len);
    if (!log) return EXIT_USAGE;
    char *mapped = agal_map_driver_log(ctx, sh, log);
    free(log);
    if (!mapped) {
        fprintf(stderr, "agal2spv: out of memory\n");
        return EXIT_USAGE;
    }
    return write_out(o->out, mapped, strlen(mapped));
}

static int emit_spv(agal_context *ctx, const opts *o, const agal_program *prog)
{
    agal_shader sh;
    agal_status st = translate(ctx, o, prog, &sh);
    if (st != AGAL_OK) return fail_status(ctx, o, st, o->in[0]);
    int map_rc = emit_source_map(ctx, o, &sh);
    if (map_rc || o->map_log) return map_rc ? map_rc : emit_mapped_log(ctx, o, &sh);
    const uint32_t *words = sh.words;
    size_t n = sh.nwords;
    uint32_t *optimized = NULL;
    if (o->optimize) {
        size_t on = 0;
        if (agal_tool_optimize(words, n, &optimized, &on) != 0) {
            fprintf(stderr, "agal2spv: SPIRV-Tools optimizer failed\n");
            return EXIT_USAGE;
        }
        words = optimized;
        n = on;
    }
    int rc = o->tgt == T_SPVASM ? emit_spvasm(words, n, sh.source, o->out) : write_out(o->out, words, n * 4);
    free(optimized);
    return rc;
}

static int emit_ir(agal_context *ctx, const opts *o, const agal_program *prog)
{
    const char *text = NULL;
    agal_status st;
    if (o->after) { /* the library's internal pipeline (ir.h), linked statically */
        agal_ir *ir = NULL;
        st = agal_ir_pipeline_until(ctx, prog, NULL, o->after, &ir);
        if (st == AGAL_OK && !(text = agal_ir_print(ir))) st = AGAL_ERR_NOMEM;
    } else {
        agal_shader sh;
        st = translate(ctx, o, prog, &sh);
        text = sh.text;
    }
    if (st != AGAL_OK) return fail_status(ctx, o, st, o->in[0]);
    return write_out(o->out, text, strlen(text));
}

/* GLSL, GLSL ES or WGSL: the text. */
static int emit_glsl(agal_context *ctx, const opts *o, const agal_program *prog)
{
    agal_shader sh;
    agal_status st = translate(ctx, o, prog, &sh);
    if (st != AGAL_OK) return fail_status(ctx, o, st, o->in[0]);
    int rc = emit_source_map(ctx, o, &sh);
    if (!rc && o->map_log) return emit_mapped_log(ctx, o, &sh);
    return rc ? rc : write_out(o->out, sh.text, sh.len);
}

/* The reflection; for a GLSL-family or WGSL output also what a GL / WebGL or WebGPU
 * runtime binds. */
static int emit_reflect(agal_context *ctx, const opts *o, const agal_program *prog)
{
    agal_reflection r;
    agal_shader sh;
    agal_status st = agal_reflect(ctx, prog, &r);
    if (st == AGAL_OK && (o->tgt == T_GLSL || o->tgt == T_ESSL3 || o->tgt == T_ESSL1 || o->tgt == T_WGSL)) {
        st = translate(ctx, o, prog, &sh);
        r.gl = &sh.binding;
    }
    if (st != AGAL_OK) return fail_status(ctx, o, st, o->in[0]);
    char *json = agal_reflect_json(ctx, &r);
    if (!json) return fail_status(ctx, o, AGAL_ERR_NOMEM, o->in[0]);
    return write_out(o->reflect, json, strlen(json));
}

/* One stage of a pair to PATH: the module (optimized with -O, or disassembled) or the text. */
static int write_stage(const opts *o, const agal_shader *sh, const char *path)
{
    if (o->tgt != T_SPV && o->tgt != T_SPVASM) return write_out(path, sh->text, sh->len);
    const uint32_t *words = sh->words;
    size_t n = sh->nwords;
    uint32_t *optimized = NULL;
    if (o->optimize && agal_tool_optimize(words, n, &optimized, &n) != 0) {
        fprintf(stderr, "agal2spv: SPIRV-Tools optimizer failed\n");
        return EXIT_USAGE;
    }
    if (optimized) words = optimized;
    int rc = o->tgt == T_SPVASM ? emit_spvasm(words, n, sh->source, path) : write_out(path, words, n * 4);
    free(optimized);
    return rc;
}

/* Two programs: the pair as Program3D.upload translates it (agal_upload: the vertex
 * program writes only the varyings the fragment program reads, and the pair is held
 * to --limits), to OUT.vert and OUT.frag; nothing written when it is refused. */
static int emit_pair(agal_context *ctx, const opts *o, const agal_program *const prog[2])
{
    size_t size[2];
    const uint8_t *bytes[2];
    for (int i = 0; i < 2; i++)
        if (!(bytes[i] = tool_encode_tokens(ctx, prog[i]->tokens, prog[i]->ntokens, prog[i]->stage, prog[i]->version,
                                            &size[i])))
            return fail_status(ctx, o, AGAL_ERR_NOMEM, o->in[i]);
    agal_upload_options uo = agal_upload_options_init();
    uo.target = library_target(o->tgt);
    uo.profile = o->profile;
    uo.lenient = o->lenient;
    uo.clip = o->clip;
    uo.strip_names = o->strip;
    uo.debug_info = o->debug;
    uo.debug_info_nonsemantic = o->nonsemantic;
    uo.limits = o->limits ? &o->device : NULL;
    uo.samples = o->samples;
    agal_upload_result r = agal_upload_result_init();
    agal_status st = agal_upload(ctx, bytes[0], size[0], bytes[1], size[1], &uo, &r);
    if (st != AGAL_OK) return fail_status(ctx, o, st, o->in[diag_input(ctx)]);
    static const char *const suffix[2] = {".vert", ".frag"};
    for (int i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s%s", o->out, suffix[i]);
        int rc = write_stage(o, &r.shaders[i], path);
        if (rc) return rc;
    }
    return 0;
}

static int run(agal_context *ctx, opts *o)
{
    const agal_program *prog[2] = {NULL, NULL};
    for (int i = 0; i < o->nin; i++) {
        const agal_source_pos *pos = NULL;
        tool_program_opts po = {.lenient = o->lenient,
                                .profile = o->profile,
                                .stage = o->stage,
                                .version = o->version,
                                .flash = o->flash,
                                .slot = o->nin == 2 ? (i ? AGAL_SLOT_FRAGMENT : AGAL_SLOT_VERTEX) : AGAL_SLOT_HEADER,
                                .positions = &pos};
        int rc = tool_load_program(ctx, o->in[i], &po, &prog[i]);
        if (rc) return rc;
        if (o->nin == 1 && pos) {
            o->source_pos = pos;
            o->nsource_pos = prog[0]->ntokens;
        }
    }
    if (o->check) {
        if (o->nin < 2) return 0;
        return tool_link_pair(ctx, "agal2spv", o->in[0], prog[0], o->in[1], prog[1], o->flash);
    }
    if (o->nin == 2) return emit_pair(ctx, o, prog);
    if (o->reflect) {
        int rc = emit_reflect(ctx, o, prog[0]);
        if (rc) return rc;
    }
    switch (o->tgt) {
    case T_IR: return emit_ir(ctx, o, prog[0]);
    case T_GLSL:
    case T_ESSL3:
    case T_ESSL1:
    case T_WGSL: return emit_glsl(ctx, o, prog[0]);
    default: return emit_spv(ctx, o, prog[0]);
    }
}

int main(int argc, char **argv)
{
    opts o = {.tgt = T_SPV, .stage = -1};
    int rc = parse(&o, argc, argv);
    if (rc) return tool_exit("agal2spv", rc);
    agal_context *ctx = agal_context_new(NULL, NULL);
    if (!ctx) {
        fprintf(stderr, "agal2spv: out of memory\n");
        return EXIT_USAGE;
    }
    if (o.limits) rc = tool_load_limits(ctx, "agal2spv", o.limits, &o.device);
    if (!rc) rc = run(ctx, &o);
    agal_context_free(ctx);
    return tool_exit("agal2spv", rc);
}
