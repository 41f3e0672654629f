/* agalasm: AGAL text (Adobe AGALMiniAssembler syntax) -> AGAL bytecode.
 *
 *   agalasm [--stage vertex|fragment] [--agal-version N] [--validate] in.agal -o out.bin
 *
 * `-` reads stdin / writes stdout. The stage and version may come from the file's
 * header comments (`// stage: vertex`, `// agal-version: 2`); flags override them.
 * --validate also runs agal_decode (Flash's upload rules) on the result.
 * Exit: 0 ok, 1 invalid input (diagnostics on stderr), 2 usage or I/O error. */
#include "agal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void)
{
    fprintf(stderr, "usage: agalasm [--stage vertex|fragment] [--agal-version 1|2|3] [--validate] "
                    "in.agal|- -o out.bin|-\n");
}

/* Reads a whole file (or stdin for "-") into malloc'd memory. */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        char *nb = realloc(buf, cap * 2);
        if (!nb) { free(buf); buf = NULL; break; }
        buf = nb;
        cap *= 2;
    }
    bool err = ferror(f);
    if (f != stdin) fclose(f);
    if (err) { free(buf); return NULL; }
    *len = n;
    return buf;
}

static bool write_all(const char *path, const void *p, size_t n)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
    if (!f) return false;
    bool ok = fwrite(p, 1, n, f) == n;
    if (f != stdout) ok = fclose(f) == 0 && ok;
    else ok = fflush(f) == 0 && ok;
    return ok;
}

static void print_diags(agal_context *ctx, const char *file)
{
    char buf[512];
    for (size_t i = 0; i < agal_diag_count(ctx); i++) {
        agal_diag_format(agal_diag_get(ctx, i), file, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
    }
}

typedef struct args {
    const char *in, *out;
    int stage;        /* -1: from the file */
    unsigned version; /* 0: from the file */
    bool validate;
} args;

static bool parse_args(int argc, char **argv, args *a)
{
    *a = (args){.stage = -1};
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--stage") && i + 1 < argc) {
            s = argv[++i];
            if (!strcmp(s, "vertex")) a->stage = AGAL_VERTEX;
            else if (!strcmp(s, "fragment")) a->stage = AGAL_FRAGMENT;
            else return false;
        } else if (!strcmp(s, "--agal-version") && i + 1 < argc) {
            s = argv[++i];
            if (strlen(s) != 1 || s[0] < '1' || s[0] > '3') return false;
            a->version = (unsigned)(s[0] - '0');
        } else if (!strcmp(s, "--validate")) {
            a->validate = true;
        } else if (!strcmp(s, "-o") && i + 1 < argc) {
            a->out = argv[++i];
        } else if (s[0] == '-' && s[1]) {
            return false;
        } else if (!a->in) {
            a->in = s;
        } else {
            return false;
        }
    }
    return a->in && a->out;
}

static int run(agal_context *ctx, const args *a, const char *text, size_t len)
{
    int stage;
    uint32_t version;
    const char *name = strcmp(a->in, "-") ? a->in : "<stdin>";
    if (agal_asm_header(ctx, text, len, &stage, &version)) { print_diags(ctx, name); return 1; }
    if (a->stage >= 0) stage = a->stage;
    if (a->version) version = a->version;
    if (stage < 0) {
        fprintf(stderr, "%s: no stage: pass --stage or add a `// stage: vertex|fragment` header line\n", name);
        return 2;
    }
    if (!version) version = 1; /* Adobe's assembler defaults to version 1 */
    const uint8_t *bytes;
    size_t size;
    agal_status st = agal_assemble(ctx, text, len, (agal_stage)stage, version, &bytes, &size);
    if (st == AGAL_ERR_NOMEM) { fprintf(stderr, "agalasm: out of memory\n"); return 2; }
    if (st) { print_diags(ctx, name); return 1; }
    if (a->validate) {
        const agal_program *prog;
        st = agal_decode(ctx, bytes, size, NULL, &prog);
        if (st) { print_diags(ctx, name); return st == AGAL_ERR_INVALID ? 1 : 2; }
    }
    if (!write_all(a->out, bytes, size)) { fprintf(stderr, "agalasm: cannot write %s\n", a->out); return 2; }
    return 0;
}

int main(int argc, char **argv)
{
    args a;
    if (!parse_args(argc, argv, &a)) { usage(); return 2; }
    size_t len;
    char *text = read_all(a.in, &len);
    if (!text) { fprintf(stderr, "agalasm: cannot read %s\n", a.in); return 2; }
    agal_context *ctx = agal_context_new(NULL, NULL);
    int rc = ctx ? run(ctx, &a, text, len) : 2;
    agal_context_free(ctx);
    free(text);
    return rc;
}
