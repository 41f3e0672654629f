/* emscripten.h for a native build of web/agal_web.c (tests/web/web_glue.c): the
 * attribute that keeps a function exported from the WASM module means nothing here. */
#define EMSCRIPTEN_KEEPALIVE
