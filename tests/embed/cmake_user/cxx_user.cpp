// cxx_user.cpp: a C++ emulator's first use of the library through find_package(agal
// CONFIG): Program3D.upload of an assembled pair to GLSL ES 1.00, then the pair in
// the wrong slots refused with Flash's line. Usage: cxx_user VERSION (the package's).
#include <agal/agal.h>
#include <agal/interp.h>
#include <agal/stage3d.h>
#include <agal/text.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            std::fprintf(stderr, "cxx_user.cpp:%d: failed: %s\n", __LINE__, #cond); \
            std::exit(1); \
        } \
    } while (0)

static const char VERTEX[] = "m44 op, va0, vc0\nmov v0, va1\n";
static const char FRAGMENT[] = "tex ft0, v0, fs0 <2d,linear,repeat>\nmul oc, ft0, fc0\n";

int main(int argc, char **argv)
{
    CHECK(argc == 2 && std::strcmp(agal_version(), argv[1]) == 0);
    agal_context *ctx = agal_context_new(nullptr, nullptr);
    CHECK(ctx != nullptr);
    const uint8_t *vbytes = nullptr, *fbytes = nullptr;
    size_t vsize = 0, fsize = 0;
    CHECK(agal_assemble(ctx, VERTEX, std::strlen(VERTEX), AGAL_VERTEX, 1, 0, &vbytes, &vsize) == AGAL_OK);
    CHECK(agal_assemble(ctx, FRAGMENT, std::strlen(FRAGMENT), AGAL_FRAGMENT, 1, 0, &fbytes, &fsize) == AGAL_OK);

    agal_upload_options opt = agal_upload_options_init();
    opt.target = AGAL_TARGET_ESSL1;
    agal_upload_result up = agal_upload_result_init();
    CHECK(agal_upload(ctx, vbytes, vsize, fbytes, fsize, &opt, &up) == AGAL_OK);
    CHECK(up.nsamplers == 1 && up.nattributes == 2 && up.nvaryings == 1);
    CHECK(std::strstr(up.shaders[AGAL_VERTEX].text, "attribute vec4 va0;") != nullptr);
    CHECK(std::strstr(up.shaders[AGAL_FRAGMENT].text, "uniform sampler2D fs0;") != nullptr);

    CHECK(agal_upload(ctx, fbytes, fsize, vbytes, vsize, &opt, &up) != AGAL_OK);
    agal_flash_error err;
    agal_flash_error_of(agal_diag_get(ctx, 0), &err);
    char line[512];
    CHECK(agal_flash_line(&err, line, sizeof line) > 0);
    std::printf("%s\n", line);
    CHECK(std::strncmp(line, "Error: Error #363", 17) == 0);
    agal_context_free(ctx);
    return 0;
}
