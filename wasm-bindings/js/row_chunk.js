// A chunk read straight out of wasm memory as a row chunk
// (../cpp/js_row_chunk.h): numbers from the heap's doubles, strings from
// its bytes, no JSON text to decode and parse. The engine sends a chunk so
// only when it reads back as the JSON text of the same chunk would (the
// same object, value for value); any other chunk comes as JSON (chunks.js).
//
// A change's chunk is a row or two, read thousands of times a second, and
// what it leaves behind is what V8's young-generation collector then walks:
// its pauses (2–3 ms here) were the slowest changes of a long run. So the
// reader allocates only what it hands out (the chunk, its two arrays, the
// rows and their new strings): no arrays or objects of its own, and short
// strings seen before are taken from a small cache instead of being built
// again (a dashboard's views repeat their group keys: regions, statuses).

const decoder = new TextDecoder();
const HEADER_WORDS = 6;
const NUMBER = 0;
const BOOLEAN = 1;
const SHORT_STRING = 32;  // bytes; longer or non-ASCII strings go through TextDecoder
const CACHED_STRINGS = 1024;  // a power of two: a string's slot is its hash's low bits

// Short ASCII strings read recently, each in the slot of its bytes' hash.
const recentStrings = new Array(CACHED_STRINGS).fill('');
// Where readRows() stopped: the word after the last row it read.
let rowsEnd = 0;

/**
 * The chunk at `address` (8-byte aligned) of `module`'s memory.
 * @param {{ name: string }[]} columns the view's columns, in the row's order
 */
export function readRowChunk(module, address, columns) {
  const words = module.HEAPF64;
  const bytes = module.HEAPU8;
  const at = address / 8;
  const columnCount = words[at + 5];
  const kindsAt = at + HEADER_WORDS;
  const flags = words[at + 2];
  const inserts = readRows(words, bytes, kindsAt + columnCount, words[at + 3], kindsAt, columnCount, columns);
  const deletes = readRows(words, bytes, rowsEnd, words[at + 4], kindsAt, columnCount, columns);
  return { sequenceNumber: words[at], step: words[at + 1], snapshot: (flags & 1) !== 0, snapshotComplete: (flags & 2) !== 0, inserts, deletes };
}

// `count` rows from word `at` on, each column's kind at words[kindsAt + c];
// sets rowsEnd.
function readRows(words, bytes, at, count, kindsAt, columnCount, columns) {
  // Sized at once: a push onto [] reserves room for 17 rows.
  const rows = count === 0 ? [] : new Array(count);
  for (let r = 0; r < count; ++r) {
    const nulls = words[at];
    const row = {};
    let text = (at + 1 + columnCount) * 8;  // the row's strings
    for (let c = 0; c < columnCount; ++c) {
      const word = words[at + 1 + c];
      const kind = words[kindsAt + c];
      let value;
      if (nulls & (1 << c)) {
        value = null;
      } else if (kind === NUMBER) {
        value = word;
      } else if (kind === BOOLEAN) {
        value = word !== 0;
      } else {
        value = readString(bytes, text, word);
        text += word;
      }
      // One store for every kind: V8's optimized code assumes the column
      // names a store has seen, and a store per kind had seen the boolean
      // columns of the warm-up's program only (an application's first
      // boolean column threw readRows() away, traced with --trace-deopt).
      row[columns[c].name] = value;
    }
    at = Math.ceil(text / 8);
    rows[r] = row;
  }
  rowsEnd = at;
  return rows;
}

function readString(bytes, start, length) {
  if (length > SHORT_STRING) return decoder.decode(bytes.subarray(start, start + length));
  const end = start + length;
  let hash = length;
  for (let i = start; i < end; ++i) {
    const byte = bytes[i];
    if (byte >= 0x80) return decoder.decode(bytes.subarray(start, end));
    hash = Math.imul(hash ^ byte, 0x01000193);
  }
  const slot = (hash >>> 0) & (CACHED_STRINGS - 1);
  const cached = recentStrings[slot];
  if (cached.length === length && sameAscii(cached, bytes, start)) return cached;
  let text = '';
  for (let i = start; i < end; ++i) text += String.fromCharCode(bytes[i]);
  recentStrings[slot] = text;
  return text;
}

function sameAscii(text, bytes, start) {
  for (let i = 0; i < text.length; ++i) {
    if (text.charCodeAt(i) !== bytes[start + i]) return false;
  }
  return true;
}
