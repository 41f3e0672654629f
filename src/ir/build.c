/* build.c: validated AGAL tokens -> SSA IR (see ir.h for the IR's shape).
 *
 * One forward walk over the tokens. Registers that are written (temporaries and
 * outputs) live in the builder's table as "current SSA value per register"; every
 * source read becomes an explicit load or the current value, then an explicit
 * swizzle; every write becomes one new value (a merge for partial masks). Blocks are
 * opened, switched and closed by join.c, which saves and joins the register table.
 * No pass runs here: agal_ir_pipeline runs them. */
#include "ir.h"

/* ---- building blocks ------------------------------------------------------ */

/* An indirect read made earlier that a later one may be: a relative read is an
 * address, a bounds check and a load, and m33 after m34 on the same rows
 * (skinning), or two tokens reading a row through an unchanged index register,
 * would make them again; not every driver merges them (docs/internals.md, "Figures
 * behind the decisions"). The read is reused while
 * the list it is in is still open (so it dominates) and the index register holds
 * the value it had: temporaries by their SSA value, the others never change. */
typedef struct shared_read {
    uint64_t key; /* read_key: the row and the index register, compared at once */
    uint32_t list, index_value, v;
    uint8_t depth;
} shared_read;
enum { SHARED_READS = 32, SHARED_DEPTH = 8 };
/* Where a shared load is read, kept in its removed instruction (args[1]) so that
 * the sharing can be undone (unshare_loads): operand 0 of the value made next
 * (NEXT_VALUE), or operand k of its token's operation (OP_OPERAND + k). */
enum { NEXT_VALUE = 0, OP_OPERAND = 1 };

/* What a token makes, by opcode, derived from the opcode table's operands and flags
 * (agal_opcodes.def) when this file compiles: a token is one lookup and one switch,
 * not a chain of tests of its flags. */
enum token_kind { TK_NONE = 0 /* no opcode */, TK_VALUE, TK_IF, TK_ELSE, TK_ENDIF, TK_KIL };
enum { B_SOURCE = 1 }; /* token_shape.b: source B read swizzled, as a value */
typedef struct token_shape {
    uint8_t kind;  /* token_kind */
    uint8_t op;    /* TK_VALUE: the IR op of its value */
    uint8_t b;     /* TK_VALUE: 0 (no source B), B_SOURCE, or the rows of a matrix B (3, 4) */
    uint8_t deriv; /* ddx or ddy: the one IR_ALU value the info record and takes_ddy note */
} token_shape;

#define SHAPE_KIND(ID, fl) \
    ((fl)&AGAL_OPF_IF              ? TK_IF \
     : (fl)&AGAL_OPF_ELSE          ? TK_ELSE \
     : (fl)&AGAL_OPF_ENDIF         ? TK_ENDIF \
     : AGAL_OP_##ID == AGAL_OP_KIL ? TK_KIL \
                                   : TK_VALUE)
#define SHAPE_OP(ID, fl) \
    (AGAL_OP_##ID == AGAL_OP_MOV                ? IR_COPY \
     : (fl)&AGAL_OPF_TEXTURE                    ? IR_TEX \
     : (fl) & (AGAL_OPF_ROWS3 | AGAL_OPF_ROWS4) ? IR_MATRIX \
                                                : IR_ALU)
#define SHAPE_B(opnd, fl) ((fl)&AGAL_OPF_ROWS3 ? 3 : (fl)&AGAL_OPF_ROWS4 ? 4 : (opnd)&AGAL_OPND_B ? B_SOURCE : 0)
static const token_shape shapes[AGAL_OP_LIMIT] = {
#define AGAL_OPCODE(ID, nm, hex, opnd, ver, wd, fl) \
    [hex] = {SHAPE_KIND(ID, fl), SHAPE_OP(ID, fl), SHAPE_B(opnd, fl), ((fl)&AGAL_OPF_DERIV) != 0},
#include "agal/agal_opcodes.def"
#undef AGAL_OPCODE
};
#undef SHAPE_KIND
#undef SHAPE_OP
#undef SHAPE_B

/* The most values one token makes before a block call, in the instructions (the
 * list takes one fewer: the zero constant is in none). Without a relative read, a
 * matrix op's A loaded and swizzled, its four rows, the op, its merge and the zero
 * (an if's scalars and compare are fewer): the builder has that room reserved at each
 * token (reserve_token), so that making a value tests no capacity. A relative
 * read (a load, an extract and the read) reserves the most the rest of its token can
 * make: a matrix op's A and four rows read so (16), A's swizzle, the op, its merge
 * and the zero. The smaller room for most tokens keeps a block's short list from
 * growing twice. */
enum { TOKEN_VALUES = 9, RELATIVE_TOKEN_VALUES = 20 };

/* Failure is the sticky error (internal.h): every helper returns 0 on failure and
 * the caller propagates it; the cause is in err: out of memory, or a program the
 * validator should not have passed (AGAL_ERR_INTERNAL, with a diagnostic). A value
 * made from a failed operand is never read: the build stops after the token. */
