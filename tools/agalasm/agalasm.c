/* agalasm: AGAL text (Adobe AGALMiniAssembler syntax) -> AGAL bytecode.
 *
 *   agalasm [--stage vertex|fragment] [--agal-version N] [--validate] [--strict] in.agal -o out.bin
 *
 * `-` reads stdin / writes stdout. The stage and version may come from the file's
 * header comments (`// stage: vertex`, `// agal-version: 2`); flags override them.
 * The bytes are Adobe's assembler's; what it ignores or reads its own way is a
 * warning on stderr (line and column), and --strict makes that an error.
 * --validate also runs agal_decode (Flash's upload rules) on the result.
 * Exit: 0 ok, 1 invalid input (diagnostics on stderr), 2 usage or I/O error. */
#include "agal/text.h"
#include "toolio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void)
{
    fprintf(stderr, "usage: agalasm [--stage vertex|fragment] [--agal-version 1|2|3] [--validate] [--strict] "
                    "in.agal|- -o out.bin|-\n");
}

typedef struct args {
    const char *in, *out;
    int stage;        /* -1: from the file */
    unsigned version; /* 0: from the file */
    bool validate;
    bool strict; /* warnings are errors */
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
            if (!tool_parse_unsigned("agalasm", s, argv[++i], 1, 3, &a->version)) return false;
        } else if (!strcmp(s, "--validate")) {
            a->validate = true;
        } else if (!strcmp(s, "--strict")) {
            a->strict = true;
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
    const char *name = strcmp(a->in, "-") ? a->in : "<stdin>";
    const uint8_t *bytes;
    size_t size;
    int rc = tool_assemble(ctx, name, text, len, a->stage, a->version, a->strict ? AGAL_ASM_STRICT : 0, &bytes, &size);
    if (rc) return rc;
    if (a->validate) {
        const agal_program *prog;
        agal_status st = agal_decode(ctx, bytes, size, NULL, &prog);
        if (st) {
            tool_print_diags(ctx, name);
            if (st == AGAL_ERR_INVALID) return 1;
            fprintf(stderr, "agalasm: %s\n", st == AGAL_ERR_NOMEM ? "out of memory" : "internal error");
            return 2;
        }
    }
    return tool_write_file("agalasm", a->out, bytes, size) ? 0 : 2; /* through a temporary file (toolio.h) */
}

int main(int argc, char **argv)
{
    args a;
    if (!parse_args(argc, argv, &a)) {
        usage();
        return 2;
    }
    size_t len;
    char *text = tool_read_agal(a.in, true, &len);
    if (!text) return 2;
    agal_context *ctx = agal_context_new(NULL, NULL);
    if (!ctx) fprintf(stderr, "agalasm: out of memory\n");
    int rc = ctx ? run(ctx, &a, text, len) : 2;
    agal_context_free(ctx);
    free(text);
    return tool_exit("agalasm", rc);
}
