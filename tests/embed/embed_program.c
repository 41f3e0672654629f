/* embed_program.c: an emulator's first use of an installed libagal, built by
 * test_embed.py with nothing but `cc embed_program.c $(pkg-config --cflags --libs
 * agal)`. It decodes a vertex program, translates it to SPIR-V and GLSL, assembles
 * and links a fragment program, reads Flash's message for a truncated program, and
 * does all of it through its own allocator hook, which must end with nothing live.
 * Usage: embed_program VERSION (what `pkg-config --modversion agal` says). */
#include <agal/agal.h>
#include <agal/text.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "embed_program.c:%d: failed: %s\n", __LINE__, #cond); \
            exit(1); \
        } \
    } while (0)

/* m44 op, va0, vc0 / mov v0, va1: AGAL 1, vertex (agalasm's bytes). */
static const char VERTEX_TEXT[] = "m44 op, va0, vc0\nmov v0, va1\n";
static const unsigned char VERTEX[55] = {
    0xa0, 0x01, 0x00, 0x00, 0x00, 0xa1, 0x00, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0f, 0x03, 0x00, 0x00, 0x00, 0xe4,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xe4, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0f,
    0x04, 0x01, 0x00, 0x00, 0xe4, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* The hook counts the bytes it holds: the context must give every one back. */
static void *counting_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    long *live = ud;
    *live -= (long)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    *live += (long)(p ? nsize : osize);
    return p;
}

static const agal_program *decode_vertex(agal_context *ctx)
{
    const agal_program *prog = NULL;
    CHECK(agal_decode(ctx, VERTEX, sizeof VERTEX, NULL, &prog) == AGAL_OK);
    CHECK(prog->version == 1 && prog->stage == AGAL_VERTEX && prog->ntokens == 2);
    CHECK(prog->tokens[0].op == AGAL_OP_M44 && prog->tokens[1].op == AGAL_OP_MOV);
    return prog;
}

static size_t check_spirv(agal_context *ctx, const agal_program *prog)
{
    agal_shader sh = agal_shader_init();
    CHECK(agal_translate(ctx, prog, NULL, &sh) == AGAL_OK);
    const uint32_t *words = sh.words;
    size_t n = sh.nwords;
    CHECK(n > 5 && words[0] == 0x07230203u); /* SPIR-V's magic number */
    CHECK(words[1] == 0x00010000u);          /* version 1.0 */
    return n;
}

static size_t check_glsl(agal_context *ctx, const agal_program *prog)
{
    agal_translate_options o = agal_translate_options_init();
    o.target = AGAL_TARGET_GLSL;
    agal_shader sh = agal_shader_init();
    CHECK(agal_translate(ctx, prog, &o, &sh) == AGAL_OK);
    const char *text = sh.text;
    size_t len = sh.len;
    CHECK(strlen(text) == len && strncmp(text, "#version 330 core\n", 18) == 0);
    CHECK(strstr(text, "\n    v0 = va1;\n") != NULL);
    CHECK(strstr(text, "\n    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);\n") != NULL);
    return len;
}

/* The assembler gives the same bytes, and a fragment program links with the vertex one. */
static void check_assemble_link(agal_context *ctx, const agal_program *vertex)
{
    const uint8_t *bytes = NULL;
    size_t size = 0;
    CHECK(agal_assemble(ctx, VERTEX_TEXT, strlen(VERTEX_TEXT), AGAL_VERTEX, 1, AGAL_ASM_STRICT, &bytes, &size) ==
          AGAL_OK);
    CHECK(size == sizeof VERTEX && memcmp(bytes, VERTEX, size) == 0);
    const char *frag_text = "mov oc, v0\n";
    CHECK(agal_assemble(ctx, frag_text, strlen(frag_text), AGAL_FRAGMENT, 1, 0, &bytes, &size) == AGAL_OK);
    const agal_decode_options opt = {.size = sizeof(agal_decode_options), .slot = AGAL_SLOT_FRAGMENT};
    const agal_program *fragment = NULL;
    CHECK(agal_decode(ctx, bytes, size, &opt, &fragment) == AGAL_OK);
    CHECK(agal_link(ctx, vertex, fragment) == AGAL_OK);
}

/* A program cut after 5 bytes: Flash's error 3615, with its message. */
static void check_error(agal_context *ctx)
{
    const agal_program *prog = NULL;
    CHECK(agal_decode(ctx, VERTEX, 5, NULL, &prog) == AGAL_ERR_INVALID);
    CHECK(agal_diag_count(ctx) == 1);
    const agal_diag *d = agal_diag_get(ctx, 0);
    CHECK(d->flash_id == 3615);
    agal_flash_error e;
    agal_flash_error_of(d, &e);
    char line[200];
    agal_flash_message(&e, line, sizeof line);
    CHECK(strcmp(line, "Error #3615: AGAL validation failed: Program size below minimum length for vertex program.") ==
          0);
}

int main(int argc, char **argv)
{
    CHECK(argc == 2 && strcmp(agal_version(), argv[1]) == 0);
    long live = 0;
    agal_context *ctx = agal_context_new(counting_alloc, &live);
    CHECK(ctx != NULL);
    const agal_program *vertex = decode_vertex(ctx);
    size_t words = check_spirv(ctx, vertex);
    size_t glsl = check_glsl(ctx, vertex);
    check_assemble_link(ctx, vertex);
    check_error(ctx);
    CHECK(live > 0);
    agal_context_free(ctx);
    CHECK(live == 0);
    printf("embed_program: libagal %s: %zu SPIR-V words, %zu bytes of GLSL, linked, error 3615\n", agal_version(),
           words, glsl);
    return 0;
}
