/* replay_pcache.c: the replay's pipeline cache file (--pipeline-cache FILE), one
 * format for both backends (docs/replay.md, "Pipelines"):
 *
 *   agal pipeline cache 1 BACKEND\n
 *   N\n                                  the records
 *   then each record:  KEY-JSON\n FORMAT SIZE\n SIZE bytes\n
 *   then the blob:     SIZE\n SIZE bytes\n
 *
 * A record is a baked key (agal_pipeline_key_json) and what the backend keeps for
 * it: GL a program binary and its format, Vulkan nothing (SIZE 0). The blob is the
 * backend's whole cache: Vulkan's VkPipelineCache data, GL none. A file of another
 * backend or version is refused, never half read. */
#include "replay_pcache.h"

#include "toolio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_RECORDS = 1 << 16, MAX_LINE = 4096 };
#define MAX_BYTES ((size_t)1 << 30)

static bool fail(char *err, size_t n, const char *fmt, const char *what)
{
    snprintf(err, n, fmt, what);
    return false;
}

const rpcache_entry *rpcache_find(const rpcache *c, const agal_pipeline_key *k)
{
    for (size_t i = 0; i < c->n; i++)
        if (agal_pipeline_key_equal(&c->e[i].key, k)) return &c->e[i];
    return NULL;
}

bool rpcache_add(rpcache *c, const agal_pipeline_key *k, uint32_t format, const void *data, size_t size)
{
    if (rpcache_find(c, k)) return true;
    void *copy = size ? malloc(size) : NULL;
    rpcache_entry *grown = realloc(c->e, (c->n + 1) * sizeof *grown);
    if (grown) c->e = grown;
    if (!grown || (size && !copy)) return free(copy), false;
    if (size) memcpy(copy, data, size);
    c->e[c->n++] = (rpcache_entry){*k, format, size, copy};
    return true;
}

void rpcache_free(rpcache *c)
{
    for (size_t i = 0; i < c->n; i++) free(c->e[i].data);
    free(c->e);
    free(c->blob);
    memset(c, 0, sizeof *c);
}

/* ---- reading ---------------------------------------------------------------------------- */

static bool read_line(FILE *f, char *line)
{
    if (!fgets(line, MAX_LINE, f)) return false;
    size_t n = strlen(line);
    if (!n || line[n - 1] != '\n') return false;
    line[n - 1] = 0;
    return true;
}

/* SIZE bytes and their newline (malloc'd; NULL for none). */
static bool read_bytes(FILE *f, size_t size, void **out)
{
    *out = NULL;
    if (size > MAX_BYTES) return false;
    if (size && !(*out = malloc(size))) return false;
    return (!size || fread(*out, 1, size, f) == size) && fgetc(f) == '\n';
}

static bool read_record(FILE *f, agal_context *ctx, rpcache *c, char *line)
{
    agal_pipeline_key k;
    unsigned format;
    size_t size;
    void *data = NULL;
    bool ok = read_line(f, line) && agal_pipeline_key_from_json(ctx, line, strlen(line), &k) == AGAL_OK &&
              read_line(f, line) && sscanf(line, "%u %zu", &format, &size) == 2 && read_bytes(f, size, &data) &&
              rpcache_add(c, &k, format, data, size);
    free(data);
    return ok;
}

static bool read_all(FILE *f, const char *backend, agal_context *ctx, rpcache *c)
{
    char line[MAX_LINE], want[64];
    size_t n, size;
    snprintf(want, sizeof want, "agal pipeline cache 1 %s", backend);
    if (!read_line(f, line) || strcmp(line, want)) return false;
    if (!read_line(f, line) || sscanf(line, "%zu", &n) != 1 || n > MAX_RECORDS) return false;
    for (size_t i = 0; i < n; i++)
        if (!read_record(f, ctx, c, line)) return false;
    if (!read_line(f, line) || sscanf(line, "%zu", &size) != 1 || !read_bytes(f, size, &c->blob)) return false;
    c->blob_size = size;
    return fgetc(f) == EOF;
}

bool rpcache_load(const char *path, const char *backend, rpcache *c, char *err, size_t errsize)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "rb");
    if (!f) return errno == ENOENT ? true : fail(err, errsize, "cannot read the pipeline cache %s", path);
    agal_context *ctx = agal_context_new(NULL, NULL);
    bool ok = ctx && read_all(f, backend, ctx, c);
    fclose(f);
    if (!ok) {
        rpcache_free(c);
        /* A key the library refuses says why: one of another key version is from
         * another release (docs/pipeline.md, "Hashes"), the file to be made again. */
        const agal_diag *d = ctx && agal_diag_count(ctx) ? agal_diag_get(ctx, 0) : NULL;
        snprintf(err, errsize, "%s is not this backend's pipeline cache (agal pipeline cache 1)%s%s", path,
                 d ? ": " : "", d ? d->message : "");
    }
    agal_context_free(ctx);
    return ok;
}

/* ---- writing ---------------------------------------------------------------------------- */

/* SIZE bytes (none: data may be NULL) and a newline. */
static bool write_bytes(FILE *f, const void *data, size_t size)
{
    return (!size || fwrite(data, 1, size, f) == size) && fputc('\n', f) != EOF;
}

static bool write_all(FILE *f, const char *backend, agal_context *ctx, const rpcache *c)
{
    bool ok = fprintf(f, "agal pipeline cache 1 %s\n%zu\n", backend, c->n) > 0;
    for (size_t i = 0; ok && i < c->n; i++) {
        const rpcache_entry *e = &c->e[i];
        const char *json = agal_pipeline_key_json(ctx, &e->key);
        ok = json && fprintf(f, "%s\n%u %zu\n", json, (unsigned)e->format, e->size) > 0 &&
             write_bytes(f, e->data, e->size);
    }
    return ok && fprintf(f, "%zu\n", c->blob_size) > 0 && write_bytes(f, c->blob, c->blob_size);
}

bool rpcache_save(const char *path, const char *backend, const rpcache *c, char *err, size_t errsize)
{
    tool_output o;
    if (!tool_output_open(&o, "agalrun replay", path)) return fail(err, errsize, "cannot write %s", path);
    agal_context *ctx = agal_context_new(NULL, NULL);
    bool ok = ctx && write_all(o.f, backend, ctx, c);
    agal_context_free(ctx);
    return tool_output_close(&o, "agalrun replay", ok) ? true : fail(err, errsize, "cannot write %s", path);
}
