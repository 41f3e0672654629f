// webgl_runner.js: the browser side of agal2spv's WebGL backend (tools/gpu/webgl_page.c
// writes it into every page it makes, with the draws; nothing is loaded from the
// network).
//
// The page holds a job list in <script type="application/json" id="agal-jobs">:
//   {"mode": "compare" | "view", "draws": [DRAW, ...]}
// DRAW (the JSON of one harness_draw, tools/gpu/harness.h):
//   {"api": 2 | 1,                 WebGL 2 (GLSL ES 3.00) or WebGL 1 (GLSL ES 1.00)
//    "vs": TEXT, "fs": TEXT|null,  the translations; fs null: a vertex-only draw
//    "nverts": N, "ninst": N, "attribs": {"LOC": HEX, ...}   (N * 4 floats each)
//    "vc": HEX, "fc": HEX,         the constants as the blocks hold them (vec4s)
//    "blocks": [{"stage": "vc"|"fc", "binding", "name"}],   the layout's constant blocks
//    "textures": [{"unit", "name", "cube", "size", "levels", "min", "mag", "wrapS", "wrapT",
//                  "mipmapped", "texels": HEX}],   sampler parameters from <agal/gl.h>
//    "noc": N, "width": W, "height": H, "depth_less": BOOL,
//    "capture": ["v0", ...] | null}   vertex outputs to capture after gl_Position
// HEX is a float array as the hex of each IEEE-754 bit pattern (8 digits a float):
// exact both ways, NaN and the infinities included.
//
// "compare": every draw runs offscreen and #agal-result receives
// {"renderers": {"2": NAME, "1": NAME}, "draws": [...]}, one entry per draw:
// {"ok": true, "color": [HEX per oc], "depth": HEX, "xfb": HEX} with rows top-down
// (Stage3D's row 0 first) and discarded pixels holding CLEAR, or
// {"ok": false, "error": TEXT} with the browser's info log.
// "view": the one draw is drawn into the page's canvas (agalview --web).
//
// WebGL 2 runs the translations as they are: RGBA32F targets (EXT_color_buffer_float),
// a DEPTH_COMPONENT32F texture read back through a copy pass, transform feedback of
// gl_Position and the varyings, RGBA32F textures (OES_texture_float_linear).
// WebGL 1 has none of these, so each value travels in an RGBA8 pixel as its four
// IEEE bytes: the translation's main is renamed (#define main agal_main) and a new
// main calls it, picks one component (a uniform) and packs it; vertex outputs come
// from 1-pixel points, one per vertex and instance (ANGLE_instanced_arrays, the
// instance a per-instance attribute), colours and depth from one draw per
// component. Textures are RGBA8 (the inputs are multiples of 1/255).
'use strict';
(function () {
  const CLEAR = -7777.25; // HARNESS_CLEAR: the clear colour, kept by discarded pixels

  const fromHex = agalFromHex, toHex = agalToHex; // web_floats.js

  // ---- shaders ------------------------------------------------------------------
  function compile(gl, type, src, what) {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS))
      throw new Error(what + ' does not compile: ' + gl.getShaderInfoLog(s));
    return s;
  }
  function link(gl, vs, fs, capture, before) {
    const p = gl.createProgram();
    gl.attachShader(p, compile(gl, gl.VERTEX_SHADER, vs, 'vertex shader'));
    gl.attachShader(p, compile(gl, gl.FRAGMENT_SHADER, fs, 'fragment shader'));
    if (capture) gl.transformFeedbackVaryings(p, capture, gl.INTERLEAVED_ATTRIBS);
    if (before) before(p);
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS))
      throw new Error('the program does not link: ' + gl.getProgramInfoLog(p));
    return p;
  }
  // A vertex-only draw still needs a fragment shader in WebGL 2.
  const FS_NONE = '#version 300 es\nprecision highp float;\nout vec4 agal_none;\nvoid main() { agal_none = vec4(0.0); }\n';

  // ---- inputs -------------------------------------------------------------------
  function buffer(gl, target, data) {
    const b = gl.createBuffer();
    gl.bindBuffer(target, b);
    gl.bufferData(target, data, gl.STATIC_DRAW);
    return b;
  }
  function attributes(gl, p, d, byName) {
    for (const key in d.attribs) {
      const loc = byName ? gl.getAttribLocation(p, 'va' + key) : Number(key);
      if (loc < 0) continue; // not read
      buffer(gl, gl.ARRAY_BUFFER, fromHex(d.attribs[key]));
      gl.vertexAttribPointer(loc, 4, gl.FLOAT, false, 16, 0);
      gl.enableVertexAttribArray(loc);
    }
  }
  // WebGL 2: the std140 blocks the layout names, at its bindings.
  function blocks(gl, p, d) {
    for (const b of d.blocks) {
      const idx = gl.getUniformBlockIndex(p, b.name);
      if (idx === gl.INVALID_INDEX) continue;
      gl.uniformBlockBinding(p, idx, b.binding);
      const f = fromHex(d[b.stage]), size = gl.getActiveUniformBlockParameter(p, idx, gl.UNIFORM_BLOCK_DATA_SIZE);
      const bytes = new Float32Array(Math.max(size / 4, f.length));
      bytes.set(f);
      gl.bindBufferBase(gl.UNIFORM_BUFFER, b.binding, buffer(gl, gl.UNIFORM_BUFFER, bytes));
    }
  }
  // WebGL 1: plain arrays `uniform vec4 vc[N]`, N what the program reads.
  function arrays(gl, p, d) {
    const data = { vc: d.vc, fc: d.fc };
    const n = gl.getProgramParameter(p, gl.ACTIVE_UNIFORMS);
    for (let i = 0; i < n; i++) {
      const u = gl.getActiveUniform(p, i), name = u.name.replace(/\[0\]$/, '');
      if (!(name in data)) continue;
      const f = fromHex(data[name]), v = new Float32Array(4 * u.size);
      v.set(f.subarray(0, Math.min(f.length, v.length)));
      gl.uniform4fv(gl.getUniformLocation(p, name), v);
    }
  }
  function textures(gl, p, d, api) {
    for (const t of d.textures) {
      const target = t.cube ? gl.TEXTURE_CUBE_MAP : gl.TEXTURE_2D, texels = fromHex(t.texels);
      gl.activeTexture(gl.TEXTURE0 + t.unit);
      gl.bindTexture(target, gl.createTexture());
      let off = 0;
      for (let f = 0; f < (t.cube ? 6 : 1); f++)
        for (let l = 0; l < t.levels; l++) {
          const s = t.size >> l, n = s * s * 4, face = t.cube ? gl.TEXTURE_CUBE_MAP_POSITIVE_X + f : gl.TEXTURE_2D;
          const level = texels.subarray(off, off + n);
          off += n;
          if (api === 2) {
            gl.texImage2D(face, l, gl.RGBA32F, s, s, 0, gl.RGBA, gl.FLOAT, level);
          } else {
            const bytes = new Uint8Array(n);
            for (let i = 0; i < n; i++) bytes[i] = Math.round(Math.min(Math.max(level[i], 0), 1) * 255);
            gl.texImage2D(face, l, gl.RGBA, s, s, 0, gl.RGBA, gl.UNSIGNED_BYTE, bytes);
          }
        }
      // The resolved sampler state as <agal/gl.h> maps it (WebGL's enums are GL's).
      gl.texParameteri(target, gl.TEXTURE_MAG_FILTER, t.mag);
      gl.texParameteri(target, gl.TEXTURE_MIN_FILTER, t.min);
      gl.texParameteri(target, gl.TEXTURE_WRAP_S, t.wrapS);
      gl.texParameteri(target, gl.TEXTURE_WRAP_T, t.wrapT);
      if (api === 2) {
        gl.texParameteri(target, gl.TEXTURE_BASE_LEVEL, 0);
        gl.texParameteri(target, gl.TEXTURE_MAX_LEVEL, t.levels - 1);
        gl.texParameterf(target, gl.TEXTURE_MAX_LOD, t.mipmapped ? t.levels - 1 : 0);
      }
      const loc = t.name ? gl.getUniformLocation(p, t.name) : null;
      if (loc) gl.uniform1i(loc, t.unit);
    }
  }

  // Rows come back bottom-up; Stage3D's row 0 (op.y = +w) is the top one.
  function flipRows(f, w, h, comps) {
    const out = new Float32Array(f.length), row = w * comps;
    for (let y = 0; y < h; y++) out.set(f.subarray((h - 1 - y) * row, (h - y) * row), y * row);
    return out;
  }
  function check(gl, what) {
    const e = gl.getError();
    if (e !== gl.NO_ERROR) throw new Error('WebGL error 0x' + e.toString(16) + ' ' + what);
  }

  // ---- WebGL 2 --------------------------------------------------------------------
  function colourTarget(gl, format, w, h) {
    const t = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texStorage2D(gl.TEXTURE_2D, 1, format, w, h);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    return t;
  }
  // The depth texture's values through a pass that copies them into RGBA32F.
  const DEPTH_VS = '#version 300 es\nvoid main() { vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0); gl_Position = vec4(p, 0.0, 1.0); }\n';
  const DEPTH_FS = '#version 300 es\nprecision highp float;\nuniform highp sampler2D agal_depth;\nout vec4 agal_out;\n' +
    'void main() { agal_out = vec4(texelFetch(agal_depth, ivec2(gl_FragCoord.xy), 0).x); }\n';
  function readDepth(gl, depthTex, w, h) {
    const p = link(gl, DEPTH_VS, DEPTH_FS, null);
    const fbo = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, colourTarget(gl, gl.RGBA32F, w, h), 0);
    gl.drawBuffers([gl.COLOR_ATTACHMENT0]);
    gl.disable(gl.DEPTH_TEST);
    gl.useProgram(p);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, depthTex);
    gl.uniform1i(gl.getUniformLocation(p, 'agal_depth'), 0);
    gl.bindVertexArray(gl.createVertexArray());
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    const rgba = new Float32Array(w * h * 4), depth = new Float32Array(w * h);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.FLOAT, rgba);
    for (let i = 0; i < w * h; i++) depth[i] = rgba[4 * i];
    return flipRows(depth, w, h, 1);
  }

  function run2(gl, d) {
    const capture = d.capture ? ['gl_Position'].concat(d.capture) : null;
    const p = link(gl, d.vs, d.fs || FS_NONE, capture);
    gl.useProgram(p);
    gl.bindVertexArray(gl.createVertexArray());
    attributes(gl, p, d, false);
    blocks(gl, p, d);
    check(gl, 'binding the inputs');
    const out = { ok: true };
    const w = d.fs ? d.width : 1, h = d.fs ? d.height : 1, noc = d.fs ? d.noc : 1;
    const fbo = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    const bufs = [];
    for (let i = 0; i < noc; i++) {
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + i, gl.TEXTURE_2D, colourTarget(gl, gl.RGBA32F, w, h), 0);
      bufs.push(gl.COLOR_ATTACHMENT0 + i);
    }
    const depthTex = colourTarget(gl, gl.DEPTH_COMPONENT32F, w, h);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.TEXTURE_2D, depthTex, 0);
    gl.drawBuffers(bufs);
    if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE)
      throw new Error('the RGBA32F framebuffer is incomplete');
    textures(gl, p, d, 2); // after the targets, which leave their textures bound
    check(gl, 'making the targets and textures');
    for (let i = 0; i < noc; i++) gl.clearBufferfv(gl.COLOR, i, [CLEAR, CLEAR, CLEAR, CLEAR]);
    gl.clearBufferfv(gl.DEPTH, 0, [1.0]);
    gl.viewport(0, 0, w, h);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(d.depth_less ? gl.LESS : gl.ALWAYS);
    gl.depthMask(true);
    let xfb = null;
    const records = d.nverts * d.ninst * (capture ? capture.length : 0) * 4;
    if (capture) {
      xfb = buffer(gl, gl.TRANSFORM_FEEDBACK_BUFFER, new Float32Array(records));
      gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
      gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, gl.createTransformFeedback());
      gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, xfb);
      gl.beginTransformFeedback(gl.TRIANGLES);
    }
    if (!d.fs) gl.enable(gl.RASTERIZER_DISCARD);
    gl.drawArraysInstanced(gl.TRIANGLES, 0, d.nverts, d.ninst);
    gl.disable(gl.RASTERIZER_DISCARD);
    if (capture) {
      gl.endTransformFeedback();
      gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
      const f = new Float32Array(records);
      gl.bindBuffer(gl.COPY_READ_BUFFER, xfb);
      gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, f);
      out.xfb = toHex(f);
    }
    if (d.fs) {
      out.color = [];
      for (let i = 0; i < noc; i++) {
        const f = new Float32Array(w * h * 4);
        gl.readBuffer(gl.COLOR_ATTACHMENT0 + i);
        gl.readPixels(0, 0, w, h, gl.RGBA, gl.FLOAT, f);
        out.color.push(toHex(flipRows(f, w, h, 4)));
      }
      out.depth = toHex(readDepth(gl, depthTex, w, h));
    }
    check(gl, 'during the draw');
    return out;
  }

  // ---- WebGL 1 --------------------------------------------------------------------
  // agal_pack(x): the IEEE-754 bytes of x (least significant first) as k/255, for an
  // RGBA8 pixel. Exact for normal numbers (the exponent is found and checked, the
  // mantissa scaled by powers of two); denormals read as 0, NaN as 0x7fc00000 where
  // the compiler keeps the NaN test (a NaN may pack as anything: its reference is
  // never compared). Which pixels were discarded a draw of its own tells.
  const PACK = [
    'vec4 agal_pack(highp float x) {',
    '  if (!(x == x)) return vec4(0.0, 0.0, 192.0, 127.0) / 255.0;',
    '  highp float s = x < 0.0 ? 128.0 : 0.0, a = abs(x);',
    '  if (a > 3.4028235e38) return vec4(0.0, 0.0, 128.0, 127.0 + s) / 255.0;',
    '  if (a < 1.1754944e-38) return vec4(0.0, 0.0, 0.0, s) / 255.0;',
    '  highp float e = floor(log2(a));',
    '  if (exp2(e) > a) e -= 1.0;',
    '  if (exp2(e + 1.0) <= a) e += 1.0;',
    '  highp float m = floor((a / exp2(e) - 1.0) * 8388608.0 + 0.5);',
    '  if (m >= 8388608.0) { m = 0.0; e += 1.0; }',
    '  highp float b2 = floor(m / 65536.0), b1 = floor((m - b2 * 65536.0) / 256.0), b0 = m - b2 * 65536.0 - b1 * 256.0;',
    '  highp float be = e + 127.0, hi = floor(be / 2.0);',
    '  return vec4(b0, b1, b2 + 128.0 * (be - 2.0 * hi), s + hi) / 255.0;',
    '}'].join('\n');

  // Inserts `#define main agal_main` after the #version line.
  function renameMain(src) {
    const nl = src.indexOf('\n');
    return src.slice(0, nl + 1) + '#define main agal_main\n' + src.slice(nl + 1) + '\n#undef main\n';
  }

  // RGBA8 pixels of packed floats as the floats.
  function unpack(bytes) {
    return new Float32Array(bytes.buffer.slice(0));
  }

  function target1(gl, w, h) {
    const fbo = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    const t = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, t, 0);
    if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE)
      throw new Error('the RGBA8 framebuffer is incomplete');
    gl.viewport(0, 0, w, h);
  }
  // One draw of the packed values, read back as floats in rows top-down.
  function packedDraw(gl, w, h, draw) {
    gl.clearColor(1, 1, 1, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    draw();
    const bytes = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, bytes);
    return flipRows(unpack(bytes), w, h, 1);
  }

  // Vertex outputs: the program's main, then gl_Position or a varying, one component
  // at a time, on a 1-pixel point at x = vertex + nverts * instance.
  function vertex1(gl, d) {
    const capture = ['gl_Position'].concat(d.capture || []), n = d.nverts * d.ninst;
    const inst = gl.getExtension('ANGLE_instanced_arrays');
    if (!inst && d.ninst > 1) throw new Error('WebGL 1 without ANGLE_instanced_arrays');
    let pick = '  highp vec4 v = gl_Position;\n';
    for (let k = 1; k < capture.length; k++) pick += '  if (agal_slot == ' + k + ') v = ' + capture[k] + ';\n';
    const vs = renameMain(d.vs) + 'attribute float agal_vertex;\nattribute float agal_instance;\nuniform int agal_slot;\n' +
      'varying highp vec4 agal_value;\nvoid main() {\n  agal_main();\n' + pick + '  agal_value = v;\n' +
      '  highp float x = agal_vertex + ' + d.nverts + '.0 * agal_instance;\n' +
      '  gl_Position = vec4((2.0 * x + 1.0) / ' + n + '.0 - 1.0, 0.0, 0.0, 1.0);\n  gl_PointSize = 1.0;\n}\n';
    const fs = '#version 100\nprecision highp float;\nvarying highp vec4 agal_value;\nuniform int agal_comp;\n' + PACK +
      '\nvoid main() {\n  highp float x = agal_value.x;\n  if (agal_comp == 1) x = agal_value.y;\n' +
      '  if (agal_comp == 2) x = agal_value.z;\n  if (agal_comp == 3) x = agal_value.w;\n  gl_FragColor = agal_pack(x);\n}\n';
    const p = link(gl, vs, fs, null);
    gl.useProgram(p);
    attributes(gl, p, d, true);
    arrays(gl, p, d);
    const index = new Float32Array(d.nverts), instances = new Float32Array(d.ninst);
    for (let i = 0; i < d.nverts; i++) index[i] = i;
    for (let i = 0; i < d.ninst; i++) instances[i] = i;
    const locs = [gl.getAttribLocation(p, 'agal_vertex'), gl.getAttribLocation(p, 'agal_instance')];
    [index, instances].forEach(function (data, k) {
      buffer(gl, gl.ARRAY_BUFFER, data);
      gl.vertexAttribPointer(locs[k], 1, gl.FLOAT, false, 4, 0);
      gl.enableVertexAttribArray(locs[k]);
      if (inst) inst.vertexAttribDivisorANGLE(locs[k], k);
    });
    target1(gl, n, 1);
    const rec = capture.length * 4, xfb = new Float32Array(n * rec);
    for (let slot = 0; slot < capture.length; slot++)
      for (let c = 0; c < 4; c++) {
        const row = packedDraw(gl, n, 1, function () {
          gl.uniform1i(gl.getUniformLocation(p, 'agal_slot'), slot);
          gl.uniform1i(gl.getUniformLocation(p, 'agal_comp'), c);
          if (inst) inst.drawArraysInstancedANGLE(gl.POINTS, 0, d.nverts, d.ninst);
          else gl.drawArrays(gl.POINTS, 0, d.nverts);
        });
        for (let i = 0; i < n; i++) xfb[i * rec + slot * 4 + c] = row[i];
      }
    for (let k = 0; k < 2; k++) if (inst) inst.vertexAttribDivisorANGLE(locs[k], 0);
    return { ok: true, xfb: toHex(xfb) };
  }

  // Fragment outputs: the program's main, then one component of one oc, or the
  // depth (gl_FragDepthEXT when the program writes it, else gl_FragCoord.z), or
  // 1.0 for the coverage draw: a pixel it leaves at the clear value (1, 1, 1, 1),
  // a NaN, was discarded.
  const DEPTH = 16, COVERAGE = 17;
  function fragment1(gl, d) {
    const mrt = /gl_FragData/.test(d.fs), depth = /gl_FragDepthEXT/.test(d.fs) ? 'gl_FragDepthEXT' : 'gl_FragCoord.z';
    const out = mrt ? 'gl_FragData[0]' : 'gl_FragColor';
    let pick = '  highp float x = 1.0;\n  if (agal_select == ' + DEPTH + ') x = ' + depth + ';\n';
    for (let o = 0; o < d.noc; o++)
      for (let c = 0; c < 4; c++)
        pick += '  if (agal_select == ' + (4 * o + c) + ') x = ' + (mrt ? 'gl_FragData[' + o + ']' : 'gl_FragColor') + '.' + 'xyzw'[c] + ';\n';
    const fs = renameMain(d.fs) + 'uniform int agal_select;\n' + PACK + '\nvoid main() {\n  agal_main();\n' + pick +
      '  ' + out + ' = agal_pack(x);\n}\n';
    const p = link(gl, d.vs, fs, null);
    gl.useProgram(p);
    if (mrt) gl.getExtension('WEBGL_draw_buffers');
    attributes(gl, p, d, true);
    arrays(gl, p, d);
    const w = d.width, h = d.height, px = w * h;
    target1(gl, w, h);
    textures(gl, p, d, 1); // after the target, which leaves its texture bound
    check(gl, 'binding the inputs');
    const sel = gl.getUniformLocation(p, 'agal_select');
    const values = function (s) {
      return packedDraw(gl, w, h, function () { gl.uniform1i(sel, s); gl.drawArrays(gl.TRIANGLES, 0, d.nverts); });
    };
    const covered = values(COVERAGE), kept = function (i) { return covered[i] === 1.0; };
    const result = { ok: true, color: [] };
    for (let o = 0; o < d.noc; o++) {
      const f = new Float32Array(px * 4);
      for (let c = 0; c < 4; c++) {
        const v = values(4 * o + c);
        for (let i = 0; i < px; i++) f[4 * i + c] = kept(i) ? v[i] : CLEAR;
      }
      result.color.push(toHex(f));
    }
    const z = values(DEPTH);
    for (let i = 0; i < px; i++) if (!kept(i)) z[i] = CLEAR;
    result.depth = toHex(z);
    return result;
  }

  function run1(gl, d) {
    for (const e of ['OES_standard_derivatives', 'EXT_shader_texture_lod', 'EXT_frag_depth', 'WEBGL_draw_buffers'])
      gl.getExtension(e); // the translation enables those it needs (#extension)
    const r = d.fs ? fragment1(gl, d) : vertex1(gl, d);
    check(gl, 'during the draws');
    return r;
  }

  // ---- the page -------------------------------------------------------------------
  function context(api) {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext(api === 2 ? 'webgl2' : 'webgl', { antialias: false });
    if (!gl) throw new Error('no WebGL ' + api + ' context');
    if (api === 2) {
      if (!gl.getExtension('EXT_color_buffer_float')) throw new Error('WebGL 2 without EXT_color_buffer_float');
      gl.getExtension('OES_texture_float_linear');
    }
    return gl;
  }

  // The scene of agalview, drawn into the page's canvas.
  function view(d) {
    const canvas = document.getElementById('agal-canvas');
    const gl = canvas.getContext('webgl2', { antialias: false, alpha: true, premultipliedAlpha: false, preserveDrawingBuffer: true });
    if (!gl) throw new Error('no WebGL 2 context');
    gl.getExtension('OES_texture_float_linear');
    const p = link(gl, d.vs, d.fs, null);
    gl.useProgram(p);
    gl.bindVertexArray(gl.createVertexArray());
    attributes(gl, p, d, false);
    blocks(gl, p, d);
    textures(gl, p, d, 2);
    gl.viewport(0, 0, d.width, d.height);
    gl.clearColor(0, 0, 0, 1);
    gl.clearDepth(1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(d.depth_less ? gl.LESS : gl.ALWAYS);
    gl.drawArraysInstanced(gl.TRIANGLES, 0, d.nverts, d.ninst);
    check(gl, 'drawing the scene');
  }

  // Who drew: ANGLE's name for its backend and driver ("... SwiftShader driver").
  function renderer(gl) {
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    return String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  }

  // JSON without <, >, & or non-ASCII, so the serialized DOM holds it verbatim.
  function safeJson(v) {
    return JSON.stringify(v).replace(/[^\x20-\x7e]|[<>&]/g, function (c) {
      return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
    });
  }

  function main() {
    const el = document.getElementById('agal-jobs'), jobs = JSON.parse(el.textContent);
    el.remove(); // --dump-dom need not echo the inputs
    const result = document.getElementById('agal-result');
    if (jobs.mode === 'view') {
      try { view(jobs.draws[0]); result.textContent = 'ok'; } catch (e) { result.textContent = String(e.message || e); }
      return;
    }
    const contexts = {}, out = [], renderers = {};
    for (const d of jobs.draws) {
      try {
        const gl = contexts[d.api] || (contexts[d.api] = context(d.api));
        while (gl.getError() !== gl.NO_ERROR) { /* a failed draw's leftovers */ }
        out.push(d.api === 2 ? run2(gl, d) : run1(gl, d));
      } catch (e) {
        out.push({ ok: false, error: String(e.message || e) });
      }
    }
    for (const api in contexts) renderers[api] = renderer(contexts[api]);
    result.textContent = safeJson({ renderers: renderers, draws: out });
  }
  main();
})();
