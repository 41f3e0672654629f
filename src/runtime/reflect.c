/* reflect.c: what a program's tokens use, for a runtime's resource binding and
 * Flash's checks (its JSON: reflect_json.c).
 *
 * Worked out from the tokens (not the IR), so it also describes code the optimizer
 * drops: a runtime must bind what the program names. A component counts as read
 * when the operation uses it (agal_source_read_mask, the validator's rule too). */
#include "internal.h"

enum { MAX_CONST = 256 };

typedef struct refl {
    agal_context *ctx;
    const agal_program *prog;
    agal_reflection *r;
    uint8_t constants[MAX_CONST]; /* 1 = read */
    unsigned lo, hi;              /* the marked ones lie in lo..hi-1 (collect scans only those) */
    agal_reflect_sampler smp[16];
    bool have_smp[16];
    agal_token_uses uses;
} refl;

static void mark_constants(refl *f, unsigned first, unsigned count)
{
    unsigned end = first + count < MAX_CONST ? first + count : MAX_CONST;
    if (first >= end) return;
    for (unsigned i = first; i < end; i++) f->constants[i] = 1;
    if (f->lo >= f->hi || first < f->lo) f->lo = first;
    if (end > f->hi) f->hi = end;
}

static void read_attribute(uint16_t attribute_mask[16], unsigned n, unsigned mask)
{
    if (n < 16) attribute_mask[n] |= (uint16_t)mask;
}

/* rows consecutive registers from num (agal_source_rows), each in mask; attributes
 * are agal_source_attributes'. */
static void read_reg(refl *f, unsigned type, unsigned num, unsigned mask, unsigned rows)
{
    agal_reflection *r = f->r;
    for (unsigned n = num; n < num + rows; n++) {
        switch (type) {
        case AGAL_REG_CONSTANT: mark_constants(f, n, 1); break;
        case AGAL_REG_VARYING:
            if (n < 16) r->varying_mask[n] |= (uint16_t)mask;
            break;
        default: break;
        }
    }
}

void agal_source_attributes(uint16_t mask[16], const agal_token *t, const agal_source *s, unsigned rows)
{
    if (s->indirect) {
        if (s->index_type == AGAL_REG_ATTRIBUTE) agal_index_attribute(mask, s);
        return;
    }
    if (s->type != AGAL_REG_ATTRIBUTE) return;
    unsigned m = agal_source_read_mask(t, s);
    for (unsigned n = s->num, end = n + rows; n < end; n++) read_attribute(mask, n, m);
}

/* Source s of token t. Only attributes and varyings keep the components read:
 * the others are not asked for them (a token's read mask is its dearest part). */
static void read_source(refl *f, const agal_token *t, const agal_source *s, unsigned rows)
{
    agal_source_attributes(f->r->attribute_mask, t, s, rows);
    if (!s->indirect) {
        read_reg(f, s->type, s->num, s->type == AGAL_REG_VARYING ? agal_source_read_mask(t, s) : 0, rows);
        return;
    }
    /* The address is known only at run time: the whole constant file may be read
     * (marked once: a program of relative reads would mark it at every token). */
    if (!f->r->constants_indirect)
        mark_constants(f, 0, agal_reg_count(f->prog->profile, f->prog->stage, AGAL_REG_CONSTANT));
    f->r->constants_indirect = true;
    read_reg(f, s->index_type, s->index_num, 1u << (s->index_comp & 3), 1);
}

static void write_dest(refl *f, const agal_dest *d)
{
    agal_reflection *r = f->r;
    if (d->type == AGAL_REG_OUTPUT && d->num < 4) r->output_mask[d->num] |= d->mask;
    else if (d->type == AGAL_REG_VARYING && d->num < 16) r->varying_mask[d->num] |= d->mask;
}

/* A source reads iid as its register or as its index. */
static bool reads_iid(const agal_source *s) { return (s->indirect ? s->index_type : s->type) == AGAL_REG_IID; }

/* What token t (of opinfo info) uses of what Flash's checks count, added to *u. */
static void note_uses(const agal_token *t, const agal_opinfo *info, agal_token_uses *u)
{
    u->uses_derivatives |= (info->flags & AGAL_OPF_DERIV) != 0;
    u->uses_kil |= t->op == AGAL_OP_KIL;
    u->writes_depth |= (info->operands & AGAL_OPND_D) && t->dst.type == AGAL_REG_DEPTH;
    u->uses_iid |= ((info->operands & AGAL_OPND_A) && reads_iid(&t->a)) ||
                   ((info->operands & AGAL_OPND_B) && reads_iid(&t->b));
}

static void token(refl *f, const agal_token *t)
{
    const agal_opinfo *info = agal_opinfo_get(t->op);
    if (!info) return;
    if (info->operands & AGAL_OPND_A) read_source(f, t, &t->a, agal_source_rows(info, 0));
    if (info->operands & AGAL_OPND_B) read_source(f, t, &t->b, agal_source_rows(info, 1));
    if (info->operands & AGAL_OPND_D) write_dest(f, &t->dst);
    if (info->operands & AGAL_OPND_S) {
        unsigned n = t->s.num & 15;
        if (!f->have_smp[n]) f->smp[n] = (agal_reflect_sampler){.num = t->s.num, .s = t->s};
        f->have_smp[n] = true;
        if (t->op == AGAL_OP_TED) f->smp[n].uses_ted = true;
        else f->smp[n].uses_tex = true;
    }
    note_uses(t, info, &f->uses);
}

void agal_token_uses_of(const agal_program *prog, agal_token_uses *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < prog->ntokens; i++) {
        const agal_opinfo *info = agal_opinfo_get(prog->tokens[i].op);
        if (info) note_uses(&prog->tokens[i], info, out);
    }
}

static agal_status collect(refl *f)
{
    size_t nr = 0;
    for (unsigned i = f->lo; i < f->hi; i++) nr += f->constants[i] && (i == 0 || !f->constants[i - 1]);
    agal_range *ranges = agal_zalloc(f->ctx, (nr ? nr : 1) * sizeof *ranges);
    agal_reflect_sampler *smp = agal_zalloc(f->ctx, 16 * sizeof *smp);
    if (!ranges || !smp) return AGAL_ERR_NOMEM;
    size_t k = 0;
    for (unsigned i = f->lo; i < f->hi; i++) {
        if (!f->constants[i]) continue;
        if (i == 0 || !f->constants[i - 1]) ranges[k++] = (agal_range){(uint16_t)i, 0};
        ranges[k - 1].count++;
    }
    size_t ns = 0;
    for (unsigned i = 0; i < 16; i++)
        if (f->have_smp[i]) smp[ns++] = f->smp[i];
    f->r->constants = ranges;
    f->r->nconstants = nr;
    f->r->samplers = smp;
    f->r->nsamplers = ns;
    return AGAL_OK;
}

agal_status agal_reflect(agal_context *ctx, const agal_program *prog, agal_reflection *out)
{
    if (!ctx || !prog || !out) return AGAL_ERR_ARG;
    memset(out, 0, sizeof *out);
    out->version = prog->version;
    out->stage = prog->stage;
    out->profile = prog->profile;
    out->ntokens = prog->ntokens;
    refl f = {.ctx = ctx, .prog = prog, .r = out};
    for (uint32_t i = 0; i < prog->ntokens; i++) token(&f, &prog->tokens[i]);
    out->uses_derivatives = f.uses.uses_derivatives, out->uses_kil = f.uses.uses_kil;
    out->writes_depth = f.uses.writes_depth, out->uses_iid = f.uses.uses_iid;
    return collect(&f);
}
