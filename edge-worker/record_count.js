// How many records an ingress body holds, counted from its bytes before the
// engine parses it, so that a body over FRESHET_MAX_INGRESS_RECORDS is
// refused with nothing applied (limits.js).
//
// ## Design
// A record takes at least 2 bytes with its separator (`1,`, `{}` and a
// newline), 13 in JSON's insert_delete format (`{"insert":0},`), so a body
// of fewer than that × limit bytes cannot hold more than `limit` records
// and is not scanned: with the default limit, the sample's batches of 1,000
// or 10,000 orders never are. A larger one is scanned once (about 5× faster
// than JSON.parse of it), stopping as soon as the count passes the limit:
//   JSON array        values at depth 1 (strings and escapes skipped)
//   newline-delimited values at depth 0
//   CSV               lines that are not blank, a quoted field's newlines not counted
// The count is exact for well-formed input; for malformed input it may be
// anything, and the engine's parser then answers PARSE_ERROR.

import { HttpError } from './http_errors.js';

const QUOTE = 0x22, BACKSLASH = 0x5c, NEWLINE = 0x0a;
// What each byte is to the scan, looked up in a table (a Set per byte is ten times slower).
const OTHER = 0, OPENER = 1, CLOSER = 2, SEPARATOR = 3, STRING = 4;  // SEPARATOR: blank or ','
const KIND = new Uint8Array(256);
for (const byte of [0x5b, 0x7b]) KIND[byte] = OPENER;              // [ {
for (const byte of [0x5d, 0x7d]) KIND[byte] = CLOSER;              // ] }
for (const byte of [0x20, 0x09, 0x0a, 0x0d, 0x2c]) KIND[byte] = SEPARATOR;
KIND[QUOTE] = STRING;

/**
 * 413 TOO_MANY_RECORDS when `body` holds more than `limit` records.
 * @param {Uint8Array} body
 * @param {{ format: 'json' | 'csv', array: boolean, updateFormat?: 'insert_delete' | 'raw' }} shape
 * @param {number} limit
 */
export function checkRecordCount(body, { format, array, updateFormat = 'raw' }, limit) {
  const smallest = format === 'json' && updateFormat === 'insert_delete' ? 13 : 2;
  if (body.length < smallest * limit) return;
  const count = format === 'csv' ? countCsvLines(body, limit) : countJsonValues(body, array ? 1 : 0, limit);
  if (count <= limit) return;
  throw new HttpError('TOO_MANY_RECORDS', `the ingress holds more than ${limit} records (FRESHET_MAX_INGRESS_RECORDS): ` +
                      'split it into smaller requests; nothing of it was applied', { limit });
}

/** Values at `depth` (1: the elements of a top-level array; 0: newline-delimited values), up to limit + 1. */
export function countJsonValues(bytes, depth, limit = Infinity) {
  let level = 0, count = 0, inValue = false;
  const length = bytes.length;
  for (let i = 0; i < length; ++i) {
    const kind = KIND[bytes[i]];
    if (kind === SEPARATOR) {
      if (level === depth) inValue = false;  // a scalar at the record depth ends here
      continue;
    }
    if (kind === CLOSER) {
      if (--level === depth) inValue = false;
      continue;
    }
    // Any other byte at the record depth that is not inside a value starts one.
    if (level === depth && !inValue) {
      if (++count > limit) return count;
      inValue = kind !== OPENER;  // a container ends at its closer, a scalar at a separator
    }
    if (kind === OPENER) {
      ++level;
    } else if (kind === STRING) {
      // Skip to the closing quote, over escapes.
      for (++i; i < length; ++i) {
        const byte = bytes[i];
        if (byte === BACKSLASH) ++i;
        else if (byte === QUOTE) break;
      }
    }
  }
  return count;
}

/** Lines that are not blank, a quoted field's newlines not counted, up to limit + 1. */
export function countCsvLines(bytes, limit = Infinity) {
  let count = 0, quoted = false, blank = true;
  const length = bytes.length;
  for (let i = 0; i < length; ++i) {
    const byte = bytes[i];
    if (byte === QUOTE) quoted = !quoted;
    if (byte === NEWLINE && !quoted) {
      if (!blank && ++count > limit) return count;
      blank = true;
    } else if (blank && KIND[byte] !== SEPARATOR || byte === 0x2c) {
      blank = false;
    }
  }
  return blank ? count : count + 1;
}
