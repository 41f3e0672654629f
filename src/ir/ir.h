/* ir.h: the IR between validated AGAL tokens and the SPIR-V / GLSL emitters: the
 * only contract between the front end (build.c, join.c), the passes (pipeline.c and
 * the pass files) and the back ends (spirv.c, glsl.c, ir_print.c).
 *
 * One translation = one agal_ir, allocated in the agal_context arena (freed by
 * agal_context_reset/free). The IR is SSA with structured control flow:
 *
 * Values. Every instruction lives in ir->insts[] and is named by its index, a
 * uint32_t (0 = none; insts[0] is unused). An instruction that produces a result
 * IS that value (QBE/NIR style): "value 7" and "instruction 7" are the same thing.
 * Each value has a type: IR_F4 (vec4 float, the AGAL register shape), IR_F1 (one
 * float: a component taken for a condition, kil or an index), IR_B1 (bool, an if
 * condition) or IR_VOID (kil, store, if). Operands (args[]) always precede their
 * users in the walk order below, so one forward walk defines before it uses.
 *
 * One value per write. An AGAL instruction becomes: loads of its sources (IR_UNIFORM,
 * IR_UNIFORM_INDIRECT, IR_INPUT, or the current SSA value of a temporary), an explicit
 * IR_SWIZZLE per swizzled source, the operation (IR_ALU / IR_MATRIX / IR_TEX; a mov
 * is IR_COPY), then the masked write IR_MERGE (old value, new value, mask) unless the
 * mask covers all four components. (A relative read is an earlier IR_UNIFORM_INDIRECT
 * where one dominates it with the same index register value, component and offset:
 * build.c, shared_read.) The loads of input and constant registers (IR_INPUT,
 * IR_UNIFORM) are listed, in value order, in front of the program body, which
 * dominates every read (opt_share_loads.c then keeps one a register; in the
 * pipeline's whole run the builder keeps one itself, agal_ir_options.share_loads,
 * a later load a removed instruction where it would be). The value that
 * ends up as the register's new content is tagged with the destination register
 * (reg_type/reg_num) and the token.
 * Every value also records the token it came from (token), so an emitter can comment
 * the source instruction and name registers ("ft1", "vc[5]").
 *
 * Registers written (temporaries, and outputs op/oc/v/fd, which are tracked the
 * same way) have no storage in the IR: their content at any point is an SSA value.
 * The final content of each output register written anywhere is stored once, at the
 * end of the top-level list, by IR_STORE (mask = components ever written); for a
 * target, op's store stores op in the target's clip space, computed just before it
 * (lower_conventions.c). A lenient program's read of a never-written temporary (or
 * component) reads 0 (IR_CONST).
 *
 * Control flow is a tree, built as the tokens are read (join.c: push_if, push_else,
 * pop_if). A list (ir->lists[i], index 0 = the program body) is an ordered array of
 * instruction indices. An IR_IF instruction carries its condition (args[0], an IR_B1
 * from IR_CMP), two child lists (then_list, else_list; an absent else is an empty
 * list) and the tokens of its els and eif. The IR_PHI instructions that follow an
 * IR_IF in its parent list are the join: args[0] = value at the end of the then
 * list, args[1] = at the end of the else list (the value before the if, when that
 * branch did not write the register). A phi is tagged with its register. IR_CONST
 * values are in no list: they are module-level literals (SPIR-V constants, GLSL
 * literals).
 *
 * The passes (pipeline.c lists them in order) each say whether they changed
 * anything. A removed instruction becomes IR_NOP and is dropped from its list (an
 * if's contents vanish with it). nuses counts uses by listed instructions (the
 * builder counts them as it makes the operands; exact wherever live_only says so,
 * and after the pipeline): a constant with nuses 0 is unused. ircheck.c checks every rule of
 * this comment after each pass in the IR-check build (meson -Dir_check=true).
 */
#ifndef AGAL_IR_H
#define AGAL_IR_H

#include "internal.h"

typedef enum agal_ir_type { IR_VOID = 0, IR_F4, IR_F1, IR_B1 } agal_ir_type;

/* The IR's operations, one row each:
 *   X(ID, name, result type, fewest operands, most operands, operand type) */
