// A chunk read straight out of wasm memory as a row chunk
// (../cpp/js_row_chunk.h): numbers from the heap's doubles, strings from
// its bytes, no JSON text to decode and parse. The engine sends a chunk so
// only when it reads back as the JSON text of the same chunk would (the
// same object, value for value); any other chunk comes as JSON (chunks.js).

const decoder = new TextDecoder();
const HEADER_WORDS = 6;
const NUMBER = 0;
const BOOLEAN = 1;
const SHORT_STRING = 32;  // bytes; longer or non-ASCII strings go through TextDecoder

/**
 * The chunk at `address` (8-byte aligned) of `module`'s memory.
 * @param {{ name: string }[]} columns the view's columns, in the row's order
 */
export function readRowChunk(module, address, columns) {
  const words = module.HEAPF64;
  const bytes = module.HEAPU8;
  const at = address / 8;
  const count = words[at + 5];
  const kinds = [];
  for (let c = 0; c < count; ++c) kinds.push(words[at + HEADER_WORDS + c]);
  const reader = { words, bytes, at: at + HEADER_WORDS + count };
  const flags = words[at + 2];
  const inserts = readRows(reader, words[at + 3], kinds, columns);
  const deletes = readRows(reader, words[at + 4], kinds, columns);
  return { sequenceNumber: words[at], step: words[at + 1], snapshot: (flags & 1) !== 0, snapshotComplete: (flags & 2) !== 0, inserts, deletes };
}

function readRows(reader, count, kinds, columns) {
  const { words, bytes } = reader;
  const rows = [];
  let at = reader.at;
  for (let r = 0; r < count; ++r) {
    const nulls = words[at];
    const row = {};
    let text = (at + 1 + kinds.length) * 8;  // the row's strings
    for (let c = 0; c < kinds.length; ++c) {
      const value = words[at + 1 + c];
      const kind = kinds[c];
      if (nulls & (1 << c)) {
        row[columns[c].name] = null;
      } else if (kind === NUMBER) {
        row[columns[c].name] = value;
      } else if (kind === BOOLEAN) {
        row[columns[c].name] = value !== 0;
      } else {
        row[columns[c].name] = readString(bytes, text, value);
        text += value;
      }
    }
    at = Math.ceil(text / 8);
    rows.push(row);
  }
  reader.at = at;
  return rows;
}

function readString(bytes, start, length) {
  if (length > SHORT_STRING) return decoder.decode(bytes.subarray(start, start + length));
  let text = '';
  for (let i = start; i < start + length; ++i) {
    const byte = bytes[i];
    if (byte >= 0x80) return decoder.decode(bytes.subarray(start, start + length));
    text += String.fromCharCode(byte);
  }
  return text;
}
