/* agalrun: run AGAL programs.
 *
 *   agalrun interp ...    the reference interpreter (tools/agalrun/agalrun_interp.c)
 *   agalrun compare ...   interpreter against Vulkan/GL (tools/agalrun/agalrun_compare.c, when built)
 *   agalrun replay ...    a Stage3D scene on Vulkan or GL (tools/agalrun/agalrun_replay.c, when built)
 *
 * `agalrun SUBCOMMAND --help` or no arguments print the usage. A subcommand is a
 * row of the table below and a file defining `int agalrun_<name>(int, char **)`. */
#include "agalrun.h"

#include <string.h>

typedef struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} subcommand;

static const subcommand subcommands[] = {
    {"interp", agalrun_interp, "run the reference interpreter over JSON inputs, print the outputs as JSON"},
/* Hook: tools/agalrun/agalrun_compare.c registers here (meson adds -DAGALRUN_HAVE_COMPARE). */
#ifdef AGALRUN_HAVE_COMPARE
    {"compare", agalrun_compare, "run the interpreter and the Vulkan/GL backends on the same inputs, compare"},
#endif
#ifdef AGALRUN_HAVE_REPLAY
    {"replay", agalrun_replay, "replay a Stage3D scene (Context3D calls) on Vulkan or GL, write its frames"},
#endif
};

static int usage(void)
{
    fprintf(stderr, "usage: agalrun SUBCOMMAND [ARGS]\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        fprintf(stderr, "  %-8s %s\n", subcommands[i].name, subcommands[i].summary);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage();
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (!strcmp(argv[1], subcommands[i].name)) return tool_exit("agalrun", subcommands[i].run(argc - 1, argv + 1));
    fprintf(stderr, "agalrun: unknown subcommand '%s'\n", argv[1]);
    return usage();
}
