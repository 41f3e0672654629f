/* toolio.c: files, options, diagnostics, program loading and progress for the
 * command-line programs (toolio.h). */
#define _XOPEN_SOURCE 700 /* realpath (XSI), beside the build's _POSIX_C_SOURCE */
#include "agal/text.h"
#include "toolio.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- input ------------------------------------------------------------------ */

/* Reads path ("-": stdin) up to max bytes. *err: 0, an errno value, or -1 when the
 * file holds more than max bytes (then only max + 1 were read). */
static char *read_capped(const char *path, size_t max, size_t *len, int *err)
{
    *err = 0;
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        *err = errno;
        return NULL;
    }
    size_t limit = max == SIZE_MAX ? SIZE_MAX : max + 1; /* one byte more tells a larger file */
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) *err = ENOMEM;
    while (buf) {
        size_t want = cap - n < limit - n ? cap - n : limit - n;
        errno = 0;
        size_t got = fread(buf + n, 1, want, f);
        n += got;
        if (got < want) {
            if (ferror(f)) *err = errno ? errno : EIO;
            break;
        }
        if (n >= limit) {
            *err = -1;
            break;
        }
        if (n == cap) {
            char *nb = cap <= (SIZE_MAX - 1) / 2 ? realloc(buf, cap * 2 + 1) : NULL;
            if (!nb) {
                *err = ENOMEM;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    if (f != stdin) fclose(f);
    if (*err) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

char *tool_read_file(const char *path, size_t *len)
{
    int err;
    return read_capped(path, SIZE_MAX, len, &err);
}

char *tool_read_input(const char *path, size_t max, const char *limit, size_t *len)
{
    int err;
    char *data = read_capped(path, max, len, &err);
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    if (err == -1) fprintf(stderr, "%s: larger than %zu bytes, %s: not read further\n", name, max, limit);
    else if (err) fprintf(stderr, "%s: cannot read: %s\n", name, strerror(err));
    return data;
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **tool_list_dir(const char *tool, const char *dir, const char *suffix, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "%s: %s: %s\n", tool, dir, strerror(errno));
        return NULL;
    }
    char **names = NULL;
    size_t cnt = 0, cap = 0, slen = strlen(suffix);
    int err = 0;
    struct dirent *e;
    while (!err && (errno = 0, e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len <= slen || strcmp(e->d_name + len - slen, suffix)) continue;
        if (cnt + 1 >= cap) {
            char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *nn);
            if (!nn) {
                err = ENOMEM;
                break;
            }
            names = nn;
        }
        if (!(names[cnt] = strdup(e->d_name))) err = ENOMEM;
        else names[++cnt] = NULL;
    }
    if (!err && errno) err = errno; /* readdir failed */
    closedir(d);
    if (!err && !cnt) {
        fprintf(stderr, "%s: %s: no *%s files\n", tool, dir, suffix);
        free(names);
        return NULL;
    }
    if (err) {
        fprintf(stderr, "%s: %s: %s\n", tool, dir, strerror(err));
        if (names) names[cnt] = NULL;
        tool_free_names(names);
        return NULL;
    }
    qsort(names, cnt, sizeof *names, compare_names);
    *n = cnt;
    return names;
}

void tool_free_names(char **names)
{
    for (size_t i = 0; names && names[i]; i++) free(names[i]);
    free(names);
}

/* ---- output ----------------------------------------------------------------- */

static bool is_stdout(const char *path) { return !path || !strcmp(path, "-"); }

static bool output_error(const char *tool, const char *path, int err)
{
    fprintf(stderr, "%s: cannot write %s: %s\n", tool, is_stdout(path) ? "stdout" : path, strerror(err));
    return false;
}

/* The temporary's name: DIR/.BASE.XXXXXX beside target (BASE shortened so the name
 * stays within NAME_MAX). */
static char *temp_name(const char *target)
{
    const char *slash = strrchr(target, '/');
    size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = target + dirlen;
    size_t baselen = strlen(base) > 200 ? 200 : strlen(base);
    char *tmp = malloc(dirlen + baselen + 9);
    if (tmp) snprintf(tmp, dirlen + baselen + 9, "%.*s.%.*s.XXXXXX", (int)dirlen, target, (int)baselen, base);
    return tmp;
}

bool tool_output_open(tool_output *o, const char *tool, const char *path)
{
    *o = (tool_output){.path = is_stdout(path) ? "-" : path};
    if (is_stdout(path)) {
        o->f = stdout;
        return true;
    }
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (!exists && errno != ENOENT) return output_error(tool, path, errno);
    if (exists && !S_ISREG(st.st_mode)) { /* a device, a pipe: nothing to replace */
        o->f = fopen(path, "wb");
        return o->f ? true : output_error(tool, path, errno);
    }
    /* a file we may not write stays so, although the rename could replace it */
    if (exists && access(path, W_OK) != 0) return output_error(tool, path, errno);
    /* an existing file's own path (through symlinks), so the link stays a link */
    o->target = exists ? realpath(path, NULL) : strdup(path);
    o->tmp = o->target ? temp_name(o->target) : NULL;
    int fd = o->tmp ? mkstemp(o->tmp) : -1;
    if (fd < 0) {
        int err = o->tmp ? errno : ENOMEM;
        fprintf(stderr, "%s: cannot write %s: cannot create a temporary file beside it: %s\n", tool, path,
                strerror(err));
        free(o->target);
        free(o->tmp);
        *o = (tool_output){0};
        return false;
    }
    mode_t mask = umask(0);
    umask(mask);
    /* the target's permissions, or a new file's (mkstemp makes 0600) */
    (void)fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask);
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        int err = errno;
        close(fd);
        unlink(o->tmp);
        free(o->target);
        free(o->tmp);
        *o = (tool_output){0};
        return output_error(tool, path, err);
    }
    return true;
}

