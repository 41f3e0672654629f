#!/usr/bin/env python3
"""A command-line program's man page (docs/man/NAME.1) against the program:

1. `groff -man -ww -z PAGE` renders it with every warning on and prints nothing;
2. every option the program's usage (`PROGRAM --help`; for agalrun the subcommand
   list and each subcommand's `--help`) prints appears in the page's text, so an
   option added to a program without its page fails here.

usage: test_man.py GROFF PROGRAM PAGE"""
import os
import re
import subprocess
import sys

GROFF, PROGRAM, PAGE = sys.argv[1:4]
OPTION = re.compile(r'(?<![\w./-])(--?[A-Za-z][\w-]*)')


def usage_text(args):
    r = subprocess.run([PROGRAM] + args, capture_output=True, text=True, timeout=60)
    return r.stdout + r.stderr


def help_texts():
    if os.path.basename(PROGRAM) != 'agalrun':
        return [usage_text(['--help'])]
    top = usage_text([])
    subs = re.findall(r'^  (\w+) ', top, re.M)
    if not subs:
        sys.exit('agalrun printed no subcommands:\n' + top)
    return [top] + [usage_text([s, '--help']) for s in subs]


def page_text():
    """The page's words as a reader sees them: roff's escapes for - and fonts undone."""
    with open(PAGE) as f:
        text = f.read()
    text = re.sub(r'\\f[BIRP]|\\f\(\w\w|\\&', '', text)
    return text.replace('\\-', '-').replace('\\(em', '--')


def main():
    failures = []
    r = subprocess.run([GROFF, '-man', '-ww', '-z', PAGE], capture_output=True, text=True)
    if r.returncode or r.stderr:
        failures.append('groff -man -ww: rc %d\n%s' % (r.returncode, r.stderr))
    texts = help_texts()
    options = sorted({o for t in texts for o in OPTION.findall(t)})
    if not options:
        failures.append('the usage names no option:\n' + '\n'.join(texts))
    page = page_text()
    for o in options:
        if not re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(o), page):
            failures.append('%s is in the usage but not in %s' % (o, os.path.basename(PAGE)))
    for f in failures:
        print('FAIL:', f)
    print('%s: %d options, %s' % (os.path.basename(PAGE), len(options), 'failed' if failures else 'all in the page'))
    return 1 if failures else 0


sys.exit(main())
