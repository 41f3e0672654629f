/* ir.c: the IR's primitives (ir.h): instructions, lists, constants, register slots,
 * the list walk and use counts. Everything that makes or reads IR builds on these;
 * they call nothing but the arena. */
#include "emit.h"

static AGAL_COLD bool grow_insts(agal_ir *ir)
{
    uint32_t cap = ir->inst_cap ? ir->inst_cap * 2 : 64;
    agal_ir_inst *n = agal_grow(ir->ctx, ir->insts, ir->ninsts, cap, sizeof *n);
    if (!n) return false;
    ir->insts = n;
    ir->inst_cap = cap;
    return true;
}

uint32_t agal_ir_new(agal_ir *ir, agal_ir_op op, agal_ir_type type, int32_t token)
{
    if (ir->ninsts == ir->inst_cap && !grow_insts(ir)) return 0;
    uint32_t v = ir->ninsts++;
    agal_ir_inst *in = &ir->insts[v];
    memset(in, 0, sizeof *in);
    in->op = (uint8_t)op;
    in->type = (uint8_t)type;
    in->reg_type = IR_NO_REG;
    in->token = (int16_t)token;
    return v;
}

uint32_t agal_ir_new_list(agal_ir *ir)
{
    if (ir->nlists == ir->list_cap) {
        uint32_t cap = ir->list_cap ? ir->list_cap * 2 : 8;
        agal_ir_list *n = agal_grow(ir->ctx, ir->lists, ir->nlists, cap, sizeof *n);
        if (!n) return UINT32_MAX;
        ir->lists = n;
        ir->list_cap = cap;
    }
    ir->lists[ir->nlists] = (agal_ir_list){0};
    return ir->nlists++;
}

/* A new list's first cap items, cut from the IR's shared room (list_room) when
 * short. The room's first item is never handed out, so no list's items start an
 * arena allocation: agal_grow then copies a list that outgrows them, and never
 * extends or resizes the room under the lists that follow in it. */
enum { LIST_ROOM = 256, LIST_ROOM_CUT = 32 };
static uint32_t *first_items(agal_ir *ir, uint32_t cap)
{
    if (cap > LIST_ROOM_CUT) return agal_alloc(ir->ctx, cap * sizeof(uint32_t));
    if (ir->list_room_left < cap) {
        uint32_t *room = agal_alloc(ir->ctx, (1 + LIST_ROOM) * sizeof *room);
        if (!room) return NULL;
        ir->list_room = room + 1;
        ir->list_room_left = LIST_ROOM;
    }
    uint32_t *items = ir->list_room;
    ir->list_room += cap;
    ir->list_room_left -= cap;
    return items;
}

/* Doubles the list's room, to at least `least` items (from 16 for a new list). */
static AGAL_COLD bool grow_list(agal_ir *ir, agal_ir_list *list, uint32_t least)
{
    uint32_t cap = list->cap ? list->cap * 2 : 16;
    if (cap < least) cap = least;
    uint32_t *n = list->cap ? agal_grow(ir->ctx, list->items, list->n, cap, sizeof *n) : first_items(ir, cap);
    if (!n) return false;
    list->items = n;
    list->cap = cap;
    return true;
}

bool agal_ir_reserve(agal_ir *ir, uint32_t l, uint32_t n)
{
    while (ir->inst_cap - ir->ninsts < n)
        if (!grow_insts(ir)) return false;
    agal_ir_list *list = &ir->lists[l];
    return list->cap - list->n >= n || grow_list(ir, list, list->n + n);
}

bool agal_ir_append(agal_ir *ir, uint32_t l, uint32_t v)
{
    agal_ir_list *list = &ir->lists[l];
    if (list->n == list->cap && !grow_list(ir, list, 0)) return false;
    list->items[list->n++] = v;
    return true;
}

uint32_t agal_ir_find_late_user(const agal_ir *ir)
{
    for (uint32_t v = 1; v < ir->ninsts; v++)
        for (unsigned a = 0; a < ir->insts[v].nargs; a++)
            if (ir->insts[v].args[a] > v) return v;
    return 0;
}

uint32_t agal_ir_find_copy(const agal_ir *ir)
{
    for (uint32_t v = 1; v < ir->ninsts; v++)
        if (agal_ir_copy_of(ir, v)) return v;
    return 0;
}

bool agal_ir_find_loads_unique(const agal_ir *ir)
{
    uint64_t seen[(IR_LOAD_KEYS + 63) / 64] = {0};
    for (uint32_t v = 1; v < ir->ninsts; v++) {
        if (!agal_ir_is_load(&ir->insts[v])) continue;
        unsigned k = agal_ir_load_key(&ir->insts[v]);
        if (seen[k >> 6] >> (k & 63) & 1) return false;
        seen[k >> 6] |= 1ull << (k & 63);
    }
    return true;
}

