/* context.c: the context, its arena and its diagnostics.
 *
 * Every allocation of the library comes from the context's arena, never freed one
 * by one. Small allocations are bumped out of the newest bump block; a large one
 * gets a block of its own, so growing it resizes just that block (no outgrown
 * copy stays behind, no bump block's room is stranded). Reset keeps the blocks as
 * spares, taken first-fit in the order they were made: the same work again (a
 * program translated before) takes back its own blocks one by one and makes no
 * hook call, with the same footprint, and touches no page it has not touched
 * before (a block given back and asked for again is fresh memory to the kernel:
 * a page fault for every page, the largest cost of a large translation). */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct arena_block {
    arena_block *next;
    size_t size, used;
    max_align_t data[];
};

/* Sized so that a corpus program's translation (context, IR, module) fits one bump
 * block, and a 200-token one's bump allocations do too. */
enum { ARENA_MIN_BLOCK = 16 * 1024 };

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    (void)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
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

/* Frees the blocks of *list. */
static void free_blocks(agal_context *ctx, arena_block **list)
{
    while (*list) {
        arena_block *b = *list;
        *list = b->next;
        ctx->alloc(ctx->ud, b, sizeof *b + b->size, 0);
    }
}

void agal_context_free(agal_context *ctx)
{
    if (!ctx) return;
    free_blocks(ctx, &ctx->blocks);
    free_blocks(ctx, &ctx->large);
    free_blocks(ctx, &ctx->spare_blocks);
    free_blocks(ctx, &ctx->spare_large);
    ctx->alloc(ctx->ud, ctx, sizeof *ctx, 0);
}

static arena_block *hook_block(agal_context *ctx, size_t size)
{
    if (size > SIZE_MAX - sizeof(arena_block)) return NULL;
    arena_block *b = ctx->alloc(ctx->ud, NULL, 0, sizeof *b + size);
    if (b) b->size = size, b->used = 0;
    return b;
}

static void push_block(arena_block **list, size_t *count, arena_block *b)
{
    b->next = *list;
    *list = b;
    (*count)++;
}

/* Bytes held by the blocks of a list. */
static size_t held_by(const arena_block *b)
{
    size_t held = 0;
    for (; b; b = b->next) held += b->size;
    return held;
}

/* The list in the other order (made newest first, spared oldest first). */
static arena_block *reversed(arena_block *b)
{
    arena_block *r = NULL;
    while (b) {
        arena_block *next = b->next;
        b->next = r;
        r = b;
        b = next;
    }
    return r;
}

/* The blocks of list, in order, that fit in *budget (which they use up); the
 * others are freed. */
static arena_block *kept_within(agal_context *ctx, arena_block *list, size_t *budget)
{
    arena_block *kept = NULL, **tail = &kept;
    while (list) {
        arena_block *b = list;
        list = b->next;
        if (b->size <= *budget) {
            *budget -= b->size;
            *tail = b;
            tail = &b->next;
        } else {
            ctx->alloc(ctx->ud, b, sizeof *b + b->size, 0);
        }
    }
    *tail = NULL;
    return kept;
}

/* List a, then list b. */
static arena_block *joined(arena_block *a, arena_block *b)
{
    arena_block **tail = &a;
    while (*tail) tail = &(*tail)->next;
    *tail = b;
    return a;
}

void agal_context_reset(agal_context *ctx)
{
    /* This work's blocks become the spares, oldest first, followed by the spares it
     * did not take (an emulator that alternates programs keeps the blocks of
     * both); past AGAL_ARENA_KEEP_MAX, the spares it did not take go first. */
    size_t budget = AGAL_ARENA_KEEP_MAX;
    arena_block *bump = kept_within(ctx, reversed(ctx->blocks), &budget);
    arena_block *large = kept_within(ctx, reversed(ctx->large), &budget);
    ctx->spare_blocks = joined(bump, kept_within(ctx, ctx->spare_blocks, &budget));
    ctx->spare_large = joined(large, kept_within(ctx, ctx->spare_large, &budget));
    ctx->blocks = ctx->large = NULL;
    ctx->nblocks = ctx->nlarge = 0;
    ctx->last = NULL;
    ctx->last_size = 0;
    ctx->diags = NULL;
    ctx->ndiags = ctx->diag_cap = 0;
}

