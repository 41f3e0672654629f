/* gl_context.c: the EGL bootstrap of gl_context.h. */
#include "gl_context.h"

#include <EGL/eglext.h>

#include <stdio.h>

static EGLDisplay platform_display(EGLenum platform, void *native)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    return get ? get(platform, native, NULL) : EGL_NO_DISPLAY;
}

static EGLDisplay first_device_display(void)
{
    PFNEGLQUERYDEVICESEXTPROC query = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    EGLDeviceEXT devs[8];
    EGLint n = 0;
    if (!query || !query(8, devs, &n) || n < 1) return EGL_NO_DISPLAY;
    return platform_display(EGL_PLATFORM_DEVICE_EXT, devs[0]);
}

/* A pbuffer-capable config where there is one; surfaceless displays may offer
 * none, and then any GL config, or none at all (EGL_KHR_no_config_context). */
static EGLConfig choose_config(EGLDisplay dpy)
{
    EGLint attr[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLConfig cfg = NULL;
    EGLint n = 0;
    if (eglChooseConfig(dpy, attr, &cfg, 1, &n) && n >= 1) return cfg;
    attr[2] = EGL_NONE;
    if (eglChooseConfig(dpy, attr, &cfg, 1, &n) && n >= 1) return cfg;
    return NULL;
}

static bool make_current(gl_context *c, EGLDisplay dpy)
{
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) return false;
    c->dpy = dpy;
    if (!eglBindAPI(EGL_OPENGL_API)) return false;
    EGLint ctx_attr[] = {
        EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    c->ctx = eglCreateContext(dpy, choose_config(dpy), EGL_NO_CONTEXT, ctx_attr);
    return c->ctx != EGL_NO_CONTEXT && eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, c->ctx);
}

bool gl_context_open(gl_context *c, char *err, size_t errsize)
{
    c->dpy = EGL_NO_DISPLAY;
    c->ctx = EGL_NO_CONTEXT;
    for (int i = 0; i < 3; i++) {
        EGLDisplay dpy = i == 0   ? platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY)
                         : i == 1 ? first_device_display()
                                  : eglGetDisplay(EGL_DEFAULT_DISPLAY);
        if (make_current(c, dpy)) return true;
        gl_context_close(c);
    }
    snprintf(err, errsize, "egl: no display gives a GL 3.3 core context (EGL error 0x%x)", (unsigned)eglGetError());
    return false;
}

void gl_context_close(gl_context *c)
{
    if (c->dpy == EGL_NO_DISPLAY) return;
    eglMakeCurrent(c->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (c->ctx != EGL_NO_CONTEXT) eglDestroyContext(c->dpy, c->ctx);
    eglTerminate(c->dpy);
    c->dpy = EGL_NO_DISPLAY;
    c->ctx = EGL_NO_CONTEXT;
}
