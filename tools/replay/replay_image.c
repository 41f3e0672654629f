/* replay_image.c: the replay's frames as PNG files (libpng's simplified API) and the
 * comparison of a frame with a reference image, such as a Flash Player screenshot
 * of the stage in which the back buffer sits at (x, y). */
#include "replay.h"
#include "toolio.h"

#include <png.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool replay_png_write(const char *tool, const char *path, const uint8_t *rgba, uint32_t width, uint32_t height)
{
    tool_output out;
    if (!tool_output_open(&out, tool, path)) return false;
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = width;
    img.height = height;
    img.format = PNG_FORMAT_RGBA;
    bool ok = png_image_write_to_stdio(&img, out.f, 0, rgba, 0, NULL) != 0;
    if (!ok) fprintf(stderr, "%s: cannot encode %s: %s\n", tool, path, img.message);
    png_image_free(&img);
    return tool_output_close(&out, tool, ok) && ok;
}

uint8_t *replay_png_read(const char *tool, const char *path, uint32_t *width, uint32_t *height)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    uint8_t *px = NULL;
    if (png_image_begin_read_from_file(&img, path)) {
        img.format = PNG_FORMAT_RGBA;
        px = malloc(PNG_IMAGE_SIZE(img));
        if (px && png_image_finish_read(&img, NULL, px, 0, NULL)) {
            *width = img.width;
            *height = img.height;
            return px;
        }
    }
    fprintf(stderr, "%s: cannot read %s: %s\n", tool, path,
            px               ? img.message
            : img.message[0] ? img.message
                             : "out of memory");
    free(px);
    png_image_free(&img);
    return NULL;
}

void replay_compare(const uint8_t *frame, uint32_t fw, uint32_t fh, const uint8_t *ref, uint32_t rw, uint32_t rh,
                    int32_t x, int32_t y, unsigned tolerance, replay_diff *out)
{
    memset(out, 0, sizeof *out);
    /* The frame's pixels (i, j) that land on the reference at (x + i, y + j). */
    int64_t i0 = x < 0 ? -x : 0, j0 = y < 0 ? -y : 0;
    int64_t i1 = (int64_t)rw - x < fw ? (int64_t)rw - x : fw, j1 = (int64_t)rh - y < fh ? (int64_t)rh - y : fh;
    if (i1 <= i0 || j1 <= j0) return;
    out->width = (uint32_t)(i1 - i0);
    out->height = (uint32_t)(j1 - j0);
    out->image = malloc((size_t)out->width * out->height * 4);
    for (int64_t j = j0; j < j1; j++)
        for (int64_t i = i0; i < i1; i++) {
            const uint8_t *f = frame + 4 * ((size_t)j * fw + (size_t)i);
            const uint8_t *r = ref + 4 * ((size_t)(j + y) * rw + (size_t)(i + x));
            unsigned worst = 0;
            for (int c = 0; c < 3; c++) {
                unsigned d = (unsigned)abs((int)f[c] - (int)r[c]);
                worst = d > worst ? d : worst;
            }
            out->compared++;
            out->outliers += worst > tolerance;
            out->largest = worst > out->largest ? worst : out->largest;
            if (!out->image) continue;
            uint8_t *o = out->image + 4 * ((size_t)(j - j0) * out->width + (size_t)(i - i0));
            uint8_t grey = (uint8_t)((f[0] + f[1] + f[2]) / 9); /* the frame, dimmed to a third */
            o[0] = worst > tolerance ? 255 : grey;
            o[1] = o[2] = worst > tolerance ? 0 : grey;
            o[3] = 255;
        }
}
