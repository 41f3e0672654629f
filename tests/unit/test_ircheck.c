/* test_ircheck.c: the IR checker (src/ir/ircheck.c) accepts the pipeline's IR and
 * catches each kind of broken IR injected into it: a use before its definition, a
 * phi operand from the wrong branch, a phi away from its if, an operand of the
 * wrong type or count, a removed or constant instruction left listed, an
 * instruction listed twice, a store inside a block, wrong use counts, dead code
 * left behind, and a later operand or a copy below the IR's notes of them. Each
 * fault must give AGAL_ERR_INTERNAL and a diagnostic that names the pass and the
 * fault. And the pipeline reaches its fixed point where its last pass makes a copy. */
#include "check.h"
#include "ir.h"

#include <stdio.h>
#include <string.h>

/* ft1 = ft0 + fc1 or ft0 * fc2 by a branch, joined by a phi: a tree with every kind
 * of instruction the checker has rules for. */
static const char *const program = "mov ft0, v0\n"
                                   "ife ft0.x, fc0.x\n"
                                   "add ft1, ft0, fc1\n"
                                   "els\n"
                                   "mul ft1.xy, ft0, fc2\n"
                                   "eif\n"
                                   "mov oc, ft1\n";

/* text (a fragment program) through the pipeline with options opt. */
static agal_ir *pipeline_ir(agal_context *ctx, const char *text, const agal_ir_options *opt)
{
    agal_context_reset(ctx);
    const uint8_t *bytes;
    size_t size;
    const agal_program *prog;
    agal_ir *ir = NULL;
    if (agal_assemble(ctx, text, strlen(text), AGAL_FRAGMENT, 2, AGAL_ASM_STRICT, &bytes, &size) != AGAL_OK ||
        agal_decode(ctx, bytes, size, NULL, &prog) != AGAL_OK || agal_ir_pipeline(ctx, prog, opt, &ir) != AGAL_OK)
        return NULL;
    return ir;
}

static agal_ir *fresh_ir(agal_context *ctx) { return pipeline_ir(ctx, program, NULL); }

/* The first instruction of op `op` in list l (depth first), or 0. */
static uint32_t find(const agal_ir *ir, uint32_t l, unsigned op)
{
    for (uint32_t i = 0; i < ir->lists[l].n; i++) {
        uint32_t v = ir->lists[l].items[i];
        if (ir->insts[v].op == op) return v;
        if (ir->insts[v].op == IR_IF) {
            uint32_t r = find(ir, ir->insts[v].then_list, op);
            if (!r) r = find(ir, ir->insts[v].else_list, op);
            if (r) return r;
        }
    }
    return 0;
}

/* The index of v in list l, or l's length. */
static uint32_t position(const agal_ir *ir, uint32_t l, uint32_t v)
{
    uint32_t i = 0;
    while (i < ir->lists[l].n && ir->lists[l].items[i] != v) i++;
    return i;
}

static void expect_fault(agal_context *ctx, agal_ir *ir, unsigned flags, const char *name, const char *want)
{
    agal_diag_clear(ctx);
    agal_status st = agal_ir_check(ir, flags, "the test");
    const agal_diag *d = agal_diag_get(ctx, 0);
    CHECK(st == AGAL_ERR_INTERNAL, "%s: status %d, want AGAL_ERR_INTERNAL", name, st);
    CHECK(d && strstr(d->message, "IR check after the test") && strstr(d->message, want),
          "%s: diagnostic '%s' lacks '%s'", name, d ? d->message : "(none)", want);
}

