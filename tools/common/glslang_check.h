/* glslang_check.h: compile GLSL in-process with glslang's C interface, for tests,
 * the harness and the benchmark.
 *
 * glslang_check_gl: GLSL as an OpenGL driver takes it (no SPIR-V rules; the source's
 * own #version, 330 core for the GLSL emitter), so a pass means a GL 3.3 driver's
 * front end accepts the text. glslang_check_gl_link: a vertex + fragment pair,
 * linked (interface matching by name). glslang_compile_vulkan: GLSL for Vulkan 1.0
 * to SPIR-V 1.0 (the benchmark's baseline path).
 *
 * Call glslang_check_init() once per process before the others, and
 * glslang_check_fini() at the end. Not thread-safe beyond what glslang is.
 * The executable links glslang (C++): link_language 'cpp'. */
#ifndef GLSLANG_CHECK_H
#define GLSLANG_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agal/agal.h"

bool glslang_check_init(void);
void glslang_check_fini(void);

/* true when src compiles without error. On failure, glslang's info log is copied
 * into log (truncated to logsize; log may be NULL). */
bool glslang_check_gl(agal_stage stage, const char *src, char *log, size_t logsize);

/* true when both compile and the pair links as one OpenGL program. glslang checks
 * that same-named varyings and uniforms agree in type across the stages; it does not
 * report a fragment input that no vertex output names (GL drivers do). */
bool glslang_check_gl_link(const char *vs, const char *fs, char *log, size_t logsize);

/* glslang_check_gl and glslang_check_gl_link with glslang's resource limits set to a
 * device's (lim: an agal_limits as agal_limits_preset fills it; NULL: glslang's
 * defaults). glslang takes every GL limit agal_limits has but enforces one: each
 * fragment output's location below MaxDrawBuffers (gl_FragData's size in ES 1.00),
 * agal_limits' color_attachments. */
bool glslang_check_gl_limited(agal_stage stage, const char *src, const agal_limits *lim, char *log, size_t logsize);
bool glslang_check_gl_link_limited(const char *vs, const char *fs, const agal_limits *lim, char *log, size_t logsize);

/* Compiles src (GLSL with its own #version, Vulkan rules) to SPIR-V 1.0 for Vulkan
 * 1.0. On success *words (malloc'd: the caller frees) holds *nwords words. */
bool glslang_compile_vulkan(agal_stage stage, const char *src, uint32_t **words, size_t *nwords, char *log,
                            size_t logsize);

#endif
