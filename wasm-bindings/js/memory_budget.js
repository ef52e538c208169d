// maxMemoryBytes (Pipeline.create): the engine's memory budget — the bytes
// its state holds plus what one step builds (core/include/freshet/circuit/
// step_memory.h). A step past it fails with OUT_OF_MEMORY naming the
// operator that grew, instead of growing wasm memory until the isolate dies.

import { invalidArgument } from './errors.js';

/**
 * The default: a Cloudflare Workers isolate has 128 MiB for wasm memory and
 * the JS heap together. A checkpoint needs the state twice more for a moment
 * (its encoding in wasm, its copy in JS), and wasm memory never shrinks, so
 * the state and a step may take about a third of it (bench/js/memory.mjs
 * measures the largest step that fits).
 */
export const DEFAULT_MAX_MEMORY_BYTES = 40 * 1024 * 1024;
const MAX_BUDGET = 2 ** 32;  // wasm32: nothing holds more

/** The budget `options.maxMemoryBytes` asks for (0: none); INVALID_ARGUMENT for anything else. */
export function memoryBudgetOf(options) {
  const { maxMemoryBytes = DEFAULT_MAX_MEMORY_BYTES } = options;
  if (maxMemoryBytes === 0 || maxMemoryBytes === Infinity) return 0;
  if (!Number.isSafeInteger(maxMemoryBytes) || maxMemoryBytes < 0 || maxMemoryBytes > MAX_BUDGET) {
    throw invalidArgument(`maxMemoryBytes is a number of bytes up to 4 GiB (0 or Infinity: no budget), not ${maxMemoryBytes}`);
  }
  return maxMemoryBytes;
}
