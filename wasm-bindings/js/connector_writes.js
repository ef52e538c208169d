// The connectors' writes of a step as the engine hands them over: one buffer
// in wasm memory with every write (../cpp/js_outbox.h), read with no call per
// write. Each is a chunk of one connector, a row chunk read straight out of
// the memory (row_chunk.js) or JSON text (chunks.js); a view without a delta
// wrote nothing and costs nothing here.

import { parseChunk } from './chunks.js';
import { readRowChunk } from './row_chunk.js';

const decoder = new TextDecoder();
const ROW_CHUNK = 1;     // js_outbox.h JsOutbox::kRowChunk
const WRITE_WORDS = 3;   // a write's header: connector number, format, payload bytes

/**
 * Reads the writes at `address` (8-byte aligned) and hands each chunk to
 * `connectorOf(number)`'s deliver(); writes of a connector removed meanwhile
 * (connectorOf gives undefined) are dropped, as the core dropped its queue.
 * @param {{ HEAPF64: Float64Array, HEAPU8: Uint8Array }} module
 * @param {(number: number) => import('./connector.js').Connector | undefined} connectorOf
 */
export function deliverWrites(module, address, connectorOf) {
  const words = module.HEAPF64;
  let at = address / 8;
  const count = words[at++];
  for (let w = 0; w < count; ++w) {
    const connector = connectorOf(words[at]);
    const format = words[at + 1];
    const bytes = words[at + 2];
    const payload = (at + WRITE_WORDS) * 8;
    at += WRITE_WORDS + Math.ceil(bytes / 8);
    if (!connector) continue;
    const { shape } = connector.config;
    connector.deliver(format === ROW_CHUNK
      ? readRowChunk(module, payload, shape.columns)
      : parseChunk(decoder.decode(module.HEAPU8.subarray(payload, payload + bytes)), shape));
  }
}
