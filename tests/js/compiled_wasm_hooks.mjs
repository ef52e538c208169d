// Node module hooks that import a .wasm file the way wrangler's CompiledWasm
// rule does on workerd: as a compiled WebAssembly.Module (default export).
// Used by loader.test.mjs to run the package's workerd entry under Node:
//   node --import ./compiled_wasm_hooks.mjs --conditions=workerd program.mjs
import { register } from 'node:module';

register(`data:text/javascript,${encodeURIComponent(`
export async function load(url, context, nextLoad) {
  if (!url.endsWith('.wasm')) return nextLoad(url, context);
  const source = 'import { readFileSync } from "node:fs";' +
    'export default new WebAssembly.Module(readFileSync(new URL(' + JSON.stringify(url) + ')));';
  return { format: 'module', source, shortCircuit: true };
}`)}`);
