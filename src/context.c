/* context.c: the context, its arena and its diagnostics.
 *
 * Every allocation of the library comes from the context's arena: a list of blocks
 * from the caller's allocator hook, bumped and never freed one by one. Reset frees
 * all blocks but the largest, so a context reused for many translations settles
 * into no hook calls per translation. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

struct arena_block {
    arena_block *next;
    size_t size, used;
    max_align_t data[];
};

enum { ARENA_MIN_BLOCK = 32 * 1024 };

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud; (void)osize;
    if (nsize == 0) { free(ptr); return NULL; }
    return realloc(ptr, nsize);
}

agal_context *agal_context_new(agal_alloc_fn alloc, void *ud)
{
    if (!alloc) alloc = default_alloc;
    agal_context *ctx = alloc(ud, NULL, 0, sizeof *ctx);
    if (!ctx) return NULL;
    memset(ctx, 0, sizeof *ctx);
    ctx->alloc = alloc;
    ctx->ud = ud;
    return ctx;
}

static void free_blocks(agal_context *ctx, arena_block *b, arena_block *stop)
{
    while (b != stop) {
        arena_block *next = b->next;
        ctx->alloc(ctx->ud, b, sizeof *b + b->size, 0);
        b = next;
    }
}

void agal_context_free(agal_context *ctx)
{
    if (!ctx) return;
    free_blocks(ctx, ctx->blocks, NULL);
    ctx->alloc(ctx->ud, ctx, sizeof *ctx, 0);
}

void agal_context_reset(agal_context *ctx)
{
    /* Keep the largest block: a context reused for programs of one size then makes
     * no hook calls at all. */
    arena_block *keep = ctx->blocks;
    for (arena_block *b = ctx->blocks; b; b = b->next)
        if (b->size > keep->size) keep = b;
    arena_block *b = ctx->blocks;
    while (b) {
        arena_block *next = b->next;
        if (b != keep) ctx->alloc(ctx->ud, b, sizeof *b + b->size, 0);
        b = next;
    }
    ctx->blocks = keep;
    if (keep) { keep->used = 0; keep->next = NULL; }
    ctx->last = NULL;
    ctx->last_size = 0;
    ctx->diags = NULL;
    ctx->ndiags = ctx->diag_cap = 0;
}

static size_t align_up(size_t size) { return (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1); }

/* A new block for at least `size` bytes. Blocks grow with half the bytes already
 * held (not by doubling the last), so the arena stays within about 1.5x of what a
 * translation uses while big inputs still take few hook calls. */
static arena_block *new_block(agal_context *ctx, size_t size)
{
    size_t held = 0;
    for (arena_block *b = ctx->blocks; b; b = b->next) held += b->size;
    size_t want = size > ARENA_MIN_BLOCK ? size : ARENA_MIN_BLOCK;
    if (want < held / 2 && held / 2 <= (size_t)64 << 20) want = held / 2;
    if (want > SIZE_MAX - sizeof(arena_block)) return NULL;
    arena_block *nb = ctx->alloc(ctx->ud, NULL, 0, sizeof *nb + want);
    if (!nb) return NULL;
    nb->size = want;
    nb->used = 0;
    nb->next = ctx->blocks;
    ctx->blocks = nb;
    return nb;
}

void *agal_alloc(agal_context *ctx, size_t size)
{
    size = align_up(size);
    arena_block *b = ctx->blocks;
    if (!b || b->size - b->used < size) b = new_block(ctx, size);
    if (!b) return NULL;
    void *p = (char *)b->data + b->used;
    b->used += size;
    ctx->last = p;
    ctx->last_size = size;
    return p;
}

void *agal_zalloc(agal_context *ctx, size_t size)
{
    void *p = agal_alloc(ctx, size);
    if (p) memset(p, 0, size);
    return p;
}

