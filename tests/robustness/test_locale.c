/* test_locale.c: text output does not depend on the host's locale. A host (an
 * emulator) may call setlocale(LC_ALL, "") under a locale whose decimal point is a
 * comma; the library's GLSL, reflection JSON, IR text and disassembly, and the
 * bytes the assembler makes of text with decimal LOD biases, must be what they are
 * in the C locale.
 *
 *   test_locale SHADERS_DIR LOCALE     (LOCALE: one with a decimal comma, made by the
 *                                      meson test with localedef; LOCPATH points at it) */
#include "agal/agal.h"
#include "toolio.h"
#include "translated.h"
#include "agal/text.h"
#include "check.h"
#include "gen.h"

#include <dirent.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_PROGRAMS = 256, TEXTS = 5 };

typedef struct outputs {
    char *text[TEXTS]; /* GLSL, GLSL -g0, reflection JSON, IR, disassembly */
} outputs;

static char *dup_text(const char *s) { return s ? strcpy(malloc(strlen(s) + 1), s) : NULL; }

static void outputs_of(const uint8_t *bytes, size_t size, outputs *o)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *p = NULL;
    memset(o, 0, sizeof *o);
    CHECK(agal_decode(ctx, bytes, size, NULL, &p) == AGAL_OK, "a program decodes");
    if (p) {
        const char *t = NULL;
        agal_translate_options g0 = {.size = sizeof(agal_translate_options), .strip_names = true};
        agal_reflection r;
        if (tool_translate_text(ctx, p, AGAL_TARGET_GLSL, NULL, &t, NULL) == AGAL_OK) o->text[0] = dup_text(t);
        if (tool_translate_text(ctx, p, AGAL_TARGET_GLSL, &g0, &t, NULL) == AGAL_OK) o->text[1] = dup_text(t);
        if (agal_reflect(ctx, p, &r) == AGAL_OK) o->text[2] = dup_text(agal_reflect_json(ctx, &r));
        if (tool_translate_text(ctx, p, AGAL_TARGET_IR, NULL, &t, NULL) == AGAL_OK) o->text[3] = dup_text(t);
        if (agal_disassemble_program(ctx, p, 0, &t) == AGAL_OK) o->text[4] = dup_text(t);
    }
    agal_context_free(ctx);
}

typedef struct program {
    uint8_t *bytes;
    size_t size;
    char name[80];
} program;

/* A fragment program whose numbers are not whole: LOD biases, and constants the
 * IR folds a merge into (-t ir prints them). */
static const char *const biased = "tex ft0, v0, fs0 <2d, linear, -0.5>\n"
                                  "tex ft1, v0, fs1 <2d, linear, mipnone, 1.375>\n"
                                  "add ft0, ft0, ft1\n"
                                  "mov oc, ft0\n";

static size_t collect(const char *dir, program *progs)
{
    size_t n = 0;
    agal_context *ctx = agal_context_new(NULL, NULL);
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s", dir);
    struct dirent *e;
    while (d && (e = readdir(d)) && n < MAX_PROGRAMS / 2) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".agal")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        static char text[1 << 16];
        size_t tn = f ? fread(text, 1, sizeof text - 1, f) : 0;
        if (f) fclose(f);
        int stage;
        uint32_t version;
        const uint8_t *bytes;
        size_t size;
        if (agal_asm_header(ctx, text, tn, &stage, &version) != AGAL_OK || stage < 0 ||
            agal_assemble(ctx, text, tn, (agal_stage)stage, version ? version : 1, AGAL_ASM_STRICT, &bytes, &size) !=
                AGAL_OK)
            continue;
        progs[n].bytes = malloc(size);
        memcpy(progs[n].bytes, bytes, size);
        progs[n].size = size;
        snprintf(progs[n].name, sizeof progs[n].name, "%s", e->d_name);
        n++;
    }
    if (d) closedir(d);
    /* Generated programs: every sampler option and LOD bias, constants in blocks. */
    static gen_program gp;
    static uint8_t buf[GEN_MAX_BYTES];
    for (uint64_t seed = 1; n < MAX_PROGRAMS; seed++) {
        gen_options go = {.max_tokens = 80};
        if (!gen_program_make(&gp, seed, (agal_stage)(seed & 1), 1 + (uint32_t)(seed % 3), &go)) continue;
        size_t size = gen_program_encode(&gp, buf, sizeof buf);
        progs[n].bytes = malloc(size);
        memcpy(progs[n].bytes, buf, size);
        progs[n].size = size;
        snprintf(progs[n].name, sizeof progs[n].name, "generated seed %llu", (unsigned long long)seed);
        n++;
    }
    agal_context_free(ctx);
    return n;
}

