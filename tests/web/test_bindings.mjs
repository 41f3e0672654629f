// test_bindings.mjs: what the package's bindings tell a runtime to pass to which call,
// per target, under node's test runner (run by tests/web/test_web.py beside
// test_web.mjs): the texture unit of each sampler, the names the text declares with
// the host's names applied (checked against the text itself), WebGPU's sampler
// descriptor by Flash's sampler rules, and the profile vocabulary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, FlashError } from 'agal2spv';

const agal = await load();
const vertex = agal.assemble('m44 op, va0, vc0\nmov v0, va1\nmov v2, va3\n', { stage: 'vertex' });
const fragment = agal.assemble('tex ft0, v0, fs3 <2d, linear, repeat, mipnone>\n' +
                               'tex ft1, v2, fs1 <cube, nearest, miplinear>\nadd ft0, ft0, ft1\nmul oc, ft0, fc0\n',
                               { stage: 'fragment' });
const host = { vertexConstants: 'vcs', fragmentConstants: 'fcs', vertexBlock: 'VB', fragmentBlock: 'FB', sampler: 'tex',
               attribute: 'attr', varying: 'vary', yflip: 'posScale', yflipComponent: 'y' };

test('GLSL ES 3.00 and 1.00: every name the bindings give is declared in the text, with the host\'s names', () => {
  for (const target of ['essl3', 'essl1', 'glsl']) {
    const up = agal.upload(vertex, fragment, { target, names: host });
    const { vertex: v, fragment: f } = up.bindings;
    const declared = (text, name) => new RegExp(`\\b${name}\\b`).test(text);
    assert.deepEqual(v.attributes.map((a) => [a.name, a.location]), [['attr0', 0], ['attr1', 1], ['attr3', 3]], target);
    assert.ok(v.attributes.every((a) => declared(up.vertex, a.name)), target);
    assert.deepEqual(v.varyings.map((x) => x.name), ['vary0', 'vary2'], target);
    assert.deepEqual(f.varyings.map((x) => x.name), ['vary0', 'vary2'], target);
    assert.ok([...v.varyings, ...f.varyings].every((x) => declared(up.vertex, x.name) && declared(up.fragment, x.name)));
    assert.deepEqual(f.samplers.map((s) => [s.unit, s.name]), [[1, 'tex1'], [3, 'tex3']], target);
    assert.ok(f.samplers.every((s) => declared(up.fragment, s.name)), target);
    assert.deepEqual(v.yflipUniform, { name: 'posScale', component: 'y' }, target);
    assert.ok(up.vertex.includes('posScale.y'), target);
    assert.equal(f.yflipUniform, null, target);
    const block = target === 'essl1' ? null : 'VB';
    assert.deepEqual([v.constants.block, v.constants.array], [block, 'vcs'], target);
    assert.ok(declared(up.vertex, 'vcs') && (block === null || declared(up.vertex, block)), target);
    assert.deepEqual([f.constants.block, f.constants.array], [target === 'essl1' ? null : 'FB', 'fcs'], target);
  }
});

test('our own names when the host gives none; a float y-flip uniform', () => {
  const { bindings } = agal.translate(vertex, { target: 'essl1' });
  assert.deepEqual(bindings.attributes.map((a) => a.name), ['va0', 'va1', 'va3']);
  assert.deepEqual(bindings.yflipUniform, { name: 'agal_yflip', component: null });
  assert.deepEqual([bindings.constants.block, bindings.constants.array], [null, 'vc']);
  const es3 = agal.translate(vertex, { target: 'essl3' }).bindings;
  assert.deepEqual([es3.constants.block, es3.constants.array], ['agal_vc_block', 'vc']);
});

test('SPIR-V and WGSL bind by number: no names; each sampler its unit', () => {
  for (const target of ['wgsl', 'spirv']) {
    const { vertex: v, fragment: f } = agal.upload(vertex, fragment, { target, names: host }).bindings;
    assert.ok(v.attributes.every((a) => a.name === null) && v.varyings.every((x) => x.name === null), target);
    assert.equal(v.yflipUniform, null, target);
    assert.deepEqual([v.constants.block, v.constants.array], [null, null], target);
    assert.deepEqual(f.samplers.map((s) => s.unit), [1, 3], target);
  }
});

