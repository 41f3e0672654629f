/* keep_loaded.c: linked into the examples (examples/vulkan_upload.c, gl_upload.c)
 * in a sanitizer build only (the examples themselves stay as a reader would write
 * them). The Vulkan loader and libglvnd unload their drivers at teardown; what a
 * driver still holds then has no module to be reachable from, and LeakSanitizer
 * reports it as the example's. This dlclose, interposed from the executable, keeps every module loaded instead (the
 * harness pins them for the same reason: harness_pin_libraries). */
int dlclose(void *handle);

int dlclose(void *handle)
{
    (void)handle;
    return 0;
}
