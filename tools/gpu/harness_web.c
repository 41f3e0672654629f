/* harness_web.c: headless Chromium as a backend (harness_web.h).
 *
 * A flush writes the queued WebGL draws into one page (webgl_page.c) in a private
 * temporary directory and runs
 *   chromium --headless=new --no-sandbox --use-angle=swiftshader
 *            --enable-unsafe-swiftshader --dump-dom file://DIR/page.html
 * with a profile of its own in DIR (runs in parallel do not share one), its own
 * process group (killed whole when it overruns the timeout), stderr in
 * DIR/browser.log (quoted when the run fails) and without the Vulkan loader's
 * driver variables, which would replace SwiftShader under ANGLE (and Dawn) by the
 * driver they name. The page's script draws everything while the page loads;
 * --dump-dom prints the document after the load event, whose <pre id="agal-result">
 * then holds the results as JSON (webgl_runner.js keeps <, > and & out of it, so
 * the serialized text is the JSON itself).
 *
 * The WebGPU draws go into a page of their own (webgpu_page.c). WebGPU answers
 * asynchronously, after the load event, so that page leaves its results in a
 * promise, window.agalDone, and the browser runs with --remote-debugging-pipe: the
 * DevTools protocol on fds 3 and 4 (devtools below) loads the page and awaits the
 * promise, within the same timeout.
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

/* The two browser runs of a flush: the WebGL page (--dump-dom) and the WebGPU page
 * (awaited through the DevTools protocol). */
enum { RUN_WEBGL, RUN_WEBGPU, RUNS };

typedef struct web_run {
    web_text page;  /* the queued draws */
    size_t nqueued; /* draws on the page */
    cJSON *results; /* the last flush's result object */
    cJSON **items;  /* its draws */
    size_t nitems;
    char err[1024]; /* why the last flush gave no results ("" when it did) */
} web_run;

/* Where a queued draw went: its run and its index on that run's page. */
typedef struct web_slot {
    uint8_t run;
    size_t index;
} web_slot;

typedef struct web_slots {
    web_slot *p;
    size_t n, cap;
} web_slots;

