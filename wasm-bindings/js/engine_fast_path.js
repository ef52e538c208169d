// The per-change calls (ingest, step, next chunk, connectors' writes and
// their acknowledgements) without Embind
// (../cpp/engine.h, "text in place"; ../cpp/bindings.cpp's plain exports).
// Embind copies a string into wasm with a JS loop over its characters and
// back out with another, allocating on both sides, and its invoker costs
// ~0.1-0.3 µs a call: together ~1.5 µs of a change that costs ~20. Here
// input is encoded straight into the engine's input buffer
// (TextEncoder.encodeInto), a chunk decoded straight out of wasm memory
// (TextDecoder), the calls go to plain wasm exports with the engine's
// address, and what a call yields besides its return value sits in the
// engine's exchange doubles, read from the memory without a call.

import { REFUSED, writeRowBlock } from './row_block.js';
import { readRowChunk } from './row_chunk.js';
import { deliverWrites } from './connector_writes.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// ingestInput's formats (engine.h InputFormat) by format and update format.
const INPUT_FORMATS = new Map([['json insert_delete', 0], ['json raw', 1], ['csv insert_delete', 2], ['csv raw', 2]]);

/** The engine's number for a format and update format; undefined for others (the engine names them). */
export function inputFormat(format, updateFormat) {
  return INPUT_FORMATS.get(`${format} ${updateFormat}`);
}

const TEXT_ADDRESS = 0;        // engine.h ExchangeSlot
const STEP_INPUT_RECORDS = 1;
const CHUNK_FORMAT = 2;
const ROW_CHUNK = 1;           // engine.h ChunkFormat kRowChunk
const MIN_INPUT_BYTES = 4096;
const KEPT_INPUT_BYTES = 1 << 20;  // a bulk load's buffer is freed after it, not kept
// A bulk load's rows go in parts of about this many cells (~150 KB of block
// for numbers), engine.h ingest_block_part's part numbers.
const PART_CELLS = 1 << 14;
const WHOLE = 0, FIRST_PART = 1, MIDDLE_PART = 2, LAST_PART = 3;

export class EngineFastPath {
  #module;
  #engine;
  #address;       // the Engine's, for the plain exports
  #exchange;      // index of the exchange's first double in HEAPF64
  #input = 0;     // the input buffer's address
  #capacity = 0;  // and its size (the engine adds the parser's padding); 0: no buffer yet

  constructor(module, engine) {
    this.#module = module;
    this.#engine = engine;
    this.#address = engine.address();
    this.#exchange = engine.exchangeAddress() / 8;
  }

