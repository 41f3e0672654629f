// firstdraw.mjs: the first draw of a pair in headless Chromium's WebGL 2, agal2spv
// against AwayJS's aglsl and OpenFL's AGALConverter, each translating in the page.
//
//   node firstdraw.mjs PACKAGE_DIR SHADER_DIR --modules NODE_MODULES [--rounds N] [--variants] [--control] [--webgpu]
//                      [--clip control] [--chromium PATH]
//
// PACKAGE_DIR: the package unpacked (web/build.sh's tarball, its `package/`);
// SHADER_DIR: .agal files, whose AGAL 1 pairs (NAME.vert.agal and NAME.frag.agal)
// are drawn; NODE_MODULES: one holding @awayjs/core, @awayjs/stage, openfl 8.9.6,
// pako and howler (the project's tests/oracle/node_modules). For each pair, round
// and translator (interleaved, in an order shuffled per pair and round), firstdraw.html
// times the translation from the bytes (agal2spv's upload to GLSL ES 3.00 for the
// single-sampled canvas, so without centroid varyings; aglsl's ES 3.00; OpenFL's
// ES 1.00, its own Program3D.upload) plus compileShader, linkProgram
// (its status read), one drawArrays and a pixel of it read back (what waits for the
// draw: Chromium's gl.finish only flushes; an untimed getError after it lets the
// driver handle the deletes before the next clock starts), in a page served from
// 127.0.0.1 cross-origin isolated (a 5 us clock). A comment naming
// the round and the translator ends each text, so that no round finds the driver's
// cache warm. The first round is a warm-up. Per pair: each translator's median, and ours over the
// fastest peer that draws it, the median of the per-round ratios with its 95%
// interval; overall, the geometric mean of the pairs' ratios; each text not drawn,
// with its error. --variants adds our texts rewritten in the page, one construct
// each, or one stage aglsl's, each against ours as emitted, and our GLSL ES 1.00
// texts against OpenFL's (the same language). --control adds two copies of ours,
// timed as the peers are, and reads ours against them by the table's rule: how far
// from 1 the table puts texts that cost the same. It exits 1 if WebGL 2
// refuses one of agal2spv's pairs. The page runs in Chromium as the project's tests
// run it: --headless=new --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader.
// --webgpu draws our WGSL pairs with WebGPU instead (and --enable-unsafe-webgpu), no
// peer having WGSL: each pair's first draw, and with --variants the old relative read.
// --clip control uploads ours with clip 'control' and draws them with the context's
// EXT_clip_control set to ZERO_TO_ONE (the peers' in GL's default), as an emulator on
// a context with that extension would; --variants then adds the default upload.
// Figures, not checks: docs/benchmark.md, "Web".
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
const [pkg, shaders] = args.map((a) => resolve(a));
const modules = opt('--modules') && resolve(opt('--modules'));
const rounds = Number(opt('--rounds', 201));
const variants = args.includes('--variants'), control = args.includes('--control'), webgpu = args.includes('--webgpu');
const clip = opt('--clip', null);
if (!pkg || !shaders || !modules || !(rounds >= 2) || (clip !== null && (clip !== 'control' || webgpu))) {
  console.error('usage: node firstdraw.mjs PACKAGE_DIR SHADER_DIR --modules NODE_MODULES [--rounds N >= 2] ' +
                '[--variants] [--control] [--webgpu | --clip control] [--chromium PATH]');
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
writeFileSync(join(dir, 'pairs.js'), `export const rounds = ${rounds};\nexport const variants = ${variants};\n` +
  `export const control = ${control};\nexport const webgpu = ${webgpu};\n` +
  `export const clip = ${JSON.stringify(clip)};\n` +
  `export default ${JSON.stringify(pairs)}` +
  '.map((p) => ({ ...p, vertex: new Uint8Array(p.vertex), fragment: new Uint8Array(p.fragment) }));\n');

// Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON
// messages ended by NUL, commands on its fd 3, answers on its fd 4), as
// tests/web/test_web.py drives it: the page's title, once it has one.
function pageTitle(url, timeoutMs) {
  const chromium = opt('--chromium', 'chromium');
  const browser = spawn(chromium, ['--headless=new', '--no-sandbox', '--use-angle=swiftshader',
    '--enable-unsafe-swiftshader', ...(webgpu ? ['--enable-unsafe-webgpu'] : []), `--user-data-dir=${join(dir, 'profile')}`,
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

const sorted = (a) => [...a].sort((x, y) => x - y);
const median = (a) => sorted(a)[a.length >> 1];
// The median of a sample with its 95% interval from the order statistics (ranks n/2
// -+ 0.98 sqrt(n)): how settled the median is, whatever the times' distribution.
function settled(a) {
  const s = sorted(a), n = s.length, d = Math.ceil(0.98 * Math.sqrt(n));
  return { median: s[n >> 1], low: s[Math.max(0, (n >> 1) - d)], high: s[Math.min(n - 1, (n >> 1) + d)] };
}
const geomean = (a) => Math.exp(a.reduce((x, y) => x + Math.log(y), 0) / a.length);
// The page's folder served on 127.0.0.1, cross-origin isolated (COOP and COEP), where
// performance.now() counts 5 us; in a page that is not (a file:// one) it counts 100
// us, 3% of a first draw.
function serve(root) {
  const types = { '.html': 'text/html', '.js': 'text/javascript' };
  const server = createServer((req, res) => {
    const name = req.url.slice(1).split('?')[0];
    let body = null;
    try {
      if (/^\w[\w.-]*$/.test(name)) body = readFileSync(join(root, name)); // a file of the folder, no path
    } catch {}
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': types[extname(name)] || 'application/octet-stream',
                         'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' });
    res.end(body);
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}
let got;
const server = await serve(dir);
try {
  // Ten minutes, and 3 s a round more (--variants at a load of 3: 0.5 s a round).
  got = JSON.parse(await pageTitle(`http://127.0.0.1:${server.address().port}/firstdraw.html`, 600000 + 3000 * rounds));
} finally {
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
if (got.failure) {
  console.error(`firstdraw.html: ${got.failure}`);
  process.exit(1);
}
const names = Object.keys(got.pairs[0].times), peers = webgpu ? [] : ['aglsl', 'openfl'];
// A translator's times of a pair after the warm-up round; `draw` the compile, link
// and draw without the translation.
const after = (p, n, what) => {
  const t = p.times[n];
  return what === 'draw' ? t.total.slice(1).map((x, r) => x - t.translate[r + 1]) : t[what].slice(1);
};
const drew = (p, n) => !p.failed[n] && p.times[n].total.length === rounds;
// Per round, a's time over b's on the same pair (the two drawn within a few ms of each
// other, so a change of load reaches both): the median ratio and its interval.
const paired = (p, a, b, what = 'total') => settled(after(p, a, what).map((x, r) => x / after(p, b, what)[r]));
// The table's rule: ours against the one of `others` it is slowest against (the
// fastest peer), `others` all drawing the pair.
const slowestAgainst = (p, others) => others.map((n) => ({ n, q: paired(p, 'agal2spv', n) }))
  .reduce((x, y) => (y.q.median > x.q.median ? y : x));

console.log(`${got.pairs.length} AGAL 1 pairs; ${rounds} rounds (the first a warm-up), the translators interleaved ` +
            `per pair and round; ms, medians; ${got.renderer}; the page ${got.isolated ? '' : 'not '}cross-origin isolated` +
            (clip ? `; ours uploaded with clip '${clip}'` : ''));
const fmt = (x, d = 2) => x.toFixed(d);
const range = (q) => `${fmt(q.median)} [${fmt(q.low)}-${fmt(q.high)}]`;
console.log(`${'pair'.padEnd(16)}${['agal2spv', ...peers].map((n) => `${n} (translation)`.padStart(22)).join('')}` +
            (peers.length ? '   agal2spv / fastest peer, per round [95%]' : ''));
const ratios = [];
for (const p of got.pairs) {
  const cells = ['agal2spv', ...peers].map((n) => (drew(p, n)
    ? `${fmt(median(after(p, n, 'total')))} (${fmt(median(after(p, n, 'translate')), 3)})` : 'not drawn').padStart(22));
  const drawing = peers.filter((n) => drew(p, n));
  let vs = '';
  if (drew(p, 'agal2spv') && drawing.length) {
    const worst = slowestAgainst(p, drawing);
    ratios.push({ pair: p.name, all: drawing.length === peers.length, x: worst.q.median });
    vs = `   ${range(worst.q)} (${worst.n})`;
  }
  console.log(`${p.name.padEnd(16)}${cells.join('')}${vs}`);
}
for (const p of got.pairs.filter((x) => Object.keys(x.failed).length)) {
  for (const [n, why] of Object.entries(p.failed)) console.log(`  ${p.name}: ${n}'s texts not drawn: ${why.split('\n')[0]}`);
}
// Every pair agal2spv translates, WebGL 2 (WebGPU) must draw: a refusal is a failure.
const ours = got.pairs.filter((p) => p.failed.agal2spv);
for (const p of ours) console.error(`agal2spv's ${p.name} not drawn: ${p.failed.agal2spv}`);
if ((!webgpu && !ratios.length) || ours.length) process.exit(1);
const all = ratios.filter((r) => r.all);
if (!webgpu) console.log(`agal2spv / fastest peer, geometric mean of the pairs' median ratios: ${fmt(geomean(ratios.map((r) => r.x)))} ` +
            `over the ${ratios.length} pairs a peer draws (${fmt(Math.min(...ratios.map((r) => r.x)))} to ` +
            `${fmt(Math.max(...ratios.map((r) => r.x)))}), ${all.length ? fmt(geomean(all.map((r) => r.x))) : '-'} over ` +
            `the ${all.length} all three draw`);
// --variants: each rewritten text's compile, link and draw over ours as emitted (the
// OpenFL vertex text's over our GLSL ES 1.00 texts, its language), per round, and the
// geometric mean over the pairs.
for (const v of names.filter((n) => n.startsWith('agal2spv '))) {
  const base = v === 'agal2spv openfl-vertex' ? 'agal2spv essl1' : 'agal2spv';
  const each = got.pairs.filter((p) => drew(p, v) && drew(p, base)).map((p) => ({ p, q: paired(p, v, base, 'draw') }));
  console.log(`${v.padEnd(20)} over ${base}, the draw: ${fmt(geomean(each.map((e) => e.q.median)))} (geometric mean); ` +
              each.map((e) => `${e.p.name} ${range(e.q)}`).join(', '));
}
// --control: the table's rule with two copies of ours as the peers (where both peers
// draw, the rule picks the one ours is slowest against, which may read over 1 even
// between equals), and with one copy (as where one peer draws).
if (control) {
  const copies = ['control a', 'control b'];
  const each = got.pairs.filter((p) => ['agal2spv', ...copies].every((n) => drew(p, n)));
  for (const [what, others] of [['two copies', copies], ['one copy', copies.slice(0, 1)]]) {
    const qs = each.map((p) => ({ p, q: slowestAgainst(p, others).q }));
    const outside = qs.filter((e) => e.q.low > 1 || e.q.high < 1).length;
    console.log(`control: agal2spv / ${what} of itself, the table's rule: ${fmt(geomean(qs.map((e) => e.q.median)))} ` +
                `(geometric mean; ${outside} of ${qs.length} intervals leave 1); ` +
                qs.map((e) => `${e.p.name} ${range(e.q)}`).join(', '));
  }
}
// --variants: OpenFL's texts against ours in its language, GLSL ES 1.00 (upload,
// translation included): what is left once the language is the same.
if (names.includes('agal2spv essl1')) {
  const each = got.pairs.filter((p) => drew(p, 'agal2spv essl1') && drew(p, 'openfl'))
    .map((p) => ({ p, q: paired(p, 'agal2spv essl1', 'openfl') }));
  console.log(`agal2spv essl1 / openfl (both GLSL ES 1.00): ${fmt(geomean(each.map((e) => e.q.median)))} ` +
              `(geometric mean); ${each.map((e) => `${e.p.name} ${range(e.q)}`).join(', ')}`);
}
