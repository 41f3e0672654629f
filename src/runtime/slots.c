/* slots.c: Flash's sampler slots (docs/format.md section 7): the wrap, filter and
 * mipmap a draw samples with, from setProgram and setSamplerStateAt in the order the
 * emulator calls them. In the core library: the reference interpreter resolves
 * every tex through them too. */
#include "internal.h"

void agal_slots_init(agal_sampler_slots *slots)
{
    for (unsigned i = 0; i < AGAL_SAMPLER_SLOTS; i++)
        slots->slot[i] = (agal_sampler_state){AGAL_WRAP_CLAMP, AGAL_FILTER_NEAREST, AGAL_MIP_NONE};
}

void agal_slots_set_program(agal_sampler_slots *slots, const agal_program *fragment)
{
    for (uint32_t i = 0; fragment && i < fragment->ntokens; i++) {
        const agal_token *t = &fragment->tokens[i];
        const agal_opinfo *info = agal_opinfo_get(t->op);
        if (!info || !(info->operands & AGAL_OPND_S) || t->s.num >= AGAL_SAMPLER_SLOTS) continue;
        if (t->s.special & AGAL_SPECIAL_IGNORESAMPLER) continue; /* the slot keeps what it holds */
        slots->slot[t->s.num] = (agal_sampler_state){t->s.wrap, t->s.filter, t->s.mipmap};
    }
}

void agal_slots_set_state(agal_sampler_slots *slots, unsigned slot, agal_sampler_state state)
{
    if (slot >= AGAL_SAMPLER_SLOTS || !agal_sampler_state_valid(state)) return;
    slots->slot[slot] = state;
}

agal_sampler agal_slots_resolve(const agal_sampler_slots *slots, const agal_sampler *token)
{
    agal_sampler s = *token;
    if (token->num < AGAL_SAMPLER_SLOTS) {
        const agal_sampler_state *st = &slots->slot[token->num];
        s.wrap = st->wrap;
        s.filter = st->filter;
        s.mipmap = st->mipmap;
    }
    return s;
}
