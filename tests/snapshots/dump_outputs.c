/* dump_outputs.c: every output the library makes for a set of programs, one file
 * each, so that two runs (another compiler, another optimization level, a later
 * commit) can be compared byte for byte.
 *
 * For each program NAME (a corpus file's name without ".agal", or genSEED.vert /
 * genSEED.frag for a generated pair), under OUT:
 *   ir/NAME.ir           the IR text (agal2spv -t ir)
 *   spv/NAME.spv         SPIR-V (tests/snapshots.py turns it into spvasm/NAME.spvasm)
 *   glsl/NAME.glsl, essl3/NAME.essl3, essl1/NAME.essl1, wgsl/NAME.wgsl
 *   reflect/NAME.json    agal_reflect_json
 *   reflect_gl/NAME.TARGET.json   the same with the translation's binding: "gl" for glsl,
 *                        essl3, essl1; "webgpu" for wgsl
 * and for each pair PAIR (X.vert + X.frag in the corpus, genSEED):
 *   upload/PAIR.TARGET.txt        agal_upload's binding layout for spv, glsl, essl3, essl1, wgsl
 * A failing translation (ES 1.00 of a program reading iid) is written as its error
 * text in the output's place. Generated programs come from gen_pair (tests/gen.c),
 * AGAL1 to 3 by seed, translated with options that vary by seed (clip mode, -g0,
 * separate samplers, transform feedback); with --upload-code, agal_upload's
 * translations of each pair are written too (upload/PAIR.TARGET.vert.EXT ...).
 *
 * --scribble SEED gives every context an allocator hook that fills new memory with
 * a pseudo-random sequence from SEED: an output read from memory never written
 * changes with it.
 *
 * usage: dump_outputs OUT [--corpus SHADER_DIR] [--random N] [--upload-code] [--scribble SEED]
 * Exit status 0, or 1 with a message when a program does not load or a file cannot
 * be written. */
#include "agal/agal.h"
#include "agal/stage3d.h"
#include "agal/text.h"
#include "gen.h"
#include "harness_api.h"
#include "toolio.h"
#include "translated.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The allocator hook of --scribble: fills every new or grown byte with a
 * pseudo-random sequence, so memory the library reads before writing it differs
 * from run to run and from block to block (padding included). */
typedef struct scribble {
    uint64_t state;
} scribble;

static void *scribble_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    unsigned char *p = realloc(ptr, nsize);
    scribble *sc = ud;
    for (size_t i = osize; p && i < nsize; i++) {
        sc->state = sc->state * 6364136223846793005u + 1442695040888963407u;
        p[i] = (unsigned char)(sc->state >> 56);
    }
    return p;
}

typedef struct dumper {
    const char *out;
    bool upload_code;
    scribble *scribble; /* NULL: the C library's allocator */
    agal_context *ctx;  /* each output's work, reset after it is written */
    bool failed;
} dumper;

static const char *const kinds[] = {"ir", "spv", "glsl", "essl3", "essl1", "wgsl", "reflect", "reflect_gl", "upload"};
static const char *const target_names[] = {"spv", "glsl", "essl3", "essl1", "ir", "wgsl"};

static agal_context *new_context(const dumper *d)
{
    return d->scribble ? agal_context_new(scribble_alloc, d->scribble) : agal_context_new(NULL, NULL);
}

/* ---- files ------------------------------------------------------------------ */

static void write_out(dumper *d, const char *kind, const char *name, const void *data, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", d->out, kind, name);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, size, f) == size;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) {
        fprintf(stderr, "dump_outputs: cannot write %s: %s\n", path, strerror(errno));
        d->failed = true;
    }
}

static void write_text(dumper *d, const char *kind, const char *name, const char *text)
{
    write_out(d, kind, name, text, strlen(text));
}

static const char *status_name(agal_status st)
{
    static const char *const names[] = {"AGAL_OK",        "AGAL_ERR_INVALID",  "AGAL_ERR_NOMEM",      "AGAL_ERR_ARG",
                                        "AGAL_ERR_LIMIT", "AGAL_ERR_INTERNAL", "AGAL_ERR_UNSUPPORTED"};
    return (unsigned)st < sizeof names / sizeof *names ? names[st] : "unknown status";
}

/* A failed call's status and diagnostics, as the file's text. */
static void write_error(dumper *d, const char *kind, const char *name, agal_status st)
{
    char text[4096], line[1024];
    int n = snprintf(text, sizeof text, "error: %s\n", status_name(st));
    for (size_t i = 0; i < agal_diag_count(d->ctx) && n >= 0 && (size_t)n < sizeof text; i++) {
        agal_diag_format(agal_diag_get(d->ctx, i), NULL, line, sizeof line);
        n += snprintf(text + n, sizeof text - (size_t)n, "%s\n", line);
    }
    write_text(d, kind, name, text);
}

