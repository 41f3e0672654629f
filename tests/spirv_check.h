/* spirv_check.h: SPIRV-Tools' validator and disassembler for the tests (the
 * executable links SPIRV-Tools: link_language 'cpp'). */
#ifndef SPIRV_CHECK_H
#define SPIRV_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* spvValidate for Vulkan 1.0; prints the validator's message (prefixed with what)
 * on failure. */
bool spirv_check_valid(const uint32_t *words, size_t n, const char *what);
/* The same for another Vulkan version's rules. */
typedef enum spirv_check_env { SPIRV_CHECK_VULKAN_1_0, SPIRV_CHECK_VULKAN_1_3 } spirv_check_env;
bool spirv_check_valid_env(const uint32_t *words, size_t n, spirv_check_env env, const char *what);
/* The module as SPIR-V assembly without its header, friendly names, malloc'd; NULL
 * when it does not disassemble. */
char *spirv_check_text(const uint32_t *words, size_t n);

#endif
