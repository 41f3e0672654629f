/* texture.c: software texture sampling for the reference interpreter (tex, ted).
 *
 * Conventions (the reference's; backends are compared against them):
 *
 * Texels. A level of w x h texels is row-major; texel (i, j) sits at index j*w + i
 * and its centre at s = (i + 0.5) / w, t = (j + 0.5) / h. Row 0 is t = 0, the first
 * row the caller uploads (GL's and Vulkan's convention for the first row of the
 * image data). Level l is max(1, width >> l) x max(1, height >> l).
 *
 * Filter. nearest: texel (floor(s*w), floor(t*h)). linear: bilinear between the
 * four texels around u = s*w - 0.5, v = t*h - 0.5 with weights a = u - floor(u),
 * b = v - floor(v): (1-b)*((1-a)*T00 + a*T10) + b*((1-a)*T01 + a*T11).
 * Anisotropic 2x..16x are treated as linear (same LOD, no extra taps): a GPU's
 * anisotropic result differs when the footprint is not square, so differential
 * tests use isotropic footprints with those filters. Stage3D has one filter for
 * magnification and minification, so there is no GL-style mag/min switch point.
 *
 * Wrap (applied to texel indices, per axis). clamp = clamp to edge
 * (index clamped to 0..w-1); repeat = index modulo w; clamp_u_repeat_v and
 * repeat_u_clamp_v mix the two per axis. Cube textures always clamp (Flash error
 * 3662 otherwise), within the selected face: no seamless filtering across faces
 * (GL 3.3 default; Vulkan filters cubes seamlessly, so linear cube tests stay
 * half a texel away from face edges).
 *
 * Level of detail. tex: lambda = log2(max(|dP/dx|, |dP/dy|)) + bias / 8, where
 * dP/dx = (ds/dx * w0, dt/dx * h0) with w0 x h0 the level-0 size and the derivatives
 * the quad's fine differences (see interp.c); |.| is the Euclidean length. For a cube
 * (Vulkan's cube map derivative transformation): the face and its signed components
 * (sc, tc, ma) are those of the sampling lane's direction (table below), the quad's
 * differences are taken of the raw directions and mapped by the same signed choice
 * to dsc, dtc, dma, and the chain rule through s = (sc / |ma| + 1) / 2 gives
 * ds = (dsc |ma| - sc d|ma|) / (2 ma^2), dt likewise, with w0 = h0 the face size.
 * The neighbours' own faces play no part, so a quad spanning faces is defined too.
 * ted: lambda = A.w (textureLod semantics; Flash refuses a bias on ted, 3743).
 * mipmap none: level 0 whatever lambda is.
 * nearest (GL): level 0 when lambda <= 0.5, else ceil(lambda + 0.5) - 1, clamped to
 * the last level. linear (GL): level 0 when lambda <= 0; the last level when lambda
 * >= last; otherwise levels d = floor(lambda) and d + 1 blended by lambda - d.
 * A NaN lambda counts as 0; lambda is clamped to 1000 before use.
 *
 * Cube face selection (GL 4.6 table 8.19), direction (rx, ry, rz): the major axis is
 * the component of largest magnitude, ties going to x before y before z (|rx| >= |ry|
 * and |rx| >= |rz| picks x; otherwise |ry| >= |rz| picks y; otherwise z):
 *     face  sc   tc   ma         face  sc   tc   ma
 *     +x   -rz  -ry   rx         -x   +rz  -ry   rx
 *     +y   +rx  +rz   ry         -y   +rx  -rz   ry
 *     +z   +rx  -ry   rz         -z   -rx  -ry   rz
 * s = (sc / |ma| + 1) / 2, t = (tc / |ma| + 1) / 2, sampled in that face's image.
 *
 * Non-finite coordinates: a NaN s or t counts as 0; coordinates are clamped to
 * +-2^24 texels before they become indices, so no input overflows an int.
 */
#include "internal.h"

#include <math.h>

static unsigned faces_of(const agal_texture *tex) { return tex->dim == AGAL_DIM_CUBE ? 6 : 1; }

static uint32_t level_size(uint32_t size, unsigned level)
{
    uint32_t s = level < 32 ? size >> level : 0;
    return s ? s : 1;
}

static unsigned max_levels(const agal_texture *tex)
{
    uint32_t m = tex->width > tex->height ? tex->width : tex->height;
    unsigned n = 1;
    while (m > 1) {
        m >>= 1;
        n++;
    }
    return n;
}