#define AGAL_IR_OPS(X) \
    X(NOP, "nop", IR_VOID, 0, 0, IR_VOID)       /* removed; never in a list */ \
    X(CONST, "const", IR_F4, 0, 0, IR_VOID)     /* literal imm[0..3]; in no list */ \
    X(INPUT, "input", IR_F4, 0, 0, IR_VOID)     /* va<n> (vertex), v<n> (fragment),      \
                                                      iid as (id, id, id, id) */ \
    X(UNIFORM, "uniform", IR_F4, 0, 0, IR_VOID) /* vc/fc[reg_num] */ \
    X(YFLIP, "yflip", IR_F4, 0, 0, IR_VOID)     /* the runtime's render-to-texture y  \
                                                      flip in every component: 1, or -1 \
                                                      drawing to a texture (a system    \
                                                      value: lower_conventions.c) */ \
    X(UNIFORM_INDIRECT, "uniform_indirect", IR_F4, 1, 1, IR_F1) \
    /* vc[int(trunc(args[0])) + reg_num];    \
                                                      outside 0..range-1: (0,0,0,0) */ \
    X(SWIZZLE, "swizzle", IR_F4, 1, 1, IR_F4) /* args[0].swizzle */ \
    X(EXTRACT, "extract", IR_F1, 1, 1, IR_F4) /* args[0][comp] */ \
    X(COPY, "copy", IR_F4, 1, 1, IR_F4)       /* an AGAL mov (kept only for GLSL) */ \
    X(ALU, "alu", IR_F4, 1, 2, IR_F4)         /* aop(args[0], args[1]): cw ops, dp3/   \
                                                      dp4 in every component, nrm/crs (w 0),\
                                                      ddx/ddy */ \
    X(MATRIX, "matrix", IR_F4, 4, 5, IR_F4)   /* m33/m34/m44: args[0] = A, args[1..] = \
                                                      rows of B; missing components 0 */ \
    X(TEX, "sample", IR_F4, 1, 1, IR_F4)      /* aop TEX (bias smp.bias/8) or TED      \
                                                      (LOD args[0].w); 2d .xy, cube .xyz */ \
    X(MERGE, "merge", IR_F4, 2, 2, IR_F4)     /* component c: mask bit c ? args[1][c]  \
                                                      : args[0][c] */ \
    X(CMP, "cmp", IR_B1, 2, 2, IR_F1)         /* args[0] cmp args[1], the predicate of \
                                                      aop (ife ine ifg ifl) */ \
    X(IF, "if", IR_VOID, 1, 1, IR_B1)         /* if (args[0]) then_list else else_list */ \
    X(PHI, "phi", IR_F4, 2, 2, IR_F4)         /* the join after the preceding IR_IF:   \
                                                      args[0] then, args[1] else */ \
    X(KIL, "kil", IR_VOID, 1, 1, IR_F1)       /* discard the fragment if args[0] < 0 */ \
    X(STORE, "store", IR_VOID, 1, 1, IR_F4)   /* output reg_type/reg_num = args[0]     \
                                                      (components in mask) */

typedef enum agal_ir_op {
#define AGAL_IR_OP_ENUM(id, ...) IR_##id,
    AGAL_IR_OPS(AGAL_IR_OP_ENUM)
#undef AGAL_IR_OP_ENUM
        IR_OP_COUNT
} agal_ir_op;

enum { IR_MAX_ARGS = 5 };        /* m44: A and four rows */
enum { IR_NO_REG = 0xff };       /* reg_type of a value that is no register's content */
enum { IR_MAX_TOKENS = 0x7fff }; /* token indices fit the instruction's int16_t */
enum { IR_MAX_USES = 255 };      /* nuses saturates: only "none", "one" and "more" are read */
/* reg_type of a packed varying's load (fragment) or store (vertex), the IR's own
 * register p<n>: slot n of ir->packing (lower_pack_varyings.c), declared with the
 * width it carries */
enum { IR_REG_PACKED = 0x10 };

/* agal_ir_inst.flags */
enum {
    IR_HOISTED = 1 /* moved out of the block its token is in (lower_hoist_tex.c): it is
                      no write to its register there */
};

typedef struct agal_ir_inst {
    uint8_t op;   /* agal_ir_op */
    uint8_t type; /* agal_ir_type of the result */
    uint8_t aop;  /* agal_opcode for IR_ALU/IR_MATRIX/IR_TEX/IR_CMP */
    uint8_t nargs;
    union {
        uint8_t mask;    /* IR_MERGE: components from args[1]; IR_STORE: components written */
        uint8_t swizzle; /* IR_SWIZZLE */
        uint8_t comp;    /* IR_EXTRACT */
    };
    uint8_t reg_type; /* agal_regtype: the register this value is the new content of
                         (writes, phis), or the register read (IR_INPUT, IR_UNIFORM,
                         IR_UNIFORM_INDIRECT: CONSTANT); IR_NO_REG otherwise */
    uint16_t reg_num; /* register number; IR_UNIFORM_INDIRECT: the constant offset */
    int16_t token;    /* index of the AGAL token it came from, -1 for none (programs
                         have at most IR_MAX_TOKENS) */
    uint8_t nuses;    /* uses by live instructions, saturating at IR_MAX_USES */
    uint8_t flags;    /* IR_HOISTED */
    /* The operands, and what only one kind of instruction needs, share the space
     * where that kind has no operand there: an instruction is 32 bytes, and a
     * 200-token program makes 400 to 1000 of them. Every walk over operands stops
     * at nargs, so the fields behind them are never read as operands. */
    union {
        uint32_t args[IR_MAX_ARGS];
        float imm[4]; /* IR_CONST (no operands) */
        /* IR_IF: args[0] is the condition; its els token (-1 without one) and eif token */
        struct {
            uint32_t if_cond_;
            uint32_t then_list, else_list;
            int16_t els_token, eif_token;
        };
        /* IR_TEX: args[0] is the coordinate */
        struct {
            uint32_t tex_coord_;
            agal_sampler smp;
        };
        /* IR_UNIFORM_INDIRECT: args[0] is the index; the index register of the
         * agal_source (for names), and the register count (the address bound) */
        struct {
            uint32_t index_value_;
            uint8_t index_type, index_comp;
            uint16_t index_num, range;
        };
    };
} agal_ir_inst;
_Static_assert(sizeof(agal_ir_inst) == 32, "the IR instruction's size is a memory budget (ir.h)");

