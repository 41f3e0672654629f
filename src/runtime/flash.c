/* flash.c: Flash Player's error messages, as it throws them: Program3D.upload's
 * (the validator's diagnostics) and those of Context3D, its buffers and textures
 * that a runtime throws, all as one agal_flash_error (an id and the text of its
 * arguments).
 *
 * One row per error id: the ActionScript class, what %1 and %2 stand for, and the
 * template, exactly as Flash Player's message table has it (recorded from Flash
 * Player by Ruffle's test error_geterrormessage; docs/format.md sections 5 and 8). The
 * validator records the facts a message needs in its diagnostic (agal_diag: the
 * program, the operand, the token, a number) and agal_flash_error_of spells them;
 * a runtime fills the arguments itself. Where Flash's class for an id is recorded
 * (2008, 3780, 3781) the row has it; elsewhere it is the class Adobe's reference
 * names for the condition in the method's "Throws" list, else Error. */
#include "internal.h"

#include <stdio.h>

/* What a template's %1 and %2 stand for. */
enum {
    A_NONE,    /* not used */
    A_ARG,     /* a runtime error's argument, the text the caller fills in */
    A_PROGRAM, /* "vertex" or "fragment": the slot (agal_diag.stage) */
    A_OPERAND, /* "source operand 1", "source operand 2", "destination operand" */
    A_VALUE,   /* agal_diag.value in decimal */
    A_OPCODE,  /* the opcode's mnemonic (its value in decimal when it has none) */
    A_TOKEN    /* the token, counting from 1 */
};

/* The ActionScript classes Flash throws its errors as. */
enum { C_ERROR, C_ARGUMENT, C_RANGE, C_TYPE };
static const char *const class_names[] = {"Error", "ArgumentError", "RangeError", "TypeError"};

typedef struct flash_error {
    uint16_t id;
    uint8_t cls; /* C_*; 3615 is an ArgumentError only when the program is empty (%1 "") */
    uint8_t arg1, arg2;
    const char *text;
} flash_error;

#define V "AGAL validation failed: "
#define AT " at token %3 of %1 program."
#define AT2 ". At token %3 of %1 program."
#define FOR " for %2 at token %3 of %1 program."
/* A runtime error: %1.. are the caller's strings. */
/* A braced initializer as a macro, which clang-format would split: */
/* clang-format off */
#define RT(id, cls, text) {id, cls, A_ARG, A_ARG, text}
/* clang-format on */

