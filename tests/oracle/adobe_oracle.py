"""The assembler oracle for the Python tests: OpenFL's AGALMiniAssembler (npm
package openfl 8.9.6, in tests/oracle) run under node by tests/oracle/adobe_asm.js, many
texts per node process.

    results = assemble_many([("vertex", 1, b"m44 op, va0, vc0"), ...])
    results[0] == {"hex": "a001000000a100...", "bad_lines": []}     (accepted)
               or {"error": "error: ...", "bad_lines": [...]}       (rejected)

A missing node, package or version raises OracleMissing: the tests that use it
fail, they never skip."""

import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "adobe_asm.js")


class OracleMissing(Exception):
    pass


def node():
    path = shutil.which("node") or shutil.which("nodejs")
    if not path:
        raise OracleMissing("node is not installed (the assembler oracle runs under node: "
                            "apt-get install nodejs npm, then npm ci --prefix tests/oracle)")
    return path


def assemble_many(jobs, ted=True):
    """jobs: (stage, version, text as bytes or str). One result dict per job."""
    lines = []
    for stage, version, text in jobs:
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        lines.append(json.dumps({"stage": stage, "version": version, "hex": data.hex()}))
    args = [node(), SCRIPT] + ([] if ted else ["--no-ted"])
    r = subprocess.run(args, input="\n".join(lines) + "\n", capture_output=True, text=True)
    if r.returncode != 0:
        raise OracleMissing("%s failed (%d): %s" % (SCRIPT, r.returncode, r.stderr.strip()))
    out = [json.loads(line) for line in r.stdout.split("\n") if line.strip()]  # not splitlines: U+2028
    if len(out) != len(jobs):
        raise OracleMissing("%s answered %d of %d texts: %s" % (SCRIPT, len(out), len(jobs), r.stderr.strip()))
    return out


def assemble(stage, text, version=1, ted=True):
    """bytes, or raises AssembleError with the assembler's error."""
    res = assemble_many([(stage, version, text)], ted)[0]
    if "error" in res:
        raise AssembleError(res["error"])
    return bytes.fromhex(res["hex"])


class AssembleError(Exception):
    pass


def run(main):
    """sys.exit(main()): a test script's entry, where a missing oracle is a failure."""
    try:
        code = main()
    except OracleMissing as e:
        print("FAIL: %s" % e)
        code = 1
    sys.exit(code)


def header_value(source, key):
    """The value of a `// key: value` header comment line, or None."""
    for line in source.split("\n"):
        s = line.strip()
        if not s:
            continue
        if not s.startswith("//"):
            return None  # an instruction: the header is over
        k, _, v = s[2:].partition(":")
        if k.strip() == key and v.strip():
            return v.split()[0]
    return None
