/* replay_scene.c: the ActionScript values a scene's JSON arguments stand for
 * (docs/replay.md, "The scene format"): numbers coerced as AS3 coerces them for int and uint
 * parameters, enumeration strings, objects by name, Vector, ByteArray (base64, or
 * AGAL text for Program3D.upload), Matrix3D, Rectangle, Point and BitmapData.
 *
 * An argument of the wrong JSON type is a malformed scene (R_FAILED, a message);
 * null where the API takes no null is what Flash throws, TypeError #2007. */
#include "agal/stage3d.h"
#include "agal/text.h"
#include "replay_ctx.h"

#include <math.h>
#include <resolv.h>
#include <stdlib.h>
#include <string.h>

/* ---- AS3 numbers -------------------------------------------------------------- */

uint32_t as3_uint(double v)
{
    if (!isfinite(v)) return 0;
    double t = fmod(trunc(v), 4294967296.0);
    return (uint32_t)(t < 0 ? t + 4294967296.0 : t);
}

int32_t as3_int(double v)
{
    uint32_t u = as3_uint(v);
    return u < 0x80000000u ? (int32_t)u : (int32_t)(u - 0x80000000u) - INT32_MAX - 1;
}

/* ---- arguments ------------------------------------------------------------------- */

static const cJSON *arg(const rcall *k, unsigned i) { return k->args ? cJSON_GetArrayItem(k->args, (int)i) : NULL; }

bool arg_given(const rcall *k, unsigned i) { return arg(k, i) != NULL; }

int args_count(rcall *k, unsigned min, unsigned max)
{
    unsigned n = k->args ? (unsigned)cJSON_GetArraySize(k->args) : 0;
    if (n < min || n > max)
        return min == max ? rfail(k, "takes %u arguments, not %u", min, n)
                          : rfail(k, "takes %u to %u arguments, not %u", min, max, n);
    return R_OK;
}

/* A JSON number or one of the strings JSON cannot write as a number. */
static bool json_number(const cJSON *j, double *out)
{
    if (cJSON_IsNumber(j)) {
        *out = j->valuedouble;
        return true;
    }
    static const struct {
        const char *s;
        double v;
    } special[] = {{"NaN", NAN}, {"Infinity", INFINITY}, {"-Infinity", -INFINITY}};
    for (size_t i = 0; cJSON_IsString(j) && i < 3; i++)
        if (!strcmp(j->valuestring, special[i].s)) {
            *out = special[i].v;
            return true;
        }
    return false;
}

int arg_number(rcall *k, unsigned i, double def, double *out)
{
    const cJSON *j = arg(k, i);
    *out = def;
    if (j && !json_number(j, out)) return rfail(k, "argument %u is not a number", i + 1);
    return R_OK;
}

int arg_int(rcall *k, unsigned i, int32_t def, int32_t *out)
{
    double v;
    int rc = arg_number(k, i, def, &v);
    *out = as3_int(v);
    return rc;
}

int arg_uint(rcall *k, unsigned i, uint32_t def, uint32_t *out)
{
    double v;
    int rc = arg_number(k, i, def, &v);
    *out = as3_uint(v);
    return rc;
}

int arg_bool(rcall *k, unsigned i, bool def, bool *out)
{
    const cJSON *j = arg(k, i);
    *out = j ? cJSON_IsTrue(j) : def;
    if (j && !cJSON_IsBool(j)) return rfail(k, "argument %u is not true or false", i + 1);
    return R_OK;
}

int arg_enum(rcall *k, unsigned i, agal_stage3d_enum which, const char *param, const char *def, unsigned *out)
{
    const cJSON *j = arg(k, i);
    const char *s = j ? j->valuestring : def;
    if (j && !cJSON_IsNull(j) && !cJSON_IsString(j)) return rfail(k, "argument %u (%s) is not a string", i + 1, param);
    if (!j && !s) return rfail(k, "argument %u (%s) is missing", i + 1, param);
    agal_flash_error e;
    return agal_check_enum(which, s, param, out, &e) ? rthrow_error(k, &e) : R_OK;
}