typedef struct build {
    agal_ir_builder b;
    agal_status err;
    int token;
    agal_ir_list *list; /* the list receiving values, its room reserved (reserve) */
    /* Where its next item goes, NULL where list is not known (a block call may
     * have made another list current or moved them): its count is set from it
     * only where something else reads the list (list_done), not at each value. */
    uint32_t *item;
    /* Tokens after this one whose TOKEN_VALUES the room reserved holds too
     * (reserve_token), so that most tokens test no capacity; 0 after a block call,
     * which may switch the list. A relative read's reserve counts them after the
     * most the rest of its token makes, as a token's does after its own. */
    uint32_t room_tokens;
#ifdef AGAL_IR_CHECK
    unsigned room;        /* values add may still make in the reserved room */
    agal_ir_inst scratch; /* what add writes past it, refused */
#endif
    /* By register type, for this program's stage and profile: how many registers a
     * source may read (0: none), and the IR op that loads one (IR_NOP: a temporary,
     * read as its current SSA value). */
    uint16_t readable[AGAL_REG_TYPES];
    uint8_t load_op[AGAL_REG_TYPES];
    /* By register type, for this program's stage: how many registers a destination
     * may write (0: none), and the slot of its register 0 (agal_ir_reg_slot's, one
     * lookup a write rather than its switch). */
    uint8_t writable[AGAL_REG_TYPES], slot_base[AGAL_REG_TYPES];
    bool fold_movs; /* agal_ir_options.fold_movs, where it applies */
    /* The loads made (IR_INPUT, IR_UNIFORM), in value order, in no list yet: at the
     * end they go to the front of the body, which dominates every read, where
     * opt_share_loads keeps them (its walk of the lists then has nothing to take
     * out of them). As long as the instructions' room (loads_match), so that the
     * room reserve makes for values is room for loads too. */
    uint32_t *loads;
    uint32_t nloads, loads_cap;
    /* agal_ir_options.share_loads, where it applies: a register's later loads are
     * removed as made (IR_NOP where the load would be, args[0] its first load),
     * listed nowhere, and their reads read the first load, as opt_share_loads
     * would make them. A load's key is key_base[type] + its number; first_load[k]
     * is read only where loaded[k] is set (it is not cleared; loaded is bytes, not
     * bits: a byte's test and set need no shift, mask and spill). A folded mov's
     * read loads as without sharing, so that the registers' table holds only loads
     * that stay: the joins and the relative reads' keys see what they would
     * without. */
    bool share, share_token; /* share_token: this token's reads may be shared */
    bool listed_again;       /* a folded mov's read listed a register's load again */
    uint32_t ndup;
    uint16_t key_base[AGAL_REG_TYPES];
    bool loaded[IR_LOAD_KEYS];
    uint32_t first_load[IR_LOAD_KEYS];
    uint32_t open[SHARED_DEPTH]; /* the list open at each block depth (0: the body); an
                                         entry is set when its depth opens */
    /* Whether a value may be left unread, which only opt_dce's walk then finds
     * (agal_ir.live_only): bit s of unread, slot s's value may have no use yet (a
     * read clears it, a write sets it). A write of a whole register over an unread
     * value (its slot's bit in lost), an unread temporary at the end, and a block
     * that makes neither a phi nor a kil (an if nothing needs: maybe_dead) leave
     * one. At each open block's if, the bits and the kils made before it: a branch
     * starts from the values at the if. */
    uint64_t unread, lost; /* lost: slots whose unread value a write replaced */
    bool maybe_dead;
    unsigned kils;
    uint64_t if_unread[SHARED_DEPTH];
    unsigned if_kils[SHARED_DEPTH];
    uint32_t shared_set;              /* bit n: shared[n] holds a read (the table is not cleared) */
    shared_read shared[SHARED_READS]; /* by shared_slot; a read replaces the one there */
} build;

static uint32_t fail(build *bd, agal_status st, const char *msg)
{
    if (bd->err == AGAL_OK && agal_fail(&bd->err, st) == AGAL_ERR_INTERNAL)
        agal_error(bd->b.ir->ctx, 0, bd->token, bd->token >= 0 ? agal_token_offset(bd->token) : -1, NULL,
                   "internal: %s", msg);
    return 0;
}

/* The loads' room as large as the instructions' (which the builder and join.c grow):
 * there are fewer loads than instructions, so room for a value is room for a load. */
static AGAL_COLD bool grow_loads(build *bd)
{
    uint32_t cap = bd->b.ir->inst_cap;
    uint32_t *loads = agal_grow(bd->b.ir->ctx, bd->loads, bd->nloads, cap, sizeof *loads);
    if (!loads) return fail(bd, AGAL_ERR_NOMEM, NULL);
    bd->loads = loads, bd->loads_cap = cap;
    return true;
}

static inline bool loads_match(build *bd) { return bd->loads_cap >= bd->b.ir->inst_cap || grow_loads(bd); }

static AGAL_COLD bool grow_room(build *bd, unsigned n)
{
    return (agal_ir_reserve(bd->b.ir, bd->b.list, n) || fail(bd, AGAL_ERR_NOMEM, NULL)) && loads_match(bd);
}

/* The list receiving values counted as far as build.item says, for a reader other
 * than add (a block call, a reserve, the end); item then NULL until reserve. */
static inline void list_done(build *bd)
{
    if (bd->item) bd->list->n = (uint32_t)(bd->item - bd->list->items);
    bd->item = NULL;
}

/* Of room values left, n are this token's; the tokens after it that the rest holds
 * too: it grows at the same token as it would were each token's room tested. */
static inline void hold_room(build *bd, uint32_t room, unsigned n)
{
    bd->room_tokens = (room - n) / TOKEN_VALUES;
#ifdef AGAL_IR_CHECK
    bd->room = n - 1; /* the zero constant may take one */
#endif
}

/* Room for n values in the instructions and the current list. */
static inline bool reserve(build *bd, unsigned n)
{
    agal_ir *ir = bd->b.ir;
    list_done(bd);
    agal_ir_list *l = &ir->lists[bd->b.list];
    bool room = (ir->inst_cap - ir->ninsts >= n && l->cap - l->n >= n) || grow_room(bd, n);
    /* Where the items are now, even where they could not grow: the room reserved
     * before still holds what its token makes (its build then fails). */
    bd->list = &ir->lists[bd->b.list];
    bd->item = bd->list->items + bd->list->n;
    if (!room) return false;
    uint32_t insts = ir->inst_cap - ir->ninsts, items = bd->list->cap - bd->list->n;
    hold_room(bd, insts < items ? insts : items, n);
    return true;
}

/* The room for a token's values, and how many tokens after it the same room holds. */
static AGAL_NOINLINE bool reserve_tokens(build *bd) { return reserve(bd, TOKEN_VALUES); }

