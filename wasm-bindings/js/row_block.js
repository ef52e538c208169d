// Writes an array of row objects as a row block (core/include/freshet/format/
// row_block.h) straight into wasm memory: no JSON.stringify, no encoding of
// the text, no JSON parsing in wasm: inserting 10k orders costs ~2.8x less
// than the JSON way (bench/js/README.md). Both update formats: rows to
// insert (raw), and {insert: row} / {delete: row} records (insert_delete);
// and rows each to be deleted (p.delete()), written as insert_delete
// without a record object made for each.
//
// ## Design
// A block must mean exactly what the rows' JSON would, so only rows whose
// JSON meaning is plain are written; for anything else writeRowBlock()
// answers REFUSED and the caller sends JSON, whose rules and errors are the
// reference. Plain means: the array holds plain objects (prototype
// Object.prototype or null; a record's one key "insert" or "delete" holding
// such an object) whose enumerable keys are all column names as
// declared, each value null, undefined (JSON leaves the column out), a finite
// number, a boolean or a well-formed string. Whether a value fits its
// column (an integer for BIGINT, a date's or time's text, NOT NULL) is the engine's to
// check, with the JSON rules; a block it refuses is sent again as JSON too.
// (Not mirrored: a row with both a non-enumerable column property and an
// undefined one would pass the key count; such rows are not plain data.)

export const REFUSED = -2;
// What the records are (writeRowBlock's `kind`).
export const ROWS = 0;     // rows to insert (raw)
export const RECORDS = 1;  // {insert: row} / {delete: row} (insert_delete)
export const DELETES = 2;  // rows, each to be deleted (insert_delete: their records are {delete: row})

const HEADER_BYTES = 16;
const MAGIC = 0x31425246;  // "FRB1"
const HAS_OPS = 1;
const NULL = 0, NUMBER = 1, FALSE = 2, TRUE = 3, STRING = 4, ABSENT = 5;
const encoder = new TextEncoder();
const hasWellFormed = typeof ''.isWellFormed === 'function';