typedef struct agal_ir_list {
    uint32_t *items; /* instruction indices in order */
    uint32_t n, cap;
} agal_ir_list;

/* What the IR uses after the passes (info.c, Mesa's nir_gather_info), read by every
 * back end, the binding description and the upload instead of each scanning the IR
 * its own way. The builder gathers it as it makes the values; a pass keeps it true
 * (lower_conventions notes the flip, lower_pack_varyings the slots) or, where it
 * changes what the IR uses (stores dropped, dead code removed, copies folded),
 * clears gathered, and opt_share_loads, the last pass, then gathers it again in
 * its walk of every value. The IR checker gathers it again and compares, after
 * every pass where gathered says it is true. */
typedef struct agal_ir_info {
    bool gathered;
    uint16_t inputs;           /* bit n: va<n> (vertex) or v<n> (fragment) read */
    uint16_t varyings_written; /* vertex: bit n, v<n> stored */
    uint8_t outputs;           /* fragment: bit n, oc<n> stored */
    bool writes_op, writes_depth, reads_iid, kills;
    bool reads_constants, reads_indirect;
    uint16_t constants_read; /* 1 + the highest constant read directly (0: none) */
    uint16_t samplers;       /* bit n: fs<n> sampled */
    uint16_t samplers_tex, samplers_ted;
    agal_sampler sampler[16];   /* fs<n>: the first sample's sampler (in value order), bias 0 */
    uint16_t centroid_varyings; /* bit n: v<n> is the coordinate of a centroid sample */
    bool ddx, ddy, ted;
    uint16_t packed; /* bit n: p<n> stored (vertex) or read (fragment) */
    bool yflip;      /* reads the render-to-texture flip (IR_YFLIP: lower_conventions.c) */
    uint32_t loads;  /* the input and constant loads (IR_INPUT, IR_UNIFORM): opt_share_loads
                        knows by it that the builder's run in front of the body holds them all */
} agal_ir_info;

/* Where a pair's varyings go when they are packed (lower_pack_varyings.c,
 * agal_pack_plan): each AGAL varying's carried components, in order, at one slot
 * from one offset, never split; a slot is one varying of the translation, p<n>,
 * as wide as its last member ends. */
enum { IR_NO_SLOT = 0xff };
typedef struct agal_ir_packing {
    bool on;             /* pack (a pair under limits): every varying goes by this table */
    uint8_t nslots;      /* p0 .. p<nslots-1> */
    uint8_t slot[16];    /* v<n>'s slot, IR_NO_SLOT: nothing of it is carried */
    uint8_t offset[16];  /* the slot's component its first carried component goes to */
    uint8_t carried[16]; /* its components carried (bit 0 x): read by the fragment
                            program, written by the vertex program */
    uint8_t zeroed[16];  /* its components the fragment program reads and the vertex
                            program never writes (a lenient pair's): they read 0 */
    uint8_t width[16];   /* slot n: 1 .. 4 components */
    uint16_t centroid;   /* bit n: slot n is interpolated at the centroid */
} agal_ir_packing;

/* Where Stage3D's conventions and the target's differ: decided once per translation
 * (lower_conventions.c, agal_conventions) from the target's window orientation and
 * the clip option, and written into the IR by that pass as ordinary instructions,
 * which every back end emits as it emits the program's own. Every target also
 * multiplies ddy, and op.y but with AGAL_CLIP_CONTROL, by the runtime's
 * render-to-texture flip (IR_YFLIP). */
typedef struct agal_ir_conventions {
    bool negate_y;      /* op.y = -op.y: Vulkan's clip space has y down */
    bool gl_depth;      /* op.z = 2 op.z - op.w: GL's clip depth runs -w..w, Stage3D's 0..w */
    bool flip_position; /* op.y *= the flip; not where the clip origin flips (AGAL_CLIP_CONTROL) */
    bool ddy_negate;    /* ddy = -(d/dy): the window's rows run against Stage3D's */
} agal_ir_conventions;

