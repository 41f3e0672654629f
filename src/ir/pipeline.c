/* pipeline.c: everything that happens to a program between the validator and an
 * emitter, in order, in one place (QBE's main.c): build the SSA IR, the required
 * lowering, then the optimizations. Every back end and -t ir come through here.
 *
 * In the IR-check build (meson -Dir_check=true, the test build), the IR checker
 * runs after the build and after every pass, and each optimization must be at its
 * fixed point: run again, it must say it changed nothing. */
#include "ir.h"

#include <string.h>

typedef struct pass {
    const char *name;
    agal_ir_pass_fn run;
    bool optional; /* an optimization (skipped with no_opt), not a required lowering */
} pass;

static const pass pipeline[] = {
    /* Required: how op and ddy meet the target's clip space and window (no
     * instruction changes: the emitters write the decision out). */
    {"lower_conventions", agal_lower_conventions, false},
    /* Required: varyings no fragment program reads are no outputs (the upload's). */
    {"lower_unread_varyings", agal_lower_unread_varyings, false},
    /* Required: implicit-LOD samples need uniform control flow (derivatives). */
    {"lower_hoist_tex", agal_lower_hoist_tex, false},
    /* Required for a pair under limits: its varyings packed by the components they
     * carry (after the hoist, which looks for samples of varyings). */
    {"lower_pack_varyings", agal_lower_pack_varyings, false},
    /* Forward operands through movs, identity swizzles, whole merges, trivial phis. */
    {"opt_copy_prop", agal_opt_copy_prop, true},
    /* Drop what no store, kil or branch needs; count the uses of what stays. */
    {"opt_dce", agal_opt_dce, true},
    /* One load per input and constant register, in front of everything (after dead
     * code, so the load kept is the first one something uses). Last: its walk of
     * every value gathers the info record (a pass after it would gather it again). */
    {"opt_share_loads", agal_opt_share_loads, true},
};

#ifdef AGAL_IR_CHECK
enum { CHECKED = 1 };
#else
enum { CHECKED = 0 };
#endif

static agal_status check(const agal_ir *ir, unsigned flags, const char *after)
{
    return CHECKED ? agal_ir_check(ir, flags, after) : AGAL_OK;
}

/* The optimizations once more, in order; *changed names the first that changed
 * something (NULL for none). */
static agal_status optimize_again(agal_ir *ir, const char **changed)
{
    *changed = NULL;
    for (size_t i = 0; i < AGAL_COUNTOF(pipeline); i++) {
        if (!pipeline[i].optional) continue;
        bool progress = false;
        agal_status st = pipeline[i].run(ir, &progress);
        if (st == AGAL_OK) st = check(ir, 0, pipeline[i].name);
        if (st != AGAL_OK) return st;
        if (progress && !*changed) *changed = pipeline[i].name;
    }
    return AGAL_OK;
}

/* IR-check build: a second run of each optimization changes nothing. */
static agal_status check_fixed_point(agal_ir *ir)
{
    const char *changed = NULL;
    agal_status st = CHECKED ? optimize_again(ir, &changed) : AGAL_OK;
    if (st != AGAL_OK || !changed) return st;
    st = agal_error(ir->ctx, 0, -1, -1, NULL, "internal: IR pass %s is not at its fixed point", changed);
    return st == AGAL_ERR_NOMEM ? st : AGAL_ERR_INTERNAL;
}

/* Lowerings outside the list: the translate driver runs each after the pipeline
 * where what it knows (the device's limits) asks for it. */
static const pass on_demand[] = {
    /* The constants read packed under a uniform-vector limit (limits.c decides). */
    {"lower_constant_ranges", agal_lower_constant_ranges, false},
};

agal_ir_pass_fn agal_ir_pass_named(const char *name)
{
    for (size_t i = 0; i < AGAL_COUNTOF(pipeline); i++)
        if (!strcmp(pipeline[i].name, name)) return pipeline[i].run;
    for (size_t i = 0; i < AGAL_COUNTOF(on_demand); i++)
        if (!strcmp(on_demand[i].name, name)) return on_demand[i].run;
    return NULL;
}

const char *agal_ir_on_demand_name(unsigned i) { return i < AGAL_COUNTOF(on_demand) ? on_demand[i].name : NULL; }

