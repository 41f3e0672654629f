/* replay_view.c: `agalview --scene SCENE.json`: a scene replayed by the GL backend
 * (replay_gl.c) in the window's own GL 3.3 context, its last image shown until the
 * window closes. With a screenshot path, what the window shows is saved and the
 * window closes; headless, the replay draws through EGL and no window opens.
 *
 * The window is made hidden, so that the replay runs in its context before the
 * window knows its size; then it is sized to the image and shown. */
#define GL_GLEXT_PROTOTYPES 1
#include "harness.h"
#include "replay.h"
#include "toolio.h"

#include <GLFW/glfw3.h>
#include <GL/glcorearb.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SCENE = 256 << 20 };

/* The scene's last image, replayed in the current GL context (or EGL's). */
static int replay_last(const char *tool, const char *path, bool in_window, replay_image *out)
{
    size_t len;
    char *json = tool_read_input(path, MAX_SCENE, "the largest scene read", &len);
    if (!json) return 2;
    replay_result r;
    replay_open_options o = {.gl_current = in_window, .opened = harness_pin_libraries};
    replay_run(json, len, path, &replay_gl_ops, &o, &r);
    free(json);
    int rc = r.status == REPLAY_FAILED ? 2 : r.status == REPLAY_THROWN ? 1 : 0;
    if (r.status == REPLAY_THROWN) fprintf(stderr, "%s: call %zu (%s): %s\n", path, r.call, r.method, r.thrown);
    if (!rc && !r.nimages) {
        fprintf(stderr, "%s: %s: the scene presents nothing\n", tool, path);
        rc = 2;
    }
    if (!rc) {
        *out = r.images[r.nimages - 1];
        r.images[r.nimages - 1].rgba = NULL; /* kept: the caller frees it */
    }
    replay_result_free(&r);
    return rc;
}

/* Draws the image into the window, first row at the top. */
static void show(const replay_image *im, GLuint tex, GLuint fbo)
{
    GLint w = (GLint)im->width, h = (GLint)im->height;
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, im->rgba);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glViewport(0, 0, w, h);
    glBlitFramebuffer(0, 0, w, h, 0, h, w, 0, GL_COLOR_BUFFER_BIT, GL_NEAREST); /* rows top-down: flip */
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

/* What the window shows, first row first. */
static int save_window(const char *tool, const char *shot, uint32_t w, uint32_t h)
{
    size_t row = (size_t)w * 4;
    uint8_t *px = malloc(row * h), *flipped = malloc(row * h);
    int rc = 2;
    if (px && flipped) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
        glReadBuffer(GL_BACK);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, (GLsizei)w, (GLsizei)h, GL_RGBA, GL_UNSIGNED_BYTE, px);
        for (uint32_t y = 0; y < h; y++) memcpy(flipped + row * y, px + row * (h - 1 - y), row);
        rc = replay_png_write(tool, shot, flipped, w, h) ? 0 : 2;
    } else {
        fprintf(stderr, "%s: out of memory\n", tool);
    }
    free(px);
    free(flipped);
    return rc;
}

static GLFWwindow *window(const char *title, int w, int h, bool visible)
{
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
    GLFWwindow *win = glfwCreateWindow(w, h, title, NULL, NULL);
    if (win) glfwMakeContextCurrent(win);
    return win;
}

/* The replay runs in a hidden window's context; the image is shown in a window of
 * its size (a window resized after it is made may not be by the time it is read). */
static int view(const char *tool, const char *path, const char *shot)
{
    replay_image im = {0};
    GLFWwindow *hidden = window(path, 64, 64, false), *win = NULL;
    int rc = hidden ? replay_last(tool, path, true, &im) : 2;
    if (hidden) glfwDestroyWindow(hidden);
    if (!rc && !(win = window(path, (int)im.width, (int)im.height, true))) rc = 2;
    if (!hidden || (!rc && !win)) fprintf(stderr, "%s: cannot open a GL 3.3 core window\n", tool);
    if (!rc) {
        GLuint tex = 0, fbo = 0;
        glGenTextures(1, &tex);
        glGenFramebuffers(1, &fbo);
        while (!glfwWindowShouldClose(win)) {
            show(&im, tex, fbo);
            if (shot) {
                rc = save_window(tool, shot, im.width, im.height);
                break;
            }
            glfwSwapBuffers(win);
            glfwWaitEvents();
        }
        glDeleteTextures(1, &tex);
        glDeleteFramebuffers(1, &fbo);
    }
    free(im.rgba);
    if (win) glfwDestroyWindow(win);
    return rc;
}

int replay_view(const char *tool, const char *scene_path, const char *shot, bool headless)
{
    if (headless) {
        replay_image im = {0};
        int rc = replay_last(tool, scene_path, false, &im);
        if (!rc && !replay_png_write(tool, shot, im.rgba, im.width, im.height)) rc = 2;
        free(im.rgba);
        return rc;
    }
    if (!glfwInit()) {
        fprintf(stderr, "%s: cannot initialise GLFW (no display?)\n", tool);
        return 2;
    }
    int rc = view(tool, scene_path, shot);
    glfwTerminate();
    return rc;
}
