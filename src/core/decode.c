/* decode.c: bytes -> tokens. Checks the container (docs/format.md section 1), splits every
 * token into its fields (section 2), then hands the tokens to the validator.
 * Hostile input is bounded: the token count is checked against the profile before
 * anything is allocated for it, and no field is trusted as an index. */
#include "internal.h"

/* The split_* functions fill a token split_token zeroed, field by field (never a
 * whole struct, whose padding would take any value): a decoded program compares
 * bytewise, padding too. */
static void split_dest(agal_dest *r, uint32_t d)
{
    r->type = (uint8_t)dst_type(d);
    r->mask = (uint8_t)dst_mask(d);
    r->num = (uint16_t)dst_num(d);
}

static void split_source(agal_source *r, uint64_t s)
{
    r->type = (uint8_t)src_type(s);
    r->swizzle = (uint8_t)src_swizzle(s);
    if (src_indirect(s)) {
        r->indirect = true;
        r->num = (uint16_t)src_offset(s);
        r->index_num = (uint16_t)src_num(s);
        r->index_type = (uint8_t)src_index_type(s);
        r->index_comp = (uint8_t)src_index_comp(s);
    } else {
        r->num = (uint16_t)src_num(s);
    }
}

static void split_sampler(agal_sampler *r, uint64_t s)
{
    r->num = (uint16_t)smp_num(s);
    r->bias = (int8_t)smp_bias(s);
    r->format = (uint8_t)smp_format(s);
    r->dim = (uint8_t)smp_dim(s);
    r->special = (uint8_t)smp_special(s);
    r->wrap = (uint8_t)smp_wrap(s);
    r->mipmap = (uint8_t)smp_mipmap(s);
    r->filter = (uint8_t)smp_filter(s);
}

/* Splits one token; fields the opcode does not use stay zero (an unknown opcode
 * keeps only its raw words: the validator rejects it). Zeroed here, token by token
 * in a few stores, not by a call clearing the whole array first. */
static void split_token(agal_token *t, const uint8_t *p)
{
    memset(t, 0, sizeof *t);
    t->raw_op = agal_rd32(p);
    t->raw_dst = agal_rd32(p + 4);
    t->raw_a = agal_rd64(p + 8);
    t->raw_b = agal_rd64(p + 16);
    t->op = (agal_opcode)(t->raw_op < AGAL_OP_LIMIT ? t->raw_op : AGAL_OP_LIMIT);
    const agal_opinfo *info = agal_opinfo_at(t->raw_op);
    if (!info) return;
    if (info->operands & AGAL_OPND_D) split_dest(&t->dst, t->raw_dst);
    if (info->operands & AGAL_OPND_A) split_source(&t->a, t->raw_a);
    if (info->operands & AGAL_OPND_B) split_source(&t->b, t->raw_b);
    if (info->operands & AGAL_OPND_S) split_sampler(&t->s, t->raw_b);
}

/* The program Flash's messages name: the slot, else the header's stage byte. */
static agal_stage slot_stage(agal_slot slot, const uint8_t *p, size_t size)
{
    if (slot == AGAL_SLOT_VERTEX || slot == AGAL_SLOT_FRAGMENT)
        return slot == AGAL_SLOT_FRAGMENT ? AGAL_FRAGMENT : AGAL_VERTEX;
    return size >= AGAL_HEADER_SIZE && p[6] == AGAL_FRAGMENT ? AGAL_FRAGMENT : AGAL_VERTEX;
}

/* A container error (token -1): id, byte offset, the number Flash's message shows. */
static agal_status container_error(agal_context *ctx, agal_stage stage, int id, long offset, long value,
                                   const char *fmt, ...)
{
    const agal_diag proto = {.flash_id = id, .token = -1, .offset = offset, .stage = stage, .value = value};
    va_list ap;
    va_start(ap, fmt);
    agal_status st = agal_vreport(ctx, &proto, fmt, ap);
    va_end(ap);
    return st;
}

/* Flash's order (docs/format.md section 5): the size first, before any field is
 * looked at (a header-only program with version 99 is 3615), then magic, version,
 * type id, shader type, and a trailing partial token. */
enum { MIN_PROGRAM = AGAL_HEADER_SIZE + AGAL_TOKEN_SIZE };

