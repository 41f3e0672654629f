// web_floats.js: floats between the harness and a page (tools/gpu/webgl_page.c puts it
// before either runner): a float array as the hex of each IEEE-754 bit pattern, 8
// digits a float, exact both ways, NaN and the infinities included.
'use strict';
function agalFromHex(s) {
  const n = s.length >> 3, u = new Uint32Array(n);
  for (let i = 0; i < n; i++) u[i] = parseInt(s.substr(8 * i, 8), 16);
  return new Float32Array(u.buffer);
}
function agalToHex(f) {
  const u = new Uint32Array(f.buffer, f.byteOffset, f.length), parts = new Array(u.length);
  for (let i = 0; i < u.length; i++) parts[i] = u[i].toString(16).padStart(8, '0');
  return parts.join('');
}
