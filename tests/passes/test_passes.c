/* test_passes.c: each pass of the pipeline on IR written by hand.
 *
 * tests/passes/PASS/CASE.ir holds the IR a case starts from, a line
 * `; ---- expect`, and the IR the pass PASS must leave (the printer's text, which
 * ir_read.c reads back). The runner reads the input, runs that one pass, checks the
 * result with the IR checker, prints it and compares it with the expected text; the
 * pass must say it changed something exactly when the text differs from the input.
 * Every pass of the pipeline, and every lowering the driver runs on demand
 * (agal_ir_on_demand_name), has a folder with at least three cases, one where it
 * changes nothing.
 *
 * usage: test_passes DIR [--update]   (--update rewrites each expected part from
 * what the pass now does: `meson compile -C BUILD update-passes`) */
#include "check.h"
#include "ir.h"
#include "toolio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SEPARATOR[] = "; ---- expect\n";
enum { MIN_CASES = 3 };

static void print_diags(agal_context *ctx)
{
    for (size_t i = 0; i < agal_diag_count(ctx); i++) fprintf(stderr, "  %s\n", agal_diag_get(ctx, i)->message);
}

/* The input read back and printed, the pass run on it and the result printed:
 * NULL (with a message) when either does not read or check. */
static bool run_case(agal_context *ctx, agal_ir_pass_fn pass, const char *input, size_t len, const char *path,
                     const char **before, const char **after, bool *changed)
{
    agal_ir *ir = NULL;
    if (agal_ir_read(ctx, input, len, &ir) != AGAL_OK) {
        fprintf(stderr, "%s: the input does not read\n", path);
        print_diags(ctx);
        return false;
    }
    *before = agal_ir_print(ir);
    agal_status st = pass(ir, changed);
    if (st == AGAL_OK) {
        agal_ir_count_uses(ir);
        agal_ir_gather_info(ir, &ir->info);
        st = agal_ir_check(ir, AGAL_IR_CHECK_USES | AGAL_IR_CHECK_INFO, "the pass");
    }
    if (st != AGAL_OK) {
        fprintf(stderr, "%s: the pass fails (%d)\n", path, st);
        print_diags(ctx);
        return false;
    }
    *after = agal_ir_print(ir);
    return *before && *after;
}

static void update(const char *path, const char *input, size_t len, const char *after)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(input, 1, len, f) == len && fputs(SEPARATOR, f) >= 0 && fputs(after, f) >= 0;
    if (f && fclose(f) != 0) ok = false;
    CHECK(ok, "%s: cannot be written", path);
}

static void one_case(const char *pass_name, agal_ir_pass_fn pass, const char *path, bool rewrite)
{
    size_t size = 0;
    char *text = tool_read_file(path, &size);
    CHECK(text != NULL, "%s: cannot be read", path);
    if (!text) return;
    char *sep = strstr(text, SEPARATOR);
    CHECK(sep != NULL, "%s: no `; ---- expect` line", path);
    agal_context *ctx = agal_context_new(NULL, NULL);
    const char *before = NULL, *after = NULL;
    bool changed = false;
    if (sep && ctx && run_case(ctx, pass, text, (size_t)(sep - text), path, &before, &after, &changed)) {
        const char *want = sep + strlen(SEPARATOR);
        if (rewrite) update(path, text, (size_t)(sep - text), after);
        else CHECK(!strcmp(after, want), "%s: %s leaves\n%s\n  want\n%s", path, pass_name, after, want);
        CHECK(changed == (strcmp(before, after) != 0), "%s: %s says it changed %s, the text %s", path, pass_name,
              changed ? "something" : "nothing", strcmp(before, after) ? "differs" : "is the same");
    } else {
        failures++;
    }
    agal_context_free(ctx);
    free(text);
}

/* Every case of one pass's folder; the number of cases. */
static size_t one_pass(const char *dir, const char *pass_name, bool rewrite)
{
    agal_ir_pass_fn pass = agal_ir_pass_named(pass_name);
    char folder[1024];
    snprintf(folder, sizeof folder, "%s/%s", dir, pass_name);
    size_t n = 0;
    char **cases = tool_list_dir("test_passes", folder, ".ir", &n);
    for (size_t i = 0; cases && i < n; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", folder, cases[i]);
        one_case(pass_name, pass, path, rewrite);
    }
    tool_free_names(cases);
    return cases ? n : 0;
}

/* The i-th pass (from 0): the pipeline's (its stages but the build), then the
 * lowerings the driver runs on demand; NULL past the last. */
static const char *pass_name(unsigned i)
{
    unsigned n = 0;
    while (agal_ir_stage_name(n + 1)) n++;
    return i < n ? agal_ir_stage_name(i + 1) : agal_ir_on_demand_name(i - n);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_passes DIR [--update]\n");
        return 2;
    }
    bool rewrite = argc > 2 && !strcmp(argv[2], "--update");
    size_t total = 0;
    unsigned passes = 0;
    for (const char *name; (name = pass_name(passes)) != NULL; passes++) {
        size_t n = one_pass(argv[1], name, rewrite);
        CHECK(n >= MIN_CASES, "%s: %zu cases in tests/passes/%s/, want at least %d", name, n, name, MIN_CASES);
        total += n;
    }
    printf("passes: %u passes, %zu cases, %d failures%s\n", passes, total, failures, rewrite ? " (updated)" : "");
    return failures ? 1 : 0;
}
