/* private.h: functions of libagal that are not its API. The library's stages and
 * the tests call them (the tests link the static stage libraries); the shared
 * library does not export them, and no installed header declares them. Each was
 * exported once and had no caller outside the library and its tests. */
#ifndef AGAL_PRIVATE_H
#define AGAL_PRIVATE_H

#include "agal/agal.h"
#include "agal/interp.h"
#include "agal/text.h"

/* Same, into caller memory: writes at most cap words to buf and sets *nwords to the
 * module's size; AGAL_ERR_LIMIT (and nothing useful in buf) when cap is too small. */
agal_status agal_translate_spirv_to(agal_context *ctx, const agal_program *prog, const agal_translate_options *opt,
                                    uint32_t *buf, size_t cap, size_t *nwords);

/* Flash's message template for an id ("AGAL validation failed: Opcode %2 only
 * allowed in fragment programs at token %3 of %1 program."), without the
 * "Error #id: " prefix; NULL for an id the table does not have (it has every id of
 * Program3D.upload and of Context3D's errors). */
const char *agal_flash_template(int flash_id);

/* Checks a texture description (dimension, sizes, level count, images present);
 * AGAL_ERR_INVALID with a diagnostic when it is unusable. */
agal_status agal_texture_check(agal_context *ctx, const agal_texture *tex);

/* Samples tex at coord (s, t for 2D; direction x, y, z for cube) at level of detail
 * lambda (log2 of the texel footprint, bias included), with the wrap, filter and
 * mipmap of state (a resolved sampler: agal_slots_resolve). out receives RGBA. */
void agal_texture_sample(const agal_texture *tex, const agal_sampler *state, const float coord[3], float lambda,
                         float out[4]);

/* The unbiased LOD of lane (0..3) of a 2x2 quad whose coordinates are coords[0..3]
 * (quad order as agal_interp_run), from fine (or coarse) derivatives scaled by the
 * level-0 size; for a cube, of the face coordinates by the chain rule on the lane's
 * own face (texture.c). */
float agal_texture_quad_lod(const agal_texture *tex, const float coords[4][4], unsigned lane, bool coarse);

/* Looks up a mnemonic (case-sensitive, as Adobe's assembler); NULL if unknown. */
const agal_opinfo *agal_opinfo_find(const char *name, size_t len);
/* The field and value a name stands for; false when it names none. */
bool agal_sampler_option_find(const char *name, size_t len, agal_sampler_field *field, unsigned *value);

#endif