void *agal_grow(agal_context *ctx, void *old, size_t n, size_t cap, size_t elem)
{
    if (elem && cap > SIZE_MAX / elem) return NULL;
    size_t size = align_up(cap * elem);
    arena_block *b = ctx->blocks;
    /* The newest allocation is at the end of the newest block: extend it there. */
    if (old && old == ctx->last && b && size >= ctx->last_size && b->size - b->used >= size - ctx->last_size) {
        b->used += size - ctx->last_size;
        ctx->last_size = size;
        return old;
    }
    void *p = agal_alloc(ctx, cap * elem);
    if (p && n) memcpy(p, old, n * elem);
    return p;
}

agal_arena_mark agal_arena_save(const agal_context *ctx)
{
    return (agal_arena_mark){ctx->blocks, ctx->blocks ? ctx->blocks->used : 0, ctx->last, ctx->last_size};
}

void agal_arena_restore(agal_context *ctx, agal_arena_mark m)
{
    free_blocks(ctx, ctx->blocks, m.block);
    ctx->blocks = m.block;
    if (m.block) m.block->used = m.used;
    ctx->last = m.last;
    ctx->last_size = m.last_size;
}

char *agal_strdup(agal_context *ctx, const char *s, size_t len)
{
    char *p = agal_alloc(ctx, len + 1);
    if (!p) return NULL;
    memcpy(p, s, len);
    p[len] = 0;
    return p;
}

char *agal_vsprintf(agal_context *ctx, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0) return NULL;
    char *p = agal_alloc(ctx, (size_t)n + 1);
    if (p) vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *agal_sprintf(agal_context *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = agal_vsprintf(ctx, fmt, ap);
    va_end(ap);
    return p;
}

void agal_sb_putn(agal_strbuf *b, const char *s, size_t len)
{
    if (b->dry || b->oom) return;
    if (b->n + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->n + len + 1) cap *= 2;
        char *p = agal_grow(b->ctx, b->p, b->n, cap, 1);
        if (!p) { b->oom = true; return; }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, len);
    b->n += len;
    b->p[b->n] = 0;
}

void agal_sb_put(agal_strbuf *b, const char *s) { agal_sb_putn(b, s, strlen(s)); }

void agal_sb_printf(agal_strbuf *b, const char *fmt, ...)
{
    if (b->dry || b->oom) return; /* formatting is most of a dry run's cost */
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof tmp) { agal_sb_putn(b, tmp, (size_t)n); return; }
    va_start(ap, fmt);
    char *s = agal_vsprintf(b->ctx, fmt, ap); /* rare: longer than the stack buffer */
    va_end(ap);
    if (s) agal_sb_putn(b, s, (size_t)n);
    else b->oom = true;
}

agal_status agal_error(agal_context *ctx, int flash_id, int token, long offset,
                       const char *opname, const char *fmt, ...)
{
    if (ctx->ndiags == ctx->diag_cap) {
        size_t cap = ctx->diag_cap ? ctx->diag_cap * 2 : 8;
        agal_diag *d = agal_grow(ctx, ctx->diags, ctx->ndiags, cap, sizeof *d);
        if (!d) return AGAL_ERR_NOMEM;
        ctx->diags = d;
        ctx->diag_cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    char *msg = agal_vsprintf(ctx, fmt, ap);
    va_end(ap);
    if (!msg) return AGAL_ERR_NOMEM;
    ctx->diags[ctx->ndiags++] = (agal_diag){flash_id, token, offset, opname, msg};
    return AGAL_ERR_INVALID;
}

size_t agal_diag_count(const agal_context *ctx) { return ctx->ndiags; }

const agal_diag *agal_diag_get(const agal_context *ctx, size_t i)
{
    return i < ctx->ndiags ? &ctx->diags[i] : NULL;
}

void agal_diag_clear(agal_context *ctx) { ctx->ndiags = 0; }

int agal_diag_format(const agal_diag *d, const char *file, char *buf, size_t size)
{
    char where[64] = "";
    if (d->token >= 0)
        snprintf(where, sizeof where, d->opname ? "token %d (%s): " : "token %d: ", d->token, d->opname);
    char id[24] = "error: ";
    if (d->flash_id) snprintf(id, sizeof id, "error %d: ", d->flash_id);
    return snprintf(buf, size, "%s%s%s%s%s", file ? file : "", file ? ": " : "", where, id, d->message);
}