typedef struct agal_ir {
    agal_context *ctx;
    const agal_program *prog;
    agal_ir_inst *insts; /* [0] unused */
    uint32_t ninsts, inst_cap;
    agal_ir_list *lists; /* [0] = program body */
    uint32_t nlists, list_cap;
    uint32_t nlive; /* instructions in the live lists (agal_ir_count_uses) */
    /* The lowest value with an operand numbered above its own, 0 for none: every
     * value below it reads only earlier ones (opt_copy_prop.c starts there). The
     * builder makes none; a pass that gives a value a later operand notes it
     * (agal_ir_note_operand), ir_read.c finds it, the IR checker compares. */
    uint32_t first_late_user;
    /* The lowest value that may be a copy (agal_ir_copy_of), 0 for none: no value
     * below it is one, so copy folding looks from there, and at nothing without one
     * (opt_copy_prop.c). The builder notes its copies (an unfolded mov's, a phi of
     * two zeros), a pass that makes a value a copy or rewrites a phi's operands
     * notes it (agal_ir_note_copy), ir_read.c finds it, the IR checker compares. */
    uint32_t first_copy;
    /* Every listed instruction is live: opt_dce.c then only counts the uses, without
     * its walk. The builder sets it where no value it made can be left unread (its
     * registers' reads, build.c), dead code after its walk; a pass that may leave
     * something dead clears it (a store dropped, copies folded), ir_read.c computes
     * it (agal_ir_find_dead), the IR checker checks it. false: not known. */
    bool live_only;
    /* No two input or constant loads read one register (removed ones aside), so
     * opt_share_loads has none to share, only its run of loads to move in front.
     * The builder sets it where it shared every read (build.c); a pass that may add
     * a second load of one register clears it (lower_constant_ranges; not
     * lower_pack_varyings, whose slots' loads replace every varying's load, one a
     * slot), ir_read.c finds it, the IR checker checks it. false: not known. */
    bool loads_unique;
    /* A pass after copy folding made a phi a copy (opt_share_loads: its two loads of
     * one register became one): the pipeline runs the optimizations once more. */
    bool copy_after_folding;
    bool keep_copies;
    bool samples_in_blocks;   /* the builder put a tex or ted inside a block */
    bool takes_ddy;           /* there may be a ddy (lower_conventions.c scales each): the builder
                                 notes its ddys, ir_read.c finds them, the IR checker checks */
    uint16_t unread_varyings; /* vertex: v<n> no fragment program reads (lower_unread_varyings.c) */
    agal_ir_packing packing;  /* a pair's varyings packed (lower_pack_varyings.c), when on */
    uint32_t unpacked[16];    /* fragment, packed: the value v<n> was rebuilt as (its slot's load
                                 when whole), removed (IR_NOP) when nothing read it live */
    agal_ir_info info;        /* after the pipeline (info.c) */
    agal_clip clip;           /* the options' (lower_conventions.c reads them) */
    bool window_y_up;
    /* lower_constant_ranges.c's packing: IR_UNIFORM's reg_num is then the vec4 of the
     * declared array, and these say which AGAL register each vec4 holds. None
     * (nconst_ranges 0): register n is vec4 n. */
    agal_binding_range *const_ranges;
    uint32_t nconst_ranges;
    /* ---- what the builder notes from the tokens as it reads them (build.c) ---- */
    /* The components of va<n> the tokens read, dead code too (agal_source_attributes,
     * the reflection's rule): the binding description's, without a second walk of the
     * tokens. Zero in IR read from text. */
    uint16_t attributes_read[16];
    /* Room new lists' first items are cut from (ir.c): a program of many blocks makes
     * thousands of short branch lists, and an arena call each cost more than the
     * list's items. */
    uint32_t *list_room;
    uint32_t list_room_left;
} agal_ir;

typedef struct agal_ir_options {
    bool keep_copies;               /* keep IR_COPY (one GLSL statement per mov) */
    bool no_opt;                    /* run only the required passes (debugging -t ir) */
    uint16_t unread_varyings;       /* vertex: bit n, no fragment program reads v<n>: no output */
    const agal_ir_packing *packing; /* the pair's varyings packed so (NULL: not packed) */
    /* The target's: op's mapping (the driver resolves AGAL_CLIP_DEFAULT to the
     * target's own; it stays only for -t ir, which has no target: op as the program
     * wrote it), and whether its window's y points up (GL) or down (Vulkan). */
    agal_clip clip;
    bool window_y_up;
    /* An AGAL mov makes no value: its destination register takes its source's, as
     * opt_copy_prop would make every use read (not with keep_copies or no_opt; -t ir
     * keeps the copy, whose number the text shows). */
    bool fold_movs;
    /* The builder keeps each register's first load and reads it at every later
     * read, as opt_share_loads would (agal_ir_pipeline's whole run): where a pass
     * before that one could change which load is first (dead code, a copy folded, a
     * ddy scaled, a sample hoisted, a varying's store dropped), it undoes that
     * before any pass runs (build.c, unshare_loads). */
    bool share_loads;
} agal_ir_options;

/* ---- pipeline.c: AGAL -> IR, and every pass in order ------------------------- */

