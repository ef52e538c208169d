// The package for Node (>= 20): the engine's bytes are read from disk.
import { readFile } from 'node:fs/promises';

import { setWasmSource } from './engine_loader.js';

setWasmSource(async (imports) => {
  const bytes = await readFile(new URL('./engine/freshet_engine.wasm', import.meta.url));
  return (await WebAssembly.instantiate(bytes, imports)).instance;
});

export * from './index.js';
// Node only (uses node:fs): browser and workerd entries never import it.
export { FileStorage } from './storages/file_storage.js';
