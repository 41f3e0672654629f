// firstdraw.mjs: the first draw of a pair in headless Chromium's WebGL 2, agal2spv
// against AwayJS's aglsl and OpenFL's AGALConverter, each translating in the page.
//
//   node firstdraw.mjs PACKAGE_DIR SHADER_DIR --modules NODE_MODULES [--rounds N] [--chromium PATH]
//
// PACKAGE_DIR: the package unpacked (web/build.sh's tarball, its `package/`);
// SHADER_DIR: .agal files, whose AGAL 1 pairs (NAME.vert.agal and NAME.frag.agal)
// are drawn; NODE_MODULES: one holding @awayjs/core, @awayjs/stage, openfl 8.9.6,
// pako and howler (the project's tests/oracle/node_modules). For each pair, round
// and translator, firstdraw.html times the translation from the bytes (agal2spv's
// upload to GLSL ES 3.00; aglsl's ES 3.00; OpenFL's ES 1.00, its own
// Program3D.upload) plus compileShader, linkProgram (its status read), one
// drawArrays and gl.finish. A comment naming the round and the translator ends each
// text, so that no round finds the driver's cache warm. The first round is a
// warm-up; the table gives medians over the others, per pair and over the pairs
// all three draw; it exits 1 if WebGL 2 refuses one of agal2spv's pairs. The page runs in Chromium as the project's tests run it:
// --headless=new --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader.
// Figures, not checks: docs/benchmark.md, "Web".
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
const [pkg, shaders] = args.map((a) => resolve(a));
const modules = opt('--modules') && resolve(opt('--modules'));
const rounds = Number(opt('--rounds', 9));
if (!pkg || !shaders || !modules || !(rounds >= 2)) {
  console.error('usage: node firstdraw.mjs PACKAGE_DIR SHADER_DIR --modules NODE_MODULES [--rounds N >= 2] ' +
                '[--chromium PATH]');
  process.exit(2);
}
const { load } = await import(join(pkg, 'agal2spv.js'));
const agal = await load();

// The AGAL 1 pairs: NAME.vert.agal with NAME.frag.agal, both version 1.
const files = readdirSync(shaders);
const pairs = files.filter((f) => f.endsWith('.vert.agal')).sort().map((f) => {
  const name = f.slice(0, -'.vert.agal'.length), frag = `${name}.frag.agal`;
  if (!files.includes(frag)) return null;
  const [vertex, fragment] = [f, frag].map((x) => agal.assemble(readFileSync(join(shaders, x), 'utf8')));
  return vertex[1] === 1 && fragment[1] === 1 ? { name, vertex: [...vertex], fragment: [...fragment] } : null;
}).filter(Boolean);

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'agal-firstdraw-'));
copyFileSync(join(here, 'firstdraw.html'), join(dir, 'firstdraw.html'));
for (const f of ['agal2spv.js', 'agal2spv-wasm.js']) copyFileSync(join(pkg, f), join(dir, f));
for (const f of ['@awayjs/core/bundle/awayjs-core.umd.js', '@awayjs/stage/bundle/awayjs-stage.umd.js',
                 'pako/dist/pako.min.js', 'howler/dist/howler.min.js', 'openfl/dist/openfl.min.js']) {
  copyFileSync(join(modules, f), join(dir, f.split('/').pop()));
}
writeFileSync(join(dir, 'pairs.js'), `export const rounds = ${rounds};\nexport default ${JSON.stringify(pairs)}` +
  '.map((p) => ({ ...p, vertex: new Uint8Array(p.vertex), fragment: new Uint8Array(p.fragment) }));\n');

// Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON
// messages ended by NUL, commands on its fd 3, answers on its fd 4), as
// tests/web/test_web.py drives it: the page's title, once it has one.
function pageTitle(url, timeoutMs) {
  const chromium = opt('--chromium', 'chromium');
  const browser = spawn(chromium, ['--headless=new', '--no-sandbox', '--use-angle=swiftshader',
    '--enable-unsafe-swiftshader', '--allow-file-access-from-files', `--user-data-dir=${join(dir, 'profile')}`,
    '--remote-debugging-pipe', 'about:blank'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true });
  for (const fd of [3, 4]) browser.stdio[fd].on('error', () => {}); // a browser gone first: `closed` says so
  let buf = '', next = 0, session;
  const waiting = new Map();
  browser.stdio[4].on('data', (d) => {
    buf += d.toString();
    for (let at; (at = buf.indexOf('\0')) >= 0; buf = buf.slice(at + 1)) {
      const m = JSON.parse(buf.slice(0, at));
      if (waiting.has(m.id)) waiting.get(m.id)(m), waiting.delete(m.id);
    }
  });
  const call = (method, params = {}, inSession = true) => new Promise((done, fail) => {
    const id = ++next;
    waiting.set(id, (m) => (m.error ? fail(new Error(`${method}: ${m.error.message}`)) : done(m.result)));
    browser.stdio[3].write(JSON.stringify({ id, method, params, ...(inSession ? { sessionId: session } : {}) }) + '\0');
  });
  const timer = setTimeout(() => { try { process.kill(-browser.pid, 'SIGKILL'); } catch {} }, timeoutMs);
  const run = async () => {
    const { targetInfos } = await call('Target.getTargets', {}, false);
    const target = targetInfos.find((t) => t.type === 'page').targetId;
    ({ sessionId: session } = await call('Target.attachToTarget', { targetId: target, flatten: true }, false));
    await call('Page.navigate', { url });
    const wait = 'new Promise((done) => { const f = () => document.title ? done(document.title) : setTimeout(f, 100); f(); })';
    const r = await call('Runtime.evaluate', { expression: wait, awaitPromise: true, returnByValue: true });
    return r.result.value;
  };
  const closed = new Promise((done, fail) => browser.on('exit', () => fail(new Error('Chromium ended first'))));
  return Promise.race([run(), closed]).finally(() => {
    clearTimeout(timer);
    try { process.kill(-browser.pid, 'SIGKILL'); } catch {}
  });
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
let got;
try {
  got = JSON.parse(await pageTitle(`file://${join(dir, 'firstdraw.html')}`, 600000));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (got.failure) {
  console.error(`firstdraw.html: ${got.failure}`);
  process.exit(1);
}
const names = ['agal2spv', 'aglsl', 'openfl'];
// Medians over the rounds after the first.
const med = (p, n, what) => median(p.times[n][what].slice(1));
const drawn = got.pairs.filter((p) => names.every((n) => !p.failed[n] && p.times[n].total.length === rounds));
console.log(`${got.pairs.length} AGAL 1 pairs, ${drawn.length} drawn by all three; ${rounds} rounds (the first a ` +
            `warm-up), medians in ms; ${got.renderer}`);
console.log(`${'pair'.padEnd(26)}${names.map((n) => `${n} (translation)`.padStart(26)).join('')}`);
const cell = (p, n) => `${med(p, n, 'total').toFixed(2)} (${med(p, n, 'translate').toFixed(3)})`.padStart(26);
for (const p of drawn) console.log(`${p.name.padEnd(26)}${names.map((n) => cell(p, n)).join('')}`);
for (const p of got.pairs.filter((x) => !drawn.includes(x))) {
  console.log(`${p.name.padEnd(26)}  not compared: ${Object.entries(p.failed).map(([n, w]) => `${n}: ${w.split('\n')[0]}`).join('; ')}`);
}
// Every pair agal2spv translates, WebGL 2 must draw: a refusal is a failure.
const ours = got.pairs.filter((p) => p.failed.agal2spv);
for (const p of ours) console.error(`agal2spv's ${p.name} not drawn: ${p.failed.agal2spv}`);
if (!drawn.length || ours.length) process.exit(1);
const over = (n, what) => median(drawn.map((p) => med(p, n, what)));
console.log(`${'median over pairs'.padEnd(26)}${names.map((n) => `${over(n, 'total').toFixed(2)} (${over(n, 'translate')
  .toFixed(3)})`.padStart(26)).join('')}`);
const fastest = Math.min(over('aglsl', 'total'), over('openfl', 'total'));
// The per-pair ratio of agal2spv's first draw to the faster peer's on that pair.
const ratios = drawn.map((p) => med(p, 'agal2spv', 'total') / Math.min(med(p, 'aglsl', 'total'), med(p, 'openfl', 'total')));
console.log(`agal2spv / fastest peer: ${(over('agal2spv', 'total') / fastest).toFixed(2)} over the medians, per pair ` +
            `${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)} (median ${median(ratios).toFixed(2)})`);