/* Sorted by id. */
static const flash_error errors[] = {
    RT(2006, C_RANGE, "The supplied index is out of bounds."),
    RT(2007, C_TYPE, "Parameter %1 must be non-null."),
    RT(2008, C_ARGUMENT, "Parameter %1 must be one of the accepted values."),
    RT(2015, C_ARGUMENT, "Invalid BitmapData."),
    RT(3600, C_ERROR, "No valid program set."),
    RT(3602, C_ERROR, "Sanity check on parameters failed, %1 triangles and %2 index offset."),
    RT(3603, C_RANGE,
       "Not enough indices in this buffer. %1 triangles at offset %2, but there are only %3 indices in buffer."),
    RT(3604, C_ERROR, "Sampler %1 binds a texture that is also bound for render to texture."),
    RT(3606, C_ERROR, "Sampler %1 format does not match texture format."),
    RT(3607, C_ERROR, "Stream %1 is set but not used by the current vertex program."),
    RT(3609, C_RANGE, "Stream %1 does not have enough vertices."),
    RT(3610, C_RANGE, "Stream %1 vertex offset is out of bounds"), /* no full stop, as recorded */
    RT(3611, C_ERROR, "Stream %1 is read by the current vertex program but not set."),
    {3612, C_ARGUMENT, A_NONE, A_NONE, "Programs must be in little endian format."},
    /* Program3D.upload's "Native Shader Compilation Failed" (release players): this
     * library's refusal of a program its device's limits cannot hold (limits.c) */
    {3613, C_ERROR, A_NONE, A_NONE, "The native shader compilation failed."},
    {3615, C_ERROR, A_PROGRAM, A_NONE, V "Program size below minimum length for %1 program."},
    {3616, C_ERROR, A_PROGRAM, A_NONE, V "Not an AGAL program. Wrong magic byte for %1 program."},
    {3617, C_ERROR, A_PROGRAM, A_VALUE, V "Bad AGAL version for %1 program. Current version is %2."},
    {3618, C_ERROR, A_PROGRAM, A_NONE, V "Bad AGAL program type identifier for %1 program."},
    {3619, C_ERROR, A_PROGRAM, A_NONE, V "Shader type must be either fragment or vertex for %1 program."},
    {3620, C_ERROR, A_PROGRAM, A_VALUE, V "Invalid opcode, value out of range: %2" AT},
    {3621, C_ERROR, A_PROGRAM, A_OPCODE, V "Invalid opcode, %2 is not implemented in this version" AT},
    {3622, C_ERROR, A_PROGRAM, A_OPCODE, V "Opcode %2 only allowed in fragment programs" AT},
    {3623, C_ERROR, A_PROGRAM, A_NONE, V "Block nesting underflow - EIF without opening IF condition" AT2},
    {3624, C_ERROR, A_PROGRAM, A_NONE, V "Block nesting overflow. Too many nested IF blocks" AT2},
    {3625, C_ERROR, A_PROGRAM, A_TOKEN,
     V "Bad AGAL source operands. Both are constants (this must be precomputed) at token %2 of %1 program."},
    {3626, C_ERROR, A_PROGRAM, A_OPCODE, V "Opcode %2, both operands are indirect reads" AT},
    {3627, C_ERROR, A_PROGRAM, A_OPCODE, V "Opcode %2 destination operand must be all zero" AT},
    {3628, C_ERROR, A_PROGRAM, A_OPCODE,
     V "The destination operand for the %2 instruction must mask w (use .xyz or less)" AT},
    {3629, C_ERROR, A_PROGRAM, A_VALUE, V "Too many tokens (%2) for %1 program."},
    {3630, C_ERROR, A_NONE, A_NONE, "Fragment shader type is not fragment."},
    {3631, C_ERROR, A_NONE, A_NONE, "Vertex shader type is not vertex."},
    {3632, C_ERROR, A_VALUE, A_NONE,
     "AGAL linkage: Varying %1 is read in the fragment shader but not written to by the vertex shader."},
    {3633, C_ERROR, A_VALUE, A_NONE,
     "AGAL linkage: Varying %1 is only partially written to. Must write all four components."},
    {3634, C_ERROR, A_NONE, A_NONE, "AGAL linkage: Fragment output needs to write to all components."},
    {3635, C_ERROR, A_NONE, A_NONE, "AGAL linkage: Vertex output needs to write to all components."},
    {3636, C_ERROR, A_PROGRAM, A_OPERAND, V "Unused operand is not set to zero" FOR},
    {3637, C_ERROR, A_PROGRAM, A_OPERAND, V "Sampler registers only allowed in fragment programs" FOR},
    {3638, C_ERROR, A_PROGRAM, A_OPERAND,
     V "Sampler register only allowed as second operand in texture instructions" FOR},
    {3639, C_ERROR, A_PROGRAM, A_OPERAND, V "Indirect addressing only allowed in vertex programs" FOR},
    {3640, C_ERROR, A_PROGRAM, A_OPERAND, V "Indirect addressing only allowed into constant registers" FOR},
    {3641, C_ERROR, A_PROGRAM, A_OPERAND, V "Indirect addressing not allowed for this operand in this instruction" FOR},
    {3642, C_ERROR, A_PROGRAM, A_OPERAND, V "Indirect source type must be attribute, constant or temporary" FOR},
    {3643, C_ERROR, A_PROGRAM, A_OPERAND, V "Indirect addressing fields must be zero for direct addressing" FOR},
    {3644, C_ERROR, A_PROGRAM, A_OPERAND, V "Varying registers can only be read in fragment programs" FOR},
    {3645, C_ERROR, A_PROGRAM, A_OPERAND, V "Attribute registers can only be read in vertex programs" FOR},
    {3646, C_ERROR, A_PROGRAM, A_OPERAND, V "Can not read from output register" FOR},
    {3647, C_ERROR, A_PROGRAM, A_OPERAND, V "Temporary register read without being written to" FOR},
    {3648, C_ERROR, A_PROGRAM, A_OPERAND, V "Temporary register component read without being written to" FOR},
    {3649, C_ERROR, A_PROGRAM, A_OPERAND, V "Sampler registers can not be written to" FOR},
    {3650, C_ERROR, A_PROGRAM, A_OPERAND, V "Varying registers can only be written in vertex programs" FOR},
    {3651, C_ERROR, A_PROGRAM, A_OPERAND, V "Attribute registers can not be written to" FOR},
    {3652, C_ERROR, A_PROGRAM, A_OPERAND, V "Constant registers can not be written to" FOR},
    {3653, C_ERROR, A_PROGRAM, A_OPERAND, V "Destination writemask is zero" FOR},
    {3654, C_ERROR, A_PROGRAM, A_OPERAND, V "Reserve bits should be zero" FOR},
    {3655, C_ERROR, A_PROGRAM, A_OPERAND, V "Unknown register type" FOR},
    {3656, C_ERROR, A_PROGRAM, A_OPERAND, V "Sampler register index out of bounds" FOR},
    {3657, C_ERROR, A_PROGRAM, A_OPERAND, V "Varying register index out of bounds" FOR},
    {3658, C_ERROR, A_PROGRAM, A_OPERAND, V "Attribute register index out of bounds" FOR},
    {3659, C_ERROR, A_PROGRAM, A_OPERAND, V "Constant register index out of bounds" FOR},
    {3660, C_ERROR, A_PROGRAM, A_OPERAND, V "Output register index out of bounds" FOR},
    {3661, C_ERROR, A_PROGRAM, A_OPERAND, V "Temporary register index out of bounds" FOR},
    {3662, C_ERROR, A_PROGRAM, A_OPERAND, V "Cube map samplers must set wrapping to clamp mode" FOR},
    RT(3663, C_ERROR, "Sampler %1 binds an undefined texture."),
    {3664, C_ERROR, A_PROGRAM, A_OPERAND, V "Unknown sampler dimension %4" FOR},
    {3665, C_ERROR, A_PROGRAM, A_OPERAND, V "Unknown filter mode in sampler: %4" FOR},
    {3666, C_ERROR, A_PROGRAM, A_OPERAND, V "Unknown mipmap mode in sampler: %4" FOR},
    {3667, C_ERROR, A_PROGRAM, A_OPERAND, V "Unknown wrapping mode in sampler: %4" FOR},
    {3668, C_ERROR, A_PROGRAM, A_OPERAND, V "Unknown special flag used in sampler: %4" FOR},
    RT(3669, C_RANGE, "Bad input size."),
    RT(3670, C_ARGUMENT, "Buffer too big."),
    RT(3671, C_ARGUMENT, "Buffer has zero size."),
    RT(3673, C_ARGUMENT, "Cube side must be [0..5]."),
    RT(3674, C_ARGUMENT, "Miplevel too large."),
    RT(3681, C_ARGUMENT, "Texture size is zero."),
    RT(3682, C_ARGUMENT, "Texture size not a power of two."),
    RT(3683, C_ARGUMENT, "Texture too big (max is %1x%1)."),
    {3689, C_ERROR, A_PROGRAM, A_OPERAND, "You can not swizzle second operand" FOR},
    RT(3690, C_ERROR, "Too many draw calls before calling present."),
    RT(3691, C_ERROR, "Resource limit for this resource type exceeded."),
    RT(3692, C_ERROR, "All buffers need to be cleared every frame before drawing."),
    {3693, C_ERROR, A_PROGRAM, A_OPERAND,
     V "Sampler register must be used for second operand in texture instructions" FOR},
    RT(3695, C_ERROR,
       "A texture can only be bound to multiple samplers if the samplers also have the exact same "
       "properties. Mismatch at samplers %1 and %2."),
    {3696, C_ERROR, A_PROGRAM, A_NONE,
     V "Second use of sampler register needs to specify the exact same properties" AT2},
    RT(3697, C_ERROR, "A texture is bound on sampler %1 but not used by the fragment program."),
    RT(3698, C_ERROR, "The back buffer is not configured."),
    RT(3700, C_ERROR,
       "A texture sampler binds an incomplete texture. Make sure to upload(). All miplevels are "
       "required when mipmapping is enabled."),
    {3703, C_ERROR, A_PROGRAM, A_OPERAND, V "Source swizzle must be scalar (one of: xxxx, yyyy, zzzz, wwww)" FOR},
    RT(3705, C_ARGUMENT, "Cubemap texture too big (max is 1024x1024)."),
    RT(3706, C_ERROR, "Scissor rectangle is set but does not intersect the framebuffer."),
    RT(3711, C_ARGUMENT, "The streaming levels is too large."),
    /* %2, the program's version, is agal_diag.value (agal_upload's diagnostic). */
    {3725, C_ERROR, A_NONE, A_VALUE,
     "The requested AGAL version (%2) is not valid under the Context3D profile. "
     "For example AGAL version 2 requires standard profile."},
    {3726, C_ERROR, A_PROGRAM, A_OPCODE,
     V "Opcode %2 requires AGAL version to be at least 2, at token %3 of %1 program."},
    RT(3728, C_ERROR,
       "When rendering to multiple textures slot 0 must be active. When rendering to the back buffer "
       "all render to texture slots must be disabled."),
    RT(3729, C_ERROR,
       "When rendering to multiple textures all textures must have the same dimension and render "
       "settings."),
    RT(3730, C_ERROR,
       "When rendering to multiple textures the same texture (or cube map face) may not be bound into "
       "multiple slots."),
    {3739, C_ERROR, A_PROGRAM, A_NONE, V "Open conditional block at end of %1 program."},
    {3740, C_ERROR, A_PROGRAM, A_NONE, V "Texture samplers used in the TED instruction can not specify a lod bias" AT2},
    {3741, C_ERROR, A_PROGRAM, A_NONE,
     V "TEX instructions in an if block can not use computed texture coordinates. Either use interpolated texture "
       "coordinates or use the TED instruction instead" AT2},
    {3742, C_ERROR, A_PROGRAM, A_NONE, V "DDX and DDY opcodes are not allowed inside conditional blocks" AT2},
    {3743, C_ERROR, A_PROGRAM, A_NONE, V "The TED opcode must enable mip mapping" AT2},
    {3744, C_ERROR, A_PROGRAM, A_NONE, V "Color output written to multiple times" AT2},
    RT(3745, C_ARGUMENT, "Compressed texture size is too small. The minimum size for compressed textures is 4x4."),
    RT(3746, C_ERROR, "Rendering to compressed textures is not allowed."),
    {3748, C_ERROR, A_PROGRAM, A_NONE, V "Empty conditional branch in AGAL of %1 program."},
    {3749, C_ERROR, A_PROGRAM, A_OPERAND, V "Depth output register index out of bounds" FOR},
    {3750, C_ERROR, A_NONE, A_NONE, V "Depth output register is only available in fragment programs."},
    {3751, C_ERROR, A_NONE, A_NONE, V "Output registers can not be written inside conditionals."},
    {3752, C_ERROR, A_NONE, A_NONE, V "Broken else chain."},
    RT(3753, C_ERROR, "Rectangle or cube textures require textures sampling to be set to clamp."),
    RT(3755, C_ERROR, "Rectangle textures have to disable mip mapping and can not have a lod bias set."),
    {3756, C_ERROR, A_PROGRAM, A_NONE, V "Depth output must set only x as a write mask" AT2},
    {3757, C_ERROR, A_NONE, A_NONE, V "Vertex and fragment program need to have the same version."},
    {3758, C_ERROR, A_PROGRAM, A_NONE, V "Conditional source are exactly the same, condition is constant" AT2},
    RT(3759, C_ARGUMENT, "The selected texture format is not valid in this profile."),
    RT(3760, C_ARGUMENT, "The color output index is out of range."),
    RT(3762, C_ARGUMENT, "This texture format is not supported for rectangle textures."),
    RT(3763, C_ERROR,
       "Sampler %1 binds a texture that that does not match the read mode specified in AGAL. Reading "
       "compressed or single/dual channel textures must be explicitly declared."), /* "that that", as recorded */
    RT(3766, C_ARGUMENT, "RectangleTexture too big (max is the larger of %1x%1 or the size of the backbuffer)."),
    RT(3770, C_ARGUMENT, "ColorOutputIndex must be in the range [0..3]."),
    RT(3771, C_ARGUMENT, "2D textures need to have surfaceSelector = 0."),
    RT(3772, C_ARGUMENT, "Cube textures need to have surfaceSelector [0..5]."),
    RT(3773, C_ARGUMENT, "Rectangle textures need to have surfaceSelector = 0."),
    RT(3774, C_ERROR, "All the assigned render targets should match the outputs in the fragment program."),
    {3775, C_ERROR, A_NONE, A_NONE, V "Non-consecutive slots are not allowed."},
    RT(3776, C_ERROR, "Depth output in fragment program requires depthAndStencil = true."),
    RT(3780, C_ERROR, "Requested width of backbuffer is not in allowed range %1 to %2."),
    RT(3781, C_ERROR, "Requested height of backbuffer is not in allowed range %1 to %2."),
    RT(3782, C_ERROR, "This call requires a Context3D that is created with the baseline profile or above."),
    RT(3784, C_ARGUMENT, "The number of instances per element should be greater than 0."),
    RT(3785, C_RANGE, "Vertex buffer stream %1 does not contain enough elements for number of instances."),
    {3786, C_ERROR, A_PROGRAM, A_OPERAND, V "Instance id register can not be written to" FOR},
    RT(3787, C_ERROR, "This call requires a Context3D that is created with the standard extended profile or above."),
    {3788, C_ERROR, A_NONE, A_NONE, "Instance id register can only be read in the vertex shader."},
    {3789, C_ERROR, A_NONE, A_NONE, V "Instance id register is supported in Agal version 3 and above."},
    RT(3792, C_ERROR, "Vertex buffer stream %1 for instances is improperly set at first index."),
    RT(3802, C_ERROR, "Offset outside stage coordinate bound."),
};