/* The bytes of the biased text, in the locale in force. */
static size_t assemble_biased(uint8_t *out, size_t cap)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const uint8_t *bytes = NULL;
    size_t size = 0;
    CHECK(agal_assemble(ctx, biased, strlen(biased), AGAL_FRAGMENT, 1, AGAL_ASM_STRICT, &bytes, &size) == AGAL_OK,
          "the biased text assembles");
    if (size > cap) size = 0;
    if (size) memcpy(out, bytes, size);
    agal_context_free(ctx);
    return size;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_locale SHADERS_DIR LOCALE\n");
        return 2;
    }
    static program progs[MAX_PROGRAMS];
    size_t n = collect(argv[1], progs);
    static outputs c_out[MAX_PROGRAMS];
    uint8_t c_bytes[256], l_bytes[256];
    setlocale(LC_ALL, "C");
    for (size_t i = 0; i < n; i++) outputs_of(progs[i].bytes, progs[i].size, &c_out[i]);
    size_t c_size = assemble_biased(c_bytes, sizeof c_bytes);

    /* The host's locale: one with a decimal comma, or the test proves nothing. */
    const char *got = setlocale(LC_ALL, argv[2]);
    CHECK(got != NULL, "setlocale(%s) failed: build it with localedef and set LOCPATH", argv[2]);
    char probe[16];
    snprintf(probe, sizeof probe, "%.1f", 0.5);
    CHECK(strcmp(probe, "0,5") == 0, "locale %s prints 0.5 as %s, not 0,5", argv[2], probe);

    unsigned compared = 0;
    for (size_t i = 0; i < n; i++) {
        outputs l_out;
        outputs_of(progs[i].bytes, progs[i].size, &l_out);
        for (int k = 0; k < TEXTS; k++) {
            CHECK(c_out[i].text[k] && l_out.text[k] && strcmp(c_out[i].text[k], l_out.text[k]) == 0,
                  "%s: output %d differs under %s", progs[i].name, k, argv[2]);
            compared++;
            free(l_out.text[k]);
        }
    }
    size_t l_size = assemble_biased(l_bytes, sizeof l_bytes);
    CHECK(c_size && l_size == c_size && memcmp(c_bytes, l_bytes, c_size) == 0, "assembled bias bytes differ under %s",
          argv[2]);
    outputs b;
    outputs_of(l_bytes, l_size, &b);
    CHECK(b.text[4] && strstr(b.text[4], "-0.5>") && strstr(b.text[4], "1.375>"), "disassembly of the biases: %s",
          b.text[4] ? b.text[4] : "(none)");
    CHECK(b.text[2] && strstr(b.text[2], "\"bias\": -0.5,"), "reflection of the bias: %s",
          b.text[2] ? b.text[2] : "(none)");
    CHECK(b.text[0] && strstr(b.text[0], ", -0.5)"), "GLSL of the bias: %s", b.text[0] ? b.text[0] : "(none)");
    for (int k = 0; k < TEXTS; k++) free(b.text[k]);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < TEXTS; k++) free(c_out[i].text[k]);
        free(progs[i].bytes);
    }
    printf("locale: %u texts of %zu programs compared under %s, %d failures\n", compared, n, argv[2], failures);
    return failures != 0;
}