struct harness_web {
    char browser[512];
    char version[256];
    char dir[4096];
    unsigned timeout_s;
    web_run runs[RUNS];
    web_slots queued, flushed; /* draws queued since the last flush; those of the last flush */
    char renderer[3][256];     /* WebGL 1, WebGL 2, WebGPU: who drew the draws so far */
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

/* Starts argv in its own process group with stdin /dev/null, stdout on out_fd
 * (-1: /dev/null), stderr to log, and, when cdp is given, the DevTools pipe: the
 * child reads commands on fd 3 from cdp[0] and writes answers on fd 4 to cdp[1].
 * Returns the pid, or -1 with the reason in err. */
static pid_t spawn(const char *const *argv, const char *log, int out_fd, const int *cdp, char *err, size_t errsize)
{
    pid_t pid = fork();
    if (pid < 0) {
        fmt(err, errsize, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid) return pid;
    setpgid(0, 0);
    /* The Vulkan loader's driver choice (the tests name lavapipe for the Vulkan
     * harness) would make ANGLE and Dawn draw with that driver instead of SwiftShader. */
    unsetenv("VK_DRIVER_FILES");
    unsetenv("VK_ICD_FILENAMES");
    unsetenv("VK_ADD_DRIVER_FILES");
    int in = open("/dev/null", O_RDONLY), lg = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (cdp) { /* above 4 first, so that neither dup2 overwrites the other's source */
        int r = fcntl(cdp[0], F_DUPFD, 10), w = fcntl(cdp[1], F_DUPFD, 10);
        dup2(r, 3);
        dup2(w, 4);
    }
    dup2(in, 0);
    dup2(out_fd >= 0 ? out_fd : in, 1);
    dup2(lg >= 0 ? lg : in, 2);
    execvp(argv[0], (char *const *)argv);
    dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* Waits for the child, then kills what is left of its process group. */
static int reap(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    kill(-pid, SIGKILL); /* helpers that outlive the browser process */
    return status;
}

static bool exited_cleanly(int status, const char *prog, char *err, size_t errsize)
{
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
    fmt(err, errsize, "%s failed (%s %d)", prog, WIFEXITED(status) ? "exit" : "signal",
        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return false;
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
    pid_t pid = spawn(argv, log, out[1], NULL, err, errsize);
    close(out[1]);
    if (pid < 0) {
        close(out[0]);
        return NULL;
    }
    bool timed_out;
    char *text = read_all(out[0], tool_seconds() + timeout_s, &timed_out);
    close(out[0]);
    if (!text) kill(-pid, SIGKILL); /* the browser and its helpers */
    int status = reap(pid);
    if (!text) {
        fmt(err, errsize, timed_out ? "%s ran past %u s" : "%s: out of memory", argv[0], timeout_s);
        return NULL;
    }
    if (!exited_cleanly(status, argv[0], err, errsize)) {
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

/* Writes the page into the directory; its file:// URL in url. */
static bool write_page(const harness_web *h, const char *page, size_t len, char *url, size_t urlsize, char *err,
                       size_t errsize)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/page.html", h->dir);
    snprintf(url, urlsize, "file://%s", path);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(page, 1, len, f) == len;
    if (f && fclose(f)) ok = false;
    if (!ok) fmt(err, errsize, "cannot write %s: %s", path, strerror(errno));
    return ok;
}

/* The browser's command line: headless, SwiftShader for WebGL and WebGPU, a profile
 * of its own, nothing in the background; then mode (--dump-dom or
 * --remote-debugging-pipe) and the URL. profile: room for the profile's flag. */
static void browser_argv(const harness_web *h, const char *argv[20], char *profile, size_t profilesize,
                         const char *mode, const char *url)
{
    snprintf(profile, profilesize, "--user-data-dir=%s/profile", h->dir);
    const char *const flags[] = {h->browser,
                                 "--headless=new",
                                 "--no-sandbox",
                                 "--use-angle=swiftshader",
                                 "--enable-unsafe-swiftshader",
                                 "--enable-unsafe-webgpu",
                                 profile,
                                 "--no-first-run",
                                 "--no-default-browser-check",
                                 "--disable-extensions",
                                 "--disable-background-networking",
                                 "--disable-component-update",
                                 "--disable-sync",
                                 "--mute-audio",
                                 mode,
                                 url,
                                 NULL};
    memcpy(argv, flags, sizeof flags);
}

char *harness_web_run_page(harness_web *h, const char *page, size_t len, char *err, size_t errsize)
{
    char url[4300], profile[4200], log[4200];
    if (!write_page(h, page, len, url, sizeof url, err, errsize)) return NULL;
    snprintf(log, sizeof log, "%s/browser.log", h->dir);
    const char *argv[20];
    browser_argv(h, argv, profile, sizeof profile, "--dump-dom", url);
    double t0 = tool_seconds();
    char *dom = run(argv, log, h->timeout_s, err, errsize);
    h->seconds += tool_seconds() - t0;
    if (!dom) quote_log(h, err, errsize);
    return dom;
}

/* ---- the DevTools protocol ------------------------------------------------------------- */

/* A session with the browser over --remote-debugging-pipe: JSON messages, each
 * ended by a NUL byte, commands to `to`, answers and events from `from`. */
typedef struct devtools {
    int to, from;
    double deadline;
    char *buf; /* bytes read and not yet consumed */
    size_t n, cap;
    int next_id;
    char session[128]; /* the page's session, once attached */
} devtools;

static bool dt_send(devtools *d, const char *method, const char *params, bool in_session, char *err, size_t errsize)
{
    size_t size = strlen(method) + strlen(params) + 256;
    char *msg = malloc(size);
    if (!msg) {
        fmt(err, errsize, "out of memory");
        return false;
    }
    int len =
        in_session
            ? snprintf(msg, size, "{\"id\": %d, \"sessionId\": \"%s\", \"method\": \"%s\", \"params\": %s}",
                       ++d->next_id, d->session, method, params)
            : snprintf(msg, size, "{\"id\": %d, \"method\": \"%s\", \"params\": %s}", ++d->next_id, method, params);
    bool ok = len > 0;
    for (size_t done = 0; ok && done <= (size_t)len;) { /* the NUL ends the message */
        ssize_t w = write(d->to, msg + done, (size_t)len + 1 - done);
        if (w < 0 && errno == EINTR) continue;
        ok = w > 0;
        done += w > 0 ? (size_t)w : 0;
    }
    free(msg);
    if (!ok) fmt(err, errsize, "the browser closed its DevTools pipe");
    return ok;
}

/* The next whole message, or NULL (the pipe closed, the deadline passed). */
static cJSON *dt_read(devtools *d, char *err, size_t errsize)
{
    for (;;) {
        char *end = d->n ? memchr(d->buf, 0, d->n) : NULL;
        if (end) {
            cJSON *m = cJSON_Parse(d->buf);
            size_t used = (size_t)(end - d->buf) + 1;
            memmove(d->buf, end + 1, d->n - used);
            d->n -= used;
            if (m) return m;
            continue; /* not JSON: not ours to read */
        }
        int left = (int)((d->deadline - tool_seconds()) * 1000);
        struct pollfd p = {.fd = d->from, .events = POLLIN};
        int r = left > 0 ? poll(&p, 1, left) : 0;
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            fmt(err, errsize, "the browser did not answer in time");
            return NULL;
        }
        if (d->n + 65536 > d->cap) {
            size_t cap = d->cap ? 2 * d->cap : 1 << 20;
            char *b = realloc(d->buf, cap);
            if (!b) {
                fmt(err, errsize, "out of memory");
                return NULL;
            }
            d->buf = b;
            d->cap = cap;
        }
        ssize_t got = read(d->from, d->buf + d->n, d->cap - d->n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            fmt(err, errsize, "the browser closed its DevTools pipe");
            return NULL;
        }
        d->n += (size_t)got;
    }
}

/* Sends a command and returns its answer's "result" holder (the whole message, to
 * free), or NULL with the reason: the protocol's error message, when it gave one. */
static cJSON *dt_call(devtools *d, const char *method, const char *params, bool in_session, char *err, size_t errsize)
{
    if (!dt_send(d, method, params, in_session, err, errsize)) return NULL;
    for (cJSON *m; (m = dt_read(d, err, errsize)) != NULL; cJSON_Delete(m)) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
        if (!cJSON_IsNumber(id) || id->valueint != d->next_id) continue; /* an event */
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(m, "error"), "message");
        if (!e && cJSON_GetObjectItemCaseSensitive(m, "result")) return m;
        fmt(err, errsize, "%s: %s", method, cJSON_IsString(e) ? e->valuestring : "no result");
        cJSON_Delete(m);
        return NULL;
    }
    return NULL;
}

static bool dt_event(devtools *d, const char *method, char *err, size_t errsize)
{
    for (cJSON *m; (m = dt_read(d, err, errsize)) != NULL; cJSON_Delete(m)) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(m, "method");
        if (cJSON_IsString(name) && !strcmp(name->valuestring, method)) {
            cJSON_Delete(m);
            return true;
        }
    }
    return false;
}

/* The item at path (NUL-separated keys, ending in an empty one) under m. */
static const cJSON *dt_item(const cJSON *m, const char *path)
{
    for (; m && *path; path += strlen(path) + 1) m = cJSON_GetObjectItemCaseSensitive(m, path);
    return m;
}

/* Attaches to the browser's page, loads url in it and returns the string the page's
 * promise window.agalDone resolves to (malloc'd), or NULL with the reason. */
static char *dt_await(devtools *d, const char *url, char *err, size_t errsize)
{
    cJSON *m = dt_call(d, "Target.getTargets", "{}", false, err, errsize);
    const cJSON *t, *targets = dt_item(m, "result\0targetInfos\0");
    char target[128] = "";
    cJSON_ArrayForEach(t, targets)
    {
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(t, "type"),
                    *id = cJSON_GetObjectItemCaseSensitive(t, "targetId");
        if (cJSON_IsString(type) && !strcmp(type->valuestring, "page") && cJSON_IsString(id) && !target[0])
            snprintf(target, sizeof target, "%s", id->valuestring);
    }
    cJSON_Delete(m);
    if (!target[0]) {
        if (targets) fmt(err, errsize, "the browser has no page to load into");
        return NULL;
    }
    char params[4600];
    snprintf(params, sizeof params, "{\"targetId\": \"%s\", \"flatten\": true}", target);
    m = dt_call(d, "Target.attachToTarget", params, false, err, errsize);
    const cJSON *session = dt_item(m, "result\0sessionId\0");
    if (cJSON_IsString(session)) snprintf(d->session, sizeof d->session, "%s", session->valuestring);
    cJSON_Delete(m);
    if (!d->session[0]) return NULL;
    /* Load the page, then wait for its promise: evaluating before the load would run
     * in the blank page the browser started with. */
    cJSON_Delete(m = dt_call(d, "Page.enable", "{}", true, err, errsize));
    if (!m) return NULL;
    snprintf(params, sizeof params, "{\"url\": \"%s\"}", url);
    cJSON_Delete(m = dt_call(d, "Page.navigate", params, true, err, errsize));
    if (!m || !dt_event(d, "Page.loadEventFired", err, errsize)) return NULL;
    m = dt_call(d, "Runtime.evaluate",
                "{\"expression\": \"window.agalDone\", \"awaitPromise\": true, \"returnByValue\": true}", true, err,
                errsize);
    const cJSON *value = dt_item(m, "result\0result\0value\0");
    const cJSON *thrown = dt_item(m, "result\0exceptionDetails\0text\0");
    char *text = cJSON_IsString(value) ? strdup(value->valuestring) : NULL;
    if (m && !text)
        fmt(err, errsize, "the page's window.agalDone gave no text%s%s", thrown ? ": " : "",
            cJSON_IsString(thrown) ? thrown->valuestring : "");
    cJSON_Delete(m);
    return text;
}

char *harness_web_await_page(harness_web *h, const char *page, size_t len, char *err, size_t errsize)
{
    char url[4300], profile[4200], log[4200];
    if (!write_page(h, page, len, url, sizeof url, err, errsize)) return NULL;
    snprintf(log, sizeof log, "%s/browser.log", h->dir);
    const char *argv[20];
    browser_argv(h, argv, profile, sizeof profile, "--remote-debugging-pipe", "about:blank");
    int to[2], from[2];
    if (pipe(to)) {
        fmt(err, errsize, "pipe: %s", strerror(errno));
        return NULL;
    }
    if (pipe(from)) {
        fmt(err, errsize, "pipe: %s", strerror(errno));
        close(to[0]);
        close(to[1]);
        return NULL;
    }
    double t0 = tool_seconds();
    int child_ends[2] = {to[0], from[1]};
    pid_t pid = spawn(argv, log, -1, child_ends, err, errsize);
    close(to[0]);
    close(from[1]);
    devtools d = {.to = to[1], .from = from[0], .deadline = t0 + h->timeout_s};
    char *text = pid < 0 ? NULL : dt_await(&d, url, err, errsize);
    if (pid >= 0) {
        char ignored[64];
        d.deadline = tool_seconds() + 10; /* it may close before it answers */
        cJSON_Delete(dt_call(&d, "Browser.close", "{}", false, ignored, sizeof ignored));
        close(to[1]);
        close(from[0]);
        if (!text) kill(-pid, SIGKILL);
        reap(pid);
    } else {
        close(to[1]);
        close(from[0]);
    }
    free(d.buf);
    h->seconds += tool_seconds() - t0;
    if (!text) quote_log(h, err, errsize);
    return text;
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

static void drop_results(web_run *r)
{
    cJSON_Delete(r->results);
    free(r->items);
    r->results = NULL;
    r->items = NULL;
    r->nitems = 0;
}

static void begin_page(harness_web *h, int run)
{
    if (run == RUN_WEBGPU) webgpu_page_begin(&h->runs[run].page);
    else web_page_begin(&h->runs[run].page, "compare", 0);
    h->runs[run].nqueued = 0;
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
    for (int r = 0; r < RUNS; r++) begin_page(h, r);
    return h;
}

void harness_web_destroy(harness_web *h)
{
    if (!h) return;
    const char *keep = getenv("AGAL_WEB_KEEP"); /* debugging: leave the last page and the browser's log */
    if (keep && *keep) fprintf(stderr, "web: the last page and the browser's log are in %s\n", h->dir);
    else nftw(h->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    for (int r = 0; r < RUNS; r++) {
        web_text_free(&h->runs[r].page);
        drop_results(&h->runs[r]);
    }
    free(h->queued.p);
    free(h->flushed.p);
    free(h);
}

const char *harness_web_browser(const harness_web *h) { return h->version; }
const char *harness_web_renderer(const harness_web *h, int api)
{
    return h->renderer[api == WEB_WEBGL1 ? 0 : api == WEB_WEBGL2 ? 1 : 2];
}
size_t harness_web_queued(const harness_web *h) { return h->queued.n; }
double harness_web_last_seconds(const harness_web *h) { return h->seconds; }

long harness_web_queue(harness_web *h, int api, const harness_draw *d)
{
    web_slots *q = &h->queued;
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 256;
        web_slot *p = realloc(q->p, cap * sizeof *p);
        if (!p) return -1;
        q->p = p;
        q->cap = cap;
    }
    int r = api == WEB_WEBGPU ? RUN_WEBGPU : RUN_WEBGL;
    web_run *run = &h->runs[r];
    if (r == RUN_WEBGPU) webgpu_page_draw(&run->page, d);
    else web_page_draw(&run->page, api, d);
    if (run->page.oom) return -1;
    q->p[q->n] = (web_slot){(uint8_t)r, run->nqueued++};
    return (long)q->n++;
}

/* The result element's JSON object in the dumped document. */
static cJSON *parse_dom(const char *dom, char *err, size_t errsize)
{
    static const char open_tag[] = "<pre id=\"agal-result\">";
    const char *a = strstr(dom, open_tag), *b = a ? strstr(a, "</pre>") : NULL;
    if (!b) {
        fmt(err, errsize, "the page gave no result element (did its script run?)");
        return NULL;
    }
    a += sizeof open_tag - 1;
    return cJSON_ParseWithLength(a, (size_t)(b - a));
}

/* Runs one page of draws and parses its results: {"renderers", "draws"}. */
static cJSON *run_page(harness_web *h, int r, char *err, size_t errsize)
{
    web_text *page = &h->runs[r].page;
    if (r == RUN_WEBGPU) webgpu_page_end(page);
    else web_page_end(page);
    if (page->oom) {
        fmt(err, errsize, "out of memory writing the page");
        return NULL;
    }
    char *text = r == RUN_WEBGPU ? harness_web_await_page(h, page->p, page->n, err, errsize)
                                 : harness_web_run_page(h, page->p, page->n, err, errsize);
    if (!text) return NULL;
    cJSON *res = r == RUN_WEBGPU ? cJSON_Parse(text) : parse_dom(text, err, errsize);
    const cJSON *why = cJSON_GetObjectItemCaseSensitive(res, "error");
    if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(res, "draws"))) {
        if (cJSON_IsString(why)) fmt(err, errsize, "the page failed: %s", why->valuestring);
        else fmt(err, errsize, "the page's script did not finish: its result is '%.200s'", text);
        cJSON_Delete(res);
        res = NULL;
    }
    free(text);
    return res;
}

