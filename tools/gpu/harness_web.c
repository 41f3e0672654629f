/* harness_web.c: headless Chromium as a backend (harness_web.h).
 *
 * A flush writes the queued draws into one page (webgl_page.c) in a private
 * temporary directory and runs
 *   chromium --headless=new --no-sandbox --use-angle=swiftshader
 *            --enable-unsafe-swiftshader --dump-dom file://DIR/page.html
 * with a profile of its own in DIR (runs in parallel do not share one), its own
 * process group (killed whole when it overruns the timeout), stderr in
 * DIR/browser.log (quoted when the run fails) and without the Vulkan loader's driver
 * variables, which would replace SwiftShader under ANGLE by the driver they name. The page's script draws everything
 * while the page loads; --dump-dom prints the document after the load event, whose
 * <pre id="agal-result"> then holds the results as JSON (webgl_runner.js keeps
 * <, > and & out of it, so the serialized text is the JSON itself).
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw, kill, setpgid, unsetenv */
#include "harness_web.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct harness_web {
    char browser[512];
    char version[256];
    char dir[4096];
    unsigned timeout_s;
    web_text page; /* the queued draws */
    size_t nqueued;
    cJSON *results;        /* the last flush's result object */
    char renderer[2][256]; /* WebGL 1, WebGL 2: who drew the last flush's draws */
    cJSON **items;
    size_t nitems;
    char flush_err[1024]; /* why the last flush gave no results ("" when it did) */
    double seconds;
};

static void fmt(char *err, size_t errsize, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    vsnprintf(err, errsize, f, ap);
    va_end(ap);
}

/* ---- running the browser ------------------------------------------------------------ */

/* Reads the child's stdout until EOF or the deadline; NULL on timeout or no memory. */
static char *read_all(int fd, double deadline, bool *timed_out)
{
    size_t n = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    *timed_out = false;
    while (buf) {
        int left = (int)((deadline - tool_seconds()) * 1000);
        if (left <= 0) {
            *timed_out = true;
            break;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, left);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            *timed_out = r == 0;
            break;
        }
        if (n + 4096 + 1 > cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) break;
            buf = b;
        }
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            buf[n] = 0;
            return buf;
        }
        n += (size_t)got;
    }
    free(buf);
    return NULL;
}

/* Runs argv (its own process group, stdin /dev/null, stderr to log) and returns
 * its stdout, or NULL with the reason in err. */
