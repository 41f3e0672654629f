#!/bin/sh
# locale_test.sh TEST_LOCALE SHADERS: builds a decimal-comma locale (de_DE, UTF-8)
# with localedef into a temporary folder and runs test_locale under it. A missing
# localedef or locale source (Debian's package `locales`) fails the test.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if ! localedef -i de_DE -f UTF-8 "$T/de_DE.UTF-8" 2>"$T/err"; then
    echo "localedef could not build de_DE.UTF-8 (install the package locales):"; cat "$T/err"; exit 1
fi
LOCPATH=$T exec "$1" "$2" de_DE.UTF-8
