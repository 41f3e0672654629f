/* limits_arg.c: --limits NAME|FILE.json (limits_arg.h). */
#include "limits_arg.h"

#include "toolio.h"

#include <stdio.h>
#include <stdlib.h>

/* "webgl1, webgl2, ...": the presets, for a message. */
static void print_presets(void)
{
    for (size_t i = 0; agal_limits_preset_name(i); i++)
        fprintf(stderr, "%s%s", i ? ", " : "", agal_limits_preset_name(i));
}

int tool_load_limits(agal_context *ctx, const char *tool, const char *spec, agal_limits *out)
{
    *out = agal_limits_init();
    if (agal_limits_preset(spec, out)) return 0;
    size_t len = 0;
    /* not a preset: a file, of a size no limits file comes near */
    char *text = tool_read_input(spec, 1 << 16, "the largest limits file", &len);
    if (!text) {
        fprintf(stderr, "%s: --limits: '%s' is neither a preset (", tool, spec);
        print_presets();
        fprintf(stderr, ") nor a readable JSON file\n");
        return 2;
    }
    agal_status st = agal_limits_from_json(ctx, text, len, out);
    free(text);
    if (st != AGAL_OK) {
        fprintf(stderr, "%s: --limits: ", tool);
        tool_print_diags(ctx, spec);
        return 2;
    }
    if (!out->name) out->name = spec;
    return 0;
}