/* Builds the IR of a validated program (lenient or strict) and runs the pass
 * pipeline on it: required lowering, then the optimizations (unless opt->no_opt).
 * opt may be NULL. Every back end and -t ir call this. */
agal_status agal_ir_pipeline(agal_context *ctx, const agal_program *prog, const agal_ir_options *opt, agal_ir **out);
/* The pipeline stopped after the pass named `last` ("build": as built, before any
 * pass; the last pass's name: agal_ir_pipeline's IR), with its uses counted, for
 * `agal2spv -t ir --after PASS`. AGAL_ERR_ARG for a name the pipeline lacks. */
agal_status agal_ir_pipeline_until(agal_context *ctx, const agal_program *prog, const agal_ir_options *opt,
                                   const char *last, agal_ir **out);
/* The pipeline's i-th name: "build", then each pass in order; NULL past the last. */
const char *agal_ir_stage_name(unsigned i);
/* The i-th lowering the driver runs outside the pipeline, on demand; NULL past the last. */
const char *agal_ir_on_demand_name(unsigned i);
/* Runs that lowering on a pipeline's IR (its info kept true), the IR checker after it
 * in the IR-check build; AGAL_ERR_ARG for a name there is none of. */
agal_status agal_ir_lower_on_demand(agal_ir *ir, const char *name);
/* The pass of that name, in the pipeline or on demand (tests/passes/ runs one at a
 * time); NULL for none. */
typedef agal_status (*agal_ir_pass_fn)(agal_ir *ir, bool *changed);
agal_ir_pass_fn agal_ir_pass_named(const char *name);

/* ---- ir.c: the IR's primitives ----------------------------------------------- */

/* Appends a new instruction (zeroed except op/type, reg_type = IR_NO_REG, token);
 * returns its index, 0 when out of memory. Pointers into ir->insts are invalidated. */
uint32_t agal_ir_new(agal_ir *ir, agal_ir_op op, agal_ir_type type, int32_t token);
/* Appends a new empty list; returns its index, or UINT32_MAX when out of memory. */
uint32_t agal_ir_new_list(agal_ir *ir);
/* Appends instruction v to list l. false when out of memory. */
bool agal_ir_append(agal_ir *ir, uint32_t l, uint32_t v);
/* Room for n more instructions, and n more items in list l, so that the builder
 * makes a token's values without testing for room (build.c). false when out of
 * memory. Pointers into ir->insts and the list's items are invalidated. */
bool agal_ir_reserve(agal_ir *ir, uint32_t l, uint32_t n);
/* Value v now reads operand a: a later one lowers ir->first_late_user to v. */
static inline void agal_ir_note_operand(agal_ir *ir, uint32_t v, uint32_t a)
{
    if (a > v && (!ir->first_late_user || v < ir->first_late_user)) ir->first_late_user = v;
}
/* ir->first_late_user as the IR is: the lowest value with a later operand, 0 for none. */
uint32_t agal_ir_find_late_user(const agal_ir *ir);
/* The ops that can be a copy, as a set: one test passes the others (loads,
 * operations), which most values are. */
_Static_assert(IR_OP_COUNT <= 32, "the set of ops that can be a copy is a uint32_t");
enum { IR_MAYBE_COPY = 1u << IR_COPY | 1u << IR_SWIZZLE | 1u << IR_MERGE | 1u << IR_PHI };
/* The operand value v is a plain copy of, or 0: an AGAL mov's IR_COPY (unless
 * keep_copies), an identity swizzle, a merge taking all of one side, a phi of equal
 * operands (opt_copy_prop.c forwards them). */
static inline uint32_t agal_ir_copy_of(const agal_ir *ir, uint32_t v)
{
    const agal_ir_inst *in = &ir->insts[v];
    if (!((unsigned)IR_MAYBE_COPY >> in->op & 1)) return 0;
    switch (in->op) {
    case IR_COPY: return ir->keep_copies ? 0 : in->args[0];
    case IR_SWIZZLE: return in->swizzle == AGAL_SWIZZLE_IDENTITY ? in->args[0] : 0;
    case IR_MERGE: return in->mask == 0xf ? in->args[1] : in->mask == 0 ? in->args[0] : 0;
    case IR_PHI: return in->args[0] == in->args[1] ? in->args[0] : 0;
    default: return 0;
    }
}
/* Value v may be a copy now: a lower one lowers ir->first_copy to v. */
static inline void agal_ir_note_copy(agal_ir *ir, uint32_t v)
{
    if (!ir->first_copy || v < ir->first_copy) ir->first_copy = v;
}
/* ir->first_copy as the IR is: the lowest value that is a copy, 0 for none. */
uint32_t agal_ir_find_copy(const agal_ir *ir);
/* Whether the IR holds a ddy (agal_ir.takes_ddy). */
bool agal_ir_find_ddy(const agal_ir *ir);
/* Whether something listed may be dead: a value of a result nothing uses (count[v]
 * its uses, or nuses where count is NULL), or an if with no phi after it and no
 * kil in it. Every dead value has one (operands come before their users), so false
 * is "nothing listed is dead". */