  /**
   * Ingests text or bytes into table number `table` (Program.tableNumber) in
   * format number `format` (inputFormat()). @returns {number} the token, or -1 (see lastError())
   */
  ingest(table, data, format, array) {
    let bytes;
    if (typeof data === 'string') {
      // ASCII takes a byte per UTF-16 unit; anything else up to three.
      if (data.length > this.#capacity || !this.#capacity) this.#reserve(data.length);
      let { read, written } = encoder.encodeInto(data, this.#inputView());
      if (read < data.length) {
        this.#reserve(data.length * 3);
        ({ written } = encoder.encodeInto(data, this.#inputView()));
      }
      bytes = written;
    } else {
      if (data.byteLength > this.#capacity || !this.#capacity) this.#reserve(data.byteLength);
      this.#module.HEAPU8.set(data, this.#input);
      bytes = data.byteLength;
    }
    const token = this.#module._freshet_ingest_input(this.#address, table, bytes, format, array ? 1 : 0);
    this.#releaseLargeInput();
    return token;
  }

  /**
   * Ingests objects into table number `table` as a row block
   * (row_block.js) of the `kind` it names: rows to insert (ROWS),
   * insert_delete records (RECORDS) or rows to delete (DELETES).
   * @returns {number} the token, or REFUSED: the objects are not plain or
   * the engine refused them, and nothing was applied — send them as JSON,
   * whose errors are the ones to report.
   * @param {string[]} names the table's column names
   */
  ingestObjects(table, records, names, kind) {
    const token = this.#ingestObjectsInParts(table, records, names, kind);
    this.#releaseLargeInput();
    return token;
  }

  // In parts, each written into the same buffer and read by the engine at
  // once, applied together with the last (pipeline.h IngestPart): one
  // block of 200k orders was 5.4 MB of wasm memory touched for the first
  // time, for one reading. Rows that fit one part go whole. A part refused
  // drops the parts before it (the next ingest, the JSON, starts afresh).
  #ingestObjectsInParts(table, records, names, kind) {
    const partRows = Math.max(1, Math.floor(PART_CELLS / names.length));
    for (let from = 0; ; from += partRows) {
      const to = Math.min(records.length, from + partRows);
      const bytes = this.#writeBlock(records, names, kind, from, to);
      if (bytes < 0) return REFUSED;
      const last = to === records.length;
      const part = from === 0 ? (last ? WHOLE : FIRST_PART) : last ? LAST_PART : MIDDLE_PART;
      const token = this.#module._freshet_ingest_block_part(this.#address, table, bytes, part, records.length);
      if (token < 0) return REFUSED;
      if (last) return token;
    }
  }

  // Writes records [from, to) as a row block into the input buffer,
  // growing it as asked: the block's bytes, or REFUSED.
  #writeBlock(records, names, kind, from, to) {
    const module = this.#module;
    let bytes = writeRowBlock(module.HEAPU8, this.#input, this.#capacity, records, names, kind, module.HEAPF64, from, to);
    // -(the room it asks for): the fixed part and a guess for the strings,
    // then, if the strings overflow the guess, exactly the rest.
    for (let tries = 0; tries < 2 && bytes < 0 && bytes !== REFUSED; ++tries) {
      this.#reserve(-bytes);  // the memory may grow: the views are read again
      bytes = writeRowBlock(module.HEAPU8, this.#input, this.#capacity, records, names, kind, module.HEAPF64, from, to);
    }
    return bytes < 0 ? REFUSED : bytes;
  }

  // A bulk load's buffer is not kept for the small ingests after it.
  #releaseLargeInput() {
    if (this.#capacity > KEPT_INPUT_BYTES) {
      this.#input = this.#engine.inputBuffer(0);
      this.#capacity = 0;
    }
  }

  /**
   * The next chunk on egress `id`: the chunk object itself when the engine
   * sends it as a row chunk (row_chunk.js; `columns` are the view's), else
   * its JSON text; '' when none; null when the call failed (see lastError()).
   */
  nextChunkOrText(id, columns) {
    const bytes = this.#module._freshet_next_js_chunk_in_place(this.#address, id);
    if (bytes <= 0) return bytes === 0 ? '' : null;
    const address = this.#module.HEAPF64[this.#exchange + TEXT_ADDRESS];
    if (this.#module.HEAPF64[this.#exchange + CHUNK_FORMAT] === ROW_CHUNK) return readRowChunk(this.#module, address, columns);
    return decoder.decode(this.#module.HEAPU8.subarray(address, address + bytes));
  }

  /**
   * Hands every chunk the connectors wrote since the last call to its
   * connector (connector_writes.js), all in one call.
   * @param {(number: number) => import('./connector.js').Connector | undefined} connectorOf
   */
  takeWrites(connectorOf) {
    if (this.#module._freshet_take_writes_in_place(this.#address) === 0) return;
    deliverWrites(this.#module, this.#module.HEAPF64[this.#exchange + TEXT_ADDRESS], connectorOf);
  }

  /**
   * Acknowledges connector number `connector`'s chunk `sequenceNumber`:
   * 1 when the core wrote a next chunk (takeWrites() has it), 0 when not,
   * -1 when the call failed (see lastError()).
   */
  acknowledge(connector, sequenceNumber) {
    return this.#module._freshet_acknowledge_connector(this.#address, connector, sequenceNumber);
  }

  /** Runs one step: its number, or -1 (see lastError()). */
  step() {
    return this.#module._freshet_step(this.#address);
  }

  /** Input records the last step took. */
  stepInputRecords() {
    return this.#module.HEAPF64[this.#exchange + STEP_INPUT_RECORDS];
  }

  #reserve(bytes) {
    this.#capacity = Math.max(bytes, this.#capacity * 2, MIN_INPUT_BYTES);
    this.#input = this.#engine.inputBuffer(this.#capacity);
  }

  // A fresh view each time: a growing wasm memory detaches the old one.
  #inputView() {
    return this.#module.HEAPU8.subarray(this.#input, this.#input + this.#capacity);
  }
}
