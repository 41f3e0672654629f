/* gl_compile.c: GLSL texts through the GL driver (Mesa's compiler, llvmpipe in
 * CI), in one context, as a driver of the debug_info test (tests/cli/test_debug_info.py):
 *
 *   gl_compile vert|frag FILE [vert|frag FILE ...]
 *
 * prints for each "== FILE compiled" or "== FILE refused" and the driver's info
 * log; exits 0, or 2 when there is no GL context or a file cannot be read. */
#define GL_GLEXT_PROTOTYPES 1
#include "gl_context.h"
#include "harness.h"

#include <GL/glcorearb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file, NUL-terminated (NULL when it cannot be read). */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 20;
    char *buf = malloc(cap + 1);
    size_t n = buf ? fread(buf, 1, cap, f) : 0;
    if (buf && (ferror(f) || n == cap)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) buf[n] = 0;
    return buf;
}

/* One text: "== FILE compiled|refused", then the driver's log. false when the file
 * cannot be read. */
static bool compile_file(const char *stage, const char *path)
{
    char *src = read_text(path);
    if (!src) {
        fprintf(stderr, "gl_compile: cannot read %s\n", path);
        return false;
    }
    GLuint s = glCreateShader(strcmp(stage, "vert") ? GL_FRAGMENT_SHADER : GL_VERTEX_SHADER);
    const char *text = src;
    glShaderSource(s, 1, &text, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    static char log[1 << 16];
    log[0] = 0;
    glGetShaderInfoLog(s, sizeof log, NULL, log);
    printf("== %s %s\n%s\n", path, ok ? "compiled" : "refused", log);
    glDeleteShader(s);
    free(src);
    return true;
}

int main(int argc, char **argv)
{
    bool args_ok = argc >= 3 && argc % 2 == 1;
    for (int i = 1; args_ok && i < argc; i += 2) args_ok = !strcmp(argv[i], "vert") || !strcmp(argv[i], "frag");
    if (!args_ok) {
        fprintf(stderr, "usage: gl_compile vert|frag FILE [vert|frag FILE ...]\n");
        return 2;
    }
    char err[256];
    gl_context c;
    if (!gl_context_open(&c, err, sizeof err)) {
        fprintf(stderr, "gl_compile: %s\n", err);
        return 2;
    }
    harness_pin_libraries();
    bool ok = true;
    for (int i = 1; ok && i < argc; i += 2) ok = compile_file(argv[i], argv[i + 1]);
    gl_context_close(&c);
    return ok ? 0 : 2;
}