/* Room for a token's values (TOKEN_VALUES). */
static inline bool reserve_token(build *bd)
{
    if (!bd->room_tokens) return reserve_tokens(bd);
    bd->room_tokens--;
#ifdef AGAL_IR_CHECK
    bd->room = TOKEN_VALUES - 1;
#endif
    return true;
}

/* A relative read's room (RELATIVE_TOKEN_VALUES), as reserve makes it, counted
 * from where the token's values go: within a token the list and its next item are
 * known (reserve_token made them so), so nothing is stored or looked up again but
 * the tokens after it that the room holds; reserve runs only to grow. */
static inline bool reserve_relative(build *bd)
{
    agal_ir *ir = bd->b.ir;
    uint32_t insts = ir->inst_cap - ir->ninsts;
    uint32_t items = bd->list->cap - (uint32_t)(bd->item - bd->list->items);
    uint32_t room = insts < items ? insts : items;
    if (room < RELATIVE_TOKEN_VALUES) return reserve(bd, RELATIVE_TOKEN_VALUES);
    hold_room(bd, room, RELATIVE_TOKEN_VALUES);
    return true;
}

/* IR-check build: one value more in the room reserve made, or a fault. */
static inline bool take_room(build *bd)
{
#ifdef AGAL_IR_CHECK
    if (!bd->room) return fail(bd, AGAL_ERR_INTERNAL, "a token made more values than its room (TOKEN_VALUES)");
    bd->room--;
#endif
    (void)bd;
    return true;
}

/* A new value appended to the current list, in the room reserve made: its index in
 * *value, the instruction as agal_ir_new leaves it but for its operand count, the
 * register it is the new content of (reg_type IR_NO_REG: none), written with the
 * rest, not tagged after, and its uses (nuses) where its one reader is known as it
 * is made. */
static inline agal_ir_inst *add_reg(build *bd, agal_ir_op op, agal_ir_type type, unsigned nargs, unsigned reg_type,
                                    unsigned reg_num, unsigned nuses, uint32_t *value)
{
    agal_ir *ir = bd->b.ir;
#ifdef AGAL_IR_CHECK
    if (!take_room(bd)) {
        *value = 0;
        return &bd->scratch;
    }
#endif
    uint32_t v = ir->ninsts++;
    *bd->item++ = v;
    agal_ir_inst *in = &ir->insts[v];
    *in = (agal_ir_inst){.op = (uint8_t)op,
                         .type = (uint8_t)type,
                         .nargs = (uint8_t)nargs,
                         .reg_type = (uint8_t)reg_type,
                         .reg_num = (uint16_t)reg_num,
                         .token = (int16_t)bd->token,
                         .nuses = (uint8_t)nuses};
    *value = v;
    return in;
}

/* A new value that is no register's content (add_reg). */
static inline agal_ir_inst *add(build *bd, agal_ir_op op, agal_ir_type type, unsigned nargs, uint32_t *value)
{
    return add_reg(bd, op, type, nargs, IR_NO_REG, 0, 0, value);
}

/* One more use of value a by the value just made: the builder counts them as it
 * makes the operands, so that opt_dce has nothing to count where nothing is dead
 * (agal_ir.live_only). A value whose one reader is known as it is made has its use
 * in the store that makes it instead (add_reg). */
static inline void use(build *bd, uint32_t a) { agal_ir_add_use(&bd->b.ir->insts[a]); }

static uint32_t zero(build *bd)
{
    uint32_t z = agal_ir_builder_zero(&bd->b);
    return z ? z : fail(bd, AGAL_ERR_NOMEM, NULL);
}

/* Whether register key k was loaded before (loaded[k] set now). */
static inline bool loaded_before(build *bd, unsigned k)
{
    bool before = bd->loaded[k];
    bd->loaded[k] = true;
    return before;
}

/* A register's load, listed with the loads (build.loads), or shared with its
 * first: removed where it would be (IR_NOP), args[0] the first load, which is read
 * instead and returned, args[1] where it is read (site). Decided before the
 * instruction is written, so that a removed load is written once. A removed load
 * is written only as far as it is read: what every walk of the values reads of
 * one (its op, no operands), and what unshare_loads makes it again from (its
 * token; the rest is its first load's). */
static AGAL_ALWAYS_INLINE uint32_t load(build *bd, agal_ir_op op, unsigned type, unsigned num, uint32_t site)
{
    agal_ir *ir = bd->b.ir;
    if (!take_room(bd)) return 0;
    uint32_t v = ir->ninsts++;
    agal_ir_inst *in = &ir->insts[v];
    if (bd->share) {
        unsigned k = bd->key_base[type] + num;
        if (!loaded_before(bd, k)) bd->first_load[k] = v;
        else if (bd->share_token) {
            uint32_t first = bd->first_load[k];
            in->op = IR_NOP, in->type = IR_VOID, in->aop = 0, in->nargs = 0;
            in->token = (int16_t)bd->token;
            in->args[0] = first, in->args[1] = site;
            bd->ndup++;
            return first;
        } else bd->listed_again = true;
    }
    /* Written whole where it is decided: a copy of one made on the stack first
     * would be stored twice. */
    *in = (agal_ir_inst){.op = (uint8_t)op,
                         .type = IR_F4,
                         .reg_type = (uint8_t)type,
                         .reg_num = (uint16_t)num,
                         .token = (int16_t)bd->token};
    bd->loads[bd->nloads++] = v;
    agal_ir_info_note(&ir->info, ir, in);
    return v;
}

/* The whole F4 content of a register, as read (no swizzle) at site (load). */
static AGAL_ALWAYS_INLINE uint32_t read_reg(build *bd, unsigned type, unsigned num, uint32_t site)
{
    if (type >= AGAL_REG_TYPES || num >= bd->readable[type])
        return fail(bd, AGAL_ERR_INTERNAL, "register cannot be read here");
    if (bd->load_op[type] != IR_NOP) return load(bd, bd->load_op[type], type, num, site);
    bd->unread &= ~(1ull << (IR_SLOT_TEMP + num));
    uint32_t v = bd->b.regs.val[IR_SLOT_TEMP + num];
    return v ? v : zero(bd); /* lenient: unwritten reads 0 */
}

