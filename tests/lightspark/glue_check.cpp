// glue_check.cpp: integrations/lightspark's glue (agal2spv.{h,cpp}, which the
// Lightspark patch adds) driven as flashdisplay3d.cpp drives it, without Lightspark:
// Program3D.upload's texts and Flash's errors, the sampler slots, the checks, the
// y flip. Built by test_lightspark.py with -Werror against the installed headers.
#include "scripting/flash/display3d/agal2spv.h"

#include <agal/text.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace lightspark::agal2spv;

#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            std::fprintf(stderr, "glue_check.cpp:%d: failed: %s\n", __LINE__, #cond); \
            std::exit(1); \
        } \
    } while (0)

struct Bytes {
    const uint8_t *data;
    size_t size;
};

static Bytes assemble(agal_context *ctx, const char *text, agal_stage stage, uint32_t version)
{
    Bytes b = {nullptr, 0};
    CHECK(agal_assemble(ctx, text, std::strlen(text), stage, version, 0, &b.data, &b.size) == AGAL_OK);
    return b;
}

static bool has(const char *text, const char *what) { return text && std::strstr(text, what) != nullptr; }

static void check_error(const FlashError &e, int id, const char *cls, const char *message)
{
    if (e.id != id || e.errorClass != cls || e.message != message)
        std::fprintf(stderr, "got %d %s '%s'\n", e.id, e.errorClass.c_str(), e.message.c_str());
    CHECK(e.id == id && e.errorClass == cls && e.message == message);
}

