/* test_ir_read.c: the IR reader (src/ir/ir_read.c) reads back what the printer
 * writes, and refuses everything else with the line it stopped at.
 *
 * 1. Every file of tests/snapshots/out/ir/ (the printer's text of each corpus
 *    program) reads and prints to the same bytes.
 * 2. Every corpus program's IR after each stage of the pipeline (build, then each
 *    pass), and after a target's pipeline (clip and window set), prints, reads and
 *    prints the same.
 * 3. Malformed text: AGAL_ERR_INVALID and a diagnostic naming the line (or, for
 *    text that reads but is no valid IR, the IR checker's reason), never a crash.
 * 4. A constant read is the one agal_ir_const finds (passes share it).
 *
 * usage: test_ir_read SNAPSHOT_IR_DIR SHADER_DIR */
#include "check.h"
#include "ir.h"
#include "toolio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned round_trips;

/* text read and printed again is text. */
static void round_trip(agal_context *ctx, const char *text, const char *what)
{
    agal_ir *ir = NULL;
    agal_status st = agal_ir_read(ctx, text, strlen(text), &ir);
    const char *again = st == AGAL_OK ? agal_ir_print(ir) : NULL;
    CHECK(again && !strcmp(again, text), "%s: %s", what,
          st != AGAL_OK && agal_diag_count(ctx) ? agal_diag_get(ctx, 0)->message
          : again                               ? again
                                                : "no text");
    round_trips++;
}

static void snapshots(const char *dir)
{
    size_t n = 0;
    char **names = tool_list_dir("test_ir_read", dir, ".ir", &n);
    CHECK(names && n >= 20, "%s: %zu IR snapshots", dir, n);
    for (size_t i = 0; names && i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len = 0;
        char *text = tool_read_file(path, &len);
        agal_context *ctx = agal_context_new(NULL, NULL);
        if (text && ctx) round_trip(ctx, text, path);
        agal_context_free(ctx);
        free(text);
    }
    tool_free_names(names);
}

/* The IR of one program after each stage, and as a GL target's pipeline leaves it. */
static void stages(agal_context *ctx, const agal_program *prog, const char *name)
{
    for (unsigned s = 0; agal_ir_stage_name(s); s++) {
        agal_ir *ir = NULL;
        CHECK(agal_ir_pipeline_until(ctx, prog, NULL, agal_ir_stage_name(s), &ir) == AGAL_OK, "%s: %s", name,
              agal_ir_stage_name(s));
        const char *text = ir ? agal_ir_print(ir) : NULL;
        if (text) round_trip(ctx, text, name);
    }
    const agal_ir_options gl = {.keep_copies = true, .clip = AGAL_CLIP_GL, .window_y_up = true, .unread_varyings = 2};
    agal_ir *ir = NULL;
    CHECK(agal_ir_pipeline(ctx, prog, &gl, &ir) == AGAL_OK, "%s: the GL pipeline", name);
    const char *text = ir ? agal_ir_print(ir) : NULL;
    if (text) round_trip(ctx, text, name);
}

static void corpus(const char *dir)
{
    size_t n = 0;
    char **names = tool_list_dir("test_ir_read", dir, ".agal", &n);
    CHECK(names && n >= 20, "%s: %zu programs", dir, n);
    for (size_t i = 0; names && i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        agal_context *ctx = agal_context_new(NULL, NULL);
        const agal_program *prog = NULL;
        tool_program_opts po = {.lenient = true, .stage = -1};
        if (ctx && tool_load_program(ctx, path, &po, &prog) == 0) stages(ctx, prog, path);
        else CHECK(false, "%s does not load", path);
        agal_context_free(ctx);
    }
    tool_free_names(names);
}

