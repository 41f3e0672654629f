/* spirv_check.c: see spirv_check.h. */
#include "spirv_check.h"

#include <spirv-tools/libspirv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool spirv_check_valid(const uint32_t *words, size_t n, const char *what)
{
    return spirv_check_valid_env(words, n, SPIRV_CHECK_VULKAN_1_0, what);
}

bool spirv_check_valid_env(const uint32_t *words, size_t n, spirv_check_env env, const char *what)
{
    spv_context sc = spvContextCreate(env == SPIRV_CHECK_VULKAN_1_3 ? SPV_ENV_VULKAN_1_3 : SPV_ENV_VULKAN_1_0);
    spv_const_binary_t bin = {words, n};
    spv_diagnostic diag = NULL;
    spv_result_t r = spvValidate(sc, &bin, &diag);
    if (r != SPV_SUCCESS) fprintf(stderr, "%s: spirv-val: %s\n", what, diag ? diag->error : "?");
    spvDiagnosticDestroy(diag);
    spvContextDestroy(sc);
    return r == SPV_SUCCESS;
}

char *spirv_check_text(const uint32_t *words, size_t n)
{
    spv_context sc = spvContextCreate(SPV_ENV_VULKAN_1_0);
    spv_text text = NULL;
    spv_diagnostic diag = NULL;
    char *out = NULL;
    if (spvBinaryToText(sc, words, n, SPV_BINARY_TO_TEXT_OPTION_NO_HEADER | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES,
                        &text, &diag) == SPV_SUCCESS) {
        out = malloc(text->length + 1);
        if (out) memcpy(out, text->str, text->length), out[text->length] = 0;
    }
    spvTextDestroy(text);
    spvDiagnosticDestroy(diag);
    spvContextDestroy(sc);
    return out;
}