bool tool_output_close(tool_output *o, const char *tool, bool ok)
{
    if (!o->f) return false;
    int err = 0;
    if (fflush(o->f) != 0) err = errno;
    else if (ferror(o->f)) err = EIO;
    if (o->f == stdout) {
        clearerr(stdout); /* reported here, not again by tool_exit */
    } else if (fclose(o->f) != 0 && !err) {
        err = errno;
    }
    if (o->tmp) {
        if (ok && !err && rename(o->tmp, o->target) != 0) err = errno;
        if (!ok || err) unlink(o->tmp);
    }
    if (ok && err) output_error(tool, o->path, err);
    free(o->target);
    free(o->tmp);
    *o = (tool_output){0};
    return ok && !err;
}

bool tool_write_file(const char *tool, const char *path, const void *data, size_t size)
{
    tool_output o;
    if (!tool_output_open(&o, tool, path)) return false;
    errno = 0;
    if (fwrite(data, 1, size, o.f) == size) return tool_output_close(&o, tool, true);
    int err = errno ? errno : EIO; /* the write's own reason, before closing */
    tool_output_close(&o, tool, false);
    return output_error(tool, path, err);
}

int tool_exit(const char *tool, int rc)
{
    int err = 0;
    if (fflush(stdout) != 0) err = errno;
    else if (ferror(stdout)) err = EIO;
    if (!err) return rc;
    clearerr(stdout);
    output_error(tool, NULL, err);
    return 2;
}

/* ---- options ---------------------------------------------------------------- */

bool tool_parse_uint(const char *tool, const char *option, const char *text, unsigned long long min,
                     unsigned long long max, unsigned long long *out)
{
    unsigned long long v = 0;
    bool ok = text[0] >= '0' && text[0] <= '9';
    for (const char *s = text; ok && *s; s++) {
        unsigned d = (unsigned)(*s - '0');
        ok = *s >= '0' && *s <= '9' && v <= (ULLONG_MAX - d) / 10;
        v = v * 10 + d;
    }
    if (ok && v >= min && v <= max) {
        *out = v;
        return true;
    }
    fprintf(stderr, "%s: %s: '%s' is not a whole number from %llu to %llu\n", tool, option, text, min, max);
    return false;
}

