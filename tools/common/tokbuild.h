/* tokbuild.h: build raw AGAL tokens and programs in tests, field by field, so a
 * test can break exactly one rule. Field layout: the drawing in src/agal/agal.h. */
#ifndef TOKBUILD_H
#define TOKBUILD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { VA = 0, VC = 1, VT = 2, OP = 3, OC = 3, VV = 4, FS = 5, FD = 6, IID = 7 };
enum { FT = 2, FC = 1 };
#define XYZW 0xE4u
#define XXXX 0x00u
#define YYYY 0x55u
#define ZZZZ 0xAAu
#define WWWW 0xFFu

typedef struct tok {
    uint32_t op, d;
    uint64_t a, b;
} tok;

/* Field packers (macros, so they can initialise static tables). */
#define DST(type, num, mask) ((uint32_t)(num) | (uint32_t)(mask) << 16 | (uint32_t)(type) << 24)
#define SRC(type, num, swz) ((uint64_t)(num) | (uint64_t)(swz) << 24 | (uint64_t)(type) << 32)
/* type[index-register.comp + offset] */
#define IND(type, offset, itype, inum, icomp, swz) \
    ((uint64_t)(inum) | (uint64_t)(offset) << 16 | (uint64_t)(swz) << 24 | (uint64_t)(type) << 32 | \
     (uint64_t)(itype) << 40 | (uint64_t)(icomp) << 48 | (uint64_t)1 << 63)
#define SMP(num, bias8, fmt, dim, special, wrap, mip, filter) \
    ((uint64_t)(num) | (uint64_t)(uint8_t)(bias8) << 16 | (uint64_t)5 << 32 | (uint64_t)(fmt) << 40 | \
     (uint64_t)(dim) << 44 | (uint64_t)(special) << 48 | (uint64_t)(wrap) << 52 | (uint64_t)(mip) << 56 | \
     (uint64_t)(filter) << 60)

/* The tests' one little-endian writer. */
static inline void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* The 7-byte header: magic 0xA0, version (32 bits), type id 0xA1, stage. */
static inline void put_header(uint8_t *buf, unsigned stage, uint32_t version)
{
    buf[0] = 0xA0;
    put32(buf + 1, version);
    buf[5] = 0xA1;
    buf[6] = (uint8_t)stage;
}

/* One token's 24 bytes: opcode, destination, source 1, source 2 (or sampler). */
static inline void put_token(uint8_t *p, const tok *t)
{
    put32(p, t->op);
    put32(p + 4, t->d);
    put32(p + 8, (uint32_t)t->a);
    put32(p + 12, (uint32_t)(t->a >> 32));
    put32(p + 16, (uint32_t)t->b);
    put32(p + 20, (uint32_t)(t->b >> 32));
}

/* Writes a program (header + tokens) into buf; returns its size. */
static inline size_t build_program(uint8_t *buf, unsigned stage, unsigned version, const tok *t, size_t n)
{
    put_header(buf, stage, version);
    for (size_t i = 0; i < n; i++) put_token(buf + 7 + 24 * i, &t[i]);
    return 7 + 24 * n;
}

#endif