static const char *file_name(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return buf;
}

/* ---- one program ------------------------------------------------------------ */

static void dump_spirv(dumper *d, const agal_program *prog, const char *name, const agal_translate_options *opt,
                       bool xfb)
{
    char file[512];
    const uint32_t *words = NULL;
    size_t n = 0;
    agal_status st = xfb ? agal_translate_spirv_xfb(d->ctx, prog, opt, &words, &n)
                         : tool_translate_words(d->ctx, prog, opt, &words, &n);
    file_name(file, sizeof file, xfb ? "%s.xfb.spv" : "%s.spv", name);
    if (st == AGAL_OK) write_out(d, "spv", file, words, n * sizeof *words);
    else write_error(d, "spv", file, st);
    agal_context_reset(d->ctx);
}

static void dump_glsl(dumper *d, const agal_program *prog, const char *name, const agal_translate_options *opt,
                      agal_target target)
{
    char file[512];
    const char *text = NULL, *kind = target_names[target];
    agal_status st = target == AGAL_TARGET_GLSL ? tool_translate_text(d->ctx, prog, AGAL_TARGET_GLSL, opt, &text, NULL)
                                                : tool_translate_text(d->ctx, prog, target, opt, &text, NULL);
    file_name(file, sizeof file, "%s.%s", name, kind);
    if (st == AGAL_OK) write_text(d, kind, file, text);
    else write_error(d, kind, file, st);
    agal_context_reset(d->ctx);
}

/* agal_reflect_json, with gl's binding for target when gl is set. */
static void dump_reflect(dumper *d, const agal_program *prog, const char *name, const agal_translate_options *opt,
                         int target)
{
    char file[512];
    const char *kind = target < 0 ? "reflect" : "reflect_gl";
    if (target < 0) file_name(file, sizeof file, "%s.json", name);
    else file_name(file, sizeof file, "%s.%s.json", name, target_names[target]);
    agal_reflection r;
    agal_shader sh = agal_shader_init();
    agal_status st = agal_reflect(d->ctx, prog, &r);
    if (st == AGAL_OK && target >= 0) {
        agal_translate_options o = opt ? *opt : agal_translate_options_init();
        o.target = (agal_target)target;
        st = agal_translate(d->ctx, prog, &o, &sh);
        r.gl = &sh.binding;
    }
    char *json = st == AGAL_OK ? agal_reflect_json(d->ctx, &r) : NULL;
    if (st == AGAL_OK && !json) st = AGAL_ERR_NOMEM;
    if (st == AGAL_OK) write_text(d, kind, file, json);
    else write_error(d, kind, file, st);
    agal_context_reset(d->ctx);
}

static void dump_program(dumper *d, const agal_program *prog, const char *name, const agal_translate_options *opt,
                         bool xfb)
{
    char file[512];
    const char *ir = NULL;
    agal_status st = tool_translate_text(d->ctx, prog, AGAL_TARGET_IR, NULL, &ir, NULL);
    file_name(file, sizeof file, "%s.ir", name);
    if (st == AGAL_OK) write_text(d, "ir", file, ir);
    else write_error(d, "ir", file, st);
    agal_context_reset(d->ctx);
    dump_spirv(d, prog, name, opt, false);
    if (xfb && prog->stage == AGAL_VERTEX) dump_spirv(d, prog, name, opt, true);
    for (int t = AGAL_TARGET_GLSL; t <= AGAL_TARGET_ESSL1; t++) dump_glsl(d, prog, name, opt, (agal_target)t);
    dump_glsl(d, prog, name, opt, AGAL_TARGET_WGSL);
    dump_reflect(d, prog, name, opt, -1);
    for (int t = AGAL_TARGET_GLSL; t <= AGAL_TARGET_ESSL1; t++) dump_reflect(d, prog, name, opt, t);
    dump_reflect(d, prog, name, opt, AGAL_TARGET_WGSL);
}

/* ---- one pair: agal_upload's layout ----------------------------------------- */

/* Appends to a fixed buffer (the layout of a pair is a few hundred bytes). */
typedef struct text {
    char buf[8192];
    size_t n;
} text;

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = t->n < sizeof t->buf ? vsnprintf(t->buf + t->n, sizeof t->buf - t->n, fmt, ap) : 0;
    va_end(ap);
    if (k > 0) t->n = t->n + (size_t)k < sizeof t->buf ? t->n + (size_t)k : sizeof t->buf - 1;
}

/* A sampler option's name ("?" for a value with none). */
static const char *option(agal_sampler_field field, unsigned value)
{
    const char *name = agal_sampler_option_name(field, value);
    return name ? name : "?";
}