agal_status agal_texture_check(agal_context *ctx, const agal_texture *tex)
{
    if (tex->dim != AGAL_DIM_2D && tex->dim != AGAL_DIM_CUBE)
        return agal_error(ctx, 0, -1, -1, NULL, "texture for fs%u: dimension %u is neither 2d nor cube", tex->sampler,
                          tex->dim);
    if (!tex->width || !tex->height || tex->width > 1u << 16 || tex->height > 1u << 16)
        return agal_error(ctx, 0, -1, -1, NULL, "texture for fs%u: size %ux%u is not 1..65536", tex->sampler,
                          tex->width, tex->height);
    if (tex->dim == AGAL_DIM_CUBE && tex->width != tex->height)
        return agal_error(ctx, 0, -1, -1, NULL, "cube texture for fs%u is %ux%u, not square", tex->sampler, tex->width,
                          tex->height);
    if (!tex->levels || tex->levels > max_levels(tex))
        return agal_error(ctx, 0, -1, -1, NULL, "texture for fs%u: %u levels, expected 1..%u", tex->sampler,
                          tex->levels, max_levels(tex));
    if (!tex->images) return agal_error(ctx, 0, -1, -1, NULL, "texture for fs%u has no images", tex->sampler);
    for (unsigned i = 0; i < tex->levels * faces_of(tex); i++)
        if (!tex->images[i])
            return agal_error(ctx, 0, -1, -1, NULL, "texture for fs%u: image %u (level %u) is missing", tex->sampler, i,
                              i / faces_of(tex));
    return AGAL_OK;
}

/* ---- texel fetch and filtering -------------------------------------------- */

typedef struct image {
    const float *texels;
    int w, h;
    bool repeat_u, repeat_v;
} image;

static int wrap_index(int i, int size, bool repeat)
{
    if (repeat) {
        int m = i % size;
        return m < 0 ? m + size : m;
    }
    return i < 0 ? 0 : i >= size ? size - 1 : i;
}

static void fetch(const image *im, int i, int j, float out[4])
{
    i = wrap_index(i, im->w, im->repeat_u);
    j = wrap_index(j, im->h, im->repeat_v);
    const float *p = im->texels + ((size_t)j * (size_t)im->w + (size_t)i) * 4;
    for (int c = 0; c < 4; c++) out[c] = p[c];
}

/* Texel-space coordinate, made safe to floor and convert to int. */
static float texel_coord(float s, int size)
{
    float u = s * (float)size;
    if (u != u) return 0.0f;
    const float lim = 16777216.0f;
    return u < -lim ? -lim : u > lim ? lim : u;
}

static void sample_image(const image *im, float s, float t, bool linear, float out[4])
{
    float u = texel_coord(s, im->w), v = texel_coord(t, im->h);
    if (!linear) {
        fetch(im, (int)floorf(u), (int)floorf(v), out);
        return;
    }
    u -= 0.5f;
    v -= 0.5f;
    float fu = floorf(u), fv = floorf(v);
    float a = u - fu, b = v - fv;
    int i = (int)fu, j = (int)fv;
    float t00[4], t10[4], t01[4], t11[4];
    fetch(im, i, j, t00);
    fetch(im, i + 1, j, t10);
    fetch(im, i, j + 1, t01);
    fetch(im, i + 1, j + 1, t11);
    for (int c = 0; c < 4; c++) {
        float top = (1.0f - a) * t00[c] + a * t10[c];
        float bottom = (1.0f - a) * t01[c] + a * t11[c];
        out[c] = (1.0f - b) * top + b * bottom;
    }
}

static image level_image(const agal_texture *tex, const agal_sampler *st, unsigned level, unsigned face)
{
    image im = {
        .texels = tex->images[level * faces_of(tex) + face],
        .w = (int)level_size(tex->width, level),
        .h = (int)level_size(tex->height, level),
    };
    if (tex->dim == AGAL_DIM_2D) {
        im.repeat_u = st->wrap == AGAL_WRAP_REPEAT || st->wrap == AGAL_WRAP_REPEAT_U_CLAMP_V;
        im.repeat_v = st->wrap == AGAL_WRAP_REPEAT || st->wrap == AGAL_WRAP_CLAMP_U_REPEAT_V;
    }
    return im;
}

/* ---- cube faces ----------------------------------------------------------- */

static unsigned cube_face(const float r[3])
{
    float ax = fabsf(r[0]), ay = fabsf(r[1]), az = fabsf(r[2]);
    if (ax >= ay && ax >= az) return r[0] >= 0.0f ? 0 : 1;
    if (ay >= az) return r[1] >= 0.0f ? 2 : 3;
    return r[2] >= 0.0f ? 4 : 5;
}

/* The signed components (sc, tc, ma) that face f takes of vector r (table 8.19). The
 * choice is linear in r, so applied to a difference of directions it gives the
 * differences of sc, tc and ma on that face. */