bool tool_parse_unsigned(const char *tool, const char *option, const char *text, unsigned min, unsigned max,
                         unsigned *out)
{
    unsigned long long v;
    if (!tool_parse_uint(tool, option, text, min, max, &v)) return false;
    *out = (unsigned)v;
    return true;
}

bool tool_parse_double(const char *tool, const char *option, const char *text, double min, double max, double *out)
{
    /* digits, a point and an exponent only: strtod's "inf", "nan", hex and spaces are not numbers here */
    bool ok = text[0] && strspn(text, "0123456789.eE+-") == strlen(text) && text[0] != '+' && text[0] != 'e' &&
              text[0] != 'E';
    char *end = NULL;
    double v = ok ? strtod(text, &end) : 0;
    if (ok && *end == 0 && isfinite(v) && v >= min && v <= max) {
        *out = v;
        return true;
    }
    fprintf(stderr, "%s: %s: '%s' is not a number from %g to %g\n", tool, option, text, min, max);
    return false;
}

bool tool_parse_profile(const char *tool, const char *text, agal_profile *out)
{
    if (agal_profile_find(text, out)) return true;
    fprintf(stderr,
            "%s: --profile: '%s' is not a profile (a Context3DProfile name: baselineConstrained, baseline, "
            "baselineExtended, standardConstrained, standard, standardExtended, enhanced; or standard_extended)\n",
            tool, text);
    return false;
}

/* ---- diagnostics and programs ------------------------------------------------- */

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
        agal_flash_error e;
        agal_flash_error_of(agal_diag_get(ctx, i), &e);
        agal_flash_message(&e, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
    }
    agal_diag_clear(ctx);
}

int tool_assemble(agal_context *ctx, const char *name, const char *text, size_t len, int stage, uint32_t version,
                  unsigned flags, const uint8_t **bytes, size_t *size)
{
    return tool_assemble_pos(ctx, name, text, len, stage, version, flags, bytes, size, NULL);
}

int tool_assemble_pos(agal_context *ctx, const char *name, const char *text, size_t len, int stage, uint32_t version,
                      unsigned flags, const uint8_t **bytes, size_t *size, const agal_source_pos **pos)
{
    agal_status st = agal_assemble_text_pos(ctx, text, len, flags, &stage, &version, bytes, size, pos);
    if (st == AGAL_ERR_NOMEM) {
        fprintf(stderr, "%s: out of memory\n", name);
        return 2;
    }
    /* A header read with no stage in it (its errors have a place in the text) is the
     * command line's to fix: a usage error, as before the text is assembled. */
    if (st != AGAL_OK && stage < 0 && agal_diag_count(ctx) && agal_diag_get(ctx, 0)->offset < 0) {
        agal_diag_clear(ctx);
        fprintf(stderr, "%s: no stage: pass --stage or add a `// stage: vertex|fragment` header line\n", name);
        return 2;
    }
    tool_print_diags(ctx, name); /* the warnings, and the error */
    return st ? 1 : 0;
}

bool tool_is_agal_text(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && !strcmp(path + n - 5, ".agal");
}

static const char BINARY_LIMIT[] = "the size of the largest AGAL program (7 + 24 * 8192)";

char *tool_read_agal(const char *path, bool text, size_t *len)
{
    return text ? tool_read_input(path, TOOL_MAX_TEXT, "the most AGAL text the tools read (16 MiB)", len)
                : tool_read_input(path, TOOL_MAX_BINARY, BINARY_LIMIT, len);
}