/* What a source of this program may read (build.readable, build.load_op): the
 * profile's registers of the types its stage reads; a vertex program's iid is one
 * register whatever the profile says (agal_reg_count's 0 outside standard extended).
 * The counts' row read once (agal_reg_counts), not a call per type. */
static void read_rules(build *bd, const agal_program *p)
{
    static const uint16_t none[AGAL_REG_TYPES] = {0}; /* a stage with no registers */
    const uint16_t *count = p->stage <= AGAL_FRAGMENT ? agal_reg_counts(p->profile, p->stage) : none;
    memset(bd->readable, 0, sizeof bd->readable);
    memset(bd->load_op, IR_NOP, sizeof bd->load_op);
    memset(bd->key_base, 0, sizeof bd->key_base);
    bd->key_base[AGAL_REG_ATTRIBUTE] = bd->key_base[AGAL_REG_VARYING] = IR_KEY_INPUT;
    bd->key_base[AGAL_REG_IID] = IR_KEY_IID;
    unsigned temps = count[AGAL_REG_TEMP];
    bd->readable[AGAL_REG_TEMP] = (uint16_t)(temps < IR_SLOT_OUT - IR_SLOT_TEMP ? temps : IR_SLOT_OUT - IR_SLOT_TEMP);
    bd->readable[AGAL_REG_CONSTANT] = count[AGAL_REG_CONSTANT];
    bd->load_op[AGAL_REG_CONSTANT] = IR_UNIFORM;
    if (p->stage == AGAL_VERTEX) {
        unsigned iid = count[AGAL_REG_IID];
        bd->readable[AGAL_REG_ATTRIBUTE] = count[AGAL_REG_ATTRIBUTE];
        bd->readable[AGAL_REG_IID] = (uint16_t)(iid ? iid : 1);
        bd->load_op[AGAL_REG_ATTRIBUTE] = bd->load_op[AGAL_REG_IID] = IR_INPUT;
    } else if (p->stage == AGAL_FRAGMENT) {
        bd->readable[AGAL_REG_VARYING] = count[AGAL_REG_VARYING];
        bd->load_op[AGAL_REG_VARYING] = IR_INPUT;
    }
}

/* Where a destination of this program writes (build.writable, build.slot_base):
 * each written type's registers from its register 0's slot to the next type's, in
 * agal_ir_reg_slot's order, where this stage writes that type. */
static void write_rules(build *bd, agal_stage stage)
{
    static const uint8_t types[] = {AGAL_REG_TEMP, AGAL_REG_OUTPUT, AGAL_REG_VARYING, AGAL_REG_DEPTH};
    static const uint8_t ends[] = {IR_SLOT_OUT, IR_SLOT_VARY, IR_SLOT_DEPTH, IR_TRACKED_REGS};
    memset(bd->writable, 0, sizeof bd->writable);
    for (unsigned i = 0; i < AGAL_COUNTOF(types); i++) {
        int base = agal_ir_reg_slot(stage, types[i], 0);
        if (base < 0) continue;
        bd->slot_base[types[i]] = (uint8_t)base;
        bd->writable[types[i]] = (uint8_t)(ends[i] - base);
    }
}

/* A scalar operand's component (read_scalar's): read once, by its cmp or kil.
 * A relative read's index is extracted with its read (add_indirect). */
static uint32_t extract(build *bd, uint32_t v, unsigned comp)
{
    uint32_t e;
    agal_ir_inst *in = add_reg(bd, IR_EXTRACT, IR_F1, 1, IR_NO_REG, 0, 1 /* by its cmp or kil */, &e);
    in->args[0] = v;
    in->comp = (uint8_t)comp;
    use(bd, v);
    return e;
}

/* The index register's value as a key: a temporary's current SSA value, 0 for the
 * registers a program cannot write. */
static uint32_t index_value(const build *bd, const agal_source *s)
{
    int slot = s->index_type == AGAL_REG_TEMP ? agal_ir_reg_slot(bd->b.ir->prog->stage, s->index_type, s->index_num)
                                              : -1;
    return slot >= 0 ? bd->b.regs.val[slot] : 0;
}

/* Where a read is kept: one place per register and index, so a lookup is one
 * comparison whatever the program (a program of relative reads makes one a token). */
static unsigned shared_slot(unsigned reg_num, const agal_source *s)
{
    return (reg_num * 7u + s->index_num * 3u + s->index_type * 5u + s->index_comp) % SHARED_READS;
}

/* Row reg_num read through s's index register (its type, number and component) as
 * one word: a lookup compares it once, and a read stores it once. */
static uint64_t read_key(unsigned reg_num, const agal_source *s)
{
    return reg_num | (uint64_t)s->index_num << 16 | (uint64_t)(s->index_type | s->index_comp << 8) << 32;
}

/* Row reg_num read through s's index register, whose whole value is index_reg: the
 * extract of its component and the read through it, in the room reserve_relative
 * made, written whole and together from what is read first (a store into an
 * instruction may alias the counts and cursor add_reg reads again). */
static inline uint32_t add_indirect(build *bd, const agal_source *s, unsigned reg_num, uint32_t index_reg)
{
#ifdef AGAL_IR_CHECK
    if (!take_room(bd) || !take_room(bd)) return 0;
#endif
    agal_ir *ir = bd->b.ir;
    agal_ir_inst *insts = ir->insts;
    uint32_t e = ir->ninsts, v = e + 1, *item = bd->item;
    int16_t token = (int16_t)bd->token;
    uint8_t index_type = s->index_type, index_comp = s->index_comp;
    uint16_t index_num = s->index_num, range = bd->readable[AGAL_REG_CONSTANT];
    ir->ninsts = e + 2;
    bd->item = item + 2;
    item[0] = e, item[1] = v;
    insts[e] = (agal_ir_inst){.op = IR_EXTRACT,
                              .type = IR_F1,
                              .nargs = 1,
                              .comp = index_comp,
                              .reg_type = IR_NO_REG,
                              .token = token,
                              .nuses = 1, /* by the read */
                              .args = {index_reg}};
    insts[v] = (agal_ir_inst){.op = IR_UNIFORM_INDIRECT,
                              .type = IR_F4,
                              .nargs = 1,
                              .reg_type = AGAL_REG_CONSTANT,
                              .reg_num = (uint16_t)reg_num,
                              .token = token,
                              .args = {e}};
    insts[v].index_type = index_type, insts[v].index_comp = index_comp;
    insts[v].index_num = index_num, insts[v].range = range;
    agal_ir_add_use(&insts[index_reg]);
    return v;
}