static agal_status check_container(agal_context *ctx, const uint8_t *p, size_t size, agal_stage stage, agal_slot slot,
                                   agal_program *prog)
{
    if (size == 0) return container_error(ctx, stage, 3615, 0, 0, "the program is empty");
    if (size < MIN_PROGRAM)
        return container_error(ctx, stage, 3615, 0, (long)size,
                               "program is %zu bytes, shorter than a header and one token (31 bytes)", size);
    if (p[0] != AGAL_MAGIC) return container_error(ctx, stage, 3616, 0, 0, "magic byte is 0x%02x, not 0xa0", p[0]);
    uint32_t version = agal_rd32(p + 1);
    if (version < 1 || version > 3)
        return container_error(ctx, stage, 3617, 1, 3, "version %u is not 1, 2 or 3", version);
    if (p[5] != AGAL_TYPE_ID)
        return container_error(ctx, stage, 3618, 5, 0, "shader type id is 0x%02x, not 0xa1", p[5]);
    if (p[6] > 1)
        return container_error(ctx, stage, 3619, 6, 0, "shader type %u is neither 0 (vertex) nor 1 (fragment)", p[6]);
    /* A program passed in the other slot: Flash's table has a message for each. */
    if (slot == AGAL_SLOT_VERTEX && p[6] != AGAL_VERTEX)
        return container_error(ctx, stage, 3631, 6, 0, "a fragment program passed as the vertex program");
    if (slot == AGAL_SLOT_FRAGMENT && p[6] != AGAL_FRAGMENT)
        return container_error(ctx, stage, 3630, 6, 0, "a vertex program passed as the fragment program");
    size_t body = size - AGAL_HEADER_SIZE;
    if (body % AGAL_TOKEN_SIZE)
        return container_error(ctx, stage, 3615, agal_token_offset((long)(body / AGAL_TOKEN_SIZE)), (long)size,
                               "program ends inside a token: %zu bytes after the header are not a multiple of 24",
                               body);
    prog->version = version;
    prog->stage = (agal_stage)p[6];
    return AGAL_OK;
}

agal_status agal_decode(agal_context *ctx, const void *bytes, size_t size, const agal_decode_options *opt,
                        const agal_program **out)
{
    if (!ctx || !out || (!bytes && size)) return AGAL_ERR_ARG;
    *out = NULL;
    agal_decode_options given = agal_decode_options_init();
    agal_status read = agal_options_read(ctx, &given, sizeof given, opt, "agal_decode_options");
    if (read != AGAL_OK) return read;
    opt = &given;
    const uint8_t *p = bytes;
    agal_stage stage = slot_stage(opt->slot, p, size);
    agal_program *prog = agal_zalloc(ctx, sizeof *prog);
    if (!prog) return AGAL_ERR_NOMEM;
    agal_status st = check_container(ctx, p, size, stage, opt->slot, prog);
    if (st) return st;
    prog->profile = agal_profile_of(opt->profile, prog->version);
    prog->lenient = opt->lenient;
    size_t n = (size - AGAL_HEADER_SIZE) / AGAL_TOKEN_SIZE;
    size_t limit = agal_token_limit(prog->profile);
    /* Even lenient decoding keeps a hard cap, so hostile sizes cannot make us allocate. */
    if ((!opt->lenient && n > limit) || n > AGAL_MAX_TOKENS)
        return container_error(ctx, stage, 3629, -1, (long)n, "program has %zu tokens, more than the %zu %s", n,
                               opt->lenient ? (size_t)AGAL_MAX_TOKENS : limit,
                               opt->lenient ? "lenient decoding accepts" : "its profile allows");
    agal_token *tokens = agal_alloc(ctx, n * sizeof *tokens);
    if (!tokens) return AGAL_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) split_token(&tokens[i], p + agal_token_offset((long)i));
    prog->ntokens = (uint32_t)n;
    prog->tokens = tokens;
    st = agal_validate(ctx, prog, stage);
    if (st) return st;
    *out = prog;
    return AGAL_OK;
}

uint32_t agal_encode_dest(const agal_dest *d)
{
    return (uint32_t)d->num | (uint32_t)(d->mask & 0xf) << 16 | (uint32_t)(d->type & 0xf) << 24;
}

uint64_t agal_encode_source(const agal_source *s)
{
    uint64_t w = (uint64_t)s->swizzle << 24 | (uint64_t)(s->type & 0xf) << 32;
    if (!s->indirect) return w | s->num;
    return w | s->index_num | (uint64_t)(s->num & 0xff) << 16 | (uint64_t)(s->index_type & 0xf) << 40 |
           (uint64_t)(s->index_comp & 3) << 48 | (uint64_t)1 << 63;
}

uint64_t agal_encode_sampler(const agal_sampler *s)
{
    const unsigned fields[AGAL_SMP_FIELDS] = {s->format, s->dim, s->special, s->wrap, s->mipmap, s->filter};
    uint64_t w = (uint64_t)s->num | (uint64_t)(uint8_t)s->bias << 16 | (uint64_t)AGAL_REG_SAMPLER << 32;
    for (unsigned f = 0; f < AGAL_SMP_FIELDS; f++)
        w |= (uint64_t)(fields[f] & 0xfu) << smp_shift((agal_sampler_field)f);
    return w;
}

void agal_token_encode(const agal_token *t, uint8_t out[24])
{
    const agal_opinfo *info = agal_opinfo_get((uint32_t)t->op);
    uint32_t d = 0;
    uint64_t a = 0, b = 0;
    if (info && (info->operands & AGAL_OPND_D)) d = agal_encode_dest(&t->dst);
    if (info && (info->operands & AGAL_OPND_A)) a = agal_encode_source(&t->a);
    if (info && (info->operands & AGAL_OPND_B)) b = agal_encode_source(&t->b);
    if (info && (info->operands & AGAL_OPND_S)) b = agal_encode_sampler(&t->s);
    agal_wr32(out, (uint32_t)t->op);
    agal_wr32(out + 4, d);
    agal_wr64(out + 8, a);
    agal_wr64(out + 16, b);
}
