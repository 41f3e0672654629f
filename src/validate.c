/* validate.c: placeholder while the full validator is written (replaced shortly). */
#include "internal.h"

agal_status agal_validate(agal_context *ctx, agal_program *prog)
{
    for (uint32_t i = 0; i < prog->ntokens; i++)
        if (!agal_opinfo_get(prog->tokens[i].raw_op))
            return agal_error(ctx, 3620, (int)i, 7 + 24L * i, NULL, "unknown opcode 0x%x", prog->tokens[i].raw_op);
    return AGAL_OK;
}

agal_status agal_link(agal_context *ctx, const agal_program *vertex, const agal_program *fragment)
{
    (void)ctx; (void)vertex; (void)fragment;
    return AGAL_OK;
}