// Flash's sampler rules in WebGPU's words (docs/binding-models.md): the wrap per axis,
// a cube clamping, mipnone sampling level 0 only, anisotropy only where every filter
// is linear.
const repeatU = { clamp: 'clamp-to-edge', repeat: 'repeat', clamp_u_repeat_v: 'clamp-to-edge', repeat_u_clamp_v: 'repeat' };
const repeatV = { clamp: 'clamp-to-edge', repeat: 'repeat', clamp_u_repeat_v: 'repeat', repeat_u_clamp_v: 'clamp-to-edge' };
test('WGSL: a GPUSamplerDescriptor per sampler, by Flash\'s sampler rules', () => {
  let n = 0;
  for (const dim of ['2d', 'cube']) {
    for (const wrap of dim === 'cube' ? ['clamp'] : Object.keys(repeatU)) { // a cube wraps nothing (#3662)
      for (const filter of ['nearest', 'linear', 'anisotropic2x', 'anisotropic16x']) {
        for (const mipmap of ['mipnone', 'mipnearest', 'miplinear']) {
          const f = agal.assemble(`tex ft0, v0, fs2 <${dim}, ${filter}, ${mipmap}, ${wrap}>\nmov oc, ft0\n`,
                                  { stage: 'fragment' });
          const [s] = agal.translate(f, { target: 'wgsl' }).bindings.samplers;
          const linear = filter !== 'nearest' ? 'linear' : 'nearest';
          const want = {
            magFilter: linear, minFilter: linear, mipmapFilter: mipmap === 'miplinear' ? 'linear' : 'nearest',
            addressModeU: dim === 'cube' ? 'clamp-to-edge' : repeatU[wrap],
            addressModeV: dim === 'cube' ? 'clamp-to-edge' : repeatV[wrap], addressModeW: 'clamp-to-edge',
            lodMinClamp: 0, lodMaxClamp: mipmap === 'mipnone' ? 0 : 32,
          };
          if (filter.startsWith('anisotropic') && mipmap === 'miplinear') want.maxAnisotropy = parseInt(filter.slice(11));
          assert.deepEqual(s.samplerDescriptor, want, `${dim} ${wrap} ${filter} ${mipmap}`);
          assert.equal(s.unit, 2);
          n++;
        }
      }
    }
  }
  assert.equal(n, 60);
  assert.equal(agal.translate(fragment, { target: 'essl3' }).bindings.samplers[0].samplerDescriptor, undefined);
});

test("one profile vocabulary: Context3DProfile's names; 'auto' still read", () => {
  const v2 = agal.assemble('mov op, va0\nmov v0, va1\n', { stage: 'vertex', version: 2 });
  const f2 = agal.assemble('mov oc, v0\n', { stage: 'fragment', version: 2 });
  for (const contextProfile of ['baselineConstrained', 'baseline', 'baselineExtended']) {
    assert.throws(() => agal.upload(v2, f2, { contextProfile }), (e) => e instanceof FlashError && e.errorID === 3725 &&
      e.message === 'Error #3725: The requested AGAL version (2) is not valid under the Context3D profile. ' +
      'For example AGAL version 2 requires standard profile.', contextProfile);
  }
  for (const contextProfile of ['standardConstrained', 'standard', 'standardExtended', 'enhanced']) {
    assert.equal(typeof agal.upload(v2, f2, { contextProfile }).vertex, 'string', contextProfile);
  }
  for (const profile of ['auto', 'baseline', 'standard', 'enhanced', 'standardConstrained']) {
    assert.equal(typeof agal.translate(vertex, { profile }).code, 'string', profile);
  }
});

// The bindings are written when first read (web_bindings_json): from the call's own
// context when no call came since, else from the inputs kept at the call, made again.
test('bindings read after later calls, after the caller reused its arrays, and after dispose: as read at once', async () => {
  const own = await load();
  for (const target of ['essl3', 'essl1', 'glsl', 'wgsl', 'spirv']) {
    const options = { target, names: target === 'wgsl' || target === 'spirv' ? undefined : host };
    const atOnce = [own.translate(fragment, options).bindings, own.upload(vertex, fragment, options).bindings];
    const v = vertex.slice(), f = fragment.slice();
    const late = [own.translate(f, options), own.upload(v, f, options)];
    v.fill(0);
    f.fill(0);
    own.translate(vertex, { target: 'glsl' });
    own.assemble('mov oc, v0\n', { stage: 'fragment' });
    assert.deepEqual(late.map((r) => r.bindings), atOnce, target);
    assert.ok(atOnce[1].fragment.samplers.length === 2 && atOnce[1].vertex.attributes.length === 3, target);
  }
  const disposed = [own.translate(fragment, { target: 'wgsl' }), own.upload(vertex, fragment, { target: 'wgsl' })];
  own.dispose();
  assert.deepEqual(disposed.map((r) => r.bindings), [agal.translate(fragment, { target: 'wgsl' }).bindings,
                                                      agal.upload(vertex, fragment, { target: 'wgsl' }).bindings]);
});
