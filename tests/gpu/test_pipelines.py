#!/usr/bin/env python3
"""test_pipelines.py: the replay's pipelines, keyed on agal_pipeline_key (issue 36).

  test_pipelines.py AGALRUN SCENES_DIR

1. Every scene of SCENES_DIR on Vulkan and GL with --stats: one line a frame in the
   exact form, and a total whose pipelines (created + from the cache) equal its
   distinct baked keys on Vulkan (one pipeline a baked key) and on GL the programs
   drawn (one linked program a pair: GL's baked key is the pair).
2. scenes/pipeline_states.json, one state change a frame: exactly one new Vulkan
   pipeline for blend, depth mask and cull, none for a constant, a texture of the
   same format, a sampler state, the stencil reference or nothing; GL links once.
   --no-pipeline-cache makes one whenever the full key changes (the sampler state
   and the stencil reference too).
3. --pipeline-cache FILE: a second run makes its pipelines from the file (Vulkan:
   every baked key a record, read back through the key's JSON form, so each record
   round-trips exactly; GL: 0 compiles where the driver offers a program binary
   format, else a message and compiles as before). The file's records are the run's
   keys, in agal_pipeline_key_json's form.
4. The images of --no-pipeline-cache and of the second --pipeline-cache run are
   the first run's, byte for byte (the first writes its file at the end and is
   otherwise the default run; test_replay.py holds that to the scenes' pixels).
5. A file that is not a pipeline cache, or another backend's, is refused (exit 2),
   and one of an earlier key version says so.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

LINE = re.compile(r"^(frame \d+|total): draws (\d+), keys (\d+), pipelines created (\d+), cache hits (\d+), "
                  r"pipeline ms (\d+\.\d)$")
# pipeline_states.json: the pipelines each frame makes (docs/pipeline.md).
STATES_VULKAN = [1, 1, 1, 1, 0, 0, 0, 0, 0]
STATES_VULKAN_REBUILD = [1, 1, 1, 1, 0, 0, 1, 1, 0]
STATES_GL = [1, 0, 0, 0, 0, 0, 0, 0, 0]
NO_BINARY = "the GL driver offers no program binary format"


def replay(agalrun, *args):
    return subprocess.run([agalrun, "replay", *args], capture_output=True, text=True, timeout=120)


def stats(name, r, errors):
    """[(draws, keys, created, hits)] a frame, then the total's; None when malformed."""
    lines = r.stdout.splitlines()
    rows = []
    for i, line in enumerate(lines):
        m = LINE.match(line)
        want = "total" if i == len(lines) - 1 else "frame %d" % (i + 1)
        if not m or m.group(1) != want:
            errors.append("%s: --stats line %d is not '%s: draws N, keys N, ...': %r" % (name, i + 1, want, line))
            return None
        rows.append(tuple(int(g) for g in m.groups()[1:5]))
    if not rows:
        errors.append("%s: --stats printed nothing" % name)
        return None
    frames, total = rows[:-1], rows[-1]
    for col, what in ((0, "draws"), (2, "pipelines created"), (3, "cache hits")):
        if sum(f[col] for f in frames) != total[col]:
            errors.append("%s: the frames' %s do not add up to the total's" % (name, what))
    return rows


def drawn_programs(scene):
    """The pairs a scene's draws use: distinct uploaded program texts set before a draw."""
    uploads, current, drawn = {}, None, set()
    for c in scene["calls"]:
        if c["call"] == "upload":
            uploads[c["on"]] = json.dumps(c["args"], sort_keys=True)
        elif c["call"] == "setProgram":
            current = uploads.get(c["args"][0])
        elif c["call"].startswith("drawTriangles") and current:
            drawn.add(current)
    return len(drawn)


def images(tmp, tag):
    return {f[len(tag) + 1:]: open(os.path.join(tmp, f), "rb").read() for f in sorted(os.listdir(tmp))
            if f.startswith(tag + "-")}


def check_scene(agalrun, path, backend, root):
    name = "%s on %s" % (os.path.basename(path), backend)
    scene = json.load(open(path))
    tmp = tempfile.mkdtemp(dir=root)
    errors = []
    runs = {}
    cache = os.path.join(tmp, "pipelines.cache")
    # The first --pipeline-cache run is the default run with a file written at its end.
    for tag, extra in (("cold", ["--pipeline-cache", cache]), ("warm", ["--pipeline-cache", cache]),
                       ("rebuild", ["--no-pipeline-cache"])):
        r = replay(agalrun, path, "--backend", backend, "--stats", "-o", os.path.join(tmp, tag + ".png"), *extra)
        if r.returncode not in (0, 1) or (r.returncode == 1 and "throws" not in scene):
            errors.append("%s %s: exit %d\n%s" % (name, tag, r.returncode, r.stderr[-2000:]))
            return errors
        runs[tag] = (stats("%s %s" % (name, tag), r, errors), r.stderr)
    if errors:
        return errors
    cold, warm = runs["cold"][0], runs["warm"][0]
    draws, keys, created, hits = cold[-1]
    if backend == "vulkan" and (created, hits) != (keys, 0):
        errors.append("%s: %d pipelines created for %d distinct baked keys" % (name, created, keys))
    if backend == "gl" and draws and (created < drawn_programs(scene) or keys != drawn_programs(scene)):
        errors.append("%s: %d programs linked, %d keys, for %d pairs drawn" % (name, created, keys,
                                                                                drawn_programs(scene)))
    binaries = backend == "vulkan" or NO_BINARY not in runs["cold"][1]
    want_warm = (0, created) if binaries else (created, 0)
    if warm[-1][2:4] != want_warm:
        errors.append("%s: the second --pipeline-cache run made (created, hits) %s, want %s" % (name, warm[-1][2:4],
                                                                                              want_warm))
    errors += check_records(name, cache, backend, keys if backend == "vulkan" else created, binaries)
    base = images(tmp, "cold")
    for tag in ("rebuild", "warm"):
        if images(tmp, tag) != base:
            errors.append("%s: the %s run's images differ from the first run's" % (name, tag))
    if os.path.basename(path) == "pipeline_states.json":
        errors += check_states(name, backend, cold, runs["rebuild"][0])
    return errors