/* Text that is not the printer's: refused, naming the line. */
static void malformed(void)
{
    static const struct {
        const char *text, *why; /* a piece of the diagnostic */
    } bad[] = {
        {"; fragment agal1, 1 tokens\n%1 = input v0\nstore oc0.xyzw %2\n", "IR check"}, /* undefined value */
        {"; fragment agal1, 1 tokens\n%1 = frobnicate v0\n", "line 2"},                 /* no such op */
        {"; fragment agal1, 1 tokens\n%1 = alu nop %1\n", "line 2"},                    /* no such opcode */
        {"; fragment agal1, 1 tokens\n%1 = input v0\n%1 = input v1\n", "line 3"},       /* defined twice */
        {"; fragment agal1, 1 tokens\n%1 = input v0\nif %1 {\n", "line 3"},             /* if never closed */
        {"; fragment agal1, 1 tokens\n}\n", "line 2"},                                  /* close without if */
        {"; fragment agal1, 1 tokens\n%1 = input q7\n", "line 2"},                      /* no such register */
        {"; fragment agal1, 1 tokens\n%1 = const (1, 2, 3)\n", "line 2"},               /* three numbers */
        {"; fragment agal1, 1 tokens\n%1 = input v0  ; token 0\n", "line 2"},           /* tokens count from 1 */
        {"; fragment agal1, 1 tokens\n%99999999 = input v0\n", "line 2"},               /* number too large */
        {"; fragment agal1, 1 tokens\n%1 = input v0 junk\n", "line 2"},                 /* trailing text */
        {"; fragment agal1, 1 tokens\n%1 = input v0\n%2 = swizzle %1.xy\n", "line 3"},  /* short swizzle */
        {"; fragment agal1, 1 tokens\n%1 = input v0\nstore oc0.xyzw %1 %1\n", "line 3"},
        {"; fragment agal1, 1 tokens\n%1 = input v0\n%2 = cmp ife %1, %1\nkil %1\n", "IR check"}, /* types */
        {"%1 = input v0\nstore oc0.xyzw %1\n", "line 2"},       /* no header: a vertex program, which has no oc */
        {"; fragment agal, 1 tokens\n", "line 1"},              /* header without version */
        {"; vertex agal1, 1 tokens\n; unread va0\n", "line 2"}, /* not a varying */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        agal_context *ctx = agal_context_new(NULL, NULL);
        agal_ir *ir = NULL;
        agal_status st = agal_ir_read(ctx, bad[i].text, strlen(bad[i].text), &ir);
        const char *msg = agal_diag_count(ctx) ? agal_diag_get(ctx, 0)->message : "";
        CHECK(st == AGAL_ERR_INVALID && ir == NULL, "case %zu read: status %d", i, st);
        CHECK(strstr(msg, bad[i].why) != NULL, "case %zu: %s", i, msg);
        CHECK(strncmp(msg, "internal", 8) != 0, "case %zu: the text's fault called ours: %s", i, msg);
        agal_context_free(ctx);
    }
}

/* A constant read from the text is the one agal_ir_const finds: a pass that asks
 * for the same value gets the read instruction, not a second one. */
static void constants_dedup(void)
{
    static const char text[] = "; fragment agal1, 1 tokens\n%7 = const (1, 0, 0.5, 0)\n%1 = input v0  ; token 1\n"
                               "%2 = alu add %1, %7 -> oc0  ; token 1\nstore oc0.xyzw %2\n";
    agal_context *ctx = agal_context_new(NULL, NULL);
    agal_ir *ir = NULL;
    CHECK(ctx && agal_ir_read(ctx, text, strlen(text), &ir) == AGAL_OK, "the constants' text reads");
    if (ir) {
        uint32_t n = ir->ninsts;
        CHECK(agal_ir_const(ir, 1, 0, 0.5f, 0) == 7 && ir->ninsts == n, "the read constant is not shared");
    }
    agal_context_free(ctx);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_ir_read SNAPSHOT_IR_DIR SHADER_DIR\n");
        return 2;
    }
    snapshots(argv[1]);
    corpus(argv[2]);
    malformed();
    constants_dedup();
    printf("ir_read: %u round trips, %d failures\n", round_trips, failures);
    return failures ? 1 : 0;
}
