// bench.mjs: agal2spv's WASM translator against the JavaScript ones, in one node
// process, interleaved so that neither gets a warmer machine.
//
//   node bench.mjs SHADER_DIR [--aglsl NODE_MODULES] [--openfl NODE_MODULES] [--runs N] [--quick]
//
// SHADER_DIR: .agal files (assembled here with agal.assemble). --aglsl: a
// node_modules holding @awayjs/stage and @awayjs/core (AwayJS's aglsl, GLSL ES 3.00
// from AGLSLParser); --openfl: one holding openfl (OpenFL's AGALConverter, GLSL ES
// 1.00, AGAL 1 only). A run times each program by each translator in turn, a round
// after another; a translator's time in a run is the median over the programs it
// translates of the median over rounds of the CPU time per translation, warm; ours is
// GLSL ES 3.00 (and 1.00 beside OpenFL's), each comparison over the programs both
// take; a run's ratio is its times' (the issue's figure), and beside it the paired
// ratio: the median over the programs of each one's median over the rounds of the two
// times taken one after the other (a change of load reaches both). Prints each run's
// times and ratios, then the median over the runs (5; --runs) with their spread, and the
// target met or MISSED (a goal, not a test: --quick shows it runs). A translator
// slower than 10 us a program (OpenFL's) is timed with fewer translations a turn, so
// a turn stays near 10 ms.
//
// firstdraw.mjs, beside this file in the project's web/, times what follows the
// translation in a browser: each AGAL 1 pair's upload, compile, link and first draw in
// headless Chromium's WebGL 2, against the same for aglsl's and OpenFL's texts.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { load } from './agal2spv.js';

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : null; };
const quick = args.includes('--quick');
const dir = args[0];
const rounds = quick ? 2 : 7, reps = quick ? 20 : 200;
const runCount = Number(opt('--runs') ?? (quick ? 2 : 5));
if (!dir || !(runCount >= 1)) {
  console.error('usage: node bench.mjs SHADER_DIR [--aglsl NODE_MODULES] [--openfl NODE_MODULES] [--runs N] [--quick]');
  process.exit(2);
}
const agal = await load();

const programs = readdirSync(dir).filter((f) => f.endsWith('.agal')).sort().map((f) => {
  const bytes = agal.assemble(readFileSync(join(dir, f), 'utf8'));
  return { name: f, bytes, version: bytes[1] };
});

// What AwayJS's and OpenFL's bundles read of a browser at load; nothing they call.
function browserShims() {
  globalThis.self ??= globalThis;
  globalThis.window ??= globalThis;
  globalThis.navigator ??= { userAgent: 'node', platform: 'linux' };
  globalThis.document ??= { createElement: () => ({ getContext: () => null, style: {} }), addEventListener() {}, body: {} };
  globalThis.Audio ??= class {};
  globalThis.location ??= { href: '' };
}

function aglsl(modules) {
  browserShims();
  const require = createRequire(join(resolve(modules), 'x.js'));
  const stage = require('@awayjs/stage'), core = require('@awayjs/core');
  return (bytes) => {
    const ba = new core.ByteArray();
    for (const b of bytes) ba.writeUnsignedByte(b);
    ba.position = 0;
    return new stage.AGLSLParser().parse(new stage.AGALTokenizer().decribeAGALByteArray(ba), 'highp', true);
  };
}

function openflConverter(modules) {
  browserShims();
  const require = createRequire(join(resolve(modules), 'x.js'));
  const converter = require('openfl/lib/_gen/openfl/_internal/formats/agal/AGALConverter.js').default;
  const ByteArray = require('openfl/lib/_gen/openfl/utils/_ByteArray/ByteArray_Impl_.js').default;
  return (bytes) => {
    const ba = ByteArray.fromArrayBuffer(bytes.slice().buffer);
    ba.endian = 'littleEndian';
    ba.position = 0;
    return converter.convertToGLSL(ba, []);
  };
}

const translators = [['agal2spv essl3', (b) => agal.translate(b, { target: 'essl3' }).code]];
if (opt('--aglsl')) translators.push(['aglsl essl3', aglsl(opt('--aglsl'))]);
if (opt('--openfl')) {
  translators.push(['agal2spv essl1', (b) => agal.translate(b, { target: 'essl1' }).code]);
  translators.push(['openfl essl1', openflConverter(opt('--openfl'))]);
}

