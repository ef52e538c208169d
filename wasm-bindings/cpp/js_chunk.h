// A chunk as JS hands it to consumers (docs/js-api.md), written in wasm as one
// JSON object so that JS needs a single JSON.parse and no reshaping:
//   {"sequenceNumber":0,"step":1,"snapshot":true,"snapshotComplete":true,"inserts":[...],"deletes":[...]}
//   {"sequenceNumber":0,"step":1,"snapshot":false,"snapshotComplete":false,"upserts":[{"key","row"}],"deletes":[{"key"}]}
// (the second through an index). Values are the core's JSON (json_output.h):
// integers keep every digit, so JS re-reads the rare text that needs BigInts
// (values.js).
#pragma once

#include <string>

#include "freshet/pipeline/output_endpoint.h"

namespace freshet::wasm {

//! Appends `chunk` of `endpoint` as the object above.
void append_js_chunk(const OutputEndpoint& endpoint, const OutputChunk& chunk, std::string* out);

//! Marks JSON text that JSON.parse would not read exactly — an integer part
//! of 16 or more digits (a BIGINT beyond 2^53 is one) or a "NaN" /
//! "Infinity" string for a float — with one trailing space (still valid
//! JSON). values.js takes its slow path for marked text only: scanning here
//! costs a fraction of a JS regular expression over the same text. Every
//! text of rows the facade returns to JS goes through it.
std::string& mark_inexact_for_js(std::string& json);

}  // namespace freshet::wasm