bool agal_ir_find_dead(const agal_ir *ir, const uint32_t *count);
/* The F4 constant (x, y, z, w), deduplicated; 0 when out of memory. */
uint32_t agal_ir_const(agal_ir *ir, float x, float y, float z, float w);
static inline agal_ir_inst *agal_ir_get(const agal_ir *ir, uint32_t v) { return &ir->insts[v]; }
/* Name of an IR op ("alu", "merge", ...), its result type and operand rules. */
const char *agal_ir_op_name(unsigned op);
/* An agal_clip's name in the IR text's `; clip` line (NULL past the last). */
enum { IR_CLIP_COUNT = AGAL_CLIP_CONTROL + 1 };
const char *agal_ir_clip_name(unsigned clip);
/* Calls fn on every instruction of list l and, depth first, of its nested lists, in
 * program order. Nesting is at most 4 deep (the validator's 3624), so recursing on
 * lists is bounded. */
typedef void (*agal_ir_visit_fn)(agal_ir *ir, uint32_t v, void *ud);
void agal_ir_walk(agal_ir *ir, uint32_t l, agal_ir_visit_fn fn, void *ud);
/* Recomputes nuses of every instruction, and nlive, from the live lists. */
void agal_ir_count_uses(agal_ir *ir);
/* One more use of a value; the count saturates ("used", "used once" stay exact).
 * Without a branch: the builder counts every operand it makes. */
static inline void agal_ir_add_use(agal_ir_inst *used)
{
    unsigned n = used->nuses;
    used->nuses = (uint8_t)(n + (n < IR_MAX_USES));
}
/* One use fewer of a value (a pass moved or dropped its user). Where its count
 * cannot say (saturated, or none counted) the uses are no longer known exactly:
 * live_only no longer holds. */
static inline void agal_ir_drop_use(agal_ir *ir, agal_ir_inst *used)
{
    if (used->nuses == 0 || used->nuses == IR_MAX_USES) ir->live_only = false;
    else used->nuses--;
}
/* A register's load (an input's or a constant's): what opt_share_loads shares and
 * the builder lists in front of the body. */
static inline bool agal_ir_is_load(const agal_ir_inst *in) { return (1u << IR_UNIFORM | 1u << IR_INPUT) >> in->op & 1; }
/* The register a load reads, as a key: the constants (at most 250), the inputs
 * (attributes or varyings, and a packed varying's slot, at most 16), iid. */
enum { IR_KEY_UNIFORM = 0, IR_KEY_INPUT = 256, IR_KEY_IID = 256 + 16, IR_LOAD_KEYS };
static inline unsigned agal_ir_load_key(const agal_ir_inst *in)
{
    if (in->op == IR_UNIFORM) return IR_KEY_UNIFORM + (in->reg_num & 255);
    return in->reg_type == AGAL_REG_IID ? IR_KEY_IID : IR_KEY_INPUT + (in->reg_num & 15);
}
/* ir->loads_unique as the IR is: no two loads (removed ones aside) of one key. */
bool agal_ir_find_loads_unique(const agal_ir *ir);

/* Register slots: the written registers the builder tracks by SSA value
 * (agal_ir_reg_slot): temps 0..25, op/oc 26..29, v 30..39, fd 40. */
enum { IR_SLOT_TEMP = 0, IR_SLOT_OUT = 26, IR_SLOT_VARY = 30, IR_SLOT_DEPTH = 40, IR_TRACKED_REGS = 41 };
/* Slot of a tracked register, or -1 (not a written register type / out of range).
 * Inline: the builder asks it at every write. */
static inline int agal_ir_reg_slot(agal_stage stage, unsigned type, unsigned num)
{
    switch (type) {
    case AGAL_REG_TEMP: return num < 26 ? IR_SLOT_TEMP + (int)num : -1;
    case AGAL_REG_OUTPUT: return num < 4 ? IR_SLOT_OUT + (int)num : -1;
    case AGAL_REG_VARYING: return stage == AGAL_VERTEX && num < 10 ? IR_SLOT_VARY + (int)num : -1;
    case AGAL_REG_DEPTH: return stage == AGAL_FRAGMENT && num == 0 ? IR_SLOT_DEPTH : -1;
    default: return -1;
    }
}
/* Register (type, number) of a slot. */
void agal_ir_slot_reg(int slot, unsigned *type, unsigned *num);

/* ---- build.c: validated AGAL tokens -> SSA IR --------------------------------- */

/* The IR of a validated program, as read: no pass has run (agal_ir_pipeline). */
agal_status agal_ir_build(agal_context *ctx, const agal_program *prog, const agal_ir_options *opt, agal_ir **out);

/* ---- join.c: if/els/eif -> IR_IF with its branches and the phis of its join ---- */