static char *run(const char *const *argv, const char *log, unsigned timeout_s, char *err, size_t errsize)
{
    int out[2];
    if (pipe(out)) {
        fmt(err, errsize, "pipe: %s", strerror(errno));
        return NULL;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fmt(err, errsize, "fork: %s", strerror(errno));
        close(out[0]);
        close(out[1]);
        return NULL;
    }
    if (pid == 0) {
        setpgid(0, 0);
        /* The Vulkan loader's driver choice (the tests name lavapipe for the Vulkan
         * harness) would make ANGLE draw with that driver instead of SwiftShader. */
        unsetenv("VK_DRIVER_FILES");
        unsetenv("VK_ICD_FILENAMES");
        unsetenv("VK_ADD_DRIVER_FILES");
        int in = open("/dev/null", O_RDONLY), lg = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(in, 0);
        dup2(out[1], 1);
        dup2(lg >= 0 ? lg : in, 2);
        close(out[0]);
        execvp(argv[0], (char *const *)argv);
        dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(out[1]);
    bool timed_out;
    char *text = read_all(out[0], tool_seconds() + timeout_s, &timed_out);
    close(out[0]);
    if (!text) kill(-pid, SIGKILL); /* the browser and its helpers */
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    kill(-pid, SIGKILL); /* helpers that outlive the browser process */
    if (!text) {
        fmt(err, errsize, timed_out ? "%s ran past %u s" : "%s: out of memory", argv[0], timeout_s);
        return NULL;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fmt(err, errsize, "%s failed (%s %d)", argv[0], WIFEXITED(status) ? "exit" : "signal",
            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        free(text);
        return NULL;
    }
    return text;
}

/* Appends the last lines of the browser's log to err. */
static void quote_log(const harness_web *h, char *err, size_t errsize)
{
    char path[4200], tail[600] = "";
    snprintf(path, sizeof path, "%s/browser.log", h->dir);
    FILE *f = fopen(path, "r");
    if (f) {
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, size > (long)sizeof tail - 1 ? size - (long)sizeof tail + 1 : 0, SEEK_SET);
        size_t n = fread(tail, 1, sizeof tail - 1, f);
        tail[n] = 0;
        fclose(f);
    }
    size_t len = strlen(err);
    if (tail[0] && len + 1 < errsize) snprintf(err + len, errsize - len, "; the browser's log ends:\n%s", tail);
}

char *harness_web_run_page(harness_web *h, const char *page, size_t len, char *err, size_t errsize)
{
    char path[4200], url[4300], profile[4200], log[4200];
    snprintf(path, sizeof path, "%s/page.html", h->dir);
    snprintf(url, sizeof url, "file://%s", path);
    snprintf(profile, sizeof profile, "--user-data-dir=%s/profile", h->dir);
    snprintf(log, sizeof log, "%s/browser.log", h->dir);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(page, 1, len, f) == len;
    if (f && fclose(f)) ok = false;
    if (!ok) {
        fmt(err, errsize, "cannot write %s: %s", path, strerror(errno));
        return NULL;
    }
    const char *argv[] = {h->browser,
                          "--headless=new",
                          "--no-sandbox",
                          "--use-angle=swiftshader",
                          "--enable-unsafe-swiftshader",
                          profile,
                          "--no-first-run",
                          "--no-default-browser-check",
                          "--disable-extensions",
                          "--disable-background-networking",
                          "--disable-component-update",
                          "--disable-sync",
                          "--mute-audio",
                          "--dump-dom",
                          url,
                          NULL};
    double t0 = tool_seconds();
    char *dom = run(argv, log, h->timeout_s, err, errsize);
    h->seconds = tool_seconds() - t0;
    if (!dom) quote_log(h, err, errsize);
    return dom;
}

/* ---- the queue ----------------------------------------------------------------------- */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void drop_results(harness_web *h)
{
    cJSON_Delete(h->results);
    free(h->items);
    h->results = NULL;
    h->items = NULL;
    h->nitems = 0;
}

harness_web *harness_web_create(const char *browser, unsigned timeout_s, char *err, size_t errsize)
{
    harness_web *h = calloc(1, sizeof *h);
    if (!h) {
        fmt(err, errsize, "out of memory");
        return NULL;
    }
    if (!browser) browser = getenv("AGAL_BROWSER");
    snprintf(h->browser, sizeof h->browser, "%s", browser && *browser ? browser : "chromium");
    h->timeout_s = timeout_s;
    const char *tmp = getenv("TMPDIR");
    snprintf(h->dir, sizeof h->dir, "%s/agal-web.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(h->dir)) {
        fmt(err, errsize, "cannot make a temporary directory %s: %s", h->dir, strerror(errno));
        free(h);
        return NULL;
    }
    char log[4200];
    snprintf(log, sizeof log, "%s/browser.log", h->dir);
    const char *argv[] = {h->browser, "--version", NULL};
    char *version = run(argv, log, 60, err, errsize);
    if (!version) {
        quote_log(h, err, errsize);
        harness_web_destroy(h);
        return NULL;
    }
    version[strcspn(version, "\n")] = 0;
    snprintf(h->version, sizeof h->version, "%s", version);
    free(version);
    web_page_begin(&h->page, "compare", 0);
    return h;
}

void harness_web_destroy(harness_web *h)
{
    if (!h) return;
    const char *keep = getenv("AGAL_WEB_KEEP"); /* debugging: leave the last page and the browser's log */
    if (keep && *keep) fprintf(stderr, "webgl: the last page and the browser's log are in %s\n", h->dir);
    else nftw(h->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    web_text_free(&h->page);
    drop_results(h);
    free(h);
}

const char *harness_web_browser(const harness_web *h) { return h->version; }
const char *harness_web_renderer(const harness_web *h, int api) { return h->renderer[api == 1 ? 0 : 1]; }
size_t harness_web_queued(const harness_web *h) { return h->nqueued; }
double harness_web_last_seconds(const harness_web *h) { return h->seconds; }

long harness_web_queue(harness_web *h, int api, const harness_draw *d)
{
    web_page_draw(&h->page, api, d);
    return h->page.oom ? -1 : (long)h->nqueued++;
}

/* The result element's JSON object in the dumped document. */
static cJSON *parse_results(const char *dom, char *err, size_t errsize)
{
    static const char open_tag[] = "<pre id=\"agal-result\">";
    const char *a = strstr(dom, open_tag), *b = a ? strstr(a, "</pre>") : NULL;
    if (!b) {
        fmt(err, errsize, "the page gave no result element (did its script run?)");
        return NULL;
    }
    a += sizeof open_tag - 1;
    cJSON *r = cJSON_ParseWithLength(a, (size_t)(b - a));
    if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(r, "draws"))) {
        fmt(err, errsize, "the page's script did not finish: its result is '%.200s'", a);
        cJSON_Delete(r);
        return NULL;
    }
    return r;
}

