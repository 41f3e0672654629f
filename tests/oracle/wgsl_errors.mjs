// wgsl_errors.mjs: Dawn's own log of each WGSL file it refuses (Tint's diagnostics,
// as a WebGPU runtime gets them in the validation error's message), for the
// debug_info test (tests/cli/test_debug_info.py). Run with VK_ICD_FILENAMES naming
// SwiftShader's ICD, as wgsl_compile.mjs is.
//
// usage: node wgsl_errors.mjs FILE...
// Prints "== FILE compiled" or "== FILE refused" and the error's message for each;
// exit status 0, or 2 when there is no adapter or device.
import { readFileSync } from 'node:fs';
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);

const gpu = create([]); // Dawn's instance must outlive the device

async function main() {
  const adapter = await gpu.requestAdapter();
  const dev = adapter && (await adapter.requestDevice());
  if (!dev) {
    console.error('wgsl_errors: no WebGPU adapter or device (is VK_ICD_FILENAMES set to SwiftShader\'s ICD?)');
    process.exit(2);
  }
  for (const file of process.argv.slice(2)) {
    dev.pushErrorScope('validation');
    const module = dev.createShaderModule({ code: readFileSync(file, 'utf8') });
    await module.getCompilationInfo();
    const error = await dev.popErrorScope();
    console.log(`== ${file} ${error ? 'refused' : 'compiled'}`);
    if (error) console.log(error.message);
  }
  process.exit(0);
}

main();