/* The builder's view of register contents, saved and joined at each block. */
typedef struct agal_ir_regs {
    uint32_t val[IR_TRACKED_REGS];    /* current F4 value per slot, 0 = never written */
    uint8_t written[IR_TRACKED_REGS]; /* components ever written (for IR_STORE masks) */
} agal_ir_regs;

typedef struct agal_ir_frame agal_ir_frame; /* one open block (join.c) */

typedef struct agal_ir_builder {
    agal_ir *ir;
    agal_ir_regs regs;
    uint32_t list;        /* list receiving instructions */
    agal_ir_frame *top;   /* innermost open block, NULL at top level */
    agal_ir_frame *spare; /* closed blocks' frames, for the next ones */
    unsigned depth;
    uint32_t zero;    /* the (0,0,0,0) constant, made on first use */
    uint64_t changed; /* bit s: slot s assigned since the innermost branch began */
    uint64_t joined;  /* bit s: slot s given a phi by the last agal_ir_pop_if */
} agal_ir_builder;

/* Opens a block on condition cond (from token): an IR_IF in the current list;
 * instructions go to its then list. */
agal_status agal_ir_push_if(agal_ir_builder *b, uint32_t cond, int32_t token);
/* Switches the innermost block to its else list (token: the els). */
agal_status agal_ir_push_else(agal_ir_builder *b, int32_t token);
/* Closes the innermost block (token: the eif): appends the phis of the registers
 * the branches changed after the IR_IF, and makes them the registers' values. */
agal_status agal_ir_pop_if(agal_ir_builder *b, int32_t token);
/* The (0,0,0,0) constant a never-written register reads, made once (b->zero); 0 when
 * out of memory. */
uint32_t agal_ir_builder_zero(agal_ir_builder *b);

/* ---- the passes (pipeline.c runs them in order) ------------------------------ */

/* Each returns AGAL_OK (and whether it changed anything) or AGAL_ERR_NOMEM, which
 * ends the translation: no pass is skipped silently. */
/* lower_unread_varyings.c (required when asked): the stores of ir->unread_varyings go. */
agal_status agal_lower_unread_varyings(agal_ir *ir, bool *changed);
/* lower_pack_varyings.c (required when asked): with ir->packing on, the vertex
 * program stores each slot p<n> (its members' carried components, shifted to their
 * offsets) instead of the AGAL varyings, and the fragment program rebuilds each v<n>
 * it reads from its slot, 0 in the components not carried. */
agal_status agal_lower_pack_varyings(agal_ir *ir, bool *changed);
/* The packing of a pair: read[n] the components of v<n> the fragment program reads,
 * written[n] those the vertex program writes, centroid bit n: v<n> is interpolated
 * at the centroid. Widest first, each into the first slot of its kind with room. */
void agal_pack_plan(const uint8_t read[16], const uint8_t written[16], uint16_t centroid, agal_ir_packing *out);
/* lower_conventions.c (required): the target's conventions (agal_conventions) as
 * instructions reading the y flip (IR_YFLIP): the vertex position stored is op in the
 * target's clip space, and every ddy is multiplied by the flip (negated where the
 * window's rows run against Stage3D's). Nothing without a target (AGAL_CLIP_DEFAULT)
 * or on IR that reads the flip already. */
agal_status agal_lower_conventions(agal_ir *ir, bool *changed);
/* The rule itself: what differs between Stage3D and a target with that window and
 * clip option. */
void agal_conventions(bool window_y_up, agal_clip clip, agal_ir_conventions *out);
/* What the instructions lower_conventions writes make of op, for the tools that
 * compare a GPU's position with the interpreter's op: out = op in the target's clip
 * space, with the runtime's flip yflip. */
void agal_conventions_position(const agal_ir_conventions *conv, float yflip, const float op[4], float out[4]);
/* lower_hoist_tex.c (required): moves tex samples with varying coordinates out of
 * blocks, in front of the outermost if (implicit derivatives need uniform control
 * flow); the moved instructions are flagged IR_HOISTED. */
agal_status agal_lower_hoist_tex(agal_ir *ir, bool *changed);
/* opt_share_loads.c: one load per input or constant register, all at the front of the
 * program body (they dominate every use), in value order. */
agal_status agal_opt_share_loads(agal_ir *ir, bool *changed);
/* opt_copy_prop.c: replaces uses of IR_COPY (unless keep_copies), identity IR_SWIZZLE,
 * full-mask IR_MERGE and phis with equal operands by their operand. */
agal_status agal_opt_copy_prop(agal_ir *ir, bool *changed);
/* opt_dce.c: removes what no store or kil needs: unused values, and ifs whose
 * branches hold nothing live and whose phis are unused; counts nuses. One run
 * reaches the fixed point. */
agal_status agal_opt_dce(agal_ir *ir, bool *changed);

/* lower_constant_ranges.c (when the driver asks: limits.c decides): the constants
 * read directly packed into ranges (ir->const_ranges) and every IR_UNIFORM
 * renumbered to its vec4; nothing for a program with a relative read. */