#undef V
#undef AT
#undef AT2
#undef FOR

static const flash_error *find(int id)
{
    size_t lo = 0, hi = AGAL_COUNTOF(errors);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (errors[mid].id == id) return &errors[mid];
        if (errors[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

const char *agal_flash_template(int flash_id)
{
    const flash_error *e = find(flash_id);
    return e ? e->text : NULL;
}

/* The text an argument of kind `kind` stands for, into out (32 bytes). */
static void arg_text(const agal_diag *d, unsigned kind, char out[32])
{
    static const char *const operands[] = {"", "destination operand", "source operand 1", "source operand 2"};
    const char *s = "";
    switch (kind) {
    case A_PROGRAM:
        /* An empty program is "for  program" (and an ArgumentError). */
        if (!(d->flash_id == 3615 && d->value == 0)) s = d->stage == AGAL_FRAGMENT ? "fragment" : "vertex";
        break;
    case A_OPERAND: s = operands[d->operand & 3]; break;
    case A_OPCODE:
        if (d->opname) s = d->opname;
        else snprintf(out, 32, "%ld", d->value);
        break;
    case A_VALUE: snprintf(out, 32, "%ld", d->value); break;
    case A_TOKEN: snprintf(out, 32, "%d", d->token + 1); break;
    default: break;
    }
    if (*s) snprintf(out, 32, "%s", s);
}

/* Whether the template names %k. */
static bool names(const char *text, int k)
{
    for (const char *p = text; (p = strchr(p, '%')) != NULL; p++)
        if (p[1] == '0' + k) return true;
    return false;
}

void agal_flash_error_of(const agal_diag *d, agal_flash_error *out)
{
    memset(out, 0, sizeof *out);
    out->id = d->flash_id;
    const flash_error *e = find(d->flash_id);
    if (!e) {
        if (!d->flash_id) out->message = d->message;
        return;
    }
    const unsigned kinds[4] = {e->arg1, e->arg2, A_TOKEN, A_VALUE};
    for (int k = 0; k < 4; k++)
        if (names(e->text, k + 1)) arg_text(d, kinds[k], out->args[k]);
}

const char *agal_flash_class(const agal_flash_error *e)
{
    const flash_error *f = find(e->id);
    if (e->id == 3615 && !e->args[0][0]) return class_names[C_ARGUMENT];
    return class_names[f ? f->cls : C_ERROR];
}

int agal_flash_message(const agal_flash_error *e, char *buf, size_t size)
{
    const flash_error *f = find(e->id);
    if (!e->id) return snprintf(buf, size, "Error: %s", e->message ? e->message : "");
    if (!f) return snprintf(buf, size, "Error #%d", e->id);
    /* "Error #id: " and the template with %k replaced by args[k - 1] (k = 1..4). */
    char text[640];
    size_t n = (size_t)snprintf(text, sizeof text, "Error #%d: ", f->id);
    for (const char *p = f->text; *p && n + 1 < sizeof text; p++) {
        if (p[0] != '%' || p[1] < '1' || p[1] > '4') {
            text[n++] = *p;
            continue;
        }
        const char *a = e->args[*++p - '1'];
        const char *end = memchr(a, 0, sizeof e->args[0]);
        size_t len = end ? (size_t)(end - a) : sizeof e->args[0];
        if (len > sizeof text - 1 - n) len = sizeof text - 1 - n;
        memcpy(text + n, a, len);
        n += len;
    }
    text[n] = 0;
    return snprintf(buf, size, "%s", text);
}

int agal_flash_line(const agal_flash_error *e, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s: ", agal_flash_class(e));
    size_t used = size ? ((size_t)n < size ? (size_t)n : size - 1) : 0;
    return n + agal_flash_message(e, size ? buf + used : buf, size - used);
}
