/* agalrun_interp.c: `agalrun interp`, the reference interpreter on the command line.
 *
 *   agalrun interp PROGRAM.bin|PROGRAM.agal --inputs in.json [--lenient]
 *                  [--profile P] [--stage vertex|fragment]
 *                  [--agal-version N] [-o out.json] [--trace I[,I...]]
 *
 * Runs the program over the invocations of in.json (format in agalrun.h) and prints
 * the outputs as JSON. --stage and --agal-version are for .agal text without header
 * comments. `-` reads the inputs from stdin. --trace prints on stderr, for the
 * invocations listed (from 0), each token's write as it runs:
 * "invocation 0, token 3 (add vt0.xy, va0, vc0): vt0.xy = (1, 2)". */
#include "agal/interp.h"
#include "agal/text.h"
#include "agalrun.h"
#include "toolio.h"

#include <stdlib.h>
#include <string.h>

static void usage(void)
{
    fprintf(stderr, "usage: agalrun interp PROGRAM.bin|PROGRAM.agal --inputs in.json [--lenient]\n"
                    "         [--profile P (a Context3DProfile name, or baseline|standard|standard_extended)]\n"
                    "         [--stage vertex|fragment]\n"
                    "         [--agal-version 1|2|3] [-o out.json]\n"
                    "         [--trace I[,I...] (each write of those invocations, on stderr)]\n");
}

enum { MAX_TRACED = 64 };

typedef struct args {
    const char *program, *inputs, *out;
    tool_program_opts opt;
    size_t traced[MAX_TRACED]; /* --trace: the invocations */
    size_t ntraced;
} args;

/* "3,0,17": the invocations to trace. */
static bool parse_trace(args *a, const char *s)
{
    for (;;) {
        char *end;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || (*end && *end != ',') || a->ntraced == MAX_TRACED || *s == '-') return false;
        a->traced[a->ntraced++] = (size_t)v;
        if (!*end) return true;
        s = end + 1;
    }
}

static bool parse_args(int argc, char **argv, args *a)
{
    *a = (args){.opt = {.stage = -1}};
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(s, "--inputs") && has_value) a->inputs = argv[++i];
        else if (!strcmp(s, "-o") && has_value) a->out = argv[++i];
        else if (!strcmp(s, "--lenient")) a->opt.lenient = true;
        else if (!strcmp(s, "--trace") && has_value) {
            if (!parse_trace(a, argv[++i])) return false;
        } else if (!strcmp(s, "--profile") && has_value) {
            if (!tool_parse_profile("agalrun interp", argv[++i], &a->opt.profile)) return false;
        } else if (!strcmp(s, "--stage") && has_value) {
            s = argv[++i];
            if (!strcmp(s, "vertex")) a->opt.stage = AGAL_VERTEX;
            else if (!strcmp(s, "fragment")) a->opt.stage = AGAL_FRAGMENT;
            else return false;
        } else if (!strcmp(s, "--agal-version") && has_value) {
            unsigned v;
            if (!tool_parse_unsigned("agalrun interp", s, argv[++i], 1, 3, &v)) return false;
            a->opt.version = v;
        } else if (s[0] == '-' && s[1]) {
            return false;
        } else if (!a->program) {
            a->program = s;
        } else {
            return false;
        }
    }
    return a->program && a->inputs;
}

/* --trace: what the callback prints with. */
typedef struct tracer {
    const args *a;
    const agal_program *prog;
    const char *dis; /* the disassembly: token i is line i + 3 */
} tracer;

static void print_line(const char *text, uint32_t line)
{
    for (uint32_t i = 1; i < line && text; i++) text = strchr(text, '\n') ? strchr(text, '\n') + 1 : NULL;
    while (text && *text == ' ') text++;
    size_t n = text ? strcspn(text, "\n") : 0;
    fprintf(stderr, "%.*s", (int)n, text ? text : "");
}