/* Every allocation is aligned for any type (16 bytes on x86-64; sizeof(max_align_t)
 * is 32 there, which would round every allocation up to 32). */
enum { ARENA_ALIGN = _Alignof(max_align_t) };
static size_t align_up(size_t size) { return (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1); }

/* The first spare of *list that holds size bytes, taken off the list (the same
 * work again finds its own block first), or a new block from the hook. */
static arena_block *spare_or_new(agal_context *ctx, arena_block **list, size_t size)
{
    for (arena_block **pp = list; *pp; pp = &(*pp)->next) {
        arena_block *b = *pp;
        if (b->size < size) continue;
        *pp = b->next;
        b->used = 0;
        return b;
    }
    return hook_block(ctx, size);
}

/* A new bump block for at least `size` bytes: the first of ARENA_MIN_BLOCK, later
 * ones of half the bytes the bump blocks already hold (not double the last), so a
 * translation that just overflows its first block adds a small one, the arena
 * stays within about 1.5x of what a translation uses, and big inputs still take
 * few hook calls. */
static arena_block *new_block(agal_context *ctx, size_t size)
{
    size_t held = held_by(ctx->blocks);
    size_t want = held ? held / 2 : ARENA_MIN_BLOCK;
    if (want > (size_t)64 << 20) want = (size_t)64 << 20;
    if (want < size) want = size;
    arena_block *nb = spare_or_new(ctx, &ctx->spare_blocks, want);
    if (nb) push_block(&ctx->blocks, &ctx->nblocks, nb);
    return nb;
}

/* A block holding just this allocation. The bump block stays the newest, and so
 * does its last allocation. */
static void *large_alloc(agal_context *ctx, size_t size)
{
    arena_block *b = spare_or_new(ctx, &ctx->spare_large, size);
    if (!b) return NULL;
    b->used = size;
    push_block(&ctx->large, &ctx->nlarge, b);
    return b->data;
}

