// The package for Cloudflare-style workers (workerd): they may not compile
// wasm from bytes, so the engine comes in as a module the bundler compiled
// (wrangler's CompiledWasm rule for *.wasm imports).
import engineModule from './engine/freshet_engine.wasm';

import { setWasmSource } from './engine_loader.js';

setWasmSource((imports) => WebAssembly.instantiate(engineModule, imports));

export * from './index.js';