agal_status agal_ir_lower_on_demand(agal_ir *ir, const char *name)
{
    for (size_t i = 0; i < AGAL_COUNTOF(on_demand); i++) {
        if (strcmp(on_demand[i].name, name) != 0) continue;
        bool changed = false;
        agal_status st = on_demand[i].run(ir, &changed);
        return st == AGAL_OK ? check(ir, AGAL_IR_CHECK_USES | AGAL_IR_CHECK_INFO | AGAL_IR_CHECK_LIVE, name) : st;
    }
    return AGAL_ERR_ARG;
}

const char *agal_ir_stage_name(unsigned i)
{
    if (i == 0) return "build";
    return i - 1 < AGAL_COUNTOF(pipeline) ? pipeline[i - 1].name : NULL;
}

/* The passes up to and including pipeline[stop] (-1: none; the last: all). */
static agal_status run(agal_context *ctx, const agal_program *prog, const agal_ir_options *opt, int stop, agal_ir **out)
{
    static const agal_ir_options defaults = {0};
    if (!opt) opt = &defaults;
    /* The builder shares the loads itself where opt_share_loads will run. */
    agal_ir_options built = *opt;
    built.share_loads = stop == (int)AGAL_COUNTOF(pipeline) - 1;
    agal_ir *ir = NULL;
    agal_status st = agal_ir_build(ctx, prog, &built, &ir);
    if (st == AGAL_OK) st = check(ir, 0, "build");
    bool no_opt = opt->no_opt, changed; /* held here: a pass could change what opt points at */
    for (int i = 0; i <= stop && st == AGAL_OK; i++) {
        if (no_opt && pipeline[i].optional) continue;
        st = pipeline[i].run(ir, &changed);
        if (st == AGAL_OK) st = check(ir, 0, pipeline[i].name);
    }
    if (st == AGAL_OK) *out = ir;
    return st;
}

/* A copy made after copy folding (ir.h) is folded by running the optimizations
 * again: rare (a phi of two loads of one register), and each round removes the
 * phis it folds, so a second is almost never needed; the bound keeps it finite
 * whatever a pass does. */
static agal_status refold(agal_ir *ir)
{
    agal_status st = AGAL_OK;
    for (int round = 0; ir->copy_after_folding && round < 4 && st == AGAL_OK; round++) {
        ir->copy_after_folding = false;
        const char *changed;
        st = optimize_again(ir, &changed);
    }
    return st;
}

agal_status agal_ir_pipeline(agal_context *ctx, const agal_program *prog, const agal_ir_options *opt, agal_ir **out)
{
    bool no_opt = opt && opt->no_opt;
    agal_ir *ir = NULL;
    agal_status st = run(ctx, prog, opt, (int)AGAL_COUNTOF(pipeline) - 1, &ir);
    if (st == AGAL_OK && !no_opt) st = refold(ir);
    if (st != AGAL_OK) return st;
    /* Otherwise dead code counts the uses, and opt_share_loads, the last pass,
     * gathers the info record in its walk of every value. */
    if (no_opt) agal_ir_count_uses(ir), agal_ir_gather_info(ir, &ir->info);
    st = check(ir, AGAL_IR_CHECK_USES | AGAL_IR_CHECK_INFO | (no_opt ? 0 : AGAL_IR_CHECK_LIVE), "the pipeline");
    if (st != AGAL_OK) return st;
    if (!no_opt && (st = check_fixed_point(ir)) != AGAL_OK) return st;
    *out = ir;
    return AGAL_OK;
}

agal_status agal_ir_pipeline_until(agal_context *ctx, const agal_program *prog, const agal_ir_options *opt,
                                   const char *last, agal_ir **out)
{
    int stop = -2;
    for (unsigned i = 0; agal_ir_stage_name(i) && last; i++)
        if (!strcmp(agal_ir_stage_name(i), last)) stop = (int)i - 1;
    if (stop < -1) return AGAL_ERR_ARG;
    agal_ir *ir = NULL;
    agal_status st = run(ctx, prog, opt, stop, &ir);
    if (st != AGAL_OK) return st;
    agal_ir_count_uses(ir);
    agal_ir_gather_info(ir, &ir->info);
    *out = ir;
    return AGAL_OK;
}