/* One test a value, without a branch on it. */
bool agal_ir_find_ddy(const agal_ir *ir)
{
    const agal_ir_inst *insts = ir->insts;
    bool ddy = false;
    for (uint32_t v = 1, n = ir->ninsts; v < n; v++) ddy |= (insts[v].op == IR_ALU) & (insts[v].aop == AGAL_OP_DDY);
    return ddy;
}

/* Does list l, or a branch in it, hold a kil? */
static bool holds_kil(const agal_ir *ir, uint32_t l)
{
    const agal_ir_list *list = &ir->lists[l];
    for (uint32_t i = 0; i < list->n; i++) {
        const agal_ir_inst *in = &ir->insts[list->items[i]];
        if (in->op == IR_KIL || (in->op == IR_IF && (holds_kil(ir, in->then_list) || holds_kil(ir, in->else_list))))
            return true;
    }
    return false;
}

/* An if in list l or below with no phi after it and no kil in it: nothing in it
 * can be live (a value reaches past an if only through its phis). */
static bool dead_if(const agal_ir *ir, uint32_t l)
{
    const agal_ir_list *list = &ir->lists[l];
    for (uint32_t i = 0; i < list->n; i++) {
        const agal_ir_inst *in = &ir->insts[list->items[i]];
        if (in->op != IR_IF) continue;
        bool phi = i + 1 < list->n && ir->insts[list->items[i + 1]].op == IR_PHI;
        if (!phi && !holds_kil(ir, in->then_list) && !holds_kil(ir, in->else_list)) return true;
        if (dead_if(ir, in->then_list) || dead_if(ir, in->else_list)) return true;
    }
    return false;
}

bool agal_ir_find_dead(const agal_ir *ir, const uint32_t *count)
{
    for (uint32_t v = 1; v < ir->ninsts; v++) {
        const agal_ir_inst *in = &ir->insts[v];
        if (in->op == IR_NOP || in->op == IR_CONST || in->type == IR_VOID) continue;
        if (!(count ? count[v] : in->nuses)) return true;
    }
    return dead_if(ir, 0);
}

uint32_t agal_ir_const(agal_ir *ir, float x, float y, float z, float w)
{
    const float want[4] = {x, y, z, w};
    for (uint32_t v = 1; v < ir->ninsts; v++)
        if (ir->insts[v].op == IR_CONST && memcmp(ir->insts[v].imm, want, sizeof want) == 0) return v;
    uint32_t v = agal_ir_new(ir, IR_CONST, IR_F4, -1);
    if (v) memcpy(ir->insts[v].imm, want, sizeof want);
    return v;
}

/* ---- register slots ------------------------------------------------------- */

void agal_ir_slot_reg(int slot, unsigned *type, unsigned *num)
{
    if (slot >= IR_SLOT_DEPTH) *type = AGAL_REG_DEPTH, *num = 0;
    else if (slot >= IR_SLOT_VARY) *type = AGAL_REG_VARYING, *num = (unsigned)(slot - IR_SLOT_VARY);
    else if (slot >= IR_SLOT_OUT) *type = AGAL_REG_OUTPUT, *num = (unsigned)(slot - IR_SLOT_OUT);
    else *type = AGAL_REG_TEMP, *num = (unsigned)slot;
}

/* ---- ops, walks, uses ------------------------------------------------------- */

static const char *const op_names[IR_OP_COUNT] = {
#define AGAL_IR_OP_NAME(id, name, ...) name,
    AGAL_IR_OPS(AGAL_IR_OP_NAME)
#undef AGAL_IR_OP_NAME
};

const char *agal_ir_op_name(unsigned op) { return op < IR_OP_COUNT ? op_names[op] : "?"; }

const char *agal_ir_clip_name(unsigned clip)
{
    static const char *const names[IR_CLIP_COUNT] = {"default", "vulkan", "gl", "none", "control"};
    return clip < IR_CLIP_COUNT ? names[clip] : NULL;
}

void agal_ir_walk(agal_ir *ir, uint32_t l, agal_ir_visit_fn fn, void *ud)
{
    for (uint32_t i = 0; i < ir->lists[l].n; i++) {
        uint32_t v = ir->lists[l].items[i];
        fn(ir, v, ud);
        if (ir->insts[v].op == IR_IF) {
            agal_ir_walk(ir, ir->insts[v].then_list, fn, ud);
            agal_ir_walk(ir, ir->insts[v].else_list, fn, ud);
        }
    }
}

static void count_one(agal_ir *ir, uint32_t v, void *ud)
{
    (void)ud;
    agal_ir_inst *in = &ir->insts[v];
    for (unsigned a = 0; a < in->nargs; a++) agal_ir_add_use(&ir->insts[in->args[a]]);
    ir->nlive++;
}

void agal_ir_count_uses(agal_ir *ir)
{
    for (uint32_t v = 0; v < ir->ninsts; v++) ir->insts[v].nuses = 0;
    ir->nlive = 0;
    agal_ir_walk(ir, 0, count_one, NULL);
}
