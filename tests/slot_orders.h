/* slot_orders.h: the orders of Context3D.setProgram and setSamplerStateAt that the
 * slot tests run (docs/format.md section 7), in the interpreter (test_interp.c) and on
 * the drivers (test_runtime.c), each with the state its draw must sample with.
 *
 * Two fragment programs sample fs0 with the same baked state, one token plain
 * ('P'), one with ignoresampler ('I'); 'a' and 'b' are setSamplerStateAt(0, A or B).
 * Each order starts from a new Context3D (agal_slots_init). */
#ifndef TESTS_SLOT_ORDERS_H
#define TESTS_SLOT_ORDERS_H

#include "agal/agal.h"
#include "agal/interp.h"
#include "agal/stage3d.h"

typedef struct slot_order {
    const char *what;
    const char *calls; /* in order */
    char draw;         /* the program drawn: 'P' or 'I' */
    char want;         /* 'o' the tokens' own state, 'u' a slot never written, 'a', 'b' */
} slot_order;

static const slot_order slot_orders[] = {
    {"setProgram: the token's own state", "P", 'P', 'o'},
    {"setProgram, ignoresampler: a slot never written, clamp nearest mipnone", "I", 'I', 'u'},
    {"setSamplerStateAt, setProgram: the token's", "aP", 'P', 'o'},
    {"setProgram, setSamplerStateAt: the call's", "Pb", 'P', 'b'},
    {"setSamplerStateAt, setProgram with ignoresampler: the call's", "aI", 'I', 'a'},
    {"setProgram with ignoresampler, setSamplerStateAt: the call's", "Ib", 'I', 'b'},
    {"setProgram, setProgram with ignoresampler: the first's", "PI", 'I', 'o'},
    {"setSamplerStateAt twice: the last", "Iab", 'I', 'b'},
};

/* A and B: states no token of the tests bakes, and unlike each other and a slot
 * never written on both axes, in the filter and in the mipmap. */
static const agal_sampler_state slot_state_a = {AGAL_WRAP_CLAMP_U_REPEAT_V, AGAL_FILTER_LINEAR, AGAL_MIP_NONE};
static const agal_sampler_state slot_state_b = {AGAL_WRAP_REPEAT_U_CLAMP_V, AGAL_FILTER_NEAREST, AGAL_MIP_NEAREST};

/* The slots after o's calls on a new Context3D. */
static inline void slot_order_run(const slot_order *o, agal_sampler_slots *s, const agal_program *plain,
                                  const agal_program *ignore)
{
    agal_slots_init(s);
    for (const char *c = o->calls; *c; c++) {
        if (*c == 'P' || *c == 'I') agal_slots_set_program(s, *c == 'P' ? plain : ignore);
        else agal_slots_set_state(s, 0, *c == 'a' ? slot_state_a : slot_state_b);
    }
}

/* The state o's draw must sample with; own: the tokens' baked state. */
static inline agal_sampler_state slot_order_want(const slot_order *o, agal_sampler_state own)
{
    static const agal_sampler_state unset = {AGAL_WRAP_CLAMP, AGAL_FILTER_NEAREST, AGAL_MIP_NONE};
    return o->want == 'o' ? own : o->want == 'u' ? unset : o->want == 'a' ? slot_state_a : slot_state_b;
}

#endif
