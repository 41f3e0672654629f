/* toolio.c: files, diagnostics and program loading for the command-line programs. */
#include "toolio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *tool_read_file(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) { free(buf); buf = NULL; break; }
        buf = nb;
        cap *= 2;
    }
    bool err = ferror(f);
    if (f != stdin) fclose(f);
    if (err || !buf) { free(buf); return NULL; }
    buf[n] = 0;
    *len = n;
    return buf;
}

bool tool_write_file(const char *path, const void *data, size_t size)
{
    bool to_stdout = !path || !strcmp(path, "-");
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, size, f) == size;
    if (to_stdout) ok = fflush(f) == 0 && ok;
    else ok = fclose(f) == 0 && ok;
    return ok;
}

void tool_print_diags(agal_context *ctx, const char *file)
{
    char buf[512];
    for (size_t i = 0; i < agal_diag_count(ctx); i++) {
        agal_diag_format(agal_diag_get(ctx, i), file, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
    }
    agal_diag_clear(ctx);
}

void tool_print_flash(agal_context *ctx)
{
    char buf[512];
    for (size_t i = 0; i < agal_diag_count(ctx); i++) {
        agal_flash_message(agal_diag_get(ctx, i), buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
    }
    agal_diag_clear(ctx);
}

int tool_assemble(agal_context *ctx, const char *name, const char *text, size_t len, int stage, uint32_t version,
                  unsigned flags, const uint8_t **bytes, size_t *size)
{
    int hstage;
    uint32_t hversion;
    if (agal_asm_header(ctx, text, len, &hstage, &hversion)) {
        tool_print_diags(ctx, name);
        return 1;
    }
    if (stage < 0) stage = hstage;
    if (!version) version = hversion ? hversion : 1;
    if (stage < 0) {
        fprintf(stderr, "%s: no stage: pass --stage or add a `// stage: vertex|fragment` header line\n", name);
        return 2;
    }
    agal_status st = agal_assemble(ctx, text, len, (agal_stage)stage, version, flags, bytes, size);
    if (st == AGAL_ERR_NOMEM) { fprintf(stderr, "%s: out of memory\n", name); return 2; }
    tool_print_diags(ctx, name); /* the warnings, and the error */
    return st ? 1 : 0;
}

bool tool_is_agal_text(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && !strcmp(path + n - 5, ".agal");
}

int tool_load_program(agal_context *ctx, const char *path, const tool_program_opts *opt, const agal_program **out)
{
    size_t size = 0;
    char *data = tool_read_file(path, &size);
    if (!data) {
        fprintf(stderr, "%s: cannot read\n", path);
        return 2;
    }
    const uint8_t *bytes = (const uint8_t *)data;
    bool text = tool_is_agal_text(path) || ((opt->stage >= 0 || opt->version) && !(size && bytes[0] == AGAL_MAGIC));
    if (text) {
        int rc = tool_assemble(ctx, path, data, size, opt->stage, opt->version, 0, &bytes, &size);
        if (rc) {
            free(data);
            return rc;
        }
    }
    agal_decode_options dopt = {.profile = opt->profile, .lenient = opt->lenient, .slot = opt->slot};
    agal_status st = agal_decode(ctx, bytes, size, &dopt, out);
    free(data);
    if (st == AGAL_OK) return 0;
    if (opt->flash) tool_print_flash(ctx);
    else tool_print_diags(ctx, path);
    if (st == AGAL_ERR_INVALID) return 1;
    fprintf(stderr, "%s: %s\n", path, st == AGAL_ERR_NOMEM ? "out of memory" : "internal error");
    return 2;
}