int main(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    agal_ir *ir = fresh_ir(ctx);
    CHECK(ir != NULL, "the program builds");
    if (!ir) return 1;
    CHECK(agal_ir_check(ir, AGAL_IR_CHECK_USES | AGAL_IR_CHECK_LIVE, "the test") == AGAL_OK,
          "the pipeline's IR is valid: %s", agal_diag_count(ctx) ? agal_diag_get(ctx, 0)->message : "");

    /* A use before its definition: the store moved to the front of the body. */
    ir = fresh_ir(ctx);
    uint32_t store = find(ir, 0, IR_STORE), *body = ir->lists[0].items;
    uint32_t at = position(ir, 0, store);
    memmove(body + 1, body, at * sizeof *body);
    body[0] = store;
    expect_fault(ctx, ir, 0, "use before definition", "is not defined before this use");

    /* A phi whose then operand is the else branch's value. */
    ir = fresh_ir(ctx);
    uint32_t phi = find(ir, 0, IR_PHI), iff = find(ir, 0, IR_IF);
    uint32_t else_value = ir->lists[ir->insts[iff].else_list].items[ir->lists[ir->insts[iff].else_list].n - 1];
    ir->insts[phi].args[0] = else_value;
    expect_fault(ctx, ir, 0, "phi from the wrong branch", "its then operand");

    /* A phi that does not follow its if. */
    ir = fresh_ir(ctx);
    phi = find(ir, 0, IR_PHI);
    body = ir->lists[0].items;
    at = position(ir, 0, phi); /* right after the if: swap them */
    body[at] = body[at - 1];
    body[at - 1] = phi;
    expect_fault(ctx, ir, 0, "phi away from its if", "a phi not right after an if");

    /* A condition (B1) where the store reads an F4. */
    ir = fresh_ir(ctx);
    ir->insts[find(ir, 0, IR_STORE)].args[0] = find(ir, 0, IR_CMP);
    expect_fault(ctx, ir, 0, "operand type", "has type");

    /* A merge with one operand. */
    ir = fresh_ir(ctx);
    ir->insts[find(ir, 0, IR_MERGE)].nargs = 1;
    expect_fault(ctx, ir, 0, "operand count", "operands, its op takes 2 to 2");

    /* An operand that is no instruction. */
    ir = fresh_ir(ctx);
    ir->insts[find(ir, 0, IR_STORE)].args[0] = ir->ninsts + 7;
    expect_fault(ctx, ir, 0, "operand out of range", "no instruction");

    /* A removed instruction still listed. */
    ir = fresh_ir(ctx);
    ir->insts[find(ir, 0, IR_MERGE)].op = IR_NOP;
    expect_fault(ctx, ir, 0, "removed but listed", "removed, but still listed");

    /* An instruction listed twice: the then branch's value again in the else branch. */
    ir = fresh_ir(ctx);
    iff = find(ir, 0, IR_IF);
    uint32_t then_value = ir->lists[ir->insts[iff].then_list].items[0];
    agal_ir_append(ir, ir->insts[iff].else_list, then_value);
    expect_fault(ctx, ir, 0, "listed twice", "listed twice");

    /* A store inside a block. */
    ir = fresh_ir(ctx);
    iff = find(ir, 0, IR_IF);
    store = find(ir, 0, IR_STORE);
    ir->lists[0].n--; /* the store is the body's last item */
    agal_ir_append(ir, ir->insts[iff].then_list, store);
    expect_fault(ctx, ir, 0, "store in a block", "a store inside a block");

    /* Use counts that the lists do not bear out. */
    ir = fresh_ir(ctx);
    ir->insts[find(ir, 0, IR_PHI)].nuses += 2;
    expect_fault(ctx, ir, AGAL_IR_CHECK_USES, "nuses", "nuses is");

    /* Dead code left behind: an unused swizzle appended to the body. */
    ir = fresh_ir(ctx);
    uint32_t dead = agal_ir_new(ir, IR_SWIZZLE, IR_F4, -1);
    ir->insts[dead].nargs = 1;
    ir->insts[dead].args[0] = find(ir, 0, IR_PHI);
    ir->insts[dead].swizzle = 0x1b;
    agal_ir_append(ir, 0, dead);
    agal_ir_count_uses(ir);
    expect_fault(ctx, ir, AGAL_IR_CHECK_USES | AGAL_IR_CHECK_LIVE, "dead code", "unused, but listed");

    /* Dead code where the IR says none is (live_only, which opt_dce trusts): an if
     * with empty branches and no phi, appended to the body, checked as after any
     * pass. */
    ir = fresh_ir(ctx);
    CHECK(ir->live_only, "the pipeline leaves live_only");
    uint32_t empty = agal_ir_new(ir, IR_IF, IR_VOID, -1);
    ir->insts[empty].nargs = 1;
    ir->insts[empty].args[0] = find(ir, 0, IR_CMP);
    ir->insts[empty].then_list = agal_ir_new_list(ir);
    ir->insts[empty].else_list = agal_ir_new_list(ir);
    agal_ir_append(ir, 0, empty);
    agal_ir_count_uses(ir);
    expect_fault(ctx, ir, 0, "dead if under live_only", "live_only, but");

    /* A value reading a later one, not noted in first_late_user: the store reads a
     * swizzle made after it, listed just before it. */
    ir = fresh_ir(ctx);
    store = find(ir, 0, IR_STORE);
    uint32_t later = agal_ir_new(ir, IR_SWIZZLE, IR_F4, -1);
    ir->insts[later].nargs = 1;
    ir->insts[later].args[0] = ir->insts[store].args[0];
    ir->insts[later].swizzle = 0x1b;
    ir->lists[0].items[ir->lists[0].n - 1] = later; /* the store is the body's last item */
    agal_ir_append(ir, 0, store);
    ir->insts[store].args[0] = later;
    agal_ir_count_uses(ir);
    expect_fault(ctx, ir, 0, "later operand not noted", "reads a later value");

    /* A ddy where the IR says there is none (takes_ddy, which lower_conventions
     * trusts): the then branch's add made a ddy. */
    ir = fresh_ir(ctx);
    ir->insts[find(ir, ir->insts[find(ir, 0, IR_IF)].then_list, IR_ALU)].aop = AGAL_OP_DDY;
    expect_fault(ctx, ir, 0, "ddy not noted", "takes_ddy says none");

    /* A value made a copy, not noted in first_copy: the else branch's merge takes all
     * of its new side. */
    ir = fresh_ir(ctx);
    uint32_t merge = find(ir, 0, IR_MERGE);
    ir->insts[merge].mask = 0xf;
    ir->first_copy = 0;
    expect_fault(ctx, ir, 0, "copy not noted", "is a copy, below first_copy");

    /* opt_share_loads makes the two branches' loads of fc1 one, and so the phi of
     * ft1 a copy after copy folding: the pipeline folds it, and the if left empty
     * goes (in this build the optimizations' fixed point is checked too), for the
     * -t ir and SPIR-V builds of the IR. The GLSL build keeps each mov, so its phi
     * joins two copies and stays, at its fixed point too. */
    static const char *const same_in_both = "ife v0.x, fc0.x\nmov ft1, fc1\nels\nmov ft1, fc1\neif\nmov oc, ft1\n";
    const agal_ir_options builds[] = {{0}, {.fold_movs = true}, {.keep_copies = true}};
    for (size_t i = 0; i < sizeof builds / sizeof builds[0]; i++) {
        ir = pipeline_ir(ctx, same_in_both, &builds[i]);
        CHECK(ir != NULL, "build %zu: the pipeline takes a phi it makes a copy: %s", i,
              agal_diag_count(ctx) ? agal_diag_get(ctx, 0)->message : "");
        if (!ir || builds[i].keep_copies) continue;
        CHECK(!find(ir, 0, IR_PHI) && !find(ir, 0, IR_IF), "build %zu: a phi or if is left", i);
        uint32_t st = find(ir, 0, IR_STORE), load = find(ir, 0, IR_UNIFORM);
        CHECK(st && load && ir->insts[st].args[0] == load && ir->insts[load].reg_num == 1,
              "build %zu: the store reads fc1's load", i);
    }

    agal_context_free(ctx);
    printf("ircheck: %d failures\n", failures);
    return failures != 0;
}