/* The shared_read the relative read key can be, or NULL: made in a list still open
 * at a depth at most depth, through the index register's value now. */
static const shared_read *find_shared(const build *bd, uint64_t key, unsigned depth, uint32_t index_value,
                                      unsigned slot)
{
    const shared_read *r = &bd->shared[slot];
    if (bd->shared_set >> slot & 1 && r->key == key && r->index_value == index_value && r->depth <= depth &&
        bd->open[r->depth] == r->list)
        return r;
    return NULL;
}

/* vc[index.c + offset + row], bounds-checked at run time; made once while it can
 * be reused (shared_read). */
static AGAL_NOINLINE uint32_t read_indirect(build *bd, const agal_source *s, unsigned row)
{
    if (s->type != AGAL_REG_CONSTANT) return fail(bd, AGAL_ERR_INTERNAL, "indirect read of a non-constant");
    unsigned reg_num = (uint16_t)(s->num + row), depth = bd->b.depth;
    shared_read *kept = NULL;
    if (depth < SHARED_DEPTH) {
        unsigned n = shared_slot(reg_num, s);
        uint64_t key = read_key(reg_num, s);
        uint32_t index = index_value(bd, s);
        const shared_read *made = find_shared(bd, key, depth, index, n);
        if (made) return made->v;
        /* Kept where it is looked up, while its key is at hand, its value set once
         * made (0 until then: a read after a failure reads what a failed one does). */
        kept = &bd->shared[n];
        *kept = (shared_read){.key = key, .list = bd->b.list, .index_value = index, .depth = (uint8_t)depth};
        bd->shared_set |= 1u << n;
    }
    if (!reserve_relative(bd)) return 0;
    /* iid is a single register: its number as an index is whatever Adobe's
     * assembler put there (the offset in `vc[iid.x+5]`), so it is not used. */
    unsigned index_num = s->index_type == AGAL_REG_IID ? 0 : s->index_num;
    uint32_t v = add_indirect(bd, s, reg_num, read_reg(bd, s->index_type, index_num, NEXT_VALUE));
    /* The note of a relative read is the same every time (reads_indirect). */
    agal_ir *ir = bd->b.ir;
    if (!ir->info.reads_indirect) agal_ir_info_note(&ir->info, ir, &ir->insts[v]);
    if (kept) kept->v = v;
    return v;
}

static AGAL_ALWAYS_INLINE uint32_t read_row(build *bd, const agal_source *s, unsigned row, uint32_t site)
{
    return s->indirect ? read_indirect(bd, s, row) : read_reg(bd, s->type, s->num + row, site);
}

/* A source operand as the op sees it (its operand k): loaded and swizzled. A
 * swizzle's use by the op (made: the token makes one, a constant in each token
 * path) is counted in the store that makes it, an unswizzled read's by the op.
 * Inline in the token's path. */
static AGAL_ALWAYS_INLINE uint32_t read_source(build *bd, const agal_source *s, unsigned k, bool made)
{
    bool swizzled = s->swizzle != AGAL_SWIZZLE_IDENTITY;
    uint32_t v = read_row(bd, s, 0, swizzled ? NEXT_VALUE : OP_OPERAND + k);
    if (!swizzled) return v; /* nothing to fold away later */
    uint32_t r;
    agal_ir_inst *in = add_reg(bd, IR_SWIZZLE, IR_F4, 1, IR_NO_REG, 0, made, &r);
    in->args[0] = v;
    in->swizzle = s->swizzle;
    use(bd, v);
    return r;
}

/* The scalar of a condition / kil operand (its swizzle's first component). */
static uint32_t read_scalar(build *bd, const agal_source *s)
{
    return extract(bd, read_row(bd, s, 0, NEXT_VALUE), agal_swizzle_comp(s->swizzle, 0));
}

/* Writes value v to the destination register under its mask: v itself where the
 * mask is whole (tagged with the register as made, unless a folded mov's source),
 * else a merge, tagged here; a value made for it (made) has its use by the merge
 * counted as made. Inline in both token paths, where made is a constant. */
static AGAL_ALWAYS_INLINE void write_dest(build *bd, const agal_dest *d, unsigned mask, uint32_t v, bool made)
{
    unsigned type = d->type;
    if (type >= AGAL_REG_TYPES || d->num >= bd->writable[type]) {
        fail(bd, AGAL_ERR_INTERNAL, "destination register cannot be written");
        return;
    }
    unsigned s = bd->slot_base[type] + d->num;
    uint64_t bit = 1ull << s;
    if (mask != 0xf) {
        uint32_t old = bd->b.regs.val[s] ? bd->b.regs.val[s] : zero(bd), written = v;
        agal_ir_inst *in = add_reg(bd, IR_MERGE, IR_F4, 2, d->type, d->num, 0, &v);
        in->args[0] = old;
        in->args[1] = written;
        use(bd, old);
        if (!made) use(bd, written);
        in->mask = (uint8_t)mask;
    } else bd->lost |= bd->unread & bit; /* the value it replaces, unread (its test the merge's) */
    bd->unread |= bit;
    bd->b.regs.val[s] = v;
    bd->b.regs.written[s] |= (uint8_t)mask;
    bd->b.changed |= bit;
}

