/* debug_info.c: what a translation with debug_info hands back besides its output
 * (agal_shader's source and source map), and the reading of a driver's log through
 * them (agal_map_driver_log). The map is read off the output itself, from the marks
 * the back ends wrote (SPIR-V's OpLine, GLSL's `#line N 1`, WGSL's token comments),
 * so it names what a driver or a debugger sees and cannot drift from the output. */
#include "emit.h"

#include <spirv/unified1/spirv.h>

/* ---- the map ------------------------------------------------------------------ */

typedef struct map_builder {
    agal_source_loc *locs;
    size_t n, cap;
} map_builder;

/* A token's code from out on; consecutive entries of one token are one. */
static void map_add(map_builder *m, uint32_t out, uint32_t token)
{
    if (m->n && m->locs[m->n - 1].token == token) return;
    if (m->n < m->cap) m->locs[m->n++] = (agal_source_loc){out, token};
}

/* Reads an unsigned decimal at *p (advancing it); false when there is none. */
static bool read_uint(const char **p, const char *end, uint32_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    while (s < end && *s >= '0' && *s <= '9' && v <= UINT32_MAX) v = v * 10 + (uint64_t)(*s++ - '0');
    if (s == *p || v > UINT32_MAX) return false;
    *p = s;
    *out = (uint32_t)v;
    return true;
}

static bool skip(const char **p, const char *end, const char *lit)
{
    size_t n = strlen(lit);
    if ((size_t)(end - *p) < n || memcmp(*p, lit, n)) return false;
    *p += n;
    return true;
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    return p;
}

/* GLSL: `#line N 1` names the next line token N's (agal_token_line). */
static bool glsl_mark(const char *p, const char *end, uint32_t *token)
{
    uint32_t line, string;
    p = skip_blanks(p, end);
    if (!skip(&p, end, "#line ") || !read_uint(&p, end, &line) || !skip(&p, end, " ") || !read_uint(&p, end, &string) ||
        string != AGAL_GLSL_BODY_STRING || line < agal_token_line(0))
        return false;
    *token = line - agal_token_line(0);
    return true;
}

/* WGSL: a comment `// N: ...` names the lines after it token N's (counting from 1,
 * as the comments do); one after code (`} else { // N: els`) names its own line. */
static bool wgsl_mark(const char *p, const char *end, uint32_t *token, bool *own_line)
{
    const char *c = p;
    for (; c + 3 <= end; c++)
        if (c[0] == '/' && c[1] == '/' && c[2] == ' ') break;
    if (c + 3 > end) return false;
    *own_line = skip_blanks(p, c) != c;
    c += 3;
    uint32_t n;
    if (!read_uint(&c, end, &n) || !skip(&c, end, ": ") || n == 0) return false;
    *token = n - 1;
    return true;
}

static agal_status text_map(agal_context *ctx, const char *text, size_t len, bool glsl, map_builder *m)
{
    size_t lines = 1;
    for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
    m->cap = lines;
    if (!(m->locs = agal_alloc(ctx, lines * sizeof *m->locs))) return AGAL_ERR_NOMEM;
    const char *p = text, *end = text + len;
    for (uint32_t line = 1; p < end; line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        uint32_t token;
        bool own_line = false;
        if (glsl ? glsl_mark(p, eol, &token) : wgsl_mark(p, eol, &token, &own_line))
            map_add(m, own_line ? line : line + 1, token);
        p = eol + 1;
    }
    return AGAL_OK;
}

/* SPIR-V: each OpLine starts its token's code, each OpNoLine code of none. */
static agal_status spirv_map(agal_context *ctx, const uint32_t *w, size_t n, map_builder *m)
{
    size_t lines = 0;
    for (size_t i = 5; i < n && w[i] >> 16; i += w[i] >> 16) lines += (w[i] & 0xffff) == SpvOpLine;
    m->cap = lines + 1;
    if (!(m->locs = agal_alloc(ctx, m->cap * sizeof *m->locs))) return AGAL_ERR_NOMEM;
    for (size_t i = 5; i < n && w[i] >> 16; i += w[i] >> 16) {
        unsigned op = w[i] & 0xffff;
        if (op == SpvOpLine && i + 3 < n && w[i + 2] >= agal_token_line(0))
            map_add(m, (uint32_t)i, w[i + 2] - agal_token_line(0));
        else if (op == SpvOpNoLine) map_add(m, (uint32_t)i, AGAL_NO_TOKEN);
    }
    return AGAL_OK;
}

agal_status agal_source_map(agal_context *ctx, agal_target target, agal_shader *out)
{
    map_builder m = {0};
    agal_status st = target == AGAL_TARGET_SPIRV ? spirv_map(ctx, out->words, out->nwords, &m)
                                                 : text_map(ctx, out->text, out->len, target != AGAL_TARGET_WGSL, &m);
    out->source_map = m.locs;
    out->nsource_map = m.n;
    return st;
}

/* ---- a driver's log ----------------------------------------------------------- */

/* Where a log line places its message: a source string (GLSL's #line; 0 for a
 * line of the text itself) and a line. */
