/* limits_arg.h: the tools' --limits NAME|FILE.json (agal2spv, and the tools that
 * translate for a device): a preset of agal_limits_preset, or a file in the JSON form
 * of agal_limits_from_json. Links libagal. */
#ifndef TOOLS_LIMITS_ARG_H
#define TOOLS_LIMITS_ARG_H

#include "agal/agal.h"

/* Fills *out from spec: a preset's name, else a file's JSON (a file that names no
 * device is named by its path in the diagnostics). Returns 0, or 2 (the tools' usage
 * and I/O exit code) with a message on stderr starting "TOOL: --limits". */
int tool_load_limits(agal_context *ctx, const char *tool, const char *spec, agal_limits *out);

#endif