def check_records(name, cache, backend, count, binaries):
    """The file's records: its backend's header, one key a pipeline, each key JSON of
    agal_pipeline_key_json's members."""
    if backend == "gl" and not binaries:
        return []
    data = open(cache, "rb").read()
    lines = data.split(b"\n")
    errors = []
    if lines[0] != b"agal pipeline cache 1 " + backend.encode() or int(lines[1]) != count:
        return ["%s: the cache file's header is %r, %r (want %d records)" % (name, lines[0], lines[1], count)]
    key = json.loads(lines[2]) if count else {"program": "0" * 16, "version": 2}
    if not re.fullmatch(r"[0-9a-f]{16}", key["program"]) or key["version"] != 2:  # AGAL_PIPELINE_KEY_VERSION
        errors.append("%s: the first record is not a key: %r" % (name, lines[2][:200]))
    return errors


def check_states(name, backend, default, rebuild):
    errors = []
    made = [f[2] for f in default[:-1]]
    want = STATES_VULKAN if backend == "vulkan" else STATES_GL
    if made != want:
        errors.append("%s: pipelines a frame %s, want %s" % (name, made, want))
    if backend == "vulkan" and [f[2] for f in rebuild[:-1]] != STATES_VULKAN_REBUILD:
        errors.append("%s: --no-pipeline-cache pipelines a frame %s, want %s" % (name, [f[2] for f in rebuild[:-1]],
                                                                                  STATES_VULKAN_REBUILD))
    return errors


def check_refusals(agalrun, scenes_dir, root):
    errors = []
    path = os.path.join(scenes_dir, "pipeline_states.json")
    bad = os.path.join(root, "bad.cache")
    open(bad, "w").write("agal pipeline cache 1 vulkan\n1\n{\"program\": 1}\n")
    for backend in ("vulkan", "gl"):
        r = replay(agalrun, path, "--backend", backend, "--pipeline-cache", bad)
        if r.returncode != 2 or "is not this backend's pipeline cache" not in r.stderr or "Sanitizer" in r.stderr:
            errors.append("a broken or other backend's cache on %s: exit %d\n%s" % (backend, r.returncode, r.stderr))
    # A file an earlier release wrote: its keys of version 1 (FNV-1a's ids).
    old = os.path.join(root, "version1.cache")
    r = replay(agalrun, path, "--backend", "vulkan", "--pipeline-cache", old)
    if r.returncode == 0:
        text = open(old).read()
        open(old, "w").write(text.replace('"version": 2,', '"version": 1,'))
        r = replay(agalrun, path, "--backend", "vulkan", "--pipeline-cache", old)
    if r.returncode != 2 or "(\"version\"): not this library's version" not in r.stderr:
        errors.append("a cache of version 1's keys: exit %d\n%s" % (r.returncode, r.stderr))
    r = replay(agalrun, path, "--pipeline-cache", bad, "--no-pipeline-cache")
    if r.returncode != 2 or "exclude each other" not in r.stderr:
        errors.append("--pipeline-cache with --no-pipeline-cache: exit %d\n%s" % (r.returncode, r.stderr))
    return errors


def main():
    agalrun, scenes_dir = sys.argv[1:3]
    scenes = sorted(os.path.join(scenes_dir, f) for f in os.listdir(scenes_dir) if f.endswith(".json"))
    if len(scenes) < 10 or not os.path.exists(os.path.join(scenes_dir, "pipeline_states.json")):
        print("too few scenes, or no pipeline_states.json")
        return 1
    with tempfile.TemporaryDirectory() as root, concurrent.futures.ThreadPoolExecutor(4) as pool:
        jobs = [pool.submit(check_scene, agalrun, s, b, root) for s in scenes for b in ("vulkan", "gl")]
        jobs.append(pool.submit(check_refusals, agalrun, scenes_dir, root))
        errors = [e for j in jobs for e in j.result()]
    for e in errors:
        print(e)
    print("%d scenes on Vulkan and GL, cold and warm cache, rebuilt: %d failures" % (len(scenes),
                                                                                            len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
