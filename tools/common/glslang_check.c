/* glslang_check.c: see glslang_check.h. */
#include "glslang_check.h"

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool glslang_check_init(void) { return glslang_initialize_process() != 0; }

void glslang_check_fini(void) { glslang_finalize_process(); }

static glslang_stage_t gl_stage(agal_stage stage)
{
    return stage == AGAL_VERTEX ? GLSLANG_STAGE_VERTEX : GLSLANG_STAGE_FRAGMENT;
}

static void copy_log(char *log, size_t logsize, const char *what, const char *text)
{
    if (!log || logsize == 0) return;
    snprintf(log, logsize, "%s%s", what, text ? text : "");
}

/* A field of glslang's resources from a limit: 0 (unlimited) keeps glslang's
 * default, AGAL_LIMIT_NONE is 0, another the limit times scale (components per vector). */
static void set_limit(int *field, uint32_t limit, int scale)
{
    if (limit) *field = limit == AGAL_LIMIT_NONE ? 0 : (int)limit * scale;
}

/* glslang's resources (its .conf file's values) with lim's in place of its defaults. */
static glslang_resource_t limited_resource(const agal_limits *lim)
{
    glslang_resource_t r = *glslang_default_resource();
    set_limit(&r.max_varying_vectors, lim->varying_vectors, 1);
    set_limit(&r.max_vertex_output_vectors, lim->varying_vectors, 1);
    set_limit(&r.max_fragment_input_vectors, lim->varying_vectors, 1);
    set_limit(&r.max_varying_components, lim->varying_components, 1);
    set_limit(&r.max_varying_floats, lim->varying_components, 1);
    set_limit(&r.max_vertex_output_components, lim->varying_components, 1);
    set_limit(&r.max_fragment_input_components, lim->varying_components, 1);
    set_limit(&r.max_vertex_uniform_vectors, lim->vertex_uniform_vectors, 1);
    set_limit(&r.max_vertex_uniform_components, lim->vertex_uniform_vectors, 4);
    set_limit(&r.max_fragment_uniform_vectors, lim->fragment_uniform_vectors, 1);
    set_limit(&r.max_fragment_uniform_components, lim->fragment_uniform_vectors, 4);
    set_limit(&r.max_vertex_texture_image_units, lim->vertex_texture_units, 1);
    set_limit(&r.max_texture_image_units, lim->fragment_texture_units, 1);
    if (lim->vertex_texture_units && lim->fragment_texture_units)
        r.max_combined_texture_image_units = r.max_vertex_texture_image_units + r.max_texture_image_units;
    set_limit(&r.max_vertex_attribs, lim->vertex_attributes, 1);
    set_limit(&r.max_draw_buffers, lim->color_attachments, 1);
    return r;
}

/* OpenGL as a driver sees it: no client API (plain GLSL rules), no SPIR-V target.
 * 330 core is the fallback for a source without #version. */
static glslang_input_t gl_input(agal_stage stage, const char *src)
{
    glslang_input_t in;
    memset(&in, 0, sizeof in);
    in.language = GLSLANG_SOURCE_GLSL;
    in.stage = gl_stage(stage);
    in.client = GLSLANG_CLIENT_NONE;
    in.target_language = GLSLANG_TARGET_NONE;
    in.code = src;
    in.default_version = 330;
    in.default_profile = GLSLANG_CORE_PROFILE;
    in.messages = GLSLANG_MSG_DEFAULT_BIT;
    in.resource = glslang_default_resource();
    return in;
}

/* Preprocesses and parses; returns the shader (caller deletes) or NULL with the log. */
static glslang_shader_t *parse(const glslang_input_t *in, const char *what, char *log, size_t logsize)
{
    glslang_shader_t *sh = glslang_shader_create(in);
    if (!sh) {
        copy_log(log, logsize, what, "glslang_shader_create failed");
        return NULL;
    }
    if (!glslang_shader_preprocess(sh, in) || !glslang_shader_parse(sh, in)) {
        copy_log(log, logsize, what, glslang_shader_get_info_log(sh));
        glslang_shader_delete(sh);
        return NULL;
    }
    return sh;
}

