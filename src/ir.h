/* ir.h: the IR between validated AGAL tokens and the SPIR-V / GLSL emitters.
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
 * mask covers all four components. The value that ends up as the register's new
 * content is tagged with the destination register (reg_type/reg_num) and the token.
 * Every value also records the token it came from (token), so an emitter can comment
 * the source instruction and name registers ("ft1", "vc[5]").
 *
 * Registers written (temporaries, and outputs op/oc/v/fd, which are tracked the
 * same way) have no storage in the IR: their content at any point is an SSA value.
 * The final content of each output register written anywhere is stored once, at the
 * end of the top-level list, by IR_STORE (mask = components ever written). A lenient
 * program's read of a never-written temporary (or component) reads 0 (IR_CONST).
 *
 * Control flow is a tree (the structurizer's output, structurize.c). A list
 * (ir->lists[i], index 0 = the program body) is an ordered array of instruction
 * indices. An IR_IF instruction carries its condition (args[0], an IR_B1 from
 * IR_CMP) and two child lists (then_list, else_list; an absent else is an empty
 * list). The IR_PHI instructions that follow an IR_IF in its parent list are the
 * join: args[0] = value at the end of the then list, args[1] = at the end of the
 * else list (the value before the if, when that branch did not write the register).
 * A phi is tagged with its register. IR_CONST values are in no list: they are
 * module-level literals (SPIR-V constants, GLSL literals).
 *
 * Passes (opt.c): dead code removal and copy folding, each `bool agal_opt_x(ir)`
 * returning whether it changed anything; agal_ir_optimize runs the pipeline list,
 * then moves varying-coordinate tex samples out of blocks (in front of the outermost
 * IR_IF: implicit derivatives need uniform control flow). With keep_copies (GLSL:
 * one statement per AGAL instruction) IR_COPY survives. A removed instruction
 * becomes IR_NOP and is dropped from its list (an if's contents vanish with it).
 * After agal_ir_build, nuses counts uses by listed instructions: a constant with
 * nuses 0 is unused.
 */
#ifndef AGAL_IR_H
#define AGAL_IR_H

#include "internal.h"

typedef enum agal_ir_op {
    IR_NOP = 0,          /* removed; never in a list */
    IR_CONST,            /* F4 literal imm[0..3]; in no list */
    IR_INPUT,            /* F4 read of va<n> (vertex), v<n> (fragment), iid (as (id,id,id,id)) */
    IR_UNIFORM,          /* F4 read of vc/fc[reg_num] */
    IR_UNIFORM_INDIRECT, /* F4 read of vc[int(trunc(args[0])) + offset]; args[0] is F1;
                            an address outside 0..range-1 reads (0,0,0,0) */
    IR_SWIZZLE,          /* F4 = args[0].swizzle (2 bits per component, agal_swizzle_comp) */
    IR_EXTRACT,          /* F1 = args[0][comp] */
    IR_COPY,             /* F4 = args[0] (an AGAL mov; folded away unless keep_copies) */
    IR_ALU,              /* F4 = aop(args[0], args[1]) for componentwise ops and dp3/dp4
                            (the dot in every component), nrm/crs (w = 0), ddx/ddy */
    IR_MATRIX,           /* F4: m33/m34/m44; args[0] = A, args[1..rows] = rows of B
                            (each an IR_UNIFORM/IR_UNIFORM_INDIRECT/temp value); missing
                            result components are 0 */
    IR_TEX,              /* F4 = sample(smp, args[0]); aop TEX (bias smp.bias/8) or TED
                            (explicit LOD args[0].w); 2d reads .xy, cube .xyz */
    IR_MERGE,            /* F4: component c = (mask bit c) ? args[1][c] : args[0][c] */
    IR_CMP,              /* B1 = args[0] cmp args[1] (F1 each); aop IFE == (ordered),
                            INE != (unordered: NaN unequal), IFG >=, IFL < (ordered) */
    IR_IF,               /* VOID: if (args[0]) then_list else else_list */
    IR_PHI,              /* F4 join after the preceding IR_IF: args[0] then, args[1] else */
    IR_KIL,              /* VOID: discard the fragment if args[0] (F1) < 0 */
    IR_STORE,            /* VOID: output reg_type/reg_num = args[0] (components in mask) */
    IR_OP_COUNT
} agal_ir_op;

typedef enum agal_ir_type { IR_VOID = 0, IR_F4, IR_F1, IR_B1 } agal_ir_type;

enum { IR_MAX_ARGS = 5 }; /* m44: A and four rows */
enum { IR_NO_REG = 0xff }; /* reg_type of a value that is no register's content */
enum { IR_MAX_TOKENS = 0x7fff }; /* token indices fit the instruction's int16_t */

typedef struct agal_ir_inst {
    uint8_t op;       /* agal_ir_op */
    uint8_t type;     /* agal_ir_type of the result */
    uint8_t aop;      /* agal_opcode for IR_ALU/IR_MATRIX/IR_TEX/IR_CMP */
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
    uint16_t nuses;   /* uses by live instructions (agal_ir_count_uses), saturating */
    /* The operands, and what only one kind of instruction needs, share the space
     * where that kind has no operand there: an instruction is 32 bytes, and a
     * 200-token program makes 400 to 1000 of them. Every walk over operands stops
     * at nargs, so the fields behind them are never read as operands. */
    union {
        uint32_t args[IR_MAX_ARGS];
        float imm[4]; /* IR_CONST (no operands) */
        /* IR_IF: args[0] is the condition */
        struct { uint32_t if_cond_; uint32_t then_list, else_list; };
        /* IR_TEX: args[0] is the coordinate */
        struct { uint32_t tex_coord_; agal_sampler smp; };
        /* IR_UNIFORM_INDIRECT: args[0] is the index; the index register of the
         * agal_source (for names), and the register count (the address bound) */
        struct { uint32_t index_value_; uint8_t index_type, index_comp; uint16_t index_num, range; };
    };
} agal_ir_inst;
_Static_assert(sizeof(agal_ir_inst) == 32, "the IR instruction's size is a memory budget (ir.h)");