static const char *const kind_names[] = {"VertexBuffer3D", "IndexBuffer3D", "Program3D", "a texture"};

int arg_object(rcall *k, unsigned i, robj_kind kind, const char *param, bool nullable, robj **out)
{
    const cJSON *j = arg(k, i);
    *out = NULL;
    if (!j || cJSON_IsNull(j)) return nullable ? R_OK : rthrow_null(k, param);
    if (!cJSON_IsString(j)) return rfail(k, "argument %u (%s) is not an object's name", i + 1, param);
    robj *o = robj_find(k->c, j->valuestring);
    if (!o) return rfail(k, "argument %u (%s): no object is named '%s'", i + 1, param, j->valuestring);
    if (o->kind != kind) return rfail(k, "argument %u (%s): '%s' is not %s", i + 1, param, o->name, kind_names[kind]);
    *out = o;
    return R_OK;
}

int arg_vector(rcall *k, unsigned i, const char *param, const cJSON **out, uint32_t *n)
{
    const cJSON *j = arg(k, i);
    if (!j || cJSON_IsNull(j)) return j ? rthrow_null(k, param) : rfail(k, "argument %u (%s) is missing", i + 1, param);
    if (!cJSON_IsArray(j)) return rfail(k, "argument %u (%s) is not an array", i + 1, param);
    double v;
    for (const cJSON *e = j->child; e; e = e->next)
        if (!json_number(e, &v)) return rfail(k, "argument %u (%s) holds something other than numbers", i + 1, param);
    *out = j;
    *n = (uint32_t)cJSON_GetArraySize(j);
    return R_OK;
}

double vector_number(const cJSON *v, uint32_t j)
{
    double d = 0;
    json_number(cJSON_GetArrayItem(v, (int)j), &d);
    return d;
}

/* The object {"KEY": ...} an argument must be, or NULL after a failure or a thrown
 * #2007 (rc says which). */
static const cJSON *arg_wrapped(rcall *k, unsigned i, const char *key, const char *param, int *rc)
{
    const cJSON *j = arg(k, i);
    *rc = R_OK;
    if (!j || cJSON_IsNull(j)) {
        *rc = j ? rthrow_null(k, param) : rfail(k, "argument %u (%s) is missing", i + 1, param);
        return NULL;
    }
    const cJSON *v = cJSON_IsObject(j) ? cJSON_GetObjectItemCaseSensitive(j, key) : NULL;
    if (!v) *rc = rfail(k, "argument %u (%s) is not {\"%s\": ...}", i + 1, param, key);
    return v;
}

static int decode_base64(rcall *k, const char *text, rbytes *out)
{
    size_t cap = strlen(text) / 4 * 3 + 3;
    out->data = malloc(cap ? cap : 1);
    if (!out->data) return rfail(k, "out of memory");
    int n = b64_pton(text, out->data, cap);
    if (n < 0) {
        free(out->data);
        out->data = NULL;
        return rfail(k, "a ByteArray's base64 does not decode");
    }
    out->len = (size_t)n;
    return R_OK;
}

/* A ByteArray's {"base64": ..., "endian": ...} object. */
static int byte_array(rcall *k, const cJSON *j, rbytes *out)
{
    const cJSON *b64 = cJSON_GetObjectItemCaseSensitive(j, "base64");
    const cJSON *endian = cJSON_GetObjectItemCaseSensitive(j, "endian");
    *out = (rbytes){0};
    if (!cJSON_IsString(b64)) return rfail(k, "a ByteArray needs \"base64\"");
    if (endian && (!cJSON_IsString(endian) ||
                   (strcmp(endian->valuestring, "bigEndian") && strcmp(endian->valuestring, "littleEndian"))))
        return rfail(k, "a ByteArray's \"endian\" is \"bigEndian\" or \"littleEndian\"");
    out->big_endian = endian && !strcmp(endian->valuestring, "bigEndian");
    return decode_base64(k, b64->valuestring, out);
}