/* ---- one token ------------------------------------------------------------ */

/* The attribute components source s (rows registers) of token t reads, noted: inline,
 * as most sources name none and a relative read indexed by va0 one bit. */
static AGAL_ALWAYS_INLINE void note_attributes(build *bd, const agal_token *t, const agal_source *s, unsigned rows)
{
    if (!agal_source_names_attribute(s)) return;
    uint16_t *read = bd->b.ir->attributes_read;
    if (s->indirect) agal_index_attribute(read, s);
    else if (rows > 1 || s->num >= 16 || read[s->num] != 0xf) /* not all of it read before */
        agal_source_attributes(read, t, s, rows);
}

/* A folded mov (build.fold_movs): its destination takes its source's value,
 * nothing is made, and its read is no shared load (build.share). */
static void folded_mov(build *bd, const agal_token *t)
{
    note_attributes(bd, t, &t->a, 1);
    bd->share_token = false;
    uint32_t v = read_source(bd, &t->a, 0, false);
    bd->share_token = true;
    write_dest(bd, &t->dst, t->dst.mask & 0xfu, v, false);
}

/* A token that makes a value and writes its destination: its sources read, its
 * op, the write. */
static void value_token(build *bd, const agal_token *t, token_shape sh)
{
    note_attributes(bd, t, &t->a, 1);
    if (sh.b) note_attributes(bd, t, &t->b, sh.b == B_SOURCE ? 1 : sh.b);
    uint32_t args[IR_MAX_ARGS];
    unsigned mask = t->dst.mask & 0xfu;
    args[0] = read_source(bd, &t->a, 0, true);
    unsigned nargs = 1;
    if (sh.b == B_SOURCE) args[nargs++] = read_source(bd, &t->b, 1, true);
    else
        for (unsigned k = 0; k < sh.b; k++, nargs++) args[nargs] = read_row(bd, &t->b, k, OP_OPERAND + nargs);
    uint32_t v;
    /* The operands stored one by one (add zeroed the rest): a copy of the array
     * whole read back the narrow stores that wrote it, which cannot forward (a
     * quarter of the builder's time on straight-line code). */
    bool whole = mask == 0xf; /* the value is the register's content */
    agal_ir_inst *in = whole ? add_reg(bd, sh.op, IR_F4, nargs, t->dst.type, t->dst.num, 0, &v)
                             : add_reg(bd, sh.op, IR_F4, nargs, IR_NO_REG, 0, 1 /* by its merge */, &v);
    in->args[0] = args[0]; /* a swizzle's use counted as made (read_source) */
    if (t->a.swizzle == AGAL_SWIZZLE_IDENTITY) use(bd, args[0]);
    if (sh.b == B_SOURCE) { /* most tokens: no loop */
        in->args[1] = args[1];
        if (t->b.swizzle == AGAL_SWIZZLE_IDENTITY) use(bd, args[1]);
    } else
        for (unsigned k = 1; k < nargs; k++) in->args[k] = args[k], use(bd, args[k]);
    agal_ir *ir = bd->b.ir;
    if (sh.op == IR_ALU) { /* most values: they tell nothing (agal_ir_info_note_alu) */
        in->aop = (uint8_t)t->op;
        if (shapes[t->op].deriv) { /* read here: most tokens never need it */
            ir->takes_ddy |= t->op == AGAL_OP_DDY;
            agal_ir_info_note_alu(&ir->info, t->op);
        }
    } else {
        if (sh.op != IR_COPY) in->aop = (uint8_t)t->op;
        else if (!ir->keep_copies) agal_ir_note_copy(ir, v);
        if (sh.op == IR_TEX) {
            in->smp = t->s; /* behind the coordinate, after it is written */
            ir->samples_in_blocks |= bd->b.top != NULL;
        }
        agal_ir_info_note(&ir->info, ir, in);
    }
    write_dest(bd, &t->dst, mask, v, true);
}

/* What may be unread at a block's if, before it opens (maybe_dead where it nests
 * deeper than the table). */
static void note_if(build *bd)
{
    unsigned d = bd->b.depth;
    if (d >= SHARED_DEPTH) bd->maybe_dead = true;
    else bd->if_unread[d] = bd->unread, bd->if_kils[d] = bd->kils;
}

/* At its els, or after its eif: the values at the if may be the registers' again,
 * and unread; after the eif, its phis are. A block that joined nothing and holds
 * no kil is an if nothing needs. */
static void note_join(build *bd, bool closed)
{
    unsigned d = bd->b.depth - !closed; /* the if's depth */
    if (d >= SHARED_DEPTH) return;
    bd->unread |= bd->if_unread[d];
    if (!closed) return;
    bd->unread |= bd->b.joined;
    bd->maybe_dead |= !bd->b.joined && bd->kils == bd->if_kils[d];
}

/* After a block opens, switches or closes: the list now open at its depth, and the
 * loads' room as large as the instructions', which join.c may have grown. */
static agal_status open_list(build *bd, agal_status st)
{
    if (bd->b.depth < SHARED_DEPTH) bd->open[bd->b.depth] = bd->b.list;
    bd->room_tokens = 0; /* another list, or the lists moved */
    return st == AGAL_OK && !loads_match(bd) ? bd->err : st;
}