void *agal_alloc(agal_context *ctx, size_t size)
{
    if (size > SIZE_MAX - ARENA_ALIGN) return NULL;
    size = align_up(size);
    /* A large allocation is usually an array that grows: in a block of its own it
     * grows in place, and never strands the bump block's room behind a copy. */
    if (size >= AGAL_ARENA_LARGE || ctx->every_alloc) return large_alloc(ctx, size);
    arena_block *b = ctx->blocks;
    if (!b || b->size - b->used < size) {
        b = new_block(ctx, size);
        if (!b) return NULL;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    ctx->last = p;
    ctx->last_size = size;
    return p;
}

void agal_context_hook_every_alloc(agal_context *ctx, bool on) { ctx->every_alloc = on; }

void *agal_zalloc(agal_context *ctx, size_t size)
{
    void *p = agal_alloc(ctx, size);
    if (p) memset(p, 0, size);
    return p;
}

/* Resizes the large block whose allocation is old: within the block when it has
 * room, else through the hook. NULL when old is not one (or the hook fails, and
 * then old stays as it was). */
static void *large_resize(agal_context *ctx, void *old, size_t size, bool *found)
{
    for (arena_block **pp = &ctx->large; *pp; pp = &(*pp)->next) {
        arena_block *b = *pp;
        if ((void *)b->data != old) continue;
        *found = true;
        if (size <= b->size) {
            b->used = size;
            return old;
        }
        arena_block *nb = ctx->alloc(ctx->ud, b, sizeof *b + b->size, sizeof *b + size);
        if (!nb) return NULL;
        nb->size = nb->used = size;
        *pp = nb;
        return nb->data;
    }
    return NULL;
}

void *agal_grow(agal_context *ctx, void *old, size_t n, size_t cap, size_t elem)
{
    if (elem && cap > (SIZE_MAX - ARENA_ALIGN - sizeof(arena_block)) / elem) return NULL;
    size_t size = align_up(cap * elem);
    arena_block *b = ctx->blocks;
    /* The newest bump allocation is at the end of the bump block: extend it there. */
    if (old && old == ctx->last && b && size >= ctx->last_size && b->size - b->used >= size - ctx->last_size) {
        b->used += size - ctx->last_size;
        ctx->last_size = size;
        return old;
    }
    bool found = false;
    if (old && old != ctx->last) {
        void *p = large_resize(ctx, old, size, &found);
        if (found) return p;
    }
    void *p = agal_alloc(ctx, size);
    if (p && n) memcpy(p, old, n * elem);
    return p;
}

agal_arena_mark agal_arena_save(const agal_context *ctx)
{
    return (agal_arena_mark){ctx->nblocks, ctx->nlarge, ctx->blocks ? ctx->blocks->used : 0, ctx->last, ctx->last_size};
}

/* Moves the first n blocks of *from to the front of *to. */
static void spare_blocks(arena_block **from, size_t n, arena_block **to)
{
    while (n-- && *from) {
        arena_block *b = *from;
        *from = b->next;
        b->next = *to;
        *to = b;
    }
}

/* Blocks are counted, not pointed at: a large block made before the mark may have
 * been resized (moved) since. The blocks made since become spares, which the work
 * after the restore takes first: a pass's scratch costs hook calls once. */
void agal_arena_restore(agal_context *ctx, agal_arena_mark m)
{
    spare_blocks(&ctx->blocks, ctx->nblocks - m.nblocks, &ctx->spare_blocks);
    spare_blocks(&ctx->large, ctx->nlarge - m.nlarge, &ctx->spare_large);
    ctx->nblocks = m.nblocks;
    ctx->nlarge = m.nlarge;
    if (ctx->blocks) ctx->blocks->used = m.used;
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

bool agal_sb_reserve(agal_strbuf *b, size_t len)
{
    if (!b->err && len < b->cap - b->n) return true;
    agal_sb_putn_grow(b, "", 0); /* makes the first block: b->p exists from here on */
    if (b->err) return false;
    size_t cap = b->cap;
    while (cap < b->n + len + 1) cap *= 2;
    if (cap == b->cap) return true;
    char *p = agal_grow(b->ctx, b->p, b->n, cap, 1);
    if (!p) {
        agal_fail(&b->err, AGAL_ERR_NOMEM);
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

void agal_sb_putn_grow(agal_strbuf *b, const char *s, size_t len)
{
    if (b->err) return;
    if (b->n + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->n + len + 1) cap *= 2;
        char *p = agal_grow(b->ctx, b->p, b->n, cap, 1);
        if (!p) {
            agal_fail(&b->err, AGAL_ERR_NOMEM);
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, len);
    b->n += len;
    b->p[b->n] = 0;
}

void agal_sb_uint(agal_strbuf *b, unsigned v)
{
    if (v < 10) { /* register, temporary and token numbers: mostly short */
        agal_sb_putc(b, (char)('0' + v));
        return;
    }
    char rev[16];
    size_t n = 0;
    do rev[sizeof rev - ++n] = (char)('0' + v % 10);
    while (v /= 10);
    agal_sb_putn(b, rev + sizeof rev - n, n);
}

/* ---- reading numbers, in any locale ------------------------------------------------- */

static size_t digits_at(const char *p, const char *end)
{
    const char *q = p;
    while (q < end && *q >= '0' && *q <= '9') q++;
    return (size_t)(q - p);
}

/* The double nearest to a decimal [+-] digits [. digits] [e [+-] digits] (the
 * syntax checked by the caller), as ActionScript's Number() and JavaScript's
 * parseFloat and parseInt give it. Up to 15 significant digits and a power of ten
 * up to 22 are exact doubles, so one correctly rounded multiply or divide gives
 * it; otherwise strtod on the digits and a decimal exponent (no point, so the
 * locale does not matter). Past 780 significant digits, more than any halfway
 * point between doubles has, one nonzero digit stands for the rest. */
double agal_decimal_value(const char *s, size_t n)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    enum { MAXDIG = 780 };
    char buf[MAXDIG + 32];
    size_t i = 0, k = 0;
    if (n && (s[0] == '+' || s[0] == '-')) i++;
    bool neg = n && s[0] == '-';
    buf[k++] = neg ? '-' : '+';
    uint64_t m = 0;
    int sig = 0;
    long e = 0;
    bool frac = false, sticky = false;
    for (; i < n && s[i] != 'e' && s[i] != 'E'; i++) {
        if (s[i] == '.') {
            frac = true;
            continue;
        }
        if (sig == 0 && s[i] == '0') {
            if (frac) e--;
            continue;
        }
        if (sig < MAXDIG) {
            if (sig < 18) m = m * 10 + (uint64_t)(s[i] - '0');
            buf[k++] = s[i];
            sig++;
            if (frac) e--;
        } else {
            sticky |= s[i] != '0';
            if (!frac) e++;
        }
    }
    if (sticky) {
        buf[k++] = '1';
        e--;
    }
    long x = 0;
    if (i < n) {
        bool xneg = s[++i] == '-';
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        for (; i < n; i++) x = x < 100000 ? x * 10 + (s[i] - '0') : x;
        if (xneg) x = -x;
    }
    long p = e + x;
    if (sig == 0) return neg ? -0.0 : 0.0;
    if (sig <= 15 && p >= -22 && p <= 22) {
        double v = p >= 0 ? (double)m * pow10[p] : (double)m / pow10[-p];
        return neg ? -v : v;
    }
    snprintf(buf + k, sizeof buf - k, "e%ld", p);
    return strtod(buf, NULL);
}

/* The longest prefix of [s, s+n) that is [+-] digits [. digits] [e [+-] digits]
 * (or [+-] . digits ...), as JavaScript's parseFloat reads it; 0 when none. */
size_t agal_decimal_prefix(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    digits += digits_at(s + i, s + n);
    i += digits;
    if (i < n && s[i] == '.') {
        size_t d = digits_at(s + i + 1, s + n);
        if (digits || d) i += 1 + d;
        digits += d;
    }
    if (!digits) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-')) j++;
        size_t d = digits_at(s + j, s + n);
        if (d) i = j + d;
    }
    return i;
}

/* ---- writing numbers, in any locale ------------------------------------------------- */

/* The integer nearest to y (0 <= y < 2^53, its fraction exact), ties to even as
 * printf rounds an exact tie. */
static uint64_t round_half_even(double y)
{
    uint64_t i = (uint64_t)y;
    double frac = y - (double)i;
    if (frac > 0.5 || (frac == 0.5 && (i & 1))) i++;
    return i;
}

/* |v| (not 0) rounded to `precision` significant digits, as digits * 10^(*x -
 * precision + 1) with 10^(precision-1) <= digits < 10^precision, for the decimal
 * exponents %g writes without 'e' (-4 <= *x < precision); false outside them.
 * Exact for a float's value: its 24-bit significand times 5^k (k <= 12, 28 bits)
 * is a double, so neither the comparisons nor the scaling round. */
static bool scaled_digits(double a, int precision, int *x, uint64_t *digits)
{
    static const double pow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12};
    int e = 0; /* floor(log10(a)), or -5 for anything below 10^-4 */
    if (a >= 1.0)
        while (e < precision && a >= pow10[e + 1]) e++;
    else
        while (e > -5 && a * pow10[1 - e] < 10.0) e--;
    if (e < -4 || e >= precision) return false;
    uint64_t n = round_half_even(a * pow10[precision - 1 - e]);
    if (n == (uint64_t)pow10[precision]) { /* rounded up to the next power of ten */
        e++;
        n /= 10;
    }
    *x = e;
    *digits = n;
    return e < precision;
}

/* "%.*g" of a float's value in fixed notation, without snprintf (the GLSL and WGSL
 * emitters write every constant through here): its length, or 0 where the value
 * or precision is not one it writes (then snprintf does). */
static size_t format_fixed(char *buf, size_t size, double v, int precision)
{
    bool neg = signbit(v);
    double a = neg ? -v : v;
    /* 1e10: past any exponent written without 'e' (and within a float's range) */
    if (precision < 1 || precision > 9 || size < 24 || !(a < 1e10) || (double)(float)a != a) return 0;
    size_t n = 0;
    if (neg) buf[n++] = '-';
    if (a == 0) {
        buf[n++] = '0';
        buf[n] = 0;
        return n;
    }
    int x;
    uint64_t digits;
    if (!scaled_digits(a, precision, &x, &digits)) return 0;
    char d[9];
    for (int i = precision - 1; i >= 0; i--, digits /= 10) d[i] = (char)('0' + digits % 10);
    int last = precision - 1; /* %g drops trailing zeros of the fraction, and a bare point */
    while (last > 0 && last > x && d[last] == '0') last--;
    if (x < 0) {
        buf[n++] = '0', buf[n++] = '.';
        for (int i = -1; i > x; i--) buf[n++] = '0';
    }
    for (int i = 0; i <= last; i++) {
        if (i == x + 1 && x >= 0) buf[n++] = '.';
        buf[n++] = d[i];
    }
    buf[n] = 0;
    return n;
}

/* snprintf writes the locale's decimal point, which may be a comma or a character
 * of several bytes; "%g" writes nothing else but digits, sign, 'e', "inf" and
 * "nan". So whatever else it wrote is the point, and becomes '.' (no locale
 * query: localeconv is not thread-safe). */
size_t agal_format_number(char *buf, size_t size, double v, int precision)
{
    size_t fixed = format_fixed(buf, size, v, precision);
    if (fixed) return fixed;
    char tmp[64];
    int n = snprintf(tmp, sizeof tmp, "%.*g", precision, v);
    if (n < 0 || (size_t)n >= sizeof tmp) n = 0;
    size_t k = 0;
    bool point = false;
    for (int i = 0; i < n && k + 1 < size; i++) {
        char c = tmp[i];
        bool plain = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e' || c == 'E' || c == 'i' || c == 'n' ||
                     c == 'f' || c == 'a' || c == 'I' || c == 'N' || c == 'F' || c == 'A';
        if (plain) {
            buf[k++] = c;
            point = false;
        } else if (!point) { /* the first byte of the point; the rest of it is dropped */
            buf[k++] = '.';
            point = true;
        }
    }
    if (size) buf[k] = 0;
    return k;
}

void agal_sb_number(agal_strbuf *b, double v, int precision)
{
    char t[64];
    agal_sb_putn(b, t, agal_format_number(t, sizeof t, v, precision));
}

void agal_sb_printf(agal_strbuf *b, const char *fmt, ...)
{
    if (b->err) return;
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof tmp) {
        agal_sb_putn(b, tmp, (size_t)n);
        return;
    }
    va_start(ap, fmt);
    char *s = agal_vsprintf(b->ctx, fmt, ap); /* rare: longer than the stack buffer */
    va_end(ap);
    if (s) agal_sb_putn(b, s, (size_t)n);
    else agal_fail(&b->err, AGAL_ERR_NOMEM);
}

