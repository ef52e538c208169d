// A chunk of an egress stream as numbers JS reads straight out of wasm memory
// (../js/row_chunk.js), not as JSON text: for a change's one-row deltas, the
// JSON text's encoding here and its decoding and JSON.parse in JS were most
// of what a chunk cost. It carries the very chunk js_chunk.h would give
// JS, value for value, and is used only where it can:
//   - an egress without an index, whose view's columns are all BOOLEAN,
//     TINYINT, SMALLINT, INT, BIGINT, DOUBLE or VARCHAR (30 columns at most);
//   - a chunk whose BIGINTs are within ±(2^53 − 1) (JS numbers; others are
//     BigInts, which JSON carries) and whose strings are valid UTF-8 (JSON
//     carries the replacement characters of invalid bytes);
// any other chunk goes as JSON. Layout, in 8-byte words:
//   [0] sequenceNumber [1] step [2] snapshot + 2 * snapshotComplete
//   [3] rows inserted [4] rows deleted (a row of weight w counted |w| times) [5] columns n
//   [6, 6 + n) each column's kind: 0 a number, 1 a boolean, 2 a string
//   then each row inserted, then each row deleted, |w| times each:
//     its NULL mask (bit c: column c is NULL), then n doubles (the number;
//     a boolean as 0 or 1; a string's length in bytes, 0 for NULL), then its
//     strings' UTF-8 bytes in column order, padded to a whole word.
// -0.0 goes as 0, as the JSON text writes it.
#pragma once

#include <cstdint>
#include <vector>

#include "freshet/pipeline/output_endpoint.h"

namespace freshet::wasm {

//! Replaces `out` by `chunk` in the layout above; false (and `out`
//! unspecified) when the chunk must go as JSON.
bool write_js_row_chunk(const OutputEndpoint& endpoint, const OutputChunk& chunk, std::vector<uint64_t>* out);
//! Appends `chunk` in the layout above after what `out` holds; false (and
//! `out` as it was) when the chunk must go as JSON.
bool append_js_row_chunk(const OutputEndpoint& endpoint, const OutputChunk& chunk, std::vector<uint64_t>* out);

}  // namespace freshet::wasm
