/* flash.c: Flash Player's error messages for Program3D.upload, as it throws them.
 *
 * One row per error id: the ActionScript class, what %1 and %2 stand for, and the
 * template, exactly as Flash Player's message table has it (recorded from Flash
 * Player by Ruffle's test error_geterrormessage; src/agal.md section 5). The
 * validator records the facts a message needs in its diagnostic (agal_diag: the
 * program, the operand, the token, a number); this file only spells them. */
#include "internal.h"

#include <stdio.h>

/* What a template's %1 and %2 stand for. */
enum {
    A_NONE,    /* not used */
    A_PROGRAM, /* "vertex" or "fragment": the slot (agal_diag.stage) */
    A_OPERAND, /* "source operand 1", "source operand 2", "destination operand" */
    A_VALUE,   /* agal_diag.value in decimal */
    A_OPCODE,  /* the opcode's mnemonic (its value in decimal when it has none) */
    A_TOKEN    /* the token, counting from 1 */
};

typedef struct flash_error {
    uint16_t id;
    bool argument_error; /* thrown as ArgumentError (3615 only when the program is empty) */
    uint8_t arg1, arg2;
    const char *text;
} flash_error;

#define V "AGAL validation failed: "
#define AT " at token %3 of %1 program."
#define AT2 ". At token %3 of %1 program."
#define FOR " for %2 at token %3 of %1 program."

