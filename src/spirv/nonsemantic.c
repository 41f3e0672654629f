/* nonsemantic.c: NonSemantic.Shader.DebugInfo.100 (nonsemantic.h), what a shader
 * debugger (RenderDoc) steps through: the source in a DebugSource, one
 * DebugCompilationUnit, main as a DebugFunction defined by the module's OpFunction,
 * and a DebugLine before each token's code under the function's DebugScope.
 *
 * Every operand of the set is an id: the numbers (versions, lines, flags) are
 * 32-bit unsigned OpConstants, made once each. The writer's own OpTypeInt 32 0 is
 * no duplicate: the module's other integer type is signed. The plain OpLine stays
 * beside each DebugLine (docs/decisions.md, "Debug info"). */
#include "nonsemantic.h"

#include <spirv/unified1/NonSemanticShaderDebugInfo100.h>
#include <spirv/unified1/spirv.h>

/* The most words of one OpString: an instruction holds 65535, less its opcode and
 * result words. */
enum { STRING_WORDS = 0xffff - 2 };
/* DWARF's version the compilation unit names (as glslang does). */
enum { DWARF_VERSION = 4 };

typedef struct wlist {
    uint32_t *w;
    size_t n, cap;
} wlist;

struct agal_spv_ns {
    agal_context *ctx;
    uint32_t *next_id;
    agal_status err; /* sticky (internal.h) */
    wlist sec[AGAL_SPV_NS_SECTIONS];
    uint32_t set, void_type, uint_type, file, source, function;
    uint32_t *c_uint; /* the constant of each value 0..max_const (0: not made) */
    uint32_t max_const;
    uint32_t scoped; /* the label of the block whose DebugScope is written (0: none) */
};

static uint32_t new_id(agal_spv_ns *ns) { return (*ns->next_id)++; }

/* Room for n more words in section sec (NULL, with err set, when out of memory). */
static uint32_t *reserve(agal_spv_ns *ns, int sec, size_t n)
{
    wlist *l = &ns->sec[sec];
    if (ns->err) return NULL;
    if (n > l->cap - l->n) {
        size_t cap = 2 * l->cap + n + 16;
        uint32_t *w = agal_grow(ns->ctx, l->w, l->n, cap, sizeof *w);
        if (!w) {
            agal_fail(&ns->err, AGAL_ERR_NOMEM);
            return NULL;
        }
        l->w = w, l->cap = cap;
    }
    uint32_t *w = l->w + l->n;
    l->n += n;
    return w;
}

/* op with n operand words, into section sec. */
static void ins(agal_spv_ns *ns, int sec, unsigned op, const uint32_t *ops, size_t n)
{
    uint32_t *d = reserve(ns, sec, n + 1);
    if (!d) return;
    d[0] = (uint32_t)(n + 1) << 16 | op;
    memcpy(d + 1, ops, n * sizeof *d);
}

#define INS(ns, sec, op, ...) \
    ins(ns, sec, op, (const uint32_t[]){__VA_ARGS__}, sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))

/* head words then len bytes of str as a literal (NUL-terminated, zero-padded). */
static void ins_string(agal_spv_ns *ns, int sec, unsigned op, const uint32_t *head, size_t nhead, const char *str,
                       size_t len)
{
    size_t n = nhead + len / 4 + 1;
    uint32_t *d = reserve(ns, sec, n + 1);
    if (!d) return;
    d[0] = (uint32_t)(n + 1) << 16 | op;
    if (nhead) memcpy(d + 1, head, nhead * sizeof *d);
    memset(d + 1 + nhead, 0, (len / 4 + 1) * sizeof *d);
    memcpy(d + 1 + nhead, str, len);
}

/* An OpString of len bytes of str; returns its id. */
static uint32_t string(agal_spv_ns *ns, const char *str, size_t len)
{
    uint32_t id = new_id(ns);
    ins_string(ns, AGAL_SPV_NS_STRINGS, SpvOpString, &id, 1, str, len);
    return id;
}

/* The 32-bit unsigned constant v (at most max_const). */
static uint32_t c_uint(agal_spv_ns *ns, uint32_t v)
{
    if (v > ns->max_const) {
        agal_fail(&ns->err, AGAL_ERR_INTERNAL);
        return 0;
    }
    if (!ns->c_uint[v]) {
        ns->c_uint[v] = new_id(ns);
        INS(ns, AGAL_SPV_NS_GLOBALS, SpvOpConstant, ns->uint_type, ns->c_uint[v], v);
    }
    return ns->c_uint[v];
}

/* `%id = OpExtInst %void %set inst ops...` to out (n + 5 words); returns %id. */
static uint32_t ext_words(agal_spv_ns *ns, uint32_t *out, unsigned inst, const uint32_t *ops, size_t n)
{
    uint32_t id = new_id(ns);
    out[0] = (uint32_t)(n + 5) << 16 | SpvOpExtInst;
    out[1] = ns->void_type, out[2] = id, out[3] = ns->set, out[4] = inst;
    if (n) memcpy(out + 5, ops, n * sizeof *out);
    return id;
}

