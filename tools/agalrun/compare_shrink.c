/* compare_shrink.c: shrinking a pair that `agalrun compare` found disagreeing. */
#include "compare.h"

/* Rounds of shrinking with the browser: each is one browser run of every candidate
 * (seconds), so a browser failure is shrunk by at most this many tokens. */
enum { WEB_ROUNDS = 12 };

typedef struct candidate {
    const agal_program *vp, *fp;
} candidate;

/* Every pair one deletion away (one token, then two adjacent ones for blocks, of
 * the vertex program first) that still validates and links, in the order they are
 * tried; returns how many, at most max. */
static unsigned candidates(agal_context *ctx, const agal_program *vp, const agal_program *fp, candidate *out,
                           unsigned max)
{
    unsigned n = 0;
    for (int which = 0; which < 2; which++) {
        const agal_program *p = which ? fp : vp;
        for (uint32_t span = 1; span <= 2; span++)
            for (uint32_t i = 0; i + span <= p->ntokens && n < max; i++) {
                agal_token *toks = agal_alloc(ctx, sizeof *toks * (p->ntokens ? p->ntokens : 1));
                if (!toks) return n;
                uint32_t k = 0;
                for (uint32_t t = 0; t < p->ntokens; t++)
                    if (t < i || t >= i + span) toks[k++] = p->tokens[t];
                const agal_program *q = cmp_rebuild(ctx, toks, k, p->stage, p->version, p->profile, false);
                agal_diag_clear(ctx);
                if (!q) continue;
                candidate c = {which ? vp : q, which ? q : fp};
                if (agal_link(ctx, c.vp, c.fp) != AGAL_OK) {
                    agal_diag_clear(ctx);
                    continue;
                }
                out[n++] = c;
            }
    }
    return n;
}

/* Deletes one token at a time (then pairs of tokens, for blocks) from either
 * program while the pair still validates, links and still disagrees: each round
 * takes the first candidate that disagrees, until none does. With the browser, a
 * round's candidates are recorded and drawn in one browser run first
 * (compare_webgl.c). The programs live in ctx. */
void cmp_shrink(agal_context *ctx, backends *b, const options *o, const agal_program **vp, const agal_program **fp,
                uint64_t seed)
{
    enum { MAX_CANDIDATES = 4 * GEN_MAX_TOKENS };
    candidate *list = agal_alloc(ctx, MAX_CANDIDATES * sizeof *list);
    bool progress = true;
    unsigned tries = 0;
    for (unsigned round = 0; list && progress && tries < 400 && (!b->web || round < WEB_ROUNDS); round++) {
        progress = false;
        unsigned n = candidates(ctx, *vp, *fp, list, MAX_CANDIDATES);
        if (b->web) {
            cmp_web_record(b->web);
            for (unsigned i = 0; i < n; i++) cmp_run_pair(ctx, b, o, list[i].vp, list[i].fp, seed, false, NULL);
            cmp_web_replay(b->web);
        }
        for (unsigned i = 0; i < n && !progress; i++) {
            tries++;
            if (cmp_run_pair(ctx, b, o, list[i].vp, list[i].fp, seed, false, NULL) == 1) {
                *vp = list[i].vp;
                *fp = list[i].fp;
                progress = true;
            }
        }
    }
}
