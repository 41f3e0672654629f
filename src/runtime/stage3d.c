/* stage3d.c: the AS3 spellings of flash.display3D's enumeration classes, one
 * string a value, in the order of agal.h's enums (Adobe's ActionScript 3 reference
 * gives the strings). The sampler classes share the AGAL sampler options' table
 * (opcodes.c), whose strings are the same. Context3DProfile's names map to the
 * register profiles (agal_profile_find). */
#include "internal.h"

enum { MAX_VALUES = 10 };

static const char *const names[AGAL_S3D_ENUMS][MAX_VALUES] = {
    [AGAL_S3D_BLEND_FACTOR] = {"zero", "one", "sourceColor", "oneMinusSourceColor", "sourceAlpha",
                               "oneMinusSourceAlpha", "destinationColor", "oneMinusDestinationColor",
                               "destinationAlpha", "oneMinusDestinationAlpha"},
    [AGAL_S3D_COMPARE_MODE] = {"never", "less", "equal", "lessEqual", "greater", "notEqual", "greaterEqual", "always"},
    [AGAL_S3D_STENCIL_ACTION] = {"keep", "zero", "set", "incrementSaturate", "decrementSaturate", "invert",
                                 "incrementWrap", "decrementWrap"},
    [AGAL_S3D_TRIANGLE_FACE] = {"none", "front", "back", "frontAndBack"},
    [AGAL_S3D_VERTEX_FORMAT] = {"float1", "float2", "float3", "float4", "bytes4"},
    [AGAL_S3D_TEXTURE_FORMAT] = {"bgra", "bgraPacked4444", "bgrPacked565", "compressed", "compressedAlpha",
                                 "rgbaHalfFloat"},
    [AGAL_S3D_PROGRAM_TYPE] = {[AGAL_VERTEX] = "vertex", [AGAL_FRAGMENT] = "fragment"},
    [AGAL_S3D_PROFILE] = {"baselineConstrained", "baseline", "baselineExtended", "standardConstrained", "standard",
                          "standardExtended", "enhanced"},
    [AGAL_S3D_BUFFER_USAGE] = {"staticDraw", "dynamicDraw"},
};

/* The AGAL sampler field whose option names a sampler class shares. */
static bool sampler_field(agal_stage3d_enum which, agal_sampler_field *field)
{
    switch (which) {
    case AGAL_S3D_WRAP_MODE: *field = AGAL_SMP_WRAP; return true;
    case AGAL_S3D_TEXTURE_FILTER: *field = AGAL_SMP_FILTER; return true;
    case AGAL_S3D_MIP_FILTER: *field = AGAL_SMP_MIPMAP; return true;
    default: return false;
    }
}

const char *agal_stage3d_name(agal_stage3d_enum which, unsigned value)
{
    agal_sampler_field field;
    if (sampler_field(which, &field)) return agal_sampler_option_name(field, value);
    if ((unsigned)which >= AGAL_S3D_ENUMS || value >= MAX_VALUES) return NULL;
    return names[which][value];
}

bool agal_stage3d_find(agal_stage3d_enum which, const char *name, unsigned *value)
{
    if (!name) return false;
    for (unsigned v = 0; v < MAX_VALUES; v++) {
        const char *n = agal_stage3d_name(which, v);
        if (n && !strcmp(n, name)) {
            *value = v;
            return true;
        }
    }
    return false;
}

/* Context3DProfile's names (docs/format.md section 7) mean their register profiles;
 * the library's own names (baseline, standard, standard_extended) are taken too. */
bool agal_profile_find(const char *name, agal_profile *out)
{
    unsigned p;
    if (agal_stage3d_find(AGAL_S3D_PROFILE, name, &p)) {
        *out = agal_context3d_registers((agal_context3d_profile)p);
        return true;
    }
    if (!name || strcmp(name, "standard_extended")) return false;
    *out = AGAL_PROFILE_STANDARD_EXTENDED;
    return true;
}