agal_status agal_vreport(agal_context *ctx, const agal_diag *proto, const char *fmt, va_list ap)
{
    if (ctx->ndiags == ctx->diag_cap) {
        size_t cap = ctx->diag_cap ? ctx->diag_cap * 2 : 8;
        agal_diag *d = agal_grow(ctx, ctx->diags, ctx->ndiags, cap, sizeof *d);
        if (!d) return AGAL_ERR_NOMEM;
        ctx->diags = d;
        ctx->diag_cap = cap;
    }
    char *msg = agal_vsprintf(ctx, fmt, ap);
    if (!msg) return AGAL_ERR_NOMEM;
    agal_diag *d = &ctx->diags[ctx->ndiags++];
    *d = *proto;
    d->message = msg;
    return AGAL_ERR_INVALID;
}

agal_status agal_report(agal_context *ctx, const agal_diag *proto, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    agal_status st = agal_vreport(ctx, proto, fmt, ap);
    va_end(ap);
    return st;
}

agal_status agal_error(agal_context *ctx, int flash_id, int token, long offset, const char *opname, const char *fmt,
                       ...)
{
    const agal_diag proto = {.flash_id = flash_id, .token = token, .offset = offset, .opname = opname};
    va_list ap;
    va_start(ap, fmt);
    agal_status st = agal_vreport(ctx, &proto, fmt, ap);
    va_end(ap);
    return st;
}

