// A chunk as JS hands it to consumers (API.md §2), written in wasm as one
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

}  // namespace freshet::wasm
