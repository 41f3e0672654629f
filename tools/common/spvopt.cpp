// spvopt.cpp: agal2spv -O. SPIRV-Tools' optimizer has only a C++ API, so this is the
// one C++ file of the tool: it runs the performance passes and hands back malloc'd
// words (the caller frees them).
#include <spirv-tools/optimizer.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" int agal_tool_optimize(const uint32_t *in, size_t n, uint32_t **out, size_t *nout);

extern "C" int agal_tool_optimize(const uint32_t *in, size_t n, uint32_t **out, size_t *nout)
{
    spvtools::Optimizer opt(SPV_ENV_VULKAN_1_0);
    opt.RegisterPerformancePasses();
    std::vector<uint32_t> result;
    // Keep the runtime's specialization constant (the render-to-texture y scale).
    spvtools::OptimizerOptions options;
    options.set_run_validator(true);
    if (!opt.Run(in, n, &result, options)) return 1;
    *out = static_cast<uint32_t *>(std::malloc(result.size() * sizeof(uint32_t) + 1));
    if (!*out) return 1;
    std::memcpy(*out, result.data(), result.size() * sizeof(uint32_t));
    *nout = result.size();
    return 0;
}
