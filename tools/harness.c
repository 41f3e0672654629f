/* harness.c: what both runners share (texture layout, results, driver pinning). */
#define _GNU_SOURCE 1 /* dl_iterate_phdr, RTLD_NODELETE */
#include "harness.h"

#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

static int pin_one(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (info->dlpi_name && info->dlpi_name[0])
        (void)dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}

/* The loaders unload drivers (and the LLVM they pull in) at teardown; what the
 * drivers leak at exit then has no module name, so no sanitizer suppression can
 * name it. Pinning every loaded object keeps them mapped until exit. The
 * RTLD_NOLOAD handles are deliberately never closed. */
void harness_pin_libraries(void)
{
    dl_iterate_phdr(pin_one, NULL);
}

size_t harness_texture_floats(const harness_texture *t)
{
    return harness_texture_offset(t, t->cube ? 6 : 1, 0);
}

size_t harness_texture_offset(const harness_texture *t, unsigned face, unsigned level)
{
    size_t per_face = 0, off = 0;
    for (unsigned l = 0; l < t->levels; l++) {
        size_t s = t->size >> l;
        if (l < level)
            off += s * s * 4;
        per_face += s * s * 4;
    }
    return per_face * face + off;
}

void harness_result_free(harness_result *r)
{
    for (int i = 0; i < HARNESS_MAX_OUTPUTS; i++)
        free(r->color[i]);
    free(r->depth);
    free(r->xfb);
    memset(r, 0, sizeof *r);
}
