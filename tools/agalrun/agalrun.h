/* agalrun.h: the subcommands of agalrun and what they share (tools/agalrun/agalrun_io.c).
 *
 * agalrun.c holds main and the subcommand table; each subcommand lives in its own
 * file as `int agalrun_<name>(int argc, char **argv)` (argv[0] is the subcommand's
 * name) returning the exit status: 0 ok, 1 invalid program or failed run
 * (diagnostics on stderr), 2 usage, I/O or input-file error. */
#ifndef AGALRUN_H
#define AGALRUN_H

#include "agal/agal.h"
#include "agal/interp.h"
#include "agal/stage3d.h"

#include <stdio.h>

/* agalrun_interp.c: run the reference interpreter, print the outputs as JSON. */
int agalrun_interp(int argc, char **argv);
/* agalrun_compare.c: interpreter against the Vulkan/GL backends. Built when the
 * meson file adds it with -DAGALRUN_HAVE_COMPARE (see tools/meson.build). */
int agalrun_compare(int argc, char **argv);
/* agalrun_replay.c: a Stage3D scene replayed on Vulkan or GL (replay.h). Built with
 * -DAGALRUN_HAVE_REPLAY (see tools/meson.build). */
int agalrun_replay(int argc, char **argv);

/* Programs load through tools/common/toolio.h (tool_load_program). */
#include "toolio.h"

/* ---- interpreter inputs (the JSON of `agalrun interp --inputs`) -------------
 *
 * {"constants": [[x,y,z,w], ...],
 *  "invocations": [{"va0": [..], "iid": 3}, ...]        (vertex: va0..va15, iid)
 *                 [{"v0": [..], ...}, ...]               (fragment: v0..v9, in quads)
 *  "textures": [{"sampler": 0, "dim": "2d"|"cube", "width": W, "height": H,
 *                "levels": [[[r,g,b,a], ...], ...]}],    (per level: w*h texels, row 0 first;
 *                                                         cube: 6 faces +x,-x,+y,-y,+z,-z, either as
 *                                                         6 arrays of texels or one array of 6*w*h)
 *  "samplerStates": [{"slot": 0, "wrap": "repeat", "filter": "linear", "mipfilter": "mipnone"}],
 *                    (Context3D.setSamplerStateAt calls after setProgram of the program, in
 *                     order, AS3's strings; every key needed; the slots: agal_interp_env.slots)
 *  "derivatives": "fine"|"coarse"}                       (default fine: agal_interp_env)
 * Vectors may have 1..4 numbers (missing components are 0); a number may also be
 * the string "NaN", "Infinity" or "-Infinity". Every key is optional. */
typedef struct agalrun_inputs {
    agal_interp_env env;      /* points into the storage below */
    agal_sampler_slots slots; /* setProgram, then samplerStates */
    agal_interp_invocation *inv;
    size_t ninv;
    void **blocks; /* every malloc'd block, freed by agalrun_inputs_free */
    size_t nblocks, blocks_cap;
} agalrun_inputs;

/* The largest inputs file read: a cap against reading a device or a wrong file
 * until memory runs out, not a limit of the format. 256 MiB holds a 2048x2048
 * texture's mip chain written out as JSON (about 22 bytes a component); the
 * tests' inputs are kilobytes. */
enum { AGALRUN_MAX_INPUTS = 256 << 20 };

/* Parses the input JSON text (len bytes, NUL-terminated) for prog (its stage says
 * what an invocation holds, its samplers what setProgram writes into the slots):
 * one JSON value and nothing after it but white space. On error returns false
 * with a message in err (and in->... partly filled: free it anyway). */
bool agalrun_inputs_parse(const char *json, size_t len, const agal_program *prog, agalrun_inputs *in, char *err,
                          size_t errsize);
void agalrun_inputs_free(agalrun_inputs *in);

/* ---- output ---------------------------------------------------------------- */

/* Prints {"invocations": [...]} for n results of prog: vertex op and each varying
 * the program writes; fragment each colour output it writes (oc0 at least), fd when
 * written, and killed. Floats as %.9g (they read back exactly); NaN and the
 * infinities as the strings "NaN", "Infinity", "-Infinity". */
void agalrun_print_results(FILE *f, const agal_program *prog, const agal_interp_result *r, size_t n);

#endif