typedef struct log_place {
    uint32_t string, line;
    bool no_strings; /* the driver drops #line's source string number */
} log_place;

/* Mesa: `0:12(5): error: ...`. Its compiler keeps #line's line but not its source
 * string (observed on llvmpipe: `0:4(12)` after `#line 4 1`), so in a text with
 * #line its lines are read as tokens' lines. */
static bool mesa_place(const char *p, const char *end, log_place *at)
{
    at->no_strings = true;
    return read_uint(&p, end, &at->string) && skip(&p, end, ":") && read_uint(&p, end, &at->line) && skip(&p, end, "(");
}

/* ANGLE and glslang: `ERROR: 0:12: ...`; glslang with a file name: `ERROR:
 * name:12: ...` (the text's own lines). */
static bool angle_place(const char *p, const char *end, log_place *at)
{
    at->no_strings = false;
    if (!skip(&p, end, "ERROR: ") && !skip(&p, end, "WARNING: ")) return false;
    if (read_uint(&p, end, &at->string)) return skip(&p, end, ":") && read_uint(&p, end, &at->line);
    const char *colon = memchr(p, ':', (size_t)(end - p));
    if (!colon) return false;
    p = colon + 1;
    at->string = 0;
    return read_uint(&p, end, &at->line) && skip(&p, end, ":");
}

/* Tint and Dawn: `:12:5 error: ...`, after a file name or a prefix
 * ("Error while parsing WGSL: :12:5 error: ..."). */
static bool tint_place(const char *p, const char *end, log_place *at)
{
    at->no_strings = false;
    for (; p < end; p++) {
        const char *q = p;
        uint32_t col;
        if (skip(&q, end, ":") && read_uint(&q, end, &at->line) && skip(&q, end, ":") && read_uint(&q, end, &col) &&
            (skip(&q, end, " error") || skip(&q, end, " warning"))) {
            at->string = 0;
            return true;
        }
    }
    return false;
}

/* The token a place names, or AGAL_NO_TOKEN. */
static uint32_t place_token(const agal_shader *sh, log_place at, uint32_t ntokens)
{
    uint32_t token = AGAL_NO_TOKEN;
    bool lines = sh->text && sh->binding.target != AGAL_TARGET_WGSL; /* GLSL's #line */
    if (lines && (at.string == AGAL_GLSL_BODY_STRING || at.no_strings) && at.line >= agal_token_line(0)) {
        token = at.line - agal_token_line(0);
    } else if (sh->text && at.string == 0) {
        for (size_t i = 0; i < sh->nsource_map && sh->source_map[i].out <= at.line; i++)
            token = sh->source_map[i].token;
    }
    return token < ntokens ? token : AGAL_NO_TOKEN;
}

/* The line of the source (from 1) into [*s, *e), false past its end. */
static bool source_line(const char *src, uint32_t line, const char **s, const char **e)
{
    for (uint32_t i = 1; i < line && src; i++) {
        src = strchr(src, '\n');
        if (src) src++;
    }
    if (!src || !*src) return false;
    *s = skip_blanks(src, src + strlen(src));
    *e = strchr(*s, '\n');
    if (!*e) *e = *s + strlen(*s);
    return true;
}

static uint32_t source_tokens(const char *src)
{
    uint32_t lines = 0;
    for (; src && *src; src++) lines += *src == '\n';
    return lines >= agal_token_line(0) - 1 ? lines - (agal_token_line(0) - 1) : 0;
}

static void put_token_line(agal_strbuf *b, const agal_shader *sh, uint32_t token)
{
    const char *s, *e;
    uint32_t line = agal_token_line(token);
    if (!source_line(sh->source, line, &s, &e)) return;
    if (token < sh->nsource_pos)
        agal_sb_printf(b, "  AGAL: token %u (line %u, source line %u): ", token + 1, line, sh->source_pos[token].line);
    else agal_sb_printf(b, "  AGAL: token %u (line %u): ", token + 1, line);
    agal_sb_putn(b, s, (size_t)(e - s));
    agal_sb_putc(b, '\n');
}

char *agal_map_driver_log(agal_context *ctx, const agal_shader *shader, const char *log)
{
    if (!ctx || !shader || !log) return NULL;
    agal_strbuf b = {.ctx = ctx};
    uint32_t ntokens = source_tokens(shader->source);
    agal_sb_put(&b, "");
    for (const char *p = log; *p;) {
        const char *eol = strchr(p, '\n'), *end = eol ? eol : p + strlen(p);
        agal_sb_putn(&b, p, (size_t)(end - p));
        if (eol || end != p) agal_sb_putc(&b, '\n');
        log_place at;
        if (mesa_place(p, end, &at) || angle_place(p, end, &at) || tint_place(p, end, &at)) {
            uint32_t token = place_token(shader, at, ntokens);
            if (token != AGAL_NO_TOKEN) put_token_line(&b, shader, token);
        }
        p = eol ? eol + 1 : end;
    }
    return b.err ? NULL : b.p;
}
