/* gl_context.h: a headless OpenGL 3.3 core context through EGL, for the project's
 * offscreen runners (the harness and the replay), made one way: the surfaceless
 * platform (Mesa: llvmpipe in CI), else the first EGL device (NVIDIA's headless
 * path), else the default display. */
#ifndef AGAL_GL_CONTEXT_H
#define AGAL_GL_CONTEXT_H

#include <EGL/egl.h>

#include <stdbool.h>
#include <stddef.h>

typedef struct gl_context {
    EGLDisplay dpy;
    EGLContext ctx;
} gl_context;

/* Makes a context current on the calling thread; false with a message in err. */
bool gl_context_open(gl_context *c, char *err, size_t errsize);
/* Releases and destroys what gl_context_open made (nothing after a failed open). */
void gl_context_close(gl_context *c);

#endif