static void trace_step(void *ud, size_t invocation, uint32_t token, const float value[4])
{
    const tracer *t = ud;
    bool chosen = false;
    for (size_t i = 0; i < t->a->ntraced; i++) chosen |= t->a->traced[i] == invocation;
    if (!chosen) return;
    const agal_dest *d = &t->prog->tokens[token].dst;
    fprintf(stderr, "invocation %zu, token %u (", invocation, token + 1);
    print_line(t->dis, token + 3);
    /* as the disassembler writes it: op and fd alone, the others numbered, no full mask */
    bool single = d->type == AGAL_REG_OUTPUT && t->prog->stage == AGAL_VERTEX;
    fprintf(stderr, "): %s", agal_reg_name(t->prog->stage, (agal_regtype)d->type));
    if (!single && d->type != AGAL_REG_DEPTH) fprintf(stderr, "%u", (unsigned)d->num);
    if (d->mask != 15) fputc('.', stderr);
    for (unsigned c = 0; c < 4 && d->mask != 15; c++)
        if (d->mask >> c & 1) fputc("xyzw"[c], stderr);
    const char *sep = " = (";
    for (unsigned c = 0; c < 4; c++)
        if (d->mask >> c & 1) fprintf(stderr, "%s%.9g", sep, (double)value[c]), sep = ", ";
    fprintf(stderr, ")\n");
}

static int run(agal_context *ctx, const args *a, const agal_program *prog, const agalrun_inputs *in)
{
    agal_interp_result *res = calloc(in->ninv ? in->ninv : 1, sizeof *res);
    if (!res) return fprintf(stderr, "agalrun interp: out of memory\n"), 2;
    int rc = 0;
    tracer tr = {a, prog, NULL};
    agal_status st = a->ntraced ? agal_disassemble_program(ctx, prog, 0, &tr.dis) : AGAL_OK;
    if (st == AGAL_OK)
        st = a->ntraced ? agal_interp_run_traced(ctx, prog, &in->env, in->inv, in->ninv, res, trace_step, &tr)
                        : agal_interp_run(ctx, prog, &in->env, in->inv, in->ninv, res);
    if (st) {
        char buf[512];
        for (size_t i = 0; i < agal_diag_count(ctx); i++) {
            agal_diag_format(agal_diag_get(ctx, i), a->inputs, buf, sizeof buf);
            fprintf(stderr, "%s\n", buf);
        }
        if (!agal_diag_count(ctx)) fprintf(stderr, "%s: the interpreter refused the inputs\n", a->inputs);
        rc = st == AGAL_ERR_ARG ? 2 : 1;
    } else {
        /* through a temporary file renamed over the target (toolio.h) */
        tool_output out;
        if (!tool_output_open(&out, "agalrun interp", a->out)) {
            rc = 2;
        } else {
            agalrun_print_results(out.f, prog, res, in->ninv);
            if (!tool_output_close(&out, "agalrun interp", true)) rc = 2;
        }
    }
    free(res);
    return rc;
}

int agalrun_interp(int argc, char **argv)
{
    args a;
    if (!parse_args(argc, argv, &a)) return usage(), 2;
    agal_context *ctx = agal_context_new(NULL, NULL);
    if (!ctx) return fprintf(stderr, "agalrun interp: out of memory\n"), 2;
    const agal_program *prog = NULL;
    int rc = tool_load_program(ctx, a.program, &a.opt, &prog);
    size_t len = 0;
    char *json = rc ? NULL : tool_read_input(a.inputs, AGALRUN_MAX_INPUTS, "the most input JSON agalrun reads", &len);
    if (!rc && !json) rc = 2;
    if (!rc) {
        agalrun_inputs in;
        char err[256];
        if (!agalrun_inputs_parse(json, len, prog, &in, err, sizeof err)) {
            fprintf(stderr, "%s: %s\n", a.inputs, err);
            rc = 2;
        } else {
            rc = run(ctx, &a, prog, &in);
        }
        agalrun_inputs_free(&in);
    }
    free(json);
    agal_context_free(ctx);
    return rc;
}