agal_status agal_lower_constant_ranges(agal_ir *ir, bool *changed);
/* The vec4s a translation of ir declares for its constants: the packed count, or
 * the registers read (1 + the highest) where plain_array (GLSL ES 1.00's array) and
 * no relative read, else the profile's register file. */
uint32_t agal_ir_constant_count(const agal_ir *ir, bool plain_array);

/* ---- ircheck.c: the IR checker ---------------------------------------------- */

enum {
    AGAL_IR_CHECK_USES = 1, /* also: nuses and nlive exact */
    AGAL_IR_CHECK_LIVE = 2, /* also: nothing dead listed (after dead code) */
    AGAL_IR_CHECK_INFO = 4, /* also: ir->info is what the IR uses (info.c) */
    AGAL_IR_CHECK_INPUT = 8 /* the IR is input (ir_read.c): a fault is AGAL_ERR_INVALID */
};
/* Checks the IR's rules (this header's comment): every operand defined before its
 * use on every path, operand counts and types, phis only right after an if, each
 * instruction listed once, no removed or constant instruction listed. AGAL_OK,
 * AGAL_ERR_NOMEM (its scratch could not be had), or
 * AGAL_ERR_INTERNAL with a diagnostic naming `after` (the pass) and the fault
 * (AGAL_ERR_INVALID with AGAL_IR_CHECK_INPUT). */
agal_status agal_ir_check(const agal_ir *ir, unsigned flags, const char *after);

/* ---- ir_print.c: -t ir ---------------------------------------------------- */

/* The IR as text (NUL-terminated, in the context arena); NULL when out of memory. */
char *agal_ir_print(const agal_ir *ir);
/* ir_read.c: the printer's text back into an IR (in ctx's arena), uses counted,
 * the info record gathered and the IR checker passed; AGAL_ERR_INVALID with a
 * diagnostic naming the line for text that is not the printer's, or no valid IR.
 * For tests of one pass on IR written by hand (tests/passes/). */
agal_status agal_ir_read(agal_context *ctx, const char *text, size_t len, agal_ir **out);

/* ---- info.c: what the IR uses ----------------------------------------------------- */

/* Gathers what ir uses into *out (the pipeline's end: into ir->info, which
 * opt_share_loads, the last pass, gathers in its walk of every value). */
void agal_ir_gather_info(const agal_ir *ir, agal_ir_info *out);
/* The same one value at a time, for a walk by value number that meets every value
 * (agal_ir_gather_info's, opt_share_loads'): *info cleared, then what each value
 * tells noted in value order (the first sample of a sampler is its state). */
void agal_ir_info_start(agal_ir_info *info);
/* Most values tell nothing: one test passes them, where a jump table of every kind
 * cost a mispredicted branch a value (7x the time on a chain of masked writes). */
_Static_assert(IR_OP_COUNT <= 32, "the set of ops the info record notes is a uint32_t");
enum {
    IR_INFO_TELLING = 1u << IR_INPUT | 1u << IR_UNIFORM | 1u << IR_UNIFORM_INDIRECT | 1u << IR_TEX | 1u << IR_ALU |
                      1u << IR_KIL | 1u << IR_STORE | 1u << IR_YFLIP
};
/* What a value of a rarer telling kind (no load, no operation) tells. */
void agal_ir_info_note_rare(agal_ir_info *info, const agal_ir *ir, const agal_ir_inst *in);
/* What an IR_ALU value of AGAL opcode aop tells (the builder, which knows the kind,
 * asks this directly). */
static inline void agal_ir_info_note_alu(agal_ir_info *info, unsigned aop)
{
    info->ddx |= aop == AGAL_OP_DDX;
    info->ddy |= aop == AGAL_OP_DDY;
}
/* What one value tells: inline for the commonest kinds (the loads, the operations). */
static inline void agal_ir_info_note(agal_ir_info *info, const agal_ir *ir, const agal_ir_inst *in)
{
    if (!((unsigned)IR_INFO_TELLING >> in->op & 1)) return;
    switch (in->op) {
    case IR_UNIFORM:
        info->loads++;
        info->reads_constants = true;
        if (in->reg_num + 1u > info->constants_read) info->constants_read = (uint16_t)(in->reg_num + 1u);
        break;
    case IR_INPUT: /* the builder notes one at most reads */
        info->loads++;
        if (in->reg_type == AGAL_REG_IID) info->reads_iid = true;
        else if (in->reg_type == IR_REG_PACKED) info->packed |= (uint16_t)(1u << (in->reg_num & 15));
        else if (in->reg_num < 16) info->inputs |= (uint16_t)(1u << in->reg_num);
        break;
    case IR_ALU: agal_ir_info_note_alu(info, in->aop); break;
    default: agal_ir_info_note_rare(info, ir, in); break;
    }
}
/* The AGAL_EXT_* a GLSL ES 1.00 translation of what info describes needs. */
unsigned agal_ir_essl1_extensions(const agal_ir_info *info);

#endif