size_t agal_diag_count(const agal_context *ctx) { return ctx->ndiags; }

const agal_diag *agal_diag_get(const agal_context *ctx, size_t i) { return i < ctx->ndiags ? &ctx->diags[i] : NULL; }

void agal_diag_clear(agal_context *ctx) { ctx->ndiags = 0; }

int agal_diag_format(const agal_diag *d, const char *file, char *buf, size_t size)
{
    char where[64] = "";
    if (d->token >= 0) /* people count tokens from 1, as Flash's messages do */
        snprintf(where, sizeof where, d->opname ? "token %d (%s): " : "token %d: ", d->token + 1, d->opname);
    char id[24] = "error: ";
    if (d->warning) snprintf(id, sizeof id, "warning: ");
    else if (d->flash_id) snprintf(id, sizeof id, "error %d: ", d->flash_id);
    return snprintf(buf, size, "%s%s%s%s%s", file ? file : "", file ? ": " : "", where, id, d->message);
}

/* ---- structs that grow (agal.h, "Growing without breaking the ABI") ------------- */

/* No struct of the API is near this; a size past it is not a size. */
enum { ABI_MAX_STRUCT = 1 << 16 };

static agal_status bad_size(agal_context *ctx, uint32_t size, const char *what)
{
    agal_error(ctx, 0, -1, -1, NULL, "%s.size is %u: set it with the struct's _INIT macro (or to its sizeof)", what,
               (unsigned)size);
    return AGAL_ERR_ARG;
}

