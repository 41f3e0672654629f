/* translated.c: one translation's words or text (translated.h). */
#include "translated.h"

static agal_status translate_for(agal_context *ctx, const agal_program *prog, agal_target target,
                                 const agal_translate_options *opt, agal_shader *out)
{
    agal_translate_options o = agal_translate_options_init();
    if (opt) o = *opt;
    o.size = sizeof o;
    o.target = target;
    *out = agal_shader_init();
    return agal_translate(ctx, prog, &o, out);
}

agal_status tool_translate_words(agal_context *ctx, const agal_program *prog, const agal_translate_options *opt,
                                 const uint32_t **words, size_t *nwords)
{
    agal_shader sh;
    agal_status st = translate_for(ctx, prog, AGAL_TARGET_SPIRV, opt, &sh);
    if (st == AGAL_OK) *words = sh.words, *nwords = sh.nwords;
    return st;
}

agal_status tool_translate_text(agal_context *ctx, const agal_program *prog, agal_target target,
                                const agal_translate_options *opt, const char **text, size_t *len)
{
    agal_shader sh;
    agal_status st = translate_for(ctx, prog, target, opt, &sh);
    if (st == AGAL_OK) {
        *text = sh.text;
        if (len) *len = sh.len;
    }
    return st;
}