/* Who drew, from a run's "renderers": {"1", "2", "webgpu"}. */
static void note_renderers(harness_web *h, const cJSON *res)
{
    static const char *const keys[3] = {"1", "2", "webgpu"};
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(res, "renderers");
    for (int k = 0; k < 3; k++) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(names, keys[k]);
        if (cJSON_IsString(name)) snprintf(h->renderer[k], sizeof h->renderer[k], "%s", name->valuestring);
    }
}

/* Draws run r's queued draws and keeps their results; -1 with the reason. */
static int flush_run(harness_web *h, int r, char *err, size_t errsize)
{
    web_run *run = &h->runs[r];
    size_t n = run->nqueued;
    cJSON *res = run_page(h, r, err, errsize), *draws = cJSON_GetObjectItemCaseSensitive(res, "draws");
    web_text_free(&run->page);
    begin_page(h, r);
    if (res && (size_t)cJSON_GetArraySize(draws) != n) {
        fmt(err, errsize, "the page returned %d results for %zu draws", cJSON_GetArraySize(draws), n);
        cJSON_Delete(res);
        res = NULL;
    }
    run->items = res ? calloc(n ? n : 1, sizeof *run->items) : NULL;
    if (res && !run->items) {
        fmt(err, errsize, "out of memory");
        cJSON_Delete(res);
        res = NULL;
    }
    if (!res) {
        snprintf(run->err, sizeof run->err, "%s", err);
        return -1;
    }
    run->results = res;
    for (cJSON *it = draws->child; it; it = it->next) run->items[run->nitems++] = it;
    note_renderers(h, res);
    run->err[0] = 0;
    return 0;
}

int harness_web_flush(harness_web *h, char *err, size_t errsize)
{
    web_slots done = h->flushed;
    h->flushed = h->queued;
    h->queued = (web_slots){done.p, 0, done.cap};
    h->seconds = 0;
    int rc = 0;
    for (int r = 0; r < RUNS; r++) {
        drop_results(&h->runs[r]);
        h->runs[r].err[0] = 0;
        if (h->runs[r].nqueued && flush_run(h, r, err, errsize)) rc = -1;
    }
    return rc;
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
    if (i >= h->flushed.n) {
        fmt(err, errsize, "draw %zu is not in the last browser run", i);
        return -1;
    }
    const web_run *run = &h->runs[h->flushed.p[i].run];
    size_t k0 = h->flushed.p[i].index;
    if (!run->results || k0 >= run->nitems) {
        fmt(err, errsize, "%s", run->err[0] ? run->err : "no browser run holds this draw");
        return -1;
    }
    const cJSON *it = run->items[k0], *e = cJSON_GetObjectItemCaseSensitive(it, "error");
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