// Each translator times the programs it takes (aglsl refuses a few AGAL 2 and 3
// programs, OpenFL all but AGAL 1); each comparison is over the programs both take.
const takes = translators.map(([, t]) => programs.map((p) => { try { t(p.bytes); return true; } catch { return false; } }));
// The process's CPU time in us: on a shared machine, what waiting for a core adds to
// the wall clock is not the translator's.
const cpu = () => { const u = process.cpuUsage(); return u.user + u.system; };
// Each translator's translations a turn: reps, or as many as take about 10 ms.
const turns = translators.map(([, t], i) => {
  const taken = programs.filter((p, j) => takes[i][j]), t0 = cpu();
  for (const p of taken) t(p.bytes);
  const us = (cpu() - t0) / Math.max(1, taken.length);
  return Math.max(1, Math.min(reps, Math.round(10000 / us)));
});
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };

// One run: each round, each program timed by each translator in turn (the
// translators interleaved per program, so a change of load reaches them alike);
// times[i][j] translator i's CPU time per translation of program j, a round each.
function run(n = rounds) {
  const times = translators.map(() => programs.map(() => []));
  for (let r = 0; r < n; r++) {
    programs.forEach((p, j) => translators.forEach(([, t], i) => {
      if (!takes[i][j]) return;
      const n = turns[i], t0 = cpu();
      for (let k = 0; k < n; k++) t(p.bytes);
      times[i][j].push((cpu() - t0) / n);
    }));
  }
  return times;
}
// The median over the programs in `on` of translator i's median over a run's rounds.
const per = (times, i, on) => median(programs.map((p, j) => j).filter((j) => on[j]).map((j) => median(times[i][j])));
// theirs over ours: the median over the programs in `on` of each program's median over
// the rounds of the two times measured one after the other (a change of load between
// rounds reaches both).
const pairedRatio = (times, ours, theirs, on) => median(programs.map((p, j) => j).filter((j) => on[j])
  .map((j) => median(times[theirs][j].map((t, r) => t / times[ours][j][r]))));
const comparisons = [];
if (opt('--aglsl')) comparisons.push([0, 1, 2]); // ours, theirs, the target ratio
if (opt('--openfl')) comparisons.push([translators.length - 2, translators.length - 1, 0]);
const runs = [];
run(1); // a round untimed: the JavaScript translators' code optimised before the first run
console.log(`${programs.length} programs; ${runCount} runs of ${rounds} rounds of up to ${reps} translations a ` +
            'program, the translators interleaved per program');
for (let r = 0; r < runCount; r++) {
  const times = run();
  const line = comparisons.map(([ours, theirs]) => {
    const on = takes[theirs].map((t, j) => t && takes[ours][j]);
    const a = per(times, ours, on), b = per(times, theirs, on);
    return { a, b, x: b / a, paired: pairedRatio(times, ours, theirs, on) };
  });
  runs.push({ times, line, alone: per(times, 0, takes[0]) });
  console.log(`  run ${r + 1}: ` + (line.length ? line.map(({ a, b, x, paired }, k) => {
    const [ours, theirs] = comparisons[k];
    return `${translators[ours][0]} ${a.toFixed(1)} us, ${translators[theirs][0]} ${b.toFixed(1)} us: ${ratio(x)} ` +
           `(paired ${ratio(paired)})`;
  }).join('; ') : `agal2spv essl3 ${runs[r].alone.toFixed(1)} us`));
}
function ratio(x) { return `${x.toFixed(x < 10 ? 2 : 1)}x`; }
const spread = (values, f) => `median ${f(median(values))}, runs ${f(Math.min(...values))} to ${f(Math.max(...values))}`;
const us = (x) => `${x.toFixed(1)} us`;
console.log(`medians over the ${runCount} runs (each the median over the programs of each program's median):`);
if (!comparisons.length) console.log(`  agal2spv essl3 ${spread(runs.map((r) => r.alone), us)}`);
comparisons.forEach(([ours, theirs, goal], k) => {
  const count = takes[theirs].filter((t, j) => t && takes[ours][j]).length;
  const xs = runs.map((r) => r.line[k].x), x = median(xs), paired = runs.map((r) => r.line[k].paired);
  console.log(`  ${translators[ours][0].padEnd(16)} ${spread(runs.map((r) => r.line[k].a), us)} (${count} programs)`);
  console.log(`  ${translators[theirs][0].padEnd(16)} ${spread(runs.map((r) => r.line[k].b), us)}`);
  const met = goal ? ` (target at least ${goal}x, aim 3x): ${x >= goal ? 'met' : 'MISSED'}` : '';
  console.log(`  ${translators[theirs][0].split(' ')[0]} / agal2spv: ${spread(xs, ratio)}${met}`);
  console.log(`  paired, per program and round: ${spread(paired, ratio)}`);
});