static agal_status token(build *bd, const agal_token *t)
{
    token_shape sh = (unsigned)t->op < AGAL_OP_LIMIT ? shapes[t->op] : (token_shape){0};
    if (sh.kind == TK_VALUE) { /* most tokens: one test before the switch's table */
        if (sh.op == IR_COPY && bd->fold_movs) folded_mov(bd, t);
        else value_token(bd, t, sh);
        return bd->err;
    }
    switch (sh.kind) {
    case TK_IF: {
        note_attributes(bd, t, &t->a, 1);
        note_attributes(bd, t, &t->b, 1);
        uint32_t a = read_scalar(bd, &t->a), b = read_scalar(bd, &t->b), c;
        agal_ir_inst *in = add(bd, IR_CMP, IR_B1, 2, &c);
        in->args[0] = a;
        in->args[1] = b; /* their uses counted as made (extract) */
        in->aop = (uint8_t)t->op;
        if (bd->err) return bd->err;
        note_if(bd);
        list_done(bd);
        return open_list(bd, agal_ir_push_if(&bd->b, c, bd->token));
    }
    case TK_ELSE: {
        list_done(bd);
        agal_status st = agal_ir_push_else(&bd->b, bd->token);
        if (st == AGAL_OK) note_join(bd, false);
        return open_list(bd, st);
    }
    case TK_ENDIF: {
        list_done(bd);
        agal_status st = agal_ir_pop_if(&bd->b, bd->token);
        if (st == AGAL_OK) note_join(bd, true);
        return open_list(bd, st);
    }
    case TK_KIL: {
        bd->kils++;
        note_attributes(bd, t, &t->a, 1);
        uint32_t a = read_scalar(bd, &t->a), k;
        agal_ir_inst *in = add(bd, IR_KIL, IR_VOID, 1, &k);
        in->args[0] = a; /* its use counted as made (extract) */
        agal_ir_info_note(&bd->b.ir->info, bd->b.ir, in);
        return bd->err;
    }
    default: return fail(bd, AGAL_ERR_INTERNAL, "unknown opcode"), bd->err;
    }
}

/* The final content of every output written anywhere, stored once at the end, in
 * slot order. The outputs' bits of build.unread are the slots ever written (a
 * write sets its slot's bit, only a temporary's read clears one), so a program
 * tests the few it wrote, not every output slot. */
static agal_status stores(build *bd)
{
    bd->token = -1;
    if (!reserve(bd, IR_TRACKED_REGS - IR_SLOT_OUT + 1)) return bd->err;
    for (uint64_t set = bd->unread >> IR_SLOT_OUT; set; set &= set - 1) {
        int s = IR_SLOT_OUT + agal_lowest_bit(set);
        if (!bd->b.regs.written[s]) continue; /* an empty mask */
        unsigned type, num;
        agal_ir_slot_reg(s, &type, &num);
        uint32_t v;
        agal_ir_inst *in = add(bd, IR_STORE, IR_VOID, 1, &v);
        in->args[0] = bd->b.regs.val[s];
        use(bd, in->args[0]);
        in->reg_type = (uint8_t)type;
        in->reg_num = (uint16_t)num;
        in->mask = bd->b.regs.written[s];
        agal_ir_info_note_rare(&bd->b.ir->info, bd->b.ir, in);
    }
    list_done(bd);
    return AGAL_OK;
}

/* The IR and its first lists in one allocation, and with them, for a program small
 * enough that all of it is one bump allocation (AGAL_ARENA_LARGE), its
 * instructions, the body's items and the builder's loads: a small program's IR
 * costs one arena call. A larger one's arrays get blocks of their own, which grow
 * in place, so the same translation again takes back the same blocks. The arrays
 * are sized from the program (about 2 values a token on the corpus; matrices and
 * blocks make more, and then an array grows). */
enum { FIRST_LISTS = 8 };
static agal_ir *new_ir(agal_context *ctx, uint32_t ntokens, build *bd)
{
    uint32_t cap = 32 + RELATIVE_TOKEN_VALUES + 2 * ntokens + ntokens / 4; /* the last token's room too */
    size_t head = sizeof(agal_ir) + FIRST_LISTS * sizeof(agal_ir_list);
    size_t insts = cap * sizeof(agal_ir_inst), items = cap * sizeof(uint32_t), loads = items;
    _Static_assert(sizeof(agal_ir) % _Alignof(agal_ir_list) == 0 && sizeof(agal_ir_list) % _Alignof(agal_ir_inst) == 0,
                   "new_ir's arrays follow the IR aligned");
    bool one = head + insts + items + loads < AGAL_ARENA_LARGE;
    char *p = agal_alloc(ctx, one ? head + insts + items + loads : head);
    if (!p) return NULL;
    agal_ir *ir = (agal_ir *)p;
    memset(ir, 0, sizeof *ir);
    ir->lists = (agal_ir_list *)(p + sizeof *ir);
    ir->list_cap = FIRST_LISTS;
    ir->nlists = 1;
    ir->insts = one ? (agal_ir_inst *)(p + head) : agal_alloc(ctx, insts);
    ir->inst_cap = cap;
    uint32_t *body = one ? (uint32_t *)(p + head + insts) : agal_alloc(ctx, items);
    ir->lists[0] = (agal_ir_list){body, 0, cap};
    bd->loads = one ? (uint32_t *)(p + head + insts + items) : agal_alloc(ctx, loads);
    bd->nloads = 0, bd->loads_cap = cap;
    return ir->insts && body && bd->loads ? ir : NULL;
}

/* Whether lower_pack_varyings will drop a varying's store (one it carries nothing
 * of), which may leave what computed it dead. */
static bool drops_varyings(const agal_ir *ir)
{
    if (!ir->packing.on || ir->prog->stage != AGAL_VERTEX) return false;
    for (unsigned n = 0; n < 16; n++)
        if (ir->info.varyings_written >> n & 1 && ir->packing.slot[n] == IR_NO_SLOT) return true;
    return false;
}

/* Whether a pass before opt_share_loads may, on what was built, change which load
 * of a register is first, which sharing them as built cannot know: dead code (a
 * first load's readers removed), a copy folded or a varying's store dropped (then
 * dead code), a ddy scaled (its uses moved, then dead code), a sample hoisted out
 * of its block (its coordinate's load moved). A fragment program's varyings
 * unpacked replace every load of one alike, shared or not. */
static bool unshare(const agal_ir *ir)
{
    return !ir->live_only || ir->first_copy || ir->takes_ddy || ir->samples_in_blocks || drops_varyings(ir);
}

/* The build as it is without sharing the loads (build.share): every shared load
 * made again where it was and read where it was read, listed with the loads, and
 * the uses counted as that build counts them. */
