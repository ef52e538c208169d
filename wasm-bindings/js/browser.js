// The package for browsers (main thread or Web Worker): the engine is
// fetched next to this file and compiled while it downloads.
import { setWasmSource } from './engine_loader.js';

setWasmSource(async (imports) => {
  const url = new URL('./engine/freshet_engine.wasm', import.meta.url);
  if (typeof WebAssembly.instantiateStreaming === 'function') {
    try {
      return (await WebAssembly.instantiateStreaming(fetch(url), imports)).instance;
    } catch {
      // A server that does not send application/wasm: compile from the bytes below.
    }
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`fetching ${url} failed: ${response.status}`);
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
});

export * from './index.js';
