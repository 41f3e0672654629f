/* test_rows.c: a matrix op's second source reads its rows (docs/format.md section 4:
 * row k is register B.number + k), and every reader of operands counts them: the
 * reflection's masks and constant ranges, agal_upload's attributes and varyings,
 * agal_link (3632 for an unwritten row), agal_program_reads (the streams a draw
 * needs). Each of m33, m34 and m44 on attributes, varyings and constants. */
#include "check.h"

#include "agal/agal.h"
#include "agal/stage3d.h"
#include "agal/text.h"

#include <string.h>

typedef struct matrix_op {
    const char *name;
    unsigned rows;
    uint16_t row_mask; /* components of each row read: xyz for m33, xyzw for the others */
    const char *dst;   /* m33 and m34 write xyz */
} matrix_op;

static const matrix_op ops[] = {
    {"m33", 3, 0x7, ".xyz"},
    {"m34", 3, 0xf, ".xyz"},
    {"m44", 4, 0xf, ""},
};

static const uint8_t *assemble(agal_context *ctx, const char *text, agal_stage stage, size_t *size)
{
    const uint8_t *bytes = NULL;
    if (agal_assemble(ctx, text, strlen(text), stage, 1, AGAL_ASM_STRICT, &bytes, size) != AGAL_OK) return NULL;
    return bytes;
}

static const agal_program *program(agal_context *ctx, const char *text, agal_stage stage)
{
    size_t size = 0;
    const uint8_t *bytes = assemble(ctx, text, stage, &size);
    const agal_program *prog = NULL;
    if (!bytes || agal_decode(ctx, bytes, size, NULL, &prog) != AGAL_OK) return NULL;
    return prog;
}

/* `mOP vt0, va4, va0` and friends: the rows are attributes 0 .. rows - 1. */
static void attributes(agal_context *ctx, const matrix_op *m)
{
    char text[256];
    snprintf(text, sizeof text, "mov vt0, va4\n%s vt0%s, va4, va0\nmov op, vt0\n", m->name, m->dst);
    const agal_program *vp = program(ctx, text, AGAL_VERTEX);
    CHECK(vp != NULL, "%s: %s", m->name, text);
    if (!vp) return;
    agal_reflection r;
    CHECK(agal_reflect(ctx, vp, &r) == AGAL_OK);
    for (unsigned n = 0; n < 4; n++)
        CHECK(r.attribute_mask[n] == (n < m->rows ? m->row_mask : 0), "%s: va%u read mask 0x%x", m->name, n,
              r.attribute_mask[n]);
    CHECK(r.attribute_mask[4] == 0xf, "%s: va4 mask 0x%x", m->name, r.attribute_mask[4]);
    unsigned want = ((1u << m->rows) - 1) | 1u << 4;
    CHECK(agal_program_reads(vp, AGAL_REG_ATTRIBUTE) == want, "%s: reads 0x%x", m->name,
          agal_program_reads(vp, AGAL_REG_ATTRIBUTE));

    /* agal_upload's attributes: every row, each with the components read. */
    size_t vsize = 0, fsize = 0;
    const uint8_t *vb = assemble(ctx, text, AGAL_VERTEX, &vsize);
    const uint8_t *fb = assemble(ctx, "mov oc, fc0\n", AGAL_FRAGMENT, &fsize);
    agal_upload_result u = agal_upload_result_init();
    CHECK(vb && fb && agal_upload(ctx, vb, vsize, fb, fsize, NULL, &u) == AGAL_OK, "%s: upload", m->name);
    if (!vb || !fb) return;
    CHECK(u.nattributes == m->rows + 1, "%s: %zu attributes", m->name, u.nattributes);
    for (size_t i = 0; i < u.nattributes && i < 5; i++) {
        unsigned loc = i < m->rows ? (unsigned)i : 4;
        CHECK(u.attributes[i].location == loc && u.attributes[i].mask == (loc < 4 ? m->row_mask : 0xf),
              "%s: attribute %zu is va%u mask 0x%x", m->name, i, u.attributes[i].location, u.attributes[i].mask);
    }
}