int arg_bytes(rcall *k, unsigned i, const char *param, rbytes *out)
{
    int rc;
    *out = (rbytes){0};
    if (!arg_wrapped(k, i, "base64", param, &rc)) return rc;
    return byte_array(k, arg(k, i), out);
}

int arg_program(rcall *k, unsigned i, agal_stage stage, rbytes *out)
{
    const char *param = stage == AGAL_VERTEX ? "vertexProgram" : "fragmentProgram";
    const cJSON *j = arg(k, i), *text = cJSON_IsObject(j) ? cJSON_GetObjectItemCaseSensitive(j, "agal") : NULL;
    *out = (rbytes){0};
    if (!text) return arg_bytes(k, i, param, out);
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(j, "version");
    double v = 1;
    if (!cJSON_IsString(text) || (version && !json_number(version, &v)) || v != floor(v) || v < 1 || v > 255)
        return rfail(k, "argument %u (%s): {\"agal\": TEXT, \"version\": N}", i + 1, param);
    /* Adobe's AGALMiniAssembler writes what it is given; its warnings do not stop it. */
    const uint8_t *bytes;
    size_t n;
    agal_diag_clear(k->c->agal);
    if (agal_assemble(k->c->agal, text->valuestring, strlen(text->valuestring), stage, (uint32_t)v, 0, &bytes, &n)) {
        const agal_diag *d = agal_diag_get(k->c->agal, agal_diag_count(k->c->agal) - 1);
        return rfail(k, "argument %u (%s) does not assemble: %s", i + 1, param, d ? d->message : "?");
    }
    out->data = malloc(n ? n : 1);
    if (!out->data) return rfail(k, "out of memory");
    memcpy(out->data, bytes, n);
    out->len = n;
    return R_OK;
}

/* An array of exactly n numbers. */
static bool numbers(const cJSON *j, double *out, int n)
{
    if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) != n) return false;
    int i = 0;
    for (const cJSON *e = j->child; e; e = e->next)
        if (!json_number(e, &out[i++])) return false;
    return true;
}

int arg_matrix(rcall *k, unsigned i, const char *param, double raw[16])
{
    int rc;
    const cJSON *m = arg_wrapped(k, i, "matrix3d", param, &rc);
    if (!m) return rc;
    return numbers(m, raw, 16) ? R_OK : rfail(k, "argument %u (%s): a Matrix3D's rawData is 16 numbers", i + 1, param);
}

static int optional_numbers(rcall *k, unsigned i, const char *key, double *out, int n, bool *present)
{
    const cJSON *j = arg(k, i);
    *present = j && !cJSON_IsNull(j);
    if (!*present) return R_OK;
    const cJSON *v = cJSON_IsObject(j) ? cJSON_GetObjectItemCaseSensitive(j, key) : NULL;
    if (!numbers(v, out, n)) return rfail(k, "argument %u is not {\"%s\": [%d numbers]}", i + 1, key, n);
    return R_OK;
}

int arg_rect(rcall *k, unsigned i, double r[4], bool *present) { return optional_numbers(k, i, "rect", r, 4, present); }

int arg_point(rcall *k, unsigned i, double p[2], bool *present)
{
    return optional_numbers(k, i, "point", p, 2, present);
}

/* ---- BitmapData ------------------------------------------------------------------- */

/* new BitmapData(width, height, transparent, fill): Flash's limits are 8191 a side
 * and 16777215 pixels; a scene's bitmaps stay within them. */
static int bitmap_size(rcall *k, const cJSON *b, rbitmap *out)
{
    double w, h;
    if (!json_number(cJSON_GetObjectItemCaseSensitive(b, "width"), &w) ||
        !json_number(cJSON_GetObjectItemCaseSensitive(b, "height"), &h) || w != floor(w) || h != floor(h) || w < 1 ||
        h < 1 || w > 8191 || h > 8191 || w * h > 16777215)
        return rfail(k, "a bitmap needs a whole \"width\" and \"height\" of 1 to 8191 (16777215 pixels at most)");
    out->width = (uint32_t)w;
    out->height = (uint32_t)h;
    int rc = rbudget_take(k, (rcost){0, (uint64_t)out->width * out->height * 4});
    if (rc) return rc;
    out->argb = malloc((size_t)out->width * out->height * 4);
    return out->argb ? R_OK : rfail(k, "out of memory");
}