function isPlainObject(row) {
  if (row === null || typeof row !== 'object') return false;
  const prototype = Object.getPrototypeOf(row);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The bytes a block of these rows needs before its strings.
 * @param {number} rows @param {number} columns @param {number} kind
 */
function fixedBlockBytes(rows, columns, kind) {
  return HEADER_BYTES + 9 * rows * columns + (kind === ROWS ? 0 : rows);
}

// The row of an insert_delete record {insert: row} / {delete: row}, with
// its operation (1 insert, 0 delete); null when it is not such a record
// with a plain row.
function recordRow(record) {
  if (!isPlainObject(record)) return null;
  let keys = 0, op = -1;
  for (const key in record) {
    ++keys;
    op = key === 'insert' ? 1 : key === 'delete' ? 0 : -1;
  }
  if (keys !== 1 || op < 0) return null;
  const row = op ? record.insert : record.delete;
  return isPlainObject(row) ? { row, op } : null;
}

/**
 * Writes `records` (those from index `from` to `to`) as a block at `address` (8-byte aligned) in `heap`,
 * within `capacity` bytes: as `kind` says, rows to insert (ROWS: the raw
 * update format), records `{insert: row}` / `{delete: row}` (RECORDS:
 * insert_delete), or rows to delete (DELETES: insert_delete).
 * @returns {number} the block's size in bytes, REFUSED when the records are
 * not plain (send JSON), or -(bytes) when the block did not fit: grow to
 * at least that and call again (a block of long strings may ask twice).
 * @param {Uint8Array} heap the wasm memory @param {number} address @param {number} capacity
 * @param {object[]} records @param {string[]} names the table's column names, in order
 * @param {number} kind ROWS, RECORDS or DELETES
 * @param {Float64Array} doubles a view of the same memory as `heap`, from the
 *   same offset (the wasm memory's HEAPF64: a view per call costs more than
 *   a one-row block's writing)
 * @param {number} from @param {number} to
 */
export function writeRowBlock(heap, address, capacity, records, names, kind = ROWS,
  doubles = new Float64Array(heap.buffer, heap.byteOffset, heap.byteLength >> 3), from = 0, to = records.length) {
  const rowCount = to - from, columnCount = names.length;
  const stringsStart = fixedBlockBytes(rowCount, columnCount, kind);
  if (address % 8 !== 0 || heap.byteOffset % 8 !== 0) return REFUSED;
  // Not even the fixed part fits: ask for it and some room for strings, not
  // for an exact count — a walk over every row only to size the buffer
  // costs as much as the writing (more while the code is cold, as in a
  // process's first bulk load). Strings that then do not fit are sized
  // exactly below, from where they stopped.
  if (stringsStart > capacity) return -(stringsStart + (stringsStart >> 1));
  const cellCount = rowCount * columnCount;
  const cellsAt = (address + HEADER_BYTES) / 8;  // in doubles
  const kindsAt = address + HEADER_BYTES + 8 * cellCount;
  const opsAt = kindsAt + cellCount;
  // The header first (a block refused below is not sent, whatever it
  // holds): code after the row loop is first reached in the loop's
  // optimized (OSR) code, which gathers no type feedback, so the function's
  // first full optimization dropped back to the interpreter there, and the
  // next chunks of a process's first bulk load ran ~5x slower.
  writeU32(heap, address, MAGIC);
  writeU32(heap, address + 4, rowCount);
  writeU32(heap, address + 8, columnCount);
  writeU32(heap, address + 12, kind === ROWS ? 0 : HAS_OPS);
  let stringAt = stringsStart;  // from the block's start
  let cell = 0;
  for (let r = 0; r < rowCount; ++r) {
    let row = records[from + r];
    if (kind === RECORDS) {
      const record = recordRow(row);
      if (!record) return REFUSED;
      row = record.row;
      heap[opsAt + r] = record.op;
    } else if (!isPlainObject(row)) {
      return REFUSED;
    } else if (kind === DELETES) {
      heap[opsAt + r] = 0;
    }
    let present = 0;
    for (let c = 0; c < columnCount; ++c, ++cell) {
      const value = row[names[c]];
      switch (typeof value) {
        case 'undefined':  // JSON leaves the column out
          heap[kindsAt + cell] = ABSENT;
          break;
        case 'number':
          if (!Number.isFinite(value)) return REFUSED;  // JSON writes null
          heap[kindsAt + cell] = NUMBER;
          doubles[cellsAt + cell] = value;  // -0 too: rows hold +0 (canonical_double), as JSON's "0" gives
          ++present;
          break;
        case 'boolean':
          heap[kindsAt + cell] = value ? TRUE : FALSE;
          ++present;
          break;
        case 'string': {
          if (hasWellFormed && !value.isWellFormed()) return REFUSED;
          // UTF-8 takes at most 3 bytes per UTF-16 unit.
          const room = 4 + 3 * value.length;
          if (stringAt + room > capacity) return -(stringAt + stringBytesFrom(records, names, from + r, c, to, kind));
          const at = address + stringAt + 4;
          let written = asciiInto(heap, at, value);
          if (written < 0) written = encoder.encodeInto(value, heap.subarray(at, address + stringAt + room)).written;
          writeU32(heap, address + stringAt, written);
          doubles[cellsAt + cell] = stringAt;
          stringAt += 4 + written;
          heap[kindsAt + cell] = STRING;
          ++present;
          break;
        }
        case 'object':
          if (value !== null) return REFUSED;
          heap[kindsAt + cell] = NULL;
          ++present;
          break;
        default:
          return REFUSED;  // bigint, symbol, function
      }
    }
    // JSON sends the enumerable keys whose values are not undefined: they
    // must be the columns read above (the engine would name any other).
    // Counting keys is the fast check; the exact one runs only when the
    // counts differ (a key whose value is undefined, or one that is not a
    // column).
    let keys = 0;
    for (const key in row) ++keys;  // eslint-disable-line no-unused-vars
    if (keys !== present && !sendsOnlyColumns(row, names, present)) return REFUSED;
  }
  return stringAt;
}

function sendsOnlyColumns(row, names, present) {
  let sent = 0;
  for (const key in row) {
    if (row[key] === undefined) continue;
    if (!names.includes(key)) return false;
    ++sent;
  }
  return sent === present;
}

// Bytes the strings from row `fromRow`, column `fromColumn` on (to row `to`) may take.
function stringBytesFrom(records, names, fromRow, fromColumn, to, kind) {
  let bytes = 0;
  for (let r = fromRow; r < to; ++r) {
    const row = kind === RECORDS ? recordRow(records[r])?.row : records[r];
    for (let c = r === fromRow ? fromColumn : 0; c < names.length; ++c) {
      const value = row?.[names[c]];
      if (typeof value === 'string') bytes += 4 + 3 * value.length;
    }
  }
  return bytes;
}

// Writes a short ASCII string's bytes at `at`: its length, or -1 when it is
// long or not ASCII (then encodeInto writes it over whatever this wrote).
// Names, codes and regions are mostly such strings, and encodeInto is a
// call into C++ with a view made for it: for a few bytes ~10x the cost,
// ~7 µs a string in a process's first bulk load.
function asciiInto(heap, at, text) {
  if (text.length > 64) return -1;
  for (let i = 0; i < text.length; ++i) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return -1;
    heap[at + i] = code;
  }
  return text.length;
}

function writeU32(heap, at, value) {
  heap[at] = value & 0xff;
  heap[at + 1] = (value >>> 8) & 0xff;
  heap[at + 2] = (value >>> 16) & 0xff;
  heap[at + 3] = value >>> 24;
}
