/* names.c: the names a GLSL-family text declares (agal_names, agal.h): the host's,
 * checked to be GLSL identifiers, and ours where it gives none. In the core, below
 * the emitters and the driver that both read them. */
#include "internal.h"

/* A GLSL identifier of at most 63 characters, not one of GLSL's reserved gl_ names. */
static bool identifier(const char *s)
{
    size_t n = 0;
    for (; s[n] && n < 64; n++) {
        char c = s[n];
        bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!letter && !(n && c >= '0' && c <= '9')) return false;
    }
    return n > 0 && n < 64 && strncmp(s, "gl_", 3) != 0;
}

static agal_status name(agal_context *ctx, const char *given, const char *ours, const char **out)
{
    *out = given ? given : ours;
    if (!given || identifier(given)) return AGAL_OK; /* ours are identifiers */
    agal_error(ctx, 0, -1, -1, NULL, "agal_names: \"%.64s\" is no GLSL identifier of at most 63 characters", *out);
    return AGAL_ERR_ARG;
}

/* Ours, all of them: what nearly every translation asks for (no agal_names given).
 * The registers' spellings read from their table: each is its stage's own. */
static void ours(agal_names *out)
{
    const agal_reg_spelling(*sp)[AGAL_REG_TYPES] = agal_reg_spellings;
    *out = (agal_names){.constants = {sp[AGAL_VERTEX][AGAL_REG_CONSTANT].s, sp[AGAL_FRAGMENT][AGAL_REG_CONSTANT].s},
                        .blocks = {AGAL_GLSL_VC_BLOCK, AGAL_GLSL_FC_BLOCK},
                        .sampler = sp[AGAL_FRAGMENT][AGAL_REG_SAMPLER].s,
                        .attribute = sp[AGAL_VERTEX][AGAL_REG_ATTRIBUTE].s,
                        .varying = sp[AGAL_VERTEX][AGAL_REG_VARYING].s,
                        .yflip = AGAL_GLSL_YFLIP};
}

agal_status agal_names_resolve(agal_context *ctx, const agal_names *given, agal_names *out)
{
    agal_names our;
    ours(&our);
    if (!given) {
        *out = our;
        return AGAL_OK;
    }
    agal_status st = AGAL_OK;
    agal_fail(&st, name(ctx, given->constants[0], our.constants[0], &out->constants[0]));
    agal_fail(&st, name(ctx, given->constants[1], our.constants[1], &out->constants[1]));
    agal_fail(&st, name(ctx, given->blocks[0], our.blocks[0], &out->blocks[0]));
    agal_fail(&st, name(ctx, given->blocks[1], our.blocks[1], &out->blocks[1]));
    agal_fail(&st, name(ctx, given->sampler, our.sampler, &out->sampler));
    agal_fail(&st, name(ctx, given->attribute, our.attribute, &out->attribute));
    agal_fail(&st, name(ctx, given->varying, our.varying, &out->varying));
    agal_fail(&st, name(ctx, given->yflip, our.yflip, &out->yflip));
    out->yflip_component = given->yflip ? given->yflip_component : 0;
    if (out->yflip_component && !strchr("xyzw", out->yflip_component))
        agal_fail(&st, agal_error(ctx, 0, -1, -1, NULL, "agal_names: yflip_component is not 0, 'x', 'y', 'z' or 'w'"));
    return st == AGAL_ERR_INVALID ? AGAL_ERR_ARG : st;
}
