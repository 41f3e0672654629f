/* check.h: the one assertion of the C test suites.
 *
 *   CHECK(cond);                       counts a failure, prints file:line and cond
 *   CHECK(cond, "fmt", args...);       ... and a message
 *
 * Each test's main returns `failures != 0`. The first 50 failures are printed. */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int failures;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static inline void
check_report(const char *file, int line, const char *cond, const char *fmt, ...)
{
    if (failures++ >= 50) return;
    fprintf(stderr, "FAIL %s:%d: %s", file, line, cond);
    if (fmt[2]) { /* fmt is ": " followed by the caller's format, if any */
        va_list ap;
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fputc('\n', stderr);
}

#define CHECK(cond, ...) \
    do { \
        if (!(cond)) check_report(__FILE__, __LINE__, #cond, ": " __VA_ARGS__); \
    } while (0)

#endif