int tool_load_program(agal_context *ctx, const char *path, const tool_program_opts *opt, const agal_program **out)
{
    size_t size = 0;
    /* Text when named .agal, or possibly (a stage, a version or slot_stage given) when
     * it does not start with the magic byte: only then may it be longer than a program. */
    bool maybe_text = tool_is_agal_text(path) || opt->stage >= 0 || opt->version || opt->slot_stage;
    char *data = tool_read_agal(path, maybe_text, &size);
    if (!data) return 2;
    const uint8_t *bytes = (const uint8_t *)data;
    if (opt->positions) *opt->positions = NULL;
    bool text = tool_is_agal_text(path) || (maybe_text && !(size && bytes[0] == AGAL_MAGIC));
    if (!text && size > TOOL_MAX_BINARY) {
        fprintf(stderr, "%s: larger than %d bytes, %s\n", path, TOOL_MAX_BINARY, BINARY_LIMIT);
        free(data);
        return 2;
    }
    if (text) {
        /* A text without a `// stage:` line takes the stage of its slot (the place in
         * a pair), when it has one. */
        int stage = opt->stage, hstage = -1;
        uint32_t hversion;
        if (stage < 0 && opt->slot_stage && opt->slot != AGAL_SLOT_HEADER) {
            if (agal_asm_header(ctx, data, size, &hstage, &hversion) == AGAL_OK && hstage < 0)
                stage = opt->slot == AGAL_SLOT_VERTEX ? AGAL_VERTEX : AGAL_FRAGMENT;
            agal_diag_clear(ctx); /* tool_assemble reads the header again, and reports */
        }
        int rc = tool_assemble_pos(ctx, path, data, size, stage, opt->version, 0, &bytes, &size, opt->positions);
        if (rc) {
            free(data);
            return rc;
        }
    }
    agal_decode_options dopt = {
        .size = sizeof(agal_decode_options), .profile = opt->profile, .lenient = opt->lenient, .slot = opt->slot};
    agal_status st = agal_decode(ctx, bytes, size, &dopt, out);
    free(data);
    if (st == AGAL_OK) return 0;
    if (opt->flash) tool_print_flash(ctx);
    else tool_print_diags(ctx, path);
    if (st == AGAL_ERR_INVALID) return 1;
    fprintf(stderr, "%s: %s\n", path, st == AGAL_ERR_NOMEM ? "out of memory" : "internal error");
    return 2;
}

const uint8_t *tool_encode_tokens(agal_context *ctx, const agal_token *toks, uint32_t n, agal_stage stage,
                                  uint32_t version, size_t *size)
{
    *size = agal_program_size(n);
    uint8_t *bytes = agal_alloc(ctx, *size);
    if (!bytes) return NULL;
    const uint8_t hdr[AGAL_HEADER_SIZE] = {
        AGAL_MAGIC,   (uint8_t)version, (uint8_t)(version >> 8), (uint8_t)(version >> 16), (uint8_t)(version >> 24),
        AGAL_TYPE_ID, (uint8_t)stage};
    memcpy(bytes, hdr, sizeof hdr);
    for (uint32_t i = 0; i < n; i++) agal_token_encode(&toks[i], bytes + agal_token_offset((long)i));
    return bytes;
}

int tool_link_pair(agal_context *ctx, const char *tool, const char *vpath, const agal_program *vp, const char *fpath,
                   const agal_program *fp, bool flash)
{
    agal_status st = agal_link(ctx, vp, fp);
    if (st == AGAL_OK) return 0;
    if (flash) tool_print_flash(ctx);
    else tool_print_diags(ctx, fpath);
    if (st == AGAL_ERR_INVALID) return 1;
    fprintf(stderr, "%s: %s + %s: %s\n", tool, vpath, fpath, st == AGAL_ERR_NOMEM ? "out of memory" : "internal error");
    return 2;
}

/* ---- progress ------------------------------------------------------------------ */

void tool_progress_start(tool_progress *p, const char *label, unsigned total)
{
    *p = (tool_progress){.label = label, .total = total, .on = isatty(fileno(stderr)) == 1};
}

void tool_progress_show(tool_progress *p, unsigned done)
{
    if (!p->on) return;
    int n = fprintf(stderr, "\r%s: %u/%u", p->label, done, p->total);
    if (n > 1) p->shown = n - 1;
    fflush(stderr);
}

void tool_progress_clear(tool_progress *p)
{
    if (!p->on || !p->shown) return;
    fprintf(stderr, "\r%*s\r", p->shown, "");
    p->shown = 0;
    fflush(stderr);
}