static void layout_text(text *t, const agal_upload_result *u)
{
    put(t, "target %s\n", target_names[u->target]);
    for (size_t i = 0; i < u->nblocks; i++) {
        const agal_binding_block *b = &u->blocks[i];
        put(t, "block %s binding %u count %u size %u name %s\n", b->stage == AGAL_VERTEX ? "vertex" : "fragment",
            b->binding, b->count, b->size, b->name ? b->name : "-");
    }
    for (size_t i = 0; i < u->nsamplers; i++) {
        const agal_binding_sampler *s = &u->samplers[i];
        const agal_sampler *k = &s->token;
        put(t, "sampler fs%u binding %u sampler_binding %u name %s: %s %s %s %s %s bias %d special %u tex %d ted %d\n",
            s->num, s->binding, s->sampler_binding, s->name ? s->name : "-", option(AGAL_SMP_DIM, k->dim),
            option(AGAL_SMP_FORMAT, k->format), option(AGAL_SMP_WRAP, k->wrap), option(AGAL_SMP_MIPMAP, k->mipmap),
            option(AGAL_SMP_FILTER, k->filter), k->bias, k->special, s->uses_tex, s->uses_ted);
    }
    for (size_t i = 0; i < u->nattributes; i++)
        put(t, "attribute va%u mask %u\n", u->attributes[i].location, u->attributes[i].mask);
    for (size_t i = 0; i < u->nvaryings; i++)
        put(t, "varying v%u centroid %d\n", u->varyings[i].location, u->varyings[i].centroid);
    /* the tokens' flags (agal_upload_result.tokens), under the names the snapshots had */
    put(t, "writes_depth %d uses_kil %d uses_iid %d uses_derivatives %d extensions %u\n", u->tokens.writes_depth,
        u->tokens.uses_kil, u->tokens.uses_iid, u->tokens.uses_derivatives, u->extensions);
}

static void upload_code(dumper *d, const agal_upload_result *u, const char *pair)
{
    static const char *const stages[] = {"vert", "frag"};
    char file[512];
    for (int s = 0; s < 2; s++) {
        const agal_shader *c = &u->shaders[s];
        file_name(file, sizeof file, "%s.%s.%s", pair, target_names[u->target], stages[s]);
        if (u->target == AGAL_TARGET_SPIRV) write_out(d, "upload", strcat(file, ".spv"), c->words, c->nwords * 4);
        else write_out(d, "upload", file, c->text, c->len);
    }
}

static void dump_pair(dumper *d, const char *pair, const uint8_t *vbytes, size_t vsize, const uint8_t *fbytes,
                      size_t fsize, const agal_translate_options *topt)
{
    static const agal_target targets[] = {AGAL_TARGET_SPIRV, AGAL_TARGET_GLSL, AGAL_TARGET_ESSL3, AGAL_TARGET_ESSL1,
                                          AGAL_TARGET_WGSL};
    char file[512];
    for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
        agal_target target = targets[i];
        agal_upload_options opt = {.size = sizeof(agal_upload_options), .target = target};
        if (topt) {
            opt.clip = topt->clip;
            opt.strip_names = topt->strip_names;
            opt.separate_samplers = topt->separate_samplers;
        }
        agal_upload_result u = agal_upload_result_init();
        agal_status st = agal_upload(d->ctx, vbytes, vsize, fbytes, fsize, &opt, &u);
        file_name(file, sizeof file, "%s.%s.txt", pair, target_names[target]);
        if (st != AGAL_OK) {
            write_error(d, "upload", file, st);
        } else {
            text t = {.n = 0};
            layout_text(&t, &u);
            write_out(d, "upload", file, t.buf, t.n);
            if (d->upload_code) upload_code(d, &u, pair);
        }
        agal_context_reset(d->ctx);
    }
}

/* ---- the corpus ------------------------------------------------------------- */

/* Loads dir/file (.agal text with its header comments) as bytes in ctx. */
static bool load_corpus(agal_context *ctx, const char *dir, const char *file, const uint8_t **bytes, size_t *size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    size_t len = 0;
    char *src = tool_read_agal(path, true, &len);
    if (!src) return false;
    int rc = tool_assemble(ctx, path, src, len, -1, 0, AGAL_ASM_STRICT, bytes, size);
    free(src);
    return rc == 0;
}

static bool decode(agal_context *ctx, const char *name, const uint8_t *bytes, size_t size, const agal_program **prog)
{
    if (agal_decode(ctx, bytes, size, NULL, prog) == AGAL_OK) return true;
    tool_print_diags(ctx, name);
    return false;
}