int harness_web_flush(harness_web *h, char *err, size_t errsize)
{
    drop_results(h);
    size_t n = h->nqueued;
    web_page_end(&h->page);
    char *dom = NULL;
    if (h->page.oom) fmt(err, errsize, "out of memory writing the page");
    else dom = harness_web_run_page(h, h->page.p, h->page.n, err, errsize);
    web_text_free(&h->page);
    web_page_begin(&h->page, "compare", 0);
    h->nqueued = 0;
    cJSON *r = dom ? parse_results(dom, err, errsize) : NULL, *draws = cJSON_GetObjectItemCaseSensitive(r, "draws");
    free(dom);
    if (r && (size_t)cJSON_GetArraySize(draws) != n) {
        fmt(err, errsize, "the page returned %d results for %zu draws", cJSON_GetArraySize(draws), n);
        cJSON_Delete(r);
        r = NULL;
    }
    h->items = r ? calloc(n ? n : 1, sizeof *h->items) : NULL;
    if (r && !h->items) {
        fmt(err, errsize, "out of memory");
        cJSON_Delete(r);
        r = NULL;
    }
    if (!r) {
        snprintf(h->flush_err, sizeof h->flush_err, "%s", err);
        return -1;
    }
    h->results = r;
    h->nitems = 0;
    for (cJSON *it = draws->child; it; it = it->next) h->items[h->nitems++] = it;
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(r, "renderers");
    for (int api = 1; api <= 2; api++) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(names, api == 1 ? "1" : "2");
        if (cJSON_IsString(name)) snprintf(h->renderer[api - 1], sizeof h->renderer[api - 1], "%s", name->valuestring);
    }
    h->flush_err[0] = 0;
    return 0;
}

/* A hex float array (webgl_runner.js toHex) into malloc'd floats. */
static float *hex_floats(const cJSON *s, size_t *n)
{
    if (!cJSON_IsString(s) || strlen(s->valuestring) % 8) return NULL;
    const char *p = s->valuestring;
    *n = strlen(p) / 8;
    float *f = malloc((*n ? *n : 1) * sizeof *f);
    for (size_t i = 0; f && i < *n; i++) {
        uint32_t u = 0;
        for (int k = 0; k < 8; k++) {
            char c = p[8 * i + k];
            unsigned v = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                         : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                                                : 16;
            if (v == 16) {
                free(f);
                return NULL;
            }
            u = u << 4 | v;
        }
        memcpy(&f[i], &u, 4);
    }
    return f;
}

int harness_web_take(harness_web *h, size_t i, harness_result *out, char *err, size_t errsize)
{
    memset(out, 0, sizeof *out);
    if (!h->results) {
        fmt(err, errsize, "%s", h->flush_err[0] ? h->flush_err : "no browser run holds this draw");
        return -1;
    }
    if (i >= h->nitems) {
        fmt(err, errsize, "draw %zu is not in the last browser run", i);
        return -1;
    }
    const cJSON *it = h->items[i], *e = cJSON_GetObjectItemCaseSensitive(it, "error");
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "ok"))) {
        fmt(err, errsize, "%s", cJSON_IsString(e) ? e->valuestring : "the draw failed");
        return -1;
    }
    const cJSON *color = cJSON_GetObjectItemCaseSensitive(it, "color"), *c;
    size_t n = 0, k = 0;
    bool bad = false;
    cJSON_ArrayForEach(c, color)
    {
        if (k < HARNESS_MAX_OUTPUTS) bad |= !(out->color[k++] = hex_floats(c, &n));
    }
    const cJSON *depth = cJSON_GetObjectItemCaseSensitive(it, "depth"),
                *xfb = cJSON_GetObjectItemCaseSensitive(it, "xfb");
    if (depth) bad |= !(out->depth = hex_floats(depth, &n));
    if (xfb) bad |= !(out->xfb = hex_floats(xfb, &out->xfb_floats));
    if (bad) {
        harness_result_free(out);
        fmt(err, errsize, "draw %zu: malformed result", i);
        return -1;
    }
    return 0;
}
