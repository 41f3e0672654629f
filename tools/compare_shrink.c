/* compare_shrink.c: shrinking a pair that `agalrun compare` found disagreeing. */
#include "compare.h"


/* Deletes one token at a time (then pairs of tokens, for blocks) from either
 * program while the pair still validates, links and still disagrees; repeats until
 * nothing more can go. The programs live in ctx. */
void cmp_shrink(agal_context *ctx, backends *b, const options *o, const agal_program **vp, const agal_program **fp,
                uint64_t seed)
{
    bool progress = true;
    unsigned tries = 0;
    while (progress && tries < 400) {
        progress = false;
        for (int which = 0; which < 2; which++) {
            const agal_program *p = which ? *fp : *vp;
            for (uint32_t span = 1; span <= 2 && !progress; span++)
                for (uint32_t i = 0; i + span <= p->ntokens && !progress; i++) {
                    agal_token *toks = agal_alloc(ctx, sizeof *toks * (p->ntokens ? p->ntokens : 1));
                    if (!toks)
                        return;
                    uint32_t n = 0;
                    for (uint32_t k = 0; k < p->ntokens; k++)
                        if (k < i || k >= i + span)
                            toks[n++] = p->tokens[k];
                    const agal_program *q = cmp_rebuild(ctx, toks, n, p->stage, p->version, p->profile, false);
                    agal_diag_clear(ctx);
                    if (!q)
                        continue;
                    const agal_program *nv = which ? *vp : q, *nf = which ? q : *fp;
                    if (agal_link(ctx, nv, nf) != AGAL_OK) {
                        agal_diag_clear(ctx);
                        continue;
                    }
                    tries++;
                    if (cmp_run_pair(ctx, b, o, nv, nf, seed, false, NULL) == 1) {
                        *vp = nv;
                        *fp = nf;
                        progress = true;
                    }
                }
        }
    }
}
