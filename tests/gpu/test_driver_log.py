#!/usr/bin/env python3
"""test_driver_log.py: a driver's refusal mapped back to the AGAL token (issue 35).

  test_driver_log.py AGALRUN SCENES_DIR

`agalrun replay --backend gl --inject-fault STAGE:TOKEN` puts an undeclared name
on the line of one token's code in the GLSL the GL backend compiles (a test aid:
our translations compile). The driver (Mesa here) refuses the text, and the
replay's message, its log through agal_map_driver_log, must name that token (from
1, as Flash counts), its line in the disassembly and the disassembly itself, for
tokens first, in the middle and last of vertex and fragment programs. A bad fault
spec and a fault on the Vulkan backend are usage errors (exit 2).
"""
import subprocess
import sys

# (scene, stage, token from 0, the token's disassembly)
CASES = [
    ("depth.json", "vertex", 0, "add op, va0, vc0"),
    ("depth.json", "fragment", 0, "mov oc0, fc0"),
    ("textures.json", "vertex", 1, "mov v0, va1"),
    ("textures.json", "fragment", 1, "mov ft0.w, fc0.x"),
    ("limits.json", "fragment", 0, "mov ft0, fc16"),
    ("limits.json", "fragment", 5, "add ft0, ft0, fc4"),
    ("limits.json", "fragment", 17, "mov oc0, ft0"),
]


def replay(agalrun, *args):
    return subprocess.run([agalrun, "replay", *args], capture_output=True, text=True, timeout=120)


def main():
    agalrun, scenes = sys.argv[1], sys.argv[2]
    failures = []
    for scene, stage, token, text in CASES:
        r = replay(agalrun, "%s/%s" % (scenes, scene), "--backend", "gl", "--inject-fault", "%s:%d" % (stage, token))
        want = "  AGAL: token %d (line %d): %s\n" % (token + 1, token + 3, text)
        refusal = "the %s shader does not compile: " % stage
        if r.returncode != 2 or refusal not in r.stderr or want not in r.stderr or "agal_injected_fault" not in r.stderr:
            failures.append("%s %s:%d: exit %d, expected 2 with %r and %r\n%s" % (scene, stage, token, r.returncode,
                                                                                   refusal, want, r.stderr[-2000:]))
        if "Sanitizer" in r.stderr or "runtime error:" in r.stderr:
            failures.append("%s %s:%d: a sanitizer's report\n%s" % (scene, stage, token, r.stderr[-3000:]))
    for args, text in ((["--backend", "gl", "--inject-fault", "geometry:1"], "is not vertex:TOKEN"),
                       (["--backend", "gl", "--inject-fault", "vertex:x"], "is not vertex:TOKEN"),
                       (["--backend", "vulkan", "--inject-fault", "vertex:0"], "is for --backend gl")):
        r = replay(agalrun, "%s/depth.json" % scenes, *args)
        if r.returncode != 2 or text not in r.stderr:
            failures.append("%s: exit %d, expected 2 with %r\n%s" % (" ".join(args), r.returncode, text, r.stderr))
    for f in failures:
        print(f)
    print("driver logs: %d cases, %d failures" % (len(CASES), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