/* A fragment program's matrix on varyings: v0 .. v<rows - 1>, linked and uploaded. */
static void varyings(agal_context *ctx, const matrix_op *m)
{
    char frag[256];
    snprintf(frag, sizeof frag, "mov ft0, fc0\n%s ft0%s, fc0, v0\nmov oc, ft0\n", m->name, m->dst);
    const agal_program *fp = program(ctx, frag, AGAL_FRAGMENT);
    CHECK(fp != NULL, "%s: %s", m->name, frag);
    if (!fp) return;
    agal_reflection r;
    CHECK(agal_reflect(ctx, fp, &r) == AGAL_OK);
    for (unsigned n = 0; n < 5; n++)
        CHECK(r.varying_mask[n] == (n < m->rows ? m->row_mask : 0), "%s: v%u read mask 0x%x", m->name, n,
              r.varying_mask[n]);
    CHECK(agal_program_reads(fp, AGAL_REG_VARYING) == (1u << m->rows) - 1);

    /* Linkage: a vertex program writing only v0 leaves v1 unwritten. */
    const agal_program *only_v0 = program(ctx, "mov op, va0\nmov v0, va0\n", AGAL_VERTEX);
    agal_diag_clear(ctx);
    CHECK(only_v0 && agal_link(ctx, only_v0, fp) == AGAL_ERR_INVALID, "%s: links with only v0 written", m->name);
    const agal_diag *d = agal_diag_get(ctx, 0);
    CHECK(d && d->flash_id == 3632 && d->value == 1, "%s: %d (value %ld)", m->name, d ? d->flash_id : 0,
          d ? d->value : -1L);
    char vert[256] = "mov op, va0\n";
    for (unsigned n = 0; n < m->rows; n++)
        snprintf(vert + strlen(vert), sizeof vert - strlen(vert), "mov v%u, va0\n", n);
    const agal_program *all = program(ctx, vert, AGAL_VERTEX);
    CHECK(all && agal_link(ctx, all, fp) == AGAL_OK, "%s: every row written still fails", m->name);

    /* agal_upload: each row is a varying that connects the stages. */
    size_t vsize = 0, fsize = 0;
    const uint8_t *vb = assemble(ctx, vert, AGAL_VERTEX, &vsize), *fb = assemble(ctx, frag, AGAL_FRAGMENT, &fsize);
    agal_upload_result u = agal_upload_result_init();
    CHECK(vb && fb && agal_upload(ctx, vb, vsize, fb, fsize, NULL, &u) == AGAL_OK, "%s: upload", m->name);
    if (!vb || !fb) return;
    CHECK(u.nvaryings == m->rows, "%s: %zu varyings", m->name, u.nvaryings);
    for (size_t i = 0; i < u.nvaryings; i++) CHECK(u.varyings[i].location == i);
}

/* Constants: vc10 .. vc10 + rows - 1, one range. */
static void constants(agal_context *ctx, const matrix_op *m)
{
    char text[256];
    snprintf(text, sizeof text, "mov vt0, va0\n%s vt0%s, va0, vc10\nmov op, vt0\n", m->name, m->dst);
    const agal_program *vp = program(ctx, text, AGAL_VERTEX);
    CHECK(vp != NULL, "%s: %s", m->name, text);
    if (!vp) return;
    agal_reflection r;
    CHECK(agal_reflect(ctx, vp, &r) == AGAL_OK);
    CHECK(r.nconstants == 1 && r.constants[0].first == 10 && r.constants[0].count == m->rows,
          "%s: %zu ranges, first %u count %u", m->name, r.nconstants, r.nconstants ? r.constants[0].first : 0,
          r.nconstants ? r.constants[0].count : 0);
    CHECK(agal_program_reads(vp, AGAL_REG_CONSTANT) == ((1u << m->rows) - 1) << 10, "%s: constant reads 0x%x", m->name,
          agal_program_reads(vp, AGAL_REG_CONSTANT));
}

/* A relative matrix operand: the index register counts, the rows are unknown. */
static void indirect(agal_context *ctx)
{
    const agal_program *vp = program(ctx, "m44 op, va0, vc[va1.x+4]\n", AGAL_VERTEX);
    CHECK(vp != NULL);
    if (!vp) return;
    CHECK(agal_program_reads(vp, AGAL_REG_ATTRIBUTE) == 0x3, "reads 0x%x", agal_program_reads(vp, AGAL_REG_ATTRIBUTE));
    agal_reflection r;
    CHECK(agal_reflect(ctx, vp, &r) == AGAL_OK && r.constants_indirect && r.attribute_mask[1] == 0x1);
}

int main(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        attributes(ctx, &ops[i]);
        varyings(ctx, &ops[i]);
        constants(ctx, &ops[i]);
    }
    indirect(ctx);
    agal_context_free(ctx);
    return failures != 0;
}