static void cube_axes(unsigned f, const float r[3], float out[3])
{
    switch (f) {
    case 0:
        out[0] = -r[2];
        out[1] = -r[1];
        out[2] = r[0];
        break;
    case 1:
        out[0] = r[2];
        out[1] = -r[1];
        out[2] = r[0];
        break;
    case 2:
        out[0] = r[0];
        out[1] = r[2];
        out[2] = r[1];
        break;
    case 3:
        out[0] = r[0];
        out[1] = -r[2];
        out[2] = r[1];
        break;
    case 4:
        out[0] = r[0];
        out[1] = -r[1];
        out[2] = r[2];
        break;
    default:
        out[0] = -r[0];
        out[1] = -r[1];
        out[2] = r[2];
        break;
    }
}

/* Face coordinates (s, t) of direction r on face f. */
static void cube_project(unsigned f, const float r[3], float st[2])
{
    float a[3];
    cube_axes(f, r, a);
    float m = fabsf(a[2]);
    st[0] = 0.5f * (a[0] / m + 1.0f);
    st[1] = 0.5f * (a[1] / m + 1.0f);
}

/* d(s, t) on face f at direction r for a direction difference d: the chain rule
 * through s = (sc / |ma| + 1) / 2, ds = (dsc |ma| - sc d|ma|) / (2 ma^2), likewise t,
 * evaluated as (dsc - sc (d|ma| / |ma|)) / (2 |ma|) so that no ma^2 overflows. */
static void cube_derivative(unsigned f, const float r[3], const float d[3], float out[2])
{
    float a[3], da[3];
    cube_axes(f, r, a);
    cube_axes(f, d, da);
    float m = fabsf(a[2]), q = (a[2] < 0.0f ? -da[2] : da[2]) / m;
    out[0] = 0.5f * (da[0] - a[0] * q) / m;
    out[1] = 0.5f * (da[1] - a[1] * q) / m;
}

/* ---- level of detail ------------------------------------------------------ */

float agal_texture_quad_lod(const agal_texture *tex, const float coords[4][4], unsigned lane, bool coarse)
{
    /* Fine differences: along this lane's row for x, its column for y (coarse: the
     * top row and the left column for every lane). */
    unsigned row = coarse ? 0 : (lane & 2), col = coarse ? 0 : (lane & 1);
    float dx[3], dy[3];
    for (int c = 0; c < 3; c++) {
        dx[c] = coords[row + 1][c] - coords[row][c];
        dy[c] = coords[col + 2][c] - coords[col][c];
    }
    float ddx[2] = {dx[0], dx[1]}, ddy[2] = {dy[0], dy[1]};
    if (tex->dim == AGAL_DIM_CUBE) {
        const float *r = coords[lane & 3];
        unsigned face = cube_face(r);
        cube_derivative(face, r, dx, ddx);
        cube_derivative(face, r, dy, ddy);
    }
    float w = (float)tex->width, h = (float)tex->height;
    float dxs = ddx[0] * w, dxt = ddx[1] * h, dys = ddy[0] * w, dyt = ddy[1] * h;
    float lx = sqrtf(dxs * dxs + dxt * dxt), ly = sqrtf(dys * dys + dyt * dyt);
    return log2f(lx > ly ? lx : ly);
}

/* ---- sampling ------------------------------------------------------------- */

static void sample_level(const agal_texture *tex, const agal_sampler *st, unsigned level, unsigned face, float s,
                         float t, float out[4])
{
    image im = level_image(tex, st, level, face);
    sample_image(&im, s, t, st->filter != AGAL_FILTER_NEAREST, out);
}

void agal_texture_sample(const agal_texture *tex, const agal_sampler *state, const float coord[3], float lambda,
                         float out[4])
{
    unsigned face = 0;
    float st[2] = {coord[0], coord[1]};
    if (tex->dim == AGAL_DIM_CUBE) {
        face = cube_face(coord);
        cube_project(face, coord, st);
    }
    unsigned last = tex->levels - 1;
    if (lambda != lambda) lambda = 0.0f;
    if (lambda > 1000.0f) lambda = 1000.0f;
    if (state->mipmap == AGAL_MIP_NONE || lambda <= 0.0f || last == 0) {
        sample_level(tex, state, 0, face, st[0], st[1], out);
        return;
    }
    if (state->mipmap == AGAL_MIP_NEAREST) {
        float d = lambda <= 0.5f ? 0.0f : ceilf(lambda + 0.5f) - 1.0f;
        unsigned level = d >= (float)last ? last : (unsigned)d;
        sample_level(tex, state, level, face, st[0], st[1], out);
        return;
    }
    if (lambda >= (float)last) {
        sample_level(tex, state, last, face, st[0], st[1], out);
        return;
    }
    float fd = floorf(lambda), f = lambda - fd;
    unsigned d = (unsigned)fd;
    float lo[4], hi[4];
    sample_level(tex, state, d, face, st[0], st[1], lo);
    sample_level(tex, state, d + 1, face, st[0], st[1], hi);
    for (int c = 0; c < 4; c++) out[c] = (1.0f - f) * lo[c] + f * hi[c];
}