/* Sorted by id. */
static const flash_error errors[] = {
    {3612, true, A_NONE, A_NONE, "Programs must be in little endian format."},
    {3615, false, A_PROGRAM, A_NONE, V "Program size below minimum length for %1 program."},
    {3616, false, A_PROGRAM, A_NONE, V "Not an AGAL program. Wrong magic byte for %1 program."},
    {3617, false, A_PROGRAM, A_VALUE, V "Bad AGAL version for %1 program. Current version is %2."},
    {3618, false, A_PROGRAM, A_NONE, V "Bad AGAL program type identifier for %1 program."},
    {3619, false, A_PROGRAM, A_NONE, V "Shader type must be either fragment or vertex for %1 program."},
    {3620, false, A_PROGRAM, A_VALUE, V "Invalid opcode, value out of range: %2" AT},
    {3621, false, A_PROGRAM, A_OPCODE, V "Invalid opcode, %2 is not implemented in this version" AT},
    {3622, false, A_PROGRAM, A_OPCODE, V "Opcode %2 only allowed in fragment programs" AT},
    {3623, false, A_PROGRAM, A_NONE, V "Block nesting underflow - EIF without opening IF condition" AT2},
    {3624, false, A_PROGRAM, A_NONE, V "Block nesting overflow. Too many nested IF blocks" AT2},
    {3625, false, A_PROGRAM, A_TOKEN,
     V "Bad AGAL source operands. Both are constants (this must be precomputed) at token %2 of %1 program."},
    {3626, false, A_PROGRAM, A_OPCODE, V "Opcode %2, both operands are indirect reads" AT},
    {3627, false, A_PROGRAM, A_OPCODE, V "Opcode %2 destination operand must be all zero" AT},
    {3628, false, A_PROGRAM, A_OPCODE, V "The destination operand for the %2 instruction must mask w (use .xyz or less)" AT},
    {3629, false, A_PROGRAM, A_VALUE, V "Too many tokens (%2) for %1 program."},
    {3630, false, A_NONE, A_NONE, "Fragment shader type is not fragment."},
    {3631, false, A_NONE, A_NONE, "Vertex shader type is not vertex."},
    {3632, false, A_VALUE, A_NONE, "AGAL linkage: Varying %1 is read in the fragment shader but not written to by the vertex shader."},
    {3633, false, A_VALUE, A_NONE, "AGAL linkage: Varying %1 is only partially written to. Must write all four components."},
    {3634, false, A_NONE, A_NONE, "AGAL linkage: Fragment output needs to write to all components."},
    {3635, false, A_NONE, A_NONE, "AGAL linkage: Vertex output needs to write to all components."},
    {3636, false, A_PROGRAM, A_OPERAND, V "Unused operand is not set to zero" FOR},
    {3637, false, A_PROGRAM, A_OPERAND, V "Sampler registers only allowed in fragment programs" FOR},
    {3638, false, A_PROGRAM, A_OPERAND, V "Sampler register only allowed as second operand in texture instructions" FOR},
    {3639, false, A_PROGRAM, A_OPERAND, V "Indirect addressing only allowed in vertex programs" FOR},
    {3640, false, A_PROGRAM, A_OPERAND, V "Indirect addressing only allowed into constant registers" FOR},
    {3641, false, A_PROGRAM, A_OPERAND, V "Indirect addressing not allowed for this operand in this instruction" FOR},
    {3642, false, A_PROGRAM, A_OPERAND, V "Indirect source type must be attribute, constant or temporary" FOR},
    {3643, false, A_PROGRAM, A_OPERAND, V "Indirect addressing fields must be zero for direct addressing" FOR},
    {3644, false, A_PROGRAM, A_OPERAND, V "Varying registers can only be read in fragment programs" FOR},
    {3645, false, A_PROGRAM, A_OPERAND, V "Attribute registers can only be read in vertex programs" FOR},
    {3646, false, A_PROGRAM, A_OPERAND, V "Can not read from output register" FOR},
    {3647, false, A_PROGRAM, A_OPERAND, V "Temporary register read without being written to" FOR},
    {3648, false, A_PROGRAM, A_OPERAND, V "Temporary register component read without being written to" FOR},
    {3649, false, A_PROGRAM, A_OPERAND, V "Sampler registers can not be written to" FOR},
    {3650, false, A_PROGRAM, A_OPERAND, V "Varying registers can only be written in vertex programs" FOR},
    {3651, false, A_PROGRAM, A_OPERAND, V "Attribute registers can not be written to" FOR},
    {3652, false, A_PROGRAM, A_OPERAND, V "Constant registers can not be written to" FOR},
    {3653, false, A_PROGRAM, A_OPERAND, V "Destination writemask is zero" FOR},
    {3654, false, A_PROGRAM, A_OPERAND, V "Reserve bits should be zero" FOR},
    {3655, false, A_PROGRAM, A_OPERAND, V "Unknown register type" FOR},
    {3656, false, A_PROGRAM, A_OPERAND, V "Sampler register index out of bounds" FOR},
    {3657, false, A_PROGRAM, A_OPERAND, V "Varying register index out of bounds" FOR},
    {3658, false, A_PROGRAM, A_OPERAND, V "Attribute register index out of bounds" FOR},
    {3659, false, A_PROGRAM, A_OPERAND, V "Constant register index out of bounds" FOR},
    {3660, false, A_PROGRAM, A_OPERAND, V "Output register index out of bounds" FOR},
    {3661, false, A_PROGRAM, A_OPERAND, V "Temporary register index out of bounds" FOR},
    {3662, false, A_PROGRAM, A_OPERAND, V "Cube map samplers must set wrapping to clamp mode" FOR},
    {3664, false, A_PROGRAM, A_OPERAND, V "Unknown sampler dimension %4" FOR},
    {3665, false, A_PROGRAM, A_OPERAND, V "Unknown filter mode in sampler: %4" FOR},
    {3666, false, A_PROGRAM, A_OPERAND, V "Unknown mipmap mode in sampler: %4" FOR},
    {3667, false, A_PROGRAM, A_OPERAND, V "Unknown wrapping mode in sampler: %4" FOR},
    {3668, false, A_PROGRAM, A_OPERAND, V "Unknown special flag used in sampler: %4" FOR},
    {3689, false, A_PROGRAM, A_OPERAND, "You can not swizzle second operand" FOR},
    {3693, false, A_PROGRAM, A_OPERAND, V "Sampler register must be used for second operand in texture instructions" FOR},
    {3696, false, A_PROGRAM, A_NONE, V "Second use of sampler register needs to specify the exact same properties" AT2},
    {3703, false, A_PROGRAM, A_OPERAND, V "Source swizzle must be scalar (one of: xxxx, yyyy, zzzz, wwww)" FOR},
    {3726, false, A_PROGRAM, A_OPCODE, V "Opcode %2 requires AGAL version to be at least 2, at token %3 of %1 program."},
    {3739, false, A_PROGRAM, A_NONE, V "Open conditional block at end of %1 program."},
    {3740, false, A_PROGRAM, A_NONE, V "Texture samplers used in the TED instruction can not specify a lod bias" AT2},
    {3741, false, A_PROGRAM, A_NONE,
     V "TEX instructions in an if block can not use computed texture coordinates. Either use interpolated texture "
       "coordinates or use the TED instruction instead" AT2},
    {3742, false, A_PROGRAM, A_NONE, V "DDX and DDY opcodes are not allowed inside conditional blocks" AT2},
    {3743, false, A_PROGRAM, A_NONE, V "The TED opcode must enable mip mapping" AT2},
    {3744, false, A_PROGRAM, A_NONE, V "Color output written to multiple times" AT2},
    {3748, false, A_PROGRAM, A_NONE, V "Empty conditional branch in AGAL of %1 program."},
    {3749, false, A_PROGRAM, A_OPERAND, V "Depth output register index out of bounds" FOR},
    {3750, false, A_NONE, A_NONE, V "Depth output register is only available in fragment programs."},
    {3751, false, A_NONE, A_NONE, V "Output registers can not be written inside conditionals."},
    {3752, false, A_NONE, A_NONE, V "Broken else chain."},
    {3756, false, A_PROGRAM, A_NONE, V "Depth output must set only x as a write mask" AT2},
    {3757, false, A_NONE, A_NONE, V "Vertex and fragment program need to have the same version."},
    {3758, false, A_PROGRAM, A_NONE, V "Conditional source are exactly the same, condition is constant" AT2},
    {3775, false, A_NONE, A_NONE, V "Non-consecutive slots are not allowed."},
    {3786, false, A_PROGRAM, A_OPERAND, V "Instance id register can not be written to" FOR},
    {3788, false, A_NONE, A_NONE, "Instance id register can only be read in the vertex shader."},
    {3789, false, A_NONE, A_NONE, V "Instance id register is supported in Agal version 3 and above."},
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

static bool empty_program(const agal_diag *d) { return d->flash_id == 3615 && d->value == 0; }

const char *agal_flash_class(const agal_diag *d)
{
    const flash_error *e = find(d->flash_id);
    return (e && e->argument_error) || empty_program(d) ? "ArgumentError" : "Error";
}

/* The text an argument of kind `kind` stands for, into tmp when it is a number. */
static const char *arg_text(const agal_diag *d, unsigned kind, char tmp[32])
{
    static const char *const operands[] = {"", "destination operand", "source operand 1", "source operand 2"};
    switch (kind) {
    case A_PROGRAM:
        if (empty_program(d)) return "";
        return d->stage == AGAL_FRAGMENT ? "fragment" : "vertex";
    case A_OPERAND: return operands[d->operand & 3];
    case A_OPCODE:
        if (d->opname) return d->opname;
        snprintf(tmp, 32, "%ld", d->value);
        return tmp;
    case A_VALUE: snprintf(tmp, 32, "%ld", d->value); return tmp;
    case A_TOKEN: snprintf(tmp, 32, "%d", d->token + 1); return tmp;
    default: return "";
    }
}

int agal_flash_message(const agal_diag *d, char *buf, size_t size)
{
    const flash_error *e = find(d->flash_id);
    if (!e) return snprintf(buf, size, "Error: %s", d->message ? d->message : "");
    char text[512], tmp[32];
    size_t n = (size_t)snprintf(text, sizeof text, "Error #%d: ", e->id);
    for (const char *p = e->text; *p && n + 32 < sizeof text; p++) {
        if (p[0] != '%' || p[1] < '1' || p[1] > '4') {
            text[n++] = *p;
            continue;
        }
        unsigned k = (unsigned)(*++p - '0');
        const char *a = k == 1 ? arg_text(d, e->arg1, tmp)
                        : k == 2 ? arg_text(d, e->arg2, tmp)
                        : k == 3 ? arg_text(d, A_TOKEN, tmp)
                                 : arg_text(d, A_VALUE, tmp);
        size_t len = strlen(a);
        memcpy(text + n, a, len);
        n += len;
    }
    text[n] = 0;
    return snprintf(buf, size, "%s", text);
}