int main()
{
    agal_context *ctx = agal_context_new(nullptr, nullptr);
    Bytes v1 = assemble(ctx, "m44 op, va0, vc0\nmov v0, va1\n", AGAL_VERTEX, 1);
    Bytes v2 = assemble(ctx, "m44 op, va0, vc0\nmov v0, va1\n", AGAL_VERTEX, 2);
    Bytes f1 = assemble(ctx, "tex ft0, v0, fs1 <2d,linear,repeat>\nmul oc, ft0, fc0\n", AGAL_FRAGMENT, 1);
    // AGAL 2 with a per-component branch (the built-in converter compares vectors).
    Bytes f2 = assemble(ctx, "mov ft0, v0\nine ft0.x, fc1.x\nmov ft0, fc0\neif\nmov oc, ft0\n", AGAL_FRAGMENT, 2);

    // Program3D.upload: GLSL ES 1.00 with the names Lightspark's draw path binds.
    Program program;
    FlashError error;
    CHECK(program.upload(v1.data, v1.size, false, f1.data, f1.size, false, AGAL_PROFILE_BASELINE, error));
    CHECK(program.uploaded() && program.result().nsamplers == 1 && program.result().samplers[0].num == 1);
    const char *vs = program.text(AGAL_VERTEX);
    const char *fs = program.text(AGAL_FRAGMENT);
    CHECK(has(vs, "uniform vec4 vc[") && has(vs, "attribute vec4 va0;") && has(vs, "attribute vec4 va1;"));
    CHECK(has(vs, "vcPositionScale") && has(fs, "uniform sampler2D sampler1;") && has(fs, "uniform vec4 fc["));

    // Flash's errors, as flashdisplay3d.cpp throws them.
    Program refused;
    CHECK(!refused.upload(f1.data, f1.size, false, v1.data, v1.size, false, AGAL_PROFILE_BASELINE, error));
    CHECK(!refused.uploaded());
    check_error(error, 3631, "Error", "Error #3631: Vertex shader type is not vertex.");
    CHECK(!refused.upload(v1.data, v1.size, true, f1.data, f1.size, false, AGAL_PROFILE_BASELINE, error));
    check_error(error, 3612, "ArgumentError", "Error #3612: Programs must be in little endian format.");
    CHECK(!refused.upload(v1.data, 0, false, f1.data, f1.size, false, AGAL_PROFILE_BASELINE, error));
    check_error(error, 3615, "ArgumentError",
                "Error #3615: AGAL validation failed: Program size below minimum length for  program.");
    // AGAL 2 in a baseline Context3D, then in a standard one.
    CHECK(!refused.upload(v2.data, v2.size, false, f2.data, f2.size, false, AGAL_PROFILE_BASELINE, error));
    CHECK(error.id == 3725 && error.errorClass == "Error");
    Context standard;
    standard.setProfile("standard");
    CHECK(standard.profile() == AGAL_PROFILE_STANDARD);
    Program branch;
    CHECK(branch.upload(v2.data, v2.size, false, f2.data, f2.size, false, standard.profile(), error));
    CHECK(has(branch.text(AGAL_FRAGMENT), "if (!(ft0.x == fc[1].x))"));
    CHECK(!branch.upload(v1.data, v1.size, false, nullptr, 0, false, standard.profile(), error));
    CHECK(has(branch.text(AGAL_FRAGMENT), "if (!(ft0.x == fc[1].x))")); // a refused upload keeps the last one
    CHECK(!checkNonNull(nullptr, "vertexProgram", error));
    check_error(error, 2007, "TypeError", "Error #2007: Parameter vertexProgram must be non-null.");

    // The slots: setProgram writes the token's state, setSamplerStateAt a slot.
    Context context;
    context.setProgram(program);
    agal_sampler token = program.result().samplers[0].token;
    TexParameters tp = texParameters(context.resolve(token));
    CHECK(tp.wrap == 3 && tp.filter == 1 && tp.mipmap == 0 && tp.dimension == 0 && tp.lodBias == 0);
    unsigned wrap = 0, filter = 0, mip = 0;
    CHECK(checkEnum(AGAL_S3D_WRAP_MODE, "clamp_u_repeat_v", "wrap", wrap, error));
    CHECK(checkEnum(AGAL_S3D_TEXTURE_FILTER, "nearest", "filter", filter, error));
    CHECK(checkEnum(AGAL_S3D_MIP_FILTER, "miplinear", "mipfilter", mip, error));
    agal_sampler_state state;
    state.wrap = uint8_t(wrap);
    state.filter = uint8_t(filter);
    state.mipmap = uint8_t(mip);
    context.setSamplerState(1, unpackSamplerState(packSamplerState(state)));
    tp = texParameters(context.resolve(token));
    CHECK(tp.wrap == 2 && tp.filter == 0 && tp.mipmap == 2); // repeat along v (T) only
    context.setProgram(program);                             // the token's state again
    CHECK(texParameters(context.resolve(token)).wrap == 3);

    // Context3D's checks: stage3d_errors' lines, recorded from Flash.
    CHECK(!context.checkBackBuffer(0, 0, error));
    check_error(error, 3780, "Error",
                "Error #3780: Requested width of backbuffer is not in allowed range 32 to 16384.");
    CHECK(!context.checkBackBuffer(64, 20000, error));
    check_error(error, 3781, "Error",
                "Error #3781: Requested height of backbuffer is not in allowed range 32 to 16384.");
    CHECK(context.checkBackBuffer(64, 64, error));
    CHECK(!checkEnum(AGAL_S3D_VERTEX_FORMAT, "float5", "vertexStreamFormat", wrap, error));
    check_error(error, 2008, "ArgumentError",
                "Error #2008: Parameter vertexStreamFormat must be one of the accepted values.");

    // setProgramConstants*: stage3d_program_constants_invalid_input's 3669s, recorded
    // from Flash, and the registers past the constant file (2006).
    std::vector<float> values;
    CHECK(!constantsFromVector(AGAL_PROFILE_BASELINE, AGAL_VERTEX, 0, {1, 2, 3}, 1, values, error));
    check_error(error, 3669, "RangeError", "Error #3669: Bad input size.");
    CHECK(values.empty());
    CHECK(constantsFromVector(AGAL_PROFILE_BASELINE, AGAL_VERTEX, 2, {1, 2, 3, 4, 5, 6, 7, 8, 9}, -1, values, error));
    CHECK(values == std::vector<float>({1, 2, 3, 4, 5, 6, 7, 8}));
    CHECK(!constantsFromVector(AGAL_PROFILE_BASELINE, AGAL_FRAGMENT, 27, {1, 2, 3, 4, 5, 6, 7, 8}, 2, values, error));
    check_error(error, 2006, "RangeError", "Error #2006: The supplied index is out of bounds.");
    // Little-endian floats whatever the ByteArray's endian flag: 1.0f, -2.0f, 0.5f, 0.
    const uint8_t bytes[20] = {9, 9, 9, 9, 0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0, 0, 0, 0, 0x3f, 0, 0, 0, 0};
    CHECK(constantsFromBytes(AGAL_PROFILE_BASELINE, AGAL_FRAGMENT, 1, 1, bytes, 20, 4, values, error));
    CHECK(values == std::vector<float>({1.0f, -2.0f, 0.5f, 0.0f}));
    CHECK(!constantsFromBytes(AGAL_PROFILE_BASELINE, AGAL_FRAGMENT, 0, 1, bytes, 16, 16, values, error));
    CHECK(error.id == 3669 && values.empty()); // an offset at the end
    CHECK(!constantsFromBytes(AGAL_PROFILE_BASELINE, AGAL_FRAGMENT, 0, 1, bytes, 20, 8, values, error));
    CHECK(error.id == 3669); // 12 bytes after the offset

    CHECK(yFlip(false) == 1.0f && yFlip(true) == -1.0f && !frontFaceCCW(false) && frontFaceCCW(true));
    agal_context_free(ctx);
    std::printf("glue: uploads, 7 errors, slots, checks, constants and y flip as Flash\n");
    return 0;
}