static void unshare_loads(build *bd)
{
    agal_ir *ir = bd->b.ir;
    agal_ir_inst *insts = ir->insts;
    bd->nloads = 0;
    for (uint32_t v = 1; v < ir->ninsts; v++) {
        agal_ir_inst *in = &insts[v];
        if (in->op == IR_NOP) { /* a shared load: read again where it was read */
            uint32_t user = v + 1, site = in->args[1];
            int16_t token = in->token;
            if (site != NEXT_VALUE) /* its token's operation, after its reads */
                while (!((1u << IR_ALU | 1u << IR_MATRIX | 1u << IR_TEX | 1u << IR_COPY) >> insts[user].op & 1)) user++;
            insts[user].args[site == NEXT_VALUE ? 0 : site - OP_OPERAND] = v;
            *in = insts[in->args[0]], in->token = token; /* its first load, as built */
        }
        if (agal_ir_is_load(in)) bd->loads[bd->nloads++] = v;
        in->nuses = 0;
    }
    for (uint32_t v = 1; v < ir->ninsts; v++) /* every value is listed but the zero */
        for (unsigned a = 0; a < insts[v].nargs; a++) agal_ir_add_use(&insts[insts[v].args[a]]);
    ir->info.loads = bd->nloads;
    bd->ndup = 0;
}

/* The loads in front of the body, in value order (build.loads). */
static agal_status loads_in_front(build *bd)
{
    agal_ir *ir = bd->b.ir;
    agal_ir_list *body = &ir->lists[0];
    uint32_t n = bd->nloads;
    if (body->cap - body->n < n) {
        uint32_t *items = agal_grow(ir->ctx, body->items, body->n, body->n + n, sizeof *items);
        if (!items) return AGAL_ERR_NOMEM;
        body->items = items, body->cap = body->n + n;
    }
    memmove(body->items + n, body->items, body->n * sizeof *body->items);
    memcpy(body->items, bd->loads, n * sizeof *body->items);
    body->n += n;
    return AGAL_OK;
}

agal_status agal_ir_build(agal_context *ctx, const agal_program *prog, const agal_ir_options *opt, agal_ir **out)
{
    static const agal_ir_options defaults = {0};
    if (!ctx || !prog || !out) return AGAL_ERR_ARG;
    if (prog->ntokens > IR_MAX_TOKENS) /* agal_decode's cap is far below */
        return agal_error(ctx, 0, -1, -1, NULL, "program has %u tokens, more than %d", prog->ntokens, IR_MAX_TOKENS),
               AGAL_ERR_LIMIT;
    if (!opt) opt = &defaults;
    build bd;
    agal_ir *ir = new_ir(ctx, prog->ntokens, &bd);
    if (!ir) return AGAL_ERR_NOMEM;
    ir->ctx = ctx;
    ir->prog = prog;
    ir->keep_copies = opt->keep_copies;
    ir->unread_varyings = opt->unread_varyings;
    if (opt->packing) ir->packing = *opt->packing;
    ir->clip = opt->clip;
    ir->window_y_up = opt->window_y_up;
    agal_ir_new(ir, IR_NOP, IR_VOID, -1); /* index 0, in the room new_ir made */
    ir->info.gathered = true;             /* zeroed with the IR, as agal_ir_info_start leaves it; noted as made */
    /* Not zeroed whole: the shared reads' table is read only where shared_set says. */
    bd.b = (agal_ir_builder){.ir = ir, .list = 0};
    bd.err = AGAL_OK;
    bd.token = -1;
    bd.open[0] = 0;
    bd.shared_set = 0;
    bd.item = NULL;
    reserve(&bd, 0); /* the body's room new_ir made: how many tokens it holds, no test */
    bd.unread = bd.lost = 0, bd.maybe_dead = false, bd.kils = 0;
    bd.fold_movs = opt->fold_movs && !opt->keep_copies && !opt->no_opt;
    /* Only where opt_share_loads runs, and no pass before it drops what reads a
     * load (the varyings an upload's fragment program does not read); else
     * unshare_loads undoes it. */
    bd.share = opt->share_loads && !opt->no_opt && !opt->unread_varyings;
    bd.share_token = true, bd.listed_again = false;
    bd.ndup = 0;
    read_rules(&bd, prog);
    /* Only the keys this program's registers have: its constants, and the inputs */
    memset(bd.loaded, 0, bd.readable[AGAL_REG_CONSTANT]);
    memset(bd.loaded + IR_KEY_INPUT, 0, IR_LOAD_KEYS - IR_KEY_INPUT);
    write_rules(&bd, prog->stage);
    for (uint32_t i = 0; i < prog->ntokens && bd.err == AGAL_OK; i++) {
        bd.token = (int)i;
        const agal_token *t = &prog->tokens[i];
        if (!reserve_token(&bd)) break;
        agal_status st = token(&bd, t);
        if (st != AGAL_OK && bd.err == AGAL_OK) bd.err = st;
    }
    if (bd.err == AGAL_OK && bd.b.top) {
        bd.token = -1;
        fail(&bd, AGAL_ERR_INTERNAL, "block open at end of program");
    }
    if (bd.err != AGAL_OK) return bd.err;
    /* a temporary's last value nothing read: dead */
    ir->live_only = !bd.maybe_dead && !bd.lost && !(bd.unread & ((1ull << IR_SLOT_OUT) - 1));
    agal_status st = stores(&bd);
    bool undo = st == AGAL_OK && bd.ndup && unshare(ir);
    if (undo) unshare_loads(&bd);
    ir->loads_unique = bd.share && !bd.listed_again && !undo;
    if (st == AGAL_OK) st = loads_in_front(&bd);
    if (st != AGAL_OK) return st;
    /* every value listed but insts[0], the zero and the shared loads */
    ir->nlive = ir->ninsts - 1 - (bd.b.zero != 0) - bd.ndup;
    *out = ir;
    return AGAL_OK;
}
