#!/usr/bin/env python3
"""A Ruffle test's input.json as xdotool commands, one a line, for run.sh.

  input.py INPUT_JSON WINDOW

Ruffle injects the events of input.json into the player before the frames it
compares (stage3d_raytrace's camera follows a MouseMove, stage3d_texture's filter is a
button's MouseDown/MouseUp); run.sh sends the same events to Lightspark's window, in
order, once it is mapped. The positions are the stage's, which is the window's: the
player opens its window at the stage's size. An event this cannot send (keys, text,
the wheel) is an error, so that a run never silently lacks its input."""
import json
import sys

BUTTONS = {'Left': 1, 'Middle': 2, 'Right': 3}


def commands(events, window):
    out = []
    for i, e in enumerate(events):
        kind = e.get('type')
        if kind == 'Wait':
            continue
        if kind not in ('MouseMove', 'MouseDown', 'MouseUp'):
            raise ValueError('event %d: %s cannot be sent to the window' % (i, kind))
        x, y = (int(round(v)) for v in e['pos'])
        out.append('mousemove --window %s %d %d' % (window, x, y))
        if kind != 'MouseMove':
            button = BUTTONS.get(e.get('btn', 'Left'))
            if button is None:
                raise ValueError('event %d: unknown button %s' % (i, e.get('btn')))
            out.append('%s %d' % ('mousedown' if kind == 'MouseDown' else 'mouseup', button))
    return out


def main():
    if len(sys.argv) != 3:
        print('usage: input.py INPUT_JSON WINDOW', file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            lines = commands(json.load(f), sys.argv[2])
    except (OSError, ValueError, KeyError, TypeError) as e:
        print('input.py: %s: %s' % (sys.argv[1], e), file=sys.stderr)
        return 1
    print('\n'.join(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main())
