/* json_read.c: the small JSON documents the library reads (a device's limits, a
 * pipeline key): one reader, so each document's code says only what its members
 * are. The library needs only libc, so no JSON library: these documents need
 * objects, arrays, strings without escapes and unsigned integers, and nothing else. */
#include "../internal.h"

agal_status agal_json_error(agal_json_reader *r, const char *what, const char *member)
{
    const agal_diag proto = {.token = -1, .offset = (long)r->at};
    return agal_report(r->ctx, &proto, "%s, byte %zu%s%s%s: %s", r->doc, r->at, member ? " (\"" : "",
                       member ? member : "", member ? "\")" : "", what);
}

void agal_json_skip_space(agal_json_reader *r)
{
    while (r->at < r->n && r->s[r->at] && strchr(" \t\r\n", r->s[r->at])) r->at++;
}

bool agal_json_take(agal_json_reader *r, char c)
{
    agal_json_skip_space(r);
    if (r->at >= r->n || r->s[r->at] != c) return false;
    r->at++;
    return true;
}

agal_status agal_json_string(agal_json_reader *r, size_t *first, size_t *len)
{
    if (!agal_json_take(r, '"')) return agal_json_error(r, "a string was expected", NULL);
    *first = r->at;
    while (r->at < r->n && r->s[r->at] != '"') {
        if (r->s[r->at] == '\\' || (unsigned char)r->s[r->at] < 0x20)
            return agal_json_error(r, "escapes are not read", NULL);
        r->at++;
    }
    if (r->at >= r->n) return agal_json_error(r, "the string does not end", NULL);
    *len = r->at++ - *first;
    return AGAL_OK;
}

bool agal_json_uint(agal_json_reader *r, uint32_t max, uint32_t *out)
{
    agal_json_skip_space(r);
    size_t first = r->at;
    uint64_t v = 0;
    while (r->at < r->n && r->s[r->at] >= '0' && r->s[r->at] <= '9' && v <= max)
        v = v * 10 + (uint64_t)(r->s[r->at++] - '0');
    bool more = r->at < r->n && r->s[r->at] && strchr("0123456789.eE-+", r->s[r->at]);
    if (r->at == first || more || v > max) {
        r->at = first;
        return false;
    }
    *out = (uint32_t)v;
    return true;
}