typedef struct agal_ir_list {
    uint32_t *items; /* instruction indices in order */
    uint32_t n, cap;
} agal_ir_list;

typedef struct agal_ir {
    agal_context *ctx;
    const agal_program *prog;
    agal_ir_inst *insts; /* [0] unused */
    uint32_t ninsts, inst_cap;
    agal_ir_list *lists; /* [0] = program body */
    uint32_t nlists, list_cap;
    uint32_t nlive;      /* instructions in the live lists (agal_ir_count_uses) */
    bool keep_copies;
} agal_ir;

typedef struct agal_ir_options {
    bool keep_copies; /* keep IR_COPY (one GLSL statement per mov) */
    bool no_opt;      /* skip agal_ir_optimize (debugging -t ir) */
} agal_ir_options;

/* ---- ir.c: SSA builder ---------------------------------------------------- */

/* Builds the IR of a validated program (lenient or strict), structurizes its
 * blocks and runs agal_ir_optimize unless opt->no_opt. opt may be NULL. */
agal_status agal_ir_build(agal_context *ctx, const agal_program *prog,
                          const agal_ir_options *opt, agal_ir **out);
/* Appends a new instruction (zeroed except op/type, reg_type = IR_NO_REG, token);
 * returns its index, 0 when out of memory. Pointers into ir->insts are invalidated. */
uint32_t agal_ir_new(agal_ir *ir, agal_ir_op op, agal_ir_type type, int32_t token);
/* Appends a new empty list; returns its index, or UINT32_MAX when out of memory. */
uint32_t agal_ir_new_list(agal_ir *ir);
/* Appends instruction v to list l. false when out of memory. */
bool agal_ir_append(agal_ir *ir, uint32_t l, uint32_t v);
/* The F4 constant (x, y, z, w), deduplicated; 0 when out of memory. */
uint32_t agal_ir_const(agal_ir *ir, float x, float y, float z, float w);
static inline agal_ir_inst *agal_ir_get(const agal_ir *ir, uint32_t v) { return &ir->insts[v]; }

/* ---- structurize.c: ife/ine/ifg/ifl/els/eif -> if tree with phis ---------- */

/* The builder's view of register contents, saved and merged by the structurizer. */
/* slot = agal_ir_reg_slot(): temps 0..25, op/oc 26..29, v 30..39, fd 40 */
enum { IR_TRACKED_REGS = 41 };
typedef struct agal_ir_regs {
    uint32_t val[IR_TRACKED_REGS];    /* current F4 value per slot, 0 = never written */
    uint8_t written[IR_TRACKED_REGS]; /* components ever written (for IR_STORE masks) */
} agal_ir_regs;

typedef struct agal_ir_frame agal_ir_frame; /* one open block (structurize.c) */

typedef struct agal_ir_builder {
    agal_ir *ir;
    agal_ir_regs regs;
    uint32_t list;        /* list receiving instructions */
    agal_ir_frame *top;   /* innermost open block, NULL at top level */
    agal_ir_frame *spare; /* closed blocks' frames, for the next ones */
    unsigned depth;
    uint32_t zero;        /* the (0,0,0,0) constant, made on first use */
} agal_ir_builder;

/* Slot of a tracked register, or -1 (not a written register type / out of range). */
int agal_ir_reg_slot(agal_stage stage, unsigned type, unsigned num);
/* Register (type, number) of a slot. */
void agal_ir_slot_reg(int slot, unsigned *type, unsigned *num);

/* Opens a block on condition cond (from token): an IR_IF in the current list;
 * instructions go to its then list. */
agal_status agal_ir_begin_if(agal_ir_builder *b, uint32_t cond, int32_t token);
/* Switches the innermost block to its else list. */
agal_status agal_ir_begin_else(agal_ir_builder *b, int32_t token);
/* Closes the innermost block: appends the phis of the registers the branches
 * changed after the IR_IF, and makes them the registers' values. */
agal_status agal_ir_end_if(agal_ir_builder *b, int32_t token);

/* ---- opt.c: passes ------------------------------------------------------- */

/* Recomputes nuses of every instruction, and nlive, from the live lists. */
void agal_ir_count_uses(agal_ir *ir);
/* Replaces uses of IR_COPY (unless keep_copies), identity IR_SWIZZLE, full-mask
 * IR_MERGE and phis with equal operands by their operand. */
bool agal_opt_fold_copies(agal_ir *ir);
/* Removes what no store or kil needs: unused values, and ifs whose branches hold
 * nothing live and whose phis are unused. One pass reaches the fixed point. */
bool agal_opt_dead_code(agal_ir *ir);
/* Moves tex samples with varying coordinates out of blocks, in front of the
 * outermost if (implicit derivatives need uniform control flow). Runs once. */
bool agal_opt_hoist_textures(agal_ir *ir);
/* Runs the pass pipeline to a fixed point. */
void agal_ir_optimize(agal_ir *ir);

/* ---- ir_print.c: -t ir ---------------------------------------------------- */

/* The IR as text (NUL-terminated, in the context arena); NULL when out of memory. */
char *agal_ir_print(const agal_ir *ir);
/* Name of an IR op ("alu", "merge", ...). */
const char *agal_ir_op_name(unsigned op);

#endif