static void fill_rect(rbitmap *b, double x, double y, double w, double h, uint32_t argb)
{
    /* fillRect clips the rectangle to the bitmap; its edges truncate to pixels. */
    int64_t x0 = (int64_t)fmax(0, x), y0 = (int64_t)fmax(0, y);
    int64_t x1 = (int64_t)fmin(b->width, x + w), y1 = (int64_t)fmin(b->height, y + h);
    for (int64_t py = y0; py < y1; py++)
        for (int64_t px = x0; px < x1; px++) b->argb[(size_t)py * b->width + (size_t)px] = argb;
}

static int bitmap_pixels(rcall *k, const cJSON *pixels, rbitmap *out)
{
    rbytes bytes = {0};
    int rc = cJSON_IsObject(pixels) ? byte_array(k, pixels, &bytes) : rfail(k, "a bitmap's \"pixels\" is a ByteArray");
    size_t n = (size_t)out->width * out->height;
    if (rc == R_OK && bytes.len != 4 * n)
        rc = rfail(k, "a bitmap's \"pixels\" hold %zu bytes, not 4 x %zu", bytes.len, n);
    /* ARGB words as BitmapData.setPixels reads them from a default (big-endian)
     * ByteArray: A, R, G, B. */
    for (size_t p = 0; rc == R_OK && p < n; p++) {
        const uint8_t *q = bytes.data + 4 * p;
        out->argb[p] = (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
    }
    free(bytes.data);
    return rc;
}

/* The bitmap's fill, rects and pixels over out->argb (allocated). */
static int bitmap_contents(rcall *k, const cJSON *b, rbitmap *out)
{
    int rc;
    const cJSON *transparent = cJSON_GetObjectItemCaseSensitive(b, "transparent");
    const cJSON *fill = cJSON_GetObjectItemCaseSensitive(b, "fill"),
                *rects = cJSON_GetObjectItemCaseSensitive(b, "rects");
    const cJSON *pixels = cJSON_GetObjectItemCaseSensitive(b, "pixels");
    double f = 4294967295.0; /* BitmapData's default fill, opaque white */
    if ((transparent && !cJSON_IsBool(transparent)) || (fill && !json_number(fill, &f)) ||
        (rects && !cJSON_IsArray(rects)))
        return rfail(k, "a bitmap's \"transparent\" is a boolean, \"fill\" a number, \"rects\" an array");
    /* An opaque bitmap (transparent false) keeps every alpha at 255. */
    uint32_t opaque = transparent && cJSON_IsFalse(transparent) ? 0xFF000000u : 0;
    fill_rect(out, 0, 0, out->width, out->height, as3_uint(f) | opaque);
    for (const cJSON *r = rects ? rects->child : NULL; r; r = r->next) {
        double v[5];
        if (!numbers(r, v, 5)) return rfail(k, "a bitmap's rect is [x, y, width, height, ARGB]");
        fill_rect(out, v[0], v[1], v[2], v[3], as3_uint(v[4]) | opaque);
    }
    if (pixels && (rc = bitmap_pixels(k, pixels, out))) return rc;
    for (size_t p = 0; opaque && p < (size_t)out->width * out->height; p++) out->argb[p] |= opaque;
    return R_OK;
}

int arg_bitmap(rcall *k, unsigned i, const char *param, rbitmap *out)
{
    int rc;
    *out = (rbitmap){0};
    const cJSON *b = arg_wrapped(k, i, "bitmap", param, &rc);
    if (!b) return rc;
    if (!cJSON_IsObject(b)) return rfail(k, "a bitmap is an object");
    if (!(rc = bitmap_size(k, b, out))) rc = bitmap_contents(k, b, out);
    if (rc) {
        free(out->argb);
        *out = (rbitmap){0};
    }
    return rc;
}