/* The same among the module's globals. */
static uint32_t ext(agal_spv_ns *ns, unsigned inst, const uint32_t *ops, size_t n)
{
    uint32_t *d = reserve(ns, AGAL_SPV_NS_GLOBALS, n + 5);
    return d ? ext_words(ns, d, inst, ops, n) : 0;
}

#define NARGS(...) (sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))
#define EXT(ns, inst, ...) \
    ext(ns, NonSemanticShaderDebugInfo100##inst, (const uint32_t[]){__VA_ARGS__}, NARGS(__VA_ARGS__))
/* In the function: the words written to out. */
#define FN_EXT(ns, out, inst, ...) \
    (ext_words(ns, out, NonSemanticShaderDebugInfo100##inst, (const uint32_t[]){__VA_ARGS__}, NARGS(__VA_ARGS__)), \
     5 + NARGS(__VA_ARGS__))

/* DebugSource with the text, the rest of a text too long for one OpString in
 * DebugSourceContinued. */
static uint32_t source(agal_spv_ns *ns, const char *text)
{
    size_t len = strlen(text), chunk = STRING_WORDS * 4 - 1;
    if (chunk > len) chunk = len;
    uint32_t src = EXT(ns, DebugSource, ns->file, string(ns, text, chunk));
    for (size_t at = chunk; at < len; at += chunk) {
        if (chunk > len - at) chunk = len - at;
        EXT(ns, DebugSourceContinued, string(ns, text + at, chunk));
    }
    return src;
}

/* The compilation unit and main, a void function of no parameters at the first
 * token's line (the source's line 3: two header comments come first). */
static void unit_and_function(agal_spv_ns *ns, const char *text)
{
    const uint32_t none = c_uint(ns, 0), pub = c_uint(ns, NonSemanticShaderDebugInfo100FlagIsPublic);
    const uint32_t first = c_uint(ns, 3);
    ns->source = source(ns, text);
    uint32_t unit = EXT(ns, DebugCompilationUnit, c_uint(ns, NonSemanticShaderDebugInfo100Version),
                        c_uint(ns, DWARF_VERSION), ns->source, c_uint(ns, SpvSourceLanguageUnknown));
    uint32_t type = EXT(ns, DebugTypeFunction, pub, ns->void_type);
    uint32_t name = string(ns, "main", 4);
    ns->function = EXT(ns, DebugFunction, name, type, ns->source, first, none, unit, name, pub, first);
}

agal_spv_ns *agal_spv_ns_new(agal_context *ctx, uint32_t *next_id, uint32_t file, uint32_t void_type, const char *text,
                             uint32_t max_line)
{
    agal_spv_ns *ns = agal_zalloc(ctx, sizeof *ns);
    uint32_t max_const = max_line > NonSemanticShaderDebugInfo100Version ? max_line
                                                                         : NonSemanticShaderDebugInfo100Version;
    uint32_t *c = ns ? agal_zalloc(ctx, ((size_t)max_const + 1) * sizeof *c) : NULL;
    if (!c) return NULL;
    *ns = (agal_spv_ns){
        .ctx = ctx, .next_id = next_id, .void_type = void_type, .file = file, .c_uint = c, .max_const = max_const};
    static const char extension[] = "SPV_KHR_non_semantic_info", set[] = "NonSemantic.Shader.DebugInfo.100";
    ins_string(ns, AGAL_SPV_NS_EXTENSION, SpvOpExtension, NULL, 0, extension, sizeof extension - 1);
    ns->set = new_id(ns);
    ins_string(ns, AGAL_SPV_NS_IMPORT, SpvOpExtInstImport, &ns->set, 1, set, sizeof set - 1);
    ns->uint_type = new_id(ns);
    INS(ns, AGAL_SPV_NS_GLOBALS, SpvOpTypeInt, ns->uint_type, 32, 0);
    unit_and_function(ns, text);
    return ns->err ? NULL : ns;
}

/* The function's DebugScope, once per block (its scope ends with the block). */
static size_t scope(agal_spv_ns *ns, uint32_t block, uint32_t *out)
{
    if (ns->scoped == block) return 0;
    ns->scoped = block;
    return FN_EXT(ns, out, DebugScope, ns->function);
}

size_t agal_spv_ns_function(agal_spv_ns *ns, uint32_t block, uint32_t function, uint32_t *out)
{
    size_t n = scope(ns, block, out);
    return n + FN_EXT(ns, out + n, DebugFunctionDefinition, ns->function, function);
}

size_t agal_spv_ns_line(agal_spv_ns *ns, uint32_t block, uint32_t line, uint32_t *out)
{
    size_t n = scope(ns, block, out);
    if (!line) {
        ext_words(ns, out + n, NonSemanticShaderDebugInfo100DebugNoLine, NULL, 0);
        return n + 5;
    }
    uint32_t l = c_uint(ns, line), column = c_uint(ns, 0);
    return n + FN_EXT(ns, out + n, DebugLine, ns->source, l, l, column, column);
}

agal_status agal_spv_ns_finish(agal_spv_ns *ns, agal_spv_words sections[AGAL_SPV_NS_SECTIONS])
{
    for (int i = 0; i < AGAL_SPV_NS_SECTIONS; i++) sections[i] = (agal_spv_words){ns->sec[i].w, ns->sec[i].n};
    return ns->err;
}