bool glslang_check_gl(agal_stage stage, const char *src, char *log, size_t logsize)
{
    return glslang_check_gl_limited(stage, src, NULL, log, logsize);
}

bool glslang_check_gl_limited(agal_stage stage, const char *src, const agal_limits *lim, char *log, size_t logsize)
{
    glslang_input_t in = gl_input(stage, src);
    glslang_resource_t r;
    if (lim) r = limited_resource(lim), in.resource = &r;
    glslang_shader_t *sh = parse(&in, "", log, logsize);
    if (!sh) return false;
    glslang_shader_delete(sh);
    return true;
}

bool glslang_check_gl_link(const char *vs, const char *fs, char *log, size_t logsize)
{
    return glslang_check_gl_link_limited(vs, fs, NULL, log, logsize);
}

bool glslang_check_gl_link_limited(const char *vs, const char *fs, const agal_limits *lim, char *log, size_t logsize)
{
    glslang_input_t vin = gl_input(AGAL_VERTEX, vs), fin = gl_input(AGAL_FRAGMENT, fs);
    glslang_resource_t r;
    if (lim) r = limited_resource(lim), vin.resource = fin.resource = &r;
    glslang_shader_t *v = parse(&vin, "vertex: ", log, logsize);
    glslang_shader_t *f = v ? parse(&fin, "fragment: ", log, logsize) : NULL;
    bool ok = false;
    if (v && f) {
        glslang_program_t *p = glslang_program_create();
        glslang_program_add_shader(p, v);
        glslang_program_add_shader(p, f);
        ok = glslang_program_link(p, GLSLANG_MSG_DEFAULT_BIT) != 0;
        if (!ok) copy_log(log, logsize, "link: ", glslang_program_get_info_log(p));
        glslang_program_delete(p);
    }
    if (f) glslang_shader_delete(f);
    if (v) glslang_shader_delete(v);
    return ok;
}

static bool take_spirv(glslang_program_t *p, glslang_stage_t st, uint32_t **words, size_t *nwords, char *log,
                       size_t logsize)
{
    glslang_program_SPIRV_generate(p, st);
    size_t n = glslang_program_SPIRV_get_size(p);
    const char *msg = glslang_program_SPIRV_get_messages(p);
    if (n == 0) {
        copy_log(log, logsize, "spirv: ", msg ? msg : "no output");
        return false;
    }
    *words = malloc(n * sizeof **words);
    if (!*words) {
        copy_log(log, logsize, "spirv: ", "out of memory");
        return false;
    }
    glslang_program_SPIRV_get(p, *words);
    *nwords = n;
    return true;
}

bool glslang_compile_vulkan(agal_stage stage, const char *src, uint32_t **words, size_t *nwords, char *log,
                            size_t logsize)
{
    glslang_input_t in;
    memset(&in, 0, sizeof in);
    in.language = GLSLANG_SOURCE_GLSL;
    in.stage = gl_stage(stage);
    in.client = GLSLANG_CLIENT_VULKAN;
    in.client_version = GLSLANG_TARGET_VULKAN_1_0;
    in.target_language = GLSLANG_TARGET_SPV;
    in.target_language_version = GLSLANG_TARGET_SPV_1_0;
    in.code = src;
    in.default_version = 450;
    in.default_profile = GLSLANG_NO_PROFILE;
    in.messages = GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT;
    in.resource = glslang_default_resource();
    *words = NULL;
    *nwords = 0;
    glslang_shader_t *sh = parse(&in, "", log, logsize);
    if (!sh) return false;
    glslang_program_t *p = glslang_program_create();
    glslang_program_add_shader(p, sh);
    bool ok = glslang_program_link(p, (int)in.messages) != 0;
    if (!ok) copy_log(log, logsize, "link: ", glslang_program_get_info_log(p));
    else ok = take_spirv(p, in.stage, words, nwords, log, logsize);
    glslang_program_delete(p);
    glslang_shader_delete(sh);
    return ok;
}