/* Every DIR/NAME.agal as NAME; every NAME.vert.agal with its NAME.frag.agal as pair NAME. */
static bool dump_corpus(dumper *d, const char *dir)
{
    size_t n = 0;
    char **names = tool_list_dir("dump_outputs", dir, ".agal", &n);
    if (!names) return false;
    agal_context *keep = new_context(d);
    bool ok = keep != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        const uint8_t *bytes, *fbytes;
        size_t size, fsize;
        const agal_program *prog;
        char name[512], frag[512];
        snprintf(name, sizeof name, "%.*s", (int)(strlen(names[i]) - 5), names[i]);
        ok = load_corpus(keep, dir, names[i], &bytes, &size) && decode(keep, names[i], bytes, size, &prog);
        if (ok) dump_program(d, prog, name, NULL, false);
        size_t len = strlen(name);
        if (ok && len > 5 && !strcmp(name + len - 5, ".vert")) {
            snprintf(frag, sizeof frag, "%.*s.frag.agal", (int)(len - 5), name);
            ok = load_corpus(keep, dir, frag, &fbytes, &fsize);
            name[len - 5] = 0;
            if (ok) dump_pair(d, name, bytes, size, fbytes, fsize, NULL);
        }
        agal_context_reset(keep);
    }
    agal_context_free(keep);
    tool_free_names(names);
    return ok;
}

/* ---- generated pairs -------------------------------------------------------- */

static bool dump_random(dumper *d, unsigned count)
{
    gen_program *gv = malloc(sizeof *gv), *gf = malloc(sizeof *gf); /* large: off the stack */
    uint8_t *vbytes = malloc(GEN_MAX_BYTES), *fbytes = malloc(GEN_MAX_BYTES);
    agal_context *keep = new_context(d);
    bool ok = keep && gv && gf && vbytes && fbytes;
    if (!ok) fprintf(stderr, "dump_outputs: out of memory\n");
    for (unsigned seed = 1; ok && seed <= count; seed++) {
        if (!gen_pair(gv, gf, seed, 1 + seed % 3, NULL)) {
            fprintf(stderr, "dump_outputs: gen_pair %u failed\n", seed);
            ok = false;
            break;
        }
        size_t vsize = gen_program_encode(gv, vbytes, GEN_MAX_BYTES);
        size_t fsize = gen_program_encode(gf, fbytes, GEN_MAX_BYTES);
        const agal_translate_options opt = {.size = sizeof(agal_translate_options),
                                            .clip = (agal_clip)(seed / 3 % 4),
                                            .strip_names = seed / 12 % 2,
                                            .separate_samplers = seed / 24 % 2};
        const agal_program *v, *f;
        char name[64], pair[64];
        snprintf(pair, sizeof pair, "gen%u", seed);
        ok = decode(keep, pair, vbytes, vsize, &v) && decode(keep, pair, fbytes, fsize, &f);
        if (ok) {
            dump_program(d, v, file_name(name, sizeof name, "%s.vert", pair), &opt, true);
            dump_program(d, f, file_name(name, sizeof name, "%s.frag", pair), &opt, false);
            dump_pair(d, pair, vbytes, vsize, fbytes, fsize, &opt);
        }
        agal_context_reset(keep);
    }
    agal_context_free(keep);
    free(gv);
    free(gf);
    free(vbytes);
    free(fbytes);
    return ok;
}

/* ---- main ------------------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr, "usage: dump_outputs OUT [--corpus SHADER_DIR] [--random N] [--upload-code] [--scribble SEED]\n");
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage();
    dumper d = {.out = argv[1]};
    const char *corpus = NULL;
    unsigned random = 0;
    unsigned long long seed;
    scribble sc;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--corpus") && i + 1 < argc) corpus = argv[++i];
        else if (!strcmp(argv[i], "--random") && i + 1 < argc) {
            if (!tool_parse_unsigned("dump_outputs", "--random", argv[++i], 0, 100000, &random)) return 1;
        } else if (!strcmp(argv[i], "--scribble") && i + 1 < argc) {
            if (!tool_parse_uint("dump_outputs", "--scribble", argv[++i], 1, UINT64_MAX, &seed)) return 1;
            d.scribble = &sc;
            sc.state = seed;
        } else if (!strcmp(argv[i], "--upload-code")) d.upload_code = true;
        else return usage();
    }
    if (mkdir(d.out, 0777) != 0 && errno != EEXIST)
        return fprintf(stderr, "dump_outputs: %s: %s\n", d.out, strerror(errno)), 1;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", d.out, kinds[i]);
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return fprintf(stderr, "dump_outputs: %s: %s\n", path, strerror(errno)), 1;
    }
    d.ctx = new_context(&d);
    if (!d.ctx) return fprintf(stderr, "dump_outputs: out of memory\n"), 1;
    bool ok = (!corpus || dump_corpus(&d, corpus)) && dump_random(&d, random);
    agal_context_free(d.ctx);
    return ok && !d.failed ? 0 : 1;
}
