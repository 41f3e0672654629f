/* replay_pcache.h: the replay's pipeline cache file (replay_pcache.c): records of
 * baked pipeline keys, each with what the backend keeps for it, and one blob. */
#ifndef AGAL_REPLAY_PCACHE_H
#define AGAL_REPLAY_PCACHE_H

#include "agal/stage3d.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rpcache_entry {
    agal_pipeline_key key; /* baked */
    uint32_t format;       /* GL: the program binary's format */
    size_t size;
    void *data; /* GL: the program binary; Vulkan: none */
} rpcache_entry;

typedef struct rpcache {
    rpcache_entry *e;
    size_t n;
    void *blob; /* Vulkan: vkGetPipelineCacheData's */
    size_t blob_size;
} rpcache;

/* Reads path written for `backend` ("vulkan", "gl") into *c; a file that does not
 * exist is an empty cache. false with err set for a file that cannot be read or is
 * not such a cache (*c then empty). */
bool rpcache_load(const char *path, const char *backend, rpcache *c, char *err, size_t errsize);
/* Writes *c to path through a temporary file; false with err set. */
bool rpcache_save(const char *path, const char *backend, const rpcache *c, char *err, size_t errsize);
const rpcache_entry *rpcache_find(const rpcache *c, const agal_pipeline_key *k);
/* Adds a record (its data copied) unless the key has one; false when out of memory. */
bool rpcache_add(rpcache *c, const agal_pipeline_key *k, uint32_t format, const void *data, size_t size);
void rpcache_free(rpcache *c);

#endif
