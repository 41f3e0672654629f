/* test_glslang_check.c: the glslang helper accepts valid GLSL 330, rejects what a
 * GL 3.3 driver rejects, links by name and makes SPIR-V for Vulkan. */
#include "glslang_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char vs_ok[] = "#version 330 core\n"
                            "layout(std140) uniform agal_vc_block { vec4 vc[128]; };\n"
                            "layout(location = 0) in vec4 va0;\n"
                            "out vec4 v0;\n"
                            "void main() { v0 = va0; gl_Position = va0 * vc[3]; }\n";

static const char fs_ok[] = "#version 330 core\n"
                            "uniform sampler2D fs0;\n"
                            "in vec4 v0;\n"
                            "layout(location = 0) out vec4 oc0;\n"
                            "void main() { oc0 = texture(fs0, v0.xy, 0.5); }\n";

/* Declares v0 with another type than the vertex shader (glslang's cross-stage check
 * compares types of same-named varyings and uniforms; it does not report a fragment
 * input that no vertex output names, which real GL drivers do). */
static const char fs_other[] = "#version 330 core\n"
                               "in vec3 v0;\n"
                               "layout(location = 0) out vec4 oc0;\n"
                               "void main() { oc0 = v0.xyzz; }\n";

static void test_gl(void)
{
    char log[1024];
    CHECK(glslang_check_gl(AGAL_VERTEX, vs_ok, log, sizeof log));
    CHECK(glslang_check_gl(AGAL_FRAGMENT, fs_ok, log, sizeof log));
    /* binding= on a uniform block is GLSL 4.20: a 3.30 compiler refuses it. */
    CHECK(!glslang_check_gl(AGAL_VERTEX,
                            "#version 330 core\n"
                            "layout(std140, binding = 0) uniform B { vec4 vc[4]; };\n"
                            "void main() { gl_Position = vc[0]; }\n",
                            log, sizeof log));
    CHECK(strstr(log, "binding") != NULL);
    /* An undeclared name. */
    CHECK(!glslang_check_gl(AGAL_FRAGMENT, "#version 330 core\nout vec4 o;\nvoid main() { o = ft0; }\n", log,
                            sizeof log));
    CHECK(strstr(log, "ft0") != NULL);
    /* gl_FragDepth exists in fragment shaders only. */
    CHECK(!glslang_check_gl(AGAL_VERTEX, "#version 330 core\nvoid main() { gl_FragDepth = 0.5; }\n", log, sizeof log));
}

static void test_link(void)
{
    char log[1024];
    CHECK(glslang_check_gl_link(vs_ok, fs_ok, log, sizeof log));
    log[0] = 0;
    CHECK(!glslang_check_gl_link(vs_ok, fs_other, log, sizeof log));
    CHECK(strncmp(log, "link: ", 6) == 0 && strstr(log, "Types must match") != NULL);
}

static void test_vulkan(void)
{
    char log[1024];
    uint32_t *w = NULL;
    size_t n = 0;
    CHECK(glslang_compile_vulkan(AGAL_FRAGMENT,
                                 "#version 450\n"
                                 "layout(location = 0) in vec4 v0;\n"
                                 "layout(location = 0) out vec4 oc0;\n"
                                 "void main() { oc0 = v0 * 2.0; }\n",
                                 &w, &n, log, sizeof log));
    CHECK(n > 5 && w && w[0] == 0x07230203u);
    CHECK(n > 5 && w && w[1] == 0x00010000u); /* SPIR-V 1.0 */
    free(w);
    /* Vulkan needs locations on user inputs/outputs. */
    CHECK(!glslang_compile_vulkan(AGAL_FRAGMENT,
                                  "#version 450\nin vec4 v0;\nout vec4 oc0;\n"
                                  "void main() { oc0 = v0; }\n",
                                  &w, &n, log, sizeof log));
    CHECK(w == NULL && n == 0);
}

int main(void)
{
    if (!glslang_check_init()) {
        fprintf(stderr, "glslang_initialize_process failed\n");
        return 1;
    }
    test_gl();
    test_link();
    test_vulkan();
    glslang_check_fini();
    if (failures) fprintf(stderr, "%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
