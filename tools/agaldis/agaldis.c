/* agaldis: AGAL bytecode -> text that agalasm assembles back into the same bytes.
 *
 *   agaldis [--tokens] [--strict] in.bin|-
 *
 * --tokens adds each token's raw fields as comments (works on invalid programs too);
 * --strict fails on a token the syntax cannot express. Text goes to stdout.
 * Exit: 0 ok, 1 invalid input (diagnostics on stderr), 2 usage or I/O error. */
#include "agal/text.h"
#include "toolio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    unsigned flags = 0;
    const char *in = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--tokens")) flags |= AGAL_DIS_TOKENS;
        else if (!strcmp(argv[i], "--strict")) flags |= AGAL_DIS_STRICT;
        else if ((argv[i][0] != '-' || !argv[i][1]) && !in) in = argv[i];
        else in = NULL, i = argc;
    }
    if (!in) {
        fprintf(stderr, "usage: agaldis [--tokens] [--strict] in.bin|-\n");
        return 2;
    }
    size_t len;
    char *bytes = tool_read_agal(in, false, &len);
    if (!bytes) return 2;
    agal_context *ctx = agal_context_new(NULL, NULL);
    int rc = 2;
    const char *text;
    agal_status st = ctx ? agal_disassemble(ctx, bytes, len, flags, &text) : AGAL_ERR_NOMEM;
    if (st == AGAL_OK) {
        rc = tool_write_file("agaldis", NULL, text, strlen(text)) ? 0 : 2;
    } else if (st == AGAL_ERR_INVALID) {
        tool_print_diags(ctx, in);
        rc = 1;
    } else {
        fprintf(stderr, "agaldis: out of memory\n");
    }
    agal_context_free(ctx);
    free(bytes);
    return tool_exit("agaldis", rc);
}