agal_status agal_result_check(agal_context *ctx, uint32_t size, const char *what)
{
    return size < sizeof(uint32_t) || size > ABI_MAX_STRUCT ? bad_size(ctx, size, what) : AGAL_OK;
}

agal_status agal_options_read(agal_context *ctx, void *dst, size_t dst_size, const void *src, const char *what)
{
    uint32_t size = (uint32_t)dst_size;
    if (src) {
        memcpy(&size, src, sizeof size);
        agal_status st = agal_result_check(ctx, size, what);
        if (st != AGAL_OK) return st;
        for (size_t i = dst_size; i < size; i++) {
            if (((const unsigned char *)src)[i] == 0) continue;
            agal_error(ctx, 0, -1, -1, NULL, "%s sets a field past the %u bytes version %s knows", what,
                       (unsigned)dst_size, AGAL_VERSION);
            return AGAL_ERR_UNSUPPORTED;
        }
        memcpy(dst, src, size < dst_size ? size : dst_size);
    }
    size = (uint32_t)dst_size;
    memcpy(dst, &size, sizeof size);
    return AGAL_OK;
}

void agal_result_write(void *out, const void *full, size_t full_size)
{
    uint32_t size;
    memcpy(&size, out, sizeof size);
    size_t n = size < full_size ? size : full_size;
    memcpy((unsigned char *)out + sizeof size, (const unsigned char *)full + sizeof size, n - sizeof size);
}
